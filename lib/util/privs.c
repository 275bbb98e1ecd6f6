// SPDX-License-Identifier: MIT
// Becoming an unprivileged user with a few permitted capabilities, raised only when needed.
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/privs.h"

static int capget_self(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };

	return syscall(SYS_capget, &hdr, data) ? -errno : 0;
}

static int capset_self(uint64_t effective, uint64_t permitted)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2] = {
		{ .effective = (uint32_t)effective, .permitted = (uint32_t)permitted },
		{ .effective = (uint32_t)(effective >> 32), .permitted = (uint32_t)(permitted >> 32) },
	};

	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

int pms_privs__current(uint64_t *effective, uint64_t *permitted)
{
	struct __user_cap_data_struct d[2];
	int err = capget_self(d);

	if (err)
		return err;
	*effective = (uint64_t)d[1].effective << 32 | d[0].effective;
	*permitted = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	return 0;
}

int pms_privs__lookup(const char *user, struct pms_privs_user *out, char *err, size_t err_size)
{
	struct passwd pw, *res = NULL;
	char buf[4096], *end;
	unsigned long uid = strtoul(user, &end, 10);
	int rc;

	memset(out, 0, sizeof(*out));
	if (*user && !*end)
		rc = getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res);
	else
		rc = getpwnam_r(user, &pw, buf, sizeof(buf), &res);
	if (rc || !res) {
		snprintf(err, err_size, "no user '%s' in the password database%s%s", user, rc ? ": " : "",
			 rc ? strerror(rc) : "");
		return -ENOENT;
	}
	out->uid = pw.pw_uid;
	out->gid = pw.pw_gid;
	snprintf(out->name, sizeof(out->name), "%s", pw.pw_name);
	return 0;
}

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int n = CAP_LAST_CAP;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = CAP_LAST_CAP;
		fclose(f);
	}
	return n;
}

int pms_privs__drop(const struct pms_privs_user *u, uint64_t keep_caps, char *err, size_t err_size)
{
	int n = last_cap(), rc;

	if (geteuid() != 0) {
		snprintf(err, err_size, "not running as root: cannot become '%s'", u->name);
		return -EPERM;
	}
	if (setgroups(0, NULL) || setresgid(u->gid, u->gid, u->gid)) {
		rc = -errno;
		snprintf(err, err_size, "cannot take group %u: %s", (unsigned)u->gid, strerror(errno));
		return rc;
	}
	for (int cap = 0; cap <= n && cap < 64; cap++) {
		if (keep_caps & PMS_CAP_BIT(cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL) {
			rc = -errno;
			snprintf(err, err_size, "cannot drop capability %d from the bounding set: %s", cap,
				 strerror(errno));
			return rc;
		}
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	/* keep the permitted set across the uid change, then trim it */
	if (keep_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) {
		rc = -errno;
		snprintf(err, err_size, "prctl(PR_SET_KEEPCAPS): %s", strerror(errno));
		return rc;
	}
	if (setresuid(u->uid, u->uid, u->uid)) {
		rc = -errno;
		snprintf(err, err_size, "cannot become user %u: %s", (unsigned)u->uid, strerror(errno));
		return rc;
	}
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	rc = capset_self(0, keep_caps);
	if (rc) {
		snprintf(err, err_size, "capset: %s", strerror(-rc));
		return rc;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		rc = -errno;
		snprintf(err, err_size, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		return rc;
	}
	/* a uid of 0 again, or any capability beyond what was kept, means the drop did not hold */
	{
		uid_t r, e, s;
		uint64_t eff, perm;

		if (getresuid(&r, &e, &s) || r != u->uid || e != u->uid || s != u->uid ||
		    pms_privs__current(&eff, &perm) || eff || (perm & ~keep_caps)) {
			snprintf(err, err_size, "the privileges did not drop (uid %u, capabilities left)",
				 (unsigned)geteuid());
			return -EPERM;
		}
	}
	return 0;
}

int pms_privs__raise(uint64_t caps, bool on)
{
	uint64_t eff, perm;
	int err = pms_privs__current(&eff, &perm);

	if (err)
		return err;
	return capset_self(on ? caps & perm : 0, perm);
}

const char *pms_privs__caps_name(uint64_t caps, char *buf, size_t size)
{
	static const struct { int cap; const char *name; } names[] = {
		{ CAP_CHOWN, "cap_chown" }, { CAP_DAC_OVERRIDE, "cap_dac_override" },
		{ CAP_DAC_READ_SEARCH, "cap_dac_read_search" }, { CAP_KILL, "cap_kill" },
		{ CAP_SETUID, "cap_setuid" }, { CAP_SETGID, "cap_setgid" },
		{ CAP_NET_BIND_SERVICE, "cap_net_bind_service" }, { CAP_IPC_LOCK, "cap_ipc_lock" },
		{ CAP_SYS_PTRACE, "cap_sys_ptrace" }, { CAP_SYS_ADMIN, "cap_sys_admin" },
		{ CAP_SYSLOG, "cap_syslog" }, { CAP_PERFMON, "cap_perfmon" }, { CAP_BPF, "cap_bpf" },
	};
	size_t len = 0;

	if (size)
		buf[0] = 0;
	if (!caps) {
		snprintf(buf, size, "none");
		return buf;
	}
	for (int cap = 0; cap < 64; cap++) {
		const char *name = NULL;
		char num[16];

		if (!(caps & PMS_CAP_BIT(cap)))
			continue;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (names[i].cap == cap)
				name = names[i].name;
		if (!name) {
			snprintf(num, sizeof(num), "cap_%d", cap);
			name = num;
		}
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "", name);
	}
	return buf;
}
