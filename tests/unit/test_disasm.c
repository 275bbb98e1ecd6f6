// SPDX-License-Identifier: MIT
// In-process disassembly (capstone): objdump's AT&T and Intel syntax on x86-64, branch kinds and direct targets, AArch64, and undecodable bytes kept as objdump keeps them.
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/disasm.h"

/* push %rbp; mov %rsp,%rbp; (loop:) add $1,%rdx; cmp %rdx,%rsi; jne loop; call +0; ret */
static const uint8_t x86[] = {
	0x55, 0x48, 0x89, 0xe5,
	0x48, 0x83, 0xc2, 0x01, 0x48, 0x39, 0xd6, 0x75, 0xf7,
	0xe8, 0x00, 0x00, 0x00, 0x00, 0xc3,
};

Test(disasm, x86_att_kinds_and_targets)
{
	struct pms_disasm_insn *in;
	size_t nr;

	if (!pms_disasm__supports(EM_X86_64))
		cr_skip_test("built without a disassembler");
	cr_assert_eq(pms_disasm(EM_X86_64, PMS_DISASM_ATT, x86, sizeof(x86), 0x1000, &in, &nr), 0);
	cr_assert_eq(nr, 7);
	cr_assert_eq(in[0].addr, 0x1000);
	cr_assert_str_eq(in[0].mnemonic, "pushq");
	cr_assert_str_eq(in[0].operands, "%rbp");
	cr_assert_str_eq(in[1].operands, "%rsp, %rbp", "AT&T: source first");
	cr_assert_eq(in[2].addr, 0x1004);
	cr_assert_eq(in[4].kind, PMS_INSN_COND_JUMP);
	cr_assert_eq(in[4].target, 0x1004, "jne back to the add: a loop");
	cr_assert_eq(in[5].kind, PMS_INSN_CALL);
	cr_assert_eq(in[5].target, 0x1012);
	cr_assert_eq(in[6].kind, PMS_INSN_RET);
	cr_assert_eq(in[6].target, 0);
	cr_assert_eq(in[6].size, 1);
	cr_assert_eq(in[6].bytes[0], 0xc3);
	free(in);
}

Test(disasm, x86_intel_syntax)
{
	struct pms_disasm_insn *in;
	size_t nr;

	if (!pms_disasm__supports(EM_X86_64))
		cr_skip_test("built without a disassembler");
	cr_assert_eq(pms_disasm(EM_X86_64, PMS_DISASM_INTEL, x86, 4, 0, &in, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_str_eq(in[1].mnemonic, "mov");
	cr_assert_str_eq(in[1].operands, "rbp, rsp", "Intel: destination first");
	free(in);
}

Test(disasm, undecodable_bytes_are_kept_and_decoding_goes_on)
{
	/* 0x06 (push %es) does not exist in 64-bit mode; then a nop and a ret */
	static const uint8_t bad[] = { 0x06, 0x90, 0xc3 };
	struct pms_disasm_insn *in;
	size_t nr;

	if (!pms_disasm__supports(EM_X86_64))
		cr_skip_test("built without a disassembler");
	cr_assert_eq(pms_disasm(EM_X86_64, PMS_DISASM_ATT, bad, sizeof(bad), 0x10, &in, &nr), 0);
	cr_assert_eq(nr, 3);
	cr_assert_eq(in[0].kind, PMS_INSN_BAD);
	cr_assert_str_eq(in[0].mnemonic, "(bad)");
	cr_assert_eq(in[1].addr, 0x11);
	cr_assert_str_eq(in[1].mnemonic, "nop");
	cr_assert_eq(in[2].kind, PMS_INSN_RET);
	free(in);
}

Test(disasm, aarch64_branches)
{
	/* add x0, x0, #1; cmp x0, x1; b.ne -8; bl +8; ret */
	static const uint8_t a64[] = {
		0x00, 0x04, 0x00, 0x91, 0x1f, 0x00, 0x01, 0xeb, 0xc1, 0xff, 0xff, 0x54,
		0x02, 0x00, 0x00, 0x94, 0xc0, 0x03, 0x5f, 0xd6,
	};
	struct pms_disasm_insn *in;
	size_t nr;

	if (!pms_disasm__supports(EM_AARCH64))
		cr_skip_test("built without a disassembler");
	cr_assert_eq(pms_disasm(EM_AARCH64, PMS_DISASM_ATT, a64, sizeof(a64), 0x400000, &in, &nr), 0);
	cr_assert_eq(nr, 5);
	cr_assert_str_eq(in[0].mnemonic, "add");
	cr_assert_eq(in[2].kind, PMS_INSN_COND_JUMP);
	cr_assert_eq(in[2].target, 0x400000);
	cr_assert_eq(in[3].kind, PMS_INSN_CALL);
	cr_assert_eq(in[3].target, 0x400014);
	cr_assert_eq(in[4].kind, PMS_INSN_RET);
	free(in);
}

Test(disasm, other_machines_refused)
{
	struct pms_disasm_insn *in = (void *)1;
	size_t nr = 9;

	cr_assert_not(pms_disasm__supports(EM_RISCV));
	cr_assert_eq(pms_disasm(EM_RISCV, PMS_DISASM_ATT, x86, sizeof(x86), 0, &in, &nr), -EOPNOTSUPP);
	cr_assert_null(in);
	cr_assert_eq(nr, 0);
}
