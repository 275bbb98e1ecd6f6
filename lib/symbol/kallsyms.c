// SPDX-License-Identifier: MIT
// /proc/kallsyms reader: kernel and module text symbols, kptr_restrict detection.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/kallsyms.h"
#include "util/fileio.h"
#include "util/sysfs.h"

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

int pms_kallsyms__parse(const char *text, size_t len, struct pms_kallsyms *ks)
{
	const char *p = text, *end = text + len;
	size_t lines = 0, zero = 0;
	int err = 0;

	memset(ks, 0, sizeof(*ks));
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *s = p, *name, *mod = NULL;
		size_t nlen, mlen = 0;
		uint64_t addr = 0;
		int digits = 0;
		char type;

		p = le + 1;
		if (le == s)
			continue;
		for (; s < le && *s != ' '; s++, digits++) {
			int d;

			if (*s >= '0' && *s <= '9')
				d = *s - '0';
			else if (*s >= 'a' && *s <= 'f')
				d = *s - 'a' + 10;
			else if (*s >= 'A' && *s <= 'F')
				d = *s - 'A' + 10;
			else
				return pms_kallsyms__release(ks), -EINVAL;
			addr = addr << 4 | (uint64_t)d;
		}
		if (!digits || digits > 16 || le - s < 4 || s[2] != ' ') {
			pms_kallsyms__release(ks);
			return -EINVAL;
		}
		type = s[1];
		name = s + 3;
		nlen = (size_t)(le - name);
		const char *tab = memchr(name, '\t', nlen);

		if (tab) {
			nlen = (size_t)(tab - name);
			const char *ms = tab + 1;

			if (ms < le && *ms == '[') {
				const char *me = memchr(ms, ']', (size_t)(le - ms));

				if (me) {
					mod = ms + 1;
					mlen = (size_t)(me - mod);
				}
			}
		}
		lines++;
		if (!addr) {
			zero++;
			continue;
		}
		if (!is_text(type) || !nlen)
			continue;
		err = pms_symtab__add(&ks->tab, addr, 0, name, nlen, mod, mlen, type);
		if (!err && mod)
			ks->nr_modules_syms++;
	}
	if (err) {
		pms_kallsyms__release(ks);
		return err;
	}
	if (lines && zero == lines) {
		ks->restricted = true;
		return -EACCES;
	}
	/* The last symbol gets one page: kallsyms has no sizes and no end marker. */
	uint64_t max = 0;

	for (size_t i = 0; i < ks->tab.nr; i++)
		if (ks->tab.syms[i].start > max)
			max = ks->tab.syms[i].start;
	pms_symtab__finish(&ks->tab, max + 4096);
	return 0;
}

int pms_kallsyms__load(struct pms_kallsyms *ks)
{
	char path[4096], *text;
	size_t len;
	int err = pms_procfs__path(path, sizeof(path), "kallsyms");

	if (err)
		return err;
	err = pms_file__read_all(path, &text, &len);
	if (err)
		return err;
	err = pms_kallsyms__parse(text, len, ks);
	free(text);
	return err;
}

const struct pms_tsym *pms_kallsyms__find(const struct pms_kallsyms *ks, uint64_t addr)
{
	return pms_symtab__find(&ks->tab, addr);
}

void pms_kallsyms__release(struct pms_kallsyms *ks)
{
	pms_symtab__release(&ks->tab);
	ks->nr_modules_syms = 0;
}
