// SPDX-License-Identifier: MIT
// Unit tests of lib/util/cpuid: fixture-file CPUID and decoding of the PMU leaves.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cpuid.h"

static void use_fixture(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "tests/fixtures/cpuid/%s.txt", name);
	cr_assert_eq(setenv("PMS_CPUID_FILE", path, 1), 0);
}

Test(cpuid_file, skylake_arch_perfmon)
{
	struct pms_cpuid_info info;

	use_fixture("skylake");
	cr_assert_eq(pms_cpuid__read_info(&info), 0);
	cr_assert_str_eq(info.vendor, "GenuineIntel");
	cr_assert_eq(info.family, 6);
	cr_assert_eq(info.model, 0x5e);
	cr_assert_eq(info.stepping, 3);
	cr_assert_not(info.hypervisor);
	cr_assert(info.pdcm);
	cr_assert(info.has_arch_perfmon);
	cr_assert_eq(info.arch.version, 4);
	cr_assert_eq(info.arch.nr_gp, 4);
	cr_assert_eq(info.arch.gp_width, 48);
	cr_assert_eq(info.arch.ebx_length, 7);
	cr_assert_eq(info.arch.nr_fixed, 3);
	cr_assert_eq(info.arch.fixed_width, 48);
	for (unsigned i = 0; i < 7; i++)
		cr_assert(pms_cpuid__arch_event_available(&info.arch, i), "event %u", i);
	/* topdown slots (7) lies beyond EAX[31:24] = 7: unavailable although EBX bit 7 is 0 */
	cr_assert_not(pms_cpuid__arch_event_available(&info.arch, 7));
	cr_assert(pms_cpuid__fixed_counter_supported(&info.arch, 2));
	cr_assert_not(pms_cpuid__fixed_counter_supported(&info.arch, 3));
	unsetenv("PMS_CPUID_FILE");
}

Test(cpuid_file, ebx_bit_set_means_not_available)
{
	struct pms_cpuid_regs r = { .eax = 0x08300805, .ebx = 0x10, .ecx = 0x0f, .edx = 0x8603 };
	struct pms_cpuid_arch_perfmon a;

	pms_cpuid__decode_0a(&r, &a);
	cr_assert_eq(a.version, 5);
	cr_assert_eq(a.nr_gp, 8);
	cr_assert_eq(a.ebx_length, 8);
	cr_assert_not(pms_cpuid__arch_event_available(&a, 4)); /* LLC misses hidden */
	cr_assert(pms_cpuid__arch_event_available(&a, 3));
	cr_assert(pms_cpuid__arch_event_available(&a, 7));
	cr_assert(a.anythread_deprecated);
	/* v5: ECX bitmap adds counter 3 beyond EDX[4:0] = 3 */
	cr_assert(pms_cpuid__fixed_counter_supported(&a, 3));
	cr_assert_not(pms_cpuid__fixed_counter_supported(&a, 4));
}

Test(cpuid_file, vm_zen3_hypervisor_and_amd_bits)
{
	struct pms_cpuid_info info;

	use_fixture("vm-zen3");
	cr_assert_eq(pms_cpuid__read_info(&info), 0);
	cr_assert_str_eq(info.vendor, "AuthenticAMD");
	cr_assert(info.is_amd);
	cr_assert_eq(info.family, 0x19);
	cr_assert_eq(info.model, 0x01);
	cr_assert_eq(info.stepping, 1);
	cr_assert(info.hypervisor);
	cr_assert_str_eq(info.hv_vendor, "KVMKVMKVM");
	cr_assert_not(info.has_arch_perfmon);
	cr_assert_eq(info.max_ext_leaf, 0x80000021);
	cr_assert_eq(info.ext1_ecx, 0x004003f3);
	cr_assert_not(info.amd.perfctr_core); /* hidden by this hypervisor */
	cr_assert_not(info.amd.has_leaf_22);
	unsetenv("PMS_CPUID_FILE");
}

Test(cpuid_file, zen3_and_zen4_amd_leaves)
{
	struct pms_cpuid_info info;

	use_fixture("zen3");
	cr_assert_eq(pms_cpuid__read_info(&info), 0);
	cr_assert_not(info.hypervisor);
	cr_assert_eq(info.model, 0x21);
	cr_assert(info.amd.perfctr_core);
	cr_assert(info.amd.perfctr_nb);
	cr_assert_not(info.amd.perf_tsc);
	cr_assert(info.amd.perfctr_llc);
	cr_assert_not(info.amd.has_leaf_22);

	use_fixture("zen4");
	cr_assert_eq(pms_cpuid__read_info(&info), 0);
	cr_assert(info.amd.has_leaf_22);
	cr_assert(info.amd.perfmon_v2);
	cr_assert(info.amd.lbr_v2);
	cr_assert_eq(info.amd.nr_core, 6);
	cr_assert_eq(info.amd.lbr_v2_stack, 16);
	cr_assert_eq(info.amd.nr_df, 16);
	unsetenv("PMS_CPUID_FILE");
}

Test(cpuid_file, signature_extended_fields)
{
	unsigned f, m, s;

	pms_cpuid__decode_signature(0x00a20f10, &f, &m, &s);
	cr_assert_eq(f, 0x19);
	cr_assert_eq(m, 0x21);
	cr_assert_eq(s, 0);
	pms_cpuid__decode_signature(0x000906ea, &f, &m, &s); /* Coffee Lake */
	cr_assert_eq(f, 6);
	cr_assert_eq(m, 0x9e);
	cr_assert_eq(s, 0xa);
	pms_cpuid__decode_signature(0x00000f4a, &f, &m, &s); /* family 0xf, no ext family */
	cr_assert_eq(f, 0xf);
	cr_assert_eq(m, 4);
}

Test(cpuid_file, missing_leaf_reads_zero_and_bad_files_fail)
{
	struct pms_cpuid_regs r = { 1, 2, 3, 4 };
	char tmpl[] = "/tmp/pms-cpuid-XXXXXX";
	int fd;
	FILE *f;

	use_fixture("skylake");
	cr_assert_eq(pms_cpuid(0x80000022, 0, &r), 0);
	cr_assert(!r.eax && !r.ebx && !r.ecx && !r.edx);

	setenv("PMS_CPUID_FILE", "/nonexistent/cpuid.txt", 1);
	cr_assert_eq(pms_cpuid(0, 0, &r), -ENOENT);

	fd = mkstemp(tmpl);
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0x0 0x0 0x1 zz\n", f);
	fclose(f);
	setenv("PMS_CPUID_FILE", tmpl, 1);
	cr_assert_eq(pms_cpuid(0, 0, &r), -EINVAL);
	unlink(tmpl);
	unsetenv("PMS_CPUID_FILE");
}

#if defined(__x86_64__) || defined(__i386__)
Test(cpuid_native, vendor_string_is_printable)
{
	struct pms_cpuid_info info;

	unsetenv("PMS_CPUID_FILE");
	cr_assert(pms_cpuid__available());
	cr_assert_eq(pms_cpuid__read_info(&info), 0);
	cr_assert_eq(strlen(info.vendor), 12);
	cr_assert(info.max_leaf >= 1);
}
#endif

Test(cpuid_file, none_simulates_a_cpu_without_cpuid)
{
	struct pms_cpuid_regs r;
	struct pms_cpuid_info info;

	setenv("PMS_CPUID_FILE", "none", 1);
	cr_assert_not(pms_cpuid__available());
	cr_assert_eq(pms_cpuid(0, 0, &r), -EOPNOTSUPP);
	cr_assert_eq(pms_cpuid__read_info(&info), -EOPNOTSUPP);
	unsetenv("PMS_CPUID_FILE");
}
