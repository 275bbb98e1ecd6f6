/* SPDX-License-Identifier: MIT */
/* Bounds-checked, zero-copy decoding of the kernel's perf_event record types. */
#include "ring/record.h"

#include <errno.h>
#include <string.h>

#include "ring/cursor.h"

static const char *const type_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
};

const char *pms_record__type_name(uint32_t type)
{
	if (type < sizeof(type_names) / sizeof(type_names[0]) && type_names[type])
		return type_names[type];
	return "UNKNOWN";
}

int pms_record__peek_id(const void *rec, size_t len, bool sample_id_all, uint64_t *id)
{
	const unsigned char *p = rec;
	struct perf_event_header h;

	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	if (h.size > len || h.size < sizeof(h) + sizeof(*id))
		return -EINVAL;
	if (h.type == PERF_RECORD_SAMPLE) {
		memcpy(id, p + sizeof(h), sizeof(*id));
		return 0;
	}
	if (!sample_id_all)
		return -ENOENT;
	memcpy(id, p + h.size - sizeof(*id), sizeof(*id));
	return 0;
}

/* Trailer order: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER (fixed distance from the end). */
static int sample_id(struct pms_cursor *c, uint64_t st, struct pms_sample_id *sid)
{
	int err = 0;

	sid->present = st & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (st & PERF_SAMPLE_TID && ((err = pms_cursor__u32(c, &sid->pid)) || (err = pms_cursor__u32(c, &sid->tid))))
		return err;
	if (st & PERF_SAMPLE_TIME && (err = pms_cursor__u64(c, &sid->time)))
		return err;
	if (st & PERF_SAMPLE_ID && (err = pms_cursor__u64(c, &sid->id)))
		return err;
	if (st & PERF_SAMPLE_STREAM_ID && (err = pms_cursor__u64(c, &sid->stream_id)))
		return err;
	if (st & PERF_SAMPLE_CPU && ((err = pms_cursor__u32(c, &sid->cpu)) || (err = pms_cursor__u32(c, &sid->cpu_res))))
		return err;
	if (st & PERF_SAMPLE_IDENTIFIER && (err = pms_cursor__u64(c, &sid->id)))
		return err;
	return 0;
}

/* A NUL-terminated string filling the rest of the body (padding NULs allowed). */
static int string(struct pms_cursor *c, const char **out)
{
	const unsigned char *s = c->base + c->off;
	size_t left = pms_cursor__left(c);

	if (!left || !memchr(s, '\0', left))
		return pms_cursor__fail(c, c->off);
	*out = (const char *)s;
	c->off = c->end;
	return 0;
}

#define U32(f) do { if ((err = pms_cursor__u32(&c, &(f)))) goto bad; } while (0)
#define U16(f) do { if ((err = pms_cursor__u16(&c, &(f)))) goto bad; } while (0)
#define U64(f) do { if ((err = pms_cursor__u64(&c, &(f)))) goto bad; } while (0)
#define STR(f) do { if ((err = string(&c, &(f)))) goto bad; } while (0)

int pms_record__decode(const struct pms_decode_cfg *cfg, const void *buf, size_t len,
		       struct pms_record *r, size_t *err_off)
{
	const struct perf_event_header *h = buf;
	struct pms_cursor c;
	size_t body_end, tsize;
	const void *p;
	int err;

	memset(r, 0, sizeof(*r));
	pms_cursor__init(&c, buf, 0, len);
	if (len < sizeof(*h) || (uintptr_t)buf % 8) {
		err = pms_cursor__fail(&c, 0);
		goto bad;
	}
	if (h->size < sizeof(*h) || h->size > len) {
		err = pms_cursor__fail(&c, 6);
		goto bad;
	}
	r->type = h->type;
	r->misc = h->misc;
	r->size = h->size;

	if (h->type == PERF_RECORD_SAMPLE) {
		err = pms_sample__decode(cfg, buf, len, &r->sample, &c.err_off);
		if (err)
			goto bad;
		r->known = true;
		return 0;
	}
	if (h->type == 0 || h->type > PERF_RECORD_AUX_OUTPUT_HW_ID)
		return 0;
	r->known = true;

	body_end = h->size;
	if (cfg->sample_id_all) {
		tsize = pms_sample_id__size(cfg->sample_type);
		if (tsize > h->size - sizeof(*h)) {
			err = pms_cursor__fail(&c, sizeof(*h));
			goto bad;
		}
		body_end = h->size - tsize;
		pms_cursor__init(&c, buf, body_end, h->size);
		if ((err = sample_id(&c, cfg->sample_type, &r->sid)))
			goto bad;
	}
	pms_cursor__init(&c, buf, sizeof(*h), body_end);

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		U32(r->mmap.pid);
		U32(r->mmap.tid);
		U64(r->mmap.addr);
		U64(r->mmap.len);
		U64(r->mmap.pgoff);
		r->mmap.data = h->misc & PERF_RECORD_MISC_MMAP_DATA;
		if (h->type == PERF_RECORD_MMAP2) {
			if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				uint8_t sz;

				r->mmap.has_build_id = true;
				if ((err = pms_cursor__copy(&c, &sz, 1)))
					goto bad;
				if (sz > 20) {
					err = pms_cursor__fail(&c, c.off - 1);
					goto bad;
				}
				r->mmap.build_id_size = sz;
				if ((err = pms_cursor__bytes(&c, 3, &p)))  /* reserved */
					goto bad;
				if ((err = pms_cursor__bytes(&c, 20, &p)))
					goto bad;
				r->mmap.build_id = p;
			} else {
				U32(r->mmap.maj);
				U32(r->mmap.min);
				U64(r->mmap.ino);
				U64(r->mmap.ino_generation);
			}
			U32(r->mmap.prot);
			U32(r->mmap.flags);
		}
		STR(r->mmap.filename);
		break;
	case PERF_RECORD_COMM:
		U32(r->comm.pid);
		U32(r->comm.tid);
		r->comm.exec = h->misc & PERF_RECORD_MISC_COMM_EXEC;
		STR(r->comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		U32(r->task.pid);
		U32(r->task.ppid);
		U32(r->task.tid);
		U32(r->task.ptid);
		U64(r->task.time);
		break;
	case PERF_RECORD_LOST:
		U64(r->lost.id);
		U64(r->lost.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		U64(r->throttle.time);
		U64(r->throttle.id);
		U64(r->throttle.stream_id);
		break;
	case PERF_RECORD_READ: {
		size_t used = 0;

		U32(r->read.pid);
		U32(r->read.tid);
		err = pms_read_values__decode(&r->read.values, cfg->read_format, c.base + c.off,
					      pms_cursor__left(&c), &used);
		if (err) {
			c.err_off = c.off + used;
			goto bad;
		}
		c.off += used;
		break;
	}
	case PERF_RECORD_AUX:
		U64(r->aux.aux_offset);
		U64(r->aux.aux_size);
		U64(r->aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		U32(r->itrace_start.pid);
		U32(r->itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		U64(r->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		r->sw.out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		r->sw.preempt = r->sw.out && (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			r->sw.cpu_wide = true;
			U32(r->sw.next_prev_pid);
			U32(r->sw.next_prev_tid);
		}
		break;
	case PERF_RECORD_NAMESPACES: {
		const uint64_t *arr;

		U32(r->namespaces.pid);
		U32(r->namespaces.tid);
		U64(r->namespaces.nr);
		if (r->namespaces.nr > pms_cursor__left(&c) / sizeof(struct perf_ns_link_info)) {
			err = pms_cursor__fail(&c, c.off - 8);
			goto bad;
		}
		if ((err = pms_cursor__u64_array(&c, r->namespaces.nr * 2, &arr)))
			goto bad;
		r->namespaces.links = (const struct perf_ns_link_info *)(const void *)arr;
		break;
	}
	case PERF_RECORD_KSYMBOL:
		U64(r->ksymbol.addr);
		U32(r->ksymbol.len);
		U16(r->ksymbol.ksym_type);
		U16(r->ksymbol.flags);
		STR(r->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		U16(r->bpf.type);
		U16(r->bpf.flags);
		U32(r->bpf.id);
		if ((err = pms_cursor__bytes(&c, 8, &p)))
			goto bad;
		r->bpf.tag = p;
		break;
	case PERF_RECORD_CGROUP:
		U64(r->cgroup.id);
		STR(r->cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		U64(r->text_poke.addr);
		U16(r->text_poke.old_len);
		U16(r->text_poke.new_len);
		if ((err = pms_cursor__bytes(&c, (uint64_t)r->text_poke.old_len + r->text_poke.new_len, &p)))
			goto bad;
		r->text_poke.bytes = p;
		/* The kernel pads the bytes to 8; anything beyond is not padding. */
		if (pms_cursor__left(&c) >= 8) {
			err = pms_cursor__fail(&c, c.off);
			goto bad;
		}
		c.off = c.end;
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		U64(r->aux_output_hw_id.hw_id);
		break;
	default:
		break;
	}
	/* Fixed-size bodies must fill the record exactly. */
	if (c.off != c.end) {
		err = pms_cursor__fail(&c, c.off);
		goto bad;
	}
	return 0;
bad:
	if (err_off)
		*err_off = c.err_off;
	memset(r, 0, sizeof(*r));
	return err;
}
