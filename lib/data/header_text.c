// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "data/features.h"
#include "data/format.h"
#include "data/header_text.h"
#include "event/attr_print.h"

/* perf 6.1's HEADER_LAST_FEATURE: the features its "missing features" line can name. */
#define PERF_6_1_NR_FEATURES (PMS_FEAT_PMU_CAPS + 1)

/* perf's "# event : name = X, , id = { 1, 2 }, type = 1, ...": its -vv attr lines joined. */
static void event_line(struct pms_data_reader *r, size_t idx, struct strbuf *out)
{
	const char *name = pms_data_reader__attr_name(r, idx);
	struct strbuf attr = STRBUF_INIT;
	const uint64_t *ids;
	const char *p;
	size_t nr = 0;

	strbuf_addf(out, "# event : name = %s, ", name ? name : "");
	ids = pms_data_reader__attr_ids(r, idx, &nr);
	if (nr) {
		strbuf_adds(out, ", id = {");
		for (size_t i = 0; i < nr; i++)
			strbuf_addf(out, "%s %" PRIu64, i ? "," : "", ids[i]);
		strbuf_adds(out, " }");
	}
	pms_attr__format(pms_data_reader__attr(r, idx), &attr);
	/* after a "perf_event_attr:" line, "  <field padded to 32> <value>" per field */
	p = strchr(strbuf_str(&attr), '\n');
	while (p && p[1]) {
		const char *line = p + 1, *eol = strchr(line, '\n'), *key_end, *v;
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		while (len && *line == ' ')
			line++, len--;
		/* the key may hold single spaces ("{ sample_period, sample_freq }"), never two */
		v = memmem(line, len, "  ", 2);
		if (v) {
			key_end = v;
			while ((size_t)(v - line) < len && *v == ' ')
				v++;
			strbuf_addf(out, ", %.*s = %.*s", (int)(key_end - line), line, (int)(len - (size_t)(v - line)),
				    v);
		}
		p = eol;
	}
	strbuf_addch(out, '\n');
	strbuf_release(&attr);
}

static void group_lines(struct pms_data_reader *r, const struct pms_data_features *f, struct strbuf *out)
{
	size_t nr_attrs = pms_data_reader__nr_attrs(r);

	/* a group of two events or more, where it fits the file's attrs */
	for (uint32_t i = 0; i < f->nr_group_descs; i++) {
		const struct pms_data_group_desc *d = &f->group_descs[i];

		if (d->nr_members < 2 || d->leader_idx >= nr_attrs || d->nr_members > nr_attrs - d->leader_idx)
			continue;
		strbuf_addf(out, "# group: %s{", strcmp(d->name, "{anon_group}") ? d->name : "");
		for (uint32_t m = 0; m < d->nr_members; m++) {
			const char *name = pms_data_reader__attr_name(r, d->leader_idx + m);

			strbuf_addf(out, "%s%s", m ? "," : "", name ? name : "?");
		}
		strbuf_adds(out, "}\n");
	}
}

/* A feature perf has but could not read prints as glibc prints a NULL string. */
static const char *str(const char *s)
{
	return s ? s : "(null)";
}

/* perf's do_read_string: u32 length, then that many bytes, NUL-padded. */
static bool read_string(const uint8_t **p, const uint8_t *end, const char **s, size_t *len)
{
	uint32_t n;

	if ((size_t)(end - *p) < 4)
		return false;
	memcpy(&n, *p, 4);
	*p += 4;
	if ((size_t)(end - *p) < n)
		return false;
	*s = (const char *)*p;
	*len = strnlen(*s, n);
	*p += n;
	return true;
}

/* One PMU's "name=value" capabilities as perf lists them; false when the bytes run out. */
static bool caps_line(const uint8_t **p, const uint8_t *end, bool named, const char *pmu, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	const char *s, *name = pmu;
	size_t len, name_len = strlen(pmu);
	uint32_t nr;

	if ((size_t)(end - *p) < 4)
		return false;
	memcpy(&nr, *p, 4);
	*p += 4;
	for (uint32_t i = 0; i < nr; i++) {
		const char *v;
		size_t vlen;

		if (!read_string(p, end, &s, &len) || !read_string(p, end, &v, &vlen)) {
			strbuf_release(&line);
			return false;
		}
		strbuf_addf(&line, "%s%.*s=%.*s", i ? ", " : "", (int)len, s, (int)vlen, v);
	}
	if (named && !read_string(p, end, &name, &name_len)) {
		strbuf_release(&line);
		return false;
	}
	if (nr)
		strbuf_addf(out, "# %.*s pmu capabilities: %s\n", (int)name_len, name, strbuf_str(&line));
	else
		strbuf_addf(out, "# %.*s pmu capabilities: not available\n", (int)name_len, name);
	strbuf_release(&line);
	return true;
}

/* CPU_PMU_CAPS (the core PMU's) and PMU_CAPS (every other PMU's, each followed by its name). */
static void pmu_caps(struct pms_data_reader *r, unsigned bit, struct strbuf *out)
{
	const void *raw;
	const uint8_t *p, *end;
	size_t size;
	uint32_t nr_pmus = 1;

	if (pms_data_reader__feature_raw(r, bit, &raw, &size))
		return;
	p = raw;
	end = p + size;
	if (bit == PMS_FEAT_PMU_CAPS) {
		if (size < 4)
			return;
		memcpy(&nr_pmus, p, 4);
		p += 4;
	}
	for (uint32_t i = 0; i < nr_pmus; i++)
		if (!caps_line(&p, end, bit == PMS_FEAT_PMU_CAPS, "cpu", out))
			return;
}

static void seconds_usec(struct strbuf *out, const char *what, uint64_t ns)
{
	strbuf_addf(out, "# %s : %" PRIu64 ".%06" PRIu64 "\n", what, ns / 1000000000, ns % 1000000000 / 1000);
}

void pms_data_header__text(struct pms_data_reader *r, const char *path, struct strbuf *out)
{
	const struct pms_data_features *f = pms_data_reader__features(r);
	bool pipe = pms_data_reader__is_pipe(r);
	uint64_t off, size;
	struct stat st;

	pms_data_reader__data_section(r, &off, &size);
	strbuf_adds(out, "# ========\n");
	if (path && strcmp(path, "-") && !stat(path, &st)) {
		char when[64];
		struct tm tm;

		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime_r(&st.st_mtime, &tm));
		strbuf_addf(out, "# captured on    : %s\n", when);
	}
	if (pipe) /* perf knows no sections of a stream: zeros, and the features follow as they arrive */
		off = size = 0;
	strbuf_addf(out, "# header version : 1\n# data offset    : %" PRIu64 "\n# data size      : %" PRIu64
		    "\n# feat offset    : %" PRIu64 "\n", off, size, off + size);
	if (pipe)
		strbuf_adds(out, "# ========\n#\n");
	for (unsigned bit = 1; bit < PERF_6_1_NR_FEATURES; bit++) {
		if (!pms_data_reader__has_feature(r, bit))
			continue;
		switch (bit) {
		case PMS_FEAT_HOSTNAME:
			strbuf_addf(out, "# hostname : %s\n", str(f->hostname));
			break;
		case PMS_FEAT_OSRELEASE:
			strbuf_addf(out, "# os release : %s\n", str(f->osrelease));
			break;
		case PMS_FEAT_VERSION:
			strbuf_addf(out, "# perf version : %s\n", str(f->version));
			break;
		case PMS_FEAT_ARCH:
			strbuf_addf(out, "# arch : %s\n", str(f->arch));
			break;
		case PMS_FEAT_NRCPUS:
			strbuf_addf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", f->nr_cpus_online, f->nr_cpus_avail);
			break;
		case PMS_FEAT_CPUDESC:
			strbuf_addf(out, "# cpudesc : %s\n", str(f->cpudesc));
			break;
		case PMS_FEAT_CPUID:
			strbuf_addf(out, "# cpuid : %s\n", str(f->cpuid));
			break;
		case PMS_FEAT_TOTAL_MEM:
			strbuf_addf(out, "# total memory : %" PRIu64 " kB\n", f->total_mem_kb);
			break;
		case PMS_FEAT_CMDLINE:
			strbuf_adds(out, "# cmdline : ");
			for (uint32_t i = 0; i < f->nr_cmdline; i++)
				strbuf_addf(out, "%s ", f->cmdline[i]);
			strbuf_addch(out, '\n');
			break;
		case PMS_FEAT_EVENT_DESC:
			for (size_t i = 0; i < pms_data_reader__nr_attrs(r); i++)
				event_line(r, i, out);
			break;
		case PMS_FEAT_CPU_TOPOLOGY:
		case PMS_FEAT_NUMA_TOPOLOGY:
		case PMS_FEAT_CACHE:
		case PMS_FEAT_MEM_TOPOLOGY:
		case PMS_FEAT_HYBRID_TOPOLOGY:
			/* perf shows these with -I only */
			strbuf_addf(out, "# %s info available, use -I to display\n", pms_data_feature__name(bit));
			break;
		case PMS_FEAT_BRANCH_STACK:
			strbuf_adds(out, "# contains samples with branch stack\n");
			break;
		case PMS_FEAT_PMU_MAPPINGS:
			if (!f->nr_pmu_mappings) {
				strbuf_adds(out, "# pmu mappings: not available\n");
				break;
			}
			strbuf_adds(out, "# pmu mappings:");
			for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
				strbuf_addf(out, "%s %s = %u", i ? "," : "", f->pmu_mappings[i].name, f->pmu_mappings[i].type);
			strbuf_addch(out, '\n');
			break;
		case PMS_FEAT_GROUP_DESC:
			group_lines(r, f, out);
			break;
		case PMS_FEAT_AUXTRACE:
			strbuf_adds(out, "# contains AUX area data (e.g. instruction trace)\n");
			break;
		case PMS_FEAT_STAT:
			strbuf_adds(out, "# contains stat data\n");
			break;
		case PMS_FEAT_SAMPLE_TIME:
			seconds_usec(out, "time of first sample", f->sample_time_first_ns);
			seconds_usec(out, "time of last sample", f->sample_time_last_ns);
			strbuf_addf(out, "# sample duration : %10.3f ms\n",
				    f->sample_time_last_ns >= f->sample_time_first_ns
					    ? (double)(f->sample_time_last_ns - f->sample_time_first_ns) / 1e6 : 0.0);
			break;
		case PMS_FEAT_CLOCKID:
			strbuf_addf(out, "# clockid frequency: %" PRIu64 " MHz\n", f->clockid_res_ns * 1000);
			break;
		case PMS_FEAT_COMPRESSED:
			strbuf_addf(out, "# compressed : %s, level = %u, ratio = %u\n", f->comp_type == 1 ? "Zstd" : "Unknown",
				    f->comp_level, f->comp_ratio);
			break;
		case PMS_FEAT_CPU_PMU_CAPS:
		case PMS_FEAT_PMU_CAPS:
			pmu_caps(r, bit, out);
			break;
		default:
			break;
		}
	}
	/* a stream has no feature section to miss anything from */
	if (pipe)
		return;
	strbuf_adds(out, "# missing features: ");
	for (unsigned bit = 1; bit < PERF_6_1_NR_FEATURES; bit++)
		if (!pms_data_reader__has_feature(r, bit))
			strbuf_addf(out, "%s ", pms_data_feature__name(bit));
	strbuf_addch(out, '\n');
	strbuf_adds(out, "# ========\n#\n");
}
