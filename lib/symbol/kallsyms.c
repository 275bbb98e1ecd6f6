// SPDX-License-Identifier: MIT
// /proc/kallsyms reader: kernel and module text symbols, kptr_restrict detection.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/kallsyms.h"
#include "util/fileio.h"
#include "util/hex.h"
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
			int d = pms_hex__digit(*s);

			if (d < 0)
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
		if (!mod && nlen == 5 && !memcmp(name, "_text", 5))
			ks->text_addr = addr;
		else if (!mod && nlen == 6 && !memcmp(name, "_stext", 6))
			ks->stext_addr = addr;
		else if (!mod && nlen == 6 && !memcmp(name, "_etext", 6))
			ks->etext_addr = addr;
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

static void free_modules(struct pms_kallsyms *ks)
{
	for (size_t i = 0; i < ks->nr_modules; i++)
		free(ks->modules[i].name);
	free(ks->modules);
	ks->modules = NULL;
	ks->nr_modules = 0;
}

static int kmod_cmp(const void *a, const void *b)
{
	const struct pms_kmodule *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* "name size refcount deps state 0xaddr [taint]" per line. */
int pms_kallsyms__parse_modules(const char *text, size_t len, struct pms_kallsyms *ks)
{
	const char *p = text, *end = text + len;
	size_t cap = 0;

	free_modules(ks);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		char line[512], name[128], addr[32];
		unsigned long long size;
		uint64_t start;
		size_t n = (size_t)(le - p);

		p = le + 1;
		if (!n)
			continue;
		if (n >= sizeof(line)) {
			free_modules(ks);
			return -EINVAL;
		}
		memcpy(line, p - 1 - n, n);
		line[n] = '\0';
		if (sscanf(line, "%127s %llu %*s %*s %*s %31s", name, &size, addr) != 3 ||
		    pms_str__to_u64(addr, &start)) {
			free_modules(ks);
			return -EINVAL;
		}
		if (!start)
			continue; /* kptr_restrict hides module addresses too */
		if (ks->nr_modules == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct pms_kmodule *m = realloc(ks->modules, ncap * sizeof(*m));

			if (!m) {
				free_modules(ks);
				return -ENOMEM;
			}
			ks->modules = m;
			cap = ncap;
		}
		ks->modules[ks->nr_modules] = (struct pms_kmodule){ .name = strdup(name),
								    .start = start, .size = size };
		if (!ks->modules[ks->nr_modules].name) {
			free_modules(ks);
			return -ENOMEM;
		}
		ks->nr_modules++;
	}
	if (ks->nr_modules)
		qsort(ks->modules, ks->nr_modules, sizeof(*ks->modules), kmod_cmp);
	return 0;
}

const struct pms_kmodule *pms_kallsyms__module_of(const struct pms_kallsyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr_modules;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->modules[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	return addr - ks->modules[lo - 1].start < ks->modules[lo - 1].size ? &ks->modules[lo - 1] : NULL;
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
	if (err)
		return err;
	/* Module ranges are a bonus: a missing or odd /proc/modules is not an error. */
	if (!pms_procfs__path(path, sizeof(path), "modules") &&
	    !pms_file__read_all(path, &text, &len)) {
		(void)pms_kallsyms__parse_modules(text, len, ks);
		free(text);
	}
	return 0;
}

int pms_kallsyms__load_file(const char *path, struct pms_kallsyms *ks)
{
	char *text;
	size_t len;
	int err = pms_file__read_all(path, &text, &len);

	if (err)
		return err;
	err = pms_kallsyms__parse(text, len, ks);
	free(text);
	return err;
}

uint64_t pms_kallsyms__ref_addr(const struct pms_kallsyms *ks, const char *name)
{
	if (!strcmp(name, "_text"))
		return ks->text_addr;
	if (!strcmp(name, "_stext"))
		return ks->stext_addr;
	if (!strcmp(name, "_etext"))
		return ks->etext_addr;
	return 0;
}

int pms_kernel__build_id(uint8_t *buf, size_t size)
{
	char path[4096], *notes;
	size_t len, off = 0;
	int err = pms_sysfs__path(path, sizeof(path), "kernel/notes");

	if (err)
		return err;
	err = pms_file__read_all(path, &notes, &len);
	if (err)
		return err;
	/* ELF notes: namesz, descsz, type, then name and desc, each padded to 4 bytes */
	err = -ENOENT;
	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off, next;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len || desc_off < name_off)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(notes + name_off, "GNU", 4)) {
			if (descsz > size) {
				err = -ENOSPC;
				break;
			}
			memcpy(buf, notes + desc_off, descsz);
			err = (int)descsz;
			break;
		}
		off = next;
	}
	free(notes);
	return err;
}

const struct pms_tsym *pms_kallsyms__find(const struct pms_kallsyms *ks, uint64_t addr)
{
	return pms_symtab__find(&ks->tab, addr);
}

void pms_kallsyms__release(struct pms_kallsyms *ks)
{
	free_modules(ks);
	pms_symtab__release(&ks->tab);
	ks->nr_modules_syms = 0;
	ks->text_addr = ks->stext_addr = ks->etext_addr = 0;
}
