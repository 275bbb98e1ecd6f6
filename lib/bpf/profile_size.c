// SPDX-License-Identifier: MIT
// The pure parts of the BPF profiler's user side (map and ring sizing, the stack hash, loss sums, failure words), in every build including the one without libbpf.
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

const char *pms_profile_fail__describe(enum pms_profile_fail f, int err, char *buf, size_t size)
{
	const char *why;

	switch (f) {
	case PMS_PF_NO_BTF:
		why = "this kernel has no BTF (/sys/kernel/btf/vmlinux): the BPF profiler needs CONFIG_DEBUG_INFO_BTF=y";
		break;
	case PMS_PF_PERM:
		why = "permission denied: the BPF profiler needs root or CAP_BPF+CAP_PERFMON";
		break;
	case PMS_PF_VERIFIER:
		why = "the kernel's BPF verifier rejected the profile program (run pmuscope with -v to see its log)";
		break;
	case PMS_PF_TOO_OLD:
		why = "this kernel is too old for the profile program (it needs BPF ring buffers, global BPF functions, "
		      "and hash maps without preallocation in perf_event programs: Linux 6.1 or later)";
		break;
	case PMS_PF_EVENT:
		why = "cannot open the sampling event";
		break;
	case PMS_PF_ATTACH:
		why = "cannot attach the BPF program to the sampling event";
		break;
	default:
		why = err == -ENOMEM ? "out of memory (or locked-memory limit) while loading the BPF program"
				     : "cannot load the BPF program";
		break;
	}
	/* the steps whose errno says more than the words */
	if (f == PMS_PF_OK || f == PMS_PF_LOAD || f == PMS_PF_EVENT || f == PMS_PF_ATTACH)
		snprintf(buf, size, "%s: %s", why, strerror(-err));
	else
		snprintf(buf, size, "%s", why);
	return buf;
}
