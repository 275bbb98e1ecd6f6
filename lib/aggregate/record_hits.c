// SPDX-License-Identifier: MIT
// record's objects table (aggregate/objects.h) with the kernel's semantics and a recording's out-of-memory policy.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/objects.h"
#include "aggregate/record_hits.h"

struct pms_record_hits {
	struct pms_objects *o;
	bool incomplete; /* an allocation failed: some object or map is missing */
};

/*
 * Bookkeeping must not end a recording: an event the table could not take
 * costs at most a build-id, and record says so at the end.
 */
#define check(h, expr)                         \
	do {                                   \
		if ((expr) == -ENOMEM)         \
			(h)->incomplete = true; \
	} while (0)

struct pms_record_hits *pms_record_hits__new(void)
{
	/* the kernel's own view: chains count, exec replaces maps, per-CPU rings need a second look */
	struct pms_objects_opts opts = {
		.sz = sizeof(opts), .callchains = true, .retry_unmapped = true, .exec_clears = true,
	};
	struct pms_record_hits *h = calloc(1, sizeof(*h));
	int k;

	if (!h)
		return NULL;
	/* every kernel address outside a module is the kernel's (modules, smaller, win) */
	if (pms_objects__new(&h->o, &opts) ||
	    (k = pms_objects__findnew(h->o, PMS_MACHINE_HOST, "[kernel.kallsyms]", true)) < 0 ||
	    pms_objects__kernel_map(h->o, (size_t)k, 0, UINT64_MAX)) {
		pms_record_hits__free(h);
		return NULL;
	}
	return h;
}

void pms_record_hits__free(struct pms_record_hits *h)
{
	if (!h)
		return;
	pms_objects__free(h->o);
	free(h);
}

struct pms_objects *pms_record_hits__objects(struct pms_record_hits *h)
{
	return h->o;
}

bool pms_record_hits__incomplete(const struct pms_record_hits *h)
{
	return h->incomplete;
}

void pms_record_hits__add_module(struct pms_record_hits *h, const char *name, uint64_t start, uint64_t len)
{
	int i = pms_objects__findnew(h->o, PMS_MACHINE_HOST, name, true);

	check(h, i);
	if (i >= 0 && len)
		check(h, pms_objects__kernel_map(h->o, (size_t)i, start, len));
}

void pms_record_hits__mmap(struct pms_record_hits *h, uint32_t pid, uint64_t start, uint64_t len, const char *path)
{
	int i;

	if (!path || !len)
		return;
	i = pms_objects__findnew(h->o, PMS_MACHINE_HOST, path, false);
	check(h, i);
	if (i >= 0)
		check(h, pms_objects__mmap(h->o, pid, start, len, (size_t)i));
}

void pms_record_hits__fork(struct pms_record_hits *h, uint32_t pid, uint32_t ppid)
{
	check(h, pms_objects__fork(h->o, pid, ppid, true));
}

void pms_record_hits__exec(struct pms_record_hits *h, uint32_t pid)
{
	pms_objects__exec(h->o, pid);
}

void pms_record_hits__sample(struct pms_record_hits *h, uint32_t pid, uint16_t cpumode, uint64_t ip,
		      const uint64_t *chain, uint64_t nr)
{
	check(h, pms_objects__sample(h->o, pid, cpumode, ip, chain, nr));
}

void pms_record_hits__pass_done(struct pms_record_hits *h)
{
	pms_objects__pass_done(h->o);
}

void pms_record_hits__finish(struct pms_record_hits *h)
{
	pms_objects__finish(h->o);
}

size_t pms_record_hits__nr(const struct pms_record_hits *h)
{
	return pms_objects__nr(h->o);
}

const char *pms_record_hits__name(const struct pms_record_hits *h, size_t i, bool *hit, bool *kernel)
{
	const struct pms_object *ob = pms_objects__at(h->o, i);

	*hit = ob->hit;
	*kernel = ob->kernel;
	return ob->name;
}
