// SPDX-License-Identifier: MIT
// pmuscope agent: counters and profiles served over HTTP to Prometheus, Parca and Pyroscope.
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

#ifndef PMS_NO_HOST_LIBS
#include <gnutls/gnutls.h>
#include <linux/capability.h>
#include <microhttpd.h>

#include "agent/agent.h"
#include "agent/config.h"
#include "agent/webconfig.h"
#include "export/gz.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/privs.h"
#include "util/strbuf.h"
#include "util/strsim.h"
#endif

#define DEFAULT_LISTEN "127.0.0.1:9753"

static struct agent_opts {
	const char *listen, *config, *web_config, *events, *user;
	struct opt_strings cgroups;
	int freq, history, max_processes, max_files;
	uint64_t max_nodes;
	bool insecure, off_cpu, no_profile, no_drop, keep_no_caps;
} o;

static const struct opt opts[] = {
	OPT_GROUP("Serving"),
	OPT_STRING(0, "listen", &o.listen, "<addr:port>", "where to serve (default " DEFAULT_LISTEN "; [::1]:port for IPv6)"),
	OPT_STRING(0, "web-config", &o.web_config, "<file>",
		   "TLS and basic auth, in the Prometheus exporter-toolkit format (also --web.config.file)"),
	OPT_STRING(0, "web.config.file", &o.web_config, "<file>", "the same as --web-config"),
	OPT_BOOL(0, "insecure", &o.insecure, "allow a non-loopback address without TLS or basic auth"),
	OPT_STRING(0, "config", &o.config, "<file>", "options from a YAML file (keys are the long option names); "
		   "its web-config is reread on SIGHUP"),
	OPT_GROUP("What to measure"),
	OPT_STRING('e', "event", &o.events, "<events>", "counters to serve (default: what opens of perf stat's set and the hw-cache basics)"),
	OPT_STRINGS('G', "cgroup", &o.cgroups, "<path>", "also count the tasks of this cgroup v2 (relative to its root; repeatable)"),
	OPT_INT('F', "freq", &o.freq, "<hz>", "on-CPU samples per second per CPU (default 19)"),
	OPT_INT(0, "history", &o.history, "<s>", "seconds of profile kept for /debug/pprof/profile (default 60)"),
	OPT_BOOL(0, "off-cpu", &o.off_cpu, "also profile time blocked (/debug/pprof/offcpu)"),
	OPT_BOOL(0, "no-profile", &o.no_profile, "serve counters only"),
	OPT_U64(0, "max-nodes", &o.max_nodes, "<n>", "call-tree nodes kept over the whole history (default 500000)"),
	OPT_INT(0, "max-processes", &o.max_processes, "<n>", "processes described for profile labels (default 4096)"),
	OPT_INT(0, "max-files", &o.max_files, "<n>", "object files whose symbols stay loaded when unused for a second (default 64)"),
	OPT_GROUP("Privileges"),
	OPT_STRING(0, "user", &o.user, "<user>", "after set-up, run as this user (default nobody)"),
	OPT_BOOL(0, "no-drop", &o.no_drop, "keep running as root with every capability"),
	OPT_BOOL(0, "drop-all", &o.keep_no_caps,
		 "keep no capability at all (processes of other users started later stay unsymbolized)"),
	OPT_END(),
};

static void reset_opts(void)
{
	opt_strings__release(&o.cgroups);
	memset(&o, 0, sizeof(o));
}

#ifdef PMS_NO_HOST_LIBS
static int run(int argc, char **argv)
{
	opt_parse(&cmd_agent, &argc, argv, 0);
	return error("agent is not available in this build (it needs libbpf and libmicrohttpd; built with HOST_LIBS=0)"),
	       EXIT_RUNTIME;
}
#else

static volatile sig_atomic_t stop_signal, reload_requests;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_hup(int sig)
{
	(void)sig;
	reload_requests++;
}

/* journald reads "<N>" priority prefixes on stderr (sd-daemon(3)); elsewhere plain words. */
__attribute__((format(printf, 2, 3))) static void logmsg(int prio, const char *fmt, ...)
{
	static const char *const words[] = { "emerg", "alert", "crit", "error", "warning", "notice", "info", "debug" };
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (getenv("JOURNAL_STREAM"))
		fprintf(stderr, "<%d>%s\n", prio, buf);
	else
		fprintf(stderr, "pmuscope agent: %s: %s\n", words[prio & 7], buf);
}

enum { LOG_ERR_ = 3, LOG_WARN_ = 4, LOG_NOTICE_ = 5, LOG_INFO_ = 6 };

/* ------------------------------------------------------------- serving -- */

struct tls_material {
	char *cert, *key, *ca;
};

struct server {
	struct pms_agent *agent;
	struct pms_webconfig *web;       /* NULL: no TLS, no auth */
	struct tls_material tls;
	struct MHD_Daemon *mhd;
	int listen_fd;
	char listen_desc[128];
	unsigned history_s;
	bool off_cpu;
};

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
				 bool go_pprof_error)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (go_pprof_error)
		MHD_add_response_header(r, "X-Go-Pprof", "1");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_buf(struct MHD_Connection *c, struct strbuf *b, const char *type, const char *encoding,
				const char *disposition)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(b->len, b->buf ? b->buf : (char *)"", MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (encoding)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
	if (disposition)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, disposition);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* The peer's certificate chain checked against client_ca_file (libmicrohttpd only asks for it). */
static bool client_cert_ok(struct MHD_Connection *c, enum pms_client_auth auth)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	gnutls_session_t s = ci ? (gnutls_session_t)ci->tls_session : NULL;
	unsigned int status = 0, nr = 0;
	bool given;

	if (auth == PMS_CLIENT_AUTH_NONE || auth == PMS_CLIENT_AUTH_REQUEST)
		return true;
	if (!s)
		return false;
	given = gnutls_certificate_get_peers(s, &nr) && nr > 0;
	if (!given)
		return auth == PMS_CLIENT_AUTH_VERIFY_IF_GIVEN;
	if (auth == PMS_CLIENT_AUTH_REQUIRE_ANY)
		return true;
	return gnutls_certificate_verify_peers2(s, &status) == GNUTLS_E_SUCCESS && status == 0;
}

static bool authorized(struct server *sv, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!sv->web || !pms_webconfig__auth(sv->web))
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && !pms_webconfig__check_password(sv->web, user, pass);
	if (user)
		MHD_free(user);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	return ok;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !errno && !*end && *out <= max;
}

static const char INDEX_HTML[] =
	"<!DOCTYPE html><html><head><title>/debug/pprof/</title></head><body>\n"
	"<p>pmuscope agent: profiles of this host, sampled in the kernel.</p>\n"
	"<table><thead><td>Profile</td><td>Description</td></thead>\n"
	"<tr><td><a href=\"profile?seconds=30\">profile</a></td><td>On-CPU stacks of every process over the last "
	"<code>seconds</code> (default 30); filters <code>pid</code>, <code>comm</code>, <code>cgroup</code>. "
	"gzipped profile.proto.</td></tr>\n"
	"<tr><td><a href=\"offcpu?seconds=30\">offcpu</a></td><td>Time blocked, by stack (agent started with "
	"<code>--off-cpu</code>).</td></tr>\n"
	"</table>\n<p><a href=\"/metrics\">/metrics</a>: counters and the agent's health (Prometheus).</p>\n"
	"</body></html>\n";

static enum MHD_Result serve_profile(struct server *sv, struct MHD_Connection *c, bool off_cpu)
{
	struct pms_agent_query q = { .sz = sizeof(q), .off_cpu = off_cpu };
	const char *sec = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "seconds");
	const char *pid = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "pid");
	struct strbuf out = STRBUF_INIT;
	unsigned long v;
	char err[256] = "", msg[320];
	enum MHD_Result ret;
	int rc;

	if (sec) {
		if (!parse_uint(sec, 1000000, &v) || !v) {
			snprintf(msg, sizeof(msg), "bad seconds '%.40s': a whole number of seconds from 1 to %u\n", sec,
				 sv->history_s);
			return send_text(c, MHD_HTTP_BAD_REQUEST, "text/plain; charset=utf-8", msg, true);
		}
		q.seconds = (unsigned)v;
	}
	if (pid) {
		if (!parse_uint(pid, 0x7fffffff, &v) || !v)
			return send_text(c, MHD_HTTP_BAD_REQUEST, "text/plain; charset=utf-8", "bad pid\n", true);
		q.pid = (uint32_t)v;
	}
	q.comm = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "comm");
	q.cgroup = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cgroup");
	if (q.comm && !*q.comm)
		q.comm = NULL;
	if (q.cgroup && !*q.cgroup)
		q.cgroup = NULL;
	rc = pms_agent__profile(sv->agent, &q, &out, err, sizeof(err));
	if (rc) {
		unsigned status = rc == -ERANGE ? MHD_HTTP_BAD_REQUEST : rc == -ENOENT ? MHD_HTTP_NOT_FOUND :
										  MHD_HTTP_INTERNAL_SERVER_ERROR;

		strbuf_release(&out);
		snprintf(msg, sizeof(msg), "%s\n", err);
		return send_text(c, status, "text/plain; charset=utf-8", msg, true);
	}
	ret = send_buf(c, &out, "application/octet-stream", NULL, "attachment; filename=\"profile\"");
	strbuf_release(&out);
	return ret;
}

static bool accepts_gzip(struct MHD_Connection *c)
{
	const char *ae = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);

	return ae && strstr(ae, "gzip");
}

static enum MHD_Result serve_metrics(struct server *sv, struct MHD_Connection *c)
{
	struct strbuf out = STRBUF_INIT, gz = STRBUF_INIT;
	enum MHD_Result ret;
	int rc = pms_agent__metrics(sv->agent, &out);

	if (rc) {
		char msg[160];

		strbuf_release(&out);
		snprintf(msg, sizeof(msg), "cannot read the counters: %s\n", strerror(-rc));
		return send_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", msg, false);
	}
	if (accepts_gzip(c) && !pms_gzip__compress(out.buf ? out.buf : "", out.len, &gz))
		ret = send_buf(c, &gz, "text/plain; version=0.0.4; charset=utf-8", "gzip", NULL);
	else
		ret = send_buf(c, &out, "text/plain; version=0.0.4; charset=utf-8", NULL, NULL);
	strbuf_release(&out);
	strbuf_release(&gz);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_size, void **state)
{
	static int first_call;
	struct server *sv = cls;
	uint64_t t0 = pms_clock__monotonic_ns();
	const char *path_class = "other";
	unsigned status = 200;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	if (*state != &first_call) {
		/* called again with the body, if any: answer once the request is whole */
		*state = &first_call;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0; /* a body we do not read */
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		status = MHD_HTTP_METHOD_NOT_ALLOWED;
		ret = send_text(c, status, "text/plain; charset=utf-8", "only GET and HEAD are served\n", false);
		goto done;
	}
	if (sv->web && pms_webconfig__tls(sv->web) && !client_cert_ok(c, pms_webconfig__client_auth(sv->web))) {
		status = MHD_HTTP_FORBIDDEN;
		ret = send_text(c, status, "text/plain; charset=utf-8", "a client certificate signed by the "
			       "configured CA is required\n", false);
		goto done;
	}
	if (!authorized(sv, c)) {
		struct MHD_Response *r = MHD_create_response_from_buffer(strlen("Unauthorized\n"), (void *)"Unauthorized\n",
									 MHD_RESPMEM_PERSISTENT);

		status = MHD_HTTP_UNAUTHORIZED;
		if (!r)
			return MHD_NO;
		ret = MHD_queue_basic_auth_fail_response(c, "pmuscope agent", r);
		MHD_destroy_response(r);
		goto done;
	}
	if (!strcmp(url, "/metrics")) {
		path_class = "/metrics";
		ret = serve_metrics(sv, c);
	} else if (!strcmp(url, "/debug/pprof/profile")) {
		path_class = "/debug/pprof/profile";
		ret = serve_profile(sv, c, false);
	} else if (!strcmp(url, "/debug/pprof/offcpu")) {
		path_class = "/debug/pprof/offcpu";
		ret = serve_profile(sv, c, true);
	} else if (!strcmp(url, "/debug/pprof/") || !strcmp(url, "/debug/pprof")) {
		path_class = "/debug/pprof/";
		ret = send_text(c, 200, "text/html; charset=utf-8", INDEX_HTML, false);
	} else if (!strcmp(url, "/-/healthy") || !strcmp(url, "/-/ready")) {
		ret = send_text(c, 200, "text/plain; charset=utf-8", "OK\n", false);
	} else if (!strcmp(url, "/")) {
		ret = send_text(c, 200, "text/html; charset=utf-8",
				"<!DOCTYPE html><html><head><title>pmuscope agent</title></head><body>"
				"<h1>pmuscope agent</h1><p><a href=\"/metrics\">Metrics</a></p>"
				"<p><a href=\"/debug/pprof/\">Profiles</a></p></body></html>\n", false);
	} else {
		status = MHD_HTTP_NOT_FOUND;
		ret = send_text(c, status, "text/plain; charset=utf-8", "not found: try /metrics or /debug/pprof/\n",
				false);
	}
done:
	pms_agent__note_request(sv->agent, path_class, status, pms_clock__monotonic_ns() - t0);
	return ret;
}

static void on_mhd_error(void *cls, const char *fmt, va_list ap)
{
	char buf[512];
	size_t n;

	(void)cls;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	logmsg(LOG_INFO_, "http: %s", buf);
}

static int read_text(const char *path, char **out, char *err, size_t err_size)
{
	size_t len;
	int rc = pms_file__read_all(path, out, &len);

	if (rc)
		snprintf(err, err_size, "cannot read %s: %s", path, strerror(-rc));
	return rc;
}

static void tls_release(struct tls_material *t)
{
	free(t->cert);
	if (t->key) {
		explicit_bzero(t->key, strlen(t->key));
		free(t->key);
	}
	free(t->ca);
	memset(t, 0, sizeof(*t));
}

/* The web config and its TLS files, read whole before anything changes. */
static int load_web(const char *path, struct pms_webconfig **web, struct tls_material *t, char *err, size_t err_size)
{
	int rc;

	*web = NULL;
	memset(t, 0, sizeof(*t));
	if (!path)
		return 0;
	rc = pms_webconfig__load(path, web, err, err_size);
	if (rc)
		return rc;
	if (pms_webconfig__tls(*web)) {
		rc = read_text(pms_webconfig__cert_file(*web), &t->cert, err, err_size);
		if (!rc)
			rc = read_text(pms_webconfig__key_file(*web), &t->key, err, err_size);
		if (!rc && pms_webconfig__client_ca_file(*web))
			rc = read_text(pms_webconfig__client_ca_file(*web), &t->ca, err, err_size);
		if (rc) {
			tls_release(t);
			pms_webconfig__free(*web);
			*web = NULL;
		}
	}
	return rc;
}

static const char *tls_priorities(const struct pms_webconfig *w, char *buf, size_t size)
{
	static const struct { enum pms_tls_version v; const char *name; } vers[] = {
		{ PMS_TLS10, "VERS-TLS1.0" }, { PMS_TLS11, "VERS-TLS1.1" }, { PMS_TLS12, "VERS-TLS1.2" },
		{ PMS_TLS13, "VERS-TLS1.3" },
	};
	size_t len = (size_t)snprintf(buf, size, "NORMAL");

	for (size_t i = 0; i < 4 && len < size; i++)
		if (vers[i].v < pms_webconfig__min_version(w) || vers[i].v > pms_webconfig__max_version(w))
			len += (size_t)snprintf(buf + len, size - len, ":-%s", vers[i].name);
	return buf;
}

static int start_http(struct server *sv, char *err, size_t err_size)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	bool tls = sv->web && pms_webconfig__tls(sv->web);
	char prio[128];
	struct MHD_OptionItem ops[16];
	size_t n = 0;

	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)on_mhd_error, NULL };
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, sv->listen_fd, NULL };
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, 4, NULL };
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, 64, NULL };
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, 32, NULL };
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, 15, NULL };
	/* request line and headers must fit: bigger requests are answered 4xx by libmicrohttpd */
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, 32 * 1024, NULL };
	if (tls) {
		flags |= MHD_USE_TLS;
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, sv->tls.cert };
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, sv->tls.key };
		if (sv->tls.ca)
			ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0, sv->tls.ca };
		ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						    (void *)tls_priorities(sv->web, prio, sizeof(prio)) };
	}
	ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	sv->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, sv, MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
	if (!sv->mhd) {
		snprintf(err, err_size, "cannot start the HTTP server on %s%s", sv->listen_desc,
			 tls ? " (TLS: is the key the certificate's, and both PEM?)" : "");
		return -EINVAL;
	}
	return 0;
}

/* ---------------------------------------------------------- listening -- */

static int parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len, bool *loopback, char *err,
			size_t err_size)
{
	char host[256];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_PASSIVE, .ai_socktype = SOCK_STREAM }, *ai = NULL;
	unsigned long port;
	int rc;

	if (!colon || !parse_uint(colon + 1, 65535, &port)) {
		snprintf(err, err_size, "--listen '%s': expected ADDR:PORT (127.0.0.1:9753, [::1]:9753, :9753)", spec);
		return -EINVAL;
	}
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	rc = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &ai);
	if (rc || !ai) {
		snprintf(err, err_size, "--listen '%s': '%s' is not a numeric IPv4 or IPv6 address", spec, host);
		return -EINVAL;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	if (ss->ss_family == AF_INET)
		*loopback = (ntohl(((struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	else
		*loopback = IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)ss)->sin6_addr);
	return 0;
}

static int open_listener(const struct sockaddr_storage *ss, socklen_t len, char *err, size_t err_size)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, rc;

	if (fd < 0) {
		rc = -errno;
		snprintf(err, err_size, "socket: %s", strerror(errno));
		return rc;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) || listen(fd, 64)) {
		rc = -errno;
		snprintf(err, err_size, "cannot listen: %s", strerror(errno));
		close(fd);
		return rc;
	}
	return fd;
}

/* ------------------------------------------------------------- config -- */

static struct opt_strings cfg_cgroups;
static char **cfg_strings;      /* values from the config file, kept for the run */
static size_t nr_cfg_strings;
static char *reload_web_config; /* the web config a SIGHUP found in the config file */

static const char *cfg_keep(const char *v)
{
	cfg_strings = xrealloc(cfg_strings, (nr_cfg_strings + 1) * sizeof(*cfg_strings));
	return cfg_strings[nr_cfg_strings++] = xstrdup(v);
}

static int cfg_value(void *arg, const char *key, const char *v, unsigned line, char *err, size_t err_size)
{
	unsigned long n;
	bool b = !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on");

	(void)arg;
	if (!strcmp(key, "listen")) {
		if (!o.listen)
			o.listen = cfg_keep(v);
	} else if (!strcmp(key, "web-config") || !strcmp(key, "web.config.file")) {
		if (!o.web_config)
			o.web_config = cfg_keep(v);
	} else if (!strcmp(key, "event") || !strcmp(key, "events")) {
		if (!o.events)
			o.events = cfg_keep(v);
	} else if (!strcmp(key, "cgroup") || !strcmp(key, "cgroups")) {
		cfg_cgroups.v = xrealloc(cfg_cgroups.v, (cfg_cgroups.nr + 1) * sizeof(*cfg_cgroups.v));
		cfg_cgroups.v[cfg_cgroups.nr++] = cfg_keep(v);
	} else if (!strcmp(key, "user")) {
		if (!o.user)
			o.user = cfg_keep(v);
	} else if (!strcmp(key, "freq") || !strcmp(key, "history") || !strcmp(key, "max-processes") ||
		   !strcmp(key, "max-nodes") || !strcmp(key, "max-files")) {
		if (!parse_uint(v, 100000000, &n)) {
			snprintf(err, err_size, "%s:%u: %s takes a whole number, not '%s'", o.config, line, key, v);
			return -EINVAL;
		}
		if (!strcmp(key, "freq") && !o.freq)
			o.freq = (int)n;
		else if (!strcmp(key, "history") && !o.history)
			o.history = (int)n;
		else if (!strcmp(key, "max-processes") && !o.max_processes)
			o.max_processes = (int)n;
		else if (!strcmp(key, "max-nodes") && !o.max_nodes)
			o.max_nodes = n;
		else if (!strcmp(key, "max-files") && !o.max_files)
			o.max_files = (int)n;
	} else if (!strcmp(key, "insecure") || !strcmp(key, "off-cpu") || !strcmp(key, "no-profile") ||
		   !strcmp(key, "no-drop") || !strcmp(key, "drop-all")) {
		if (!b && strcmp(v, "false") && strcmp(v, "no") && strcmp(v, "off")) {
			snprintf(err, err_size, "%s:%u: %s takes true or false, not '%s'", o.config, line, key, v);
			return -EINVAL;
		}
		if (!strcmp(key, "insecure"))
			o.insecure |= b;
		else if (!strcmp(key, "off-cpu"))
			o.off_cpu |= b;
		else if (!strcmp(key, "no-profile"))
			o.no_profile |= b;
		else if (!strcmp(key, "no-drop"))
			o.no_drop |= b;
		else
			o.keep_no_caps |= b;
	} else {
		static const char *const keys[] = { "listen", "web-config", "web.config.file", "event", "cgroup", "user",
						    "freq", "history", "max-processes", "max-nodes", "max-files", "insecure",
						    "off-cpu", "no-profile", "no-drop", "drop-all" };
		const char *near = pms_str__suggest(key, keys, sizeof(keys) / sizeof(keys[0]));

		if (near)
			snprintf(err, err_size, "%s:%u: unknown option '%s' (did you mean '%s'?)", o.config, line, key, near);
		else
			snprintf(err, err_size, "%s:%u: unknown option '%s' (the keys are the agent's long option names)",
				 o.config, line, key);
		return -EINVAL;
	}
	return 0;
}

/* SIGHUP: only the web-config key of the config file counts (the rest needs a restart). */
static int cfg_web_only(void *arg, const char *key, const char *v, unsigned line, char *err, size_t err_size)
{
	char **path = arg;

	(void)line;
	(void)err;
	(void)err_size;
	if (!strcmp(key, "web-config") || !strcmp(key, "web.config.file")) {
		free(*path);
		*path = xstrdup(v);
	}
	return 0;
}

static bool web_config_from_cli;

static void cfg_release(void)
{
	for (size_t i = 0; i < nr_cfg_strings; i++)
		free(cfg_strings[i]);
	free(cfg_strings);
	cfg_strings = NULL;
	nr_cfg_strings = 0;
	free(reload_web_config);
	reload_web_config = NULL;
	free(cfg_cgroups.v);
	memset(&cfg_cgroups, 0, sizeof(cfg_cgroups));
}

/* SIGHUP: the web config again (auth users, certificates); what needs privileges needs a restart. */
static void reload(struct server *sv)
{
	struct pms_webconfig *web = NULL;
	struct tls_material t;
	struct MHD_Daemon *old = sv->mhd;
	struct pms_webconfig *old_web = sv->web;
	struct tls_material old_tls = sv->tls;
	char err[512];
	int fd, rc;

	/* the files may be root's alone (keys often are): read them with the kept read capability */
	pms_privs__raise(PMS_CAP_BIT(CAP_DAC_READ_SEARCH), true);
	if (o.config && !web_config_from_cli) {
		char *path = NULL;

		if (pms_agent_config__load(o.config, cfg_web_only, &path, err, sizeof(err))) {
			pms_privs__raise(PMS_CAP_BIT(CAP_DAC_READ_SEARCH), false);
			free(path);
			logmsg(LOG_ERR_, "reload failed, keeping the current configuration: %s", err);
			return;
		}
		if (path && (!o.web_config || strcmp(path, o.web_config)))
			logmsg(LOG_INFO_, "reload: the web config is now %s", path);
		free(reload_web_config);
		reload_web_config = path;
		o.web_config = path;
	}
	if (o.config)
		logmsg(LOG_NOTICE_, "reload: event, cgroup, sampling and privilege options take effect at a restart; "
				    "rereading the web config only");
	rc = load_web(o.web_config, &web, &t, err, sizeof(err));
	pms_privs__raise(PMS_CAP_BIT(CAP_DAC_READ_SEARCH), false);
	if (rc) {
		logmsg(LOG_ERR_, "reload failed, keeping the current web config: %s", err);
		return;
	}
	fd = MHD_quiesce_daemon(old);
	if (fd < 0) {
		logmsg(LOG_ERR_, "reload failed: the HTTP server would not hand over its socket");
		pms_webconfig__free(web);
		tls_release(&t);
		return;
	}
	MHD_stop_daemon(old);
	sv->web = web;
	sv->tls = t;
	if (start_http(sv, err, sizeof(err))) {
		logmsg(LOG_ERR_, "reload failed (%s), going back to the previous web config", err);
		pms_webconfig__free(web);
		tls_release(&t);
		sv->web = old_web;
		sv->tls = old_tls;
		if (start_http(sv, err, sizeof(err))) {
			logmsg(LOG_ERR_, "cannot serve any more: %s", err);
			stop_signal = SIGTERM;
		}
		return;
	}
	pms_webconfig__free(old_web);
	tls_release(&old_tls);
	logmsg(LOG_INFO_, "reloaded the web config: %s%s", sv->web && pms_webconfig__tls(sv->web) ? "TLS" : "plain HTTP",
	       sv->web && pms_webconfig__auth(sv->web) ? ", basic auth" : "");
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop; /* no SA_RESTART: the sampler's wait returns at once */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int run(int argc, char **argv)
{
	struct pms_agent_opts ao = { .sz = sizeof(ao) };
	struct server sv = { .listen_fd = -1 };
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct pms_privs_user pu;
	bool loopback = false, dropped = false;
	uint64_t keep;
	char err[512];
	int rc, ret = EXIT_RUNTIME;
	uint64_t eff = 0, perm = 0;

	/*
	 * One malloc arena: the request threads build answers and free them at once,
	 * and an arena each would keep its own free pages for the agent's whole life.
	 */
	mallopt(M_ARENA_MAX, 1);
	if (opt_parse(&cmd_agent, &argc, argv, 0) < argc)
		usage_error(&cmd_agent, "unexpected argument '%s'", argv[argc - 1]);
	web_config_from_cli = o.web_config != NULL;
	if (o.config && pms_agent_config__load(o.config, cfg_value, NULL, err, sizeof(err))) {
		error("%s", err);
		goto out;
	}
	if (o.freq < 0 || o.freq > 100000)
		usage_error(&cmd_agent, "-F/--freq takes 1 to 100000 samples per second, not %d", o.freq);
	if (o.history < 0 || o.history > 3600)
		usage_error(&cmd_agent, "--history takes 1 to 3600 seconds, not %d", o.history);
	if (o.max_processes < 0)
		usage_error(&cmd_agent, "--max-processes takes a positive count, not %d", o.max_processes);
	if (o.max_files < 0)
		usage_error(&cmd_agent, "--max-files takes a positive count, not %d", o.max_files);
	if (o.no_drop && o.keep_no_caps)
		usage_error(&cmd_agent, "--no-drop and --drop-all contradict each other");
	/* known only now: --drop-all may come from the config file */
	keep = o.keep_no_caps ? 0 : PMS_CAP_BIT(CAP_SYS_PTRACE) | PMS_CAP_BIT(CAP_DAC_READ_SEARCH);
	if (parse_listen(o.listen ? o.listen : DEFAULT_LISTEN, &ss, &sslen, &loopback, err, sizeof(err)))
		usage_error(&cmd_agent, "%s", err);
	snprintf(sv.listen_desc, sizeof(sv.listen_desc), "%s", o.listen ? o.listen : DEFAULT_LISTEN);
	if (load_web(o.web_config, &sv.web, &sv.tls, err, sizeof(err))) {
		error("web config: %s", err);
		goto out;
	}
	if (!loopback && !o.insecure &&
	    !(sv.web && (pms_webconfig__tls(sv.web) || pms_webconfig__auth(sv.web)))) {
		error("refusing to serve counters and profiles on %s without TLS or basic auth: anyone who reaches the "
		      "port could read them. Give --web-config with tls_server_config and/or basic_auth_users, listen "
		      "on 127.0.0.1, or pass --insecure", sv.listen_desc);
		goto out;
	}
	if (!o.no_drop && geteuid() == 0 && pms_privs__lookup(o.user ? o.user : "nobody", &pu, err, sizeof(err))) {
		error("--user: %s", err);
		goto out;
	}
	sv.listen_fd = open_listener(&ss, sslen, err, sizeof(err));
	if (sv.listen_fd < 0) {
		error("%s: %s", sv.listen_desc, err);
		goto out;
	}
	ao.events = o.events;
	if (o.cgroups.nr || cfg_cgroups.nr) {
		if (o.cgroups.nr) {
			ao.cgroups = o.cgroups.v;
			ao.nr_cgroups = o.cgroups.nr;
		} else {
			ao.cgroups = cfg_cgroups.v;
			ao.nr_cgroups = cfg_cgroups.nr;
		}
	}
	ao.freq_hz = (unsigned)o.freq;
	ao.history_s = (unsigned)o.history;
	ao.max_nodes = o.max_nodes;
	ao.max_processes = (size_t)o.max_processes;
	ao.max_files = (size_t)o.max_files;
	ao.off_cpu = o.off_cpu;
	ao.no_profile = o.no_profile;
	sv.agent = pms_agent__new(&ao, err, sizeof(err));
	if (!sv.agent) {
		error("%s", err);
		if (errno == EACCES || errno == EPERM)
			note("the agent needs root (or CAP_PERFMON, CAP_BPF and CAP_SYS_PTRACE) to open system-wide "
			     "events and load its BPF program");
		goto out;
	}
	sv.history_s = o.history ? (unsigned)o.history : 60;
	sv.off_cpu = o.off_cpu;
	install_signals();
	if (!o.no_drop && geteuid() == 0) {
		if (pms_agent__prepare_drop(sv.agent, keep))
			logmsg(LOG_WARN_, "kernel symbols could not be read: kernel frames stay unnamed");
		rc = pms_privs__drop(&pu, keep, err, sizeof(err));
		if (rc) {
			error("cannot drop privileges: %s", err);
			if (keep && rc == -EPERM)
				note("the agent keeps cap_sys_ptrace and cap_dac_read_search to read new processes' "
				     "/proc after the drop, so it must start with them (or pass --drop-all)");
			goto out;
		}
		dropped = true;
	}
	/* the HTTP threads start after the drop: they inherit no capability */
	if (start_http(&sv, err, sizeof(err))) {
		error("%s", err);
		goto out;
	}
	pms_privs__current(&eff, &perm);
	{
		char e[128], p[128];
		struct pms_agent_health h;

		pms_agent__health(sv.agent, &h);
		logmsg(LOG_INFO_, "serving %s on %s%s%s: %" PRIu64 " counters per CPU (%" PRIu64 " not supported here)%s%s",
		       sv.web && pms_webconfig__tls(sv.web) ? "https" : "http", sv.listen_desc,
		       sv.web && pms_webconfig__auth(sv.web) ? " with basic auth" : "",
		       !loopback && o.insecure && !sv.web ? " (insecure)" : "", h.counters_open, h.counters_unsupported,
		       o.no_profile ? "" : ", profiling", o.no_profile ? "" : (h.ring_fallback ? " (perf ring buffer)" : " (BPF)"));
		if (dropped)
			logmsg(LOG_INFO_, "dropped privileges: user %s (uid %u), effective capabilities %s, permitted %s%s",
			       pu.name, (unsigned)pu.uid, pms_privs__caps_name(eff, e, sizeof(e)),
			       pms_privs__caps_name(perm, p, sizeof(p)),
			       perm ? " (raised only by the sampler thread to read a new process's /proc maps)" : "");
		else
			logmsg(LOG_WARN_, "still running as uid %u with effective capabilities %s%s", (unsigned)geteuid(),
			       pms_privs__caps_name(eff, e, sizeof(e)), o.no_drop ? " (--no-drop)" : "");
	}
	while (!stop_signal) {
		rc = pms_agent__poll(sv.agent, 250);
		if (rc && rc != -EINTR) {
			logmsg(LOG_ERR_, "sampling failed: %s", strerror(-rc));
			goto out;
		}
		if (reload_requests) {
			reload_requests = 0;
			reload(&sv);
		}
	}
	logmsg(LOG_INFO_, "stopping (%s)", strsignal(stop_signal));
	ret = 0;
out:
	if (sv.mhd)
		MHD_stop_daemon(sv.mhd);
	else if (sv.listen_fd >= 0)
		close(sv.listen_fd);
	pms_agent__free(sv.agent);
	pms_webconfig__free(sv.web);
	tls_release(&sv.tls);
	cfg_release();
	return ret;
}
#endif

PMS_COMMAND(agent, "agent", "serve counters and profiles to Prometheus, Parca and Pyroscope",
	    "pmuscope agent [--listen <addr:port>] [--web-config <file>] [<options>]");
