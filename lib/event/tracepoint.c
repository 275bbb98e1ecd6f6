// SPDX-License-Identifier: MIT
// Tracepoint ids and enumeration from <tracefs>/events/<subsys>/<name>/id.
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event/tracepoint.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/sysfs.h"

/* A path component must not escape the events directory ("..", "a/b"). */
static int bad_component(const char *s)
{
	return !*s || strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, "..");
}

int pms_tracepoint__id(const char *subsys, const char *name, uint64_t *id)
{
	const char *root = pms_tracefs_root();
	char path[4096];
	int n, err;

	if (!root)
		return -ENOENT;
	if (bad_component(subsys) || bad_component(name))
		return -ENOENT;
	n = snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, subsys, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	err = pms_file__read_u64(path, id);
	if (err == -ENOTDIR || err == -EINVAL)
		return -ENOENT;
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted names of the subdirectories of dir; *out NULL-terminated, caller frees. */
static int list_dirs(const char *dir, char ***out, size_t *nr)
{
	char path[4096];
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;
	DIR *d = opendir(dir);

	*out = NULL;
	*nr = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR) {
			if (de->d_type != DT_UNKNOWN)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (stat(path, &st) || !S_ISDIR(st.st_mode))
				continue;
		}
		/* one more slot kept for the NULL that ends the list */
		if (pms_array__reserve(&v, &cap, n + 2, sizeof(*v)))
			goto nomem;
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	if (v)
		v[n] = NULL;
	*out = v;
	*nr = n;
	return 0;
nomem:
	closedir(d);
	while (n)
		free(v[--n]);
	free(v);
	return -ENOMEM;
}

static void free_list(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

int pms_tracepoint__foreach(pms_tracepoint_fn fn, void *arg)
{
	const char *root = pms_tracefs_root();
	char dir[4096], sub[4096 + 256];
	char **subs, **evs;
	size_t nsubs, nevs, i, j;
	int err, ret = 0;

	if (!root)
		return -ENOENT;
	if (snprintf(dir, sizeof(dir), "%s/events", root) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	err = list_dirs(dir, &subs, &nsubs);
	if (err)
		return err == -EACCES || err == -EPERM ? -EACCES : err;
	for (i = 0; i < nsubs && !ret; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, subs[i]);
		if (list_dirs(sub, &evs, &nevs))
			continue;
		for (j = 0; j < nevs && !ret; j++)
			ret = fn(subs[i], evs[j], arg);
		free_list(evs, nevs);
	}
	free_list(subs, nsubs);
	return ret;
}
