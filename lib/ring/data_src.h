/* SPDX-License-Identifier: MIT */
/*
 * A sample's PERF_SAMPLE_DATA_SRC (union perf_mem_data_src: where a load or
 * store was served, its snoop, TLB, lock and block state) as the text perf
 * 6.1 prints for it: the tables and rules of its
 * tools/perf/util/mem-events.c (perf_mem__{op,lvl,snp,tlb,lck,blk}_scnprintf
 * and perf_script__meminfo_scnprintf), quirks included (a level printed from
 * both the old mem_lvl bits and mem_lvl_num, "L%d" for unnamed level
 * numbers, the blank before the BLK value).
 *
 * Invariants: pure functions of the u64; every function is snprintf-like:
 * writes at most size bytes, NUL-terminated when size > 0, and returns the
 * length of the whole text. Bit fields no table names print as perf prints
 * them (a hop count past perf's table, which perf reads beyond, prints
 * "N/A").
 */
#ifndef PMS_RING_DATA_SRC_H
#define PMS_RING_DATA_SRC_H

#include <stddef.h>
#include <stdint.h>

/* The operation: "LOAD", "STORE", "PFETCH", "EXEC", "N/A" or "No". */
size_t pms_data_src__op(uint64_t data_src, char *buf, size_t size);
/* The memory level: "L1 hit", "LFB/MAB or LFB/MAB hit", "Remote core, same node L2 hit", "N/A". */
size_t pms_data_src__lvl(uint64_t data_src, char *buf, size_t size);
/* The snoop: "None", "HitM or Fwd", "Peer", "N/A". */
size_t pms_data_src__snoop(uint64_t data_src, char *buf, size_t size);
/* The data TLB: "L1 or L2 hit", "Walker miss", "N/A". */
size_t pms_data_src__tlb(uint64_t data_src, char *buf, size_t size);
/* The lock: "Yes", "No", "N/A". */
size_t pms_data_src__lock(uint64_t data_src, char *buf, size_t size);
/* The block reason, with perf's leading blank: " N/A", " Data", " Addr", " Data Addr". */
size_t pms_data_src__blk(uint64_t data_src, char *buf, size_t size);
/*
 * All of them as perf script's data_src field writes them after the hex
 * value: "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 */
size_t pms_data_src__describe(uint64_t data_src, char *buf, size_t size);

#endif
