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

#include <stdbool.h>
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
	PMS_RES_NO_KERNEL,  /* kernel address of a recording whose kernel symbols are not here
			       (another build-id, another boot's module layout, not identified) */
	PMS_RES_STRIPPED,   /* file read, no .symtab and no debug file: only exported names, none here */
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
	bool sym_open_end; /* the ELF symbol has no size of its own (an assembly label): it ends
			      where the next one starts, and code may fall through into that one */
	struct pms_dso *elf; /* for srcline: the file, or NULL */
	size_t priv_dso;     /* private: the resolver's entry for elf */
	size_t priv_file;    /* private: the resolver's entry + 1 for any file looked up, or 0 */
};

/* A file whose samples could not be named, and why (see pms_resolver__unnamed()). */
struct pms_unnamed_file {
	const char *path;               /* as recorded */
	enum pms_res_status why;        /* PMS_RES_NO_FILE, _STALE or _STRIPPED */
	size_t samples;                 /* leaf frames counted with pms_resolver__count_leaf() */
	const char *build_id_hex;       /* recorded, "" if none */
	const char *found_build_id_hex; /* _STALE: the one on disk ("" if it has none) */
};

/*
 * What a recording says about its kernel; every field optional. Without
 * pms_resolver__set_kernel() the resolver names kernel addresses with the
 * running kernel (live use: profile); with it, only with symbols that are
 * shown to belong to the recording's kernel:
 *   1. kallsyms saved in the build-id cache under the recorded build-id;
 *   2. the running kernel's /proc/kallsyms when its build-id
 *      (/sys/kernel/notes) is the recorded one, moved by the KASLR offset
 *      between the recorded and the running address of reloc_sym;
 *   3. without a recorded build-id, the running kernel only when the
 *      recorded kernel map starts at its reloc_sym and ends at its _etext
 *      and the recorded OS release (if any) is its release;
 * otherwise kernel addresses stay addresses (PMS_RES_NO_KERNEL).
 */
struct pms_kernel_ref {
	const uint8_t *build_id;  /* NULL: not recorded */
	size_t build_id_size;
	const char *reloc_sym;    /* "_text" / "_stext" from the "[kernel.kallsyms]_text" MMAP, or NULL */
	uint64_t reloc_addr;      /* its address at record time (that MMAP's pgoff), 0 = unknown */
	uint64_t map_start, map_end; /* the recorded kernel map; 0, 0 = unknown */
	const char *osrelease;    /* HEADER_OSRELEASE, or NULL */
};

enum pms_kernel_source {
	PMS_KSRC_NONE,     /* nothing here names this recording's kernel (see why) */
	PMS_KSRC_RUNNING,  /* /proc/kallsyms of the running kernel */
	PMS_KSRC_CACHE,    /* kallsyms saved in the build-id cache */
	PMS_KSRC_FILE,     /* a kallsyms file named with pms_resolver__set_kallsyms() */
};

struct pms_kernel_info {
	enum pms_kernel_source source;
	const char *path;          /* the kallsyms file read, or NULL */
	const char *build_id_hex;  /* recorded kernel build-id, "" if none */
	int64_t delta;             /* recorded address - symbol address (KASLR), applied */
	bool restricted;           /* kallsyms read as zeros (kptr_restrict) */
	const char *why;           /* with PMS_KSRC_NONE: one sentence, "" otherwise */
};

struct pms_resolver;

struct pms_resolver *pms_resolver__new(void);
void pms_resolver__free(struct pms_resolver *r);
/* Always fills out; returns 0, or -ENOMEM. */
int pms_resolver__user(struct pms_resolver *r, const struct pms_map_ref *map, uint64_t ip,
		       struct pms_resolved *out);
/*
 * Say what the recording knows about its kernel (copied). Call before the
 * first kernel lookup; a later call starts the kernel choice over.
 */
int pms_resolver__set_kernel(struct pms_resolver *r, const struct pms_kernel_ref *k);
/* Name kernel addresses with this kallsyms file, as perf's --kallsyms (copied; NULL = default). */
int pms_resolver__set_kallsyms(struct pms_resolver *r, const char *path);
/*
 * Where files are looked for before their recorded path: symfs (perf's
 * --symfs: <symfs>/<path>, and <symfs> as a build-id cache when it holds a
 * .build-id directory) and the build-id cache dir (default
 * pms_buildid_cache__dir(); "" = none). Copied; NULL leaves one unchanged.
 */
int pms_resolver__set_paths(struct pms_resolver *r, const char *symfs, const char *buildid_dir);
/* A kernel address inside the recorded kernel map (or, live, anywhere in the kernel). */
int pms_resolver__kernel(struct pms_resolver *r, uint64_t ip, struct pms_resolved *out);
/*
 * A kernel address inside module's recorded map [map_start, ...) (module =
 * "ext4", no brackets). Unresolved addresses are module-relative, as perf
 * prints them; out->dso is left NULL for the caller's "[ext4]".
 */
int pms_resolver__module(struct pms_resolver *r, const char *module, uint64_t map_start, uint64_t ip,
			 struct pms_resolved *out);
/* Which kernel symbols name (or would name) kernel addresses, and why not. Loads them. */
void pms_resolver__kernel_info(struct pms_resolver *r, struct pms_kernel_info *out);
/*
 * Where the running kernel's own text lies ([_text, end of init text)), in
 * the recording's addresses, when the recording's kernel is the running one
 * (perf then maps the kernel from /proc/kcore, which covers init text too:
 * the idle task's start_kernel frames). false otherwise.
 */
bool pms_resolver__running_kernel_text(struct pms_resolver *r, uint64_t *start, uint64_t *end);
/*
 * Read the running kernel's core symbols now (its index, else /proc/kallsyms)
 * rather than at the first kernel address: before dropping the privileges
 * kallsyms needs. Modules and BPF symbols are still read at the first address
 * outside the core. 0 or -errno (-EACCES: kptr_restrict hides the addresses).
 */
int pms_resolver__load_running_kernel(struct pms_resolver *r);
/*
 * A long-running caller's bound: when more than max_files object files are
 * held, the ones not looked up since the previous call are closed (their
 * symbols read again if they come back). Call it at a point where no
 * pms_resolved of earlier lookups is still in use. Returns how many went.
 */
size_t pms_resolver__trim_files(struct pms_resolver *r, size_t max_files);
/* How many object files and JIT maps the resolver holds open now (a long-running caller watches them). */
void pms_resolver__held(const struct pms_resolver *r, size_t *files, size_t *jit_maps);
/* Kernel symbols were chosen already (a kernel address was looked up). */
bool pms_resolver__kernel_touched(const struct pms_resolver *r);
/* Source lines of a resolved file address (see srcline.h). -ENODATA without DWARF. */
int pms_resolver__srcline(struct pms_resolver *r, const struct pms_resolved *res,
			  const struct pms_srcline_frame **frames, size_t *nr);
/*
 * Count res (a sample's leaf frame) against its file when it could not be
 * named, for pms_resolver__unnamed().
 */
void pms_resolver__count_leaf(struct pms_resolver *r, const struct pms_resolved *res);
/* i-th file with leaf samples that could not be named, most samples first; -ENOENT past the end. */
int pms_resolver__unnamed(struct pms_resolver *r, size_t i, struct pms_unnamed_file *out);
/* i-th file with build-id mismatches: its path and sample count; -ENOENT past the end. */
int pms_resolver__stale(const struct pms_resolver *r, size_t i, const char **path, size_t *samples,
			const char **found_build_id_hex);

#endif
