// SPDX-License-Identifier: MIT
// CPUID queries (real instruction on x86, fixture file anywhere) and decoding of the PMU leaves.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuid.h"

static int cpuid_from_file(const char *path, uint32_t leaf, uint32_t subleaf,
			   struct pms_cpuid_regs *out)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		unsigned long v[6];
		char *p = line, *end;
		int n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		for (n = 0; n < 6; n++) {
			errno = 0;
			v[n] = strtoul(p, &end, 16);
			if (end == p || errno || v[n] > 0xffffffffUL)
				break;
			p = end;
		}
		if (n != 6) {
			err = -EINVAL;
			break;
		}
		if (v[0] == leaf && v[1] == subleaf) {
			out->eax = (uint32_t)v[2];
			out->ebx = (uint32_t)v[3];
			out->ecx = (uint32_t)v[4];
			out->edx = (uint32_t)v[5];
			break;
		}
	}
	fclose(f);
	return err;
}

#if defined(__x86_64__) || defined(__i386__)
static int cpuid_native(uint32_t leaf, uint32_t subleaf, struct pms_cpuid_regs *out)
{
	uint32_t a, b, c, d;

	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(subleaf));
	out->eax = a;
	out->ebx = b;
	out->ecx = c;
	out->edx = d;
	return 0;
}
#else
static int cpuid_native(uint32_t leaf, uint32_t subleaf, struct pms_cpuid_regs *out)
{
	(void)leaf;
	(void)subleaf;
	memset(out, 0, sizeof(*out));
	return -EOPNOTSUPP;
}
#endif

static const char *cpuid_file(void)
{
	const char *f = getenv("PMS_CPUID_FILE");

	return f && *f ? f : NULL;
}

int pms_cpuid(uint32_t leaf, uint32_t subleaf, struct pms_cpuid_regs *out)
{
	const char *file = cpuid_file();

	if (file && !strcmp(file, "none")) {
		memset(out, 0, sizeof(*out));
		return -EOPNOTSUPP;
	}
	if (file)
		return cpuid_from_file(file, leaf, subleaf, out);
	return cpuid_native(leaf, subleaf, out);
}

bool pms_cpuid__available(void)
{
	const char *file = cpuid_file();

	if (file)
		return strcmp(file, "none") != 0;
#if defined(__x86_64__) || defined(__i386__)
	return true;
#else
	return false;
#endif
}

static void regs_to_string(char out[13], uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
	/* hypervisor signatures may be NUL-padded or contain junk: keep it printable */
	for (int i = 0; i < 12 && out[i]; i++)
		if (out[i] < 0x20 || out[i] > 0x7e)
			out[i] = '?';
}

void pms_cpuid__decode_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping)
{
	unsigned fam = (eax >> 8) & 0xf, mod = (eax >> 4) & 0xf;

	/* SDM/APM rule: extended family only when base family is 0xF; extended
	 * model for families 6 and 0xF */
	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		mod |= ((eax >> 16) & 0xf) << 4;
	*family = fam;
	*model = mod;
	*stepping = eax & 0xf;
}

void pms_cpuid__decode_0a(const struct pms_cpuid_regs *r, struct pms_cpuid_arch_perfmon *out)
{
	memset(out, 0, sizeof(*out));
	out->version = r->eax & 0xff;
	out->nr_gp = (r->eax >> 8) & 0xff;
	out->gp_width = (r->eax >> 16) & 0xff;
	out->ebx_length = (r->eax >> 24) & 0xff;
	out->ebx = r->ebx;
	if (out->version > 1) {
		out->nr_fixed = r->edx & 0x1f;
		out->fixed_width = (r->edx >> 5) & 0xff;
	}
	if (out->version >= 5)
		out->fixed_bitmap = r->ecx;
	out->anythread_deprecated = (r->edx >> 15) & 1;
}

bool pms_cpuid__arch_event_available(const struct pms_cpuid_arch_perfmon *a, unsigned i)
{
	if (i >= 32 || i >= a->ebx_length)
		return false;
	return !(a->ebx & (1u << i));
}

bool pms_cpuid__fixed_counter_supported(const struct pms_cpuid_arch_perfmon *a, unsigned i)
{
	if (i < a->nr_fixed)
		return true;
	return a->version >= 5 && i < 32 && (a->fixed_bitmap & (1u << i));
}

int pms_cpuid__read_info(struct pms_cpuid_info *info)
{
	struct pms_cpuid_regs r;
	int err;

	memset(info, 0, sizeof(*info));
	err = pms_cpuid(0, 0, &r);
	if (err)
		return err;
	info->max_leaf = r.eax;
	regs_to_string(info->vendor, r.ebx, r.edx, r.ecx);
	info->is_amd = !strcmp(info->vendor, "AuthenticAMD") || !strcmp(info->vendor, "HygonGenuine");

	if (info->max_leaf >= 1) {
		err = pms_cpuid(1, 0, &r);
		if (err)
			return err;
		pms_cpuid__decode_signature(r.eax, &info->family, &info->model, &info->stepping);
		info->hypervisor = (r.ecx >> 31) & 1;
		info->pdcm = (r.ecx >> 15) & 1;
	}
	if (info->hypervisor) {
		err = pms_cpuid(0x40000000, 0, &r);
		if (err)
			return err;
		regs_to_string(info->hv_vendor, r.ebx, r.ecx, r.edx);
	}
	if (!strcmp(info->vendor, "GenuineIntel") && info->max_leaf >= 0xa) {
		err = pms_cpuid(0xa, 0, &r);
		if (err)
			return err;
		pms_cpuid__decode_0a(&r, &info->arch);
		info->has_arch_perfmon = info->arch.version != 0;
	}

	err = pms_cpuid(0x80000000, 0, &r);
	if (err)
		return err;
	info->max_ext_leaf = r.eax >= 0x80000000 ? r.eax : 0;
	if (info->max_ext_leaf >= 0x80000001) {
		err = pms_cpuid(0x80000001, 0, &r);
		if (err)
			return err;
		info->ext1_ecx = r.ecx;
		if (info->is_amd) {
			info->amd.perfctr_core = (r.ecx >> 23) & 1;
			info->amd.perfctr_nb = (r.ecx >> 24) & 1;
			info->amd.perf_tsc = (r.ecx >> 27) & 1;
			info->amd.perfctr_llc = (r.ecx >> 28) & 1;
		}
	}
	if (info->is_amd && info->max_ext_leaf >= 0x80000022) {
		err = pms_cpuid(0x80000022, 0, &r);
		if (err)
			return err;
		info->amd.has_leaf_22 = true;
		info->amd.perfmon_v2 = r.eax & 1;
		info->amd.lbr_v2 = (r.eax >> 1) & 1;
		info->amd.lbr_pmc_freeze = (r.eax >> 2) & 1;
		info->amd.nr_core = r.ebx & 0xf;
		info->amd.lbr_v2_stack = (r.ebx >> 4) & 0x3f;
		info->amd.nr_df = (r.ebx >> 10) & 0x3f;
		info->amd.nr_umc = (r.ebx >> 16) & 0x3f;
		info->amd.active_umc = r.ecx;
	}
	return 0;
}
