// SPDX-License-Identifier: MIT
// Unit tests of lib/bpf's pure parts: map sizing from the expected load, and the stack hash and probe ids the BPF program uses.
#include <criterion/criterion.h>
#include <stdint.h>

#include "bpf/profile.h"

Test(profile, size_maps_follow_the_load)
{
	uint32_t s, c;

	pms_profile__size_maps(999, 2, 10, &s, &c);
	cr_assert_eq(c, 19980);
	cr_assert_eq(s, 2 * 19980);
	/* unknown duration: half a minute */
	pms_profile__size_maps(99, 4, 0, &s, &c);
	cr_assert_eq(c, 99 * 4 * 30);
}

Test(profile, size_maps_are_bounded)
{
	uint32_t s, c;

	pms_profile__size_maps(1, 1, 1, &s, &c);
	cr_assert_eq(c, 4096);
	cr_assert_eq(s, 8192);
	pms_profile__size_maps(0, 0, 0, &s, &c);
	cr_assert_eq(c, 4096);
	pms_profile__size_maps(100000, 256, 3600, &s, &c);
	cr_assert_eq(c, 1u << 18);
	cr_assert_eq(s, 1u << 19);
}

Test(profile, ring_holds_a_second_of_samples)
{
	/* 999 Hz x 2 CPUs x 576 B = 1.15 MB: the next power of two */
	cr_assert_eq(pms_profile__ring_bytes(999, 2, 0), (size_t)2 << 20);
	/* small loads get the 1 MiB floor */
	cr_assert_eq(pms_profile__ring_bytes(99, 1, 0), (size_t)1 << 20);
	cr_assert_eq(pms_profile__ring_bytes(0, 0, 0), (size_t)1 << 20);
	/* dwarf records: 999 Hz x 2 x ~9.4 KB = 18.8 MB -> 32 MiB */
	cr_assert_eq(pms_profile__ring_bytes(999, 2, 9400), (size_t)32 << 20);
	/* bounded at 256 MiB */
	cr_assert_eq(pms_profile__ring_bytes(100000, 64, 17000), (size_t)256 << 20);
	for (unsigned int f = 1; f < 100000; f = f * 3 + 1) {
		size_t b = pms_profile__ring_bytes(f, 2, 0);

		cr_assert_eq(b & (b - 1), 0, "%zu is not a power of two", b);
		cr_assert(b >= (size_t)1 << 20 && b <= (size_t)256 << 20);
	}
}

Test(profile, stack_hash_is_deterministic_and_nonzero)
{
	uint64_t a[] = { 0x401000, 0x401234, 0x7f0000001000 };
	uint64_t b[] = { 0x401234, 0x401000, 0x7f0000001000 };

	cr_assert_eq(pms_profile__stack_hash(a, 3, PF_KIND_USER), pms_profile__stack_hash(a, 3, PF_KIND_USER));
	cr_assert_neq(pms_profile__stack_hash(a, 3, PF_KIND_USER), 0);
	cr_assert_neq(pms_profile__stack_hash(NULL, 0, PF_KIND_USER), 0);
	/* order, length and kind all matter */
	cr_assert_neq(pms_profile__stack_hash(a, 3, PF_KIND_USER), pms_profile__stack_hash(b, 3, PF_KIND_USER));
	cr_assert_neq(pms_profile__stack_hash(a, 3, PF_KIND_USER), pms_profile__stack_hash(a, 2, PF_KIND_USER));
	cr_assert_neq(pms_profile__stack_hash(a, 3, PF_KIND_USER), pms_profile__stack_hash(a, 3, PF_KIND_KERNEL));
}

Test(profile, stack_hash_ignores_frames_past_nr)
{
	uint64_t a[] = { 1, 2, 3, 4 };
	uint64_t b[] = { 1, 2, 3, 99 };

	cr_assert_eq(pms_profile__stack_hash(a, 3, PF_KIND_KERNEL), pms_profile__stack_hash(b, 3, PF_KIND_KERNEL));
}

Test(profile, no_collision_in_many_similar_stacks)
{
	/* 64k stacks that differ in one frame by small steps: no two ids equal (a 64-bit hash
	 * should collide once in ~2^32 stacks; a weak mix would fail here at once) */
	enum { N = 65536 };
	static uint64_t ids[N];
	uint64_t ips[8] = { 0x401000, 0x401100, 0x401200, 0x401300, 0x401400, 0x401500, 0x401600, 0x401700 };

	for (uint32_t i = 0; i < N; i++) {
		ips[i % 8] += 1;
		ids[i] = pms_profile__stack_hash(ips, 8, PF_KIND_USER);
	}
	for (uint32_t i = 0; i < N; i++)
		for (uint32_t j = i + 1; j < i + 64 && j < N; j++)
			cr_assert_neq(ids[i], ids[j], "ids %u and %u collide", i, j);
}

Test(profile, probe_ids_differ_and_are_never_zero)
{
	uint64_t h = pms_profile__stack_hash((const uint64_t[]){ 7 }, 1, PF_KIND_USER);

	for (uint32_t i = 0; i < PF_PROBES; i++) {
		cr_assert_neq(pf_probe_id(h, i), 0);
		for (uint32_t j = 0; j < i; j++)
			cr_assert_neq(pf_probe_id(h, i), pf_probe_id(h, j));
	}
	cr_assert_eq(pf_probe_id(h, 0), h);
	/* the id that would wrap to 0 is moved to 1 */
	cr_assert_eq(pf_probe_id(0, 0), 1);
}
