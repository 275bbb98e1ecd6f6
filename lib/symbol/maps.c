// SPDX-License-Identifier: MIT
// /proc/PID/maps parser (file-backed, deleted, anonymous and special mappings).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/maps.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/hex.h"
#include "util/sysfs.h"

static int parse_hex(const char **p, const char *end, char stop, uint64_t *val)
{
	const char *s = *p;
	uint64_t v = 0;
	int digits = 0;

	while (s < end && *s != stop) {
		int d = pms_hex__digit(*s);

		if (d < 0)
			return -EINVAL;
		if (++digits > 16)
			return -EINVAL;
		v = v << 4 | (uint64_t)d;
		s++;
	}
	if (!digits || s >= end)
		return -EINVAL;
	*p = s + 1;
	*val = v;
	return 0;
}

static int parse_line(const char *s, const char *end, struct pms_map *m)
{
	uint64_t maj, min, ino = 0;
	const char *path;
	size_t plen;
	static const char deleted[] = " (deleted)";

	if (parse_hex(&s, end, '-', &m->start) || parse_hex(&s, end, ' ', &m->end) ||
	    m->end < m->start)
		return -EINVAL;
	if (end - s < 5 || s[4] != ' ')
		return -EINVAL;
	memcpy(m->prot, s, 4);
	m->prot[4] = '\0';
	s += 5;
	if (parse_hex(&s, end, ' ', &m->pgoff) || parse_hex(&s, end, ':', &maj) ||
	    parse_hex(&s, end, ' ', &min) || maj > UINT32_MAX || min > UINT32_MAX)
		return -EINVAL;
	m->dev_major = (uint32_t)maj;
	m->dev_minor = (uint32_t)min;
	while (s < end && *s >= '0' && *s <= '9') {
		if (ino > UINT64_MAX / 10)
			return -EINVAL;
		ino = ino * 10 + (uint64_t)(*s++ - '0');
	}
	m->inode = ino;
	while (s < end && *s == ' ')
		s++;
	path = s;
	plen = (size_t)(end - s);
	if (plen >= sizeof(deleted) - 1 &&
	    !memcmp(path + plen - (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1)) {
		m->deleted = true;
		plen -= sizeof(deleted) - 1;
	}
	m->anon = plen == 0;
	m->special = plen > 0 && path[0] == '[';
	m->path = strndup(path, plen);
	return m->path ? 0 : -ENOMEM;
}

int pms_maps__parse(const char *text, size_t len, struct pms_maps **out)
{
	struct pms_maps *maps = calloc(1, sizeof(*maps));
	size_t cap = 0;
	const char *p = text, *end = text + len;
	int err = 0;

	if (!maps)
		return -ENOMEM;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le > p) {
			if (pms_array__reserve(&maps->maps, &cap, maps->nr + 1, sizeof(*maps->maps))) {
				err = -ENOMEM;
				break;
			}
			memset(&maps->maps[maps->nr], 0, sizeof(maps->maps[0]));
			err = parse_line(p, le, &maps->maps[maps->nr]);
			if (err) {
				free(maps->maps[maps->nr].path);
				break;
			}
			maps->nr++;
		}
		p = le + 1;
	}
	if (err) {
		pms_maps__free(maps);
		return err;
	}
	*out = maps;
	return 0;
}

int pms_maps__read_pid(pid_t pid, struct pms_maps **out)
{
	char path[4096], *text;
	size_t len;
	int err;

	if (pid)
		err = pms_procfs__path(path, sizeof(path), "%d/maps", (int)pid);
	else
		err = pms_procfs__path(path, sizeof(path), "self/maps");
	if (err)
		return err;
	err = pms_file__read_all(path, &text, &len);
	if (err)
		return err;
	err = pms_maps__parse(text, len, out);
	free(text);
	return err;
}

void pms_maps__free(struct pms_maps *maps)
{
	if (!maps)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		free(maps->maps[i].path);
	free(maps->maps);
	free(maps);
}

const struct pms_map *pms_maps__find(const struct pms_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pms_map *m = &maps->maps[mid];

		if (addr < m->start)
			hi = mid;
		else if (addr >= m->end)
			lo = mid + 1;
		else
			return m;
	}
	return NULL;
}
