/* SPDX-License-Identifier: MIT */
/*
 * --call-graph as perf takes it: "fp" (the kernel walks frame pointers) or
 * "dwarf[,size]" (each sample copies the user registers and size bytes of
 * user stack, unwound later with the binaries' CFI).
 */
#ifndef PMS_EVENT_CALLGRAPH_H
#define PMS_EVENT_CALLGRAPH_H

#include <stdint.h>

enum pms_call_graph_mode {
	PMS_CALL_GRAPH_NONE,
	PMS_CALL_GRAPH_FP,
	PMS_CALL_GRAPH_DWARF,
};

struct pms_call_graph {
	enum pms_call_graph_mode mode;
	uint32_t stack_bytes;   /* dwarf: user stack copied per sample, a multiple of 8 */
};

/* perf's default dump size. */
#define PMS_CALL_GRAPH_DWARF_STACK_DEFAULT 8192u
/* The kernel keeps the dump size in a u16 and wants a multiple of 8. */
#define PMS_CALL_GRAPH_DWARF_STACK_MAX 65528u

/*
 * Parse text into *out. The size may be decimal or 0x-hex and is rounded
 * up to a multiple of 8; it must lie in [min_stack_bytes, max_stack_bytes]
 * (the consumer's limits: the kernel's for perf_event samples, the BPF
 * program's copy for profile). 0; -EINVAL for an unknown mode; -ERANGE
 * for a size that is not a number or is out of range; -EOPNOTSUPP for
 * "lbr" (Intel's last-branch records, which pmuscope does not drive).
 */
int pms_call_graph__parse(const char *text, uint32_t min_stack_bytes, uint32_t max_stack_bytes,
			  struct pms_call_graph *out);

/*
 * The PERF_SAMPLE_REGS_USER mask perf asks for with dwarf on this
 * architecture (every general register an unwinder may need), 0 where
 * dwarf call graphs are not supported.
 */
uint64_t pms_call_graph__dwarf_regs_user(void);

#endif
