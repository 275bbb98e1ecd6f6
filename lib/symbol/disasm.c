// SPDX-License-Identifier: MIT
// Machine code to instructions with capstone (x86-64, AArch64), with branch kinds and direct targets.
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/disasm.h"
#include "util/array.h"

#ifdef PMS_NO_HOST_LIBS
bool pms_disasm__supports(uint16_t e_machine)
{
	(void)e_machine;
	return false;
}

int pms_disasm(uint16_t e_machine, enum pms_disasm_syntax syntax, const uint8_t *code, size_t len, uint64_t addr,
	       struct pms_disasm_insn **out, size_t *nr)
{
	(void)e_machine, (void)syntax, (void)code, (void)len, (void)addr;
	*out = NULL;
	*nr = 0;
	return -EOPNOTSUPP;
}
#else
#include <capstone/capstone.h>

bool pms_disasm__supports(uint16_t e_machine)
{
	return e_machine == EM_X86_64 || e_machine == EM_AARCH64;
}

static bool in_group(const cs_insn *in, uint8_t group)
{
	for (uint8_t i = 0; in->detail && i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == group)
			return true;
	return false;
}

/* A direct branch's destination: its one immediate operand. */
static uint64_t direct_target(uint16_t e_machine, const cs_insn *in)
{
	if (!in->detail)
		return 0;
	if (e_machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;

		return x->op_count == 1 && x->operands[0].type == X86_OP_IMM ? (uint64_t)x->operands[0].imm : 0;
	}
	for (uint8_t i = 0; i < in->detail->arm64.op_count; i++) {
		const cs_arm64_op *op = &in->detail->arm64.operands[i];

		/* b, bl, b.cond, cbz/cbnz (reg, label), tbz/tbnz (reg, bit, label): the label comes last */
		if (op->type == ARM64_OP_IMM && i + 1 == in->detail->arm64.op_count)
			return (uint64_t)op->imm;
	}
	return 0;
}

static enum pms_insn_kind kind_of(uint16_t e_machine, const cs_insn *in)
{
	/* capstone 4 files AArch64's bl/blr and ret under the jump group: by instruction, then */
	if (e_machine == EM_AARCH64 && (in->id == ARM64_INS_BL || in->id == ARM64_INS_BLR))
		return PMS_INSN_CALL;
	if (e_machine == EM_AARCH64 && (in->id == ARM64_INS_RET || in->id == ARM64_INS_ERET))
		return PMS_INSN_RET;
	if (in_group(in, CS_GRP_CALL))
		return PMS_INSN_CALL;
	if (in_group(in, CS_GRP_RET))
		return PMS_INSN_RET;
	if (!in_group(in, CS_GRP_JUMP))
		return PMS_INSN_OTHER;
	if (e_machine == EM_X86_64)
		return in->id == X86_INS_JMP || in->id == X86_INS_LJMP ? PMS_INSN_JUMP : PMS_INSN_COND_JUMP;
	/* AArch64: b and br are unconditional; b.cond, cbz, cbnz, tbz, tbnz are not */
	if ((in->id == ARM64_INS_B && in->detail->arm64.cc == ARM64_CC_INVALID) || in->id == ARM64_INS_BR)
		return PMS_INSN_JUMP;
	return PMS_INSN_COND_JUMP;
}

int pms_disasm(uint16_t e_machine, enum pms_disasm_syntax syntax, const uint8_t *code, size_t len, uint64_t addr,
	       struct pms_disasm_insn **out, size_t *nr)
{
	struct pms_disasm_insn *v = NULL;
	size_t n = 0, alloc = 0, off = 0;
	cs_insn *in = NULL;
	csh h;
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!pms_disasm__supports(e_machine))
		return -EOPNOTSUPP;
	if (cs_open(e_machine == EM_X86_64 ? CS_ARCH_X86 : CS_ARCH_ARM64,
		    e_machine == EM_X86_64 ? CS_MODE_64 : CS_MODE_ARM, &h) != CS_ERR_OK)
		return -EOPNOTSUPP;
	if (e_machine == EM_X86_64)
		cs_option(h, CS_OPT_SYNTAX, syntax == PMS_DISASM_INTEL ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	if (!in) {
		cs_close(&h);
		return -ENOMEM;
	}
	while (off < len && !err) {
		const uint8_t *p = code + off;
		size_t left = len - off;
		uint64_t at = addr + off;
		struct pms_disasm_insn *d;

		if ((err = pms_array__reserve(&v, &alloc, n + 1, sizeof(*v))))
			break;
		d = &v[n++];
		memset(d, 0, sizeof(*d));
		d->addr = addr + off;
		if (cs_disasm_iter(h, &p, &left, &at, in)) {
			d->size = (uint8_t)in->size;
			memcpy(d->bytes, in->bytes, in->size < sizeof(d->bytes) ? in->size : sizeof(d->bytes));
			d->kind = kind_of(e_machine, in);
			if (d->kind != PMS_INSN_OTHER && d->kind != PMS_INSN_RET)
				d->target = direct_target(e_machine, in);
			snprintf(d->mnemonic, sizeof(d->mnemonic), "%s", in->mnemonic);
			snprintf(d->operands, sizeof(d->operands), "%s", in->op_str);
		} else {
			/* objdump's way: one byte it cannot decode, then on */
			d->size = e_machine == EM_AARCH64 && len - off >= 4 ? 4 : 1;
			memcpy(d->bytes, code + off, d->size);
			d->kind = PMS_INSN_BAD;
			snprintf(d->mnemonic, sizeof(d->mnemonic), "(bad)");
		}
		off += d->size;
	}
	cs_free(in, 1);
	cs_close(&h);
	if (err) {
		free(v);
		return err;
	}
	*out = v;
	*nr = n;
	return 0;
}
#endif
