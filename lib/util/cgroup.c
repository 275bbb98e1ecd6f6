// SPDX-License-Identifier: MIT
// cgroup v2 directories for perf's cgroup mode: where the hierarchy is and a cgroup's fd.
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/cgroup.h"

const char *pms_cgroup__v2_root(void)
{
	/* pure v2, or systemd's hybrid layout with v2 beside the v1 controllers */
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs sf;

	for (size_t i = 0; i < 2; i++)
		if (!statfs(roots[i], &sf) && sf.f_type == CGROUP2_SUPER_MAGIC)
			return roots[i];
	return NULL;
}

int pms_cgroup__open(const char *name, char *path, size_t size)
{
	const char *root = pms_cgroup__v2_root();
	int fd;

	if (size)
		path[0] = '\0';
	if (!root)
		return -ENOENT;
	if (!strncmp(name, root, strlen(root)) && (name[strlen(root)] == '/' || !name[strlen(root)]))
		name += strlen(root);
	while (*name == '/')
		name++;
	if ((size_t)snprintf(path, size, "%s/%s", root, name) >= size)
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
