/* SPDX-License-Identifier: MIT */
/*
 * The running kernel's code, read from <procfs>/kcore: an ELF core file
 * whose PT_LOAD segments map kernel virtual addresses to file offsets. For
 * annotating kernel functions, whose bytes no file on disk holds. Needs
 * CAP_SYS_RAWIO (root).
 *
 * Invariants: the headers are read with pread, never mapped (the file is
 * sized like the address space); 0 or -errno; nothing is printed.
 */
#ifndef PMS_SYMBOL_KCORE_H
#define PMS_SYMBOL_KCORE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Up to len bytes of kernel memory at vaddr into buf; *got says how many
 * (fewer at a segment's end). -ENODEV: this kernel has no kcore
 * (CONFIG_PROC_KCORE); -EACCES/-EPERM without the privilege; -ENOENT when no
 * segment maps vaddr; -EINVAL for a file that is not a core.
 */
int pms_kcore__read(uint64_t vaddr, void *buf, size_t len, size_t *got);

#endif
