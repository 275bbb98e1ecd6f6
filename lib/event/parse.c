// SPDX-License-Identifier: MIT
// perf 6.1's event syntax -> struct perf_event_attr: a hand-written scanner with perf's semantics.
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "event/event.h"
#include "event/event_priv.h"
#include "event/names.h"
#include "event/pmu.h"
#include "event/tracepoint.h"
#include "util/array.h"
#include "util/strsim.h"
#include "util/sysfs.h"

#define MOD_CHARS "ukhpPGHSDIWeb"
/* perf's check_modifier(): at most strlen("ukhGHpppPSDIWeb") characters */
#define MOD_MAX_LEN 15

/* perf's tool events: values the tool computes, anchored on a software dummy */
static const struct {
	const char *name;
	enum pms_tool_event tool;
} tool_names[] = {
	{ "duration_time", PMS_TOOL_DURATION_TIME },
	{ "user_time", PMS_TOOL_USER_TIME },
	{ "system_time", PMS_TOOL_SYSTEM_TIME },
};

/* perf's evsel modifier state; exclude_GH is remembered per event for group modifiers. */
struct mods {
	int eu, ek, eh, eH, eG, eI;
	int precise, precise_max, sample_read, pinned, exclusive, weak, bpf;
	int exclude_GH;
};

struct pstate {
	struct pms_event_ctx *ctx;
	const char *s;
	size_t pos;
	struct pms_parse_error *err;
	struct pms_evlist tmp;      /* events of this string, appended to the caller's list on success */
	unsigned char *exclude_GH;  /* parallel to tmp.entries */
	size_t cap_exclude_GH;
	size_t gh_cap;
};

/* What a parsed pmu/terms/ or name/terms/ produced besides attr bits. */
struct terms_out {
	char *name;           /* name= */
	bool period_set, freq_set;
	double scale;
	char unit[32];
	const struct pms_pmu_alias *aliases[8];
	int nr_aliases;
};

static int set_err(struct pstate *ps, int err, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool is_hybrid_pmu(const struct pms_pmu *pmu);
static void hybrid_config(struct perf_event_attr *attr, const struct pms_pmu *pmu);
static int parse_cache(const char *w, size_t len, uint64_t *config);

static int set_err(struct pstate *ps, int err, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (ps->err) {
		ps->err->err = err;
		ps->err->pos = pos;
		va_start(ap, fmt);
		vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
		va_end(ap);
		ps->err->hint[0] = '\0';
	}
	return err;
}

static void set_hint(struct pstate *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_hint(struct pstate *ps, const char *fmt, ...)
{
	va_list ap;

	if (!ps->err)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err->hint, sizeof(ps->err->hint), fmt, ap);
	va_end(ap);
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("_-.*?[]!", c));
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static void skip_space(struct pstate *ps)
{
	while (is_space(ps->s[ps->pos]))
		ps->pos++;
}

static size_t word_len(const char *p)
{
	size_t n = 0;

	while (is_word_char(p[n]))
		n++;
	return n;
}

static bool is_terminator(char c)
{
	return c == '\0' || c == ',' || c == '}' || is_space(c);
}

/* ---------------------------------------------------------------- evsels */

static struct pms_evsel *new_evsel(struct pstate *ps)
{
	struct pms_evlist *l = &ps->tmp;
	struct pms_evsel *e;

	if (pms_array__reserve(&l->entries, &l->cap, l->nr + 1, sizeof(*l->entries)) ||
	    pms_array__reserve(&ps->exclude_GH, &ps->cap_exclude_GH, l->nr + 1, sizeof(*ps->exclude_GH)))
		return NULL;
	e = &l->entries[l->nr];
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(struct perf_event_attr);
	/* perf's event_attr_init(): outside `perf kvm` every event excludes the guest */
	e->attr.exclude_guest = 1;
	e->leader_idx = (int)l->nr;
	e->nr_members = 0;
	e->scale = 1.0;
	ps->exclude_GH[l->nr] = 0;
	l->nr++;
	return e;
}

static void evsel_release(struct pms_evsel *e)
{
	free(e->name);
	free(e->pmu_name);
	free(e->pmu_cpus);
	e->name = e->pmu_name = e->pmu_cpus = NULL;
}

static int evsel_set_pmu(struct pstate *ps, struct pms_evsel *e, const struct pms_pmu *pmu, const char *fallback)
{
	const char *name = pmu ? pmu->name : fallback;

	if (!pmu && !fallback && ps->ctx) {
		/* hardware, cache and raw events go to the core PMU: "cpu" on x86, armv8_* on arm64 */
		if (!ps->ctx->core_looked) {
			/* by name, so that only the core PMU is loaded, not every PMU of the machine */
			struct pms_event_ctx *c = ps->ctx;
			struct pms_pmu_ent *ent = pms_ctx__find_pmu(c, "cpu", 3);
			size_t i;

			if (!ent)
				ent = pms_ctx__find_pmu(c, "cpu_core", 8);
			for (i = 0; !ent && i < c->nr_pmus; i++)
				if (!strncmp(c->pmus[i].pub.name, "armv8_", 6) || !strncmp(c->pmus[i].pub.name, "armv9_", 6))
					ent = pms_ctx__find_pmu(c, c->pmus[i].pub.name, strlen(c->pmus[i].pub.name));
			c->core_pmu = ent ? &ent->pub : NULL;
			c->core_looked = true;
		}
		pmu = ps->ctx->core_pmu;
		if (!pmu)
			name = "cpu";
	}
	if (pmu)
		name = pmu->name;
	free(e->pmu_name);
	e->pmu_name = name ? strdup(name) : NULL;
	if (name && !e->pmu_name)
		return -ENOMEM;
	if (pmu && pmu->cpus) {
		e->pmu_cpus = strdup(pmu->cpus);
		if (!e->pmu_cpus)
			return -ENOMEM;
	}
	return 0;
}

static int evsel_set_name(struct pms_evsel *e, const char *s, size_t len)
{
	free(e->name);
	e->name = strndup(s, len);
	return e->name ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------- modifiers */

static void mods_from_evsel(struct mods *m, const struct pms_evsel *e, int exclude_GH)
{
	memset(m, 0, sizeof(*m));
	m->eu = e->attr.exclude_user;
	m->ek = e->attr.exclude_kernel;
	m->eh = e->attr.exclude_hv;
	m->eH = e->attr.exclude_host;
	m->eG = e->attr.exclude_guest;
	m->eI = e->attr.exclude_idle;
	m->precise = e->attr.precise_ip;
	m->pinned = e->attr.pinned;
	m->exclusive = e->attr.exclusive;
	m->exclude_GH = exclude_GH;
}

/*
 * perf's get_event_modifier(): the first of u/k/h excludes all three and
 * re-includes itself, later ones only re-include; same for G/H. `u` and `p`
 * also exclude the guest unless G/H were given.
 */
static int mods_apply_str(struct mods *m, const char *str, size_t len)
{
	int exclude = m->eu | m->ek | m->eh;
	size_t i;

	for (i = 0; i < len; i++) {
		switch (str[i]) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			if (!m->exclude_GH)
				m->eG = 1;
			m->eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->eh = 0;
			break;
		case 'G':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eG = 0;
			break;
		case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eH = 0;
			break;
		case 'I': m->eI = 1; break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = 1;
			break;
		case 'P': m->precise_max = 1; break;
		case 'S': m->sample_read = 1; break;
		case 'D': m->pinned = 1; break;
		case 'e': m->exclusive = 1; break;
		case 'W': m->weak = 1; break;
		case 'b': m->bpf = 1; break;
		default: return (int)i + 1;
		}
	}
	return 0;
}

static void mods_store(const struct mods *m, struct pms_evsel *e, unsigned char *exclude_GH, bool leader)
{
	e->attr.exclude_user = m->eu;
	e->attr.exclude_kernel = m->ek;
	e->attr.exclude_hv = m->eh;
	e->attr.exclude_host = m->eH;
	e->attr.exclude_guest = m->eG;
	e->attr.exclude_idle = m->eI;
	e->attr.precise_ip = m->precise;
	e->precise_max = m->precise_max;
	e->sample_read = m->sample_read;
	e->weak_group = m->weak;
	*exclude_GH = (unsigned char)m->exclude_GH;
	/* perf sets pinned/exclusive on group leaders only */
	if (leader) {
		e->attr.pinned = m->pinned;
		e->attr.exclusive = m->exclusive;
	}
}

/* Scan modifiers at ps->pos (up to a terminator), validate like perf's check_modifier(). */
static int scan_mods(struct pstate *ps, size_t *start, size_t *len)
{
	size_t p = ps->pos, i, j;
	int nr_p = 0;

	*start = p;
	while (!is_terminator(ps->s[p])) {
		char c = ps->s[p];

		if (c == ':' )
			return set_err(ps, -EINVAL, p, "only one ':' modifier list per event");
		if (!strchr(MOD_CHARS, c)) {
			set_err(ps, -EINVAL, p, "unknown modifier '%c'", c);
			set_hint(ps, "modifiers are u k h G H I p pp ppp P S D e W b");
			return -EINVAL;
		}
		p++;
	}
	*len = p - *start;
	for (i = 0; i < *len; i++) {
		char c = ps->s[*start + i];

		if (c == 'p') {
			if (++nr_p > 3)
				return set_err(ps, -EINVAL, *start + i, "precise level above 3 ('ppp' is the most)");
			continue;
		}
		for (j = 0; j < i; j++)
			if (ps->s[*start + j] == c)
				return set_err(ps, -EINVAL, *start + i, "modifier '%c' given twice", c);
	}
	if (*len > MOD_MAX_LEN)
		return set_err(ps, -EINVAL, *start, "modifier list too long");
	ps->pos = p;
	return 0;
}

/* Event-level modifiers (perf: applied before grouping, from a zero state). */
static void apply_event_mods(struct pstate *ps, size_t first, const char *str, size_t len)
{
	size_t i;

	for (i = first; i < ps->tmp.nr; i++) {
		struct mods m;

		memset(&m, 0, sizeof(m));
		mods_apply_str(&m, str, len);
		mods_store(&m, &ps->tmp.entries[i], &ps->exclude_GH[i], true);
	}
}

/* ---------------------------------------------------------------- numbers */

static int scan_number(struct pstate *ps, uint64_t *val)
{
	const char *p = ps->s + ps->pos;
	size_t n = 0;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		n = 2;
		if (!isxdigit((unsigned char)p[n]))
			return set_err(ps, -EINVAL, ps->pos + n, "expected hex digits after '0x'");
		for (; isxdigit((unsigned char)p[n]); n++) {
			int d = isdigit((unsigned char)p[n]) ? p[n] - '0' : (tolower((unsigned char)p[n]) - 'a' + 10);

			if (v >> 60)
				return set_err(ps, -ERANGE, ps->pos, "value does not fit in 64 bits");
			v = v << 4 | (uint64_t)d;
		}
	} else if (isdigit((unsigned char)p[0])) {
		for (; isdigit((unsigned char)p[n]); n++) {
			uint64_t d = (uint64_t)(p[n] - '0');

			if (v > (UINT64_MAX - d) / 10)
				return set_err(ps, -ERANGE, ps->pos, "value does not fit in 64 bits");
			v = v * 10 + d;
		}
	} else {
		return set_err(ps, -EINVAL, ps->pos, "expected a number");
	}
	if (is_word_char(p[n]))
		return set_err(ps, -EINVAL, ps->pos + n, "expected a number");
	ps->pos += n;
	*val = v;
	return 0;
}

/* ------------------------------------------------------------------ terms */

enum term_kind { T_CONFIG, T_CONFIG1, T_CONFIG2, T_CONFIG3, T_NAME, T_PERIOD, T_FREQ, T_PERCORE, T_METRIC_ID, T_USER };

static const struct {
	const char *name;
	enum term_kind kind;
} builtin_terms[] = {
	{ "config", T_CONFIG }, { "config1", T_CONFIG1 }, { "config2", T_CONFIG2 },
#ifdef PERF_ATTR_SIZE_VER8
	{ "config3", T_CONFIG3 },
#endif
	{ "name", T_NAME }, { "period", T_PERIOD }, { "freq", T_FREQ },
	{ "percore", T_PERCORE }, { "metric-id", T_METRIC_ID },
};

#define NR_BUILTIN (sizeof(builtin_terms) / sizeof(builtin_terms[0]))

struct term {
	enum term_kind kind;
	size_t pos;         /* of the term name, in the user's string (or the alias term in an alias) */
	const char *name;   /* points into the string being parsed */
	size_t name_len;
	bool has_value;
	uint64_t val;
	const char *str;    /* name=/metric-id= string value */
	size_t str_len;
};

struct term_list {
	struct term *t;
	size_t nr, cap;
};

static int term_push(struct term_list *l, const struct term *t)
{
	if (pms_array__reserve(&l->t, &l->cap, l->nr + 1, sizeof(*l->t)))
		return -ENOMEM;
	l->t[l->nr++] = *t;
	return 0;
}

static enum term_kind builtin_kind(const char *name, size_t len)
{
	size_t i;

	/* every builtin starts with c, n, p, f or m: most format terms leave here */
	if (!strchr("cnpfm", name[0]))
		return T_USER;
	for (i = 0; i < NR_BUILTIN; i++)
		if (builtin_terms[i].name[0] == name[0] && !strncmp(builtin_terms[i].name, name, len) &&
		    builtin_terms[i].name[len] == '\0')
			return builtin_terms[i].kind;
	return T_USER;
}

/* perf 6.1's other config terms (record-time settings): recognised, refused with a clear message */
static bool is_perf_config_term(const char *name, size_t len)
{
	static const char *const perf_terms[] = {
		"call-graph", "stack-size", "max-stack", "inherit", "no-inherit", "overwrite",
		"no-overwrite", "time", "branch_type", "driver-config", "nr", "aux-output",
		"aux-sample-size",
	};

	for (size_t i = 0; i < sizeof(perf_terms) / sizeof(perf_terms[0]); i++)
		if (!strncmp(perf_terms[i], name, len) && perf_terms[i][len] == '\0')
			return true;
	return false;
}

static bool is_term_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/*
 * Scan "t1=v1,t2,.../" from ps->pos up to (not including) the closing '/'
 * (or the end of the string when `in_alias`). Positions of alias terms are
 * reported at `alias_pos`.
 */
static int scan_terms(struct pstate *ps, struct term_list *out, bool in_alias, size_t alias_pos)
{
	const char *s = ps->s;

	for (;;) {
		struct term t = { 0 };
		size_t n = 0;

		skip_space(ps);
		if (s[ps->pos] == '/' && !in_alias)
			return 0;
		if (s[ps->pos] == '\0') {
			if (in_alias)
				return 0;
			return set_err(ps, -EINVAL, ps->pos, "expected a term or the closing '/'");
		}
		while (is_term_name_char(s[ps->pos + n]))
			n++;
		if (!n)
			return set_err(ps, -EINVAL, in_alias ? alias_pos : ps->pos,
				       "expected a term name (term=value)");
		t.pos = in_alias ? alias_pos : ps->pos;
		t.name = s + ps->pos;
		t.name_len = n;
		t.kind = builtin_kind(t.name, n);
		ps->pos += n;
		skip_space(ps);
		if (s[ps->pos] == '=') {
			ps->pos++;
			skip_space(ps);
			t.has_value = true;
			if (t.kind == T_NAME || t.kind == T_METRIC_ID ||
			    (is_perf_config_term(t.name, n) && !isdigit((unsigned char)s[ps->pos]))) {
				size_t m = 0;

				if (s[ps->pos] == '\'' ) {
					const char *q = strchr(s + ps->pos + 1, '\'');

					if (!q)
						return set_err(ps, -EINVAL, ps->pos, "unterminated quote");
					t.str = s + ps->pos + 1;
					t.str_len = (size_t)(q - t.str);
					ps->pos = (size_t)(q - s) + 1;
				} else {
					while (s[ps->pos + m] && s[ps->pos + m] != ',' && s[ps->pos + m] != '/' &&
					       !is_space(s[ps->pos + m]))
						m++;
					if (!m)
						return set_err(ps, -EINVAL, ps->pos, "expected a name after '='");
					t.str = s + ps->pos;
					t.str_len = m;
					ps->pos += m;
				}
			} else {
				int err = scan_number(ps, &t.val);

				if (err) {
					if (in_alias && ps->err)
						ps->err->pos = alias_pos;
					return err;
				}
			}
		} else {
			if (t.kind == T_NAME || t.kind == T_METRIC_ID)
				return set_err(ps, -EINVAL, ps->pos, "expected '=' after '%.*s'", (int)n, t.name);
			t.val = 1; /* a bare term is a boolean set to 1, as in perf */
		}
		if (term_push(out, &t))
			return set_err(ps, -ENOMEM, ps->pos, "out of memory");
		skip_space(ps);
		if (s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if ((s[ps->pos] == '/' && !in_alias) || (s[ps->pos] == '\0' && in_alias))
			return 0;
		if (s[ps->pos] == '\0')
			return set_err(ps, -EINVAL, ps->pos, "expected ',' or the closing '/'");
		return set_err(ps, -EINVAL, in_alias ? alias_pos : ps->pos, "expected ',' or '/' after a term");
	}
}

static void valid_terms_hint(struct pstate *ps, const struct pms_pmu *pmu, const char *suggest)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (suggest)
		strbuf_addf(&sb, "did you mean '%s'?\n", suggest);
	strbuf_adds(&sb, "valid terms: ");
	if (pmu)
		for (i = 0; i < pmu->nr_formats; i++)
			strbuf_addf(&sb, "%s,", pmu->formats[i].name);
	for (i = 0; i < NR_BUILTIN; i++)
		strbuf_addf(&sb, "%s%s", builtin_terms[i].name, i + 1 < NR_BUILTIN ? "," : "");
	set_hint(ps, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

static const char *suggest_term(const struct pms_pmu *pmu, const char *word)
{
	const char **c;
	const char *best;
	size_t n = 0, i;

	c = calloc(NR_BUILTIN + (pmu ? pmu->nr_formats + pmu->nr_aliases : 0) + 1, sizeof(*c));
	if (!c)
		return NULL;
	for (i = 0; i < NR_BUILTIN; i++)
		c[n++] = builtin_terms[i].name;
	if (pmu) {
		for (i = 0; i < pmu->nr_formats; i++)
			c[n++] = pmu->formats[i].name;
		for (i = 0; i < pmu->nr_aliases; i++)
			c[n++] = pmu->aliases[i].name;
	}
	best = pms_str__suggest(word, c, n);
	free(c);
	return best;
}

/* OR `val` into the format's bits, as perf 6.1 does (terms accumulate, they do not overwrite). */
static int format_or(const struct pms_pmu_format *f, uint64_t val, struct perf_event_attr *attr)
{
	uint64_t *dst;
	int r, b, vbit = 0;

	switch (f->field) {
	case 0: dst = (uint64_t *)&attr->config; break;
	case 1: dst = (uint64_t *)&attr->config1; break;
	case 2: dst = (uint64_t *)&attr->config2; break;
#ifdef PERF_ATTR_SIZE_VER8
	case 3: dst = (uint64_t *)&attr->config3; break;
#endif
	default: return -EINVAL;
	}
	if (f->nr_bits < 64 && (val >> f->nr_bits))
		return -ERANGE;
	for (r = 0; r < f->nr_ranges; r++)
		for (b = f->ranges[r].lo; b <= f->ranges[r].hi; b++, vbit++)
			if ((val >> vbit) & 1)
				*dst |= 1ULL << b;
	return 0;
}

/*
 * Expand alias terms in place (perf_pmu__check_alias), then apply builtin
 * terms first and format terms second (perf's config_attr() then
 * perf_pmu__config()). pmu NULL: a legacy event where only builtins are valid.
 */
static int expand_aliases(struct pstate *ps, const struct pms_pmu *pmu, struct term_list *in,
			  struct term_list *out, struct terms_out *to)
{
	size_t i;
	int err;

	for (i = 0; i < in->nr; i++) {
		struct term *t = &in->t[i];
		const struct pms_pmu_alias *a;
		struct pstate sub;
		int k;

		if (t->kind != T_USER || !pmu || (t->has_value && t->val != 1) ||
		    pms_pmu__format(pmu, t->name, t->name_len) ||
		    !(a = pms_pmu__alias(pmu, t->name, t->name_len))) {
			if (term_push(out, t))
				return set_err(ps, -ENOMEM, t->pos, "out of memory");
			continue;
		}
		for (k = 0; k < to->nr_aliases; k++)
			if (to->aliases[k] == a)
				return set_err(ps, -EINVAL, t->pos, "event '%s' used twice in one event", a->name);
		if (to->nr_aliases == (int)(sizeof(to->aliases) / sizeof(to->aliases[0])))
			return set_err(ps, -EINVAL, t->pos, "too many events in one event");
		to->aliases[to->nr_aliases++] = a;
		if (a->scale != 1.0 || a->unit[0]) {
			if ((to->unit[0] && a->unit[0] && strcmp(to->unit, a->unit)) ||
			    (to->scale != 1.0 && a->scale != 1.0 && to->scale != a->scale))
				return set_err(ps, -EINVAL, t->pos, "events with different units or scales in one event");
			if (a->scale != 1.0)
				to->scale = a->scale;
			if (a->unit[0])
				snprintf(to->unit, sizeof(to->unit), "%s", a->unit);
		}
		/* alias terms are parsed from sysfs text; errors point at the alias in the user's string */
		sub = *ps;
		sub.s = a->terms;
		sub.pos = 0;
		err = scan_terms(&sub, out, true, t->pos);
		if (err) {
			if (ps->err)
				snprintf(ps->err->hint, sizeof(ps->err->hint), "in %s/events/%s: '%s'", pmu->name,
					 a->name, a->terms);
			return err;
		}
		/* alias-provided terms keep pointers into a->terms, which lives as long as ctx */
	}
	return 0;
}

static int apply_terms(struct pstate *ps, const struct pms_pmu *pmu, struct term_list *terms,
		       struct perf_event_attr *attr, struct terms_out *to)
{
	size_t i;

	for (i = 0; i < terms->nr; i++) {
		struct term *t = &terms->t[i];

		switch (t->kind) {
		case T_CONFIG: attr->config = t->val; break;
		case T_CONFIG1: attr->config1 = t->val; break;
		case T_CONFIG2: attr->config2 = t->val; break;
#ifdef PERF_ATTR_SIZE_VER8
		case T_CONFIG3: attr->config3 = t->val; break;
#endif
		case T_PERIOD:
			attr->sample_period = t->val;
			attr->freq = 0;
			to->period_set = true;
			to->freq_set = false;
			break;
		case T_FREQ:
			attr->sample_freq = t->val;
			attr->freq = 1;
			to->freq_set = true;
			to->period_set = false;
			break;
		case T_NAME:
			free(to->name);
			to->name = strndup(t->str, t->str_len);
			if (!to->name)
				return set_err(ps, -ENOMEM, t->pos, "out of memory");
			break;
		case T_PERCORE:
		case T_METRIC_ID:
			break; /* stat-display hints: no attr bits */
		default:
			break;
		}
	}
	for (i = 0; i < terms->nr; i++) {
		struct term *t = &terms->t[i];
		const struct pms_pmu_format *f;
		char word[128];
		int err;

		if (t->kind != T_USER)
			continue;
		f = pmu ? pms_pmu__format(pmu, t->name, t->name_len) : NULL;
		if (!f && is_hybrid_pmu(pmu) && !t->has_value) {
			/* "cpu_core/cycles/": a legacy hardware or cache name on one core type */
			const struct pms_event_name *sym = pms_event_names__find(t->name, t->name_len);
			uint64_t cfg;

			if (sym && sym->type == PERF_TYPE_HARDWARE) {
				attr->type = PERF_TYPE_HARDWARE;
				attr->config = sym->config;
				hybrid_config(attr, pmu);
				continue;
			}
			if (parse_cache(t->name, t->name_len, &cfg) == 0) {
				attr->type = PERF_TYPE_HW_CACHE;
				attr->config = cfg;
				hybrid_config(attr, pmu);
				continue;
			}
		}
		if (!f && is_perf_config_term(t->name, t->name_len)) {
			snprintf(word, sizeof(word), "%.*s", (int)t->name_len, t->name);
			set_err(ps, -EOPNOTSUPP, t->pos, "perf's term '%s' is not supported by pmuscope", word);
			set_hint(ps, "pmuscope takes config=, config1=, config2=, name=, period=, freq=, percore, "
				 "metric-id= and the PMU's format terms");
			return -EOPNOTSUPP;
		}
		if (!f) {
			snprintf(word, sizeof(word), "%.*s", (int)t->name_len, t->name);
			if (pmu)
				set_err(ps, -EINVAL, t->pos, "unknown term '%s' for pmu '%s'", word, pmu->name);
			else
				set_err(ps, -EINVAL, t->pos, "unknown term '%s'", word);
			valid_terms_hint(ps, pmu, suggest_term(pmu, word));
			return -EINVAL;
		}
		err = format_or(f, t->val, attr);
		if (err == -ERANGE) {
			set_err(ps, -ERANGE, t->pos, "value 0x%llx too big for '%s' (%d bit%s, maximum 0x%llx)",
				(unsigned long long)t->val, f->name, f->nr_bits, f->nr_bits == 1 ? "" : "s",
				(unsigned long long)(f->nr_bits >= 64 ? ~0ULL : (1ULL << f->nr_bits) - 1));
			return -ERANGE;
		}
		if (err)
			return set_err(ps, err, t->pos, "format '%s' targets an unsupported field", f->name);
	}
	return 0;
}

/* Parse "/terms/" at ps->pos (on the opening '/'); leaves ps->pos after the closing '/'. */
static int parse_slash_terms(struct pstate *ps, const struct pms_pmu *pmu, struct perf_event_attr *attr,
			     struct terms_out *to)
{
	struct term_list raw = { 0 }, expanded = { 0 };
	int err;

	ps->pos++; /* '/' */
	err = scan_terms(ps, &raw, false, 0);
	if (!err)
		err = expand_aliases(ps, pmu, &raw, &expanded, to);
	if (!err)
		err = apply_terms(ps, pmu, &expanded, attr, to);
	if (!err)
		ps->pos++; /* closing '/' */
	free(raw.t);
	free(expanded.t);
	return err;
}

/* -------------------------------------------------------------- suggestions */

static void add_cand(const char ***c, size_t *n, size_t *cap, const char *s)
{
	if (pms_array__reserve(c, cap, *n + 1, sizeof(**c)))
		return;
	(*c)[(*n)++] = s;
}

static const char *suggest_event(struct pstate *ps, const char *word)
{
	const struct pms_event_name *t;
	const char **c = NULL, *best;
	size_t n = 0, cap = 0, nr, i, j;
	const struct pms_pmu *const *pmus;

	t = pms_event_names__hardware(&nr);
	for (i = 0; i < nr; i++) {
		add_cand(&c, &n, &cap, t[i].name);
		if (t[i].alias)
			add_cand(&c, &n, &cap, t[i].alias);
	}
	t = pms_event_names__software(&nr);
	for (i = 0; i < nr; i++) {
		add_cand(&c, &n, &cap, t[i].name);
		if (t[i].alias)
			add_cand(&c, &n, &cap, t[i].alias);
	}
	t = pms_event_names__cache(&nr);
	for (i = 0; i < nr; i++)
		add_cand(&c, &n, &cap, t[i].name);
	for (i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
		add_cand(&c, &n, &cap, tool_names[i].name);
	if (ps->ctx) {
		pmus = pms_event_ctx__pmus(ps->ctx, &nr);
		for (i = 0; pmus && i < nr; i++)
			for (j = 0; j < pmus[i]->nr_aliases; j++)
				add_cand(&c, &n, &cap, pmus[i]->aliases[j].name);
	}
	best = c ? pms_str__suggest(word, c, n) : NULL;
	free(c);
	return best;
}

static void pmu_list_hint(struct pstate *ps, const char *word)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pms_pmu *const *pmus = NULL;
	const char **c;
	const char *best = NULL;
	size_t nr = 0, i;

	if (ps->ctx)
		pmus = pms_event_ctx__pmus(ps->ctx, &nr);
	c = calloc(nr + 1, sizeof(*c));
	if (c) {
		for (i = 0; i < nr; i++)
			c[i] = pmus[i]->name;
		best = pms_str__suggest(word, c, nr);
		free(c);
	}
	if (best)
		strbuf_addf(&sb, "did you mean '%s'?\n", best);
	strbuf_adds(&sb, "PMUs on this machine:");
	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : " ", pmus[i]->name);
	if (!nr)
		strbuf_adds(&sb, " (none: is sysfs mounted?)");
	set_hint(ps, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* ---------------------------------------------------------- name lookups */

static int match_spelling(int what, const char *p, size_t len, size_t *used)
{
	int idx, best = -1;
	size_t best_len = 0;
	int max = what == 1 ? PERF_COUNT_HW_CACHE_OP_MAX : PERF_COUNT_HW_CACHE_RESULT_MAX;

	for (idx = 0; idx < max; idx++) {
		const char *const *sp = pms_event_names__cache_spellings(what, idx);
		size_t k;

		for (k = 0; sp && sp[k]; k++) {
			size_t l;

			if (sp[k][0] != p[0])
				continue;
			l = strlen(sp[k]);
			if (l <= len && !memcmp(sp[k], p, l) && (l == len || p[l] == '-') && l > best_len) {
				best = idx;
				best_len = l;
			}
		}
	}
	*used = best_len;
	return best;
}

/* "L1-dcache-load-misses" etc. -> config; -ENOENT when not a cache name, -EINVAL when invalid. */
static int parse_cache(const char *w, size_t len, uint64_t *config)
{
	int type;

	/* first letters of perf's cache type spellings: most words fail here */
	if (!len || !strchr("LldDiIbn", w[0]))
		return -ENOENT;

	for (type = 0; type < PERF_COUNT_HW_CACHE_MAX; type++) {
		const char *const *sp = pms_event_names__cache_spellings(0, type);
		size_t k;

		for (k = 0; sp && sp[k]; k++) {
			size_t l, p;
			const char *words[2];
			size_t wlen[2];
			int nw = 0, op = -1, res = -1, i;

			if (sp[k][0] != w[0])
				continue;
			l = p = strlen(sp[k]);
			if (l > len || memcmp(sp[k], w, l) || (l < len && w[l] != '-'))
				continue;
			while (p < len && nw < 2) {
				size_t u1, u2, u;
				int a = match_spelling(1, w + p + 1, len - p - 1, &u1);
				int b = match_spelling(2, w + p + 1, len - p - 1, &u2);

				if (a < 0 && b < 0)
					break;
				u = u1 > u2 ? u1 : u2;
				words[nw] = w + p + 1;
				wlen[nw++] = u;
				p += 1 + u;
			}
			if (p != len)
				continue;
			/* perf's parse_events_add_cache(): first an op, then a result, in either word */
			for (i = 0; i < nw; i++) {
				size_t u;
				int v;

				if (op == -1) {
					v = match_spelling(1, words[i], wlen[i], &u);
					if (v >= 0 && u == wlen[i]) {
						if (!pms_event_names__cache_op_valid(type, v))
							return -EINVAL;
						op = v;
						continue;
					}
				}
				if (res == -1) {
					v = match_spelling(2, words[i], wlen[i], &u);
					if (v >= 0 && u == wlen[i])
						res = v;
				}
			}
			if (op == -1)
				op = PERF_COUNT_HW_CACHE_OP_READ;
			if (res == -1)
				res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
			*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16;
			return 0;
		}
	}
	return -ENOENT;
}

static bool is_raw(const char *w, size_t len, uint64_t *config, bool *overflow)
{
	uint64_t v = 0;
	size_t i;

	*overflow = false;
	if (len < 2 || w[0] != 'r')
		return false;
	for (i = 1; i < len; i++)
		if (!isxdigit((unsigned char)w[i]))
			return false;
	for (i = 1; i < len; i++) {
		int d = isdigit((unsigned char)w[i]) ? w[i] - '0' : tolower((unsigned char)w[i]) - 'a' + 10;

		if (v >> 60)
			*overflow = true;
		v = v << 4 | (uint64_t)d;
	}
	*config = v;
	return true;
}

enum kind { K_NONE, K_SYM, K_CACHE, K_RAW, K_TOOL };

struct resolved {
	enum kind kind;
	uint32_t type;
	uint64_t config;
	const struct pms_event_name *sym;
	enum pms_tool_event tool;
};


static int resolve_word(struct pstate *ps, size_t start, size_t len, struct resolved *r)
{
	const char *w = ps->s + start;
	bool overflow;
	int err;

	memset(r, 0, sizeof(*r));
	r->sym = pms_event_names__find(w, len);
	if (r->sym) {
		r->kind = K_SYM;
		r->type = r->sym->type;
		r->config = r->sym->config;
		return 0;
	}
	for (size_t i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
		if (tool_names[i].name[0] == w[0] && !strncmp(tool_names[i].name, w, len) &&
		    tool_names[i].name[len] == '\0') {
			r->kind = K_TOOL;
			r->type = PERF_TYPE_SOFTWARE;
			r->config = PERF_COUNT_SW_DUMMY;
			r->tool = tool_names[i].tool;
			return 0;
		}
	err = parse_cache(w, len, &r->config);
	if (err == 0) {
		r->kind = K_CACHE;
		r->type = PERF_TYPE_HW_CACHE;
		return 0;
	}
	if (err == -EINVAL) {
		set_err(ps, -EINVAL, start, "cache event '%.*s' names an operation this cache does not have",
			(int)len, w);
		set_hint(ps, "iTLB and branch take only loads; L1-icache takes loads and prefetches");
		return -EINVAL;
	}
	if (is_raw(w, len, &r->config, &overflow)) {
		if (overflow)
			return set_err(ps, -ERANGE, start, "raw event '%.*s' does not fit in 64 bits", (int)len, w);
		r->kind = K_RAW;
		r->type = PERF_TYPE_RAW;
		return 0;
	}
	return 0;
}

/* One event per PMU with an events/ alias named w[0..len), in name order; *nr_added says how many. */
static int add_alias_everywhere(struct pstate *ps, size_t start, size_t len, size_t *nr_added)
{
	const struct pms_pmu *const *pmus;
	size_t nr = 0, i;
	int err;

	*nr_added = 0;
	if (!ps->ctx)
		return 0;
	pmus = pms_event_ctx__pmus(ps->ctx, &nr);
	for (i = 0; pmus && i < nr; i++) {
		const struct pms_pmu *pmu = pmus[i];
		struct term_list raw = { 0 }, expanded = { 0 };
		struct term t = { 0 };
		struct terms_out to = { .scale = 1.0 };
		struct pms_evsel *e;

		if (!pms_pmu__alias(pmu, ps->s + start, len))
			continue;
		t.kind = T_USER;
		t.pos = start;
		t.name = ps->s + start;
		t.name_len = len;
		t.val = 1;
		e = new_evsel(ps);
		if (!e || term_push(&raw, &t)) {
			free(raw.t);
			return set_err(ps, -ENOMEM, start, "out of memory");
		}
		e->attr.type = pmu->type;
		err = expand_aliases(ps, pmu, &raw, &expanded, &to);
		if (!err)
			err = apply_terms(ps, pmu, &expanded, &e->attr, &to);
		free(raw.t);
		free(expanded.t);
		free(to.name);
		if (err)
			return err;
		e->scale = to.scale;
		memcpy(e->unit, to.unit, sizeof(e->unit));
		if (evsel_set_pmu(ps, e, pmu, NULL))
			return set_err(ps, -ENOMEM, start, "out of memory");
		(*nr_added)++;
	}
	return 0;
}

/* ------------------------------------------------------------ tracepoints */

/* perf's evsel__newtp(): a tracepoint samples every hit with its raw payload */
static void tp_attr(struct pms_evsel *e, uint64_t id)
{
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = id;
	e->attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	e->attr.sample_period = 1;
	e->is_tracepoint = true;
}

struct tp_glob {
	struct pstate *ps;
	const char *sys_pat, *name_pat;
	size_t nr;
	int err;
};

static int tp_glob_cb(const char *subsys, const char *name, void *arg)
{
	struct tp_glob *g = arg;
	struct pms_evsel *e;
	uint64_t id;
	int err;

	if (fnmatch(g->sys_pat, subsys, 0) || fnmatch(g->name_pat, name, 0))
		return 0;
	err = pms_tracepoint__id(subsys, name, &id);
	if (err)
		return 0; /* a tracepoint without an id file cannot be opened; perf skips it too */
	e = new_evsel(g->ps);
	if (!e)
		return g->err = -ENOMEM;
	tp_attr(e, id);
	e->name = malloc(strlen(subsys) + strlen(name) + 2);
	if (!e->name)
		return g->err = -ENOMEM;
	snprintf(e->name, strlen(subsys) + strlen(name) + 2, "%s:%s", subsys, name);
	e->pmu_name = strdup("tracepoint");
	if (!e->pmu_name)
		return g->err = -ENOMEM;
	g->nr++;
	return 0;
}

static int collect_tp_name(const char *subsys, const char *name, void *arg)
{
	struct pms_event_ctx *ctx = arg;
	size_t l = strlen(subsys) + strlen(name) + 2;
	char **n;

	if ((ctx->nr_tp_names & (ctx->nr_tp_names - 1)) == 0) {
		n = realloc(ctx->tp_names, (ctx->nr_tp_names ? ctx->nr_tp_names * 2 : 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		ctx->tp_names = n;
	}
	ctx->tp_names[ctx->nr_tp_names] = malloc(l);
	if (!ctx->tp_names[ctx->nr_tp_names])
		return -ENOMEM;
	snprintf(ctx->tp_names[ctx->nr_tp_names], l, "%s:%s", subsys, name);
	ctx->nr_tp_names++;
	return 0;
}

static const char *suggest_tp(struct pstate *ps, const char *word)
{
	if (!ps->ctx)
		return NULL;
	if (!ps->ctx->tp_loaded) {
		ps->ctx->tp_loaded = true;
		pms_tracepoint__foreach(collect_tp_name, ps->ctx);
	}
	return pms_str__suggest(word, (const char *const *)ps->ctx->tp_names, ps->ctx->nr_tp_names);
}

/* tracefs mounted (or a fixture): its events/ directory exists */
static bool tracefs_ready(void)
{
	const char *root = pms_tracefs_root();
	char path[4096];
	struct stat st;

	if (!root)
		return false;
	snprintf(path, sizeof(path), "%s/events", root);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_tp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct pms_evsel *)a)->attr.config, y = ((const struct pms_evsel *)b)->attr.config;

	return x < y ? -1 : x > y;
}

/* Tracepoint ids never change while tracefs is mounted: remember them in the context. */
static int tp_id_cached(struct pms_event_ctx *ctx, const char *full, const char *sys, const char *name,
			uint64_t *id)
{
	size_t i;
	int err;

	for (i = 0; ctx && i < ctx->nr_tp_ids; i++)
		if (!strcmp(ctx->tp_ids[i].name, full)) {
			*id = ctx->tp_ids[i].id;
			return 0;
		}
	err = pms_tracepoint__id(sys, name, id);
	if (err || !ctx)
		return err;
	if (pms_array__reserve(&ctx->tp_ids, &ctx->cap_tp_ids, ctx->nr_tp_ids + 1, sizeof(*ctx->tp_ids)))
		return 0; /* caching is optional */
	ctx->tp_ids[ctx->nr_tp_ids].name = strdup(full);
	if (ctx->tp_ids[ctx->nr_tp_ids].name)
		ctx->tp_ids[ctx->nr_tp_ids++].id = *id;
	return 0;
}

static int add_tracepoint(struct pstate *ps, size_t start, size_t sys_len, size_t name_start, size_t name_len)
{
	char sys[256], name[256], full[514];
	struct tp_glob g = { 0 };
	bool glob;
	int err;

	if (sys_len >= sizeof(sys) || name_len >= sizeof(name))
		return set_err(ps, -EINVAL, start, "tracepoint name too long");
	snprintf(sys, sizeof(sys), "%.*s", (int)sys_len, ps->s + start);
	snprintf(name, sizeof(name), "%.*s", (int)name_len, ps->s + name_start);
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	glob = strpbrk(full, "*?[") != NULL;
	if (!glob && ps->ctx) {
		/* ids seen before need neither tracefs nor a syscall */
		for (size_t i = 0; i < ps->ctx->nr_tp_ids; i++)
			if (!strcmp(ps->ctx->tp_ids[i].name, full)) {
				struct pms_evsel *e = new_evsel(ps);

				if (!e || !(e->name = strdup(full)) || !(e->pmu_name = strdup("tracepoint")))
					return set_err(ps, -ENOMEM, start, "out of memory");
				tp_attr(e, ps->ctx->tp_ids[i].id);
				return 0;
			}
	}
	if (!tracefs_ready()) {
		set_err(ps, -ENOENT, start, "tracefs is not mounted, cannot resolve tracepoint '%s'", full);
		set_hint(ps, "mount it (as root): mount -t tracefs nodev /sys/kernel/tracing");
		return -ENOENT;
	}
	if (!glob) {
		struct pms_evsel *e;
		uint64_t id;

		err = tp_id_cached(ps->ctx, full, sys, name, &id);
		if (err == -ENOENT) {
			const char *best;

			set_err(ps, -ENOENT, start, "unknown tracepoint '%s'", full);
			best = suggest_tp(ps, full);
			if (best)
				set_hint(ps, "did you mean '%s'?", best);
			else
				set_hint(ps, "'pmuscope list tracepoint' shows the tracepoints of this kernel");
			return -ENOENT;
		}
		if (err)
			return set_err(ps, err, start, "cannot read tracepoint '%s': %s", full, strerror(-err));
		e = new_evsel(ps);
		if (!e || !(e->name = strdup(full)) || !(e->pmu_name = strdup("tracepoint")))
			return set_err(ps, -ENOMEM, start, "out of memory");
		tp_attr(e, id);
		return 0;
	}
	g.ps = ps;
	g.sys_pat = sys;
	g.name_pat = name;
	err = pms_tracepoint__foreach(tp_glob_cb, &g);
	if (g.err)
		return set_err(ps, g.err, start, "out of memory");
	if (err < 0 && err != -ENOENT)
		return set_err(ps, err, start, "cannot read tracefs: %s", strerror(-err));
	if (!g.nr)
		return set_err(ps, -ENOENT, start, "no tracepoint matches '%s'", full);
	/* perf expands globs in tracefs readdir order, which is creation (= id) order */
	qsort(ps->tmp.entries + ps->tmp.nr - g.nr, g.nr, sizeof(struct pms_evsel), cmp_tp_id);
	for (size_t i = ps->tmp.nr - g.nr; i < ps->tmp.nr; i++)
		ps->tmp.entries[i].leader_idx = (int)i;
	return 0;
}

/* ------------------------------------------------------------ breakpoints */

#define BP_R 1 /* HW_BREAKPOINT_R/W/X from <linux/hw_breakpoint.h> */
#define BP_W 2
#define BP_X 4

/* "mem:ADDR[/LEN][:rwx]" at ps->pos (on "mem:"); perf's parse_events_add_breakpoint(). */
static int parse_breakpoint(struct pstate *ps, size_t start, size_t *name_end)
{
	const char *s = ps->s;
	uint64_t addr, len = 0;
	struct pms_evsel *e;
	int type = 0, err;
	size_t slash = 0;

	ps->pos = start + 4;
	err = scan_number(ps, &addr);
	if (err)
		return set_err(ps, err, ps->pos, "expected a breakpoint address (mem:0x1234)");
	if (s[ps->pos] == '/') {
		slash = ps->pos;
		ps->pos++;
		err = scan_number(ps, &len);
		if (err)
			return set_err(ps, err, ps->pos, "expected a breakpoint length in bytes (1, 2, 4 or 8)");
		if (len != 1 && len != 2 && len != 4 && len != 8)
			return set_err(ps, -EINVAL, slash + 1, "breakpoint length must be 1, 2, 4 or 8");
	}
	if (s[ps->pos] == ':') {
		size_t n = strspn(s + ps->pos + 1, "rwx");

		if (n && (is_terminator(s[ps->pos + 1 + n]) || s[ps->pos + 1 + n] == ':')) {
			size_t i;

			for (i = 0; i < n; i++) {
				int bit = s[ps->pos + 1 + i] == 'r' ? BP_R : s[ps->pos + 1 + i] == 'w' ? BP_W : BP_X;

				if (type & bit)
					return set_err(ps, -EINVAL, ps->pos + 1 + i, "access type '%c' given twice",
						       s[ps->pos + 1 + i]);
				type |= bit;
			}
			ps->pos += 1 + n;
		}
	}
	if (!type)
		type = BP_R | BP_W;
	if ((type & BP_X) && (type & (BP_R | BP_W)))
		return set_err(ps, -EINVAL, start, "a breakpoint is either on execution (x) or on data (rw)");
	if (!len)
		len = (type & BP_X) ? sizeof(long) : 4;
	e = new_evsel(ps);
	if (!e)
		return set_err(ps, -ENOMEM, start, "out of memory");
	e->attr.type = PERF_TYPE_BREAKPOINT;
	e->attr.bp_addr = addr;
	e->attr.bp_type = (uint32_t)type;
	e->attr.bp_len = len;
	e->attr.sample_period = 1; /* perf: every hit is a sample */
	e->pmu_name = strdup("breakpoint");
	if (!e->pmu_name)
		return set_err(ps, -ENOMEM, start, "out of memory");
	/* perf 6.1 names "mem:0x10/8:w" "mem:0x10" (the text before the length) */
	*name_end = slash;
	return 0;
}

/* ----------------------------------------------------------------- events */

/*
 * Hybrid x86 (cpu_core + cpu_atom): perf 6.1 opens a legacy hardware or cache
 * event once per core type, with the PMU's type in config[63:32]
 * (PERF_PMU_TYPE_SHIFT), and a raw event once per PMU type.
 */
#define PMU_TYPE_SHIFT 32

static int hybrid_pmus(struct pstate *ps, const struct pms_pmu *out[2])
{
	static const char *const names[] = { "cpu_core", "cpu_atom" };
	int n = 0;

	for (size_t i = 0; ps->ctx && i < 2; i++) {
		struct pms_pmu_ent *ent = pms_ctx__find_pmu(ps->ctx, names[i], strlen(names[i]));

		if (ent)
			out[n++] = &ent->pub;
	}
	return n;
}

static bool is_hybrid_pmu(const struct pms_pmu *pmu)
{
	return pmu && (!strcmp(pmu->name, "cpu_core") || !strcmp(pmu->name, "cpu_atom"));
}

static void hybrid_config(struct perf_event_attr *attr, const struct pms_pmu *pmu)
{
	if (attr->type == PERF_TYPE_RAW)
		attr->type = pmu->type;
	else
		attr->config = (attr->config & 0xffffffffULL) | (uint64_t)pmu->type << PMU_TYPE_SHIFT;
}

/* Turn the single legacy event at `idx` into one per hybrid PMU; false when not hybrid. */
static int hybrid_expand(struct pstate *ps, size_t idx, bool *expanded)
{
	const struct pms_pmu *hp[2];
	int n = hybrid_pmus(ps, hp), k;
	struct pms_evsel *e;

	*expanded = false;
	e = &ps->tmp.entries[idx];
	if (!n || (e->attr.type != PERF_TYPE_HARDWARE && e->attr.type != PERF_TYPE_HW_CACHE &&
		   e->attr.type != PERF_TYPE_RAW))
		return 0;
	for (k = 1; k < n; k++) {
		struct pms_evsel *c = new_evsel(ps);

		if (!c)
			return -ENOMEM;
		e = &ps->tmp.entries[idx]; /* new_evsel may move the array */
		*c = *e;
		c->leader_idx = (int)(c - ps->tmp.entries);
		c->name = e->name ? strdup(e->name) : NULL;
		c->pmu_name = c->pmu_cpus = NULL;
		if (e->name && !c->name)
			return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		struct pms_evsel *c = &ps->tmp.entries[k == 0 ? idx : ps->tmp.nr - (size_t)n + (size_t)k];

		hybrid_config(&c->attr, hp[k]);
		free(c->pmu_name);
		free(c->pmu_cpus);
		c->pmu_name = strdup(hp[k]->name);
		c->pmu_cpus = hp[k]->cpus ? strdup(hp[k]->cpus) : NULL;
		if (!c->pmu_name || (hp[k]->cpus && !c->pmu_cpus))
			return -ENOMEM;
	}
	*expanded = true;
	return 0;
}

/* perf names hybrid copies "<pmu>/<event text>/" */
static int hybrid_names(struct pstate *ps, size_t first, const char *text, size_t len)
{
	for (size_t i = first; i < ps->tmp.nr; i++) {
		struct pms_evsel *e = &ps->tmp.entries[i];
		const char *base = e->name ? e->name : text;
		size_t blen = e->name ? strlen(e->name) : len;
		size_t n = strlen(e->pmu_name) + blen + 3;
		char *name = malloc(n);

		if (!name)
			return -ENOMEM;
		snprintf(name, n, "%s/%.*s/", e->pmu_name, (int)blen, base);
		free(e->name);
		e->name = name;
	}
	return 0;
}

#define MAX_PMU_MATCHES 64

/* perf_pmu__valid_suffix(): after the user's prefix only "" or [_]digits may follow. */
static bool valid_instance_suffix(const char *rest)
{
	if (!*rest)
		return true;
	if (*rest == '_')
		rest++;
	if (!*rest)
		return false;
	for (; *rest; rest++)
		if (!isdigit((unsigned char)*rest))
			return false;
	return true;
}

/* PMUs "<w>_N" / "uncore_<w>_N" (w may hold globs) when no PMU is named w exactly. */
static int match_pmu_instances(struct pstate *ps, const char *w, size_t len, const struct pms_pmu **out)
{
	const struct pms_pmu *const *pmus;
	char pat[258], tok[256];
	size_t nr = 0, i;
	int n = 0;

	if (!ps->ctx || len + 2 > sizeof(pat))
		return 0;
	snprintf(tok, sizeof(tok), "%.*s", (int)len, w);
	snprintf(pat, sizeof(pat), "%s*", tok);
	pmus = pms_event_ctx__pmus(ps->ctx, &nr);
	for (i = 0; pmus && i < nr && n < MAX_PMU_MATCHES; i++) {
		const char *name = pmus[i]->name, *rest;

		if (!strncmp(name, "uncore_", 7) && strncmp(tok, "uncore_", 7))
			name += 7;
		if (fnmatch(pat, name, 0))
			continue;
		rest = strstr(name, tok);
		if (strpbrk(tok, "*?[") || (rest && valid_instance_suffix(rest + len)))
			out[n++] = pmus[i];
	}
	return n;
}

/* One "pmu/terms/" (pmu NULL: a legacy name with terms) from the '/' at ps->pos. */
static int add_slash_event(struct pstate *ps, const struct pms_pmu *pmu, const struct resolved *r, size_t start,
			   bool *named)
{
	struct terms_out to = { .scale = 1.0 };
	struct pms_evsel *e;
	int err;

	e = new_evsel(ps);
	if (!e)
		return set_err(ps, -ENOMEM, start, "out of memory");
	e->attr.type = pmu ? pmu->type : r->type;
	e->attr.config = pmu ? 0 : r->config;
	e->tool_event = pmu ? PMS_TOOL_NONE : r->tool;
	err = parse_slash_terms(ps, pmu, &e->attr, &to);
	if (err) {
		free(to.name);
		return err;
	}
	e->period_set = to.period_set;
	e->freq_set = to.freq_set;
	e->scale = to.scale;
	memcpy(e->unit, to.unit, sizeof(e->unit));
	if (evsel_set_pmu(ps, e, pmu, r->type == PERF_TYPE_SOFTWARE ? "software" : NULL)) {
		free(to.name);
		return set_err(ps, -ENOMEM, start, "out of memory");
	}
	if (to.name) {
		e->name = to.name;
		*named = true;
	}
	return 0;
}

static int parse_event(struct pstate *ps)
{
	const char *s = ps->s;
	size_t start, name_start, len, first = ps->tmp.nr, mstart = 0, mlen = 0;
	struct resolved r;
	int err;
	bool has_mods = false, named = false, is_tp = false, hybrid = false;

	name_start = ps->pos; /* perf keeps leading blanks in the name: "cpu-clock, cs" names " cs" */
	skip_space(ps);
	start = ps->pos;
	if (s[start] == '{')
		return set_err(ps, -EINVAL, start, "groups cannot be nested");
	len = word_len(s + start);
	if (!len) {
		if (s[start] == '\0')
			return set_err(ps, -EINVAL, start, "expected an event");
		return set_err(ps, -EINVAL, start, "expected an event name, found '%c'", s[start]);
	}
	ps->pos += len;
	if (len == 3 && !memcmp(s + start, "mem", 3) && s[ps->pos] == ':' && isdigit((unsigned char)s[ps->pos + 1])) {
		size_t name_end = 0;

		err = parse_breakpoint(ps, start, &name_end);
		if (err)
			return err;
		if (s[ps->pos] == ':') {
			ps->pos++;
			err = scan_mods(ps, &mstart, &mlen);
			if (err)
				return err;
			if (mlen)
				apply_event_mods(ps, first, s + mstart, mlen);
		} else if (!is_terminator(s[ps->pos])) {
			return set_err(ps, -EINVAL, ps->pos, "unexpected '%c' after the breakpoint", s[ps->pos]);
		}
		if (evsel_set_name(&ps->tmp.entries[first], s + start, (name_end ? name_end : ps->pos) - start))
			return set_err(ps, -ENOMEM, start, "out of memory");
		return 0;
	}
	err = resolve_word(ps, start, len, &r);
	if (err)
		return err;

	if (s[ps->pos] == '/') {
		size_t slash = ps->pos;

		if (r.kind == K_NONE) {
			struct pms_pmu_ent *ent = ps->ctx ? pms_ctx__find_pmu(ps->ctx, s + start, len) : NULL;
			const struct pms_pmu *targets[MAX_PMU_MATCHES];
			int nt = 0, ok = 0, first_err = 0, i;
			struct pms_parse_error saved;

			if (!ent && ps->ctx && errno != ENOENT) {
				/* the PMU exists but its sysfs directory cannot be read: say why, not "unknown" */
				int why = errno;
				char path[4096];

				set_err(ps, -why, start, "PMU '%.*s': cannot read its sysfs type file: %s", (int)len,
					s + start, why == EINVAL ? "malformed contents" : strerror(why));
				if (pms_pmu_dir__path(path, sizeof(path), "%.*s/type", (int)len, s + start) == 0)
					set_hint(ps, "%s", path);
				return -why;
			}
			if (ent)
				targets[nt++] = &ent->pub;
			else
				nt = match_pmu_instances(ps, s + start, len, targets);
			if (!nt) {
				char w[128];

				set_err(ps, -ENOENT, start, "unknown PMU '%.*s'", (int)len, s + start);
				snprintf(w, sizeof(w), "%.*s", (int)len, s + start);
				pmu_list_hint(ps, w);
				return -ENOENT;
			}
			/*
			 * perf 6.1: "uncore_imc/..." (or "imc/...") opens on every instance
			 * uncore_imc_0, uncore_imc_1, ... whose terms resolve; an instance
			 * that rejects them is skipped, and only if all do is it an error.
			 */
			memset(&saved, 0, sizeof(saved));
			for (i = 0; i < nt; i++) {
				size_t before = ps->tmp.nr;

				ps->pos = slash;
				err = add_slash_event(ps, targets[i], &r, start, &named);
				if (!err) {
					ok++;
					continue;
				}
				if (err == -ENOMEM || nt == 1)
					return err;
				while (ps->tmp.nr > before)
					evsel_release(&ps->tmp.entries[--ps->tmp.nr]);
				if (!first_err) {
					first_err = err;
					if (ps->err)
						saved = *ps->err;
				}
			}
			if (!ok) {
				if (ps->err)
					*ps->err = saved;
				return first_err;
			}
		} else {
			err = add_slash_event(ps, NULL, &r, start, &named);
			if (err)
				return err;
			if (!named && hybrid_expand(ps, first, &hybrid))
				return set_err(ps, -ENOMEM, start, "out of memory");
		}
		/* modifiers follow the closing slash directly: "msr/tsc/u" */
		if (s[ps->pos] == ':') {
			set_err(ps, -EINVAL, ps->pos, "unexpected ':' after '/'");
			set_hint(ps, "modifiers follow the closing '/' directly, as in '%.*su'",
				 (int)(ps->pos - start), s + start);
			return -EINVAL;
		}
		err = scan_mods(ps, &mstart, &mlen);
		if (err)
			return err;
		has_mods = mlen > 0;
	} else {
		size_t colon = ps->pos;

		if (s[colon] == ':' && r.kind == K_NONE) {
			size_t n2 = word_len(s + colon + 1);
			bool all_mods = n2 > 0 && strspn(s + colon + 1, MOD_CHARS) >= n2 &&
					is_terminator(s[colon + 1 + n2]);
			bool alias = false;

			if (all_mods || n2 == 0) {
				/* "name:mods": name must be an alias then */
				alias = true;
			}
			if (!alias) {
				err = add_tracepoint(ps, start, len, colon + 1, n2);
				if (err)
					return err;
				ps->pos = colon + 1 + n2;
				is_tp = true;
			}
		}
		if (!is_tp) {
			struct pms_evsel *e;

			switch (r.kind) {
			case K_SYM:
			case K_CACHE:
			case K_RAW:
			case K_TOOL:
				e = new_evsel(ps);
				if (!e)
					return set_err(ps, -ENOMEM, start, "out of memory");
				e->attr.type = r.type;
				e->attr.config = r.config;
				e->tool_event = r.tool;
				if (evsel_set_pmu(ps, e, NULL, r.type == PERF_TYPE_SOFTWARE ? "software" : NULL))
					return set_err(ps, -ENOMEM, start, "out of memory");
				if (r.kind == K_CACHE) {
					if (evsel_set_name(e, s + start, len))
						return set_err(ps, -ENOMEM, start, "out of memory");
					named = true;
				}
				if (hybrid_expand(ps, first, &hybrid))
					return set_err(ps, -ENOMEM, start, "out of memory");
				break;
			default: {
				size_t added;
				char w[256];
				const char *best;

				err = add_alias_everywhere(ps, start, len, &added);
				if (err)
					return err;
				if (added)
					break;
				snprintf(w, sizeof(w), "%.*s", (int)len, s + start);
				set_err(ps, -ENOENT, start, "unknown event '%s'", w);
				best = suggest_event(ps, w);
				if (best)
					set_hint(ps, "did you mean '%s'?", best);
				else
					set_hint(ps, "'pmuscope list' shows the events of this machine");
				return -ENOENT;
			}
			}
		}
		if (s[ps->pos] == ':') {
			ps->pos++;
			err = scan_mods(ps, &mstart, &mlen);
			if (err)
				return err;
			has_mods = mlen > 0; /* perf accepts "cpu-clock:" and changes nothing */
		} else if (!is_terminator(s[ps->pos])) {
			return set_err(ps, -EINVAL, ps->pos, "unexpected '%c' after event '%.*s'", s[ps->pos],
				       (int)(ps->pos - start), s + start);
		}
		named = named || is_tp;
	}
	if (has_mods)
		apply_event_mods(ps, first, s + mstart, mlen);
	/* perf names an event by its text ("cycles:u", "msr/tsc/u") unless name=, cache or tracepoint */
	if (hybrid) {
		if (hybrid_names(ps, first, s + start, ps->pos - start))
			return set_err(ps, -ENOMEM, start, "out of memory");
		named = true;
	}
	if (!named) {
		size_t i, name_end = ps->pos;

		/* and trailing ones up to the separator: "{ cpu-clock,cs }" names "cs " */
		while (is_space(s[name_end]))
			name_end++;
		if (s[name_end] != ',' && s[name_end] != '}' && s[name_end] != '\0')
			name_end = ps->pos;
		for (i = first; i < ps->tmp.nr; i++)
			if (!ps->tmp.entries[i].name &&
			    evsel_set_name(&ps->tmp.entries[i], s + name_start, name_end - name_start))
				return set_err(ps, -ENOMEM, start, "out of memory");
	}
	return 0;
}

static int parse_group(struct pstate *ps)
{
	size_t open = ps->pos, first = ps->tmp.nr, i;
	int err;

	ps->pos++; /* '{' */
	for (;;) {
		size_t q = ps->pos;

		while (is_space(ps->s[q]))
			q++;
		if (ps->s[q] == '}' && ps->tmp.nr == first)
			return set_err(ps, -EINVAL, q, "empty group");
		err = parse_event(ps);
		if (err)
			return err;
		skip_space(ps);
		if (ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->s[ps->pos] == '}')
			break;
		if (ps->s[ps->pos] == '\0') {
			set_err(ps, -EINVAL, ps->pos, "expected ',' or '}'");
			set_hint(ps, "the group opened at offset %zu is not closed", open);
			return -EINVAL;
		}
		return set_err(ps, -EINVAL, ps->pos, "expected ',' or '}'");
	}
	ps->pos++; /* '}' */
	for (i = first; i < ps->tmp.nr; i++) {
		ps->tmp.entries[i].leader_idx = (int)first;
		ps->tmp.entries[i].nr_members = 0;
	}
	ps->tmp.entries[first].nr_members = (int)(ps->tmp.nr - first);
	if (ps->s[ps->pos] == ':') {
		size_t mstart, mlen;

		ps->pos++;
		err = scan_mods(ps, &mstart, &mlen);
		if (err)
			return err;
		if (!mlen) /* perf rejects "{a,b}:" though it accepts "a:" */
			return set_err(ps, -EINVAL, ps->pos, "expected group modifiers after ':'");
		/* perf's group modifiers start from each event's own state */
		for (i = first; i < ps->tmp.nr; i++) {
			struct mods m;

			mods_from_evsel(&m, &ps->tmp.entries[i], ps->exclude_GH[i]);
			mods_apply_str(&m, ps->s + mstart, mlen);
			mods_store(&m, &ps->tmp.entries[i], &ps->exclude_GH[i], i == first);
		}
	}
	return 0;
}

static int parse_all(struct pstate *ps)
{
	int err;

	for (;;) {
		size_t q = ps->pos;

		while (is_space(ps->s[q]))
			q++;
		if (ps->s[q] == '{') {
			ps->pos = q;
			err = parse_group(ps);
		} else {
			err = parse_event(ps); /* skips blanks itself, keeping them in the name */
		}
		if (err)
			return err;
		skip_space(ps);
		if (ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->s[ps->pos] == '\0')
			return 0;
		return set_err(ps, -EINVAL, ps->pos, "expected ',' or the end of the event list");
	}
}

static void tmp_release(struct pms_evlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		evsel_release(&l->entries[i]);
	free(l->entries);
	memset(l, 0, sizeof(*l));
}

int pms_evlist__parse(struct pms_evlist *list, struct pms_event_ctx *ctx, const char *str,
		      struct pms_parse_error *err)
{
	struct pstate ps = { .ctx = ctx, .s = str, .err = err };
	size_t i, base;
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!list || !str) {
		if (err) {
			err->err = -EINVAL;
			snprintf(err->msg, sizeof(err->msg), "no event string");
		}
		return -EINVAL;
	}
	rc = parse_all(&ps);
	if (!rc && list->nr + ps.tmp.nr > list->cap) {
		size_t ncap = list->nr + ps.tmp.nr;
		struct pms_evsel *n = realloc(list->entries, ncap * sizeof(*n));

		if (!n)
			rc = set_err(&ps, -ENOMEM, 0, "out of memory");
		else {
			list->entries = n;
			list->cap = ncap;
		}
	}
	if (rc) {
		tmp_release(&ps.tmp);
		free(ps.exclude_GH);
		return rc;
	}
	base = list->nr;
	for (i = 0; i < ps.tmp.nr; i++) {
		list->entries[base + i] = ps.tmp.entries[i];
		list->entries[base + i].leader_idx += (int)base;
	}
	list->nr += ps.tmp.nr;
	free(ps.tmp.entries);
	free(ps.exclude_GH);
	return 0;
}

void pms_evlist__release(struct pms_evlist *list)
{
	if (!list)
		return;
	tmp_release(list);
}

void pms_parse_error__format(const struct pms_parse_error *err, const char *str, struct strbuf *out)
{
	static const char prefix[] = "event syntax error: '";
	size_t pos, i, len = str ? strlen(str) : 0;

	if (!err)
		return;
	pos = err->pos > len ? len : err->pos;
	if (str) {
		strbuf_addf(out, "%s%s'\n", prefix, str);
		for (i = 0; i < sizeof(prefix) - 1 + pos; i++)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "^___ %s\n", err->msg[0] ? err->msg : "parser error");
	} else {
		strbuf_addf(out, "event syntax error: %s\n", err->msg);
	}
	if (err->hint[0]) {
		strbuf_adds(out, err->hint);
		if (err->hint[strlen(err->hint) - 1] != '\n')
			strbuf_addch(out, '\n');
	}
}
