// SPDX-License-Identifier: MIT
// Unit tests of ring/record and ring/stats: each kernel record type, the sample_id trailer, bounds.
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "ring/record.h"
#include "ring/stats.h"
#include "ring_build.h"

static struct rb b;
static struct pms_record r;

#define SID_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		  PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN)

static void put_sid(void)
{
	rb_u32(&b, 7); rb_u32(&b, 8);   /* pid, tid */
	rb_u64(&b, 999);                /* time */
	rb_u64(&b, 55);                 /* id */
	rb_u64(&b, 66);                 /* stream_id */
	rb_u32(&b, 1); rb_u32(&b, 0);   /* cpu */
	rb_u64(&b, 55);                 /* identifier */
}

static int decode(const struct pms_decode_cfg *cfg, size_t *off)
{
	rb_end(&b);
	return pms_record__decode(cfg, rb_bytes(&b), b.len, &r, off);
}

static const struct pms_decode_cfg sid_cfg = { .sample_type = SID_TYPE, .sample_id_all = true };
static const struct pms_decode_cfg plain_cfg = { .sample_type = SID_TYPE };

static void check_sid(void)
{
	cr_assert_eq(r.sid.pid, 7u);
	cr_assert_eq(r.sid.tid, 8u);
	cr_assert_eq(r.sid.time, 999u);
	cr_assert_eq(r.sid.id, 55u);
	cr_assert_eq(r.sid.stream_id, 66u);
	cr_assert_eq(r.sid.cpu, 1u);
}

Test(ring_record, mmap_and_mmap2_with_inode_and_build_id)
{
	size_t off;

	rb_begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	rb_u32(&b, 10); rb_u32(&b, 11);
	rb_u64(&b, 0x400000); rb_u64(&b, 0x1000); rb_u64(&b, 0);
	rb_str(&b, "/bin/true");
	put_sid();
	cr_assert_eq(decode(&sid_cfg, &off), 0);
	cr_assert(r.known);
	cr_assert_str_eq(r.mmap.filename, "/bin/true");
	cr_assert_eq(r.mmap.addr, 0x400000u);
	check_sid();

	rb_begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	rb_u32(&b, 10); rb_u32(&b, 11);
	rb_u64(&b, 0x400000); rb_u64(&b, 0x1000); rb_u64(&b, 0x2000);
	rb_u32(&b, 8); rb_u32(&b, 1); rb_u64(&b, 1234); rb_u64(&b, 5);
	rb_u32(&b, 5); rb_u32(&b, 2);
	rb_str(&b, "/usr/lib/libc.so.6");
	cr_assert_eq(decode(&plain_cfg, &off), 0);
	cr_assert(!r.mmap.has_build_id);
	cr_assert(r.mmap.data);
	cr_assert_eq(r.mmap.maj, 8u);
	cr_assert_eq(r.mmap.ino, 1234u);
	cr_assert_eq(r.mmap.prot, 5u);
	cr_assert_eq(r.mmap.pgoff, 0x2000u);
	cr_assert_str_eq(r.mmap.filename, "/usr/lib/libc.so.6");

	rb_begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	rb_u32(&b, 10); rb_u32(&b, 11);
	rb_u64(&b, 0x400000); rb_u64(&b, 0x1000); rb_u64(&b, 0);
	rb_u8(&b, 20); rb_u8(&b, 0); rb_u16(&b, 0);
	rb_put(&b, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14", 20);
	rb_u32(&b, 5); rb_u32(&b, 2);
	rb_str(&b, "/x");
	cr_assert_eq(decode(&plain_cfg, &off), 0);
	cr_assert(r.mmap.has_build_id);
	cr_assert_eq(r.mmap.build_id_size, 20);
	cr_assert_eq(r.mmap.build_id[19], 0x14);
	cr_assert_eq(r.mmap.maj, 0u);
	/* build_id_size > 20 is not a build-id. */
	rb_bytes(&b)[40] = 21;
	cr_assert_eq(pms_record__decode(&plain_cfg, rb_bytes(&b), b.len, &r, &off), -EINVAL);
	cr_assert_eq(off, 40u);
}

Test(ring_record, strings_must_be_terminated)
{
	size_t off;

	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 1); rb_u32(&b, 1);
	rb_put(&b, "abcdefgh", 8);     /* no NUL in the slot */
	put_sid();
	cr_assert_eq(decode(&sid_cfg, &off), -EINVAL);
	cr_assert_eq(off, 16u);
	/* Without sample_id_all the trailer bytes count as the string (it has NULs). */
	cr_assert_eq(decode(&plain_cfg, &off), 0);
	/* Empty string slot. */
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, 1); rb_u32(&b, 1);
	cr_assert_eq(decode(&plain_cfg, &off), -EINVAL);
	cr_assert_eq(off, 16u);
}

Test(ring_record, comm_exec_fork_exit)
{
	rb_begin(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32(&b, 42); rb_u32(&b, 43);
	rb_str(&b, "busy");
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert(r.comm.exec);
	cr_assert_eq(r.comm.tid, 43u);
	cr_assert_str_eq(r.comm.comm, "busy");
	check_sid();

	for (int t = PERF_RECORD_EXIT; t <= PERF_RECORD_FORK; t += PERF_RECORD_FORK - PERF_RECORD_EXIT) {
		rb_begin(&b, (uint32_t)t, 0);
		rb_u32(&b, 42); rb_u32(&b, 1); rb_u32(&b, 43); rb_u32(&b, 2);
		rb_u64(&b, 777);
		put_sid();
		cr_assert_eq(decode(&sid_cfg, NULL), 0);
		cr_assert_eq(r.type, (uint32_t)t);
		cr_assert_eq(r.task.pid, 42u);
		cr_assert_eq(r.task.ppid, 1u);
		cr_assert_eq(r.task.ptid, 2u);
		cr_assert_eq(r.task.time, 777u);
		check_sid();
	}
}

Test(ring_record, lost_throttle_lost_samples_and_stats)
{
	struct pms_ring_stats st = { 0 };
	int i;

	for (i = 0; i < 3; i++) {
		rb_begin(&b, PERF_RECORD_LOST, 0);
		rb_u64(&b, i == 2 ? 56 : 55);
		rb_u64(&b, 10);
		put_sid();
		cr_assert_eq(decode(&sid_cfg, NULL), 0);
		cr_assert_eq(r.lost.lost, 10u);
		cr_assert_eq(pms_ring_stats__account(&st, &r), 0);
	}
	rb_begin(&b, PERF_RECORD_LOST_SAMPLES, 0);
	rb_u64(&b, 5);
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert_eq(pms_ring_stats__account(&st, &r), 0);
	rb_begin(&b, PERF_RECORD_THROTTLE, 0);
	rb_u64(&b, 1); rb_u64(&b, 55); rb_u64(&b, 66);
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert_eq(r.throttle.id, 55u);
	cr_assert_eq(pms_ring_stats__account(&st, &r), 0);
	b.words[0] = 0; /* UNTHROTTLE with the same body */
	rb_begin(&b, PERF_RECORD_UNTHROTTLE, 0);
	rb_u64(&b, 2); rb_u64(&b, 55); rb_u64(&b, 66);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(pms_ring_stats__account(&st, &r), 0);
	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 55); rb_u64(&b, 0x1234);
	rb_u32(&b, 1); rb_u32(&b, 2); rb_u64(&b, 3); rb_u64(&b, 55); rb_u64(&b, 66); rb_u32(&b, 0); rb_u32(&b, 0);
	rb_u64(&b, 0);
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert_eq(r.sample.ip, 0x1234u);
	cr_assert_eq(pms_ring_stats__account(&st, &r), 0);

	cr_assert_eq(st.nr_records, 7u);
	cr_assert_eq(st.nr_lost_records, 3u);
	cr_assert_eq(st.nr_lost_events, 30u);
	cr_assert_eq(pms_ring_stats__lost_for_id(&st, 55), 20u);
	cr_assert_eq(pms_ring_stats__lost_for_id(&st, 56), 10u);
	cr_assert_eq(pms_ring_stats__lost_for_id(&st, 57), 0u);
	cr_assert_eq(st.nr_lost_samples, 5u);
	cr_assert_eq(st.nr_throttle, 1u);
	cr_assert_eq(st.nr_unthrottle, 1u);
	cr_assert_eq(st.nr_samples, 1u);
	cr_assert_float_eq(pms_ring_stats__lost_pct(&st), 100.0 * 35 / 36, 1e-9);
	pms_ring_stats__exit(&st);
	pms_ring_stats__exit(&st);
	pms_ring_stats__exit(NULL);
}

Test(ring_record, switch_namespaces_ksymbol_bpf_cgroup_text_poke)
{
	size_t off;

	rb_begin(&b, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert(r.sw.out && r.sw.preempt && !r.sw.cpu_wide);
	rb_begin(&b, PERF_RECORD_SWITCH_CPU_WIDE, 0);
	rb_u32(&b, 3); rb_u32(&b, 4);
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert(!r.sw.out && r.sw.cpu_wide);
	cr_assert_eq(r.sw.next_prev_tid, 4u);

	rb_begin(&b, PERF_RECORD_NAMESPACES, 0);
	rb_u32(&b, 1); rb_u32(&b, 1); rb_u64(&b, 2);
	rb_u64(&b, 4); rb_u64(&b, 0xf0000001); rb_u64(&b, 4); rb_u64(&b, 0xf0000002);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(r.namespaces.nr, 2u);
	cr_assert_eq(r.namespaces.links[1].ino, 0xf0000002u);
	memcpy(rb_bytes(&b) + 16, &(uint64_t){ 3 }, 8);
	cr_assert_eq(pms_record__decode(&plain_cfg, rb_bytes(&b), b.len, &r, &off), -EINVAL);
	cr_assert_eq(off, 16u);

	rb_begin(&b, PERF_RECORD_KSYMBOL, 0);
	rb_u64(&b, 0xffffffffc0000000ull); rb_u32(&b, 256); rb_u16(&b, PERF_RECORD_KSYMBOL_TYPE_BPF); rb_u16(&b, 0);
	rb_str(&b, "bpf_prog_abc");
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert_eq(r.ksymbol.len, 256u);
	cr_assert_str_eq(r.ksymbol.name, "bpf_prog_abc");

	rb_begin(&b, PERF_RECORD_BPF_EVENT, 0);
	rb_u16(&b, PERF_BPF_EVENT_PROG_LOAD); rb_u16(&b, 0); rb_u32(&b, 17);
	rb_put(&b, "TAG45678", 8);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(r.bpf.id, 17u);
	cr_assert(memcmp(r.bpf.tag, "TAG45678", 8) == 0);

	rb_begin(&b, PERF_RECORD_CGROUP, 0);
	rb_u64(&b, 1);
	rb_str(&b, "/sys/fs/cgroup/x");
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_str_eq(r.cgroup.path, "/sys/fs/cgroup/x");

	rb_begin(&b, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 0xffffffff81000000ull); rb_u16(&b, 2); rb_u16(&b, 3);
	rb_put(&b, "\x90\x90\xe8\x00\x00", 5);
	rb_pad8(&b);
	put_sid();
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert_eq(r.text_poke.new_len, 3u);
	cr_assert_eq(r.text_poke.bytes[2], 0xe8);
	check_sid();
	/* Lengths running past the body. */
	memcpy(rb_bytes(&b) + 18, &(uint16_t){ 200 }, 2);
	cr_assert_eq(pms_record__decode(&sid_cfg, rb_bytes(&b), b.len, &r, &off), -EINVAL);
	cr_assert_eq(off, 20u);
}

Test(ring_record, read_aux_itrace_hw_id)
{
	struct pms_decode_cfg cfg = { .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	struct pms_read_value v;

	rb_begin(&b, PERF_RECORD_READ, 0);
	rb_u32(&b, 9); rb_u32(&b, 9);
	rb_u64(&b, 2); rb_u64(&b, 100); rb_u64(&b, 1); rb_u64(&b, 200); rb_u64(&b, 2);
	cr_assert_eq(decode(&cfg, NULL), 0);
	cr_assert_eq(r.read.values.nr, 2u);
	cr_assert_eq(pms_read_values__get(&r.read.values, 1, &v), 0);
	cr_assert_eq(v.value, 200u);
	cr_assert_eq(v.id, 2u);
	b.len -= 8;
	cr_assert_eq(decode(&cfg, NULL), -EINVAL);

	rb_begin(&b, PERF_RECORD_AUX, 0);
	rb_u64(&b, 4096); rb_u64(&b, 512); rb_u64(&b, 1);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(r.aux.aux_size, 512u);
	rb_begin(&b, PERF_RECORD_ITRACE_START, 0);
	rb_u32(&b, 5); rb_u32(&b, 6);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(r.itrace_start.tid, 6u);
	rb_begin(&b, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&b, 77);
	cr_assert_eq(decode(&plain_cfg, NULL), 0);
	cr_assert_eq(r.aux_output_hw_id.hw_id, 77u);
}

Test(ring_record, sizes_and_unknown_types)
{
	size_t off;

	/* Fixed bodies must fill the record exactly: extra bytes or short ones fail. */
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3);
	cr_assert_eq(decode(&plain_cfg, &off), -EINVAL);
	cr_assert_eq(off, 24u);
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1);
	cr_assert_eq(decode(&plain_cfg, &off), -EINVAL);
	cr_assert_eq(off, 16u);
	/* Trailer larger than the body. */
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1);
	cr_assert_eq(decode(&sid_cfg, &off), -EINVAL);
	cr_assert_eq(off, 8u);
	/* header.size below 8 or above the buffer. */
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1); rb_u64(&b, 2);
	rb_end(&b);
	cr_assert_eq(pms_record__decode(&plain_cfg, rb_bytes(&b), 23, &r, &off), -EINVAL);
	cr_assert_eq(off, 6u);
	memcpy(rb_bytes(&b) + 6, &(uint16_t){ 4 }, 2);
	cr_assert_eq(pms_record__decode(&plain_cfg, rb_bytes(&b), 24, &r, &off), -EINVAL);
	cr_assert_eq(pms_record__decode(&plain_cfg, rb_bytes(&b), 4, &r, &off), -EINVAL);
	/* Unknown and perf-synthesized types: decoded as unknown, skippable. */
	rb_begin(&b, 200, 0);
	rb_u64(&b, 1);
	cr_assert_eq(decode(&sid_cfg, NULL), 0);
	cr_assert(!r.known);
	cr_assert_eq(r.size, 16u);
	cr_assert_str_eq(pms_record__type_name(PERF_RECORD_MMAP2), "MMAP2");
	cr_assert_str_eq(pms_record__type_name(PERF_RECORD_SWITCH_CPU_WIDE), "SWITCH_CPU_WIDE");
	cr_assert_str_eq(pms_record__type_name(68), "UNKNOWN");
	cr_assert_str_eq(pms_record__type_name(0), "UNKNOWN");
}

Test(ring_record, peek_id_finds_the_identifier)
{
	uint64_t id = 0;

	rb_begin(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x4242);
	rb_u64(&b, 0x1234);
	rb_end(&b);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), b.len, false, &id), 0);
	cr_assert_eq(id, 0x4242u);
	rb_begin(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1); rb_u64(&b, 2);
	put_sid();
	rb_end(&b);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), b.len, true, &id), 0);
	cr_assert_eq(id, 55u);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), b.len, false, &id), -ENOENT);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), b.len - 1, true, &id), -EINVAL);
	rb_begin(&b, PERF_RECORD_SWITCH, 0);
	rb_end(&b);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), b.len, true, &id), -EINVAL);
	cr_assert_eq(pms_record__peek_id(rb_bytes(&b), 4, true, &id), -EINVAL);
}
