// SPDX-License-Identifier: MIT
// perf archive's layout as a .tar.gz written in process: .build-id links and <name>/<hex>/ entries of the cache.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/buildid_archive.h"
#include "symbol/buildid_cache.h"
#include "util/gzstream.h"
#include "util/tar.h"

struct seen {
	char **rel;
	size_t nr;
};

static int seen_add(struct seen *s, const char *rel, bool *was)
{
	char **n;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->rel[i], rel))
			return *was = true, 0;
	*was = false;
	n = realloc(s->rel, (s->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	s->rel = n;
	s->rel[s->nr] = strdup(rel);
	if (!s->rel[s->nr])
		return -ENOMEM;
	s->nr++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* <dir>/<rel>/ and every regular file in it (sorted, our temporary files left out). */
static int archive_entry(struct pms_tar *t, const char *dir, const char *rel, struct pms_archive_stats *st)
{
	char path[4096], file[4400], member[4400];
	char **names = NULL;
	size_t nr = 0;
	struct stat sb;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &sb) || !(d = opendir(path)))
		return -errno;
	err = pms_tar__add_dir(t, rel, sb.st_mode & 07777, (int64_t)sb.st_mtime);
	while (!err && (de = readdir(d))) {
		char **n;

		/* ".", "..", add_entry's ".elf.XXXXXX" in progress, and derived indexes (rebuilt where needed) */
		if (de->d_name[0] == '.' ||
		    !strncmp(de->d_name, PMS_BUILDID_CACHE_DERIVED_PREFIX, strlen(PMS_BUILDID_CACHE_DERIVED_PREFIX)))
			continue;
		n = realloc(names, (nr + 1) * sizeof(*n));
		if (!n || !(n[nr] = strdup(de->d_name))) {
			names = n ? n : names;
			err = -ENOMEM;
			break;
		}
		names = n;
		nr++;
	}
	closedir(d);
	if (!err)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (size_t i = 0; !err && i < nr; i++) {
		int fd;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		snprintf(member, sizeof(member), "%s/%s", rel, names[i]);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			break;
		}
		if (fstat(fd, &sb)) {
			err = -errno;
		} else if (S_ISREG(sb.st_mode)) {
			err = pms_tar__add_file_fd(t, member, fd, (uint64_t)sb.st_size, sb.st_mode & 07777,
						   (int64_t)sb.st_mtime);
			if (!err) {
				st->nr_files++;
				st->file_bytes += (uint64_t)sb.st_size;
			}
		}
		close(fd);
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return err;
}

/* The .build-id/xx/<rest> link as it is in the cache (or as perf makes it for rel), once per archive. */
static int archive_link(struct pms_tar *t, const char *dir, const struct pms_archive_object *o, const char *rel,
			struct seen *seen)
{
	char link[4096], target[4096];
	size_t dlen = strlen(dir);
	struct stat sb;
	ssize_t n;
	bool was;
	int err = pms_buildid_cache__link_path(dir, o->id, o->id_size, link, sizeof(link));

	if (!err)
		err = seen_add(seen, link + dlen + 1, &was);
	if (err || was)
		return err;
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0 && !lstat(link, &sb)) {
		target[n] = '\0';
	} else {
		if (snprintf(target, sizeof(target), "../../%s", rel) >= (int)sizeof(target))
			return -ENAMETOOLONG;
		sb.st_mtime = 0;
	}
	return pms_tar__add_symlink(t, link + dlen + 1, target, (int64_t)sb.st_mtime);
}

int pms_buildid_archive__write(const char *dir, struct pms_archive_object *objs, size_t nr, int fd,
			       struct pms_archive_stats *stats)
{
	struct pms_archive_stats dummy;
	struct pms_gzstream *gz = NULL;
	struct pms_tar *t = NULL;
	struct seen seen = { 0 };
	int err;

	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	err = pms_gzstream__new(&gz, fd, 6);
	if (!err)
		err = pms_tar__new(&t, pms_gzstream__sink, gz);
	for (size_t i = 0; !err && i < nr; i++) {
		struct pms_archive_object *o = &objs[i];
		char rel[4096];
		unsigned added = 0;
		bool was;

		o->added = false;
		o->status = pms_buildid_cache__entry_rel(dir, o->name, o->id, o->id_size, rel, sizeof(rel));
		if (o->status == -ENOENT) {
			/* not cached yet: the object may still be here (recorded with -N, or by another tool) */
			o->status = pms_buildid_cache__add_object(dir, o->name, o->kernel, o->id, o->id_size, &added);
			o->added = !o->status && added;
			if (!o->status)
				o->status = pms_buildid_cache__entry_rel(dir, o->name, o->id, o->id_size, rel,
									 sizeof(rel));
		}
		if (o->status)
			continue;
		err = seen_add(&seen, rel, &was);
		if (err || was) {
			stats->nr_archived += !err;
			continue;
		}
		err = archive_link(t, dir, o, rel, &seen);
		if (!err)
			err = archive_entry(t, dir, rel, stats);
		if (!err)
			stats->nr_archived++;
	}
	if (!err)
		err = pms_tar__finish(t);
	if (!err)
		err = pms_gzstream__finish(gz);
	for (size_t i = 0; i < seen.nr; i++)
		free(seen.rel[i]);
	free(seen.rel);
	pms_tar__free(t);
	pms_gzstream__free(gz);
	return err;
}
