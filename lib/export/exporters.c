// SPDX-License-Identifier: MIT
// The table of export formats; docs/export.md says what each one is for.
#include <errno.h>
#include <string.h>

#include "export/export.h"

static enum pms_export_weight weight_of(const struct pms_export_opts *o)
{
	return o && o->sz > offsetof(struct pms_export_opts, weight) ? o->weight : PMS_WEIGHT_SAMPLES;
}

static const char *title_of(const struct pms_export_opts *o)
{
	return o && o->sz > offsetof(struct pms_export_opts, title) ? o->title : NULL;
}

static int w_folded(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	return pms_export__folded(st, weight_of(o), out);
}

static int w_pprof(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	(void)o; /* both sample types are in every profile */
	return pms_export__pprof(st, out);
}

static int w_speedscope(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	return pms_export__speedscope(st, weight_of(o), out);
}

static int w_chrome(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	return pms_export__chrome(st, weight_of(o), out);
}

static int w_json(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	(void)o; /* samples and period are both in every node */
	return pms_export__json(st, out);
}

static int w_flamegraph(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	struct pms_flamegraph_opts fo = { .sz = sizeof(fo), .weight = weight_of(o), .title = title_of(o) };

	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	return pms_flamegraph__html(st, &fo, out);
}

static int w_svg(struct pms_stacks *st, const struct pms_export_opts *o, struct strbuf *out)
{
	struct pms_flamegraph_opts fo = { .sz = sizeof(fo), .weight = weight_of(o), .title = title_of(o) };

	pms_stacks__sort(st, PMS_STACKS_BY_NAME);
	return pms_flamegraph__svg(st, &fo, out);
}

static const struct pms_exporter exporters[] = {
	/* comm first, as stackcollapse-perf.pl and `perf script report stackcollapse` */
	{ "folded", NULL, "one line per stack, as flamegraph.pl reads it", PMS_STACKS_ROOT_COMM, false, w_folded },
	/* pid/tid/comm become sample labels, never frames, so pprof -top lists functions only */
	{ "pprof", NULL, "gzipped profile.proto (go tool pprof, Parca, Pyroscope)", PMS_STACKS_ROOT_TID, true,
	  w_pprof },
	{ "speedscope", NULL, "speedscope's file format, one profile per process", PMS_STACKS_ROOT_PID, false,
	  w_speedscope },
	{ "chrome", NULL, "Chrome trace events, a flame chart per thread (Perfetto, chrome://tracing)",
	  PMS_STACKS_ROOT_TID, false, w_chrome },
	{ "json", NULL, "pmuscope's stacks JSON (schema pmuscope-stacks/1)", PMS_STACKS_ROOT_PID, false, w_json },
	{ "flamegraph", "html", "an interactive flame graph page (HTML)", PMS_STACKS_ROOT_COMM, false, w_flamegraph },
	{ "svg", NULL, "a static flame graph (SVG)", PMS_STACKS_ROOT_COMM, false, w_svg },
};

const struct pms_exporter *pms_exporter__find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(exporters) / sizeof(exporters[0]); i++)
		if (!strcmp(name, exporters[i].name) || (exporters[i].alias && !strcmp(name, exporters[i].alias)))
			return &exporters[i];
	errno = ENOENT;
	return NULL;
}

const struct pms_exporter *pms_exporter__at(size_t i)
{
	return i < sizeof(exporters) / sizeof(exporters[0]) ? &exporters[i] : NULL;
}

void pms_exporter__names(struct strbuf *out)
{
	size_t n = sizeof(exporters) / sizeof(exporters[0]);

	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", exporters[i].name);
}

int pms_export_weight__parse(const char *name, enum pms_export_weight *out)
{
	if (!name)
		return -EINVAL;
	if (!strcmp(name, "samples"))
		*out = PMS_WEIGHT_SAMPLES;
	else if (!strcmp(name, "period"))
		*out = PMS_WEIGHT_PERIOD;
	else
		return -EINVAL;
	return 0;
}
