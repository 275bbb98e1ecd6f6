/* SPDX-License-Identifier: MIT */
/*
 * The build-id cache, in perf's layout, so that perf's cache serves us and
 * ours serves perf:
 *
 *   <dir>/<object name>/<build-id hex>/<kind>     the saved copy
 *   <dir>/.build-id/<2 hex>/<rest hex>            -> ../../<object name>/<build-id hex>
 *
 * <object name> is the absolute path of a file without its leading '/'
 * ("usr/lib/x86_64-linux-gnu/libc.so.6"), or a bracketed name
 * ("[kernel.kallsyms]", "[vdso]"); <kind> is "elf" (the binary), "debug" (a
 * separate debug file), "kallsyms" (a copy of /proc/kallsyms) or "vdso".
 * Older perf linked .build-id entries to a file instead of a directory:
 * lookups accept both.
 *
 * <dir> is $PMS_BUILDID_DIR, else perf's "buildid.dir" setting ($PERF_CONFIG,
 * else ~/.perfconfig, else /etc/perfconfig), else $HOME/.debug.
 *
 * Invariants: an entry appears whole or not at all (written to a temporary
 * name in its directory, then renamed); adding what is already there costs
 * one stat() and changes nothing.
 */
#ifndef PMS_SYMBOL_BUILDID_CACHE_H
#define PMS_SYMBOL_BUILDID_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Files pmuscope derives from an entry and keeps beside it (kallsyms.c's
 * symbol indexes) are named with this prefix: they are rebuilt wherever
 * they are needed, so archives leave them out.
 */
#define PMS_BUILDID_CACHE_DERIVED_PREFIX "pmuscope-"

/* The cache directory (see above) into buf. 0, -ENOENT (no HOME and no setting), -ENAMETOOLONG. */
int pms_buildid_cache__dir(char *buf, size_t size);

/* "<dir>/<name>/<hex>/<kind>" for name as above (a leading '/' is dropped). 0 or -ENAMETOOLONG. */
int pms_buildid_cache__entry_path(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				  const char *kind, char *buf, size_t size);

/*
 * A readable cached copy of the object with this build-id: first
 * <dir>/<name>/<hex>/<kind> when name is given, then through the .build-id
 * link (a directory holding <kind>, or an old-style link to the file
 * itself). 0 with the path in buf, -ENOENT.
 */
int pms_buildid_cache__find(const char *dir, const char *name, const uint8_t *id, size_t id_size,
			    const char *kind, char *buf, size_t size);

/*
 * Save a copy of the file src as <name>/<hex>/<kind> and link .build-id to
 * it (creating directories as needed). *added (optional) says whether
 * anything was written. 0 or -errno.
 */
int pms_buildid_cache__add_file(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				const char *kind, const char *src, bool *added);
/* Same with the bytes buf[0..len) (a kallsyms text, a vDSO image). */
int pms_buildid_cache__add_mem(const char *dir, const char *name, const uint8_t *id, size_t id_size,
			       const char *kind, const void *buf, size_t len, bool *added);

/* "<dir>/.build-id/<2 hex>/<rest hex>", the link, into buf. 0, -EINVAL, -ENAMETOOLONG. */
int pms_buildid_cache__link_path(const char *dir, const uint8_t *id, size_t id_size, char *buf, size_t size);

/*
 * The entry directory of an object relative to dir, as perf archive names
 * it ("usr/lib/x86_64-linux-gnu/libc.so.6/<hex>"): <name>/<hex> when it
 * is there, else the directory the .build-id link points to (another name
 * for the same build-id, or an old-style link's file's directory). 0 with
 * the path in buf, -ENOENT.
 */
int pms_buildid_cache__entry_rel(const char *dir, const char *name, const uint8_t *id, size_t id_size,
				 char *buf, size_t size);

/* What pms_buildid_cache__add_object() saved (bits of *added). */
#define PMS_BIDC_ADDED_ELF 1u
#define PMS_BIDC_ADDED_DEBUG 2u
#define PMS_BIDC_ADDED_KALLSYMS 4u
#define PMS_BIDC_ADDED_VDSO 8u

/*
 * Save an object a perf.data file names (its name and build-id as in the
 * build-id table; kernel: a kernel-side entry) the way perf record does:
 *   "[kernel.kallsyms]"  <procfs>/kallsyms as "kallsyms", when the running
 *                        kernel has this build-id (<sysfs>/kernel/notes) and
 *                        kallsyms is not restricted (all addresses zero);
 *   "[vdso]"             this process's vDSO image as "vdso", when it has
 *                        this build-id;
 *   a file path          the file as "elf" when it still has this build-id
 *                        (kernel modules too), and for user files the
 *                        separate debug file $PMS_DEBUG_ROOT (default
 *                        /usr/lib/debug)/.build-id/xx/<rest>.debug as "debug"
 *                        when it exists with the same build-id.
 * Nothing is read when the entry is already there: one stat().
 * 0 with *added (optional) the PMS_BIDC_ADDED_* bits written (0: it was
 * there); -ENOENT (not here, or a name with nothing to save: "[name]"
 * modules without a file, "//anon"...), -ESTALE (what is here has another
 * build-id), -ENODATA (kallsyms restricted: nothing worth saving),
 * -EOPNOTSUPP (a build without libelf cannot check files), or -errno from
 * writing (-EACCES, -EROFS, -ENOSPC...).
 */
int pms_buildid_cache__add_object(const char *dir, const char *name, bool kernel, const uint8_t *id,
				  size_t id_size, unsigned *added);

#endif
