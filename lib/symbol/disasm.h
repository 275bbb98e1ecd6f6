/* SPDX-License-Identifier: MIT */
/*
 * Machine code to instructions, in process, with capstone (x86-64 and
 * AArch64): what annotate shows and where its jumps go. objdump's AT&T
 * syntax on x86 by default, as perf annotate shows it; Intel on request.
 *
 * Invariants:
 *  - Instructions cover [addr, addr + len) in order without gaps: bytes
 *    capstone cannot decode become one-byte "(bad)" entries, as objdump
 *    prints them, and decoding goes on after them.
 *  - target is the branch's destination when the instruction encodes it
 *    (direct jumps and calls), else 0.
 *  - 0 or -errno (-EOPNOTSUPP: a machine or build without a disassembler);
 *    nothing is printed.
 */
#ifndef PMS_SYMBOL_DISASM_H
#define PMS_SYMBOL_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pms_disasm_syntax {
	PMS_DISASM_ATT,     /* x86: objdump's default (AArch64 has one syntax) */
	PMS_DISASM_INTEL,
};

enum pms_insn_kind {
	PMS_INSN_OTHER,
	PMS_INSN_JUMP,      /* unconditional */
	PMS_INSN_COND_JUMP,
	PMS_INSN_CALL,
	PMS_INSN_RET,
	PMS_INSN_BAD,       /* undecodable byte */
};

struct pms_disasm_insn {
	uint64_t addr;
	uint8_t size;
	uint8_t bytes[16];
	enum pms_insn_kind kind;
	uint64_t target;          /* direct branch destination, 0 when none */
	char mnemonic[32];
	char operands[160];
};

/* "x86-64" or "aarch64" can be disassembled (ELF e_machine). */
bool pms_disasm__supports(uint16_t e_machine);

/*
 * code[0..len) at address addr for e_machine, into *out (malloc()ed, the
 * caller frees) and *nr. -EOPNOTSUPP for another machine, -ENOMEM.
 */
int pms_disasm(uint16_t e_machine, enum pms_disasm_syntax syntax, const uint8_t *code, size_t len, uint64_t addr,
	       struct pms_disasm_insn **out, size_t *nr);

#endif
