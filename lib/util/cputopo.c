// SPDX-License-Identifier: MIT
// CPU topology ids from sysfs and perf stat's per-socket/die/core/node aggregation units.
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cputopo.h"
#include "util/fileio.h"
#include "util/sysfs.h"

/* A missing file is id 0 (old kernels have no die_id), as perf reads it. */
int pms_cpu_topo__read_id(int cpu, const char *file, int *id)
{
	char path[4096];

	if (pms_sysfs__path(path, sizeof(path), "devices/system/cpu/cpu%d/topology/%s", cpu, file))
		return -ENAMETOOLONG;
	return pms_file__read_int(path, id);
}

/* One id, 0 when the kernel does not provide the file (as perf assumes). */
static int topo_id(int cpu, const char *file, int *id)
{
	int err = pms_cpu_topo__read_id(cpu, file, id);

	if (err)
		*id = 0;
	return err == -ENOENT ? 0 : err;
}

/* The node a CPU belongs to: the "nodeN" entry of its sysfs directory (0 without NUMA). */
static int node_of(int cpu)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int node = 0;

	if (pms_sysfs__path(path, sizeof(path), "devices/system/cpu/cpu%d", cpu))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (strncmp(de->d_name, "node", 4) || !de->d_name[4])
			continue;
		v = strtol(de->d_name + 4, &end, 10);
		if (!*end && v >= 0) {
			node = (int)v;
			break;
		}
	}
	closedir(d);
	return node;
}

int pms_cpu_topo__read(int cpu, struct pms_cpu_topo *out)
{
	char path[4096];
	DIR *d;
	int err;

	memset(out, 0, sizeof(*out));
	out->cpu = cpu;
	if (cpu < 0 || pms_sysfs__path(path, sizeof(path), "devices/system/cpu/cpu%d/topology", cpu))
		return -EINVAL;
	d = opendir(path);
	if (!d)
		return -errno;
	closedir(d);
	if ((err = topo_id(cpu, "physical_package_id", &out->socket)) ||
	    (err = topo_id(cpu, "die_id", &out->die)) || (err = topo_id(cpu, "core_id", &out->core)))
		return err;
	out->node = node_of(cpu);
	return 0;
}

/* Order of units: perf's aggregation ids compared field by field. */
static int unit_cmp(enum pms_aggr_mode mode, const struct pms_cpu_topo *a, const struct pms_cpu_topo *b)
{
	if (mode == PMS_AGGR_NODE)
		return (a->node > b->node) - (a->node < b->node);
	if (a->socket != b->socket)
		return (a->socket > b->socket) - (a->socket < b->socket);
	if (mode == PMS_AGGR_SOCKET)
		return 0;
	if (a->die != b->die)
		return (a->die > b->die) - (a->die < b->die);
	if (mode == PMS_AGGR_DIE)
		return 0;
	return (a->core > b->core) - (a->core < b->core);
}

void pms_aggr_map__release(struct pms_aggr_map *m)
{
	free(m->units);
	free(m->nr_cpus);
	free(m->unit_of);
	memset(m, 0, sizeof(*m));
}

int pms_aggr_map__build(struct pms_aggr_map *m, enum pms_aggr_mode mode, const int *cpus, size_t nr)
{
	struct pms_cpu_topo *t;
	int err = 0;

	memset(m, 0, sizeof(*m));
	m->mode = mode;
	t = calloc(nr ? nr : 1, sizeof(*t));
	m->units = calloc(nr ? nr : 1, sizeof(*m->units));
	m->nr_cpus = calloc(nr ? nr : 1, sizeof(*m->nr_cpus));
	m->unit_of = calloc(nr ? nr : 1, sizeof(*m->unit_of));
	if (!t || !m->units || !m->nr_cpus || !m->unit_of) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr && !err; i++)
		err = pms_cpu_topo__read(cpus[i], &t[i]);
	if (err)
		goto out;
	/* insertion into the sorted unit list: CPU lists are short */
	for (size_t i = 0; i < nr; i++) {
		size_t u = 0;

		while (u < m->nr_units && unit_cmp(mode, &m->units[u], &t[i]) < 0)
			u++;
		if (u == m->nr_units || unit_cmp(mode, &m->units[u], &t[i]) != 0) {
			memmove(&m->units[u + 1], &m->units[u], (m->nr_units - u) * sizeof(*m->units));
			m->units[u] = t[i];
			m->nr_units++;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		for (size_t u = 0; u < m->nr_units; u++) {
			if (unit_cmp(mode, &m->units[u], &t[i]) == 0) {
				m->unit_of[i] = u;
				m->nr_cpus[u]++;
				break;
			}
		}
	}
out:
	free(t);
	if (err)
		pms_aggr_map__release(m);
	return err;
}

void pms_aggr_map__name(const struct pms_aggr_map *m, size_t unit, char *buf, size_t size)
{
	const struct pms_cpu_topo *t = &m->units[unit];

	switch (m->mode) {
	case PMS_AGGR_SOCKET:
		snprintf(buf, size, "S%d", t->socket);
		break;
	case PMS_AGGR_DIE:
		snprintf(buf, size, "S%d-D%d", t->socket, t->die);
		break;
	case PMS_AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%d", t->socket, t->die, t->core);
		break;
	default:
		snprintf(buf, size, "N%d", t->node);
		break;
	}
}

const char *pms_aggr_mode__word(enum pms_aggr_mode mode)
{
	static const char *const w[] = { "socket", "die", "core", "node" };

	return (unsigned)mode < 4 ? w[mode] : "?";
}
