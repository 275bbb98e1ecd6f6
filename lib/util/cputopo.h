/* SPDX-License-Identifier: MIT */
/*
 * CPU topology from sysfs (socket, die, core, NUMA node of each CPU) and the
 * grouping of a CPU list into perf stat's aggregation units (--per-socket,
 * --per-die, --per-core, --per-node).
 *
 * Invariants: ids come from <sysfs>/devices/system/cpu/cpuN/topology files
 * (PMS_SYSFS_ROOT honoured); a file the kernel does not provide (die_id
 * before 5.2, no NUMA) reads as id 0, as perf assumes; units are sorted by
 * their id (socket, die, core; or node) like perf's aggregation map, and
 * every CPU of the list belongs to exactly one unit.
 */
#ifndef PMS_UTIL_CPUTOPO_H
#define PMS_UTIL_CPUTOPO_H

#include <stddef.h>

struct pms_cpu_topo {
	int cpu;
	int socket;
	int die;
	int core;
	int node;
};

/* One id file of a CPU's topology directory ("core_id", "die_id", ...): 0, or -errno (-ENOENT: not there). */
int pms_cpu_topo__read_id(int cpu, const char *file, int *id);

/* The topology ids of one CPU. 0, or -errno when the CPU has no topology directory. */
int pms_cpu_topo__read(int cpu, struct pms_cpu_topo *out);

enum pms_aggr_mode {
	PMS_AGGR_SOCKET,
	PMS_AGGR_DIE,
	PMS_AGGR_CORE,
	PMS_AGGR_NODE,
};

struct pms_aggr_map {
	enum pms_aggr_mode mode;
	size_t nr_units;
	struct pms_cpu_topo *units;  /* [nr_units]: the unit's ids (cpu: its first CPU) */
	size_t *nr_cpus;             /* [nr_units]: CPUs of the list in the unit */
	size_t *unit_of;             /* [nr of the CPU list]: unit index of cpus[i] */
};

/*
 * Group cpus[0..nr) into units of mode. 0 or -errno (-ENOENT: a CPU has no
 * topology in sysfs; -ENOMEM); release with pms_aggr_map__release().
 */
int pms_aggr_map__build(struct pms_aggr_map *m, enum pms_aggr_mode mode, const int *cpus, size_t nr);
void pms_aggr_map__release(struct pms_aggr_map *m);
/* perf's unit name: "S0", "S0-D1", "S0-D1-C3", "N0". */
void pms_aggr_map__name(const struct pms_aggr_map *m, size_t unit, char *buf, size_t size);
/* perf's JSON key and interval header word for the mode: "socket", "die", "core", "node". */
const char *pms_aggr_mode__word(enum pms_aggr_mode mode);

#endif
