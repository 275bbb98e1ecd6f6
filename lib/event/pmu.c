// SPDX-License-Identifier: MIT
// sysfs PMUs: a one-time directory scan, then per-PMU lazy loading of type, format/ and events/.
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event/event_priv.h"
#include "event/pmu.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/sysfs.h"

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct pms_pmu_ent *)a)->pub.name, ((const struct pms_pmu_ent *)b)->pub.name);
}

static int scan_pmus(struct pms_event_ctx *ctx)
{
	char path[4096];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int err;

	err = pms_pmu_dir__path(path, sizeof(path), "%s", "");
	if (err)
		return err;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (pms_array__reserve(&ctx->pmus, &cap, ctx->nr_pmus + 1, sizeof(*ctx->pmus))) {
			closedir(d);
			return -ENOMEM;
		}
		memset(&ctx->pmus[ctx->nr_pmus], 0, sizeof(ctx->pmus[0]));
		ctx->pmus[ctx->nr_pmus].pub.name = strdup(de->d_name);
		ctx->pmus[ctx->nr_pmus].pub.mux_interval_ms = -1;
		if (!ctx->pmus[ctx->nr_pmus].pub.name) {
			closedir(d);
			return -ENOMEM;
		}
		ctx->nr_pmus++;
	}
	closedir(d);
	if (ctx->nr_pmus)
		qsort(ctx->pmus, ctx->nr_pmus, sizeof(ctx->pmus[0]), cmp_ent);
	return 0;
}

struct pms_event_ctx *pms_event_ctx__new(void)
{
	struct pms_event_ctx *ctx = calloc(1, sizeof(*ctx));
	int err;

	if (!ctx)
		return NULL;
	err = scan_pmus(ctx);
	if (err == -ENOMEM) {
		pms_event_ctx__free(ctx);
		errno = ENOMEM;
		return NULL;
	}
	/* A missing PMU directory still allows software-free parsing of names and raw events. */
	ctx->scan_err = err;
	return ctx;
}

static void free_pmu(struct pms_pmu *p)
{
	size_t i;

	free(p->name);
	free(p->cpus);
	for (i = 0; i < p->nr_formats; i++)
		free(p->formats[i].name);
	free(p->formats);
	for (i = 0; i < p->nr_aliases; i++) {
		free(p->aliases[i].name);
		free(p->aliases[i].terms);
	}
	free(p->aliases);
}

void pms_event_ctx__free(struct pms_event_ctx *ctx)
{
	size_t i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nr_pmus; i++)
		free_pmu(&ctx->pmus[i].pub);
	free(ctx->pmus);
	free(ctx->pub_list);
	for (i = 0; i < ctx->nr_tp_names; i++)
		free(ctx->tp_names[i]);
	free(ctx->tp_names);
	for (i = 0; i < ctx->nr_tp_ids; i++)
		free(ctx->tp_ids[i].name);
	free(ctx->tp_ids);
	free(ctx);
}

/* "config:0-7,32-35" / "config1:5" / "config2:0-63" */
static int parse_format(const char *s, struct pms_pmu_format *f)
{
	const char *p;
	char *end;

	if (strncmp(s, "config", 6) != 0)
		return -EINVAL;
	p = s + 6;
	if (*p == ':')
		f->field = 0;
	else if (*p >= '1' && *p <= '3' && p[1] == ':')
		f->field = *p++ - '0';
	else
		return -EINVAL;
	p++;
	f->nr_ranges = 0;
	f->nr_bits = 0;
	for (;;) {
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63 || f->nr_ranges == PMS_FORMAT_MAX_RANGES)
			return -EINVAL;
		f->ranges[f->nr_ranges].lo = (int)lo;
		f->ranges[f->nr_ranges].hi = (int)hi;
		f->nr_ranges++;
		f->nr_bits += (int)(hi - lo + 1);
		if (*p != ',')
			break;
		p++;
	}
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p || f->nr_bits > 64)
		return -EINVAL;
	return 0;
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pms_pmu_format *)a)->name, ((const struct pms_pmu_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct pms_pmu_alias *)a)->name, ((const struct pms_pmu_alias *)b)->name);
}

static int load_formats(struct pms_pmu *p)
{
	char dir[4096], path[4096 + 256], buf[256];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	if (pms_pmu_dir__path(dir, sizeof(dir), "%s/format", p->name))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) != NULL) {
		struct pms_pmu_format f = { 0 };

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (pms_file__read_str(path, buf, sizeof(buf)) || parse_format(buf, &f))
			continue; /* a format we cannot express is skipped, as perf warns and skips */
		if (pms_array__reserve(&p->formats, &cap, p->nr_formats + 1, sizeof(*p->formats)))
			goto nomem;
		f.name = strdup(de->d_name);
		if (!f.name)
			goto nomem;
		p->formats[p->nr_formats++] = f;
	}
	closedir(d);
	if (p->nr_formats)
		qsort(p->formats, p->nr_formats, sizeof(p->formats[0]), cmp_format);
	return 0;
nomem:
	closedir(d);
	return -ENOMEM;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && strcmp(s + n - m, suf) == 0;
}

static void load_alias_extras(const char *dir, struct pms_pmu_alias *a)
{
	char path[4096 + 512], buf[64];
	char *end;

	a->scale = 1.0;
	a->unit[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s.scale", dir, a->name);
	if (pms_file__read_str(path, buf, sizeof(buf)) == 0) {
		double v = strtod(buf, &end);

		if (end != buf && v != 0)
			a->scale = v;
	}
	snprintf(path, sizeof(path), "%s/%s.unit", dir, a->name);
	if (pms_file__read_str(path, a->unit, sizeof(a->unit)) != 0)
		a->unit[0] = '\0';
}

static int load_aliases(struct pms_pmu *p)
{
	char dir[4096], path[4096 + 256];
	char **extras = NULL; /* "<alias>.scale" / "<alias>.unit" names seen */
	size_t nr_extras = 0, cap_extras = 0, i;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	if (pms_pmu_dir__path(dir, sizeof(dir), "%s/events", p->name))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) != NULL) {
		struct pms_pmu_alias a = { 0 };
		char *terms = NULL, *q;

		if (has_suffix(de->d_name, ".scale") || has_suffix(de->d_name, ".unit")) {
			/* remembered so that only aliases that have them cost the extra reads */
			if (pms_array__reserve(&extras, &cap_extras, nr_extras + 1, sizeof(*extras)))
				goto nomem;
			extras[nr_extras] = strdup(de->d_name);
			if (!extras[nr_extras])
				goto nomem;
			nr_extras++;
			continue;
		}
		if (de->d_name[0] == '.' || has_suffix(de->d_name, ".snapshot") ||
		    has_suffix(de->d_name, ".per-pkg"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (pms_file__read_all(path, &terms, NULL))
			continue;
		/* strip whitespace: the kernel writes "event=0x3c\n", some drivers pad */
		for (q = terms; *q; q++)
			if (*q == '\n' || *q == ' ' || *q == '\t')
				*q = '\0';
		if (pms_array__reserve(&p->aliases, &cap, p->nr_aliases + 1, sizeof(*p->aliases))) {
			free(terms);
			goto nomem;
		}
		a.name = strdup(de->d_name);
		a.terms = terms;
		if (!a.name) {
			free(terms);
			goto nomem;
		}
		a.scale = 1.0;
		p->aliases[p->nr_aliases++] = a;
	}
	closedir(d);
	for (i = 0; i < p->nr_aliases && nr_extras; i++) {
		size_t l = strlen(p->aliases[i].name), j;

		for (j = 0; j < nr_extras; j++)
			if (!strncmp(extras[j], p->aliases[i].name, l) &&
			    (!strcmp(extras[j] + l, ".scale") || !strcmp(extras[j] + l, ".unit"))) {
				load_alias_extras(dir, &p->aliases[i]);
				break;
			}
	}
	for (i = 0; i < nr_extras; i++)
		free(extras[i]);
	free(extras);
	if (p->nr_aliases)
		qsort(p->aliases, p->nr_aliases, sizeof(p->aliases[0]), cmp_alias);
	return 0;
nomem:
	closedir(d);
	for (i = 0; i < nr_extras; i++)
		free(extras[i]);
	free(extras);
	return -ENOMEM;
}

int pms_ctx__load_pmu(struct pms_pmu_ent *ent)
{
	struct pms_pmu *p = &ent->pub;
	char path[4096], buf[4096];
	uint64_t type;
	int mux;
	int err;

	if (ent->state)
		return ent->state < 0 ? ent->state : 0;
	if (pms_pmu_dir__path(path, sizeof(path), "%s/type", p->name))
		return ent->state = -ENAMETOOLONG;
	err = pms_file__read_u64(path, &type);
	if (err)
		return ent->state = err;
	p->type = (uint32_t)type;
	if (pms_pmu_dir__path(path, sizeof(path), "%s/cpumask", p->name) == 0 &&
	    pms_file__read_str(path, buf, sizeof(buf)) == 0)
		p->cpus = strdup(buf);
	else if (pms_pmu_dir__path(path, sizeof(path), "%s/cpus", p->name) == 0 &&
		 pms_file__read_str(path, buf, sizeof(buf)) == 0)
		p->cpus = strdup(buf);
	if (pms_pmu_dir__path(path, sizeof(path), "%s/perf_event_mux_interval_ms", p->name) == 0 &&
	    pms_file__read_int(path, &mux) == 0)
		p->mux_interval_ms = mux;
	err = load_formats(p);
	if (!err)
		err = load_aliases(p);
	if (err)
		return ent->state = err;
	ent->state = 1;
	return 0;
}

struct pms_pmu_ent *pms_ctx__find_pmu(struct pms_event_ctx *ctx, const char *name, size_t len)
{
	size_t lo = 0, hi = ctx->nr_pmus;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *n = ctx->pmus[mid].pub.name;
		int c = strncmp(n, name, len);

		if (c == 0 && n[len] != '\0')
			c = 1;
		if (c == 0) {
			int err = pms_ctx__load_pmu(&ctx->pmus[mid]);

			if (err) {
				errno = -err;
				return NULL;
			}
			return &ctx->pmus[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	errno = ENOENT;
	return NULL;
}

const struct pms_pmu *const *pms_event_ctx__pmus(struct pms_event_ctx *ctx, size_t *nr)
{
	size_t i, n = 0;

	if (!ctx->pub_list) {
		ctx->pub_list = calloc(ctx->nr_pmus + 1, sizeof(*ctx->pub_list));
		if (!ctx->pub_list) {
			*nr = 0;
			return NULL;
		}
	}
	/* PMUs whose type cannot be read (racing hot-unplug, odd drivers) are left out. */
	for (i = 0; i < ctx->nr_pmus; i++)
		if (pms_ctx__load_pmu(&ctx->pmus[i]) == 0)
			ctx->pub_list[n++] = &ctx->pmus[i].pub;
	*nr = n;
	return (const struct pms_pmu *const *)ctx->pub_list;
}

const struct pms_pmu *pms_event_ctx__pmu(struct pms_event_ctx *ctx, const char *name)
{
	struct pms_pmu_ent *e = pms_ctx__find_pmu(ctx, name, strlen(name));

	return e ? &e->pub : NULL;
}

const struct pms_pmu *pms_event_ctx__pmu_by_type(struct pms_event_ctx *ctx, uint32_t type)
{
	size_t i;

	for (i = 0; i < ctx->nr_pmus; i++)
		if (pms_ctx__load_pmu(&ctx->pmus[i]) == 0 && ctx->pmus[i].pub.type == type)
			return &ctx->pmus[i].pub;
	errno = ENOENT;
	return NULL;
}

const struct pms_pmu_format *pms_pmu__format(const struct pms_pmu *pmu, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < pmu->nr_formats; i++)
		if (strncmp(pmu->formats[i].name, name, len) == 0 && pmu->formats[i].name[len] == '\0')
			return &pmu->formats[i];
	return NULL;
}

const struct pms_pmu_alias *pms_pmu__alias(const struct pms_pmu *pmu, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < pmu->nr_aliases; i++)
		if (strncasecmp(pmu->aliases[i].name, name, len) == 0 && pmu->aliases[i].name[len] == '\0')
			return &pmu->aliases[i];
	return NULL;
}

uint64_t pms_pmu_format__extract(const struct pms_pmu_format *fmt, const struct perf_event_attr *attr)
{
	uint64_t src, val = 0;
	int r, vbit = 0;

	switch (fmt->field) {
	case 0: src = attr->config; break;
	case 1: src = attr->config1; break;
	case 2: src = attr->config2; break;
#ifdef PERF_ATTR_SIZE_VER8
	case 3: src = attr->config3; break;
#endif
	default: return 0;
	}
	for (r = 0; r < fmt->nr_ranges; r++) {
		int b;

		for (b = fmt->ranges[r].lo; b <= fmt->ranges[r].hi; b++, vbit++)
			if ((src >> b) & 1)
				val |= 1ULL << vbit;
	}
	return val;
}
