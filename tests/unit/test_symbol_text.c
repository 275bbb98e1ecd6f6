// SPDX-License-Identifier: MIT
// Unit tests of lib/symbol text sources: /proc/PID/maps, kallsyms, perf-PID.map JIT maps, demangling.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/demangle.h"
#include "symbol/jitmap.h"
#include "symbol/kallsyms.h"
#include "symbol/maps.h"
#include "util/fileio.h"

static char *fixture(const char *name, size_t *len)
{
	char path[4096], *text;
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/fixtures/symbol/%s", top && *top ? top : ".", name);
	cr_assert_eq(pms_file__read_all(path, &text, len), 0, "%s", path);
	return text;
}

Test(symbol_maps, parses_all_kinds)
{
	size_t len;
	char *text = fixture("maps-sample.txt", &len);
	struct pms_maps *maps;
	const struct pms_map *m;

	cr_assert_eq(pms_maps__parse(text, len, &maps), 0);
	cr_assert_eq(maps->nr, 11);
	m = &maps->maps[1];
	cr_assert_eq(m->start, 0x55d0c0a02000);
	cr_assert_eq(m->end, 0x55d0c0a05000);
	cr_assert_eq(m->pgoff, 0x2000);
	cr_assert_str_eq(m->prot, "r-xp");
	cr_assert_eq(m->dev_major, 0xfd);
	cr_assert_eq(m->dev_minor, 1);
	cr_assert_eq(m->inode, 1048601);
	cr_assert_str_eq(m->path, "/usr/bin/prog");
	cr_assert(pms_map__is_exec(m) && !m->deleted && !m->special && !m->anon);
	/* A path with a space and a deleted file. */
	m = &maps->maps[5];
	cr_assert_str_eq(m->path, "/tmp/jit cache.so");
	cr_assert(m->deleted);
	cr_assert_eq(m->pgoff, 0x28000);
	m = &maps->maps[6];
	cr_assert(m->anon);
	cr_assert_str_eq(m->path, "");
	m = pms_maps__find(maps, 0x7ffc8e3f6010);
	cr_assert_not_null(m);
	cr_assert_str_eq(m->path, "[vdso]");
	cr_assert(m->special && pms_map__is_exec(m));
	cr_assert_eq(pms_maps__find(maps, 0xffffffffff600000)->start, 0xffffffffff600000);
	cr_assert_null(pms_maps__find(maps, 0x1000));
	cr_assert_null(pms_maps__find(maps, 0x55d0c0a06000)); /* end is exclusive, gap follows */
	pms_maps__free(maps);
	free(text);
}

Test(symbol_maps, rejects_malformed)
{
	struct pms_maps *maps = NULL;
	static const char *bad[] = {
		"zz-1000 r-xp 00000000 00:00 0 x\n",
		"1000-0fff r-xp 00000000 00:00 0\n",
		"1000-2000 r-x 00000000 00:00 0\n",
		"1000-2000 r-xp 00000000 0000 0\n",
		"11112222333344445-2000 r-xp 0 00:00 0\n",
		"1000-2000",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(pms_maps__parse(bad[i], strlen(bad[i]), &maps), -EINVAL, "%s", bad[i]);
	cr_assert_eq(pms_maps__parse("", 0, &maps), 0);
	cr_assert_eq(maps->nr, 0);
	pms_maps__free(maps);
}

Test(symbol_maps, reads_self_through_procfs_root)
{
	struct pms_maps *maps;
	char root[] = "/tmp/pms-procfs-XXXXXX", path[256];
	FILE *f;

	cr_assert_eq(pms_maps__read_pid(0, &maps), 0);
	cr_assert_gt(maps->nr, 3);
	cr_assert_not_null(pms_maps__find(maps, (uint64_t)(uintptr_t)&maps));
	pms_maps__free(maps);

	cr_assert_not_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/77", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/77/maps", root);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("400000-401000 r-xp 00000000 08:01 12 /fixture/bin\n", f);
	fclose(f);
	setenv("PMS_PROCFS_ROOT", root, 1);
	cr_assert_eq(pms_maps__read_pid(77, &maps), 0);
	unsetenv("PMS_PROCFS_ROOT");
	cr_assert_eq(maps->nr, 1);
	cr_assert_str_eq(maps->maps[0].path, "/fixture/bin");
	pms_maps__free(maps);
	unlink(path);
	snprintf(path, sizeof(path), "%s/77", root);
	rmdir(path);
	rmdir(root);
}

Test(symbol_kallsyms, kernel_and_modules)
{
	size_t len;
	char *text = fixture("kallsyms.txt", &len);
	struct pms_kallsyms ks;
	const struct pms_tsym *s;

	cr_assert_eq(pms_kallsyms__parse(text, len, &ks), 0);
	cr_assert(!ks.restricted);
	/* Data (D) and absolute (A) symbols are not text; _stext/startup_64 collapse. */
	cr_assert_eq(ks.tab.nr, 9);
	/* the addresses a recording's kernel map is checked against, aliases or not */
	cr_assert_eq(ks.stext_addr, 0xffffffff81000000ULL);
	cr_assert_eq(ks.etext_addr, 0xffffffff81003000ULL);
	cr_assert_eq(ks.text_addr, 0);
	cr_assert_eq(pms_kallsyms__ref_addr(&ks, "_stext"), 0xffffffff81000000ULL);
	cr_assert_eq(pms_kallsyms__ref_addr(&ks, "startup_64"), 0);
	cr_assert_eq(ks.nr_modules_syms, 3);
	s = pms_kallsyms__find(&ks, 0xffffffff81000010);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "startup_64", "perf keeps the alias listed last");
	cr_assert_null(s->module);
	s = pms_kallsyms__find(&ks, 0xffffffff81002450);
	cr_assert_str_eq(s->name, "do_one_initcall", "data symbols do not cut text ranges");
	s = pms_kallsyms__find(&ks, 0xffffffff81002500);
	cr_assert_str_eq(s->name, "weak_text_fn");
	s = pms_kallsyms__find(&ks, 0xffffffffc0a02010);
	cr_assert_str_eq(s->name, "ext4_mount");
	cr_assert_str_eq(s->module, "ext4");
	s = pms_kallsyms__find(&ks, 0xffffffffc0b00fff);
	cr_assert_str_eq(s->name, "vfio_open");
	cr_assert_str_eq(s->module, "vfio");
	cr_assert_null(pms_kallsyms__find(&ks, 0xffffffffc0b01000));
	cr_assert_null(pms_kallsyms__find(&ks, 0x1000));
	pms_kallsyms__release(&ks);
	free(text);
}

Test(symbol_kallsyms, kptr_restrict_detected)
{
	size_t len;
	char *text = fixture("kallsyms-restricted.txt", &len);
	struct pms_kallsyms ks;

	cr_assert_eq(pms_kallsyms__parse(text, len, &ks), -EACCES);
	cr_assert(ks.restricted);
	cr_assert_eq(ks.tab.nr, 0);
	pms_kallsyms__release(&ks);
	free(text);
	cr_assert_eq(pms_kallsyms__parse("xyz T foo\n", 10, &ks), -EINVAL);
}

Test(symbol_kallsyms, live_kernel_as_root)
{
	char dir[] = "/tmp/pms-ksidx-XXXXXX", cmd[128];
	struct pms_kallsyms ks, again;
	int err;

	cr_assert_not_null(mkdtemp(dir));
	setenv("PMS_BUILDID_DIR", dir, 1);
	err = pms_kallsyms__load(&ks);
	if (geteuid() != 0) {
		cr_assert(err == 0 || err == -EACCES);
	} else {
		cr_assert_eq(err, 0);
		cr_assert_gt(ks.tab.nr, 1000);
		cr_assert_not_null(pms_kallsyms__find(&ks, ks.tab.syms[ks.tab.nr / 2].start));
		/* the second load maps the index the first one wrote: the same names for the same addresses */
		cr_assert_eq(pms_kallsyms__load(&again), 0);
		if (ks.text_addr) {
			cr_expect(again.from_index, "no index of the running kernel in %s", dir);
			cr_expect_eq(again.text_addr, ks.text_addr);
			cr_expect_eq(again.etext_addr, ks.etext_addr);
		}
		for (size_t i = 0; i < ks.tab.nr; i += 97) {
			const struct pms_tsym *a = &ks.tab.syms[i], *b = pms_kallsyms__find(&again, a->start + a->size / 2);

			cr_assert_not_null(b, "%s", a->name);
			cr_assert_str_eq(b->name, a->name);
			cr_assert_eq(b->start, a->start);
		}
		pms_kallsyms__release(&again);
	}
	pms_kallsyms__release(&ks);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

/* A fake running kernel under dir: kallsyms with _text and a module, notes with a build-id, a cache. */
static void fake_kernel(const char *dir, const char *first_sym)
{
	char path[256];
	FILE *f;
	static const unsigned char notes[] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
					       1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "ffffffff81000000 T _text\nffffffff81000008 T %s\nffffffff81000100 t helper\n"
		   "ffffffff81000200 T do_work\nffffffff81001000 T _etext\n"
		   "ffffffffc0001000 t mod_fn\t[mymod]\n", first_sym);
	fclose(f);
	snprintf(path, sizeof(path), "%s/kernel", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/notes", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fwrite(notes, sizeof(notes), 1, f);
	fclose(f);
	setenv("PMS_PROCFS_ROOT", dir, 1);
	setenv("PMS_SYSFS_ROOT", dir, 1);
	snprintf(path, sizeof(path), "%s/cache", dir);
	setenv("PMS_BUILDID_DIR", path, 1);
}

Test(symbol_kallsyms, index_built_once_mapped_after_and_rebuilt_when_stale)
{
	char dir[] = "/tmp/pms-ksidx-XXXXXX", idx[512], cmd[600];
	struct pms_kallsyms ks;
	const struct pms_tsym *t;

	cr_assert_not_null(mkdtemp(dir));
	fake_kernel(dir, "startup_64");
	snprintf(idx, sizeof(idx), "%s/cache/[kernel.kallsyms]/0102030405060708090a0b0c0d0e0f1011121314/"
		 "pmuscope-ksyms-ffffffff81000000.idx", dir);

	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(!ks.from_index);
	pms_kallsyms__release(&ks);
	cr_assert_eq(access(idx, R_OK), 0, "no index written at %s", idx);

	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(ks.from_index);
	cr_expect_eq(ks.etext_addr, 0xffffffff81001000ULL);
	t = pms_kallsyms__find(&ks, 0xffffffff81000210ULL);
	cr_assert_not_null(t);
	cr_expect_str_eq(t->name, "do_work");
	/* modules are not in the index: read from kallsyms on first use */
	t = pms_kallsyms__find(&ks, 0xffffffffc0001004ULL);
	cr_assert_not_null(t);
	cr_expect_str_eq(t->name, "mod_fn");
	cr_expect_str_eq(t->module, "mymod");
	pms_kallsyms__release(&ks);

	/* another kernel at the same place (its first lines differ): the index is not trusted */
	fake_kernel(dir, "startup_xen");
	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(!ks.from_index);
	cr_expect_str_eq(pms_kallsyms__find(&ks, 0xffffffff81000010ULL)->name, "startup_xen");
	pms_kallsyms__release(&ks);
	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(ks.from_index);
	cr_expect_str_eq(pms_kallsyms__find(&ks, 0xffffffff81000010ULL)->name, "startup_xen");
	pms_kallsyms__release(&ks);

	/* a damaged index is rebuilt, never read past */
	cr_assert_eq(truncate(idx, 100), 0);
	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(!ks.from_index);
	cr_expect_str_eq(pms_kallsyms__find(&ks, 0xffffffff81000210ULL)->name, "do_work");
	pms_kallsyms__release(&ks);

	/* PMS_KSYM_INDEX=0: always parsed */
	setenv("PMS_KSYM_INDEX", "0", 1);
	cr_assert_eq(pms_kallsyms__load(&ks), 0);
	cr_expect(!ks.from_index);
	pms_kallsyms__release(&ks);
	unsetenv("PMS_KSYM_INDEX");

	/* a kallsyms file of the cache: indexed beside it, rebuilt when the file changes */
	snprintf(idx, sizeof(idx), "%s/kallsyms", dir);
	cr_assert_eq(pms_kallsyms__load_file_indexed(idx, &ks), 0);
	cr_expect(!ks.from_index);
	pms_kallsyms__release(&ks);
	cr_assert_eq(pms_kallsyms__load_file_indexed(idx, &ks), 0);
	cr_expect(ks.from_index);
	cr_expect_str_eq(pms_kallsyms__find(&ks, 0xffffffffc0001004ULL)->module, "mymod");
	pms_kallsyms__release(&ks);
	fake_kernel(dir, "startup_64");
	cr_assert_eq(pms_kallsyms__load_file_indexed(idx, &ks), 0);
	cr_expect(!ks.from_index);
	cr_expect_str_eq(pms_kallsyms__find(&ks, 0xffffffff81000010ULL)->name, "startup_64");
	pms_kallsyms__release(&ks);

	unsetenv("PMS_PROCFS_ROOT");
	unsetenv("PMS_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(symbol_jitmap, perf_map_format)
{
	size_t len;
	char *text = fixture("perf-4242.map", &len);
	struct pms_jitmap jm;
	const struct pms_tsym *s;
	char dir[4096];
	const char *top = getenv("TOP");

	cr_assert_eq(pms_jitmap__parse(text, len, &jm), 0);
	cr_assert_eq(jm.tab.nr, 3);
	cr_assert_eq(jm.nr_bad_lines, 2);
	s = pms_jitmap__find(&jm, 0x7f000000103f);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "LazyCompile:*fib /app/fib.js:3");
	s = pms_jitmap__find(&jm, 0x7f0000001040);
	cr_assert_str_eq(s->name, "Builtin:ArgumentsAdaptorTrampoline");
	cr_assert_null(pms_jitmap__find(&jm, 0x7f0000001060));
	s = pms_jitmap__find(&jm, 0x7f00000020ff);
	cr_assert_str_eq(s->name, "[jit] Interpreter");
	cr_assert_null(pms_jitmap__find(&jm, 0x7f0000002100));
	pms_jitmap__release(&jm);
	free(text);

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/symbol", top && *top ? top : ".");
	setenv("PMS_JITMAP_DIR", dir, 1);
	cr_assert_eq(pms_jitmap__load_pid(4242, &jm), 0);
	cr_assert_eq(jm.tab.nr, 3);
	pms_jitmap__release(&jm);
	cr_assert_eq(pms_jitmap__load_pid(4243, &jm), -ENOENT);
	unsetenv("PMS_JITMAP_DIR");
}

Test(symbol_demangle, cxx_rust_and_c)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "_ZN3pms2fx5cxxfnEi", "pms::fx::cxxfn(int)" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
		{ "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad" },
		{ "_RNvNtCs1cbjBOGfSUP_5hello4main4main", "hello::main::main" },
		{ "__ZN3pms2fx5cxxfnEi", "pms::fx::cxxfn(int)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = pms_demangle(cases[i].in);

		cr_assert_not_null(d, "%s", cases[i].in);
		cr_assert_str_eq(d, cases[i].out);
		free(d);
	}
	cr_assert(!pms_demangle__is_mangled("main"));
	cr_assert(!pms_demangle__is_mangled("_start"));
	cr_assert(!pms_demangle__is_mangled(NULL));
	errno = 0;
	cr_assert_null(pms_demangle("main"));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(pms_demangle("_Z"));
	cr_assert_null(pms_demangle("_Rxyz!"));
}

/* perf's default form: no parameters or return type; a thunk keeps its target's. */
Test(symbol_demangle, perf_form)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "_ZN3pms2fx5cxxfnEi", "pms::fx::cxxfn" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> >::push_back" },
		{ "_ZN2ns1WIlE4spinEl", "ns::W<long>::spin" },
		{ "_ZTv0_n24_NSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEED0Ev",
		  "virtual thunk to std::__cxx11::basic_stringstream<char, std::char_traits<char>, "
		  "std::allocator<char> >::~basic_stringstream()" },
		{ "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = pms_demangle__perf(cases[i].in);

		cr_assert_not_null(d, "%s", cases[i].in);
		cr_expect_str_eq(d, cases[i].out);
		free(d);
	}
	cr_assert_null(pms_demangle__perf("main"));
}

Test(symbol_kallsyms, module_ranges)
{
	size_t len;
	char *text = fixture("modules.txt", &len);
	struct pms_kallsyms ks = { 0 };
	const struct pms_kmodule *m;

	cr_assert_eq(pms_kallsyms__parse_modules(text, len, &ks), 0);
	cr_assert_eq(ks.nr_modules, 2, "zero (restricted) addresses are dropped");
	m = pms_kallsyms__module_of(&ks, 0xffffffffc0a00000 + 1015807);
	cr_assert_not_null(m);
	cr_assert_str_eq(m->name, "ext4");
	cr_assert_null(pms_kallsyms__module_of(&ks, 0xffffffffc0a00000 + 1015808));
	m = pms_kallsyms__module_of(&ks, 0xffffffffc0b00010);
	cr_assert_str_eq(m->name, "vfio");
	cr_assert_null(pms_kallsyms__module_of(&ks, 0xffffffff81000000));
	cr_assert_eq(pms_kallsyms__parse_modules("ext4 x\n", 7, &ks), -EINVAL);
	cr_assert_eq(ks.nr_modules, 0);
	pms_kallsyms__release(&ks);
	free(text);
}

/* perf's Shared Object column: base names, and "[JIT] tid N" for a process's JIT map. */
Test(symbol_jitmap, dso_short_names_as_perf_prints_them)
{
	char buf[64];

	cr_expect_str_eq(pms_jitmap__dso_short_name("/tmp/perf-1748.map", buf, sizeof(buf)), "[JIT] tid 1748");
	cr_expect_str_eq(pms_jitmap__dso_short_name("/usr/lib/x86_64-linux-gnu/libc.so.6", buf, sizeof(buf)),
			 "libc.so.6");
	cr_expect_str_eq(pms_jitmap__dso_short_name("[kernel.kallsyms]", buf, sizeof(buf)), "[kernel.kallsyms]");
	cr_expect_str_eq(pms_jitmap__dso_short_name("/tmp/perf-x.map", buf, sizeof(buf)), "perf-x.map");
	cr_expect_str_eq(pms_jitmap__dso_short_name("/var/tmp/perf-12.map", buf, sizeof(buf)), "perf-12.map");
}
