/* SPDX-License-Identifier: MIT */
/* The measured loop shared by the guest workloads: LOOP_BODY_INSNS instructions per iteration.
 *
 * Invariant: the body is written in assembly so the compiler cannot change its length; a run
 * of n iterations retires exactly LOOP_BODY_INSNS * n instructions inside the loop plus a
 * constant (cbz and the fall-through) that does not depend on n.
 */
#ifndef PMS_VM_LOOP_H
#define PMS_VM_LOOP_H

#define LOOP_BODY_INSNS 4

static inline unsigned long vm_loop(unsigned long n)
{
	unsigned long acc = 0;

	__asm__ volatile("cbz %[n], 2f\n"
			 "1: add %[acc], %[acc], #3\n"
			 "eor %[acc], %[acc], %[n]\n"
			 "subs %[n], %[n], #1\n"
			 "b.ne 1b\n"
			 "2:\n"
			 : [n] "+r"(n), [acc] "+r"(acc)
			 :
			 : "cc");
	return acc;
}

#endif
