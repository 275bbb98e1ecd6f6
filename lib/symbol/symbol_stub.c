// SPDX-License-Identifier: MIT
// Resolver and unwinder for builds without host libraries (the static arm64 rig build): every address stays unresolved, so report and script still run and print addresses with their object names.
#include <errno.h>
#include <stdlib.h>

#include "symbol/dso.h"
#include "symbol/resolver.h"
#include "symbol/unwind.h"

#ifdef PMS_NO_HOST_LIBS
struct pms_resolver {
	int unused;
};

struct pms_resolver *pms_resolver__new(void)
{
	return calloc(1, sizeof(struct pms_resolver));
}

void pms_resolver__free(struct pms_resolver *r)
{
	free(r);
}

int pms_resolver__user(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
		       struct pms_resolved *out)
{
	(void)r;
	*out = (struct pms_resolved){
		.status = PMS_RES_NO_FILE,
		.dso = map && map->path ? map->path : "[unknown]",
		.addr = map ? ip - map->start + map->pgoff : ip,
	};
	return 0;
}

int pms_resolver__kernel(struct pms_resolver *r, uint64_t ip, struct pms_resolved *out)
{
	(void)r;
	*out = (struct pms_resolved){ .status = PMS_RES_NO_FILE, .dso = "[kernel.kallsyms]", .addr = ip };
	return 0;
}

int pms_resolver__set_kernel(struct pms_resolver *r, const struct pms_kernel_ref *k)
{
	(void)r, (void)k;
	return 0;
}

int pms_resolver__set_kallsyms(struct pms_resolver *r, const char *path)
{
	(void)r, (void)path;
	return 0;
}

int pms_resolver__set_paths(struct pms_resolver *r, const char *symfs, const char *buildid_dir)
{
	(void)r, (void)symfs, (void)buildid_dir;
	return 0;
}

int pms_resolver__module(struct pms_resolver *r, const char *module, uint64_t map_start, uint64_t ip,
			 struct pms_resolved *out)
{
	(void)r, (void)module;
	*out = (struct pms_resolved){ .status = PMS_RES_NO_KERNEL, .addr = ip - map_start };
	return 0;
}

bool pms_resolver__running_kernel_text(struct pms_resolver *r, uint64_t *start, uint64_t *end)
{
	(void)r, (void)start, (void)end;
	return false;
}

bool pms_resolver__kernel_touched(const struct pms_resolver *r)
{
	(void)r;
	return false;
}

void pms_resolver__kernel_info(struct pms_resolver *r, struct pms_kernel_info *out)
{
	(void)r;
	*out = (struct pms_kernel_info){ .source = PMS_KSRC_NONE, .build_id_hex = "",
					 .why = "this build has no symbol support (no host libraries)" };
}

int pms_resolver__srcline(struct pms_resolver *r, const struct pms_resolved *res,
			  const struct pms_srcline_frame **frames, size_t *nr)
{
	(void)r, (void)res, (void)frames, (void)nr;
	return -EOPNOTSUPP;
}

void pms_resolver__count_leaf(struct pms_resolver *r, const struct pms_resolved *res)
{
	(void)r, (void)res;
}

int pms_resolver__unnamed(struct pms_resolver *r, size_t i, struct pms_unnamed_file *out)
{
	(void)r, (void)i, (void)out;
	return -ENOENT;
}

int pms_resolver__stale(const struct pms_resolver *r, size_t i, const char **path, size_t *samples,
			const char **found_build_id_hex)
{
	(void)r, (void)i, (void)path, (void)samples, (void)found_build_id_hex;
	return -ENOENT;
}

int pms_dso__frame_pointers(struct pms_dso *dso)
{
	(void)dso;
	return -1;
}

int pms_dso__code(const struct pms_dso *dso, uint64_t vaddr, size_t len, const uint8_t **bytes, size_t *avail)
{
	(void)dso, (void)vaddr, (void)len, (void)bytes, (void)avail;
	return -ENOENT;
}

int pms_unwinder__new(const struct pms_maps *maps, struct pms_unwinder **out)
{
	(void)maps;
	*out = NULL;
	return -EOPNOTSUPP;
}

int pms_unwinder__unwind(struct pms_unwinder *u, const struct pms_unwind_regs *regs,
			 const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *nr)
{
	(void)u, (void)regs, (void)stack, (void)stack_size, (void)ips, (void)max;
	*nr = 0;
	return -EOPNOTSUPP;
}

void pms_unwinder__free(struct pms_unwinder *u)
{
	(void)u;
}
#endif
