// SPDX-License-Identifier: MIT
// POSIX ustar archive writer with pax headers for long names, through a byte sink.
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/tar.h"

#define BLOCK 512

struct pms_tar {
	pms_tar_sink sink;
	void *ctx;
	int err;        /* sticky: the first sink or input error */
	uint64_t bytes; /* given to the sink */
};

/* The ustar header (POSIX.1-1988 as amended: magic "ustar\0", version "00"). */
struct ustar {
	char name[100], mode[8], uid[8], gid[8], size[12], mtime[12], chksum[8];
	char typeflag, linkname[100], magic[6], version[2], uname[32], gname[32];
	char devmajor[8], devminor[8], prefix[155], pad[12];
};

_Static_assert(sizeof(struct ustar) == BLOCK, "a ustar header is one block");

int pms_tar__new(struct pms_tar **out, pms_tar_sink sink, void *ctx)
{
	struct pms_tar *t = calloc(1, sizeof(*t));

	*out = t;
	if (!t)
		return -ENOMEM;
	t->sink = sink;
	t->ctx = ctx;
	return 0;
}

void pms_tar__free(struct pms_tar *t)
{
	free(t);
}

uint64_t pms_tar__bytes(const struct pms_tar *t)
{
	return t->bytes;
}

static int emit(struct pms_tar *t, const void *buf, size_t len)
{
	int err;

	if (t->err)
		return t->err;
	err = t->sink(t->ctx, buf, len);
	if (err)
		return t->err = err < 0 ? err : -EIO;
	t->bytes += len;
	return 0;
}

static int pad_to_block(struct pms_tar *t, uint64_t size)
{
	static const char zeros[BLOCK];
	size_t rest = (size_t)(size % BLOCK);

	return rest ? emit(t, zeros, BLOCK - rest) : 0;
}

/* Octal, NUL-terminated, zero-padded to the field: false when the value does not fit. */
static bool put_octal(char *field, size_t width, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%0*llo", (int)(width - 1), (unsigned long long)v);

	if (n < 0 || (size_t)n > width - 1)
		return false;
	memcpy(field, tmp, (size_t)n + 1);
	return true;
}

/*
 * Place path in name (+ prefix): whole in name when it fits 100 bytes,
 * else split at a '/' so that the prefix fits 155 and the rest 100.
 */
static bool put_path(struct ustar *h, const char *path)
{
	size_t len = strlen(path);

	if (len <= sizeof(h->name)) {
		memcpy(h->name, path, len);
		return true;
	}
	for (size_t i = len; i-- > 0;) {
		if (path[i] != '/')
			continue;
		if (i > sizeof(h->prefix))
			continue;
		if (len - i - 1 > sizeof(h->name) || len - i - 1 == 0)
			return false;
		memcpy(h->prefix, path, i);
		memcpy(h->name, path + i + 1, len - i - 1);
		return true;
	}
	return false;
}

static void checksum(struct ustar *h)
{
	const unsigned char *p = (const unsigned char *)h;
	unsigned sum = 0;

	memset(h->chksum, ' ', sizeof(h->chksum));
	for (size_t i = 0; i < sizeof(*h); i++)
		sum += p[i];
	/* six octal digits, NUL, space: the traditional layout every reader accepts */
	snprintf(h->chksum, sizeof(h->chksum), "%06o", sum & 0777777);
	h->chksum[7] = ' ';
}

static void fill(struct ustar *h, char type, uint64_t size, mode_t mode, int64_t mtime)
{
	put_octal(h->mode, sizeof(h->mode), mode & 07777);
	put_octal(h->uid, sizeof(h->uid), 0);
	put_octal(h->gid, sizeof(h->gid), 0);
	put_octal(h->size, sizeof(h->size), size);
	put_octal(h->mtime, sizeof(h->mtime), mtime > 0 ? (uint64_t)mtime : 0);
	h->typeflag = type;
	memcpy(h->magic, "ustar", 6);
	memcpy(h->version, "00", 2);
	put_octal(h->devmajor, sizeof(h->devmajor), 0);
	put_octal(h->devminor, sizeof(h->devminor), 0);
}

/* One pax record "<len> key=value\n", whose decimal length counts itself. */
static int pax_record(char **buf, size_t *len, const char *key, const char *value)
{
	size_t body = strlen(key) + strlen(value) + 3; /* ' ', '=', '\n' */
	size_t total = body + 1;
	char *p;

	while (total != body + (size_t)snprintf(NULL, 0, "%zu", total))
		total = body + (size_t)snprintf(NULL, 0, "%zu", total);
	p = realloc(*buf, *len + total + 1);
	if (!p)
		return -ENOMEM;
	*buf = p;
	snprintf(p + *len, total + 1, "%zu %s=%s\n", total, key, value);
	*len += total;
	return 0;
}

/* Header for path (and link target), preceded by a pax header when they do not fit. */
static int header(struct pms_tar *t, const char *path, const char *link, char type, uint64_t size, mode_t mode,
		  int64_t mtime)
{
	struct ustar h;
	char *pax = NULL;
	size_t pax_len = 0;
	bool path_fits, link_fits = true;
	int err = 0;

	while (*path == '/')
		path++;
	if (!*path)
		return -EINVAL;
	if (t->err)
		return t->err;
	memset(&h, 0, sizeof(h));
	path_fits = put_path(&h, path);
	if (link) {
		link_fits = strlen(link) <= sizeof(h.linkname);
		if (link_fits)
			memcpy(h.linkname, link, strlen(link));
	}
	if (size > 077777777777ULL)
		return -EFBIG; /* an 8 GiB object in a build-id cache: not ours to archive */
	if (!path_fits)
		err = pax_record(&pax, &pax_len, "path", path);
	if (!err && !link_fits)
		err = pax_record(&pax, &pax_len, "linkpath", link);
	if (err) {
		free(pax);
		return err;
	}
	if (pax) {
		struct ustar x;
		char xname[100];

		memset(&x, 0, sizeof(x));
		/* GNU tar's name for the extended header of an entry */
		snprintf(xname, sizeof(xname), "PaxHeaders/%.80s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		memcpy(x.name, xname, strlen(xname));
		fill(&x, 'x', pax_len, 0644, mtime);
		checksum(&x);
		err = emit(t, &x, sizeof(x));
		if (!err)
			err = emit(t, pax, pax_len);
		if (!err)
			err = pad_to_block(t, pax_len);
		free(pax);
		if (err)
			return err;
		/* the ustar fields keep a readable stand-in for readers without pax */
		memset(h.name, 0, sizeof(h.name));
		memset(h.prefix, 0, sizeof(h.prefix));
		memcpy(h.name, path, strlen(path) < sizeof(h.name) ? strlen(path) : sizeof(h.name));
	}
	fill(&h, type, size, mode, mtime);
	checksum(&h);
	return emit(t, &h, sizeof(h));
}

int pms_tar__add_dir(struct pms_tar *t, const char *path, mode_t mode, int64_t mtime)
{
	char *slashed;
	size_t len = strlen(path);
	int err;

	/* directories end in '/' in tar, as GNU tar writes them */
	while (len && path[len - 1] == '/')
		len--;
	slashed = malloc(len + 2);
	if (!slashed)
		return -ENOMEM;
	memcpy(slashed, path, len);
	slashed[len] = '/';
	slashed[len + 1] = '\0';
	err = header(t, slashed, NULL, '5', 0, mode, mtime);
	free(slashed);
	return err;
}

int pms_tar__add_symlink(struct pms_tar *t, const char *path, const char *target, int64_t mtime)
{
	if (!*target)
		return -EINVAL;
	return header(t, path, target, '2', 0, 0777, mtime);
}

int pms_tar__add_mem(struct pms_tar *t, const char *path, const void *buf, size_t len, mode_t mode,
		     int64_t mtime)
{
	int err = header(t, path, NULL, '0', len, mode, mtime);

	if (!err && len)
		err = emit(t, buf, len);
	return err ? err : pad_to_block(t, len);
}

int pms_tar__add_file_fd(struct pms_tar *t, const char *path, int fd, uint64_t size, mode_t mode, int64_t mtime)
{
	char buf[1 << 16];
	uint64_t left = size;
	int err = header(t, path, NULL, '0', size, mode, mtime);

	while (!err && left) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* shorter than its header said: the archive cannot be completed truthfully */
			err = t->err = n < 0 ? -errno : -EIO;
			break;
		}
		err = emit(t, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	return err ? err : pad_to_block(t, size);
}

int pms_tar__finish(struct pms_tar *t)
{
	static const char zeros[2 * BLOCK];

	return emit(t, zeros, sizeof(zeros));
}
