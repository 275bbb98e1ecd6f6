/* SPDX-License-Identifier: MIT */
/*
 * The Prometheus exporter-toolkit web configuration file (the YAML of
 * node_exporter's --web.config.file), so `pmuscope agent` takes the file
 * people already have: TLS server settings and basic-auth users.
 *
 * What is read (anything else is an error naming the key and its line, as
 * the toolkit's strict decoding rejects unknown fields too):
 *  - tls_server_config: cert_file, key_file, client_ca_file (relative paths
 *    resolve against the config file's directory), client_auth_type
 *    (NoClientCert by default; RequireClientCert is taken as the toolkit's
 *    old name of RequireAnyClientCert), min_version / max_version (TLS10 to
 *    TLS13, defaults TLS12 and TLS13).
 *    Accepted, checked for shape and ignored: cipher_suites,
 *    curve_preferences (Go's names, which mean nothing to a C TLS library)
 *    and prefer_server_cipher_suites.
 *    Refused as unsupported, because ignoring them would weaken what the
 *    file asks for or serve no certificate at all: inline cert, key and
 *    client_ca (use the *_file keys) and client_allowed_sans.
 *  - http_server_config: http2 (kept, see __http2), headers (names checked
 *    against the toolkit's five, values ignored).
 *  - basic_auth_users: user -> bcrypt hash ($2a$, $2b$ or $2y$).
 *  - rate_limit is refused as unsupported rather than silently not applied.
 * An empty file (or one holding only comments) means no TLS and no auth.
 * TLS is on as soon as any of cert_file, key_file, client_ca_file or
 * client_auth_type is set, as in the toolkit; then cert_file and key_file
 * are both required. A client_auth_type that verifies certificates needs
 * client_ca_file, and client_ca_file needs such a client_auth_type.
 *
 * Ownership and threads: __load/__parse return a new object the caller
 * frees with __free. The accessors and __check_password may be called from
 * any number of threads at once (__check_password locks the object's
 * password cache internally); strings returned by accessors live as long as
 * the object. __free must not run concurrently with any other call on the
 * same object. A NULL object reads as the defaults: no TLS, no auth.
 */
#ifndef PMS_AGENT_WEBCONFIG_H
#define PMS_AGENT_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct pms_webconfig;

enum pms_client_auth {
	PMS_CLIENT_AUTH_NONE,               /* NoClientCert */
	PMS_CLIENT_AUTH_REQUEST,            /* RequestClientCert: asked for, not verified */
	PMS_CLIENT_AUTH_REQUIRE_ANY,        /* RequireAnyClientCert: required, not verified */
	PMS_CLIENT_AUTH_VERIFY_IF_GIVEN,    /* VerifyClientCertIfGiven */
	PMS_CLIENT_AUTH_REQUIRE_AND_VERIFY, /* RequireAndVerifyClientCert */
};

/* TLS protocol versions by their wire numbers. */
enum pms_tls_version {
	PMS_TLS10 = 0x0301,
	PMS_TLS11 = 0x0302,
	PMS_TLS12 = 0x0303,
	PMS_TLS13 = 0x0304,
};

/*
 * Read and check the file at path. 0 and *out set; or -errno (-EINVAL for
 * a bad file, -ENOENT etc. when it cannot be read, -ENOMEM) with *out NULL
 * and a one-line message in err (when err_size > 0) that starts with the
 * path and, for problems at a place in the file, its line:
 * "web.yml:7: unknown key 'cert_fil' in tls_server_config".
 */
int pms_webconfig__load(const char *path, struct pms_webconfig **out, char *err, size_t err_size);
/*
 * The same from memory: yaml[0..len), messages start with name (NULL:
 * "web config"), relative paths resolve against base_dir (NULL or "":
 * left relative, to the current directory).
 */
int pms_webconfig__parse(const char *yaml, size_t len, const char *name, const char *base_dir,
			 struct pms_webconfig **out, char *err, size_t err_size);
void pms_webconfig__free(struct pms_webconfig *cfg);

bool pms_webconfig__tls(const struct pms_webconfig *cfg);
/* Resolved paths, NULL when not set. */
const char *pms_webconfig__cert_file(const struct pms_webconfig *cfg);
const char *pms_webconfig__key_file(const struct pms_webconfig *cfg);
const char *pms_webconfig__client_ca_file(const struct pms_webconfig *cfg);
enum pms_client_auth pms_webconfig__client_auth(const struct pms_webconfig *cfg);
/* The exporter-toolkit spelling ("RequireAndVerifyClientCert"), for logs. */
const char *pms_client_auth__name(enum pms_client_auth auth);
enum pms_tls_version pms_webconfig__min_version(const struct pms_webconfig *cfg);
enum pms_tls_version pms_webconfig__max_version(const struct pms_webconfig *cfg);
/* http_server_config.http2 (default true); only meaningful with TLS. */
bool pms_webconfig__http2(const struct pms_webconfig *cfg);

/* True when basic_auth_users names at least one user. */
bool pms_webconfig__auth(const struct pms_webconfig *cfg);
/*
 * 0 when user is in basic_auth_users and password matches its bcrypt hash;
 * -EACCES otherwise (also with no users at all); -ENOMEM. A failed check
 * costs one bcrypt, whether or not the user exists, so names cannot be told
 * apart by timing. A password that verified is remembered per user as a
 * keyed digest (never the password itself), so the next request with it
 * skips bcrypt (~70 ms at cost 10); a different password still pays the
 * full check. Thread-safe.
 */
int pms_webconfig__check_password(struct pms_webconfig *cfg, const char *user, const char *password);

#endif
