// SPDX-License-Identifier: MIT
// Unit tests of lib/util/tar (ustar + pax long names) and lib/util/gzstream, read back by a small ustar parser, zlib and GNU tar.
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/gzip_stored.h"
#include "util/gzstream.h"
#include "util/tar.h"

struct mem {
	unsigned char *p;
	size_t len, cap;
	int fail_after; /* > 0: the sink fails once this many bytes were taken */
};

static int mem_sink(void *ctx, const void *buf, size_t len)
{
	struct mem *m = ctx;

	if (m->fail_after && m->len + len > (size_t)m->fail_after)
		return -ENOSPC;
	if (m->len + len > m->cap) {
		m->cap = (m->len + len) * 2;
		m->p = realloc(m->p, m->cap);
		cr_assert_not_null(m->p);
	}
	memcpy(m->p + m->len, buf, len);
	m->len += len;
	return 0;
}

/* One parsed member: ustar fields, with pax path/linkpath applied. */
struct member {
	char type;
	char path[1024], link[1024];
	unsigned long long size, mode;
	const unsigned char *data;
};

static unsigned long long octal(const char *f, size_t w)
{
	unsigned long long v = 0;

	for (size_t i = 0; i < w && f[i] >= '0' && f[i] <= '7'; i++)
		v = v * 8 + (unsigned long long)(f[i] - '0');
	return v;
}

static void pax_apply(const unsigned char *p, size_t len, struct member *m)
{
	size_t off = 0;

	while (off < len) {
		char *end;
		unsigned long rl = strtoul((const char *)p + off, &end, 10);
		const char *kv = end + 1, *eq = memchr(kv, '=', (size_t)((const char *)p + off + rl - kv));
		size_t vlen;

		cr_assert(rl > 0 && off + rl <= len && *end == ' ' && eq, "bad pax record");
		cr_assert_eq(p[off + rl - 1], '\n', "a pax record's length counts its own digits");
		vlen = (size_t)((const char *)p + off + rl - 1 - (eq + 1));
		if (!strncmp(kv, "path=", 5))
			snprintf(m->path, sizeof(m->path), "%.*s", (int)vlen, eq + 1);
		else if (!strncmp(kv, "linkpath=", 9))
			snprintf(m->link, sizeof(m->link), "%.*s", (int)vlen, eq + 1);
		off += rl;
	}
}

/* Parse a whole archive: checksums checked, the two end blocks required. Returns the member count. */
static size_t parse(const struct mem *a, struct member *out, size_t max)
{
	size_t off = 0, n = 0;
	struct member pending = { 0 };
	bool have_pax = false;

	cr_assert_eq(a->len % 512, 0);
	for (;;) {
		const unsigned char *h = a->p + off;
		unsigned sum = 0;
		struct member m = { 0 };
		bool zero = true;

		cr_assert_leq(off + 512, a->len, "no end-of-archive blocks");
		for (int i = 0; i < 512; i++)
			zero = zero && !h[i];
		if (zero) {
			cr_assert_leq(off + 1024, a->len);
			for (int i = 512; i < 1024; i++)
				cr_assert_eq(h[i], 0);
			cr_assert_eq(off + 1024, a->len, "nothing after the end blocks");
			return n;
		}
		for (int i = 0; i < 512; i++)
			sum += (i >= 148 && i < 156) ? ' ' : h[i];
		cr_assert_eq(octal((const char *)h + 148, 8), sum, "header checksum at %zu", off);
		cr_assert_eq(memcmp(h + 257, "ustar", 6), 0);
		cr_assert_eq(memcmp(h + 263, "00", 2), 0);
		m.type = (char)h[156];
		m.size = octal((const char *)h + 124, 12);
		m.mode = octal((const char *)h + 100, 8);
		if (h[345])
			snprintf(m.path, sizeof(m.path), "%.155s/%.100s", (const char *)h + 345, (const char *)h);
		else
			snprintf(m.path, sizeof(m.path), "%.100s", (const char *)h);
		snprintf(m.link, sizeof(m.link), "%.100s", (const char *)h + 157);
		m.data = h + 512;
		off += 512 + (m.size + 511) / 512 * 512;
		if (m.type == 'x') {
			memset(&pending, 0, sizeof(pending));
			pax_apply(m.data, m.size, &pending);
			have_pax = true;
			continue;
		}
		if (have_pax) {
			if (pending.path[0])
				memcpy(m.path, pending.path, sizeof(m.path));
			if (pending.link[0])
				memcpy(m.link, pending.link, sizeof(m.link));
			have_pax = false;
		}
		cr_assert_lt(n, max);
		out[n++] = m;
	}
}

Test(tar, members_read_back_with_names_of_every_length)
{
	struct mem a = { 0 };
	struct pms_tar *t;
	struct member m[8];
	char longname[400], longlink[300], mid[240];
	static char big[70000];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	/* 200 bytes in 20-byte directories: fits ustar's prefix + name split */
	mid[0] = 0;
	for (int i = 0; i < 10; i++)
		strcat(mid, "dddddddddddddddddd/");
	strcat(mid, "file");
	/* 350 bytes without a usable split: needs pax */
	memset(longname, 'n', 350);
	longname[350] = 0;
	memset(longlink, 'l', 250);
	longlink[250] = 0;
	cr_assert_eq(pms_tar__new(&t, mem_sink, &a), 0);
	cr_assert_eq(pms_tar__add_dir(t, "usr/lib/libc.so.6/93ac61ec/", 0755, 1700000000), 0);
	cr_assert_eq(pms_tar__add_mem(t, "usr/lib/libc.so.6/93ac61ec/elf", big, sizeof(big), 0755, 1700000000), 0);
	cr_assert_eq(pms_tar__add_symlink(t, ".build-id/93/ac61ec", "../../usr/lib/libc.so.6/93ac61ec", 0), 0);
	cr_assert_eq(pms_tar__add_mem(t, "/leading/slash", "", 0, 0644, 0), 0);
	cr_assert_eq(pms_tar__add_mem(t, mid, "x", 1, 0600, 0), 0);
	cr_assert_eq(pms_tar__add_mem(t, longname, "yy", 2, 0644, 0), 0);
	cr_assert_eq(pms_tar__add_symlink(t, "l", longlink, 0), 0);
	cr_assert_eq(pms_tar__finish(t), 0);
	cr_expect_eq(pms_tar__bytes(t), a.len);
	pms_tar__free(t);

	cr_assert_eq(parse(&a, m, 8), 7);
	cr_expect_eq(m[0].type, '5');
	cr_expect_str_eq(m[0].path, "usr/lib/libc.so.6/93ac61ec/");
	cr_expect_eq(m[0].mode, 0755);
	cr_expect_eq(m[1].type, '0');
	cr_expect_eq(m[1].size, sizeof(big));
	cr_expect_eq(memcmp(m[1].data, big, sizeof(big)), 0);
	cr_expect_eq(m[2].type, '2');
	cr_expect_str_eq(m[2].link, "../../usr/lib/libc.so.6/93ac61ec");
	cr_expect_str_eq(m[3].path, "leading/slash");
	cr_expect_eq(m[3].size, 0);
	cr_expect_str_eq(m[4].path, mid);
	cr_expect_eq(m[4].mode, 0600);
	cr_expect_str_eq(m[5].path, longname);
	cr_expect_eq(memcmp(m[5].data, "yy", 2), 0);
	cr_expect_str_eq(m[6].link, longlink);
	free(a.p);
}

Test(tar, a_sink_error_sticks_and_bad_input_is_refused)
{
	struct mem a = { .fail_after = 1024 };
	struct pms_tar *t;
	char buf[4096] = { 0 };

	cr_assert_eq(pms_tar__new(&t, mem_sink, &a), 0);
	cr_expect_eq(pms_tar__add_mem(t, "", "x", 1, 0644, 0), -EINVAL);
	cr_expect_eq(pms_tar__add_symlink(t, "a", "", 0), -EINVAL);
	cr_expect_eq(pms_tar__add_mem(t, "big", buf, sizeof(buf), 0644, 0), -ENOSPC);
	cr_expect_eq(pms_tar__add_dir(t, "d", 0755, 0), -ENOSPC, "the first error sticks");
	cr_expect_eq(pms_tar__finish(t), -ENOSPC);
	pms_tar__free(t);
	free(a.p);
}

Test(tar, a_file_shorter_than_declared_fails_instead_of_lying)
{
	struct mem a = { 0 };
	struct pms_tar *t;
	int fds[2];

	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], "abc", 3), 3);
	close(fds[1]);
	cr_assert_eq(pms_tar__new(&t, mem_sink, &a), 0);
	cr_expect_eq(pms_tar__add_file_fd(t, "f", fds[0], 10, 0644, 0), -EIO);
	close(fds[0]);
	pms_tar__free(t);
	free(a.p);
}

/* Inflate a gzip member with zlib. */
static size_t gunzip(const unsigned char *in, size_t len, unsigned char *out, size_t cap)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	cr_assert_eq(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	rc = inflate(&z, Z_FINISH);
	cr_assert_eq(rc, Z_STREAM_END, "a whole gzip member (zlib says %d)", rc);
	cr_assert_eq(z.avail_in, 0, "nothing after the member");
	inflateEnd(&z);
	return cap - z.avail_out;
}

Test(tar, gzip_stream_round_trips_through_zlib_and_gnu_tar)
{
	char path[] = "/tmp/pms-tgz-XXXXXX", cmd[256];
	static unsigned char data[300000], back[400000];
	unsigned char *file;
	struct pms_gzstream *z;
	struct pms_tar *t;
	off_t end;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i % 251 ^ i / 977);
	cr_assert_eq(pms_gzstream__new(&z, fd, 6), 0);
	cr_assert_eq(pms_tar__new(&t, pms_gzstream__sink, z), 0);
	cr_assert_eq(pms_tar__add_dir(t, "d", 0755, 0), 0);
	cr_assert_eq(pms_tar__add_mem(t, "d/data", data, sizeof(data), 0644, 0), 0);
	cr_assert_eq(pms_tar__add_symlink(t, ".build-id/ab/cd", "../../d", 0), 0);
	cr_assert_eq(pms_tar__finish(t), 0);
	cr_assert_eq(pms_gzstream__finish(z), 0);
	pms_tar__free(t);
	pms_gzstream__free(z);
	end = lseek(fd, 0, SEEK_END);
	cr_assert_gt(end, 0);
	file = malloc((size_t)end);
	cr_assert_eq(pread(fd, file, (size_t)end, 0), end);
	close(fd);
	{
		size_t n = gunzip(file, (size_t)end, back, sizeof(back));
		struct mem a = { .p = back, .len = n };
		struct member m[4];

		cr_assert_eq(parse(&a, m, 4), 3);
		cr_expect_eq(memcmp(m[1].data, data, sizeof(data)), 0);
	}
	free(file);
	if (system("tar --version >/dev/null 2>&1")) {
		unlink(path);
		cr_skip_test("GNU tar is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "tar tzvf '%s' | grep -q '^lrwxrwxrwx .* \\.build-id/ab/cd -> \\.\\./\\.\\./d$'", path);
	cr_expect_eq(system(cmd), 0, "GNU tar lists the link");
	{
		char want[] = "/tmp/pms-tgz-data-XXXXXX";
		int wfd = mkstemp(want);

		cr_assert_geq(wfd, 0);
		cr_assert_eq(write(wfd, data, sizeof(data)), (ssize_t)sizeof(data));
		close(wfd);
		snprintf(cmd, sizeof(cmd), "tar xzOf '%s' d/data | cmp -s - '%s'", path, want);
		cr_expect_eq(system(cmd), 0, "GNU tar extracts the bytes written");
		unlink(want);
	}
	unlink(path);
}

/* What the zlib-less builds write: built here from the stored pieces across
 * several blocks (one exactly full), read by zlib. */
Test(tar, stored_gzip_pieces_make_a_member_zlib_reads)
{
	static unsigned char data[2 * PMS_GZIP_STORED_BLOCK_MAX + 17], gz[sizeof(data) + 64], back[sizeof(data)];
	size_t sizes[] = { 0, 1, PMS_GZIP_STORED_BLOCK_MAX, sizeof(data) };

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 2654435761u >> 13);
	cr_expect_eq(pms_gzip_stored__crc32(0, data, sizeof(data)), (uint32_t)crc32(0, data, sizeof(data)));
	cr_expect_eq(pms_gzip_stored__crc32(pms_gzip_stored__crc32(0, data, 1000), data + 1000, 5),
		     (uint32_t)crc32(0, data, 1005), "continues a running crc");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t len = sizes[k], left = len, n = 0;
		const unsigned char *p = data;

		memcpy(gz, pms_gzip_stored__header, sizeof(pms_gzip_stored__header));
		n = sizeof(pms_gzip_stored__header);
		do {
			uint16_t b = left > PMS_GZIP_STORED_BLOCK_MAX ? PMS_GZIP_STORED_BLOCK_MAX : (uint16_t)left;

			pms_gzip_stored__block_header(gz + n, b, left <= PMS_GZIP_STORED_BLOCK_MAX);
			memcpy(gz + n + 5, p, b);
			n += 5 + b;
			p += b;
			left -= b;
		} while (left);
		pms_gzip_stored__trailer(gz + n, pms_gzip_stored__crc32(0, data, len), (uint32_t)len);
		n += 8;
		cr_assert_eq(gunzip(gz, n, back, sizeof(back)), len, "%zu bytes", len);
		cr_expect_arr_eq(back, data, len);
	}
}
