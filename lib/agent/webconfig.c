// SPDX-License-Identifier: MIT
// exporter-toolkit web config (--web.config.file): libyaml documents in, checked settings out,
// and bcrypt basic-auth checks with a keyed cache of the passwords that verified.
#include <crypt.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <yaml.h>

#include "agent/webconfig.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/strsim.h"

#define BCRYPT_LEN 60
#define DIGEST_LEN 32

struct user {
	char *name;
	char hash[BCRYPT_LEN + 1];
	bool cached;                 /* digest holds the last password that verified */
	unsigned char digest[DIGEST_LEN];
};

struct pms_webconfig {
	bool tls;
	char *cert_file, *key_file, *ca_file;
	enum pms_client_auth client_auth;
	enum pms_tls_version min_version, max_version;
	bool http2;

	struct user *users;
	size_t nr_users, alloc_users;
	/* bcrypt setting that unknown users are checked against, at the users' highest cost */
	char dummy[64];
	unsigned char key[32];       /* HMAC key of the cached digests, random per object */
	pthread_mutex_t lock;        /* guards users[].cached and users[].digest */
};

/* ---- SHA-256 and HMAC (FIPS 180-4, RFC 2104): only the password cache uses them ---- */

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ w[i - 15] >> 3;
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ w[i - 2] >> 10;

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha256_k[i] + w[i];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->n = 0;
}

static void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	while (len) {
		size_t take = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, take);
		s->n += take, p += take, len -= take;
		if (s->n == 64) {
			sha256_block(s, s->buf);
			s->n = 0;
		}
	}
}

static void sha256_final(struct sha256 *s, unsigned char out[DIGEST_LEN])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, len_be[8];

	sha256_update(s, &pad, 1);
	while (s->n != 56)
		sha256_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len_be[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, len_be, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
	explicit_bzero(s, sizeof(*s));
}

/* HMAC-SHA256(key, user NUL password): the cache keeps this, never the password. */
static void password_digest(const unsigned char key[32], const char *user, const char *password,
			    unsigned char out[DIGEST_LEN])
{
	unsigned char pad[64], inner[DIGEST_LEN];
	struct sha256 s;

	memset(pad, 0x36, sizeof(pad));
	for (int i = 0; i < 32; i++)
		pad[i] ^= key[i];
	sha256_init(&s);
	sha256_update(&s, pad, sizeof(pad));
	sha256_update(&s, user, strlen(user) + 1);
	sha256_update(&s, password, strlen(password));
	sha256_final(&s, inner);

	memset(pad, 0x5c, sizeof(pad));
	for (int i = 0; i < 32; i++)
		pad[i] ^= key[i];
	sha256_init(&s);
	sha256_update(&s, pad, sizeof(pad));
	sha256_update(&s, inner, sizeof(inner));
	sha256_final(&s, out);
	explicit_bzero(pad, sizeof(pad));
	explicit_bzero(inner, sizeof(inner));
}

/* Equal without an early exit, so the time taken does not say where a guess went wrong. */
static bool equal_ct(const void *a, const void *b, size_t len)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char diff = 0;

	for (size_t i = 0; i < len; i++)
		diff |= x[i] ^ y[i];
	return diff == 0;
}

/* ---- parsing ---- */

struct ctx {
	const char *name;      /* for messages */
	const char *base_dir;
	char *err;
	size_t err_size;
	yaml_document_t *doc;
	struct pms_webconfig *cfg;
};

static const char *const client_auth_names[] = {
	[PMS_CLIENT_AUTH_NONE] = "NoClientCert",
	[PMS_CLIENT_AUTH_REQUEST] = "RequestClientCert",
	[PMS_CLIENT_AUTH_REQUIRE_ANY] = "RequireAnyClientCert",
	[PMS_CLIENT_AUTH_VERIFY_IF_GIVEN] = "VerifyClientCertIfGiven",
	[PMS_CLIENT_AUTH_REQUIRE_AND_VERIFY] = "RequireAndVerifyClientCert",
};

static const struct {
	const char *name;
	enum pms_tls_version v;
} tls_versions[] = {
	{ "TLS10", PMS_TLS10 }, { "TLS11", PMS_TLS11 }, { "TLS12", PMS_TLS12 }, { "TLS13", PMS_TLS13 },
};

static const char *version_name(enum pms_tls_version v)
{
	for (size_t i = 0; i < sizeof(tls_versions) / sizeof(tls_versions[0]); i++)
		if (tls_versions[i].v == v)
			return tls_versions[i].name;
	return "?";
}

static int line_of(const yaml_node_t *node)
{
	return node ? (int)node->start_mark.line + 1 : 0;
}

/* A message "name:line: ..." (line 0: "name: ..."); returns -err. */
__attribute__((format(printf, 4, 5)))
static int fail(struct ctx *c, int err, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!c->err_size)
		return -err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(c->err, c->err_size, "%s:%d: %s", c->name, line, msg);
	else
		snprintf(c->err, c->err_size, "%s: %s", c->name, msg);
	return -err;
}

static int oom(struct ctx *c)
{
	return fail(c, ENOMEM, 0, "out of memory");
}

static yaml_node_t *node_at(struct ctx *c, int index)
{
	return yaml_document_get_node(c->doc, index);
}

/* A plain empty, ~ or null scalar: YAML's null, which the toolkit reads as "not set". */
static bool is_null(const yaml_node_t *n)
{
	const char *v;

	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = (const char *)n->data.scalar.value;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* The scalar's text when it is a scalar without NUL bytes, else NULL. */
static const char *scalar(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || strlen((const char *)n->data.scalar.value) != n->data.scalar.length)
		return NULL;
	return (const char *)n->data.scalar.value;
}

/*
 * Check that n is a mapping (or null: an empty one) with string keys, none
 * twice; *nr_pairs is 0 for null. what names it in messages.
 */
static int mapping(struct ctx *c, const yaml_node_t *n, const char *what, yaml_node_pair_t **pairs,
		   size_t *nr_pairs)
{
	*pairs = NULL;
	*nr_pairs = 0;
	if (is_null(n))
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, EINVAL, line_of(n), "%s must be a mapping of keys to values", what);
	*pairs = n->data.mapping.pairs.start;
	*nr_pairs = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	for (size_t i = 0; i < *nr_pairs; i++) {
		yaml_node_t *k = node_at(c, (*pairs)[i].key);
		const char *ks = k ? scalar(k) : NULL;

		if (!ks)
			return fail(c, EINVAL, line_of(k), "the keys of %s must be strings", what);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(ks, (const char *)node_at(c, (*pairs)[j].key)->data.scalar.value))
				return fail(c, EINVAL, line_of(k), "'%s' is given twice in %s", ks, what);
	}
	return 0;
}

static int unknown_key(struct ctx *c, const yaml_node_t *k, const char *where, const char *const *known,
		       size_t nr_known)
{
	const char *key = (const char *)k->data.scalar.value;
	const char *hint = pms_str__suggest(key, known, nr_known);

	if (hint)
		return fail(c, EINVAL, line_of(k), "unknown key '%s' in %s (did you mean '%s'?)", key, where, hint);
	return fail(c, EINVAL, line_of(k), "unknown key '%s' in %s", key, where);
}

/* *dst = the string value of v (NULL for null), a relative path joined to base_dir when path. */
static int string_value(struct ctx *c, const yaml_node_t *v, const char *key, bool path, char **dst)
{
	const char *s = scalar(v);
	size_t dlen = c->base_dir ? strlen(c->base_dir) : 0;

	free(*dst);
	*dst = NULL;
	if (is_null(v))
		return 0;
	if (!s)
		return fail(c, EINVAL, line_of(v), "%s must be a string", key);
	if (!*s)
		return 0; /* "" is the toolkit's unset too */
	if (!path || s[0] == '/' || !dlen) {
		*dst = strdup(s);
	} else {
		size_t n = dlen + 1 + strlen(s) + 1;
		bool slash = c->base_dir[dlen - 1] == '/';

		*dst = malloc(n);
		if (*dst)
			snprintf(*dst, n, "%s%s%s", c->base_dir, slash ? "" : "/", s);
	}
	return *dst ? 0 : oom(c);
}

static int bool_value(struct ctx *c, const yaml_node_t *v, const char *key, bool *dst)
{
	/* YAML 1.1's booleans, as Go's yaml.v2 reads them */
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N" };
	const char *s = scalar(v);

	if (s && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
			if (!strcmp(s, yes[i])) {
				*dst = true;
				return 0;
			}
			if (!strcmp(s, no[i])) {
				*dst = false;
				return 0;
			}
		}
	}
	return fail(c, EINVAL, line_of(v), "%s must be true or false", key);
}

/* A list of strings (or null): the shape of the options we accept and ignore. */
static int string_list(struct ctx *c, const yaml_node_t *v, const char *key)
{
	if (is_null(v))
		return 0;
	if (v->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it;

		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			yaml_node_t *item = node_at(c, *it);

			if (!item || !scalar(item))
				return fail(c, EINVAL, line_of(item ? item : v), "%s must be a list of strings", key);
		}
		return 0;
	}
	return fail(c, EINVAL, line_of(v), "%s must be a list of strings", key);
}

static int parse_client_auth(struct ctx *c, const yaml_node_t *v)
{
	const char *s = scalar(v);

	if (is_null(v) || (s && !*s)) {
		c->cfg->client_auth = PMS_CLIENT_AUTH_NONE;
		return 0;
	}
	c->cfg->tls = true;
	if (s && !strcmp(s, "RequireClientCert")) { /* the toolkit's old spelling */
		c->cfg->client_auth = PMS_CLIENT_AUTH_REQUIRE_ANY;
		return 0;
	}
	for (size_t i = 0; s && i < sizeof(client_auth_names) / sizeof(client_auth_names[0]); i++) {
		if (!strcmp(s, client_auth_names[i])) {
			c->cfg->client_auth = (enum pms_client_auth)i;
			return 0;
		}
	}
	return fail(c, EINVAL, line_of(v),
		    "client_auth_type '%s' is not one of NoClientCert, RequestClientCert, RequireAnyClientCert, "
		    "VerifyClientCertIfGiven, RequireAndVerifyClientCert", s ? s : "(not a string)");
}

static int parse_version(struct ctx *c, const yaml_node_t *v, const char *key, enum pms_tls_version *dst)
{
	const char *s = scalar(v);

	if (is_null(v))
		return 0; /* keeps the default */
	for (size_t i = 0; s && i < sizeof(tls_versions) / sizeof(tls_versions[0]); i++) {
		if (!strcmp(s, tls_versions[i].name)) {
			*dst = tls_versions[i].v;
			return 0;
		}
	}
	return fail(c, EINVAL, line_of(v), "%s '%s' is not one of TLS10, TLS11, TLS12, TLS13", key,
		    s ? s : "(not a string)");
}

static int parse_tls(struct ctx *c, const yaml_node_t *n)
{
	/* what typos are matched against: the refused keys are not worth suggesting */
	static const char *const known[] = {
		"cert_file", "key_file", "client_ca_file", "client_auth_type", "min_version", "max_version",
		"cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
	};
	struct pms_webconfig *cfg = c->cfg;
	yaml_node_pair_t *pairs;
	size_t nr;
	int err = mapping(c, n, "tls_server_config", &pairs, &nr);

	for (size_t i = 0; !err && i < nr; i++) {
		yaml_node_t *k = node_at(c, pairs[i].key), *v = node_at(c, pairs[i].value);
		const char *key = (const char *)k->data.scalar.value;

		if (!strcmp(key, "cert_file")) {
			err = string_value(c, v, key, true, &cfg->cert_file);
		} else if (!strcmp(key, "key_file")) {
			err = string_value(c, v, key, true, &cfg->key_file);
		} else if (!strcmp(key, "client_ca_file")) {
			err = string_value(c, v, key, true, &cfg->ca_file);
		} else if (!strcmp(key, "client_auth_type")) {
			err = parse_client_auth(c, v);
		} else if (!strcmp(key, "min_version")) {
			err = parse_version(c, v, key, &cfg->min_version);
		} else if (!strcmp(key, "max_version")) {
			err = parse_version(c, v, key, &cfg->max_version);
		} else if (!strcmp(key, "cipher_suites") || !strcmp(key, "curve_preferences")) {
			err = string_list(c, v, key);
		} else if (!strcmp(key, "prefer_server_cipher_suites")) {
			bool ignored;

			err = bool_value(c, v, key, &ignored);
		} else if (!strcmp(key, "cert") || !strcmp(key, "key") || !strcmp(key, "client_ca")) {
			err = fail(c, EINVAL, line_of(k), "inline %s in tls_server_config is not supported; "
				   "put it in a file and name it with %s_file", key, key);
		} else if (!strcmp(key, "client_allowed_sans")) {
			err = fail(c, EINVAL, line_of(k), "client_allowed_sans in tls_server_config is not supported");
		} else {
			err = unknown_key(c, k, "tls_server_config", known, sizeof(known) / sizeof(known[0]));
		}
	}
	if (cfg->cert_file || cfg->key_file || cfg->ca_file)
		cfg->tls = true;
	return err;
}

static int parse_http(struct ctx *c, const yaml_node_t *n)
{
	static const char *const known[] = { "http2", "headers" };
	static const char *const headers[] = {
		"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "X-XSS-Protection",
		"Strict-Transport-Security",
	};
	yaml_node_pair_t *pairs, *hpairs;
	size_t nr, hnr;
	int err = mapping(c, n, "http_server_config", &pairs, &nr);

	for (size_t i = 0; !err && i < nr; i++) {
		yaml_node_t *k = node_at(c, pairs[i].key), *v = node_at(c, pairs[i].value);
		const char *key = (const char *)k->data.scalar.value;

		if (!strcmp(key, "http2")) {
			err = bool_value(c, v, key, &c->cfg->http2);
		} else if (!strcmp(key, "headers")) {
			err = mapping(c, v, "http_server_config.headers", &hpairs, &hnr);
			for (size_t j = 0; !err && j < hnr; j++) {
				yaml_node_t *hk = node_at(c, hpairs[j].key), *hv = node_at(c, hpairs[j].value);
				bool ok = false;

				for (size_t h = 0; h < sizeof(headers) / sizeof(headers[0]); h++)
					ok |= !strcmp((const char *)hk->data.scalar.value, headers[h]);
				if (!ok)
					err = unknown_key(c, hk, "http_server_config.headers", headers,
							  sizeof(headers) / sizeof(headers[0]));
				else if (!scalar(hv))
					err = fail(c, EINVAL, line_of(hv), "header values must be strings");
			}
		} else {
			err = unknown_key(c, k, "http_server_config", known, sizeof(known) / sizeof(known[0]));
		}
	}
	return err;
}

/* $2a$, $2b$ or $2y$, a two-digit cost 04..31, '$', 53 characters of bcrypt's base64. */
static bool is_bcrypt(const char *s, int *cost)
{
	if (strlen(s) != BCRYPT_LEN || s[0] != '$' || s[1] != '2' || !memchr("aby", s[2], 3) ||
	    s[3] != '$' || s[4] < '0' || s[4] > '3' || s[5] < '0' || s[5] > '9' || s[6] != '$')
		return false;
	*cost = (s[4] - '0') * 10 + (s[5] - '0');
	if (*cost < 4 || *cost > 31)
		return false;
	for (int i = 7; i < BCRYPT_LEN; i++)
		if (!memchr("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", s[i], 64))
			return false;
	return true;
}

static int parse_users(struct ctx *c, const yaml_node_t *n)
{
	struct pms_webconfig *cfg = c->cfg;
	yaml_node_pair_t *pairs;
	size_t nr;
	int max_cost = 0;
	int err = mapping(c, n, "basic_auth_users", &pairs, &nr);

	for (size_t i = 0; !err && i < nr; i++) {
		yaml_node_t *k = node_at(c, pairs[i].key), *v = node_at(c, pairs[i].value);
		const char *name = (const char *)k->data.scalar.value, *hash = scalar(v);
		struct user *u;
		int cost;

		if (!*name || strchr(name, ':'))
			return fail(c, EINVAL, line_of(k), "basic_auth_users: '%s' cannot be a user name "
				    "(empty, or with a ':' that basic auth cannot carry)", name);
		if (!hash || !is_bcrypt(hash, &cost))
			return fail(c, EINVAL, line_of(v), "basic_auth_users: the password of '%s' is not a bcrypt "
				    "hash ($2a$, $2b$ or $2y$, as `htpasswd -nBC 10 USER` writes)", name);
		if (pms_array__reserve(&cfg->users, &cfg->alloc_users, cfg->nr_users + 1, sizeof(*cfg->users)))
			return oom(c);
		u = &cfg->users[cfg->nr_users];
		memset(u, 0, sizeof(*u));
		u->name = strdup(name);
		if (!u->name)
			return oom(c);
		memcpy(u->hash, hash, BCRYPT_LEN + 1);
		cfg->nr_users++;
		if (cost > max_cost)
			max_cost = cost;
	}
	if (!err && max_cost)
		/* salt from a real htpasswd hash: its last character must be one bcrypt accepts */
		snprintf(cfg->dummy, sizeof(cfg->dummy), "$2b$%02d$Q3U5IfJsr76f1Vx7PYtote", max_cost);
	return err;
}

static int parse_root(struct ctx *c, const yaml_node_t *root)
{
	static const char *const known[] = { "tls_server_config", "http_server_config", "basic_auth_users" };
	struct pms_webconfig *cfg = c->cfg;
	yaml_node_pair_t *pairs;
	size_t nr;
	int err;

	if (!is_null(root) && root->type != YAML_MAPPING_NODE)
		return fail(c, EINVAL, line_of(root), "the file must be a mapping (tls_server_config:, "
			    "basic_auth_users:, ...)");
	err = mapping(c, root, "the file", &pairs, &nr);
	for (size_t i = 0; !err && i < nr; i++) {
		yaml_node_t *k = node_at(c, pairs[i].key), *v = node_at(c, pairs[i].value);
		const char *key = (const char *)k->data.scalar.value;

		if (!strcmp(key, "tls_server_config")) {
			err = parse_tls(c, v);
		} else if (!strcmp(key, "http_server_config")) {
			err = parse_http(c, v);
		} else if (!strcmp(key, "basic_auth_users")) {
			err = parse_users(c, v);
		} else if (!strcmp(key, "rate_limit")) {
			err = fail(c, EINVAL, line_of(k), "rate_limit is not supported by pmuscope agent");
		} else {
			err = unknown_key(c, k, "the web config", known, sizeof(known) / sizeof(known[0]));
		}
	}
	if (err)
		return err;

	/* the checks across keys: no line, the problem is the combination */
	if (cfg->tls && (!cfg->cert_file || !cfg->key_file))
		return fail(c, EINVAL, 0, "tls_server_config needs both cert_file and key_file (%s is missing)",
			    !cfg->cert_file ? "cert_file" : "key_file");
	if ((cfg->client_auth == PMS_CLIENT_AUTH_VERIFY_IF_GIVEN ||
	     cfg->client_auth == PMS_CLIENT_AUTH_REQUIRE_AND_VERIFY) && !cfg->ca_file)
		return fail(c, EINVAL, 0, "client_auth_type %s needs client_ca_file, the CAs that client "
			    "certificates are verified against", client_auth_names[cfg->client_auth]);
	if (cfg->ca_file && cfg->client_auth == PMS_CLIENT_AUTH_NONE)
		return fail(c, EINVAL, 0, "client_ca_file is set but client_auth_type is NoClientCert; "
			    "set client_auth_type: RequireAndVerifyClientCert");
	if (cfg->min_version > cfg->max_version)
		return fail(c, EINVAL, 0, "min_version %s is above max_version %s",
			    version_name(cfg->min_version), version_name(cfg->max_version));
	return 0;
}

static int yaml_fail(struct ctx *c, const yaml_parser_t *p)
{
	if (p->error == YAML_MEMORY_ERROR)
		return oom(c);
	if (p->context)
		return fail(c, EINVAL, (int)p->problem_mark.line + 1, "%s %s", p->problem ? p->problem : "bad YAML",
			    p->context);
	return fail(c, EINVAL, (int)p->problem_mark.line + 1, "%s", p->problem ? p->problem : "bad YAML");
}

static int parse_doc(struct ctx *c, const char *yaml, size_t len)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	int err = 0;

	if (!yaml_parser_initialize(&parser))
		return oom(c);
	yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err = yaml_fail(c, &parser);
		yaml_parser_delete(&parser);
		return err;
	}
	c->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root)
		err = parse_root(c, root);
	yaml_document_delete(&doc);
	c->doc = NULL;
	/* a second document would be ignored by the toolkit; say so instead of dropping it */
	if (!err && root) {
		if (!yaml_parser_load(&parser, &doc)) {
			err = yaml_fail(c, &parser);
		} else {
			yaml_node_t *next = yaml_document_get_root_node(&doc);

			if (next)
				err = fail(c, EINVAL, line_of(next), "a second YAML document; the web config is one");
			yaml_document_delete(&doc);
		}
	}
	yaml_parser_delete(&parser);
	return err;
}

int pms_webconfig__parse(const char *yaml, size_t len, const char *name, const char *base_dir,
			 struct pms_webconfig **out, char *err, size_t err_size)
{
	struct ctx c = {
		.name = name ? name : "web config",
		.base_dir = base_dir && *base_dir ? base_dir : NULL,
		.err = err,
		.err_size = err ? err_size : 0,
	};
	struct pms_webconfig *cfg;
	int ret;

	*out = NULL;
	if (c.err_size)
		err[0] = '\0';
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return oom(&c);
	cfg->min_version = PMS_TLS12;
	cfg->max_version = PMS_TLS13;
	cfg->http2 = true;
	if ((ret = pthread_mutex_init(&cfg->lock, NULL)) != 0) {
		free(cfg);
		return fail(&c, ret, 0, "cannot create a mutex: %s", strerror(ret));
	}
	if (getrandom(cfg->key, sizeof(cfg->key), 0) != (ssize_t)sizeof(cfg->key)) {
		ret = errno ? errno : EIO;
		pms_webconfig__free(cfg);
		return fail(&c, ret, 0, "cannot get random bytes: %s", strerror(ret));
	}
	c.cfg = cfg;
	ret = parse_doc(&c, yaml ? yaml : "", yaml ? len : 0);
	if (ret) {
		pms_webconfig__free(cfg);
		return ret;
	}
	*out = cfg;
	return 0;
}

int pms_webconfig__load(const char *path, struct pms_webconfig **out, char *err, size_t err_size)
{
	const char *slash = strrchr(path, '/');
	char *text = NULL, *dir = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = pms_file__read_all(path, &text, &len);
	if (ret) {
		if (err && err_size)
			snprintf(err, err_size, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (slash) {
		dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
		if (!dir) {
			free(text);
			if (err && err_size)
				snprintf(err, err_size, "%s: out of memory", path);
			return -ENOMEM;
		}
	}
	ret = pms_webconfig__parse(text, len, path, dir, out, err, err_size);
	free(dir);
	free(text);
	return ret;
}

void pms_webconfig__free(struct pms_webconfig *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->nr_users; i++)
		free(cfg->users[i].name);
	if (cfg->users)
		explicit_bzero(cfg->users, cfg->alloc_users * sizeof(*cfg->users));
	free(cfg->users);
	free(cfg->cert_file);
	free(cfg->key_file);
	free(cfg->ca_file);
	pthread_mutex_destroy(&cfg->lock);
	explicit_bzero(cfg, sizeof(*cfg));
	free(cfg);
}

bool pms_webconfig__tls(const struct pms_webconfig *cfg)
{
	return cfg && cfg->tls;
}

const char *pms_webconfig__cert_file(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->cert_file : NULL;
}

const char *pms_webconfig__key_file(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->key_file : NULL;
}

const char *pms_webconfig__client_ca_file(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->ca_file : NULL;
}

enum pms_client_auth pms_webconfig__client_auth(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->client_auth : PMS_CLIENT_AUTH_NONE;
}

const char *pms_client_auth__name(enum pms_client_auth auth)
{
	if ((size_t)auth >= sizeof(client_auth_names) / sizeof(client_auth_names[0]))
		return "?";
	return client_auth_names[auth];
}

enum pms_tls_version pms_webconfig__min_version(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->min_version : PMS_TLS12;
}

enum pms_tls_version pms_webconfig__max_version(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->max_version : PMS_TLS13;
}

bool pms_webconfig__http2(const struct pms_webconfig *cfg)
{
	return cfg ? cfg->http2 : true;
}

bool pms_webconfig__auth(const struct pms_webconfig *cfg)
{
	return cfg && cfg->nr_users;
}

int pms_webconfig__check_password(struct pms_webconfig *cfg, const char *user, const char *password)
{
	unsigned char digest[DIGEST_LEN];
	struct crypt_data *data;
	struct user *u = NULL;
	const char *res;
	bool ok = false;

	if (!cfg || !cfg->nr_users || !user || !password)
		return -EACCES;
	for (size_t i = 0; i < cfg->nr_users && !u; i++)
		if (!strcmp(cfg->users[i].name, user))
			u = &cfg->users[i];

	password_digest(cfg->key, user, password, digest);
	if (u) {
		pthread_mutex_lock(&cfg->lock);
		ok = u->cached && equal_ct(u->digest, digest, sizeof(digest));
		pthread_mutex_unlock(&cfg->lock);
		if (ok) {
			explicit_bzero(digest, sizeof(digest));
			return 0;
		}
	}

	/* ~32 KiB: too big for the small stacks HTTP server threads may have; zeroed as crypt_rn wants */
	data = calloc(1, sizeof(*data));
	if (!data) {
		explicit_bzero(digest, sizeof(digest));
		return -ENOMEM;
	}
	/* an unknown user still pays one bcrypt, at the configured cost, so timing does not tell */
	res = crypt_rn(password, u ? u->hash : cfg->dummy, data, (int)sizeof(*data));
	ok = u && res && strlen(res) == BCRYPT_LEN && equal_ct(res, u->hash, BCRYPT_LEN);
	explicit_bzero(data, sizeof(*data));
	free(data);
	if (ok) {
		pthread_mutex_lock(&cfg->lock);
		memcpy(u->digest, digest, sizeof(digest));
		u->cached = true;
		pthread_mutex_unlock(&cfg->lock);
	}
	explicit_bzero(digest, sizeof(digest));
	return ok ? 0 : -EACCES;
}
