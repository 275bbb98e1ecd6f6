// SPDX-License-Identifier: MIT
// perf.data feature sections: host collection, payload encoding and bounds-checked decoding.
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "data/data_priv.h"
#include "data/features.h"
#include "util/cpuid.h"
#include "util/cputopo.h"
#include "util/fileio.h"
#include "util/sysfs.h"
#include <pmuscope/pmuscope.h>

/* ---- byte buffer ---- */

static void bbuf_reserve(struct pms_bbuf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->oom)
		return;
	if (n > SIZE_MAX - b->len) {
		b->oom = true;
		return;
	}
	if (b->len + n <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void pms_bbuf__add(struct pms_bbuf *b, const void *src, size_t n)
{
	bbuf_reserve(b, n);
	if (b->oom || !n)
		return;
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

void pms_bbuf__reserve(struct pms_bbuf *b, size_t n)
{
	bbuf_reserve(b, n);
}

void pms_bbuf__add_zero(struct pms_bbuf *b, size_t n)
{
	bbuf_reserve(b, n);
	if (b->oom || !n)
		return;
	memset(b->p + b->len, 0, n);
	b->len += n;
}

void pms_bbuf__add_u32(struct pms_bbuf *b, uint32_t v)
{
	pms_bbuf__add(b, &v, sizeof(v));
}

void pms_bbuf__add_u64(struct pms_bbuf *b, uint64_t v)
{
	pms_bbuf__add(b, &v, sizeof(v));
}

void pms_bbuf__add_pstr(struct pms_bbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + 63) & ~(size_t)63;

	pms_bbuf__add_u32(b, (uint32_t)padded);
	pms_bbuf__add(b, s, n);
	pms_bbuf__add_zero(b, padded - n);
}

void pms_bbuf__release(struct pms_bbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- struct management ---- */

static char **str_field(struct pms_data_features *f, unsigned bit)
{
	switch (bit) {
	case PMS_FEAT_HOSTNAME: return &f->hostname;
	case PMS_FEAT_OSRELEASE: return &f->osrelease;
	case PMS_FEAT_VERSION: return &f->version;
	case PMS_FEAT_ARCH: return &f->arch;
	case PMS_FEAT_CPUDESC: return &f->cpudesc;
	case PMS_FEAT_CPUID: return &f->cpuid;
	default: return NULL;
	}
}

int pms_data_features__set_str(struct pms_data_features *f, unsigned bit, const char *s)
{
	char **field = str_field(f, bit);
	char *copy;

	if (!field || !s)
		return -EINVAL;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	pms_data_features__set_bit(f, bit);
	return 0;
}

static void free_cmdline(struct pms_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_cmdline; i++)
		free(f->cmdline[i]);
	free(f->cmdline);
	f->cmdline = NULL;
	f->nr_cmdline = 0;
}

int pms_data_features__set_cmdline(struct pms_data_features *f, int argc, char *const *argv)
{
	free_cmdline(f);
	if (argc < 0)
		return -EINVAL;
	f->cmdline = calloc((size_t)argc + 1, sizeof(char *));
	if (!f->cmdline)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		f->cmdline[i] = strdup(argv[i] ? argv[i] : "");
		if (!f->cmdline[i]) {
			free_cmdline(f);
			return -ENOMEM;
		}
		f->nr_cmdline = (uint32_t)i + 1;
	}
	pms_data_features__set_bit(f, PMS_FEAT_CMDLINE);
	return 0;
}

int pms_data_features__add_build_id(struct pms_data_features *f, const char *filename,
				    const uint8_t *id, size_t size, int32_t pid, uint16_t cpumode)
{
	struct pms_data_build_id *n, *e;

	if (!filename || size > PMS_BUILD_ID_MAX || (size && !id))
		return -EINVAL;
	/* The entry's size is a u16 (and perf reads names of at most PATH_MAX). */
	if (strlen(filename) >= 4096)
		return -ENAMETOOLONG;
	n = realloc(f->build_ids, (f->nr_build_ids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->build_ids = n;
	e = &n[f->nr_build_ids];
	memset(e, 0, sizeof(*e));
	e->filename = strdup(filename);
	if (!e->filename)
		return -ENOMEM;
	if (size)
		memcpy(e->id, id, size);
	e->size = (uint8_t)size;
	e->pid = pid;
	e->cpumode = cpumode;
	f->nr_build_ids++;
	pms_data_features__set_bit(f, PMS_FEAT_BUILD_ID);
	return 0;
}

int pms_data_features__add_pmu(struct pms_data_features *f, uint32_t type, const char *name)
{
	struct pms_data_pmu_mapping *n;

	if (!name)
		return -EINVAL;
	n = realloc(f->pmu_mappings, (f->nr_pmu_mappings + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->pmu_mappings = n;
	n[f->nr_pmu_mappings].type = type;
	n[f->nr_pmu_mappings].name = strdup(name);
	if (!n[f->nr_pmu_mappings].name)
		return -ENOMEM;
	f->nr_pmu_mappings++;
	pms_data_features__set_bit(f, PMS_FEAT_PMU_MAPPINGS);
	return 0;
}

static void free_event_descs(struct pms_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_event_descs; i++) {
		free(f->event_descs[i].name);
		free(f->event_descs[i].ids);
	}
	free(f->event_descs);
	f->event_descs = NULL;
	f->nr_event_descs = 0;
}

static void free_groups(struct pms_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_group_descs; i++)
		free(f->group_descs[i].name);
	free(f->group_descs);
	f->group_descs = NULL;
	f->nr_group_descs = 0;
}

int pms_data_features__add_group(struct pms_data_features *f, const char *name, uint32_t leader_idx,
				 uint32_t nr_members)
{
	struct pms_data_group_desc *n;

	if (!name)
		return -EINVAL;
	n = realloc(f->group_descs, (f->nr_group_descs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->group_descs = n;
	n[f->nr_group_descs].name = strdup(name);
	if (!n[f->nr_group_descs].name)
		return -ENOMEM;
	n[f->nr_group_descs].leader_idx = leader_idx;
	n[f->nr_group_descs].nr_members = nr_members;
	f->nr_group_descs++;
	pms_data_features__set_bit(f, PMS_FEAT_GROUP_DESC);
	return 0;
}

const struct pms_data_raw_feature *pms_data_features__raw(const struct pms_data_features *f, unsigned bit)
{
	for (uint32_t i = 0; i < f->nr_raw; i++)
		if (f->raw[i].bit == bit)
			return &f->raw[i];
	return NULL;
}

int pms_data_features__set_raw(struct pms_data_features *f, unsigned bit, const void *bytes, size_t size)
{
	struct pms_data_raw_feature *r = (struct pms_data_raw_feature *)pms_data_features__raw(f, bit);
	uint8_t *copy;

	if (bit == 0 || bit >= PMS_FEAT_LAST || (size && !bytes) ||
	    (bit == PMS_FEAT_TRACING_DATA && size > UINT32_MAX - 8))
		return -EINVAL;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	if (size)
		memcpy(copy, bytes, size);
	if (!r) {
		struct pms_data_raw_feature *n = realloc(f->raw, (f->nr_raw + 1) * sizeof(*n));

		if (!n) {
			free(copy);
			return -ENOMEM;
		}
		f->raw = n;
		r = &n[f->nr_raw++];
		r->bit = bit;
		r->bytes = NULL;
	}
	free(r->bytes);
	r->bytes = copy;
	r->size = size;
	pms_data_features__set_bit(f, bit);
	return 0;
}

static void free_raw(struct pms_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_raw; i++)
		free(f->raw[i].bytes);
	free(f->raw);
	f->raw = NULL;
	f->nr_raw = 0;
}

static void free_pmus(struct pms_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
		free(f->pmu_mappings[i].name);
	free(f->pmu_mappings);
	f->pmu_mappings = NULL;
	f->nr_pmu_mappings = 0;
}

static void strlist_free(struct pms_data_strlist *l)
{
	for (uint32_t i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->nr = 0;
}

/* Append s unless already there. 0 or -ENOMEM. */
static int strlist_add_unique(struct pms_data_strlist *l, const char *s)
{
	char **n;

	for (uint32_t i = 0; i < l->nr; i++)
		if (!strcmp(l->s[i], s))
			return 0;
	n = realloc(l->s, (l->nr + 1) * sizeof(char *));
	if (!n)
		return -ENOMEM;
	l->s = n;
	n[l->nr] = strdup(s);
	if (!n[l->nr])
		return -ENOMEM;
	l->nr++;
	return 0;
}

static void free_topology(struct pms_data_features *f)
{
	strlist_free(&f->core_siblings);
	strlist_free(&f->thread_siblings);
	strlist_free(&f->die_siblings);
	free(f->cpus);
	f->cpus = NULL;
	f->nr_cpus = 0;
}

void pms_data_features__release(struct pms_data_features *f)
{
	if (!f)
		return;
	free_pmus(f);
	free_topology(f);
	free_groups(f);
	free_raw(f);
	free(f->hostname);
	free(f->osrelease);
	free(f->version);
	free(f->arch);
	free(f->cpudesc);
	free(f->cpuid);
	free_cmdline(f);
	free_event_descs(f);
	for (size_t i = 0; i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	memset(f, 0, sizeof(*f));
}

static const char *const feature_names[] = {
	[PMS_FEAT_TRACING_DATA] = "TRACING_DATA", [PMS_FEAT_BUILD_ID] = "BUILD_ID",
	[PMS_FEAT_HOSTNAME] = "HOSTNAME", [PMS_FEAT_OSRELEASE] = "OSRELEASE",
	[PMS_FEAT_VERSION] = "VERSION", [PMS_FEAT_ARCH] = "ARCH", [PMS_FEAT_NRCPUS] = "NRCPUS",
	[PMS_FEAT_CPUDESC] = "CPUDESC", [PMS_FEAT_CPUID] = "CPUID", [PMS_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PMS_FEAT_CMDLINE] = "CMDLINE", [PMS_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PMS_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [PMS_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PMS_FEAT_BRANCH_STACK] = "BRANCH_STACK", [PMS_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PMS_FEAT_GROUP_DESC] = "GROUP_DESC", [PMS_FEAT_AUXTRACE] = "AUXTRACE", [PMS_FEAT_STAT] = "STAT",
	[PMS_FEAT_CACHE] = "CACHE", [PMS_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PMS_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [PMS_FEAT_CLOCKID] = "CLOCKID",
	[PMS_FEAT_DIR_FORMAT] = "DIR_FORMAT", [PMS_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PMS_FEAT_BPF_BTF] = "BPF_BTF", [PMS_FEAT_COMPRESSED] = "COMPRESSED",
	[PMS_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [PMS_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PMS_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [PMS_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *pms_data_feature__name(unsigned bit)
{
	if (bit >= sizeof(feature_names) / sizeof(feature_names[0]))
		return NULL;
	return feature_names[bit];
}

/* ---- host collection ---- */

/* The value after "key<spaces>:" on the first matching line of text, or NULL. */
static char *field_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t llen = eol ? (size_t)(eol - line) : strlen(line);

		if (llen > klen && !strncmp(line, key, klen) &&
		    (line[klen] == ' ' || line[klen] == '\t' || line[klen] == ':')) {
			const char *c = memchr(line, ':', llen);

			if (c) {
				const char *v = c + 1;
				const char *end = line + llen;

				while (v < end && (*v == ' ' || *v == '\t'))
					v++;
				while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
					end--;
				return strndup(v, (size_t)(end - v));
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return NULL;
}

static int host_cpu(struct pms_data_features *f)
{
	char path[4096], buf[128];
	char *text = NULL, *v = NULL;
	int err = 0;

	if (pms_procfs__path(path, sizeof(path), "cpuinfo") == 0 &&
	    pms_file__read_all(path, &text, NULL) == 0) {
		v = field_value(text, "model name");
		if (!v)
			v = field_value(text, "Processor");
		if (!v)
			v = field_value(text, "cpu model");
		if (v)
			err = pms_data_features__set_str(f, PMS_FEAT_CPUDESC, v);
		free(v);
		free(text);
		if (err)
			return err;
	}
#if defined(__x86_64__) || defined(__i386__)
	{
		struct pms_cpuid_info info;

		if (pms_cpuid__available() && pms_cpuid__read_info(&info) == 0) {
			snprintf(buf, sizeof(buf), "%s,%u,%u,%u", info.vendor, info.family, info.model,
				 info.stepping);
			return pms_data_features__set_str(f, PMS_FEAT_CPUID, buf);
		}
	}
#else
	{
		uint64_t midr;

		if (pms_sysfs__path(path, sizeof(path),
				    "devices/system/cpu/cpu0/regs/identification/midr_el1") == 0 &&
		    pms_file__read_u64(path, &midr) == 0) {
			snprintf(buf, sizeof(buf), "0x%016" PRIx64, midr);
			return pms_data_features__set_str(f, PMS_FEAT_CPUID, buf);
		}
	}
#endif
	(void)buf;
	return 0;
}

static int host_pmus(struct pms_data_features *f)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (pms_pmu_dir__path(path, sizeof(path), "%s", ""))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char tpath[4096];
		uint64_t type;

		if (de->d_name[0] == '.' ||
		    pms_pmu_dir__path(tpath, sizeof(tpath), "%s/type", de->d_name) ||
		    pms_file__read_u64(tpath, &type) || type > UINT32_MAX)
			continue;
		err = pms_data_features__add_pmu(f, (uint32_t)type, de->d_name);
	}
	closedir(d);
	return err;
}

static int topo_str(unsigned cpu, const char *file, struct pms_data_strlist *l)
{
	char path[4096], buf[4096];

	if (pms_sysfs__path(path, sizeof(path), "devices/system/cpu/cpu%u/topology/%s", cpu, file) ||
	    pms_file__read_str(path, buf, sizeof(buf)))
		return 1;
	return strlist_add_unique(l, buf);
}

/* perf's CPU_TOPOLOGY ids: -1 where the CPU has none */
static int32_t topo_id(unsigned cpu, const char *file)
{
	int v;

	return pms_cpu_topo__read_id((int)cpu, file, &v) ? -1 : v;
}

/* As perf: sibling lists of the online CPUs, ids of every CPU up to nr_cpus_avail. */
static int host_topology(struct pms_data_features *f)
{
	int err;

	if (!f->nr_cpus_avail || f->nr_cpus_avail > 65536)
		return 0;
	f->cpus = calloc(f->nr_cpus_avail, sizeof(*f->cpus));
	if (!f->cpus)
		return -ENOMEM;
	f->nr_cpus = f->nr_cpus_avail;
	for (unsigned cpu = 0; cpu < f->nr_cpus; cpu++) {
		f->cpus[cpu].core_id = topo_id(cpu, "core_id");
		f->cpus[cpu].socket_id = topo_id(cpu, "physical_package_id");
		f->cpus[cpu].die_id = topo_id(cpu, "die_id");
		err = topo_str(cpu, "core_siblings_list", &f->core_siblings);
		if (err == 1)
			continue; /* offline */
		if (err < 0 || (err = topo_str(cpu, "thread_siblings_list", &f->thread_siblings)) < 0 ||
		    (err = topo_str(cpu, "die_cpus_list", &f->die_siblings)) < 0)
			return err;
	}
	if (f->core_siblings.nr && f->thread_siblings.nr)
		pms_data_features__set_bit(f, PMS_FEAT_CPU_TOPOLOGY);
	else
		free_topology(f);
	return 0;
}

int pms_data_features__from_host(struct pms_data_features *f, int argc, char *const *argv)
{
	struct utsname u;
	char path[4096];
	char *text = NULL, *v;
	long n;
	int err;

	if (uname(&u) == 0) {
		if ((err = pms_data_features__set_str(f, PMS_FEAT_HOSTNAME, u.nodename)) ||
		    (err = pms_data_features__set_str(f, PMS_FEAT_OSRELEASE, u.release)) ||
		    (err = pms_data_features__set_str(f, PMS_FEAT_ARCH, u.machine)))
			return err;
	}
	err = pms_data_features__set_str(f, PMS_FEAT_VERSION, "pmuscope " PMS_VERSION_STRING);
	if (err)
		return err;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0) {
		long conf = sysconf(_SC_NPROCESSORS_CONF);

		f->nr_cpus_online = (uint32_t)n;
		f->nr_cpus_avail = (uint32_t)(conf > n ? conf : n);
		pms_data_features__set_bit(f, PMS_FEAT_NRCPUS);
	}
	err = host_cpu(f);
	if (err)
		return err;
	if (pms_procfs__path(path, sizeof(path), "meminfo") == 0 &&
	    pms_file__read_all(path, &text, NULL) == 0) {
		v = field_value(text, "MemTotal");
		if (v) {
			f->total_mem_kb = strtoull(v, NULL, 10);
			if (f->total_mem_kb)
				pms_data_features__set_bit(f, PMS_FEAT_TOTAL_MEM);
		}
		free(v);
		free(text);
	}
	err = host_pmus(f);
	if (!err)
		err = host_topology(f);
	if (err)
		return err;
	if (argc > 0 && argv)
		return pms_data_features__set_cmdline(f, argc, argv);
	return 0;
}

/* ---- encoding ---- */

static void encode_build_id(const struct pms_data_build_id *b, struct pms_bbuf *out)
{
	/* struct build_id_event: header, s32 pid, u8 build_id[24], char filename[] */
	size_t name_len = strlen(b->filename) + 1;
	size_t padded = (name_len + PMS_BUILD_ID_NAME_ALIGN - 1) & ~(size_t)(PMS_BUILD_ID_NAME_ALIGN - 1);
	struct perf_event_header h = {
		.type = 0,
		.misc = (uint16_t)(b->cpumode | PMS_BUILD_ID_MISC_SIZE),
		.size = (uint16_t)(8 + 4 + 24 + padded),
	};
	uint8_t id[24] = { 0 };

	memcpy(id, b->id, b->size);
	id[20] = b->size;
	pms_bbuf__add(out, &h, sizeof(h));
	pms_bbuf__add(out, &b->pid, 4);
	pms_bbuf__add(out, id, sizeof(id));
	pms_bbuf__add(out, b->filename, name_len);
	pms_bbuf__add_zero(out, padded - name_len);
}

int pms_data_feature__encode(const struct pms_data_features *f, unsigned bit,
			     const struct pms_data_event_desc *descs, uint32_t nr_descs,
			     struct pms_bbuf *out)
{
	const struct pms_data_raw_feature *raw = pms_data_features__raw(f, bit);
	const char *s;

	if (raw) {
		pms_bbuf__add(out, raw->bytes, raw->size);
		return out->oom ? -ENOMEM : 0;
	}
	switch (bit) {
	case PMS_FEAT_HOSTNAME:
	case PMS_FEAT_OSRELEASE:
	case PMS_FEAT_VERSION:
	case PMS_FEAT_ARCH:
	case PMS_FEAT_CPUDESC:
	case PMS_FEAT_CPUID:
		s = *str_field((struct pms_data_features *)f, bit);
		pms_bbuf__add_pstr(out, s ? s : "");
		break;
	case PMS_FEAT_NRCPUS:
		pms_bbuf__add_u32(out, f->nr_cpus_avail);
		pms_bbuf__add_u32(out, f->nr_cpus_online);
		break;
	case PMS_FEAT_TOTAL_MEM:
		pms_bbuf__add_u64(out, f->total_mem_kb);
		break;
	case PMS_FEAT_CMDLINE:
		pms_bbuf__add_u32(out, f->nr_cmdline);
		for (uint32_t i = 0; i < f->nr_cmdline; i++)
			pms_bbuf__add_pstr(out, f->cmdline[i]);
		break;
	case PMS_FEAT_EVENT_DESC:
		pms_bbuf__add_u32(out, nr_descs);
		pms_bbuf__add_u32(out, (uint32_t)sizeof(struct perf_event_attr));
		for (uint32_t i = 0; i < nr_descs; i++) {
			pms_bbuf__add(out, &descs[i].attr, sizeof(descs[i].attr));
			pms_bbuf__add_u32(out, descs[i].nr_ids);
			pms_bbuf__add_pstr(out, descs[i].name ? descs[i].name : "");
			pms_bbuf__add(out, descs[i].ids, descs[i].nr_ids * sizeof(uint64_t));
		}
		break;
	case PMS_FEAT_BUILD_ID:
		for (size_t i = 0; i < f->nr_build_ids; i++)
			encode_build_id(&f->build_ids[i], out);
		break;
	case PMS_FEAT_SAMPLE_TIME:
		pms_bbuf__add_u64(out, f->sample_time_first_ns);
		pms_bbuf__add_u64(out, f->sample_time_last_ns);
		break;
	case PMS_FEAT_CLOCKID:
		pms_bbuf__add_u64(out, f->clockid_res_ns);
		break;
	case PMS_FEAT_CPU_TOPOLOGY:
		/* perf reads exactly nr_cpus_avail id pairs: pad or cut to that. */
		pms_bbuf__add_u32(out, f->core_siblings.nr);
		for (uint32_t i = 0; i < f->core_siblings.nr; i++)
			pms_bbuf__add_pstr(out, f->core_siblings.s[i]);
		pms_bbuf__add_u32(out, f->thread_siblings.nr);
		for (uint32_t i = 0; i < f->thread_siblings.nr; i++)
			pms_bbuf__add_pstr(out, f->thread_siblings.s[i]);
		for (uint32_t i = 0; i < f->nr_cpus_avail; i++) {
			pms_bbuf__add_u32(out, (uint32_t)(i < f->nr_cpus ? f->cpus[i].core_id : -1));
			pms_bbuf__add_u32(out, (uint32_t)(i < f->nr_cpus ? f->cpus[i].socket_id : -1));
		}
		if (f->die_siblings.nr) {
			pms_bbuf__add_u32(out, f->die_siblings.nr);
			for (uint32_t i = 0; i < f->die_siblings.nr; i++)
				pms_bbuf__add_pstr(out, f->die_siblings.s[i]);
			for (uint32_t i = 0; i < f->nr_cpus_avail; i++)
				pms_bbuf__add_u32(out, (uint32_t)(i < f->nr_cpus ? f->cpus[i].die_id : -1));
		}
		break;
	case PMS_FEAT_PMU_MAPPINGS:
		pms_bbuf__add_u32(out, f->nr_pmu_mappings);
		for (uint32_t i = 0; i < f->nr_pmu_mappings; i++) {
			pms_bbuf__add_u32(out, f->pmu_mappings[i].type);
			pms_bbuf__add_pstr(out, f->pmu_mappings[i].name);
		}
		break;
	case PMS_FEAT_BRANCH_STACK:
		break; /* no payload, as perf writes it */
	case PMS_FEAT_GROUP_DESC:
		pms_bbuf__add_u32(out, f->nr_group_descs);
		for (uint32_t i = 0; i < f->nr_group_descs; i++) {
			pms_bbuf__add_pstr(out, f->group_descs[i].name);
			pms_bbuf__add_u32(out, f->group_descs[i].leader_idx);
			pms_bbuf__add_u32(out, f->group_descs[i].nr_members);
		}
		break;
	case PMS_FEAT_COMPRESSED:
		pms_bbuf__add_u32(out, f->comp_version);
		pms_bbuf__add_u32(out, f->comp_type);
		pms_bbuf__add_u32(out, f->comp_level);
		pms_bbuf__add_u32(out, f->comp_ratio);
		pms_bbuf__add_u32(out, f->comp_mmap_len);
		break;
	default:
		return -ENOENT;
	}
	return out->oom ? -ENOMEM : 0;
}

/* ---- decoding (untrusted) ---- */

struct cursor {
	const uint8_t *p;
	size_t len;
	size_t pos;
	char *err;
	size_t err_size;
};

static int cur_fail(struct cursor *c, const char *what, size_t need)
{
	snprintf(c->err, c->err_size, "%s at payload offset %zu needs %zu bytes, %zu left", what,
		 c->pos, need, c->len - c->pos);
	return -EBADMSG;
}

static int cur_get(struct cursor *c, void *dst, size_t n, const char *what)
{
	if (n > c->len - c->pos)
		return cur_fail(c, what, n);
	memcpy(dst, c->p + c->pos, n);
	c->pos += n;
	return 0;
}

static int cur_pstr(struct cursor *c, char **out, const char *what)
{
	uint32_t len;
	int err = cur_get(c, &len, 4, what);

	if (err)
		return err;
	if (len > c->len - c->pos)
		return cur_fail(c, what, len);
	*out = strndup((const char *)c->p + c->pos, len);
	if (!*out)
		return -ENOMEM;
	c->pos += len;
	return 0;
}

static int cur_strlist(struct cursor *c, struct pms_data_strlist *l, const char *what)
{
	uint32_t nr;
	int err = cur_get(c, &nr, 4, what);

	if (err)
		return err;
	if (nr > (c->len - c->pos) / 4) {
		snprintf(c->err, c->err_size, "%s: %u strings in %zu bytes", what, nr, c->len - c->pos);
		return -EBADMSG;
	}
	l->s = calloc(nr ? nr : 1, sizeof(char *));
	if (!l->s)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		if ((err = cur_pstr(c, &l->s[i], what)))
			return err;
		l->nr = i + 1;
	}
	return 0;
}

static int decode_build_ids(struct pms_data_features *f, struct cursor *c)
{
	while (c->len - c->pos >= 8) {
		struct perf_event_header h;
		int32_t pid;
		uint8_t id[24];
		size_t name_len, start = c->pos;
		char *name;
		int err;

		memcpy(&h, c->p + c->pos, sizeof(h));
		if (h.size < 36 || h.size > c->len - c->pos) {
			snprintf(c->err, c->err_size,
				 "build-id entry at payload offset %zu has size %u, %zu bytes left", start,
				 h.size, c->len - c->pos);
			return -EBADMSG;
		}
		c->pos += 8;
		memcpy(&pid, c->p + c->pos, 4);
		memcpy(id, c->p + c->pos + 4, 24);
		c->pos += 28;
		name_len = strnlen((const char *)c->p + c->pos, h.size - 36u);
		name = strndup((const char *)c->p + c->pos, name_len);
		if (!name)
			return -ENOMEM;
		c->pos = start + h.size;
		err = pms_data_features__add_build_id(
			f, name, id, (h.misc & PMS_BUILD_ID_MISC_SIZE) && id[20] <= 20 ? id[20] : 20, pid,
			h.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		free(name);
		if (err)
			return err;
	}
	return 0;
}

static int decode_event_desc(struct pms_data_features *f, struct cursor *c)
{
	uint32_t nr, attr_size;
	int err;

	free_event_descs(f); /* a pipe may carry the feature twice: the last one holds */
	if ((err = cur_get(c, &nr, 4, "EVENT_DESC count")) ||
	    (err = cur_get(c, &attr_size, 4, "EVENT_DESC attr size")))
		return err;
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > 4096) {
		snprintf(c->err, c->err_size, "EVENT_DESC attr size %u is not plausible", attr_size);
		return -EBADMSG;
	}
	/* Each entry needs at least attr + nr_ids + an empty string. */
	if (nr > (c->len - c->pos) / (attr_size + 8)) {
		snprintf(c->err, c->err_size, "EVENT_DESC claims %u events in %zu bytes", nr,
			 c->len - c->pos);
		return -EBADMSG;
	}
	f->event_descs = calloc(nr ? nr : 1, sizeof(*f->event_descs));
	if (!f->event_descs)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		struct pms_data_event_desc *d = &f->event_descs[i];
		size_t copy = attr_size < sizeof(d->attr) ? attr_size : sizeof(d->attr);

		if (attr_size > c->len - c->pos)
			return cur_fail(c, "EVENT_DESC attr", attr_size);
		memcpy(&d->attr, c->p + c->pos, copy);
		c->pos += attr_size;
		f->nr_event_descs = i + 1;
		if ((err = cur_get(c, &d->nr_ids, 4, "EVENT_DESC nr_ids")) ||
		    (err = cur_pstr(c, &d->name, "EVENT_DESC name")))
			return err;
		if (d->nr_ids > (c->len - c->pos) / 8) {
			size_t need = (size_t)d->nr_ids * 8;

			d->nr_ids = 0;
			return cur_fail(c, "EVENT_DESC ids", need);
		}
		if (d->nr_ids) {
			d->ids = malloc((size_t)d->nr_ids * 8);
			if (!d->ids) {
				d->nr_ids = 0;
				return -ENOMEM;
			}
			memcpy(d->ids, c->p + c->pos, (size_t)d->nr_ids * 8);
			c->pos += (size_t)d->nr_ids * 8;
		}
	}
	return 0;
}

/* u32 nr_groups, then per group: string name, u32 leader_idx, u32 nr_members (perf's write_group_desc). */
static int decode_group_desc(struct pms_data_features *f, struct cursor *c)
{
	uint32_t nr;
	int err;

	free_groups(f);
	if ((err = cur_get(c, &nr, 4, "GROUP_DESC count")))
		return err;
	/* each group needs at least a string length and two u32s */
	if (nr > (c->len - c->pos) / 12) {
		snprintf(c->err, c->err_size, "GROUP_DESC claims %u groups in %zu bytes", nr, c->len - c->pos);
		return -EBADMSG;
	}
	f->group_descs = calloc(nr ? nr : 1, sizeof(*f->group_descs));
	if (!f->group_descs)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		struct pms_data_group_desc *g = &f->group_descs[i];

		f->nr_group_descs = i + 1;
		if ((err = cur_pstr(c, &g->name, "GROUP_DESC name")) ||
		    (err = cur_get(c, &g->leader_idx, 4, "GROUP_DESC leader")) ||
		    (err = cur_get(c, &g->nr_members, 4, "GROUP_DESC members")))
			return err;
	}
	return 0;
}

int pms_data_feature__decode(struct pms_data_features *f, unsigned bit, const uint8_t *p,
			     size_t len, char *err_msg, size_t err_size)
{
	struct cursor c = { .p = p, .len = len, .err = err_msg, .err_size = err_size };
	char **field = str_field(f, bit);
	char *s = NULL;
	uint32_t nr;
	int err = 0;

	switch (bit) {
	case PMS_FEAT_HOSTNAME:
	case PMS_FEAT_OSRELEASE:
	case PMS_FEAT_VERSION:
	case PMS_FEAT_ARCH:
	case PMS_FEAT_CPUDESC:
	case PMS_FEAT_CPUID:
		err = cur_pstr(&c, &s, pms_data_feature__name(bit));
		if (err)
			return err;
		free(*field);
		*field = s;
		break;
	case PMS_FEAT_NRCPUS:
		if ((err = cur_get(&c, &f->nr_cpus_avail, 4, "NRCPUS")) ||
		    (err = cur_get(&c, &f->nr_cpus_online, 4, "NRCPUS")))
			return err;
		break;
	case PMS_FEAT_TOTAL_MEM:
		err = cur_get(&c, &f->total_mem_kb, 8, "TOTAL_MEM");
		break;
	case PMS_FEAT_CMDLINE:
		free_cmdline(f);
		if ((err = cur_get(&c, &nr, 4, "CMDLINE count")))
			return err;
		if (nr > (len - c.pos) / 4) {
			snprintf(err_msg, err_size, "CMDLINE claims %u strings in %zu bytes", nr, len - c.pos);
			return -EBADMSG;
		}
		f->cmdline = calloc((size_t)nr + 1, sizeof(char *));
		if (!f->cmdline)
			return -ENOMEM;
		for (uint32_t i = 0; i < nr; i++) {
			if ((err = cur_pstr(&c, &f->cmdline[i], "CMDLINE string")))
				return err;
			f->nr_cmdline = i + 1;
		}
		break;
	case PMS_FEAT_EVENT_DESC:
		err = decode_event_desc(f, &c);
		break;
	case PMS_FEAT_BUILD_ID:
		err = decode_build_ids(f, &c);
		break;
	case PMS_FEAT_SAMPLE_TIME:
		if ((err = cur_get(&c, &f->sample_time_first_ns, 8, "SAMPLE_TIME")) ||
		    (err = cur_get(&c, &f->sample_time_last_ns, 8, "SAMPLE_TIME")))
			return err;
		break;
	case PMS_FEAT_CLOCKID:
		err = cur_get(&c, &f->clockid_res_ns, 8, "CLOCKID");
		break;
	case PMS_FEAT_CPU_TOPOLOGY:
		free_topology(f);
		if ((err = cur_strlist(&c, &f->core_siblings, "CPU_TOPOLOGY core siblings")) ||
		    (err = cur_strlist(&c, &f->thread_siblings, "CPU_TOPOLOGY thread siblings")))
			return err;
		/* Older perf stops here; the ids need NRCPUS, which comes first. */
		if (c.pos == len || !f->nr_cpus_avail)
			break;
		if (f->nr_cpus_avail > (len - c.pos) / 8) {
			snprintf(err_msg, err_size, "CPU_TOPOLOGY has no room for %u CPUs' ids", f->nr_cpus_avail);
			return -EBADMSG;
		}
		f->cpus = calloc(f->nr_cpus_avail, sizeof(*f->cpus));
		if (!f->cpus)
			return -ENOMEM;
		f->nr_cpus = f->nr_cpus_avail;
		for (uint32_t i = 0; i < f->nr_cpus; i++) {
			cur_get(&c, &f->cpus[i].core_id, 4, "core id");
			cur_get(&c, &f->cpus[i].socket_id, 4, "socket id");
			f->cpus[i].die_id = -1;
		}
		if (c.pos == len)
			break;
		if ((err = cur_strlist(&c, &f->die_siblings, "CPU_TOPOLOGY die siblings")))
			return err;
		if (f->nr_cpus > (len - c.pos) / 4)
			break;
		for (uint32_t i = 0; i < f->nr_cpus; i++)
			cur_get(&c, &f->cpus[i].die_id, 4, "die id");
		break;
	case PMS_FEAT_PMU_MAPPINGS:
		free_pmus(f);
		if ((err = cur_get(&c, &nr, 4, "PMU_MAPPINGS count")))
			return err;
		if (nr > (len - c.pos) / 8) {
			snprintf(err_msg, err_size, "PMU_MAPPINGS claims %u PMUs in %zu bytes", nr, len - c.pos);
			return -EBADMSG;
		}
		f->pmu_mappings = calloc(nr ? nr : 1, sizeof(*f->pmu_mappings));
		if (!f->pmu_mappings)
			return -ENOMEM;
		for (uint32_t i = 0; i < nr; i++) {
			struct pms_data_pmu_mapping *m = &f->pmu_mappings[i];

			if ((err = cur_get(&c, &m->type, 4, "PMU_MAPPINGS type")) ||
			    (err = cur_pstr(&c, &m->name, "PMU_MAPPINGS name")))
				return err;
			f->nr_pmu_mappings = i + 1;
		}
		break;
	case PMS_FEAT_BRANCH_STACK:
		break; /* perf writes no payload: the bit is the information */
	case PMS_FEAT_GROUP_DESC:
		err = decode_group_desc(f, &c);
		if (err)
			free_groups(f); /* all or nothing: no half list without its bit */
		break;
	case PMS_FEAT_COMPRESSED:
		if ((err = cur_get(&c, &f->comp_version, 4, "COMPRESSED")) ||
		    (err = cur_get(&c, &f->comp_type, 4, "COMPRESSED")) ||
		    (err = cur_get(&c, &f->comp_level, 4, "COMPRESSED")) ||
		    (err = cur_get(&c, &f->comp_ratio, 4, "COMPRESSED")) ||
		    (err = cur_get(&c, &f->comp_mmap_len, 4, "COMPRESSED")))
			return err;
		break;
	default:
		return -ENOENT;
	}
	if (!err)
		pms_data_features__set_bit(f, bit);
	return err;
}
