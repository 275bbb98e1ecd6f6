# SPDX-License-Identifier: MIT
# pmuscope build. `make` builds the CLI, the library (static + shared) and the
# demo workloads; `make run` and `make check` are the README's two commands.

BUILD     ?= build
CC        ?= gcc
# The library's version (its header says it) and the SONAME's number, which
# changes with the version node of lib/libpmuscope.map on an incompatible change.
VERSION   := $(shell sed -n 's/^\#define PMS_VERSION_STRING "\(.*\)"/\1/p' include/pmuscope/pmuscope.h)
SOVERSION := 0

# make install PREFIX=... DESTDIR=...
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SAN       ?=
Q         ?= @

CFLAGS_WARN := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral \
               -Wmissing-prototypes -Wstrict-prototypes -Wvla
CFLAGS    ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(CFLAGS) $(CFLAGS_WARN) -fPIC -fvisibility=hidden \
              -D_GNU_SOURCE -Iinclude -Ilib -MMD -MP
LDLIBS    := -lm

# Host-only libraries: elfutils (lib/symbol: ELF symbols, build-ids, source
# lines, DWARF unwinding), zstd (compressed perf.data records), zlib (gzip
# for pprof) and libiberty (C++/Rust demangling). The static arm64 build for
# the real-PMU rig has no arm64 copies of them, so HOST_LIBS=0 leaves out the
# files that call them (HOST_LIB_SRCS, every *_zstd.c / *_gz.c) and defines
# PMS_NO_HOST_LIBS; the /proc maps, kallsyms and JIT-map readers stay.
HOST_LIBS ?= 1

ifneq ($(SAN),)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS    += -fsanitize=address,undefined
endif

LIB_SRCS  := $(sort $(wildcard lib/*/*.c))
# BPF programs (bpf/*.bpf.c): clang -target bpf, CO-RE against a vmlinux.h
# dumped from this kernel's BTF, embedded by `bpftool gen skeleton` in a
# header that lib/bpf/profile.c includes (so its object waits for it). Only
# host builds link libbpf.
BPF_SRCS  := $(sort $(wildcard bpf/*.bpf.c))
BPF_SKELS := $(BPF_SRCS:bpf/%.bpf.c=$(BUILD)/bpf/%.skel.h)
BPF_ARCH  := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ifeq ($(HOST_LIBS),1)
LDLIBS    := -lbpf -ltraceevent -ldw -lelf -lzstd -lz -liberty -lcapstone -lyaml -lcrypt $(LDLIBS)
# ncurses: top's terminal view; libmicrohttpd: the agent's HTTP server (cli only; the library
# does not link them)
CLI_LDLIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw) -lmicrohttpd -lgnutls
else
HOST_LIB_SRCS := lib/symbol/dso.c lib/symbol/srcline.c lib/symbol/unwind.c lib/symbol/debuginfod.c \
                 lib/symbol/demangle.c lib/symbol/resolver.c lib/bpf/profile.c \
                 lib/data/tracing_data.c lib/aggregate/live_syms.c lib/api/symbolize.c \
                 lib/live/profiler.c lib/aggregate/annotate.c lib/export/annotate_text.c \
                 $(wildcard lib/agent/*.c)
LIB_SRCS  := $(filter-out $(HOST_LIB_SRCS) %_zstd.c %_gz.c,$(LIB_SRCS))
ALL_CFLAGS += -DPMS_NO_HOST_LIBS
endif
CLI_SRCS  := $(sort $(wildcard cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
DEMO_SRCS := $(sort $(wildcard demo/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))

# Generated sources: the flame graph page's script and style as C arrays (scripts/embed.sh).
GEN_SRCS  := $(BUILD)/gen/flamegraph_assets.c
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/flamegraph_assets.o
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/obj/%.o)
DEMO_BINS := $(DEMO_SRCS:demo/%.c=$(BUILD)/demo/%)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)

.PHONY: all deps run check lib cli unit-bin test-bin demo fuzz-bin clean aarch64 install man abi-baseline \
        examples api-bin test-layers test-unit test-cli test-kernel test-browser test-fuzz test-san bench

all: $(BUILD)/pmuscope $(BUILD)/libpmuscope.a $(BUILD)/libpmuscope.so $(BUILD)/pmuscope.pc demo

deps:
	$(Q)sh scripts/install-deps.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/run-demo.sh $(BUILD)

check: deps
	$(Q)$(MAKE) --no-print-directory all unit-bin test-bin fuzz-bin examples api-bin
	$(Q)$(MAKE) --no-print-directory BUILD=build-san SAN=1 build-san/pmuscope unit-bin demo
	$(Q)sh tests/run-all.sh

lib: $(BUILD)/libpmuscope.a $(BUILD)/libpmuscope.so
cli: $(BUILD)/pmuscope
demo: $(DEMO_BINS)
unit-bin: $(BUILD)/tests/unit-tests
test-bin: $(BUILD)/tests/pmuscope-bpftest
fuzz-bin: $(FUZZ_BINS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/gen/flamegraph_assets.c: lib/export/flamegraph.js lib/export/flamegraph.css scripts/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh scripts/embed.sh $@ export/flamegraph_assets.h \
		pms_flamegraph_js=lib/export/flamegraph.js pms_flamegraph_css=lib/export/flamegraph.css

$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(Q)bpftool btf dump file /sys/kernel/btf/vmlinux format c >$@.tmp && mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(BUILD)/bpf/vmlinux.h lib/bpf/profile_abi.h
	$(Q)clang -O2 -g -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BUILD)/bpf -Ilib/bpf -c $< -o $@

# kept: make would delete the intermediate object and rebuild it on the next run
.SECONDARY: $(BPF_SRCS:bpf/%.bpf.c=$(BUILD)/bpf/%.bpf.o)
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(Q)bpftool gen skeleton $< name $*_bpf >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/lib/bpf/profile.o: $(BUILD)/bpf/profile.skel.h
$(BUILD)/obj/lib/bpf/%.o: ALL_CFLAGS += -I$(BUILD)/bpf

# The test build of the BPF object adds programs that only tests load (one the
# verifier must reject): same skeleton name, its own directory, and the
# commands relinked against it as $(BUILD)/tests/pmuscope-bpftest. The
# product's object never carries them.
$(BUILD)/bpf-test/profile.bpf.o: bpf/profile.bpf.c $(BUILD)/bpf/vmlinux.h lib/bpf/profile_abi.h
	@mkdir -p $(dir $@)
	$(Q)clang -O2 -g -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -DPMS_BPF_TEST_PROGS -Wall -Werror \
		-I$(BUILD)/bpf -Ilib/bpf -c $< -o $@
$(BUILD)/bpf-test/profile.skel.h: $(BUILD)/bpf-test/profile.bpf.o
	$(Q)bpftool gen skeleton $< name profile_bpf >$@.tmp && mv $@.tmp $@
$(BUILD)/obj-test/lib/bpf/profile.o: lib/bpf/profile.c $(BUILD)/bpf-test/profile.skel.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BUILD)/bpf-test -c $< -o $@
$(BUILD)/tests/pmuscope-bpftest: $(CLI_OBJS) $(filter-out $(BUILD)/obj/lib/bpf/profile.o,$(LIB_OBJS)) \
		$(BUILD)/obj-test/lib/bpf/profile.o
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CLI_LDLIBS)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libpmuscope.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Only PMS_API symbols are exported (-fvisibility=hidden, version script).
$(BUILD)/libpmuscope.so.$(VERSION): $(LIB_OBJS) lib/libpmuscope.map
	@mkdir -p $(dir $@)
	$(Q)$(CC) -shared $(LDFLAGS) -Wl,--version-script=lib/libpmuscope.map \
		-Wl,-soname,libpmuscope.so.$(SOVERSION) -o $@ $(LIB_OBJS) $(LDLIBS) -lpthread
$(BUILD)/libpmuscope.so.$(SOVERSION) $(BUILD)/libpmuscope.so: $(BUILD)/libpmuscope.so.$(VERSION)
	$(Q)ln -sf $(notdir $<) $@

# What a program linking the static library needs besides it.
LIBS_PRIVATE := $(LDLIBS) -lpthread
# $(BUILD)/pmuscope.pc describes the build tree (for bench/ and in-tree users); install
# writes one with the install paths.
PC_SED = -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS_PRIVATE@|$(LIBS_PRIVATE)|'
$(BUILD)/pmuscope.pc: lib/pmuscope.pc.in include/pmuscope/pmuscope.h Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(abspath $(BUILD))|' -e 's|@LIBDIR@|$(abspath $(BUILD))|' \
		-e 's|@INCLUDEDIR@|$(abspath include)|' $(PC_SED) $< >$@

# The ABI baseline tests/abi/check.sh compares the shared library against.
abi-baseline: $(BUILD)/libpmuscope.so.$(VERSION)
	$(Q)abidw --headers-dir include/pmuscope --drop-private-types --exported-interfaces-only \
		--no-show-locs --no-corpus-path --out-file abi/libpmuscope.abi $<

# Man pages from docs/ (scripts/gen-man.sh) and the bash completion.
man: $(BUILD)/pmuscope
	$(Q)sh scripts/gen-man.sh $(BUILD)/man $(BUILD)/pmuscope

install: all man
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/pmuscope \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(BASHCOMPDIR)
	$(Q)install -m 755 $(BUILD)/pmuscope $(DESTDIR)$(BINDIR)/pmuscope
	$(Q)install -m 644 $(BUILD)/libpmuscope.a $(DESTDIR)$(LIBDIR)/libpmuscope.a
	$(Q)install -m 755 $(BUILD)/libpmuscope.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpmuscope.so.$(VERSION)
	$(Q)ln -sf libpmuscope.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpmuscope.so.$(SOVERSION)
	$(Q)ln -sf libpmuscope.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpmuscope.so
	$(Q)install -m 644 include/pmuscope/*.h $(DESTDIR)$(INCLUDEDIR)/pmuscope/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		$(PC_SED) lib/pmuscope.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/pmuscope.pc
	$(Q)install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(Q)if ls $(BUILD)/man/*.3 >/dev/null 2>&1; then install -m 644 $(BUILD)/man/*.3 $(DESTDIR)$(MANDIR)/man3/; fi
	$(Q)install -m 644 contrib/bash-completion/pmuscope $(DESTDIR)$(BASHCOMPDIR)/pmuscope

# The examples and the public-API tests build from an installed copy
# (PREFIX=/usr in $(BUILD)/stage) through pkg-config alone: no -Iinclude, no -Ilib.
STAGE     := $(BUILD)/stage
STAGE_PC  := PKG_CONFIG_LIBDIR=$(STAGE)/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$(STAGE) pkg-config
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)
API_SRCS  := $(sort $(wildcard tests/api/*.c))
$(STAGE)/.installed: $(BUILD)/pmuscope $(BUILD)/libpmuscope.a $(BUILD)/libpmuscope.so.$(VERSION) \
		$(BUILD)/pmuscope.pc $(wildcard include/pmuscope/*.h) contrib/bash-completion/pmuscope scripts/gen-man.sh
	$(Q)rm -rf $(STAGE)
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(abspath $(STAGE)) PREFIX=/usr
	$(Q)touch $@
examples: $(EXAMPLE_BINS)
$(BUILD)/examples/%: examples/%.c $(STAGE)/.installed
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -g $(CFLAGS_WARN) $$($(STAGE_PC) --cflags pmuscope) -o $@ $< \
		$$($(STAGE_PC) --libs pmuscope) -Wl,-rpath,$(abspath $(STAGE))/usr/lib -lpthread
api-bin: $(BUILD)/tests/api-tests
$(BUILD)/tests/api-tests: $(API_SRCS) $(wildcard tests/api/*.h) $(STAGE)/.installed
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O1 -g $(CFLAGS_WARN) $$($(STAGE_PC) --cflags pmuscope) -o $@ $(API_SRCS) \
		$$($(STAGE_PC) --libs pmuscope) -Wl,-rpath,$(abspath $(STAGE))/usr/lib -lcriterion -lpthread

$(BUILD)/pmuscope: $(CLI_OBJS) $(BUILD)/libpmuscope.a
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libpmuscope.a $(LDLIBS) $(CLI_LDLIBS)

$(BUILD)/tests/unit-tests: $(UNIT_OBJS) $(BUILD)/libpmuscope.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(BUILD)/libpmuscope.a -lcriterion $(LDLIBS)

# Demo and test workloads: plain C with frame pointers, no library.
$(BUILD)/demo/%: demo/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline $(CFLAGS_WARN) $(LDFLAGS) -o $@ $< -lpthread -lm

# libFuzzer targets: clang, the library compiled once with fuzzer
# instrumentation into $(BUILD)/fuzz/libpmuscope-fuzz.a, each harness linked
# against it. tests/fuzz/coverage-ignore.txt lists the sources left out of
# coverage instrumentation (ASan and UBSan still check them).
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Ilib -I$(BUILD)/bpf \
               -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt
FUZZ_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o) $(GEN_SRCS:$(BUILD)/gen/%.c=$(BUILD)/fuzz/obj/gen/%.o)
$(BUILD)/fuzz/obj/lib/%.o: lib/%.c tests/fuzz/coverage-ignore.txt
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzz/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(filter $(BUILD)/fuzz/obj/lib/bpf/%,$(FUZZ_OBJS)): $(BPF_SKELS)
$(BUILD)/fuzz/libpmuscope-fuzz.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && $(AR) rcs $@ $^
$(FUZZ_BINS): $(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libpmuscope-fuzz.a
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -MF $(BUILD)/fuzz/obj/$*.d -o $@ $< $(BUILD)/fuzz/libpmuscope-fuzz.a $(LDLIBS)
-include $(FUZZ_OBJS:.o=.d) $(FUZZ_BINS:$(BUILD)/fuzz/%=$(BUILD)/fuzz/obj/%.d)

# Static aarch64 CLI for the arm64 real-PMU rig (tests/pmu-vm).
aarch64:
	$(Q)$(MAKE) --no-print-directory BUILD=build-aarch64 CC=aarch64-linux-gnu-gcc \
		AR=aarch64-linux-gnu-ar LDFLAGS=-static HOST_LIBS=0 build-aarch64/pmuscope build-aarch64/libpmuscope.a

test-layers:
	$(Q)sh scripts/check-layers.sh
test-unit: unit-bin
	$(Q)sh tests/unit/run.sh $(BUILD)
test-cli: all
	$(Q)sh tests/cli/run.sh $(BUILD)
test-kernel: all
	$(Q)sh tests/kernel/run.sh $(BUILD)
test-browser: all
	$(Q)sh tests/browser/run.sh $(BUILD)
test-fuzz: fuzz-bin
	$(Q)sh tests/fuzz/run.sh $(BUILD)
bench: all
	$(Q)sh bench/run.sh $(BUILD)

clean:
	rm -rf build build-san build-aarch64

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(BUILD)/obj-test/lib/bpf/profile.d
