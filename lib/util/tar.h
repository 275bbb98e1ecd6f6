/* SPDX-License-Identifier: MIT */
/*
 * A POSIX ustar writer (what GNU tar, bsdtar and Python's tarfile read):
 * directories, symbolic links and regular files, written through a sink
 * callback so the bytes can go to a file, a gzip stream or memory.
 *
 * Invariants:
 *  - Every entry is a 512-byte header then its data padded to 512 bytes;
 *    __finish() adds the two zero blocks that end an archive.
 *  - Names and link targets that do not fit ustar's fields (100 bytes, or
 *    a 155-byte prefix + 100-byte name split at a '/') are carried by a pax
 *    extended header ("path=", "linkpath="), so nothing is truncated.
 *  - Owner is 0/0 without user or group names: an archive extracted by root
 *    gives root's files, by anyone else the extractor's. Modes and mtimes
 *    are the caller's.
 *  - A file entry writes exactly the size its header declares, or fails
 *    (-EIO: the file was shorter than said): never a corrupt archive that
 *    reads back as valid.
 *  - Nothing prints; every function returns 0 or -errno (a sink error is
 *    passed on, and sticks: later calls return it).
 */
#ifndef PMS_UTIL_TAR_H
#define PMS_UTIL_TAR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Where the archive's bytes go: 0 or -errno. */
typedef int (*pms_tar_sink)(void *ctx, const void *buf, size_t len);

struct pms_tar;

int pms_tar__new(struct pms_tar **out, pms_tar_sink sink, void *ctx);
/* Free; does not finish the archive. Accepts NULL. */
void pms_tar__free(struct pms_tar *t);

/* Entries; path is relative ("a/b"), without a leading '/' (one is dropped) or a trailing one. */
int pms_tar__add_dir(struct pms_tar *t, const char *path, mode_t mode, int64_t mtime);
int pms_tar__add_symlink(struct pms_tar *t, const char *path, const char *target, int64_t mtime);
/* size bytes read from fd (from its current offset). */
int pms_tar__add_file_fd(struct pms_tar *t, const char *path, int fd, uint64_t size, mode_t mode, int64_t mtime);
int pms_tar__add_mem(struct pms_tar *t, const char *path, const void *buf, size_t len, mode_t mode,
		     int64_t mtime);
/* The end-of-archive blocks. */
int pms_tar__finish(struct pms_tar *t);
/* Bytes given to the sink so far. */
uint64_t pms_tar__bytes(const struct pms_tar *t);

#endif
