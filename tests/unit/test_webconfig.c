// SPDX-License-Identifier: MIT
// Unit tests of lib/agent/webconfig: the exporter-toolkit web config (TLS, basic auth), its
// messages, and bcrypt password checks with their cache, also from several threads at once.
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/webconfig.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* htpasswd -nbBC 10 alice secret; htpasswd -nbBC 10 bob hunter2; Python crypt (libxcrypt) for carol */
#define ALICE_HASH "$2y$10$Q3U5IfJsr76f1Vx7PYtoteK1YspqLjSjfVyOcZZO1MRR5zDawz0zy" /* secret */
#define BOB_HASH "$2y$10$vxfVXUlBR1Dz8rGP9taF7uaHNux/3Nw2LfBkub0PYnj2.xhL4dQeO"   /* hunter2 */
#define CAROL_HASH "$2b$10$OOBfwPo0nd42I9Ia.d2SC.vGmnS9nkuVr1aAYTVGNg07gAUVIfENe" /* secret */
/* $2a$ computes the same as $2y$ for ASCII passwords: alice's hash under the older prefix */
#define DAVE_HASH "$2a$10$Q3U5IfJsr76f1Vx7PYtoteK1YspqLjSjfVyOcZZO1MRR5zDawz0zy"  /* secret */

static const char users_yaml[] =
	"basic_auth_users:\n"
	"  alice: " ALICE_HASH "\n"
	"  bob: '" BOB_HASH "'\n"
	"  carol: \"" CAROL_HASH "\"\n"
	"  dave: " DAVE_HASH "\n";

static struct pms_webconfig *parse_ok(const char *yaml, const char *base_dir)
{
	struct pms_webconfig *cfg = (struct pms_webconfig *)1;
	char err[512] = "untouched";
	int ret = pms_webconfig__parse(yaml, strlen(yaml), "web.yml", base_dir, &cfg, err, sizeof(err));

	cr_assert_eq(ret, 0, "parse failed (%d): %s\n%s", ret, err, yaml);
	cr_assert_str_eq(err, "");
	cr_assert_not_null(cfg);
	return cfg;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

Test(webconfig, tls_and_auth)
{
	struct pms_webconfig *cfg = parse_ok(
		"# node_exporter's file, as people have it\n"
		"tls_server_config:\n"
		"  cert_file: server.crt\n"
		"  key_file: keys/server.key\n"
		"  client_auth_type: RequireAndVerifyClientCert\n"
		"  client_ca_file: /etc/ssl/ca.crt\n"
		"  min_version: TLS13\n"
		"  max_version: TLS13\n"
		"  cipher_suites: [TLS_AES_128_GCM_SHA256]\n"
		"  curve_preferences:\n"
		"    - X25519\n"
		"  prefer_server_cipher_suites: false\n"
		"http_server_config:\n"
		"  http2: false\n"
		"  headers:\n"
		"    X-Frame-Options: deny\n"
		"basic_auth_users:\n"
		"  alice: " ALICE_HASH "\n",
		"/etc/pmuscope");

	cr_expect(pms_webconfig__tls(cfg));
	cr_expect_str_eq(pms_webconfig__cert_file(cfg), "/etc/pmuscope/server.crt");
	cr_expect_str_eq(pms_webconfig__key_file(cfg), "/etc/pmuscope/keys/server.key");
	cr_expect_str_eq(pms_webconfig__client_ca_file(cfg), "/etc/ssl/ca.crt");
	cr_expect_eq(pms_webconfig__client_auth(cfg), PMS_CLIENT_AUTH_REQUIRE_AND_VERIFY);
	cr_expect_str_eq(pms_client_auth__name(pms_webconfig__client_auth(cfg)), "RequireAndVerifyClientCert");
	cr_expect_eq(pms_webconfig__min_version(cfg), PMS_TLS13);
	cr_expect_eq(pms_webconfig__max_version(cfg), PMS_TLS13);
	cr_expect(!pms_webconfig__http2(cfg));
	cr_expect(pms_webconfig__auth(cfg));
	pms_webconfig__free(cfg);
}

Test(webconfig, tls_defaults_and_no_auth)
{
	struct pms_webconfig *cfg = parse_ok("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n", NULL);

	cr_expect(pms_webconfig__tls(cfg));
	cr_expect_str_eq(pms_webconfig__cert_file(cfg), "a.crt", "no base directory: left relative");
	cr_expect_null(pms_webconfig__client_ca_file(cfg));
	cr_expect_eq(pms_webconfig__client_auth(cfg), PMS_CLIENT_AUTH_NONE);
	cr_expect_eq(pms_webconfig__min_version(cfg), PMS_TLS12);
	cr_expect_eq(pms_webconfig__max_version(cfg), PMS_TLS13);
	cr_expect(pms_webconfig__http2(cfg));
	cr_expect(!pms_webconfig__auth(cfg));
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "secret"), -EACCES);
	pms_webconfig__free(cfg);

	cfg = parse_ok("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n"
		       "  client_auth_type: RequireClientCert\n", "rel/dir/");
	cr_expect_eq(pms_webconfig__client_auth(cfg), PMS_CLIENT_AUTH_REQUIRE_ANY, "the toolkit's old name");
	cr_expect_str_eq(pms_webconfig__key_file(cfg), "rel/dir/a.key");
	pms_webconfig__free(cfg);
}

Test(webconfig, empty_files_mean_no_tls_no_auth)
{
	static const char *const texts[] = {
		"", "\n", "# only a comment\n", "---\n", "~\n",
		"tls_server_config:\nbasic_auth_users:\nhttp_server_config: {}\n",
		"tls_server_config:\n  min_version: TLS13\n", /* not one of the keys that turn TLS on */
	};

	for (size_t i = 0; i < NR(texts); i++) {
		struct pms_webconfig *cfg = parse_ok(texts[i], "/x");

		cr_expect(!pms_webconfig__tls(cfg), "%s", texts[i]);
		cr_expect(!pms_webconfig__auth(cfg), "%s", texts[i]);
		cr_expect_null(pms_webconfig__cert_file(cfg));
		pms_webconfig__free(cfg);
	}

	/* NULL reads as the defaults too, so a caller without --web.config.file needs no object */
	cr_expect(!pms_webconfig__tls(NULL));
	cr_expect(!pms_webconfig__auth(NULL));
	cr_expect_eq(pms_webconfig__min_version(NULL), PMS_TLS12);
	cr_expect_eq(pms_webconfig__check_password(NULL, "a", "b"), -EACCES);
	pms_webconfig__free(NULL);
}

Test(webconfig, errors_name_the_key_and_line)
{
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
		{ "tls_server_config:\n  cert_file: a\n  cert_fil: b\n",
		  "web.yml:3: unknown key 'cert_fil' in tls_server_config (did you mean 'cert_file'?)" },
		{ "tls_server_config:\n  bogus: 1\n", "web.yml:2: unknown key 'bogus' in tls_server_config" },
		{ "\n\ntls_server_confg: {}\n",
		  "web.yml:3: unknown key 'tls_server_confg' in the web config (did you mean 'tls_server_config'?)" },
		{ "http_server_config:\n  http3: true\n", "web.yml:2: unknown key 'http3' in http_server_config (did you mean 'http2'?)" },
		{ "http_server_config:\n  http2: maybe\n", "web.yml:2: http2 must be true or false" },
		{ "http_server_config:\n  headers:\n    X-Powered-By: me\n",
		  "web.yml:3: unknown key 'X-Powered-By' in http_server_config.headers" },
		{ "tls_server_config:\n  cert_file: a.crt\n",
		  "web.yml: tls_server_config needs both cert_file and key_file (key_file is missing)" },
		{ "tls_server_config:\n  key_file: a.key\n",
		  "web.yml: tls_server_config needs both cert_file and key_file (cert_file is missing)" },
		{ "tls_server_config:\n  client_auth_type: NoClientCert\n",
		  "web.yml: tls_server_config needs both cert_file and key_file (cert_file is missing)" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerify\n",
		  "web.yml:4: client_auth_type 'RequireAndVerify' is not one of NoClientCert, RequestClientCert, "
		  "RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerifyClientCert\n",
		  "web.yml: client_auth_type RequireAndVerifyClientCert needs client_ca_file, the CAs that client "
		  "certificates are verified against" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: VerifyClientCertIfGiven\n",
		  "web.yml: client_auth_type VerifyClientCertIfGiven needs client_ca_file, the CAs that client "
		  "certificates are verified against" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: ca.crt\n",
		  "web.yml: client_ca_file is set but client_auth_type is NoClientCert; "
		  "set client_auth_type: RequireAndVerifyClientCert" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS1.2\n",
		  "web.yml:4: min_version 'TLS1.2' is not one of TLS10, TLS11, TLS12, TLS13" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  max_version: TLS11\n",
		  "web.yml: min_version TLS12 is above max_version TLS11" },
		{ "tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n",
		  "web.yml:2: inline cert in tls_server_config is not supported; put it in a file and name it "
		  "with cert_file" },
		{ "tls_server_config:\n  client_allowed_sans: [a]\n",
		  "web.yml:2: client_allowed_sans in tls_server_config is not supported" },
		{ "tls_server_config:\n  cipher_suites: {a: b}\n", "web.yml:2: cipher_suites must be a list of strings" },
		{ "tls_server_config:\n  cert_file: [a, b]\n", "web.yml:2: cert_file must be a string" },
		{ "tls_server_config:\n  - cert_file\n",
		  "web.yml:2: tls_server_config must be a mapping of keys to values" },
		{ "basic_auth_users:\n  alice: secret\n",
		  "web.yml:2: basic_auth_users: the password of 'alice' is not a bcrypt hash ($2a$, $2b$ or $2y$, "
		  "as `htpasswd -nBC 10 USER` writes)" },
		{ "basic_auth_users:\n  alice: $1$abc$def\n",
		  "web.yml:2: basic_auth_users: the password of 'alice' is not a bcrypt hash ($2a$, $2b$ or $2y$, "
		  "as `htpasswd -nBC 10 USER` writes)" },
		{ "basic_auth_users:\n  alice: \"$2x$10$Q3U5IfJsr76f1Vx7PYtoteK1YspqLjSjfVyOcZZO1MRR5zDawz0zy\"\n",
		  "web.yml:2: basic_auth_users: the password of 'alice' is not a bcrypt hash ($2a$, $2b$ or $2y$, "
		  "as `htpasswd -nBC 10 USER` writes)" },
		{ "basic_auth_users:\n  alice: \"$2y$10$Q3U5IfJsr76f1Vx7PYtoteK1YspqLjSjfVyOcZZO1MRR5zDawz0z\"\n",
		  "web.yml:2: basic_auth_users: the password of 'alice' is not a bcrypt hash ($2a$, $2b$ or $2y$, "
		  "as `htpasswd -nBC 10 USER` writes)" },
		{ "basic_auth_users:\n  alice:\n",
		  "web.yml:2: basic_auth_users: the password of 'alice' is not a bcrypt hash ($2a$, $2b$ or $2y$, "
		  "as `htpasswd -nBC 10 USER` writes)" },
		{ "basic_auth_users:\n  alice: " ALICE_HASH "\n  alice: " BOB_HASH "\n",
		  "web.yml:3: 'alice' is given twice in basic_auth_users" },
		{ "basic_auth_users:\n  'a:b': " ALICE_HASH "\n",
		  "web.yml:2: basic_auth_users: 'a:b' cannot be a user name (empty, or with a ':' that basic auth "
		  "cannot carry)" },
		{ "rate_limit:\n  interval: 1s\n  burst: 5\n", "web.yml:1: rate_limit is not supported by pmuscope agent" },
		{ "- tls_server_config\n",
		  "web.yml:1: the file must be a mapping (tls_server_config:, basic_auth_users:, ...)" },
		{ "basic_auth_users: {}\n---\nbasic_auth_users: {}\n",
		  "web.yml:3: a second YAML document; the web config is one" },
	};

	for (size_t i = 0; i < NR(cases); i++) {
		struct pms_webconfig *cfg = (struct pms_webconfig *)1;
		char err[512] = "";
		int ret = pms_webconfig__parse(cases[i].yaml, strlen(cases[i].yaml), "web.yml", "/etc", &cfg, err,
					       sizeof(err));

		cr_expect_eq(ret, -EINVAL, "%s", cases[i].yaml);
		cr_expect_null(cfg);
		cr_expect_str_eq(err, cases[i].msg, "%s", cases[i].yaml);
	}
}

Test(webconfig, yaml_syntax_errors_have_a_line)
{
	static const char *const texts[] = {
		"tls_server_config:\n  cert_file: a\n key_file: b\n",
		"basic_auth_users: [\n",
		"a: 'unterminated\n",
	};

	for (size_t i = 0; i < NR(texts); i++) {
		struct pms_webconfig *cfg;
		char err[512] = "";
		int line = 0;

		cr_expect_eq(pms_webconfig__parse(texts[i], strlen(texts[i]), "web.yml", NULL, &cfg, err, sizeof(err)),
			     -EINVAL);
		cr_expect_eq(sscanf(err, "web.yml:%d: ", &line), 1, "%s", err);
		cr_expect(line >= 1 && line <= 4, "%s", err);
	}
}

Test(webconfig, load_resolves_against_the_file_directory)
{
	char dir[] = "/tmp/pms-webconfig-XXXXXX", path[256], msg[512], want[600];
	struct pms_webconfig *cfg;
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "tls_server_config:\n  cert_file: server.crt\n  key_file: ../keys/server.key\n"
		   "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: /abs/ca.crt\n%s", users_yaml);
	fclose(f);

	cr_assert_eq(pms_webconfig__load(path, &cfg, msg, sizeof(msg)), 0, "%s", msg);
	snprintf(want, sizeof(want), "%s/server.crt", dir);
	cr_expect_str_eq(pms_webconfig__cert_file(cfg), want);
	snprintf(want, sizeof(want), "%s/../keys/server.key", dir);
	cr_expect_str_eq(pms_webconfig__key_file(cfg), want);
	cr_expect_str_eq(pms_webconfig__client_ca_file(cfg), "/abs/ca.crt");
	cr_expect(pms_webconfig__auth(cfg));
	pms_webconfig__free(cfg);

	/* messages start with the path as given */
	f = fopen(path, "w");
	cr_assert(f);
	fputs("tls_server_config:\n  cert_file: a\n  key_file: b\n\n  cert_fil: c\n", f);
	fclose(f);
	cr_expect_eq(pms_webconfig__load(path, &cfg, msg, sizeof(msg)), -EINVAL);
	cr_expect_null(cfg);
	snprintf(want, sizeof(want), "%s:5: unknown key 'cert_fil' in tls_server_config (did you mean 'cert_file'?)",
		 path);
	cr_expect_str_eq(msg, want);

	unlink(path);
	cr_expect_eq(pms_webconfig__load(path, &cfg, msg, sizeof(msg)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	cr_expect_str_eq(msg, want);
	rmdir(dir);
}

Test(webconfig, small_error_buffers_are_cut_not_overrun)
{
	struct pms_webconfig *cfg;
	char err[12];

	memset(err, 'x', sizeof(err));
	cr_expect_eq(pms_webconfig__parse("nope: 1\n", 8, "web.yml", NULL, &cfg, err, 8), -EINVAL);
	cr_expect_str_eq(err, "web.yml");
	cr_expect_eq(err[8], 'x');
	cr_expect_eq(pms_webconfig__parse("nope: 1\n", 8, "web.yml", NULL, &cfg, NULL, 0), -EINVAL);
}

Test(webconfig, check_password_with_real_bcrypt_hashes)
{
	struct pms_webconfig *cfg = parse_ok(users_yaml, NULL);
	double t0, t1;

	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "secret"), 0);
	cr_expect_eq(pms_webconfig__check_password(cfg, "bob", "hunter2"), 0);
	cr_expect_eq(pms_webconfig__check_password(cfg, "carol", "secret"), 0, "$2b$");
	cr_expect_eq(pms_webconfig__check_password(cfg, "dave", "secret"), 0, "$2a$");

	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "Secret"), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "secre"), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", ""), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, "bob", "secret"), -EACCES, "another user's password");
	cr_expect_eq(pms_webconfig__check_password(cfg, "Alice", "secret"), -EACCES, "names are exact");
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", NULL), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, NULL, "secret"), -EACCES);

	/* an unknown user costs a bcrypt too: cost 10 is tens of ms anywhere, a lookup microseconds */
	t0 = now_ms();
	cr_expect_eq(pms_webconfig__check_password(cfg, "mallory", "secret"), -EACCES);
	t1 = now_ms();
	cr_expect_gt(t1 - t0, 5.0, "unknown user answered in %.3f ms", t1 - t0);

	/* alice's password verified above: now a cache hit; a wrong one still pays and fails */
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "secret"), 0);
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "wrong"), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, "alice", "secret"), 0);
	pms_webconfig__free(cfg);
}

Test(webconfig, cache_hit_skips_bcrypt)
{
	struct pms_webconfig *cfg = parse_ok(users_yaml, NULL);
	double t0, t1, t2;

	t0 = now_ms();
	cr_assert_eq(pms_webconfig__check_password(cfg, "bob", "hunter2"), 0);
	t1 = now_ms();
	for (int i = 0; i < 20; i++)
		cr_assert_eq(pms_webconfig__check_password(cfg, "bob", "hunter2"), 0);
	t2 = now_ms();
	/* twenty bcrypts would take 20x the first; the cache makes them nearly free */
	cr_expect_lt(t2 - t1, (t1 - t0) * 5, "first %.1f ms, 20 cached %.1f ms", t1 - t0, t2 - t1);
	cr_expect_eq(pms_webconfig__check_password(cfg, "bob", "hunter3"), -EACCES);
	cr_expect_eq(pms_webconfig__check_password(cfg, "bob", "hunter2"), 0);
	pms_webconfig__free(cfg);
}

struct worker {
	struct pms_webconfig *cfg;
	int failures;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < 2; i++) {
		w->failures += pms_webconfig__check_password(w->cfg, "alice", "secret") != 0;
		w->failures += pms_webconfig__check_password(w->cfg, "carol", "secret") != 0;
		w->failures += pms_webconfig__check_password(w->cfg, "alice", "hunter2") != -EACCES;
		w->failures += pms_webconfig__check_password(w->cfg, "nobody", "secret") != -EACCES;
	}
	return NULL;
}

Test(webconfig, concurrent_checks_from_four_threads)
{
	struct pms_webconfig *cfg = parse_ok(users_yaml, NULL);
	struct worker w[4];
	pthread_t t[4];

	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .cfg = cfg };
		cr_assert_eq(pthread_create(&t[i], NULL, worker_run, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		cr_expect_eq(w[i].failures, 0, "thread %d", i);
	}
	pms_webconfig__free(cfg);
}
