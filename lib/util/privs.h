/* SPDX-License-Identifier: MIT */
/*
 * Dropping privileges after set-up: a daemon that opened its perf events,
 * loaded its BPF programs and bound its socket as root needs none of root
 * for reading them (file descriptors keep working), so it becomes an
 * unprivileged user with no effective capabilities.
 *
 * Invariants:
 *  - pms_privs__drop() must run before the process starts other threads:
 *    the uid change reaches every thread (glibc), the capability sets only
 *    the calling one (the kernel keeps them per thread), and threads made
 *    later inherit the caller's.
 *  - The capabilities kept (keep_caps) stay in the permitted set only;
 *    pms_privs__raise() makes them effective on the calling thread for the
 *    moment it needs them (reading another user's /proc/PID/maps).
 *  - 0 or -errno, with a message in err; nothing is printed.
 */
#ifndef PMS_UTIL_PRIVS_H
#define PMS_UTIL_PRIVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Capability bit masks (1 << CAP_x) as <linux/capability.h> numbers them. */
#define PMS_CAP_BIT(cap) (1ull << (cap))

struct pms_privs_user {
	uid_t uid;
	gid_t gid;
	char name[64];
};

/* The account to become: a name or a numeric uid. -ENOENT (unknown), with err filled. */
int pms_privs__lookup(const char *user, struct pms_privs_user *out, char *err, size_t err_size);

/*
 * Become u: supplementary groups cleared, gid and uid set (real, effective
 * and saved), every capability but keep_caps gone from the bounding,
 * permitted and ambient sets, none effective, no_new_privs set. -EPERM when
 * not root to begin with.
 */
int pms_privs__drop(const struct pms_privs_user *u, uint64_t keep_caps, char *err, size_t err_size);

/* Make the kept capabilities effective on this thread (on) or none (off). 0 or -errno. */
int pms_privs__raise(uint64_t caps, bool on);

/* This thread's effective and permitted capability masks, from capget(). 0 or -errno. */
int pms_privs__current(uint64_t *effective, uint64_t *permitted);

/* "cap_sys_ptrace,cap_dac_read_search" for a mask ("none" for 0), into buf. */
const char *pms_privs__caps_name(uint64_t caps, char *buf, size_t size);

#endif
