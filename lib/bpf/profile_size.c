// SPDX-License-Identifier: MIT
// The pure parts of the BPF profiler's user side (map and ring sizing, the stack hash, loss sums), in every build including the one without libbpf.
#include "profile.h"

void pms_profile__size_maps(unsigned int freq, size_t nr_cpus, double duration_s,
			    uint32_t *max_stacks, uint32_t *max_counts)
{
	double samples = (double)(freq ? freq : 1) * (double)(nr_cpus ? nr_cpus : 1) *
			 (duration_s > 0 ? duration_s : 30.0);
	uint32_t counts;

	/*
	 * Each sample can be a distinct key (a compiler without frame pointers makes
	 * nearly every user stack new). The bound keeps the bucket arrays, which the
	 * kernel allocates and zeroes at load even without prealloc, to ~4 + 8 MiB;
	 * longer runs at high rates read by --interval.
	 */
	if (samples < 4096)
		counts = 4096;
	else if (samples > (double)(1u << 18))
		counts = 1u << 18;
	else
		counts = (uint32_t)samples;
	*max_counts = counts;
	/* a distinct key brings at most a new user and a new kernel stack */
	*max_stacks = counts * 2;
}

size_t pms_profile__ring_bytes(unsigned int freq, size_t nr_cpus, size_t bytes_per_sample)
{
	/* a second of records, so a reader that falls behind for a moment loses nothing */
	double want = (double)(freq ? freq : 1) * (double)(nr_cpus ? nr_cpus : 1) *
		      (double)(bytes_per_sample ? bytes_per_sample : 576);
	size_t bytes = (size_t)1 << 20;

	while ((double)bytes < want && bytes < ((size_t)256 << 20))
		bytes <<= 1;
	return bytes;
}

uint64_t pms_profile__stack_hash(const uint64_t *ips, uint32_t nr, uint32_t kind)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i < nr && i < PF_MAX_FRAMES; i++)
		h = pf_hash_step(h, ips[i]);
	return pf_hash_final(h, nr, kind);
}

uint64_t pms_profile_stats__user_lost(const struct pms_profile_stats *s)
{
	const uint64_t *v = s->v;

	return v[PF_STAT_USER_FAULT] + v[PF_STAT_USER_EMPTY] + v[PF_STAT_USER_MAP_FULL] + v[PF_STAT_USER_COLLISION] +
	       v[PF_STAT_USER_NOMEM] + v[PF_STAT_COUNTS_FULL_USER] + v[PF_STAT_STREAM_LOST_USER];
}

uint64_t pms_profile_stats__kernel_lost(const struct pms_profile_stats *s)
{
	const uint64_t *v = s->v;

	return v[PF_STAT_KERNEL_FAULT] + v[PF_STAT_KERNEL_MAP_FULL] + v[PF_STAT_KERNEL_COLLISION] +
	       v[PF_STAT_KERNEL_NOMEM];
}
