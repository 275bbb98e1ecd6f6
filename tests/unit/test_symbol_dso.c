// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/dso: build-ids, symbols, PIE/non-PIE mapping arithmetic, debug files, staleness.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/dso.h"
#include "symbol/maps.h"
#include "test_symbol_fixture.h"

static uint64_t nm_addr(const char *bin, const char *sym)
{
	char cmd[8192], *out;
	unsigned long long v = 0;

	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3 == \"%s\" { print $1 }'", bin, sym);
	out = fx_output(cmd);
	cr_assert_eq(sscanf(out, "%llx", &v), 1, "nm has no %s", sym);
	free(out);
	return v;
}

static void readelf_build_id(const char *bin, char *hex, size_t size)
{
	char cmd[8192], *out, *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' | awk '/Build ID:/ { print $3 }'", bin);
	out = fx_output(cmd);
	p = strchr(out, '\n');
	if (p)
		*p = '\0';
	cr_assert(strlen(out) == 40, "readelf build-id '%s'", out);
	snprintf(hex, size, "%s", out);
	free(out);
}

Test(symbol_dso, build_id_matches_readelf)
{
	char dir[64], bin[4096], want[64], got[PMS_BUILD_ID_HEX_MAX];
	uint8_t id[PMS_BUILD_ID_MAX];
	struct pms_dso *dso;
	int n;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	readelf_build_id(bin, want, sizeof(want));
	n = pms_build_id__read(bin, id, sizeof(id));
	cr_assert_eq(n, 20);
	pms_build_id__to_hex(id, (size_t)n, got, sizeof(got));
	cr_assert_str_eq(got, want);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(dso->build_id_size, 20);
	cr_assert_eq(memcmp(dso->build_id, id, 20), 0);
	cr_assert_eq(dso->e_type, 3 /* ET_DYN */);
	cr_assert(dso->has_debug_info);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

static void check_symbols(const char *bin)
{
	struct pms_dso *dso;
	const struct pms_sym *s;
	uint64_t leaf = nm_addr(bin, "pms_fx_leaf"), nosize = nm_addr(bin, "pms_fx_nosize");
	uint64_t cxx = nm_addr(bin, "_ZN3pms2fx5cxxfnEi");

	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert(!dso->syms_from_dynsym);
	cr_assert_gt(dso->nr_syms, 5);
	for (size_t i = 1; i < dso->nr_syms; i++)
		cr_assert_gt(dso->syms[i].start, dso->syms[i - 1].start, "sorted and unique");
	/* The weak alias at the same address loses to the global name. */
	s = pms_dso__find_sym(dso, leaf);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "pms_fx_leaf");
	cr_assert_not_null(pms_dso__find_sym(dso, leaf + s->size - 1));
	cr_assert(!pms_dso__find_sym(dso, leaf + s->size) ||
		  strcmp(pms_dso__find_sym(dso, leaf + s->size)->name, "pms_fx_leaf"));
	s = pms_dso__find_sym(dso, nosize + 4);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "pms_fx_nosize");
	cr_assert(s->size_guessed);
	s = pms_dso__find_sym(dso, cxx);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "_ZN3pms2fx5cxxfnEi");
	cr_assert_null(pms_dso__find_sym(dso, 0));
	pms_dso__free(dso);
}

Test(symbol_dso, symbols_pie_and_nopie)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	check_symbols(bin);
	fx_build(dir, "nopie", bin, sizeof(bin));
	check_symbols(bin);
	fx_rmdir(dir);
}

/* Runs the fixture, which prints runtime addresses and its maps; resolves each through map_ip. */
static void check_runtime(const char *bin, uint16_t want_type)
{
	char cmd[8192], *out, *maps_text;
	struct pms_maps *maps;
	int checked = 0;

	snprintf(cmd, sizeof(cmd), "'%s' show", bin);
	out = fx_output(cmd);
	maps_text = strstr(out, "--\n");
	cr_assert_not_null(maps_text);
	*maps_text = '\0';
	maps_text += 3;
	cr_assert_eq(pms_maps__parse(maps_text, strlen(maps_text), &maps), 0);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char name[256];
		unsigned long long ip;
		const struct pms_map *m;
		struct pms_dso *dso;
		const struct pms_sym *s;
		uint64_t vaddr, back;

		cr_assert_eq(sscanf(line, "%255s %llx", name, &ip), 2);
		m = pms_maps__find(maps, ip);
		cr_assert_not_null(m, "%s not mapped", name);
		cr_assert(pms_map__is_exec(m));
		cr_assert_eq(pms_dso__open(m->path, &dso), 0);
		cr_assert_eq(dso->e_type, want_type);
		cr_assert_eq(pms_dso__map_ip(dso, m->start, m->pgoff, ip, &vaddr), 0);
		cr_assert_eq(vaddr, nm_addr(bin, name), "%s: vaddr %llx", name, (unsigned long long)vaddr);
		s = pms_dso__find_sym(dso, vaddr + 1);
		cr_assert_not_null(s);
		cr_assert_str_eq(s->name, name);
		cr_assert_eq(pms_dso__unmap_ip(dso, m->start, m->pgoff, vaddr, &back), 0);
		cr_assert_eq(back, ip);
		pms_dso__free(dso);
		checked++;
	}
	cr_assert_eq(checked, 5);
	pms_maps__free(maps);
	free(out);
}

Test(symbol_dso, map_ip_pie)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	check_runtime(bin, 3 /* ET_DYN */);
	fx_rmdir(dir);
}

Test(symbol_dso, map_ip_nopie)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "nopie", bin, sizeof(bin));
	check_runtime(bin, 2 /* ET_EXEC */);
	fx_rmdir(dir);
}

static __attribute__((noinline)) int symbol_dso_self_marker(int x)
{
	return x * 2 + 1;
}

Test(symbol_dso, self_exe_in_process)
{
	struct pms_maps *maps;
	const struct pms_map *m;
	struct pms_dso *dso;
	const struct pms_sym *s;
	uint64_t ip = (uint64_t)(uintptr_t)symbol_dso_self_marker, vaddr;

	cr_assert_eq(symbol_dso_self_marker(1), 3);
	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	m = pms_maps__find(maps, ip);
	cr_assert_not_null(m);
	cr_assert_eq(pms_dso__open(m->path, &dso), 0);
	cr_assert_eq(pms_dso__map_ip(dso, m->start, m->pgoff, ip + 2, &vaddr), 0);
	s = pms_dso__find_sym(dso, vaddr);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "symbol_dso_self_marker");
	cr_assert_eq(s->bind, 0 /* STB_LOCAL */);
	pms_dso__free(dso);
	pms_maps__free(maps);
}

Test(symbol_dso, rebuilt_binary_is_stale)
{
	char dir[64], bin[4096], rebuilt[4096], found[PMS_BUILD_ID_HEX_MAX], want[64];
	uint8_t id[PMS_BUILD_ID_MAX];
	struct pms_dso *dso = NULL;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	fx_build(dir, "rebuilt", rebuilt, sizeof(rebuilt));
	cr_assert_eq(pms_build_id__read(bin, id, sizeof(id)), 20);
	cr_assert_eq(pms_dso__open_checked(bin, id, 20, &dso, found), 0);
	cr_assert_not_null(dso);
	pms_dso__free(dso);
	dso = NULL;
	/* "The binary at this path was rebuilt after recording." */
	fx_sh("cp '%s' '%s'", rebuilt, bin);
	cr_assert_eq(pms_dso__open_checked(bin, id, 20, &dso, found), -ESTALE);
	cr_assert_null(dso);
	readelf_build_id(rebuilt, want, sizeof(want));
	cr_assert_str_eq(found, want);
	/* A shorter expected id (other tool, truncated) is a mismatch too, never a prefix match. */
	cr_assert_eq(pms_dso__open_checked(bin, id, 8, &dso, NULL), -ESTALE);
	fx_rmdir(dir);
}

Test(symbol_dso, stripped_uses_debuglink)
{
	char dir[64], bin[4096], dbg[4096], other[4096];
	struct pms_dso *dso;
	const struct pms_sym *s;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "stripped", bin, sizeof(bin));
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_str_eq(dso->debuglink, "prog.debug");
	cr_assert(!dso->has_debug_info);
	cr_assert_not_null(dso->debug_path);
	snprintf(dbg, sizeof(dbg), "%s/prog.debug", dir);
	cr_assert_str_eq(dso->debug_path, dbg);
	cr_assert(!dso->syms_from_dynsym);
	s = pms_dso__find_sym(dso, nm_addr(dbg, "pms_fx_inline_host"));
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "pms_fx_inline_host");
	pms_dso__free(dso);

	/* .debug/ subdirectory is searched too. */
	fx_sh("mkdir '%s/.debug' && mv '%s' '%s/.debug/'", dir, dbg, dir);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_not_null(dso->debug_path);
	cr_assert(strstr(dso->debug_path, "/.debug/prog.debug"));
	pms_dso__free(dso);

	/* A debug file with the right name but wrong CRC is refused. */
	fx_build(dir, "rebuilt", other, sizeof(other));
	fx_sh("objcopy --only-keep-debug '%s' '%s/.debug/prog.debug'", other, dir);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_null(dso->debug_path);
	cr_assert(dso->syms_from_dynsym);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

Test(symbol_dso, build_id_debug_dir)
{
	char dir[64], bin[4096], hex[PMS_BUILD_ID_HEX_MAX], path[8192], root[256];
	struct pms_dso *dso;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "stripped", bin, sizeof(bin));
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	pms_build_id__to_hex(dso->build_id, dso->build_id_size, hex, sizeof(hex));
	pms_dso__free(dso);
	snprintf(root, sizeof(root), "%s/root", dir);
	fx_sh("mkdir -p '%s/.build-id/%.2s' && mv '%s/prog.debug' '%s/.build-id/%.2s/%s.debug'",
	      root, hex, dir, root, hex, hex + 2);
	setenv("PMS_DEBUG_ROOT", root, 1);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
	cr_assert_not_null(dso->debug_path);
	cr_assert_str_eq(dso->debug_path, path);
	cr_assert(!dso->syms_from_dynsym);
	pms_dso__free(dso);
	unsetenv("PMS_DEBUG_ROOT");
	fx_rmdir(dir);
}

Test(symbol_dso, errors)
{
	struct pms_dso *dso = NULL;
	char dir[64], path[4096];
	static const char junk[] = "not an elf file at all, just text\n";

	cr_assert_eq(pms_dso__open("/nonexistent/pms/file", &dso), -ENOENT);
	fx_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/junk", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(junk, f);
	fclose(f);
	cr_assert_eq(pms_dso__open(path, &dso), -ENOEXEC);
	cr_assert_eq(pms_dso__open_mem(junk, sizeof(junk), &dso), -ENOEXEC);
	cr_assert_null(dso);
	pms_dso__free(NULL);
	fx_rmdir(dir);
}

Test(symbol_dso, open_mem_matches_file)
{
	char dir[64], bin[4096], *img;
	size_t len;
	struct pms_dso *a, *b;
	FILE *f;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "nopie", bin, sizeof(bin));
	f = fopen(bin, "rb");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	img = malloc(len);
	cr_assert_eq(fread(img, 1, len, f), len);
	fclose(f);
	cr_assert_eq(pms_dso__open(bin, &a), 0);
	cr_assert_eq(pms_dso__open_mem(img, len, &b), 0);
	cr_assert_eq(a->nr_syms, b->nr_syms);
	cr_assert_eq(a->nr_segs, b->nr_segs);
	cr_assert_eq(memcmp(a->build_id, b->build_id, 20), 0);
	for (size_t i = 0; i < a->nr_syms; i++) {
		cr_assert_eq(a->syms[i].start, b->syms[i].start);
		cr_assert_str_eq(a->syms[i].name, b->syms[i].name);
	}
	pms_dso__free(a);
	pms_dso__free(b);
	free(img);
	fx_rmdir(dir);
}

Test(symbol_dso, crc32_matches_gdb_debuglink)
{
	char dir[64], bin[4096], dbg[4096];
	struct pms_dso *dso;
	uint32_t crc;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "stripped", bin, sizeof(bin));
	snprintf(dbg, sizeof(dbg), "%s/prog.debug", dir);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_eq(pms_file__crc32(dbg, &crc), 0);
	cr_assert_eq(crc, dso->debuglink_crc, "objcopy's CRC %08x vs ours %08x", dso->debuglink_crc, crc);
	pms_dso__free(dso);
	fx_rmdir(dir);
}

/* Every objdump "<name@plt>:" label of .plt must resolve to the same synthesized symbol. */
static void check_plt(const char *bin)
{
	char cmd[8192], *out;
	struct pms_dso *dso;
	int checked = 0;

	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt -j .plt.sec -j .plt.got '%s' 2>/dev/null | "
		 "sed -nE 's/^([0-9a-f]+) <(.*@plt)>:$/\\1 \\2/p'", bin);
	out = fx_output(cmd);
	cr_assert_eq(pms_dso__open(bin, &dso), 0);
	cr_assert_geq(dso->nr_plt_syms, 5);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long a;
		char name[256];
		const struct pms_sym *s;

		cr_assert_eq(sscanf(line, "%llx %255s", &a, name), 2);
		s = pms_dso__find_sym(dso, a + 4);
		cr_assert_not_null(s, "%s", name);
		cr_assert_str_eq(s->name, name);
		cr_assert_eq(s->start, a);
		checked++;
	}
	cr_assert_geq(checked, 5);
	for (size_t i = 1; i < dso->nr_syms; i++)
		cr_assert_geq(dso->syms[i].start, dso->syms[i - 1].start + dso->syms[i - 1].size,
			      "%s overlaps %s", dso->syms[i - 1].name, dso->syms[i].name);
	pms_dso__free(dso);
	free(out);
}

Test(symbol_dso, plt_entries_match_objdump)
{
	char dir[64], bin[4096];

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	check_plt(bin);
	fx_build(dir, "nopie", bin, sizeof(bin));
	check_plt(bin);
	fx_build(dir, "stripped", bin, sizeof(bin));
	check_plt(bin);
	fx_rmdir(dir);
}

/*
 * perf's symbol set: assembly labels in text sections name code (ld.so's
 * _start, _dl_start_user), data labels do not; among aliases the one perf
 * keeps (lib/symbol/sym_alias.h).
 */
Test(symbol_dso, labels_and_aliases_as_perf_names_them)
{
	char dir[64], src[4200], so[4200];
	struct pms_dso *dso;
	const struct pms_sym *s;
	FILE *f;

	fx_tmpdir(dir, sizeof(dir));
	snprintf(src, sizeof(src), "%s/a.S", dir);
	snprintf(so, sizeof(so), "%s/a.so", dir);
	f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs("\t.text\n"
	      "\t.globl entry\n\t.type entry, @function\n"
	      "entry:\n\tnop\n\tnop\n\tnop\n\tnop\n\t.size entry, 4\n"
	      "after_entry:\n\tnop\n\tnop\n\tnop\n\tnop\n"
	      "next_label:\n\tnop\n\tnop\n\tnop\n\tnop\n"
	      "\t.globl gfun\n\t.type gfun, @function\n"
	      "\t.weak wfun\n\t.type wfun, @function\n"
	      "\t.type a_local_with_a_long_name, @function\n"
	      "a_local_with_a_long_name:\ngfun:\nwfun:\n\tret\n"
	      "\t.size gfun, 1\n\t.size wfun, 1\n\t.size a_local_with_a_long_name, 1\n"
	      "\t.data\ndata_label:\n\t.quad 1\n",
	      f);
	fclose(f);
	fx_sh("cc -shared -nostdlib -Wl,--build-id -o '%s' '%s'", so, src);
	cr_assert_eq(pms_dso__open(so, &dso), 0);
	s = pms_dso__find_sym(dso, nm_addr(so, "after_entry") + 2);
	cr_assert_not_null(s, "a NOTYPE label in .text names its code");
	cr_expect_str_eq(s->name, "after_entry");
	/* a label ends where the next one starts */
	s = pms_dso__find_sym(dso, nm_addr(so, "next_label") + 1);
	cr_assert_not_null(s);
	cr_expect_str_eq(s->name, "next_label");
	cr_expect(s->size_guessed);
	/* not weak beats weak, then global beats local */
	s = pms_dso__find_sym(dso, nm_addr(so, "gfun"));
	cr_assert_not_null(s);
	cr_expect_str_eq(s->name, "gfun");
	for (size_t i = 0; i < dso->nr_syms; i++)
		cr_expect_str_neq(dso->syms[i].name, "data_label");
	pms_dso__free(dso);
	fx_rmdir(dir);
}
