// SPDX-License-Identifier: MIT
// pmuscope list: perf's event listing, but every non-tracepoint event is opened to show only what works here.
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "event/event.h"
#include "event/names.h"
#include "event/pmu.h"
#include "event/tracepoint.h"
#include "perf_event/caps.h"
#include "util/array.h"
#include "util/errname.h"
#include "util/json.h"
#include "output.h"
#include "perf_event/sys.h"
#include "util/strbuf.h"
#include "util/sysfs.h"

/* Every option's value: reset_opts() sets them all back to the defaults. */
static struct list_opts {
	bool all, json, no_mount, no_probe, desc, details;
} o;

static void reset_opts(void)
{
	o = (struct list_opts){ 0 };
}

static const char *core_name; /* the core PMU, for reasons; NULL when there is none */

enum kind { K_HW, K_SW, K_CACHE, K_PMU, K_TP, K_NR };

static const char *const kind_label[K_NR] = {
	[K_HW] = "Hardware event",
	[K_SW] = "Software event",
	[K_CACHE] = "Hardware cache event",
	[K_PMU] = "Kernel PMU event",
	[K_TP] = "Tracepoint event",
};

static const char *const kind_json[K_NR] = {
	[K_HW] = "hardware", [K_SW] = "software", [K_CACHE] = "cache", [K_PMU] = "pmu", [K_TP] = "tracepoint",
};

struct lent {
	char *name;          /* canonical display name ("cpu-cycles", "msr/tsc/", "sched:sched_switch") */
	const char *alias;   /* "cycles", or NULL */
	const char *bare;    /* PMU alias without the PMU ("tsc"), for globs */
	enum kind kind;
	const char *pmu;     /* sysfs PMU name, or NULL */
	const char *desc;
	struct perf_event_attr attr;
	bool has_attr;       /* false: tracepoint, or the alias did not encode */
	char *enc_err;       /* why the alias did not encode */
	int err;             /* probe result: 0 opens, -errno otherwise */
	bool probed;
};

struct lvec {
	struct lent *v;
	size_t n, cap;
};

struct filter {
	char **words;
	int nr;
	bool sect[K_NR];     /* a section word was given for it */
	int nr_globs;
};

static struct lent *lvec_add(struct lvec *l)
{
	if (pms_array__reserve(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		die("out of memory");
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

static int section_word(const char *w)
{
	static const struct { const char *w; enum kind k; } words[] = {
		{ "hw", K_HW }, { "hardware", K_HW }, { "sw", K_SW }, { "software", K_SW },
		{ "cache", K_CACHE }, { "hwcache", K_CACHE }, { "pmu", K_PMU }, { "tracepoint", K_TP },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(words[i].w, w))
			return (int)words[i].k;
	return -1;
}

static void filter_init(struct filter *f, char **words, int nr)
{
	memset(f, 0, sizeof(*f));
	f->words = words;
	f->nr = nr;
	for (int i = 0; i < nr; i++) {
		int k = section_word(words[i]);

		if (k >= 0)
			f->sect[k] = true;
		else
			f->nr_globs++;
	}
}

/* Can anything of section k pass the filter? (decides what to read and mount) */
static bool filter_section(const struct filter *f, enum kind k)
{
	return !f->nr || f->sect[k] || f->nr_globs;
}

static bool glob_hit(const char *pat, const char *s)
{
	return s && !fnmatch(pat, s, 0);
}

static bool filter_match(const struct filter *f, const struct lent *e)
{
	if (!f->nr || f->sect[e->kind])
		return true;
	for (int i = 0; i < f->nr; i++) {
		const char *p = f->words[i];

		if (section_word(p) >= 0)
			continue;
		if (glob_hit(p, e->name) || glob_hit(p, e->alias) || glob_hit(p, e->bare) ||
		    (e->kind == K_PMU && glob_hit(p, e->pmu)))
			return true;
	}
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	const struct lent *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void add_named(struct lvec *l, const struct filter *f, enum kind k, const struct pms_event_name *t, size_t nr)
{
	size_t first = l->n;

	for (size_t i = 0; i < nr; i++) {
		struct lent *e = lvec_add(l);

		e->name = xstrdup(t[i].name);
		e->alias = t[i].alias;
		e->kind = k;
		e->pmu = k == K_SW ? "software" : NULL;
		e->desc = t[i].desc;
		e->attr.type = t[i].type;
		e->attr.config = t[i].config;
		e->attr.size = sizeof(e->attr);
		e->has_attr = true;
		if (!filter_match(f, e)) {
			free(e->name);
			l->n--;
		}
	}
	/* perf sorts each section by name */
	qsort(l->v + first, l->n - first, sizeof(l->v[0]), cmp_name);
}

/* Encode pmu/alias/ with the event parser, so list and -e agree on every term. */
static void encode_alias(struct pms_event_ctx *ctx, struct lent *e)
{
	struct pms_evlist tmp = { 0 };
	struct pms_parse_error perr;
	int err = pms_evlist__parse(&tmp, ctx, e->name, &perr);

	if (err || tmp.nr != 1) {
		e->enc_err = xstrdup(err ? perr.msg : "encodes to more than one event");
		e->err = err ? err : -EINVAL;
	} else {
		e->attr = tmp.entries[0].attr;
		e->has_attr = true;
	}
	pms_evlist__release(&tmp);
}

static void add_pmu_aliases(struct lvec *l, const struct filter *f, struct pms_event_ctx *ctx)
{
	const struct pms_pmu *const *pmus;
	size_t nr = 0, first = l->n;

	pmus = pms_event_ctx__pmus(ctx, &nr);
	/* every kernel has the software and tracepoint PMUs: none means the directory is unreadable */
	if (!pmus || !nr) {
		char dir[4096];

		if (pms_pmu_dir__path(dir, sizeof(dir), "%s", ""))
			dir[0] = 0;
		if (dir[0] && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = 0;
		warning("PMU events not listed: cannot read %s: %s", dir, strerror(errno ? errno : ENOENT));
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pms_pmu *p = pmus[i];

		for (size_t j = 0; j < p->nr_aliases; j++) {
			struct lent *e = lvec_add(l);
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s/%s/", p->name, p->aliases[j].name);
			e->name = xstrdup(strbuf_str(&sb));
			strbuf_release(&sb);
			e->bare = p->aliases[j].name;
			e->kind = K_PMU;
			e->pmu = p->name;
			e->desc = p->aliases[j].terms;
			if (!filter_match(f, e)) {
				free(e->name);
				l->n--;
				continue;
			}
			encode_alias(ctx, e);
		}
	}
	qsort(l->v + first, l->n - first, sizeof(l->v[0]), cmp_name);
}

struct tp_arg {
	struct lvec *l;
	const struct filter *f;
};

static int add_tp(const char *subsys, const char *name, void *arg)
{
	struct tp_arg *a = arg;
	struct lent *e = lvec_add(a->l);
	size_t n = strlen(subsys) + strlen(name) + 2;

	e->name = xmalloc(n);
	snprintf(e->name, n, "%s:%s", subsys, name);
	e->kind = K_TP;
	e->pmu = "tracepoint";
	if (!filter_match(a->f, e)) {
		free(e->name);
		a->l->n--;
	}
	return 0;
}

/*
 * Tracepoints as perf lists them. Returns a message for stderr when tracefs
 * is not there, NULL otherwise.
 */
static const char *add_tracepoints(struct lvec *l, const struct filter *f)
{
	struct tp_arg a = { l, f };
	int err;

	/* a sysfs fixture must not be mixed with this machine's tracepoints */
	if (getenv("PMS_SYSFS_ROOT") && !getenv("PMS_TRACEFS_ROOT"))
		return NULL;
	if (!pms_tracefs_root()) {
		if (o.no_mount)
			return "tracepoints not listed: tracefs is not mounted (--no-mount)";
		if (geteuid() != 0)
			return "tracepoints not listed: tracefs is not mounted; as root: mount -t tracefs nodev /sys/kernel/tracing";
		if (pms_tracefs__mount() || !pms_tracefs_root())
			return "tracepoints not listed: tracefs is not mounted and mounting it on /sys/kernel/tracing failed";
	}
	err = pms_tracepoint__foreach(add_tp, &a);
	if (err == -EACCES)
		return "tracepoints not listed: tracefs is not readable by this user";
	if (err)
		return "tracepoints not listed: cannot read tracefs events";
	return NULL;
}

/* ---- probing, once per distinct encoding ---- */

struct pkey {
	uint32_t type;
	uint64_t config, config1, config2;
	bool used;
	int err;
};

struct pcache {
	struct pkey *slot;
	size_t cap;   /* power of two */
	size_t nr;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static struct pkey *pcache_slot(struct pcache *c, const struct perf_event_attr *a)
{
	uint64_t h = mix(mix(mix(mix(0xcbf29ce484222325ULL, a->type), a->config), a->config1), a->config2);
	size_t i = (size_t)h & (c->cap - 1);

	while (c->slot[i].used) {
		struct pkey *k = &c->slot[i];

		if (k->type == a->type && k->config == a->config && k->config1 == a->config1 &&
		    k->config2 == a->config2)
			return k;
		i = (i + 1) & (c->cap - 1);
	}
	return &c->slot[i];
}

static int probe_attr(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	int err;

	/* counting only: an alias's period= term must not make a PMU that cannot sample refuse it */
	a.sample_period = 0;
	a.sample_type = 0;
	/*
	 * Fast path: ENOENT for a generic hw/cache event means no PMU takes it, and
	 * neither user-only nor CPU-wide retries change that (a third of a listing's
	 * syscalls on a machine without a hardware PMU).
	 */
	if (a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE) {
		struct perf_event_attr q = a;
		int fd;

		q.size = sizeof(q);
		q.disabled = 1;
		q.exclude_kernel = q.exclude_hv = 1;
		fd = pms_sys__perf_event_open(&q, 0, -1, -1, 0);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (fd == -ENOENT)
			return fd;
	}
	err = pms_event__probe(&a);
	/* perf's default exclude_guest is refused by PMUs without exclude support: retry bare, as perf does */
	if (err && a.exclude_guest) {
		int err2;

		a.exclude_guest = 0;
		err2 = pms_event__probe(&a);
		if (!err2 || err == -EINVAL)
			err = err2;
	}
	return err;
}

static void probe_all(struct lvec *l)
{
	struct pcache c = { 0 };

	c.cap = 64;
	while (c.cap < l->n * 2)
		c.cap *= 2;
	c.slot = xcalloc(c.cap, sizeof(*c.slot));
	for (size_t i = 0; i < l->n; i++) {
		struct lent *e = &l->v[i];
		struct pkey *k;

		if (!e->has_attr)
			continue;
		k = pcache_slot(&c, &e->attr);
		if (!k->used) {
			k->used = true;
			k->type = e->attr.type;
			k->config = e->attr.config;
			k->config1 = e->attr.config1;
			k->config2 = e->attr.config2;
			k->err = probe_attr(&e->attr);
			c.nr++;
		}
		e->err = k->err;
		e->probed = true;
	}
	free(c.slot);
}

/* ---- output ---- */

static const char *core_pmu(struct pms_event_ctx *ctx);

static bool shown(const struct lent *e, bool probing)
{
	if (e->kind == K_TP || !probing)
		return true;
	return o.all || (e->probed && !e->err);
}

static const char *reason(const struct lent *e, char *buf, size_t size)
{
	if (e->enc_err) {
		snprintf(buf, size, "cannot encode: %s", e->enc_err);
		return buf;
	}
	if (!e->probed || !e->err)
		return NULL;
	/* Ice Lake+ topdown metric events only open as members of a group led by slots */
	if (e->err == -EINVAL && e->kind == K_PMU && e->bare && !strncmp(e->bare, "topdown-", 8)) {
		snprintf(buf, size, "opens only in a group led by %s/slots/ (topdown metrics)", e->pmu);
		return buf;
	}
	return pms_event__open_error_reason(&e->attr, e->err);
}

static void print_encoding(struct strbuf *sb, const struct lent *e)
{
	strbuf_addf(sb, "type=%u,config=0x%llx", e->attr.type, (unsigned long long)e->attr.config);
	if (e->attr.config1)
		strbuf_addf(sb, ",config1=0x%llx", (unsigned long long)e->attr.config1);
	if (e->attr.config2)
		strbuf_addf(sb, ",config2=0x%llx", (unsigned long long)e->attr.config2);
}

static bool any_shown(const struct lvec *l, bool probing)
{
	for (size_t i = 0; i < l->n; i++)
		if (shown(&l->v[i], probing))
			return true;
	return false;
}

static void print_descriptors(const char *core)
{
	char name[160];

	printf("  %-50s [Raw hardware event descriptor]\n", "rNNN");
	snprintf(name, sizeof(name), "%s/t1=v1[,t2=v2,t3 ...]/modifier", core ? core : "cpu");
	printf("  %-50s [Raw hardware event descriptor]\n", name);
	printf("  %-50s [Hardware breakpoint]\n", "mem:<addr>[/len][:access]");
}

static void print_text(const struct lvec *l, bool probing, bool descriptors, const char *core)
{
	char rbuf[320];

	for (size_t i = 0; i < l->n; i++) {
		const struct lent *e = &l->v[i];
		const char *why;
		char name[512];

		if (!shown(e, probing))
			continue;
		if (descriptors && e->kind == K_TP) {
			/* perf's raw-syntax lines come between the PMU events and the tracepoints */
			print_descriptors(core);
			descriptors = false;
		}
		if (e->alias)
			snprintf(name, sizeof(name), "%s OR %s", e->name, e->alias);
		else
			snprintf(name, sizeof(name), "%s", e->name);
		why = probing || e->enc_err ? reason(e, rbuf, sizeof(rbuf)) : NULL;
		if (why)
			printf("  %-50s [%s]  (%s)\n", name, kind_label[e->kind], why);
		else
			printf("  %-50s [%s]\n", name, kind_label[e->kind]);
		if (o.desc && e->desc)
			printf("       [%s]\n", e->desc);
		if (o.details && e->has_attr) {
			struct strbuf sb = STRBUF_INIT;

			print_encoding(&sb, e);
			printf("       %s\n", strbuf_str(&sb));
			strbuf_release(&sb);
		}
	}
	if (descriptors)
		print_descriptors(core);
}

static void print_json(const struct lvec *l, bool probing)
{
	struct pms_json w;
	struct strbuf jb = STRBUF_INIT;
	char rbuf[320];

	pms_json__init(&w, &jb, true);
	pms_json__arr(&w, NULL);
	for (size_t i = 0; i < l->n; i++) {
		const struct lent *e = &l->v[i];

		if (!shown(e, probing))
			continue;
		pms_json__obj(&w, NULL);
		pms_json__str(&w, "name", e->name);
		pms_json__arr(&w, "aliases");
		if (e->alias)
			pms_json__str(&w, NULL, e->alias);
		pms_json__end(&w);
		pms_json__str(&w, "kind", kind_json[e->kind]);
		pms_json__str(&w, "pmu", e->pmu);
		if (e->kind == K_TP || (!e->probed && !e->enc_err))
			pms_json__null(&w, "supported");
		else
			pms_json__bool(&w, "supported", !e->err && !e->enc_err);
		pms_json__str(&w, "reason", reason(e, rbuf, sizeof(rbuf)));
		pms_json__str(&w, "error", e->err ? pms_errno__name(e->err) : NULL);
		if (e->has_attr) {
			struct strbuf sb = STRBUF_INIT;
			char cfg[32];

			print_encoding(&sb, e);
			pms_json__str(&w, "encoding", strbuf_str(&sb));
			strbuf_release(&sb);
			snprintf(cfg, sizeof(cfg), "0x%llx", (unsigned long long)e->attr.config);
			pms_json__str(&w, "config", cfg);
		} else {
			pms_json__null(&w, "encoding");
			pms_json__null(&w, "config");
		}
		pms_json__str(&w, "description", e->desc);
		pms_json__end(&w);
	}
	pms_json__end(&w);
	pms_json__finish(&w);
	output__put(stdout, &jb);
}

static bool is_core_pmu_name(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") || !strncmp(n, "armv8", 5) || !strncmp(n, "armv9", 5);
}

static const char *core_pmu(struct pms_event_ctx *ctx)
{
	const struct pms_pmu *const *pmus;
	size_t nr = 0;

	pmus = ctx ? pms_event_ctx__pmus(ctx, &nr) : NULL;
	for (size_t i = 0; pmus && i < nr; i++)
		if (is_core_pmu_name(pmus[i]->name))
			return pmus[i]->name;
	return NULL;
}

static int run(int argc, char **argv)
{
	struct filter f;
	struct lvec l = { 0 };
	struct pms_event_ctx *ctx;
	const char *tp_msg = NULL;
	bool probing;
	size_t hidden = 0, nr;
	const struct pms_event_name *t;
	int first, ret = 0;

	first = opt_parse(&cmd_list, &argc, argv, 0);
	probing = !o.no_probe && pms_caps__probing_meaningful();
	filter_init(&f, argv + first, argc - first);
	ctx = pms_event_ctx__new();
	if (!ctx)
		warning("cannot read the PMU directory: %s", strerror(errno));

	if (filter_section(&f, K_HW)) {
		t = pms_event_names__hardware(&nr);
		add_named(&l, &f, K_HW, t, nr);
	}
	if (filter_section(&f, K_SW)) {
		t = pms_event_names__software(&nr);
		add_named(&l, &f, K_SW, t, nr);
	}
	if (filter_section(&f, K_CACHE)) {
		t = pms_event_names__cache(&nr);
		add_named(&l, &f, K_CACHE, t, nr);
	}
	core_name = ctx ? core_pmu(ctx) : NULL;
	if (ctx && filter_section(&f, K_PMU))
		add_pmu_aliases(&l, &f, ctx);
	if (filter_section(&f, K_TP))
		tp_msg = add_tracepoints(&l, &f);

	if (probing)
		probe_all(&l);
	for (size_t i = 0; i < l.n; i++)
		if (!shown(&l.v[i], probing))
			hidden++;

	if (o.json)
		print_json(&l, probing);
	else
		print_text(&l, probing, f.nr == 0, core_name);
	if (fflush(stdout))
		ret = EXIT_RUNTIME;

	if (tp_msg && (f.sect[K_TP] || !f.nr))
		note("%s", tp_msg);
	else if (f.nr && hidden == 0 && !any_shown(&l, probing))
		note("no event matches the filter");
	if (hidden)
		note("%zu event%s that do%s not open here %s hidden; --all shows them with the reason", hidden,
		     hidden == 1 ? "" : "s", hidden == 1 ? "es" : "", hidden == 1 ? "is" : "are");
	if (!probing)
		note("events were not probed (%s): everything known is listed",
		     o.no_probe ? "--no-probe" : getenv("PMS_SYSFS_ROOT") ? "PMS_SYSFS_ROOT is set" : "PMS_NO_PROBE");

	for (size_t i = 0; i < l.n; i++) {
		free(l.v[i].name);
		free(l.v[i].enc_err);
	}
	free(l.v);
	pms_event_ctx__free(ctx);
	return ret;
}

static const struct opt opts[] = {
	OPT_BOOL('a', "all", &o.all, "also show events that do not open here, with the reason"),
	OPT_BOOL(0, "json", &o.json, "print a JSON array of events"),
	OPT_BOOL('d', "desc", &o.desc, "print a description under each event"),
	OPT_BOOL(0, "details", &o.details, "print the encoding (type, config) under each event"),
	OPT_BOOL(0, "no-mount", &o.no_mount, "do not mount tracefs to list tracepoints"),
	OPT_BOOL(0, "no-probe", &o.no_probe, "do not open events; list everything known"),
	OPT_END(),
};

PMS_COMMAND(list, "list",
	    "list the events that work on this machine",
	    "pmuscope list [--all] [--json] [--desc] [--details] [--no-mount] [--no-probe] [hw|sw|cache|pmu|tracepoint|<glob>...]");
