// SPDX-License-Identifier: MIT
// Unit tests of lib/event/vendor: the kernel's generic/hw-cache maps per vendor and raw decoders.
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/vendor.h"

static uint64_t generic(enum pms_uarch u, unsigned id)
{
	struct pms_vendor_event ev;

	cr_assert_eq(pms_vendor__generic(u, id, &ev), 0);
	return ev.status ? 0 : ev.config;
}

static uint64_t cache(enum pms_uarch u, unsigned c, unsigned op, unsigned res, int *status)
{
	struct pms_vendor_event ev;

	cr_assert_eq(pms_vendor__cache(u, c, op, res, &ev), 0);
	*status = ev.status;
	return ev.config;
}

/* events-and-pmu.md §6.3, column by column */
Test(vendor_generic, intel_architectural_map)
{
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_CPU_CYCLES), 0x003c);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_INSTRUCTIONS), 0x00c0);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_REFERENCES), 0x4f2e);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_MISSES), 0x412e);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_BRANCH_INSTRUCTIONS), 0x00c4);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_BRANCH_MISSES), 0x00c5);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_BUS_CYCLES), 0x013c);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_REF_CPU_CYCLES), 0x0300);
	cr_assert_eq(generic(PMS_UARCH_INTEL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND), 0);
}

Test(vendor_generic, amd_maps_by_generation)
{
	cr_assert_eq(generic(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_CACHE_REFERENCES), 0x077d);
	cr_assert_eq(generic(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_CACHE_MISSES), 0x077e);
	cr_assert_eq(generic(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND), 0x00d0);
	cr_assert_eq(generic(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_STALLED_CYCLES_BACKEND), 0x00d1);
	cr_assert_eq(generic(PMS_UARCH_ZEN1, PERF_COUNT_HW_CACHE_REFERENCES), 0xff60);
	cr_assert_eq(generic(PMS_UARCH_ZEN1, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND), 0x0287);
	cr_assert_eq(generic(PMS_UARCH_ZEN1, PERF_COUNT_HW_STALLED_CYCLES_BACKEND), 0x0187);
	cr_assert_eq(generic(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_MISSES), 0x0964);
	cr_assert_eq(generic(PMS_UARCH_ZEN2, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND), 0x00a9);
	cr_assert_eq(generic(PMS_UARCH_ZEN2, PERF_COUNT_HW_STALLED_CYCLES_BACKEND), 0);
	cr_assert_eq(generic(PMS_UARCH_ZEN4, PERF_COUNT_HW_REF_CPU_CYCLES), 0x100000120ULL);
	cr_assert_eq(generic(PMS_UARCH_ZEN2, PERF_COUNT_HW_REF_CPU_CYCLES), 0);
	for (enum pms_uarch u = PMS_UARCH_AMD_LEGACY; u <= PMS_UARCH_ZEN4; u++) {
		cr_assert_eq(generic(u, PERF_COUNT_HW_CPU_CYCLES), 0x0076);
		cr_assert_eq(generic(u, PERF_COUNT_HW_INSTRUCTIONS), 0x00c0);
		cr_assert_eq(generic(u, PERF_COUNT_HW_BRANCH_INSTRUCTIONS), 0x00c2);
		cr_assert_eq(generic(u, PERF_COUNT_HW_BRANCH_MISSES), 0x00c3);
		cr_assert_eq(generic(u, PERF_COUNT_HW_BUS_CYCLES), 0);
	}
}

Test(vendor_generic, armv8_map)
{
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_CPU_CYCLES), 0x11);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_INSTRUCTIONS), 0x08);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_REFERENCES), 0x04);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_MISSES), 0x03);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_BRANCH_INSTRUCTIONS), 0x21);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_BRANCH_MISSES), 0x10);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_BUS_CYCLES), 0x1d);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND), 0x23);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_STALLED_CYCLES_BACKEND), 0x24);
	cr_assert_eq(generic(PMS_UARCH_ARMV8, PERF_COUNT_HW_REF_CPU_CYCLES), 0);
}

Test(vendor_generic, out_of_range_and_unknown_uarch)
{
	struct pms_vendor_event ev;

	cr_assert_eq(pms_vendor__generic(PMS_UARCH_INTEL, 10, &ev), -EINVAL);
	cr_assert_eq(pms_vendor__generic(PMS_UARCH_NONE, 0, &ev), 0);
	cr_assert_eq(ev.status, -ENOENT);
	cr_assert_eq(pms_vendor__cache(PMS_UARCH_INTEL, 7, 0, 0, &ev), -EINVAL);
	cr_assert_eq(pms_vendor__cache(PMS_UARCH_INTEL, 0, 3, 0, &ev), -EINVAL);
	cr_assert_eq(pms_vendor__cache(PMS_UARCH_INTEL, 0, 0, 2, &ev), -EINVAL);
}

Test(vendor_cache, skylake_table)
{
	int st;

	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1D, 0, 0, &st), 0x81d0);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1D, 0, 1, &st), 0x151);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1D, 1, 0, &st), 0x82d0);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1I, 0, 1, &st), 0x283);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_LL, 0, 1, &st), 0x1b7);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_DTLB, 0, 1, &st), 0xe08);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_DTLB, 1, 1, &st), 0xe49);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_ITLB, 0, 0, &st), 0x2085);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_ITLB, 0, 1, &st), 0xe85);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_BPU, 0, 0, &st), 0xc4);
	cr_assert_eq(cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_BPU, 0, 1, &st), 0xc5);
	cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1I, 1, 0, &st);
	cr_assert_eq(st, -EINVAL); /* kernel -1 */
	cache(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_L1I, 0, 0, &st);
	cr_assert_eq(st, -ENOENT); /* kernel 0 */
}

Test(vendor_cache, amd_and_arm_tables)
{
	int st;

	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_L1D, 0, 0, &st), 0x0040);
	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_L1D, 0, 1, &st), 0xc860);
	cr_assert_eq(cache(PMS_UARCH_ZEN1, PERF_COUNT_HW_CACHE_L1D, 2, 0, &st), 0xff5a);
	cr_assert_eq(cache(PMS_UARCH_ZEN4, PERF_COUNT_HW_CACHE_L1I, 0, 0, &st), 0x0080);
	cr_assert_eq(cache(PMS_UARCH_ZEN4, PERF_COUNT_HW_CACHE_L1I, 0, 1, &st), 0x0081);
	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_DTLB, 0, 0, &st), 0xff45);
	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_DTLB, 0, 1, &st), 0xf045);
	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_ITLB, 0, 0, &st), 0x0084);
	cr_assert_eq(cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_ITLB, 0, 1, &st), 0xff85);
	cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_LL, 0, 1, &st);
	cr_assert_eq(st, -ENOENT); /* LL unsupported on Zen */
	cache(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_NODE, 0, 0, &st);
	cr_assert_eq(st, -ENOENT);
	cr_assert_eq(cache(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_CACHE_L1D, 0, 1, &st), 0x0141);
	cr_assert_eq(cache(PMS_UARCH_AMD_LEGACY, PERF_COUNT_HW_CACHE_NODE, 0, 0, &st), 0xb8e9);

	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_L1D, 0, 0, &st), 0x04);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_L1D, 0, 1, &st), 0x03);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_L1I, 0, 0, &st), 0x14);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_L1I, 0, 1, &st), 0x01);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_DTLB, 0, 0, &st), 0x25);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_DTLB, 0, 1, &st), 0x05);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_ITLB, 0, 0, &st), 0x26);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_ITLB, 0, 1, &st), 0x02);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_LL, 0, 0, &st), 0x36);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_LL, 0, 1, &st), 0x37);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_BPU, 0, 0, &st), 0x12);
	cr_assert_eq(cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_BPU, 0, 1, &st), 0x10);
	cache(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_L1D, 1, 0, &st);
	cr_assert_eq(st, -ENOENT); /* writes unsupported in current kernels */
}

Test(vendor_select, uarch_from_family_model)
{
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x15, 0x02), PMS_UARCH_AMD_LEGACY);
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x17, 0x01), PMS_UARCH_ZEN1);
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x17, 0x31), PMS_UARCH_ZEN2);
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x19, 0x01), PMS_UARCH_ZEN2); /* Milan */
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x19, 0x11), PMS_UARCH_ZEN4); /* Genoa */
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_AMD, 0x1a, 0x02), PMS_UARCH_ZEN4); /* Zen5 */
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_INTEL, 6, 0x5e), PMS_UARCH_INTEL);
	cr_assert_eq(pms_uarch__for_cpu(PMS_VENDOR_UNKNOWN, 6, 0x5e), PMS_UARCH_NONE);
}

Test(vendor_select, parse_names)
{
	enum pms_uarch u;

	cr_assert_eq(pms_uarch__parse("intel", &u), 0);
	cr_assert_eq(u, PMS_UARCH_INTEL);
	cr_assert_eq(pms_uarch__parse("AMD", &u), 0);
	cr_assert_eq(u, PMS_UARCH_ZEN2);
	cr_assert_eq(pms_uarch__parse("zen1", &u), 0);
	cr_assert_eq(u, PMS_UARCH_ZEN1);
	cr_assert_eq(pms_uarch__parse("arm64", &u), 0);
	cr_assert_eq(u, PMS_UARCH_ARMV8);
	cr_assert_eq(pms_uarch__parse("sparc", &u), -EINVAL);
}

Test(vendor_select, detect_from_fixture_cpuid)
{
	enum pms_uarch u;

	setenv("PMS_CPUID_FILE", "tests/fixtures/cpuid/skylake.txt", 1);
	cr_assert_eq(pms_uarch__detect(&u), 0);
	cr_assert_eq(u, PMS_UARCH_INTEL);
	setenv("PMS_CPUID_FILE", "tests/fixtures/cpuid/vm-zen3.txt", 1);
	cr_assert_eq(pms_uarch__detect(&u), 0);
	cr_assert_eq(u, PMS_UARCH_ZEN2);
	setenv("PMS_CPUID_FILE", "tests/fixtures/cpuid/zen4.txt", 1);
	cr_assert_eq(pms_uarch__detect(&u), 0);
	cr_assert_eq(u, PMS_UARCH_ZEN4);
	unsetenv("PMS_CPUID_FILE");
}

Test(vendor_trap, cache_misses_differs_by_vendor)
{
	cr_assert(strstr(pms_vendor__trap_note(PMS_UARCH_INTEL, PERF_COUNT_HW_CACHE_MISSES), "LAST-LEVEL"));
	cr_assert(strstr(pms_vendor__trap_note(PMS_UARCH_ZEN2, PERF_COUNT_HW_CACHE_MISSES), "L2"));
	cr_assert(strstr(pms_vendor__trap_note(PMS_UARCH_ARMV8, PERF_COUNT_HW_CACHE_REFERENCES), "L1 DATA"));
	cr_assert_null(pms_vendor__trap_note(PMS_UARCH_INTEL, PERF_COUNT_HW_CPU_CYCLES));
}

static const struct pms_reg_field *field(const struct pms_reg_field *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	cr_assert_fail("no field %s", name);
	return NULL;
}

Test(vendor_decode, intel_perfevtsel)
{
	struct pms_reg_field f[PMS_REG_FIELDS_MAX];
	/* event 0xa3 umask 0x14 cmask 0x14: usr os edge int en inv set (0xd7), pc and any clear */
	int n = pms_vendor__decode_config(PMS_UARCH_INTEL, 0x14d714a3ULL | (1ULL << 32), f, PMS_REG_FIELDS_MAX);

	cr_assert_gt(n, 10);
	cr_assert_eq(field(f, n, "event")->value, 0xa3);
	cr_assert_eq(field(f, n, "umask")->value, 0x14);
	cr_assert_eq(field(f, n, "usr")->value, 1);
	cr_assert(field(f, n, "usr")->from_attr);
	cr_assert_eq(field(f, n, "os")->value, 1);
	cr_assert_eq(field(f, n, "edge")->value, 1);
	cr_assert_eq(field(f, n, "pc")->value, 0);
	cr_assert_eq(field(f, n, "int")->value, 1);
	cr_assert_eq(field(f, n, "any")->value, 0);
	cr_assert_eq(field(f, n, "en")->value, 1);
	cr_assert_eq(field(f, n, "inv")->value, 1);
	cr_assert_eq(field(f, n, "cmask")->value, 0x14);
	cr_assert_eq(field(f, n, "in_tx")->value, 1);

	n = pms_vendor__decode_config(PMS_UARCH_INTEL, 0x412e, f, PMS_REG_FIELDS_MAX);
	cr_assert_eq(field(f, n, "event")->value, 0x2e);
	cr_assert_eq(field(f, n, "umask")->value, 0x41);
	cr_assert_eq(field(f, n, "cmask")->value, 0);
}

Test(vendor_decode, amd_perf_ctl_12bit_event)
{
	struct pms_reg_field f[PMS_REG_FIELDS_MAX];
	int n = pms_vendor__decode_config(PMS_UARCH_ZEN4, 0x100000120ULL, f, PMS_REG_FIELDS_MAX);

	cr_assert_gt(n, 0);
	cr_assert_eq(field(f, n, "event")->value, 0x120);
	cr_assert_eq(field(f, n, "event")->lo2, 32);
	cr_assert_eq(field(f, n, "umask")->value, 0x01);
	cr_assert_eq(pms_amd__event_code(0xf000000ffULL), 0xfff);
	cr_assert_eq(pms_amd__event_code(0x0964), 0x64);
	n = pms_vendor__decode_config(PMS_UARCH_ZEN2, 0x0964, f, PMS_REG_FIELDS_MAX);
	cr_assert_eq(field(f, n, "umask")->value, 0x09);
	n = pms_vendor__decode_config(PMS_UARCH_ZEN2, 1ULL << 41, f, PMS_REG_FIELDS_MAX);
	cr_assert_eq(field(f, n, "hostonly")->value, 1);
	cr_assert_eq(pms_vendor__decode_config(PMS_UARCH_ARMV8, 0x11, f, PMS_REG_FIELDS_MAX), -EOPNOTSUPP);
}

Test(vendor_decode, armv8_common_events)
{
	const char *desc = NULL;

	cr_assert_str_eq(pms_armv8__event_name(0x11, &desc), "CPU_CYCLES");
	cr_assert_not_null(desc);
	cr_assert_str_eq(pms_armv8__event_name(0x21, NULL), "BR_RETIRED");
	cr_assert_str_eq(pms_armv8__event_name(0x0c, NULL), "PC_WRITE_RETIRED");
	cr_assert_str_eq(pms_armv8__event_name(0x37, NULL), "LL_CACHE_MISS_RD");
	cr_assert_str_eq(pms_armv8__event_name(0x4004, NULL), "CNT_CYCLES");
	cr_assert_null(pms_armv8__event_name(0x0f, NULL));
}

Test(vendor_decode, intel_arch_event_list)
{
	unsigned ev, um;

	cr_assert_str_eq(pms_intel__arch_event(4, &ev, &um), "LLC Misses");
	cr_assert_eq(ev, 0x2e);
	cr_assert_eq(um, 0x41);
	cr_assert_str_eq(pms_intel__arch_event(7, &ev, &um), "Topdown Slots");
	cr_assert_eq(ev, 0xa4);
	cr_assert_null(pms_intel__arch_event(8, &ev, &um));
}

Test(vendor_select, detect_arm64_from_cpuinfo_without_cpuid)
{
	enum pms_uarch u = PMS_UARCH_INTEL;

	setenv("PMS_CPUID_FILE", "none", 1);
	setenv("PMS_PROCFS_ROOT", "tests/fixtures/procfs/arm64", 1);
	setenv("PMS_SYSFS_ROOT", "/nonexistent", 1);
	cr_assert_eq(pms_uarch__detect(&u), 0);
	cr_assert_eq(u, PMS_UARCH_ARMV8);
	/* an x86 procfs without "CPU implementer" and no CPUID: cannot tell */
	setenv("PMS_PROCFS_ROOT", "tests/fixtures/procfs/vm", 1);
	cr_assert_eq(pms_uarch__detect(&u), -ENODEV);
	cr_assert_eq(u, PMS_UARCH_NONE);
	unsetenv("PMS_CPUID_FILE");
	unsetenv("PMS_PROCFS_ROOT");
	unsetenv("PMS_SYSFS_ROOT");
}

Test(vendor, names_offered_all_parse)
{
	char names[256], *save = NULL;
	enum pms_uarch u;
	int n = 0;

	snprintf(names, sizeof(names), "%s", pms_uarch__names(","));
	cr_assert_not_null(strstr(names, "zen5"), "zen5 is offered: %s", names);
	cr_assert_null(strstr(names, "aarch64"), "aliases are not offered: %s", names);
	for (char *w = strtok_r(names, ",", &save); w; w = strtok_r(NULL, ",", &save), n++)
		cr_assert_eq(pms_uarch__parse(w, &u), 0, "'%s' is offered but does not parse", w);
	cr_assert_eq(n, 9);
}
