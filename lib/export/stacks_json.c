// SPDX-License-Identifier: MIT
// pmuscope's own stacks JSON (schema "pmuscope-stacks/1"): meta, the frame table and the tree as flat node rows.
#include <errno.h>

#include "export/export.h"
#include "util/json.h"

/*
 * Nodes are rows, not nested objects: stacks run deeper than any JSON
 * reader's comfortable nesting (and our writer's PMS_JSON_MAX_DEPTH), and a
 * row per node keeps million-node trees compact. A parent's row always
 * comes before its children's (ids grow down the tree).
 */
static const char *kind_name(enum pms_stack_kind k)
{
	static const char *const names[] = {
		[PMS_STACK_USER] = "user", [PMS_STACK_KERNEL] = "kernel", [PMS_STACK_JIT] = "jit",
		[PMS_STACK_INLINED] = "inlined", [PMS_STACK_UNKNOWN] = "unknown",
		[PMS_STACK_PROCESS] = "process", [PMS_STACK_THREAD] = "thread",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

int pms_export__json(const struct pms_stacks *st, struct strbuf *out)
{
	const struct pms_stacks_meta *m = pms_stacks__meta(st);
	size_t nn, nf;
	const struct pms_stack_node *n = pms_stacks__nodes(st, &nn);
	const struct pms_stack_frame *f = pms_stacks__frames(st, &nf);
	struct pms_json j;

	pms_json__init(&j, out, false);
	pms_json__obj(&j, NULL);
	pms_json__str(&j, "schema", "pmuscope-stacks/1");
	pms_json__obj(&j, "meta");
	pms_json__str(&j, "event", m->event);
	pms_json__str(&j, "period_unit", m->period_unit);
	pms_json__str(&j, "command", m->command);
	pms_json__str(&j, "hostname", m->hostname);
	pms_json__uint(&j, "time_first_ns", m->time_first_ns);
	pms_json__uint(&j, "time_last_ns", m->time_last_ns);
	pms_json__uint(&j, "samples", m->samples);
	pms_json__uint(&j, "samples_filtered", m->samples_filtered);
	pms_json__uint(&j, "lost", m->lost);
	pms_json__uint(&j, "unresolved_leaves", m->unresolved_leaves);
	/* only when there are some: files without looping chains keep their exact old output */
	if (m->looped_chains)
		pms_json__uint(&j, "looped_chains", m->looped_chains);
	pms_json__end(&j);
	pms_json__arr(&j, "frames");
	for (size_t i = 0; i < nf; i++) {
		pms_json__obj(&j, NULL);
		pms_json__str(&j, "name", f[i].name);
		pms_json__str(&j, "kind", kind_name(f[i].kind));
		if (f[i].dso)
			pms_json__str(&j, "dso", f[i].dso);
		if (f[i].file)
			pms_json__str(&j, "file", f[i].file);
		if (f[i].line)
			pms_json__uint(&j, "line", f[i].line);
		if (f[i].kind == PMS_STACK_PROCESS || f[i].kind == PMS_STACK_THREAD)
			pms_json__uint(&j, "pid", f[i].pid);
		if (f[i].kind == PMS_STACK_THREAD)
			pms_json__uint(&j, "tid", f[i].tid);
		pms_json__end(&j);
	}
	pms_json__end(&j);
	pms_json__arr(&j, "node_fields");
	pms_json__str(&j, NULL, "parent");
	pms_json__str(&j, NULL, "frame");
	pms_json__str(&j, NULL, "self_samples");
	pms_json__str(&j, NULL, "total_samples");
	pms_json__str(&j, NULL, "self_period");
	pms_json__str(&j, NULL, "total_period");
	pms_json__end(&j);
	pms_json__arr(&j, "nodes");
	for (size_t i = 0; i < nn; i++) {
		pms_json__arr(&j, NULL);
		if (i)
			pms_json__uint(&j, NULL, n[i].parent);
		else
			pms_json__null(&j, NULL);
		if (i)
			pms_json__uint(&j, NULL, n[i].frame);
		else
			pms_json__null(&j, NULL);
		pms_json__uint(&j, NULL, n[i].self_samples);
		pms_json__uint(&j, NULL, n[i].total_samples);
		pms_json__uint(&j, NULL, n[i].self_period);
		pms_json__uint(&j, NULL, n[i].total_period);
		pms_json__end(&j);
	}
	pms_json__end(&j);
	pms_json__end(&j);
	pms_json__finish(&j);
	return out->oom ? -ENOMEM : 0;
}
