// SPDX-License-Identifier: MIT
// ELF objects through libelf: build-id, PT_LOAD mapping arithmetic, sorted function symbols, debug-file lookup.
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "symbol/buildid_cache.h"
#include "symbol/debuginfod.h"
#include "symbol/dso.h"
#include "symbol/sym_alias.h"
#include "util/fileio.h"
#include "util/print.h"
#include "util/sysfs.h"

static int elf_lib_init(void)
{
	static int done;

	if (!done) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			return -ENOSYS;
		done = 1;
	}
	return 0;
}

size_t pms_build_id__to_hex(const uint8_t *id, size_t size, char *hex, size_t hex_size)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = 0;

	if (!hex_size)
		return 0;
	for (size_t i = 0; i < size && n + 2 < hex_size; i++) {
		hex[n++] = digits[id[i] >> 4];
		hex[n++] = digits[id[i] & 15];
	}
	hex[n] = '\0';
	return n;
}

/* NT_GNU_BUILD_ID from any SHT_NOTE section, else any PT_NOTE segment. */
static int elf_build_id(Elf *elf, uint8_t *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	size_t phnum;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff, next;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		while ((next = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    doff <= d->d_size && nh.n_descsz <= d->d_size - doff &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				size_t n = nh.n_descsz < size ? nh.n_descsz : size;

				memcpy(buf, (char *)d->d_buf + doff, n);
				return (int)n;
			}
			off = next;
		}
	}
	if (elf_getphdrnum(elf, &phnum))
		return -ENOENT;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff, next;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (!d || !d->d_buf)
			continue;
		while ((next = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    doff <= d->d_size && nh.n_descsz <= d->d_size - doff &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				size_t n = nh.n_descsz < size ? nh.n_descsz : size;

				memcpy(buf, (char *)d->d_buf + doff, n);
				return (int)n;
			}
			off = next;
		}
	}
	return -ENOENT;
}

static int open_elf(const char *path, int *fdp, Elf **elfp)
{
	int fd, err = elf_lib_init();
	Elf *elf;

	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -ENOEXEC;
	}
	*fdp = fd;
	*elfp = elf;
	return 0;
}

int pms_build_id__read(const char *path, uint8_t *buf, size_t size)
{
	int fd, n;
	Elf *elf;

	n = open_elf(path, &fd, &elf);
	if (n)
		return n;
	n = elf_build_id(elf, buf, size);
	elf_end(elf);
	close(fd);
	return n;
}

int pms_file__crc32(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	*crc = (uint32_t)c;
	return 0;
}

static Elf_Scn *find_scn(Elf *elf, const char *name, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, out))
			continue;
		n = elf_strptr(elf, shstrndx, out->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static void read_debuglink(struct pms_dso *dso, Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_scn(elf, ".gnu_debuglink", &sh);
	Elf_Data *d, crcd, crcs;
	size_t len, crcoff;
	uint32_t crc;

	if (!scn || sh.sh_type == SHT_NOBITS)
		return;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || !d->d_size)
		return;
	len = strnlen(d->d_buf, d->d_size);
	crcoff = (len + 4) & ~(size_t)3;
	if (len == 0 || len == d->d_size || crcoff + 4 > d->d_size)
		return;
	/* The CRC is stored in the file's byte order. */
	crcs.d_buf = (char *)d->d_buf + crcoff;
	crcs.d_size = 4;
	crcs.d_type = ELF_T_WORD;
	crcs.d_version = EV_CURRENT;
	crcd.d_buf = &crc;
	crcd.d_size = 4;
	crcd.d_type = ELF_T_WORD;
	crcd.d_version = EV_CURRENT;
	if (!gelf_xlatetom(elf, &crcd, &crcs, elf_getident(elf, NULL)[EI_DATA]))
		return;
	dso->debuglink = d->d_buf;
	dso->debuglink_crc = crc;
}

int pms_debuglink__read(const char *path, char *name, size_t size)
{
	struct pms_dso tmp = { .fd = -1, .debug_fd = -1 };
	Elf *elf;
	int fd, n = open_elf(path, &fd, &elf);

	if (n)
		return n;
	read_debuglink(&tmp, elf);
	n = tmp.debuglink ? snprintf(name, size, "%s", tmp.debuglink) : -1;
	elf_end(elf);
	close(fd);
	if (n < 0)
		return -ENOENT;
	return (size_t)n < size ? 0 : -ENAMETOOLONG;
}

static int read_segs(struct pms_dso *dso, Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) || !phnum)
		return 0;
	if (phnum > 65536)
		return -EINVAL;
	dso->segs = calloc(phnum, sizeof(*dso->segs));
	if (!dso->segs)
		return -ENOMEM;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->segs[dso->nr_segs++] = (struct pms_load_seg){
			.vaddr = ph.p_vaddr, .memsz = ph.p_memsz,
			.offset = ph.p_offset, .filesz = ph.p_filesz, .flags = ph.p_flags,
		};
	}
	return 0;
}

/* perf's test for a code section: "text" in its name (.text, .init.text, .text.hot). */
static bool is_text_section(Elf *elf, const GElf_Shdr *sh)
{
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	name = elf_strptr(elf, shstrndx, sh->sh_name);
	return name && strstr(name, "text");
}

/* Loaded tables hold one symbol per address: the start orders them. */
static int sym_cmp(const void *a, const void *b)
{
	const struct pms_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Section end (vaddr) per symbol, to bound zero-size symbols; kept in a side array. */
struct raw_sym {
	struct pms_sym s;
	uint64_t sec_end;
	size_t index;      /* in the symbol table: perf's last tie-break among aliases */
};

/* By address; at one address the name perf keeps first (sym_alias.h). */
static int raw_cmp(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;
	int c;

	if (x->s.start != y->s.start)
		return x->s.start < y->s.start ? -1 : 1;
	c = pms_sym_alias__cmp(&(struct pms_sym_alias){ x->s.size != 0, x->s.bind, x->s.name },
			       &(struct pms_sym_alias){ y->s.size != 0, y->s.bind, y->s.name });
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Loads STT_FUNC/IFUNC symbols of the first section of type `type`. 0 if none, >0 count, <0 error. */
static int load_syms(struct pms_dso *dso, Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t count, n = 0, shnum;
	struct raw_sym *raw;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			break;
	if (!scn || !sh.sh_entsize)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return 0;
	if (elf_getshdrnum(elf, &shnum))
		shnum = 0;
	count = d->d_size / sh.sh_entsize;
	if (!count)
		return 0;
	/* A previous attempt (e.g. a .symtab without functions) is replaced. */
	free(dso->syms);
	dso->syms = NULL;
	dso->nr_syms = 0;
	raw = calloc(count, sizeof(*raw));
	if (!raw)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		int t;
		Elf_Scn *sec;
		GElf_Shdr ssh;
		uint64_t sec_end = UINT64_MAX;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= SHN_LORESERVE || !sym.st_value)
			continue;
		/* Assembly labels name code as perf names it (ld.so's _start, _dl_start_user), but only
		 * visible ones in a text section: the rest mark data and section ends. */
		if (t == STT_NOTYPE && GELF_ST_VISIBILITY(sym.st_other) != STV_DEFAULT)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		/* ARM mapping symbols ($x, $d) are not functions. */
		if (!name || !*name || name[0] == '$')
			continue;
		sec = sym.st_shndx < shnum ? elf_getscn(elf, sym.st_shndx) : NULL;
		if (!sec || !gelf_getshdr(sec, &ssh)) {
			if (t == STT_NOTYPE)
				continue;
		} else {
			if (t == STT_NOTYPE && !is_text_section(elf, &ssh))
				continue;
			if (ssh.sh_addr <= sym.st_value)
				sec_end = ssh.sh_addr + ssh.sh_size;
		}
		raw[n].s = (struct pms_sym){ .start = sym.st_value, .size = sym.st_size,
					     .name = name, .bind = GELF_ST_BIND(sym.st_info) };
		raw[n].sec_end = sec_end;
		raw[n].index = i;
		n++;
	}
	qsort(raw, n, sizeof(*raw), raw_cmp);
	dso->syms = calloc(n ? n : 1, sizeof(*dso->syms));
	if (!dso->syms) {
		free(raw);
		return -ENOMEM;
	}
	dso->nr_syms = 0;
	for (size_t i = 0; i < n; i++) {
		struct pms_sym *last = dso->nr_syms ? &dso->syms[dso->nr_syms - 1] : NULL;
		size_t j;

		if (last && last->start == raw[i].s.start) {
			/* An alias: the sorted order already put the preferred name first. */
			if (!last->size && raw[i].s.size)
				last->size = raw[i].s.size;
			continue;
		}
		dso->syms[dso->nr_syms] = raw[i].s;
		if (!raw[i].s.size) {
			uint64_t end = raw[i].sec_end;

			for (j = i + 1; j < n && raw[j].s.start == raw[i].s.start; j++)
				;
			if (j < n && raw[j].s.start < end)
				end = raw[j].s.start;
			if (end == UINT64_MAX || end <= raw[i].s.start)
				end = raw[i].s.start + 1;
			dso->syms[dso->nr_syms].size = end - raw[i].s.start;
			dso->syms[dso->nr_syms].size_guessed = true;
		}
		dso->nr_syms++;
	}
	free(raw);
	return dso->nr_syms ? (int)dso->nr_syms : 0;
}

static bool elf_has_scn(Elf *elf, const char *name)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_scn(elf, name, &sh);

	return scn && sh.sh_type != SHT_NOBITS;
}

static int dso_init(struct pms_dso *dso, Elf *elf)
{
	GElf_Ehdr eh;
	int n;

	if (!gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	dso->e_type = eh.e_type;
	dso->e_machine = eh.e_machine;
	dso->e_entry = eh.e_entry;
	n = elf_build_id(elf, dso->build_id, sizeof(dso->build_id));
	dso->build_id_size = n > 0 ? (size_t)n : 0;
	read_debuglink(dso, elf);
	dso->has_debug_info = elf_has_scn(elf, ".debug_info");
	return read_segs(dso, elf);
}

static struct pms_dso *dso_alloc(void)
{
	struct pms_dso *dso = calloc(1, sizeof(*dso));

	if (dso) {
		dso->fd = -1;
		dso->debug_fd = -1;
		dso->frame_pointers = -2;
	}
	return dso;
}

/*
 * The file pages read while indexing (the whole symbol table, most of its
 * strings) go back to the page cache: the mapping stays, and a lookup
 * faults in only the page of the name it returns. A live profiler holds
 * hundreds of objects, and their tables would otherwise stay resident.
 */
static void release_indexed_pages(struct pms_dso *dso)
{
	/* file mappings only: an image opened from memory is the caller's, and dropping it would zero it */
	Elf *elfs[2] = { dso->fd >= 0 ? dso->elf : NULL, dso->debug_fd >= 0 ? dso->debug_elf : NULL };

	for (int i = 0; i < 2; i++) {
		size_t size = 0;
		char *raw = elfs[i] ? elf_rawfile(elfs[i], &size) : NULL;

		if (raw && size)
			pms_mem__drop_pages(raw, size);
	}
}

static int dso_load_all_syms(struct pms_dso *dso, bool debug_lookup)
{
	int n = load_syms(dso, dso->elf, SHT_SYMTAB);
	char dbg[4096];

	if (n)
		return n < 0 ? n : 0;
	if (debug_lookup && !pms_dso__find_debug_file(dso, dbg, sizeof(dbg))) {
		int fd;
		Elf *elf;

		if (!open_elf(dbg, &fd, &elf)) {
			dso->debug_fd = fd;
			dso->debug_elf = elf;
			dso->debug_path = strdup(dbg);
			if (!dso->debug_path)
				return -ENOMEM;
			n = load_syms(dso, elf, SHT_SYMTAB);
			if (n)
				return n < 0 ? n : 0;
		}
	}
	free(dso->syms);
	dso->syms = NULL;
	n = load_syms(dso, dso->elf, SHT_DYNSYM);
	dso->syms_from_dynsym = true;
	return n < 0 ? n : 0;
}

/*
 * "name@plt" symbols for the lazy-binding PLT: JUMP_SLOT relocation i of
 * .rela.plt is the i-th entry of .plt.sec (IBT), else entry i after the
 * .plt header (16 bytes on x86_64, 32 on arm64); entries are 16 bytes.
 */
static int add_plt_syms(struct pms_dso *dso, Elf *elf)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn = find_scn(elf, ".rela.plt", &rsh), *pscn, *dscn;
	Elf_Data *rd, *dd;
	uint64_t base, header;
	size_t count, names_len = 0, off = 0, n = 0;
	struct pms_sym *grown;

	if (dso->e_machine != EM_X86_64 && dso->e_machine != EM_AARCH64)
		return 0;
	if (!rscn || rsh.sh_type != SHT_RELA || !rsh.sh_entsize)
		return 0;
	pscn = find_scn(elf, ".plt.sec", &psh);
	header = 0;
	if (!pscn) {
		pscn = find_scn(elf, ".plt", &psh);
		header = dso->e_machine == EM_X86_64 ? 16 : 32;
	}
	dscn = elf_getscn(elf, rsh.sh_link);
	if (!pscn || !dscn || !gelf_getshdr(dscn, &dsh) || !dsh.sh_entsize)
		return 0;
	rd = elf_getdata(rscn, NULL);
	dd = elf_getdata(dscn, NULL);
	if (!rd || !dd || !rd->d_buf || !dd->d_buf)
		return 0;
	base = psh.sh_addr + header;
	count = rd->d_size / rsh.sh_entsize;
	if (psh.sh_size < header || count > (psh.sh_size - header) / 16)
		count = psh.sh_size < header ? 0 : (psh.sh_size - header) / 16;
	if (!count)
		return 0;
	/* Two passes: size the name storage, then fill it (pointers must not move). */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < count; i++) {
			GElf_Rela rela;
			GElf_Sym sym;
			const char *name;
			size_t len;

			if (!gelf_getrela(rd, (int)i, &rela) ||
			    !gelf_getsym(dd, (int)GELF_R_SYM(rela.r_info), &sym))
				continue;
			/* IRELATIVE slots (ifunc targets) have no symbol: perf calls them "@plt" */
			name = sym.st_name ? elf_strptr(elf, dsh.sh_link, sym.st_name) : "";
			if (!name)
				continue;
			len = strlen(name) + sizeof("@plt");
			if (!pass) {
				names_len += len;
				continue;
			}
			snprintf(dso->plt_names + off, len, "%s@plt", name);
			dso->syms[dso->nr_syms + n] = (struct pms_sym){
				.start = base + 16 * i, .size = 16, .name = dso->plt_names + off,
				.bind = STB_GLOBAL,
			};
			off += len;
			n++;
		}
		if (!pass) {
			if (!names_len)
				return 0;
			dso->plt_names = malloc(names_len);
			grown = realloc(dso->syms, (dso->nr_syms + count) * sizeof(*grown));
			if (grown)
				dso->syms = grown;
			if (!dso->plt_names || !grown)
				return -ENOMEM;
		}
	}
	/* PLT stubs never overlap functions; merge and keep the sorted invariant. */
	for (size_t i = 0; i < dso->nr_syms; i++) {
		struct pms_sym *s = &dso->syms[i];

		/* A sizeless symbol must not have been grown over the stubs. */
		if (s->size_guessed && s->start < base && s->start + s->size > base)
			s->size = base - s->start;
	}
	dso->nr_syms += n;
	dso->nr_plt_syms = n;
	qsort(dso->syms, dso->nr_syms, sizeof(*dso->syms), sym_cmp);
	return 0;
}

/*
 * x86_64 .plt.got stubs (functions bound at load time, e.g. __cxa_finalize):
 * each is "jmp *disp32(%rip)" (ff 25, after an optional endbr64 / bnd
 * prefix) through a GOT slot that a GLOB_DAT relocation in .rela.dyn names.
 */
static int add_pltgot_syms(struct pms_dso *dso, Elf *elf)
{
	GElf_Shdr gsh, rsh, dsh;
	Elf_Scn *gscn = find_scn(elf, ".plt.got", &gsh), *rscn = find_scn(elf, ".rela.dyn", &rsh), *dscn;
	Elf_Data *gd, *rd, *dd;
	size_t stride, count, nrel, names_len = 0, off = 0, n = 0;
	struct pms_sym *grown;

	if (dso->e_machine != EM_X86_64 || !gscn || !rscn || gsh.sh_type != SHT_PROGBITS ||
	    rsh.sh_type != SHT_RELA || !rsh.sh_entsize)
		return 0;
	stride = gsh.sh_entsize == 16 ? 16 : 8;
	dscn = elf_getscn(elf, rsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dsh) || !dsh.sh_entsize)
		return 0;
	gd = elf_getdata(gscn, NULL);
	rd = elf_getdata(rscn, NULL);
	dd = elf_getdata(dscn, NULL);
	if (!gd || !rd || !dd || !gd->d_buf || !rd->d_buf || !dd->d_buf)
		return 0;
	count = gd->d_size / stride;
	nrel = rd->d_size / rsh.sh_entsize;
	if (!count || count > 65536)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < count; i++) {
			const uint8_t *e = (const uint8_t *)gd->d_buf + i * stride;
			uint64_t addr = gsh.sh_addr + i * stride, slot = 0;
			const char *name = NULL;
			size_t len;

			for (size_t k = 0; k + 6 <= stride; k++)
				if (e[k] == 0xff && e[k + 1] == 0x25) {
					int32_t disp;

					memcpy(&disp, e + k + 2, 4);
					slot = addr + k + 6 + (uint64_t)(int64_t)disp;
					break;
				}
			for (size_t j = 0; slot && j < nrel && !name; j++) {
				GElf_Rela rela;
				GElf_Sym sym;

				if (gelf_getrela(rd, (int)j, &rela) && rela.r_offset == slot &&
				    GELF_R_SYM(rela.r_info) &&
				    gelf_getsym(dd, (int)GELF_R_SYM(rela.r_info), &sym))
					name = elf_strptr(elf, dsh.sh_link, sym.st_name);
			}
			if (!name || !*name)
				continue;
			len = strlen(name) + sizeof("@plt");
			if (!pass) {
				names_len += len;
				continue;
			}
			snprintf(dso->pltgot_names + off, len, "%s@plt", name);
			dso->syms[dso->nr_syms + n++] = (struct pms_sym){
				.start = addr, .size = stride, .name = dso->pltgot_names + off,
				.bind = STB_GLOBAL,
			};
			off += len;
		}
		if (!pass) {
			if (!names_len)
				return 0;
			dso->pltgot_names = malloc(names_len);
			grown = realloc(dso->syms, (dso->nr_syms + count) * sizeof(*grown));
			if (grown)
				dso->syms = grown;
			if (!dso->pltgot_names || !grown)
				return -ENOMEM;
		}
	}
	for (size_t i = 0; i < dso->nr_syms; i++) {
		struct pms_sym *s = &dso->syms[i];

		if (s->size_guessed && s->start < gsh.sh_addr && s->start + s->size > gsh.sh_addr)
			s->size = gsh.sh_addr - s->start;
	}
	dso->nr_syms += n;
	dso->nr_plt_syms += n;
	qsort(dso->syms, dso->nr_syms, sizeof(*dso->syms), sym_cmp);
	return 0;
}

int pms_dso__open(const char *path, struct pms_dso **out)
{
	struct pms_dso *dso = dso_alloc();
	Elf *elf;
	int err;

	if (!dso)
		return -ENOMEM;
	err = open_elf(path, &dso->fd, &elf);
	if (err) {
		free(dso);
		return err;
	}
	dso->elf = elf;
	dso->path = strdup(path);
	err = dso->path ? dso_init(dso, elf) : -ENOMEM;
	if (!err)
		err = dso_load_all_syms(dso, true);
	if (!err)
		err = add_plt_syms(dso, elf);
	if (!err)
		err = add_pltgot_syms(dso, elf);
	if (err) {
		pms_dso__free(dso);
		return err;
	}
	release_indexed_pages(dso);
	*out = dso;
	return 0;
}

int pms_dso__open_checked(const char *path, const uint8_t *expected, size_t size,
			  struct pms_dso **out, char *found_hex)
{
	uint8_t id[PMS_BUILD_ID_MAX];
	int n;

	/* a missing file is missing, not rebuilt */
	if (access(path, F_OK))
		return -errno;
	n = pms_build_id__read(path, id, sizeof(id));
	if (n < 0 && n != -ENOENT)
		return n;
	if (n < 0)
		n = 0;
	if ((size_t)n != size || memcmp(id, expected, size)) {
		if (found_hex)
			pms_build_id__to_hex(id, (size_t)n, found_hex, PMS_BUILD_ID_HEX_MAX);
		pr_debug("%s: build-id mismatch, not used for symbols\n", path);
		return -ESTALE;
	}
	return pms_dso__open(path, out);
}

int pms_dso__open_mem(const void *image, size_t size, struct pms_dso **out)
{
	struct pms_dso *dso;
	Elf *elf;
	int err = elf_lib_init();

	if (err)
		return err;
	elf = elf_memory((char *)image, size);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -ENOEXEC;
	}
	dso = dso_alloc();
	if (!dso) {
		elf_end(elf);
		return -ENOMEM;
	}
	dso->elf = elf;
	err = dso_init(dso, elf);
	if (!err)
		err = dso_load_all_syms(dso, false);
	if (!err)
		err = add_plt_syms(dso, elf);
	if (!err)
		err = add_pltgot_syms(dso, elf);
	if (err) {
		pms_dso__free(dso);
		return err;
	}
	release_indexed_pages(dso);
	*out = dso;
	return 0;
}

void pms_dso__free(struct pms_dso *dso)
{
	if (!dso)
		return;
	if (dso->debug_elf)
		elf_end(dso->debug_elf);
	if (dso->elf)
		elf_end(dso->elf);
	if (dso->debug_fd >= 0)
		close(dso->debug_fd);
	if (dso->fd >= 0)
		close(dso->fd);
	free(dso->syms);
	free(dso->plt_names);
	free(dso->pltgot_names);
	free(dso->segs);
	free(dso->path);
	free(dso->debug_path);
	free(dso);
}

/* Does the function at code[0..len) set up a frame pointer in its prologue? */
static bool keeps_frame_pointer(uint16_t machine, const uint8_t *code, size_t len)
{
	if (machine == EM_X86_64) {
		static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa }, push_mov[] = { 0x55, 0x48, 0x89, 0xe5 };

		if (len >= 8 && !memcmp(code, endbr64, 4)) {
			code += 4;
			len -= 4;
		}
		return len >= 4 && !memcmp(code, push_mov, 4);
	}
	if (machine == EM_AARCH64) {
		/* "mov x29, sp" (add x29, sp, #0) within the first instructions (after paciasp/bti/stp) */
		for (size_t i = 0; i + 4 <= len && i < 24; i += 4) {
			uint32_t insn = (uint32_t)code[i] | (uint32_t)code[i + 1] << 8 | (uint32_t)code[i + 2] << 16 |
					(uint32_t)code[i + 3] << 24;

			if (insn == 0x910003fd)
				return true;
		}
	}
	return false;
}

int pms_dso__code(const struct pms_dso *dso, uint64_t vaddr, size_t len, const uint8_t **bytes, size_t *avail)
{
	size_t size = 0;
	const uint8_t *image = dso->elf ? (const uint8_t *)elf_rawfile(dso->elf, &size) : NULL;

	if (!image)
		return -ENOENT;
	for (size_t k = 0; k < dso->nr_segs; k++) {
		const struct pms_load_seg *g = &dso->segs[k];
		uint64_t off, in_seg;

		if (vaddr < g->vaddr || vaddr - g->vaddr >= g->filesz)
			continue;
		off = g->offset + (vaddr - g->vaddr);
		if (off >= size)
			return -ENOENT;
		in_seg = g->filesz - (vaddr - g->vaddr);
		if (in_seg > size - off)
			in_seg = size - off;
		*bytes = image + off;
		*avail = len < in_seg ? len : (size_t)in_seg;
		return 0;
	}
	return -ENOENT;
}

int pms_dso__frame_pointers(struct pms_dso *dso)
{
	const uint8_t *image;
	size_t size = 0, checked = 0, kept = 0, step;

	if (dso->frame_pointers != -2)
		return dso->frame_pointers;
	dso->frame_pointers = -1;
	if ((dso->e_machine != EM_X86_64 && dso->e_machine != EM_AARCH64) || !dso->elf || !dso->nr_syms)
		return -1;
	image = (const uint8_t *)elf_rawfile(dso->elf, &size);
	if (!image)
		return -1;
	/* spread the sample over the whole file: a few hand-written stubs must not decide it */
	step = dso->nr_syms > 256 ? dso->nr_syms / 256 : 1;
	for (size_t i = 0; i < dso->nr_syms && checked < 256; i += step) {
		const struct pms_sym *s = &dso->syms[i];

		if (s->size < 16 || s->size_guessed || strstr(s->name, "@plt"))
			continue;
		for (size_t k = 0; k < dso->nr_segs; k++) {
			const struct pms_load_seg *g = &dso->segs[k];
			uint64_t off;

			if (!(g->flags & PF_X) || s->start < g->vaddr || s->start - g->vaddr + 24 > g->filesz)
				continue;
			off = g->offset + (s->start - g->vaddr);
			if (off + 24 > size)
				break;
			checked++;
			kept += keeps_frame_pointer(dso->e_machine, image + off, 24);
			break;
		}
	}
	if (checked >= 8)
		dso->frame_pointers = kept * 2 >= checked;
	/* each read faulted in its neighbours too (fault-around): up to 16 MB of a large library */
	release_indexed_pages(dso);
	return dso->frame_pointers;
}

const struct pms_sym *pms_dso__find_sym(const struct pms_dso *dso, uint64_t vaddr)
{
	size_t lo = 0, hi = dso->nr_syms;

	/* Last symbol with start <= vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dso->syms[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct pms_sym *s = &dso->syms[lo - 1];

	return vaddr - s->start < s->size ? s : NULL;
}

int pms_dso__map_ip(const struct pms_dso *dso, uint64_t map_start, uint64_t map_pgoff,
		    uint64_t ip, uint64_t *vaddr)
{
	uint64_t off;

	if (ip < map_start)
		return -ERANGE;
	off = ip - map_start + map_pgoff;
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct pms_load_seg *s = &dso->segs[i];

		if (off >= s->offset && off - s->offset < s->filesz) {
			*vaddr = off - s->offset + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int pms_dso__unmap_ip(const struct pms_dso *dso, uint64_t map_start, uint64_t map_pgoff,
		      uint64_t vaddr, uint64_t *ip)
{
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct pms_load_seg *s = &dso->segs[i];
		uint64_t off;

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->memsz)
			continue;
		off = vaddr - s->vaddr + s->offset;
		if (off < map_pgoff)
			return -ERANGE;
		*ip = off - map_pgoff + map_start;
		return 0;
	}
	return -ENOENT;
}

static bool build_id_matches(const struct pms_dso *dso, const char *path)
{
	uint8_t id[PMS_BUILD_ID_MAX];
	int n = pms_build_id__read(path, id, sizeof(id));

	return n > 0 && (size_t)n == dso->build_id_size && !memcmp(id, dso->build_id, (size_t)n);
}

static bool crc_matches(const struct pms_dso *dso, const char *path)
{
	uint32_t crc;
	struct stat a, b;

	/* The debuglink may name the file itself (same dir, same name). */
	if (dso->path && !stat(dso->path, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
	    a.st_dev == b.st_dev)
		return false;
	return !pms_file__crc32(path, &crc) && crc == dso->debuglink_crc;
}

int pms_dso__find_debug_file(const struct pms_dso *dso, char *buf, size_t size)
{
	const char *root = pms_debug_root();
	char hex[PMS_BUILD_ID_HEX_MAX], dir[4096], *fetched;
	const char *slash;
	int n;

	if (dso->build_id_size) {
		char cache[4096];

		pms_build_id__to_hex(dso->build_id, dso->build_id_size, hex, sizeof(hex));
		n = snprintf(buf, size, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
		if (n > 0 && (size_t)n < size && !access(buf, R_OK) && build_id_matches(dso, buf))
			return 0;
		/* a debug file saved in the build-id cache (perf's "debug" entries) */
		if (!pms_buildid_cache__dir(cache, sizeof(cache)) &&
		    !pms_buildid_cache__find(cache, dso->path, dso->build_id, dso->build_id_size, "debug", buf, size) &&
		    build_id_matches(dso, buf))
			return 0;
	}
	if (dso->debuglink && dso->path && !strchr(dso->debuglink, '/')) {
		const char *fmts[] = { "%s/%s", "%s/.debug/%s", NULL };

		slash = strrchr(dso->path, '/');
		if (slash)
			n = snprintf(dir, sizeof(dir), "%.*s", (int)(slash - dso->path), dso->path);
		else
			n = snprintf(dir, sizeof(dir), ".");
		/* a directory too long to name has no debuglink candidates; debuginfod may still have it */
		if (n < 0 || (size_t)n >= sizeof(dir))
			fmts[0] = NULL;
		for (int i = 0; fmts[i]; i++) {
			n = snprintf(buf, size, fmts[i], dir, dso->debuglink);
			if (n > 0 && (size_t)n < size && !access(buf, R_OK) && crc_matches(dso, buf))
				return 0;
		}
		if (fmts[0]) {
			n = snprintf(buf, size, "%s%s%s/%s", root, dir[0] == '/' ? "" : "/", dir, dso->debuglink);
			if (n > 0 && (size_t)n < size && !access(buf, R_OK) && crc_matches(dso, buf))
				return 0;
		}
	}
	/*
	 * Last, as it may cost a network round trip: the debug file by build-id
	 * from $DEBUGINFOD_URLS. A server's answer is checked like a local file:
	 * it must carry this build-id.
	 */
	if (!dso->build_id_size || pms_debuginfod__find_debuginfo(dso->build_id, dso->build_id_size, &fetched))
		return -ENOENT;
	n = snprintf(buf, size, "%s", fetched);
	free(fetched);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	if (!build_id_matches(dso, buf)) {
		pr_debug("%s: build-id mismatch in the debug file debuginfod gave, not used\n", buf);
		return -ENOENT;
	}
	return 0;
}
