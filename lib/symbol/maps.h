/* SPDX-License-Identifier: MIT */
/*
 * /proc/PID/maps parsing. Invariants: entries are in file order (sorted by
 * start, non-overlapping, as the kernel prints them); path is "" for
 * anonymous mappings; a " (deleted)" suffix is stripped from path and
 * recorded in `deleted`; special mappings ([vdso], [stack], [heap], ...)
 * keep their bracketed name and have `special` set.
 */
#ifndef PMS_SYMBOL_MAPS_H
#define PMS_SYMBOL_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pms_map {
	uint64_t start, end, pgoff;
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	char prot[5]; /* "r-xp" */
	bool deleted, special, anon;
	char *path;
};

struct pms_maps {
	struct pms_map *maps;
	size_t nr;
};

/* Parse maps text (one line per mapping). 0 or -errno (-EINVAL: bad line). */
int pms_maps__parse(const char *text, size_t len, struct pms_maps **out);
/* <procfs>/<pid>/maps (pid 0 = self). */
int pms_maps__read_pid(pid_t pid, struct pms_maps **out);
void pms_maps__free(struct pms_maps *maps);
/* Mapping containing addr (binary search), or NULL. */
const struct pms_map *pms_maps__find(const struct pms_maps *maps, uint64_t addr);
static inline bool pms_map__is_exec(const struct pms_map *m) { return m->prot[2] == 'x'; }

#endif
