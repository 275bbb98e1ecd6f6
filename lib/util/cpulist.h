/* SPDX-License-Identifier: MIT */
/*
 * CPU list strings as the kernel writes them ("0-3,8,10-11") and as users
 * pass them to -C. Result arrays are sorted and free of duplicates.
 */
#ifndef PMS_UTIL_CPULIST_H
#define PMS_UTIL_CPULIST_H

#include <stddef.h>

struct pms_cpulist {
	int *cpus;
	size_t nr;
};

/* Parse into *out (caller frees out->cpus with pms_cpulist__release). -EINVAL
 * on syntax errors, with *bad_pos (optional) set to the offending offset. */
int pms_cpulist__parse(const char *s, struct pms_cpulist *out, size_t *bad_pos);
/* <sysfs>/devices/system/cpu/online */
int pms_cpulist__online(struct pms_cpulist *out);
void pms_cpulist__release(struct pms_cpulist *l);
int pms_cpulist__contains(const struct pms_cpulist *l, int cpu);

#endif
