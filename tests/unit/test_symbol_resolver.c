// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol/resolver: user IPs of a running fixture, demangling, staleness accounting,
// JIT maps and kallsyms through fixture roots.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/dso.h"
#include "symbol/maps.h"
#include "symbol/resolver.h"
#include "test_symbol_fixture.h"

struct fx_run {
	char *out;
	struct pms_maps *maps;
	char names[8][64];
	uint64_t ips[8];
	size_t n;
};

static void run_fixture(const char *bin, struct fx_run *run)
{
	char cmd[8192], *maps_text;

	snprintf(cmd, sizeof(cmd), "'%s' show", bin);
	run->out = fx_output(cmd);
	maps_text = strstr(run->out, "--\n");
	cr_assert_not_null(maps_text);
	*maps_text = '\0';
	maps_text += 3;
	cr_assert_eq(pms_maps__parse(maps_text, strlen(maps_text), &run->maps), 0);
	run->n = 0;
	for (char *line = strtok(run->out, "\n"); line && run->n < 8; line = strtok(NULL, "\n")) {
		unsigned long long ip;

		cr_assert_eq(sscanf(line, "%63s %llx", run->names[run->n], &ip), 2);
		run->ips[run->n++] = ip;
	}
	cr_assert_eq(run->n, 5);
}

static struct pms_map_ref ref_of(const struct fx_run *run, uint64_t ip, const uint8_t *id, size_t id_size)
{
	const struct pms_map *m = pms_maps__find(run->maps, ip);

	cr_assert_not_null(m);
	return (struct pms_map_ref){ .path = m->path, .start = m->start, .pgoff = m->pgoff,
				     .build_id = id, .build_id_size = id_size, .pid = 1 };
}

Test(symbol_resolver, user_symbols_demangled_and_srclines)
{
	char dir[64], bin[4096];
	struct fx_run run;
	struct pms_resolver *r = pms_resolver__new();
	uint8_t id[PMS_BUILD_ID_MAX];
	int idn;

	cr_assert_not_null(r);
	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	idn = pms_build_id__read(bin, id, sizeof(id));
	cr_assert_eq(idn, 20);
	run_fixture(bin, &run);
	for (size_t i = 0; i < run.n; i++) {
		struct pms_map_ref ref = ref_of(&run, run.ips[i], id, (size_t)idn);
		struct pms_resolved res;
		const char *want = strcmp(run.names[i], "_ZN3pms2fx5cxxfnEi") ? run.names[i] : "pms::fx::cxxfn";

		cr_assert_eq(pms_resolver__user(r, &ref, run.ips[i] + 1, &res), 0);
		cr_assert_eq(res.status, PMS_RES_OK, "%s", run.names[i]);
		cr_assert_str_eq(res.sym, want);
		cr_assert_eq(res.sym_off, 1);
		cr_assert_str_eq(res.dso, bin);
		if (!strcmp(run.names[i], "pms_fx_leaf")) {
			const struct pms_srcline_frame *f;
			size_t nr;

			cr_assert_eq(pms_resolver__srcline(r, &res, &f, &nr), 0);
			cr_assert_str_eq(f[nr - 1].func, "pms_fx_leaf");
			cr_assert(strstr(f[0].file, "prog.c"));
		}
	}
	/* Unchecked (no recorded build-id) works too and is a separate cache entry. */
	struct pms_map_ref ref = ref_of(&run, run.ips[0], NULL, 0);
	struct pms_resolved res;
	cr_assert_eq(pms_resolver__user(r, &ref, run.ips[0], &res), 0);
	cr_assert_eq(res.status, PMS_RES_OK);
	const char *p;
	size_t samples;
	cr_assert_eq(pms_resolver__stale(r, 0, &p, &samples, NULL), -ENOENT);
	pms_maps__free(run.maps);
	free(run.out);
	pms_resolver__free(r);
	fx_rmdir(dir);
}

Test(symbol_resolver, rebuilt_binary_counted_never_misattributed)
{
	char dir[64], bin[4096], rebuilt[4096], want[PMS_BUILD_ID_HEX_MAX];
	struct fx_run run;
	struct pms_resolver *r = pms_resolver__new();
	uint8_t id[PMS_BUILD_ID_MAX], id2[PMS_BUILD_ID_MAX];
	const char *path, *hex;
	size_t samples;

	fx_tmpdir(dir, sizeof(dir));
	fx_build(dir, "pie", bin, sizeof(bin));
	fx_build(dir, "rebuilt", rebuilt, sizeof(rebuilt));
	cr_assert_eq(pms_build_id__read(bin, id, sizeof(id)), 20);
	cr_assert_eq(pms_build_id__read(rebuilt, id2, sizeof(id2)), 20);
	pms_build_id__to_hex(id2, 20, want, sizeof(want));
	run_fixture(bin, &run); /* "recording" */
	fx_sh("cp '%s' '%s'", rebuilt, bin); /* rebuilt before "report" */
	for (size_t i = 0; i < run.n; i++) {
		struct pms_map_ref ref = ref_of(&run, run.ips[i], id, 20);
		struct pms_resolved res;

		cr_assert_eq(pms_resolver__user(r, &ref, run.ips[i], &res), 0);
		cr_assert_eq(res.status, PMS_RES_STALE);
		cr_assert_null(res.sym);
		cr_assert_str_eq(res.dso, bin);
	}
	cr_assert_eq(pms_resolver__stale(r, 0, &path, &samples, &hex), 0);
	cr_assert_str_eq(path, bin);
	cr_assert_eq(samples, run.n);
	cr_assert_str_eq(hex, want);
	cr_assert_eq(pms_resolver__stale(r, 1, &path, &samples, &hex), -ENOENT);
	pms_maps__free(run.maps);
	free(run.out);
	pms_resolver__free(r);
	fx_rmdir(dir);
}

Test(symbol_resolver, jit_and_missing_files)
{
	struct pms_resolver *r = pms_resolver__new();
	struct pms_resolved res;
	char dir[4096];
	const char *top = getenv("TOP");
	struct pms_map_ref anon = { .path = "", .start = 0x7f0000000000, .pid = 4242 };
	struct pms_map_ref gone = { .path = "/nonexistent/lib.so", .start = 0x1000, .pid = 4242 };

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/symbol", top && *top ? top : ".");
	setenv("PMS_JITMAP_DIR", dir, 1);
	cr_assert_eq(pms_resolver__user(r, &anon, 0x7f0000001010, &res), 0);
	cr_assert_eq(res.status, PMS_RES_OK);
	cr_assert_str_eq(res.dso, "[jit]");
	cr_assert_str_eq(res.sym, "LazyCompile:*fib /app/fib.js:3");
	cr_assert_eq(res.sym_off, 0x10);
	/* perf's MMAP records name anonymous memory "//anon"; memfd-backed JIT code too. */
	const char *anon_names[] = { "//anon", "/memfd:jit (deleted)", "[anon:v8]" };
	for (size_t i = 0; i < 3; i++) {
		struct pms_map_ref named = anon;

		named.path = anon_names[i];
		cr_assert_eq(pms_resolver__user(r, &named, 0x7f0000002010, &res), 0);
		cr_assert_eq(res.status, PMS_RES_OK, "%s", anon_names[i]);
		cr_assert_str_eq(res.sym, "[jit] Interpreter");
	}
	cr_assert_eq(pms_resolver__user(r, &anon, 0x7f0000009000, &res), 0);
	cr_assert_eq(res.status, PMS_RES_NO_FILE);
	cr_assert_eq(pms_resolver__user(r, &gone, 0x1234, &res), 0);
	cr_assert_eq(res.status, PMS_RES_NO_FILE);
	cr_assert_str_eq(res.dso, "/nonexistent/lib.so");
	cr_assert_eq(pms_resolver__user(r, NULL, 0x1234, &res), 0);
	cr_assert_eq(res.status, PMS_RES_NO_FILE);
	unsetenv("PMS_JITMAP_DIR");
	pms_resolver__free(r);
}

static void kernel_with(const char *fixture, uint64_t ip, struct pms_resolved *res, char *sym, size_t size)
{
	char root[] = "/tmp/pms-ks-XXXXXX";
	struct pms_resolver *r = pms_resolver__new();
	const char *top = getenv("TOP");

	cr_assert_not_null(mkdtemp(root));
	fx_sh("cp '%s/tests/fixtures/symbol/%s' '%s/kallsyms'", top && *top ? top : ".", fixture, root);
	fx_sh("cp '%s/tests/fixtures/symbol/modules.txt' '%s/modules'", top && *top ? top : ".", root);
	setenv("PMS_PROCFS_ROOT", root, 1);
	cr_assert_eq(pms_resolver__kernel(r, ip, res), 0);
	unsetenv("PMS_PROCFS_ROOT");
	snprintf(sym, size, "%s|%s", res->dso ? res->dso : "-", res->sym ? res->sym : "-");
	pms_resolver__free(r);
	fx_rmdir(root);
}

Test(symbol_resolver, kernel_modules_and_restriction)
{
	struct pms_resolved res;
	char s[256];

	kernel_with("kallsyms.txt", 0xffffffffc0a02004, &res, s, sizeof(s));
	cr_assert_eq(res.status, PMS_RES_OK);
	cr_assert_str_eq(s, "ext4|ext4_mount");
	cr_assert_eq(res.sym_off, 4);
	kernel_with("kallsyms.txt", 0xffffffff81000071, &res, s, sizeof(s));
	cr_assert_str_eq(s, "[kernel.kallsyms]|secondary_startup_64");
	/* Past vfio's last symbol page but inside its /proc/modules range: the module, no symbol. */
	kernel_with("kallsyms.txt", 0xffffffffc0b08000, &res, s, sizeof(s));
	cr_assert_eq(res.status, PMS_RES_NO_SYM);
	cr_assert_str_eq(s, "vfio|-");
	kernel_with("kallsyms-restricted.txt", 0xffffffff81000071, &res, s, sizeof(s));
	cr_assert_eq(res.status, PMS_RES_RESTRICTED);
	cr_assert_null(res.sym);
}

Test(symbol_resolver, vdso_from_own_image)
{
	struct pms_maps *maps;
	const struct pms_map *v = NULL;
	struct pms_resolver *r = pms_resolver__new();
	struct pms_resolved res;
	struct pms_dso *img;
	const struct pms_sym *want = NULL;
	uint64_t ip;
	uint8_t other[20] = { 1, 2, 3 };

	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	for (size_t i = 0; i < maps->nr; i++)
		if (!strcmp(maps->maps[i].path, "[vdso]"))
			v = &maps->maps[i];
	if (!v)
		cr_skip_test("no [vdso] mapping");
	/* The oracle: readelf-equivalent view of the image, straight from memory. */
	cr_assert_eq(pms_dso__open_mem((const void *)(uintptr_t)v->start, v->end - v->start, &img), 0);
	for (size_t i = 0; i < img->nr_syms; i++)
		if (strstr(img->syms[i].name, "clock_gettime"))
			want = &img->syms[i];
	cr_assert_not_null(want, "vDSO without clock_gettime");
	cr_assert_eq(pms_dso__unmap_ip(img, v->start, v->pgoff, want->start + 2, &ip), 0);
	struct pms_map_ref ref = { .path = "[vdso]", .start = v->start, .pgoff = v->pgoff,
				   .build_id = img->build_id_size ? img->build_id : NULL,
				   .build_id_size = img->build_id_size };
	cr_assert_eq(pms_resolver__user(r, &ref, ip, &res), 0);
	cr_assert_eq(res.status, PMS_RES_OK);
	cr_assert_str_eq(res.dso, "[vdso]");
	cr_assert_str_eq(res.sym, want->name);
	cr_assert_eq(res.sym_off, 2);
	/* A vDSO recorded on another kernel is not this one: missing here, with its address in the mapping. */
	ref.build_id = other;
	ref.build_id_size = sizeof(other);
	cr_assert_eq(pms_resolver__user(r, &ref, ip, &res), 0);
	cr_assert_eq(res.status, PMS_RES_NO_FILE);
	cr_assert_null(res.sym);
	cr_assert_str_eq(res.dso, "[vdso]");
	cr_assert_eq(res.addr, ip - v->start + v->pgoff);
	pms_dso__free(img);
	pms_maps__free(maps);
	pms_resolver__free(r);
}

Test(symbol_resolver, many_files_cached_once)
{
	struct pms_resolver *r = pms_resolver__new();
	const char *first[300];
	char path[64];

	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 300; i++) {
			struct pms_resolved res;
			struct pms_map_ref ref = { .path = path, .start = 0x1000 };

			snprintf(path, sizeof(path), "/nonexistent/pms/lib%d.so", i);
			cr_assert_eq(pms_resolver__user(r, &ref, 0x1100, &res), 0);
			cr_assert_eq(res.status, PMS_RES_NO_FILE);
			cr_assert_str_eq(res.dso, path);
			/* The same entry (same string) on every round: opened once, failure cached. */
			if (!round)
				first[i] = res.dso;
			else
				cr_assert_eq(res.dso, first[i], "lib%d reopened in round %d", i, round);
		}
	pms_resolver__free(r);
}
