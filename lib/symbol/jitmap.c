// SPDX-License-Identifier: MIT
// perf-PID.map JIT symbol map reader.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/jitmap.h"
#include "util/fileio.h"
#include "util/hex.h"

static const char *hex_field(const char *s, const char *end, uint64_t *val)
{
	uint64_t v = 0;
	int digits = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; s < end && *s != ' '; s++) {
		int d = pms_hex__digit(*s);

		if (d < 0)
			return NULL;
		if (++digits > 16)
			return NULL;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits || s >= end)
		return NULL;
	*val = v;
	return s + 1;
}

int pms_jitmap__parse(const char *text, size_t len, struct pms_jitmap *jm)
{
	const char *p = text, *end = text + len;
	int err = 0;

	memset(jm, 0, sizeof(*jm));
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s = p;
		uint64_t start, size;

		p = le + 1;
		if (le > s && le[-1] == '\r')
			le--;
		if (le == s)
			continue;
		s = hex_field(s, le, &start);
		if (s)
			s = hex_field(s, le, &size);
		if (!s || s >= le || !size || start + size < start) {
			jm->nr_bad_lines++;
			continue;
		}
		err = pms_symtab__add(&jm->tab, start, size, s, (size_t)(le - s), NULL, 0, 0);
	}
	if (err) {
		pms_jitmap__release(jm);
		return err;
	}
	pms_symtab__finish(&jm->tab, 0);
	return 0;
}

int pms_jitmap__load(const char *path, struct pms_jitmap *jm)
{
	char *text;
	size_t len;
	int err = pms_file__read_all(path, &text, &len);

	if (err)
		return err;
	err = pms_jitmap__parse(text, len, jm);
	free(text);
	return err;
}

int pms_jitmap__load_pid(pid_t pid, struct pms_jitmap *jm)
{
	const char *dir = getenv("PMS_JITMAP_DIR");
	char path[4096];
	int n;

	if (!dir || !*dir)
		dir = "/tmp";
	n = snprintf(path, sizeof(path), "%s/perf-%d.map", dir, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return pms_jitmap__load(path, jm);
}

const struct pms_tsym *pms_jitmap__find(const struct pms_jitmap *jm, uint64_t addr)
{
	return pms_symtab__find(&jm->tab, addr);
}

void pms_jitmap__release(struct pms_jitmap *jm)
{
	pms_symtab__release(&jm->tab);
	jm->nr_bad_lines = 0;
}

const char *pms_jitmap__dso_short_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	unsigned tid;

	/* perf's dso__set_basename(): sscanf(name, "/tmp/perf-%d.map") == 1, whatever follows the number */
	if (size && sscanf(path, "/tmp/perf-%u", &tid) == 1) {
		snprintf(buf, size, "[JIT] tid %u", tid);
		return buf;
	}
	return base && base[1] ? base + 1 : path;
}
