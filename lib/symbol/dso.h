/* SPDX-License-Identifier: MIT */
/*
 * One ELF object on disk (or in memory): its build-id, PT_LOAD segments and
 * function symbols, for address -> symbol lookup of sampled IPs.
 *
 * Invariants:
 *  - syms[] is sorted by start, non-overlapping after load: zero-size
 *    symbols extend to the next symbol (or the end of their section), and
 *    aliases at one address collapse to a single entry preferring GLOBAL
 *    over WEAK over LOCAL, so lookup is one binary search (O(log n)).
 *  - Symbol names point into the ELF's string tables (or the dso's own
 *    storage for synthesized "name@plt" entries) and live as long as the dso.
 *  - Addresses in this API are ELF virtual addresses ("vaddr", what nm and
 *    DWARF print). Runtime IPs are converted with pms_dso__map_ip() using
 *    the PT_LOAD segments, never with a guessed bias.
 *  - A file whose build-id differs from the expected one is never used:
 *    pms_dso__open_checked() fails with -ESTALE so the caller can report
 *    "binary rebuilt since recording" instead of misattributing samples.
 */
#ifndef PMS_SYMBOL_DSO_H
#define PMS_SYMBOL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMS_BUILD_ID_MAX 20
/* 2 hex digits per byte + NUL */
#define PMS_BUILD_ID_HEX_MAX (2 * PMS_BUILD_ID_MAX + 1)

struct pms_sym {
	uint64_t start;    /* ELF vaddr */
	uint64_t size;     /* > 0 after load (zero-size symbols are extended) */
	const char *name;  /* raw (mangled) name */
	uint8_t bind;      /* STB_* */
	bool size_guessed; /* size came from the next symbol, not st_size */
};

struct pms_load_seg {
	uint64_t vaddr, memsz;
	uint64_t offset, filesz;
	uint32_t flags; /* PF_* */
};

struct pms_dso {
	char *path;           /* as opened (NULL for memory images) */
	char *debug_path;     /* separate debug file used for symbols, or NULL */
	uint8_t build_id[PMS_BUILD_ID_MAX];
	size_t build_id_size; /* 0 = the file has no NT_GNU_BUILD_ID note */
	uint16_t e_type;      /* ET_EXEC / ET_DYN / ... */
	uint16_t e_machine;
	uint64_t e_entry;     /* ELF vaddr of the entry point (_start of an executable), or 0 */
	uint32_t debuglink_crc; /* CRC32 from .gnu_debuglink, if any */
	const char *debuglink;  /* file name from .gnu_debuglink, or NULL */
	bool has_debug_info;    /* .debug_info present in the main file */
	bool syms_from_dynsym;  /* no .symtab anywhere: only exported symbols */
	struct pms_load_seg *segs;
	size_t nr_segs;
	struct pms_sym *syms;
	size_t nr_syms;
	size_t nr_plt_syms;     /* synthesized "name@plt" entries (x86_64, arm64) */
	/* private */
	int8_t frame_pointers;  /* pms_dso__frame_pointers(): -2 not checked yet */
	char *plt_names;        /* storage of the @plt names */
	char *pltgot_names;     /* storage of the .plt.got @plt names */
	int fd, debug_fd;
	void *elf, *debug_elf; /* Elf * */
};

/*
 * Open an ELF file and load its symbols (.symtab, else from a separate
 * debug file found by pms_dso__find_debug_file(), else .dynsym).
 * 0 or -errno (-ENOEXEC: not an ELF file).
 */
int pms_dso__open(const char *path, struct pms_dso **out);
/* The file name path's .gnu_debuglink names, into name (size bytes). -ENOENT without one. */
int pms_debuglink__read(const char *path, char *name, size_t size);
/*
 * Same, but fail with -ESTALE when the file's build-id differs from
 * expected (size bytes; a file without build-id also mismatches).
 * On -ESTALE *found_hex (if non-NULL, PMS_BUILD_ID_HEX_MAX bytes) receives
 * the on-disk build-id ("" if none) for the message.
 */
int pms_dso__open_checked(const char *path, const uint8_t *expected, size_t size,
			  struct pms_dso **out, char *found_hex);
/* An ELF image in memory (not copied; must outlive the dso). No debug lookup. */
int pms_dso__open_mem(const void *image, size_t size, struct pms_dso **out);
void pms_dso__free(struct pms_dso *dso);

/*
 * Whether the file's code keeps frame pointers, judged from the prologues
 * of (up to 256 of) its functions: x86_64 "push %rbp; mov %rsp,%rbp" (after
 * an optional endbr64), arm64 "mov x29, sp" in the first instructions. A
 * frame-pointer walk through a function without one skips its caller or
 * stops: 1 (most functions keep one), 0 (few or none: -fomit-frame-pointer,
 * Debian's default), -1 (cannot tell: no code or another architecture).
 */
int pms_dso__frame_pointers(struct pms_dso *dso);
/*
 * The file bytes of the code at vaddr: *bytes points into the mapped file
 * (valid while dso lives) and *avail says how many of the len asked for
 * the segment holds (fewer at its end). -ENOENT when no loaded segment
 * has file bytes there (a stripped debug file's NOBITS .text, bss).
 */
int pms_dso__code(const struct pms_dso *dso, uint64_t vaddr, size_t len, const uint8_t **bytes, size_t *avail);

/* Symbol containing vaddr, or NULL. */
const struct pms_sym *pms_dso__find_sym(const struct pms_dso *dso, uint64_t vaddr);

/*
 * Runtime IP -> ELF vaddr for an ip inside the mapping [map_start, ...)
 * created by mmap(..., pgoff) of this file: the file offset
 * ip - map_start + pgoff is located in a PT_LOAD segment and translated
 * to its p_vaddr. Works the same for ET_EXEC and ET_DYN (PIE, .so).
 * -ENOENT when the offset is outside every PT_LOAD segment.
 */
int pms_dso__map_ip(const struct pms_dso *dso, uint64_t map_start, uint64_t map_pgoff,
		    uint64_t ip, uint64_t *vaddr);
/* The inverse: ELF vaddr -> runtime address in that mapping. */
int pms_dso__unmap_ip(const struct pms_dso *dso, uint64_t map_start, uint64_t map_pgoff,
		      uint64_t vaddr, uint64_t *ip);

/* Read only the build-id of a file (fast path: no symbols). Returns size or -errno. */
int pms_build_id__read(const char *path, uint8_t *buf, size_t size);
/* Lower-case hex; returns the string length. */
size_t pms_build_id__to_hex(const uint8_t *id, size_t size, char *hex, size_t hex_size);

/*
 * Separate debug file for dso, searched in perf/gdb order:
 *   <root>/.build-id/xx/rest.debug, the build-id cache's "debug" entry,
 *   <dir>/<debuglink>, <dir>/.debug/<debuglink>, <root><dir>/<debuglink>,
 *   then the debuginfod servers of $DEBUGINFOD_URLS by build-id
 * where root is $PMS_DEBUG_ROOT or /usr/lib/debug. Debuglink candidates
 * must match the CRC32 of .gnu_debuglink (a build-id candidate must carry
 * the same build-id). 0 with the path in buf, -ENOENT if none.
 */
int pms_dso__find_debug_file(const struct pms_dso *dso, char *buf, size_t size);
/* gdb's .gnu_debuglink CRC32 of a whole file. */
int pms_file__crc32(const char *path, uint32_t *crc);

#endif
