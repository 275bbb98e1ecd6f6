// SPDX-License-Identifier: MIT
// /proc/kallsyms reader: kernel and module text symbols, kptr_restrict detection.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/buildid_cache.h"
#include "symbol/kallsyms.h"
#include "symbol/sysobj.h"
#include "util/array.h"
#include "util/fileio.h"
#include "util/hash.h"
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
	/*
	 * A symbol followed by another module's (or the core's last one by the
	 * first module's) does not reach across the gap between them: like the
	 * last symbol, it gets a page.
	 */
	for (size_t i = 0; i + 1 < ks->tab.nr; i++) {
		struct pms_tsym *t = &ks->tab.syms[i];
		const struct pms_tsym *n = &ks->tab.syms[i + 1];
		bool same = (!t->module && !n->module) || (t->module && n->module && !strcmp(t->module, n->module));

		if (!same && t->size > 4096)
			t->size = 4096;
	}
	/* where the core kernel's own symbols lie (text and init text, no modules) */
	for (size_t i = 0; i < ks->tab.nr; i++) {
		const struct pms_tsym *t = &ks->tab.syms[i];

		if (t->module)
			continue;
		if (!ks->core_hi)
			ks->core_lo = t->start;
		ks->core_hi = t->start + t->size;
	}
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
		if (pms_array__reserve(&ks->modules, &cap, ks->nr_modules + 1, sizeof(*ks->modules))) {
			free_modules(ks);
			return -ENOMEM;
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


/* ---- the index: parsed kallsyms kept in the build-id cache ---- */

/*
 * The format: a header, nr fixed-size entries sorted by start, a string
 * table. The key says what the symbols were read from; a changed FNV hash or
 * layout only costs a rebuild (bump the magic).
 */
#define IDX_MAGIC "PMSKSYM3" /* 3: aliases chosen as perf does */
#define HEAD_BYTES (64u << 10)

struct idx_header {
	char magic[8];
	uint64_t key[2];
	uint64_t nr, strtab_size;
	uint64_t text_addr, stext_addr, etext_addr;
	uint64_t core_lo, core_hi; /* 0, 0: every symbol of the source */
};

struct idx_sym {
	uint64_t start, size;
	uint32_t name, module; /* strtab offsets; module 0 = none */
	char type;
	char pad[7];
};

struct pms_kallsyms_rest {
	bool tried;
	int err;
	struct pms_kallsyms full;
};

static bool index_enabled(void)
{
	const char *e = getenv("PMS_KSYM_INDEX");

	return !e || strcmp(e, "0");
}

/* The table as an index (core symbols only when core_only), malloc()ed into *out. */
static int index_serialize(const struct pms_kallsyms *ks, bool core_only, const uint64_t key[2], char **out,
			   size_t *len)
{
	struct idx_header h = { .key = { key[0], key[1] } };
	size_t nr = 0, strsz = 1, off;
	struct idx_sym *e;
	char *buf, *str;

	for (size_t i = 0; i < ks->tab.nr; i++) {
		const struct pms_tsym *t = &ks->tab.syms[i];

		if (core_only && t->module)
			continue;
		nr++;
		strsz += strlen(t->name) + 1 + (t->module ? strlen(t->module) + 1 : 0);
	}
	if (strsz > UINT32_MAX)
		return -EFBIG;
	memcpy(h.magic, IDX_MAGIC, 8);
	h.nr = nr;
	h.strtab_size = strsz;
	h.text_addr = ks->text_addr;
	h.stext_addr = ks->stext_addr;
	h.etext_addr = ks->etext_addr;
	*len = sizeof(h) + nr * sizeof(*e) + strsz;
	buf = calloc(1, *len);
	if (!buf)
		return -ENOMEM;
	e = (struct idx_sym *)(buf + sizeof(h));
	str = buf + sizeof(h) + nr * sizeof(*e);
	off = 1;
	for (size_t i = 0, k = 0; i < ks->tab.nr; i++) {
		const struct pms_tsym *t = &ks->tab.syms[i];
		size_t n;

		if (core_only && t->module)
			continue;
		if (!k)
			h.core_lo = t->start;
		h.core_hi = t->start + t->size;
		e[k].start = t->start;
		e[k].size = t->size;
		e[k].type = t->type;
		n = strlen(t->name) + 1;
		memcpy(str + off, t->name, n);
		e[k].name = (uint32_t)off;
		off += n;
		if (t->module) {
			n = strlen(t->module) + 1;
			memcpy(str + off, t->module, n);
			e[k].module = (uint32_t)off;
			off += n;
		}
		k++;
	}
	if (!core_only)
		h.core_lo = h.core_hi = 0;
	memcpy(buf, &h, sizeof(h));
	*out = buf;
	return 0;
}

/* Map the index at path if it was made from the source key says; the table then borrows its strings. */
static int index_map(const char *path, const uint64_t key[2], struct pms_kallsyms *ks)
{
	struct idx_header h;
	const struct idx_sym *e;
	const char *str;
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(h)) {
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	memcpy(&h, map, sizeof(h));
	/* a stale or damaged index is rebuilt, never trusted */
	if (memcmp(h.magic, IDX_MAGIC, 8) || h.key[0] != key[0] || h.key[1] != key[1] || !h.nr ||
	    h.nr > ((size_t)st.st_size - sizeof(h)) / sizeof(*e) || !h.strtab_size ||
	    sizeof(h) + h.nr * sizeof(*e) + h.strtab_size != (uint64_t)st.st_size)
		goto stale;
	e = (const struct idx_sym *)((const char *)map + sizeof(h));
	str = (const char *)map + sizeof(h) + h.nr * sizeof(*e);
	if (str[h.strtab_size - 1])
		goto stale;
	ks->tab.syms = calloc(h.nr, sizeof(*ks->tab.syms));
	if (!ks->tab.syms) {
		munmap(map, (size_t)st.st_size);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h.nr; i++) {
		struct pms_tsym *t = &ks->tab.syms[i];

		if (e[i].name >= h.strtab_size || e[i].module >= h.strtab_size || !e[i].size ||
		    (i && e[i].start < e[i - 1].start + e[i - 1].size)) {
			free(ks->tab.syms);
			ks->tab.syms = NULL;
			goto stale;
		}
		t->start = e[i].start;
		t->size = e[i].size;
		t->type = e[i].type;
		t->name = (char *)str + e[i].name;
		t->module = e[i].module ? (char *)str + e[i].module : NULL;
		if (t->module)
			ks->nr_modules_syms++;
	}
	ks->tab.nr = ks->tab.cap = h.nr;
	ks->tab.borrowed_names = true;
	/* the index was read whole to check it: only the names looked up need to stay */
	pms_mem__drop_pages(map, (size_t)st.st_size);
	ks->text_addr = h.text_addr;
	ks->stext_addr = h.stext_addr;
	ks->etext_addr = h.etext_addr;
	ks->core_lo = h.core_lo;
	ks->core_hi = h.core_hi;
	ks->idx_map = map;
	ks->idx_len = (size_t)st.st_size;
	ks->from_index = true;
	return 0;
stale:
	munmap(map, (size_t)st.st_size);
	return -ESTALE;
}

/* Up to HEAD_BYTES of path: what the running kernel's index is checked against. */
static ssize_t read_head(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	while (n < size) {
		ssize_t r = read(fd, buf + n, size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (ssize_t)n;
}

/* "<addr> T _text" among the head's lines, or 0. */
static uint64_t head_text_addr(const char *head, size_t len)
{
	for (const char *p = head; p < head + len;) {
		const char *nl = memchr(p, '\n', (size_t)(head + len - p));
		const char *sp = memchr(p, ' ', (size_t)((nl ? nl : head + len) - p));

		if (!nl)
			break;
		if (sp && nl - sp == 8 && !memcmp(sp + 2, " _text", 6)) {
			uint64_t a = 0;

			for (const char *d = p; d < sp; d++)
				a = a << 4 | (uint64_t)pms_hex__digit(*d);
			return a;
		}
		p = nl + 1;
	}
	return 0;
}

static int load_proc_full(struct pms_kallsyms *ks)
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

static void load_proc_modules(struct pms_kallsyms *ks)
{
	char path[4096], *text;
	size_t len;

	/* Module ranges are a bonus: a missing or odd /proc/modules is not an error. */
	if (!pms_procfs__path(path, sizeof(path), "modules") && !pms_file__read_all(path, &text, &len)) {
		(void)pms_kallsyms__parse_modules(text, len, ks);
		free(text);
	}
}

int pms_kallsyms__load(struct pms_kallsyms *ks)
{
	char path[4096], dir[4096], name[64], idx[4600], *head = NULL, *buf;
	uint8_t bid[20];
	uint64_t key[2] = { 0 };
	int nbid = -ENOENT, err;
	bool use_index = false;
	ssize_t hlen;
	size_t len;

	memset(ks, 0, sizeof(*ks));
	err = pms_procfs__path(path, sizeof(path), "kallsyms");
	if (err)
		return err;
	if (index_enabled() && (nbid = pms_kernel__build_id(bid, sizeof(bid))) > 0 &&
	    !pms_buildid_cache__dir(dir, sizeof(dir)) && (head = malloc(HEAD_BYTES))) {
		hlen = read_head(path, head, HEAD_BYTES);
		key[1] = hlen > 0 ? head_text_addr(head, (size_t)hlen) : 0;
		if (key[1]) {
			key[0] = pms_hash__bytes(pms_hash__bytes(PMS_HASH_SEED, bid, (size_t)nbid), head, (size_t)hlen);
			snprintf(name, sizeof(name), "pmuscope-ksyms-%" PRIx64 ".idx", key[1]);
			use_index = !pms_buildid_cache__entry_path(dir, "[kernel.kallsyms]", bid, (size_t)nbid, name, idx,
								   sizeof(idx));
		}
		free(head);
	}
	if (use_index && !(err = index_map(idx, key, ks))) {
		ks->rest = calloc(1, sizeof(*ks->rest));
		if (!ks->rest) {
			pms_kallsyms__release(ks);
			return -ENOMEM;
		}
		load_proc_modules(ks);
		return 0;
	}
	/* a stale index is replaced (the cache only adds what is missing) */
	if (use_index && err == -ESTALE)
		unlink(idx);
	err = load_proc_full(ks);
	if (err)
		return err;
	if (use_index && !index_serialize(ks, true, key, &buf, &len)) {
		/* best effort: a read-only or full cache only costs the next run a parse */
		(void)pms_buildid_cache__add_mem(dir, "[kernel.kallsyms]", bid, (size_t)nbid, name, buf, len, NULL);
		free(buf);
	}
	load_proc_modules(ks);
	return 0;
}

int pms_kallsyms__load_file_indexed(const char *path, struct pms_kallsyms *ks)
{
	char idx[4200], *head, *buf, *slash;
	uint64_t key[2];
	struct stat st;
	ssize_t hlen;
	size_t len;
	int err;

	memset(ks, 0, sizeof(*ks));
	if (!index_enabled() || stat(path, &st) || snprintf(idx, sizeof(idx), "%s", path) >= (int)sizeof(idx) ||
	    !(slash = strrchr(idx, '/')) || (size_t)(slash - idx) + 32 >= sizeof(idx))
		return pms_kallsyms__load_file(path, ks);
	snprintf(slash + 1, sizeof(idx) - (size_t)(slash + 1 - idx), "pmuscope-ksyms-all.idx");
	head = malloc(HEAD_BYTES);
	if (!head)
		return -ENOMEM;
	hlen = read_head(path, head, HEAD_BYTES);
	key[0] = pms_hash__bytes((uint64_t)st.st_size * 0x9e3779b97f4a7c15ULL, head, hlen > 0 ? (size_t)hlen : 0);
	key[1] = (uint64_t)st.st_mtim.tv_sec * 1000000000ULL + (uint64_t)st.st_mtim.tv_nsec;
	free(head);
	if (!index_map(idx, key, ks))
		return 0;
	err = pms_kallsyms__load_file(path, ks);
	if (err)
		return err;
	if (!index_serialize(ks, false, key, &buf, &len)) {
		char tmp[4300];
		int fd;

		snprintf(tmp, sizeof(tmp), "%s.XXXXXX", idx);
		fd = mkstemp(tmp);
		if (fd >= 0) {
			bool ok = write(fd, buf, len) == (ssize_t)len && !fchmod(fd, 0644);

			if (close(fd) || !ok || rename(tmp, idx))
				unlink(tmp);
		}
		free(buf);
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
	char path[4096];
	int err = pms_sysfs__path(path, sizeof(path), "kernel/notes");

	return err ? err : pms_build_id__from_notes_file(path, buf, size);
}

const struct pms_tsym *pms_kallsyms__find(const struct pms_kallsyms *ks, uint64_t addr)
{
	if (ks->rest && (addr < ks->core_lo || addr >= ks->core_hi)) {
		struct pms_kallsyms_rest *r = ks->rest;

		if (!r->tried) {
			r->tried = true;
			r->err = load_proc_full(&r->full);
		}
		return r->err ? NULL : pms_symtab__find(&r->full.tab, addr);
	}
	return pms_symtab__find(&ks->tab, addr);
}

void pms_kallsyms__release(struct pms_kallsyms *ks)
{
	free_modules(ks);
	pms_symtab__release(&ks->tab);
	if (ks->rest) {
		pms_kallsyms__release(&ks->rest->full);
		free(ks->rest);
	}
	if (ks->idx_map)
		munmap(ks->idx_map, ks->idx_len);
	memset(ks, 0, sizeof(*ks));
}
