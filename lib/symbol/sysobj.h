/* SPDX-License-Identifier: MIT */
/*
 * The objects of the running system that are not plain user files, as perf
 * names and identifies them: loaded kernel modules (their file and build-id)
 * and the vDSO image; plus the ELF-notes parser their build-ids come from.
 *
 * Invariants:
 *  - All /proc and /sys access goes through util/sysfs.h, and the modules
 *    directory is $PMS_MODULES_ROOT (default /lib/modules) followed by the
 *    release from <procfs>/sys/kernel/osrelease, so fixtures can stand in
 *    for a machine with modules.
 *  - Notes are untrusted bytes: every size is checked before use.
 *  - Nothing here prints; functions return 0 (or a size) or -errno.
 */
#ifndef PMS_SYMBOL_SYSOBJ_H
#define PMS_SYMBOL_SYSOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The NT_GNU_BUILD_ID of a buffer of ELF notes: its size (at most size), or 0 (none, or damaged). */
size_t pms_build_id__from_notes(const void *notes, size_t len, uint8_t *out, size_t size);
/* Same from a notes file (<sysfs>/module/NAME/notes/.note.gnu.build-id): the size, -ENOENT, or -errno. */
int pms_build_id__from_notes_file(const char *path, uint8_t *out, size_t size);

/* A loaded module as perf synthesizes its kernel MMAP. */
struct pms_kmod {
	char *name;      /* as <procfs>/modules says it: "snd_hda_intel" */
	char *path;      /* its file, "<modules dir>/kernel/.../snd-hda-intel.ko", or "[snd_hda_intel]" */
	uint64_t start;  /* load address */
	uint64_t size;   /* whole module size, the map's length in perf's MMAP */
};

/*
 * Modules loaded now, by address (perf's order), without those at address 0
 * (hidden by kptr_restrict, or unloading). Files come from one pass over
 * modules.dep in the modules directory; a module it does not list is
 * "[name]", as perf names it. An absent <procfs>/modules is no modules
 * (0, *nr = 0). Free with pms_kmods__free().
 */
int pms_kmods__read(struct pms_kmod **out, size_t *nr);
void pms_kmods__free(struct pms_kmod *mods, size_t nr);
/* "<$PMS_MODULES_ROOT or /lib/modules>/<release>" into buf. 0, -ENOENT (no release), -ENAMETOOLONG. */
int pms_kmods__dir(char *buf, size_t size);
/*
 * Is a modules.dep entry ("kernel/sound/pci/hda/snd-hda-intel.ko.xz") the
 * file of module name ("snd_hda_intel")? '-' and '_' are one character to
 * the kernel.
 */
bool pms_kmod__file_is(const char *file, const char *name);
/*
 * The module name of a path or bracketed name, as the kernel spells it
 * (perf's kmod_path__parse_name): "/lib/.../snd-hda-intel.ko.xz" and
 * "[snd-hda-intel]" both give "snd_hda_intel". 0, -EINVAL (not a module
 * name), -ENAMETOOLONG.
 */
int pms_kmod__name(const char *path, char *buf, size_t size);
/* The build-id of loaded module name_or_path from <sysfs>/module/NAME/notes: its size, or -errno. */
int pms_kmod__build_id(const char *name_or_path, uint8_t *out, size_t size);

/*
 * This process's vDSO (the same image in every process of this boot): a
 * borrowed pointer and its length, the page-rounded ELF image as perf copies
 * it into the build-id cache. -ENOENT without a vDSO.
 */
int pms_vdso__image(const void **image, size_t *len);
/* Its build-id: the size, or -ENOENT. */
int pms_vdso__build_id(uint8_t *out, size_t size);

#endif
