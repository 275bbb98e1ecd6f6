/* SPDX-License-Identifier: MIT */
/*
 * One-stop address resolution for report/script: runtime IPs of user
 * mappings (ELF files, JIT maps) and of the kernel to (dso, symbol,
 * offset), with source lines on request.
 *
 * Invariants:
 *  - Each (path, build-id) is opened once; failures are cached too, so a
 *    missing or rebuilt file costs one open per report, not per sample.
 *  - A file whose build-id differs from the recorded one is never used:
 *    such samples resolve with status PMS_RES_STALE and are counted per
 *    file (pms_resolver__stale()) for a "binary rebuilt" warning.
 *  - Returned strings live as long as the resolver.
 */
#ifndef PMS_SYMBOL_RESOLVER_H
#define PMS_SYMBOL_RESOLVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbol/srcline.h"

enum pms_res_status {
	PMS_RES_OK,         /* symbol found */
	PMS_RES_NO_SYM,     /* file read, no symbol covers the address */
	PMS_RES_NO_FILE,    /* file missing / not ELF / no segment for the offset */
	PMS_RES_STALE,      /* build-id mismatch: binary rebuilt since recording */
	PMS_RES_RESTRICTED, /* kernel address, kallsyms unreadable (kptr_restrict) */
};

/* A mapping as recorded (MMAP2 record or /proc/PID/maps line). */
struct pms_map_ref {
	const char *path;
	uint64_t start, pgoff;
	const uint8_t *build_id; /* NULL: not recorded, not checked */
	size_t build_id_size;
	pid_t pid;               /* for JIT maps of anonymous executable memory */
};

struct pms_resolved {
	enum pms_res_status status;
	const char *dso;  /* file path, "[kernel.kallsyms]", module name, "[jit]" */
	const char *sym;  /* demangled name, NULL unless status OK */
	uint64_t addr;    /* ELF vaddr for files, the address itself otherwise */
	uint64_t sym_off; /* addr - symbol start */
	struct pms_dso *elf; /* for srcline: the file, or NULL */
	size_t priv_dso;     /* private: the resolver's entry for elf */
};

struct pms_resolver;

struct pms_resolver *pms_resolver__new(void);
void pms_resolver__free(struct pms_resolver *r);
/* Always fills out; returns 0, or -ENOMEM. */
int pms_resolver__user(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
		       struct pms_resolved *out);
int pms_resolver__kernel(struct pms_resolver *r, uint64_t ip, struct pms_resolved *out);
/* Source lines of a resolved file address (see srcline.h). -ENODATA without DWARF. */
int pms_resolver__srcline(struct pms_resolver *r, const struct pms_resolved *res,
			  const struct pms_srcline_frame **frames, size_t *nr);
/* i-th file with build-id mismatches: its path and sample count; -ENOENT past the end. */
int pms_resolver__stale(const struct pms_resolver *r, size_t i, const char **path, size_t *samples,
			const char **found_build_id_hex);

#endif
