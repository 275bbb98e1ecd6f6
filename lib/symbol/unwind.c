// SPDX-License-Identifier: MIT
// DWARF unwinding of copied user stacks via libdwfl with sample-backed thread callbacks (x86_64, arm64).
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbol/unwind.h"
#include "util/sysfs.h"

struct pms_unwinder {
	Dwfl *dwfl;
	const struct pms_maps *maps;
	bool attached;
	/* The sample being unwound (valid during pms_unwinder__unwind()). */
	const struct pms_unwind_regs *regs;
	const uint8_t *stack;
	size_t stack_size;
	uint64_t sp;
	uint64_t *ips;
	size_t max, nr;
};

/*
 * libdwfl's search path for debug files (":.debug:<root>"): the same root
 * lib/symbol searches, so tests and fuzzers can point it at an empty tree;
 * unset, libdwfl would read /usr/lib/debug whatever PMS_DEBUG_ROOT says (a
 * 4 MB libc debug file per address space, when .eh_frame is not enough).
 */
static char debuginfo_path_buf[4200];
static char *debuginfo_path = debuginfo_path_buf;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* Bias of a mapping of the ELF in fd at start with file offset pgoff: start - vaddr(pgoff). */
static int fd_bias(int fd, uint64_t start, uint64_t pgoff, uint64_t *bias, bool *is_exec)
{
	int err = -ENOENT;
	size_t phnum;
	GElf_Ehdr eh;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && gelf_getehdr(elf, &eh) && !elf_getphdrnum(elf, &phnum)) {
		*is_exec = eh.e_type == ET_EXEC;
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (pgoff >= ph.p_offset && pgoff - ph.p_offset < ph.p_filesz) {
				*bias = start - (pgoff - ph.p_offset + ph.p_vaddr);
				err = 0;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	return err;
}

static int map_bias(const char *path, uint64_t start, uint64_t pgoff, uint64_t *bias, bool *is_exec)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = fd_bias(fd, start, pgoff, bias, is_exec);
	close(fd);
	return err;
}

/*
 * The vDSO has no file: report this process's own image (the same kernel
 * as the samples when unwinding on the recording machine) from a memfd.
 */
static bool report_vdso(Dwfl *dwfl, const struct pms_map *m)
{
	size_t len = (size_t)(m->end - m->start);
	const uint8_t *img = NULL;
	struct pms_maps *self;
	uint64_t bias = 0;
	bool is_exec = false, ok = false;
	int fd;

	if (pms_maps__read_pid(0, &self))
		return false;
	for (size_t i = 0; i < self->nr; i++)
		if (!strcmp(self->maps[i].path, "[vdso]") && self->maps[i].end - self->maps[i].start == len)
			img = (const uint8_t *)(uintptr_t)self->maps[i].start;
	pms_maps__free(self);
	if (!img || len > (1 << 20))
		return false;
	fd = memfd_create("pms-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return false;
	if (write(fd, img, len) == (ssize_t)len && !fd_bias(fd, m->start, m->pgoff, &bias, &is_exec)) {
		/* dwfl_report_elf() consumes fd on success. */
		ok = dwfl_report_elf(dwfl, "[vdso]", "[vdso]", fd, bias, true) != NULL;
	}
	if (!ok)
		close(fd);
	return ok;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0; /* one thread per unwinder: the sample's */
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pms_unwinder *u = arg;

	(void)dwfl;
	if (addr < u->sp || addr - u->sp > u->stack_size ||
	    u->stack_size - (addr - u->sp) < sizeof(*result))
		return false;
	memcpy(result, u->stack + (addr - u->sp), sizeof(*result));
	return true;
}

static bool set_reg(Dwfl_Thread *thread, int dwarf_reg, const struct pms_unwind_regs *regs, int perf_reg)
{
	uint64_t v;
	Dwarf_Word w;

	if (pms_unwind_regs__get(regs, perf_reg, &v))
		return true; /* unknown registers stay undefined */
	w = v;
	return dwfl_thread_state_registers(thread, dwarf_reg, 1, &w);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct pms_unwinder *u = arg;
	const struct pms_unwind_regs *r = u->regs;
	uint64_t pc;

	if (r->arch == PMS_UNWIND_X86_64) {
		/* DWARF numbering: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
		static const int perf_of_dwarf[17] = {
			PMS_X86_REG_AX, PMS_X86_REG_DX, PMS_X86_REG_CX, PMS_X86_REG_BX,
			PMS_X86_REG_SI, PMS_X86_REG_DI, PMS_X86_REG_BP, PMS_X86_REG_SP,
			16, 17, 18, 19, 20, 21, 22, 23, PMS_X86_REG_IP,
		};

		for (int i = 0; i < 17; i++)
			if (!set_reg(thread, i, r, perf_of_dwarf[i]))
				return false;
		return true;
	}
	for (int i = 0; i <= 31; i++) /* x0..x30, sp share numbers */
		if (!set_reg(thread, i, r, i))
			return false;
	if (pms_unwind_regs__get(r, PMS_ARM64_REG_PC, &pc))
		return false;
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

int pms_unwinder__new(const struct pms_maps *maps, struct pms_unwinder **out)
{
	struct pms_unwinder *u = calloc(1, sizeof(*u));
	size_t reported = 0;

	if (!u)
		return -ENOMEM;
	u->maps = maps;
	snprintf(debuginfo_path_buf, sizeof(debuginfo_path_buf), ":.debug:%s", pms_debug_root());
	u->dwfl = dwfl_begin(&offline_callbacks);
	if (!u->dwfl) {
		free(u);
		return -ENOMEM;
	}
	dwfl_report_begin(u->dwfl);
	for (size_t i = 0; i < maps->nr; i++) {
		const struct pms_map *m = &maps->maps[i];
		uint64_t bias = 0;
		bool is_exec = false;
		bool seen = false;

		if (pms_map__is_exec(m) && !strcmp(m->path, "[vdso]")) {
			reported += report_vdso(u->dwfl, m);
			continue;
		}
		if (!pms_map__is_exec(m) || m->anon || m->special || m->path[0] != '/')
			continue;
		/* One report per file: its first executable mapping defines the bias. */
		for (size_t j = 0; j < i && !seen; j++)
			seen = pms_map__is_exec(&maps->maps[j]) && !strcmp(maps->maps[j].path, m->path);
		if (seen || map_bias(m->path, m->start, m->pgoff, &bias, &is_exec))
			continue;
		if (dwfl_report_elf(u->dwfl, m->path, m->path, -1, is_exec ? 0 : bias, true))
			reported++;
	}
	dwfl_report_end(u->dwfl, NULL, NULL);
	if (!reported) {
		pms_unwinder__free(u);
		return -ENOENT;
	}
	*out = u;
	return 0;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct pms_unwinder *u = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	u->ips[u->nr++] = pc;
	return u->nr < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int pms_unwinder__unwind(struct pms_unwinder *u, const struct pms_unwind_regs *regs,
			 const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *nr)
{
	uint64_t ip, sp;
	int sp_reg = regs->arch == PMS_UNWIND_X86_64 ? PMS_X86_REG_SP : PMS_ARM64_REG_SP;
	int ip_reg = regs->arch == PMS_UNWIND_X86_64 ? PMS_X86_REG_IP : PMS_ARM64_REG_PC;

	*nr = 0;
	if (!max || pms_unwind_regs__get(regs, ip_reg, &ip) || pms_unwind_regs__get(regs, sp_reg, &sp))
		return -EINVAL;
	/* pid 1 is a placeholder: the state lives in our callbacks, never in ptrace. */
	if (!u->attached) {
		if (!dwfl_attach_state(u->dwfl, NULL, 1, &thread_callbacks, u))
			return -ENOEXEC;
		u->attached = true;
	}
	u->regs = regs;
	u->stack = stack;
	u->stack_size = stack_size;
	u->sp = sp;
	u->ips = ips;
	u->max = max;
	u->nr = 0;
	(void)dwfl_getthread_frames(u->dwfl, 1, frame_cb, u);
	if (!u->nr) {
		/* Even without CFI the sampled IP itself is a valid one-frame chain. */
		ips[0] = ip;
		u->nr = 1;
	}
	*nr = u->nr;
	u->regs = NULL;
	u->stack = NULL;
	u->ips = NULL;
	return 0;
}

void pms_unwinder__free(struct pms_unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}
