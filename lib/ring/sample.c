/* SPDX-License-Identifier: MIT */
/* Bounds-checked, zero-copy decoding of PERF_RECORD_SAMPLE bodies. */
#include "ring/sample.h"

#include <errno.h>
#include <string.h>

#include "ring/cursor.h"

#define KNOWN_SAMPLE_TYPE ((uint64_t)PERF_SAMPLE_MAX - 1)
#define KNOWN_READ_FORMAT ((uint64_t)PERF_FORMAT_MAX - 1)

void pms_decode_cfg__from_attr(struct pms_decode_cfg *cfg, const struct perf_event_attr *attr)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sample_type = attr->sample_type;
	cfg->read_format = attr->read_format;
	cfg->branch_sample_type = attr->branch_sample_type;
	cfg->sample_regs_user = attr->sample_regs_user;
	cfg->sample_regs_intr = attr->sample_regs_intr;
	cfg->sample_id_all = attr->sample_id_all;
}

static int read_values(struct pms_cursor *c, struct pms_read_values *rv, uint64_t rf)
{
	unsigned stride = 1;
	uint64_t nr;
	int err;

	memset(rv, 0, sizeof(*rv));
	if (rf & ~KNOWN_READ_FORMAT)
		return pms_cursor__fail(c, c->off);
	rv->read_format = rf;
	stride += !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	rv->stride = stride;
	if (rf & PERF_FORMAT_GROUP) {
		if ((err = pms_cursor__u64(c, &nr)))
			return err;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED && (err = pms_cursor__u64(c, &rv->time_enabled)))
			return err;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING && (err = pms_cursor__u64(c, &rv->time_running)))
			return err;
		/* Bound nr by the bytes left before multiplying. */
		if (nr > pms_cursor__left(c) / 8 / stride)
			return pms_cursor__fail(c, c->off);
		rv->nr = nr;
		return pms_cursor__u64_array(c, nr * stride, &rv->entries);
	}
	rv->nr = 1;
	if ((err = pms_cursor__u64(c, &rv->single.value)))
		return err;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED && (err = pms_cursor__u64(c, &rv->time_enabled)))
		return err;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING && (err = pms_cursor__u64(c, &rv->time_running)))
		return err;
	if (rf & PERF_FORMAT_ID && (err = pms_cursor__u64(c, &rv->single.id)))
		return err;
	if (rf & PERF_FORMAT_LOST && (err = pms_cursor__u64(c, &rv->single.lost)))
		return err;
	return 0;
}

int pms_read_values__get(const struct pms_read_values *rv, uint64_t i, struct pms_read_value *out)
{
	const uint64_t *e;

	memset(out, 0, sizeof(*out));
	if (i >= rv->nr)
		return -EINVAL;
	if (!(rv->read_format & PERF_FORMAT_GROUP)) {
		*out = rv->single;
		return 0;
	}
	if (!rv->entries)
		return -EINVAL;
	e = rv->entries + i * rv->stride;
	out->value = e[0];
	if (rv->read_format & PERF_FORMAT_ID)
		out->id = e[1];
	if (rv->read_format & PERF_FORMAT_LOST)
		out->lost = e[(rv->read_format & PERF_FORMAT_ID) ? 2 : 1];
	return 0;
}

int pms_read_values__decode(struct pms_read_values *rv, uint64_t read_format, const void *buf,
			    size_t len, size_t *used)
{
	struct pms_cursor c;
	int err;

	pms_cursor__init(&c, buf, 0, len);
	err = read_values(&c, rv, read_format);
	if (used)
		*used = err ? c.err_off : c.off;
	return err;
}

static int regs(struct pms_cursor *c, struct pms_regs *r, uint64_t mask)
{
	int err;

	r->mask = mask;
	if ((err = pms_cursor__u64(c, &r->abi)))
		return err;
	/* ABI_NONE (e.g. a kernel thread has no user regs): no values follow. */
	if (!r->abi)
		return 0;
	if (r->abi > PERF_SAMPLE_REGS_ABI_64)
		return pms_cursor__fail(c, c->off - 8);
	r->nr = (uint64_t)__builtin_popcountll(mask);
	return pms_cursor__u64_array(c, r->nr, &r->regs);
}

size_t pms_sample_id__size(uint64_t st)
{
	return 8u * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ID) +
		     !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
		     !!(st & PERF_SAMPLE_IDENTIFIER));
}

bool pms_record__time(const struct pms_decode_cfg *cfg, const struct perf_event_header *ev,
		      uint64_t *time)
{
	uint64_t st = cfg->sample_type;
	size_t off;

	if (!(st & PERF_SAMPLE_TIME))
		return false;
	if (ev->type == PERF_RECORD_SAMPLE) {
		/* IDENTIFIER, IP and TID are the only fields before TIME */
		off = sizeof(*ev) + 8u * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
					  !!(st & PERF_SAMPLE_TID));
	} else {
		size_t trailer = pms_sample_id__size(st);

		if (ev->type >= PERF_RECORD_MAX || !cfg->sample_id_all || trailer + sizeof(*ev) > ev->size)
			return false;
		off = ev->size - trailer + (st & PERF_SAMPLE_TID ? 8u : 0u);
	}
	if (off + 8 > ev->size)
		return false;
	memcpy(time, (const char *)ev + off, 8);
	return true;
}

#define GET(fn, field) do { if ((err = fn(&c, field))) goto bad; } while (0)

int pms_sample__decode(const struct pms_decode_cfg *cfg, const void *rec, size_t len,
		       struct pms_sample *s, size_t *err_off)
{
	const struct perf_event_header *h = rec;
	uint64_t st = cfg->sample_type;
	struct pms_cursor c;
	const uint64_t *arr;
	uint64_t v;
	int err;

	memset(s, 0, sizeof(*s));
	pms_cursor__init(&c, rec, 0, len);
	if (len < sizeof(*h) || ((uintptr_t)rec % 8)) {
		err = pms_cursor__fail(&c, 0);
		goto bad;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) || h->size > len) {
		c.err_off = h->type != PERF_RECORD_SAMPLE ? 0 : 6;
		err = -EINVAL;
		goto bad;
	}
	if (st & ~KNOWN_SAMPLE_TYPE) {
		c.err_off = 0;
		err = -EINVAL;
		goto bad;
	}
	c.end = h->size;
	c.off = sizeof(*h);
	s->present = st;

	if (st & PERF_SAMPLE_IDENTIFIER)
		GET(pms_cursor__u64, &s->id);
	if (st & PERF_SAMPLE_IP)
		GET(pms_cursor__u64, &s->ip);
	if (st & PERF_SAMPLE_TID) {
		GET(pms_cursor__u32, &s->pid);
		GET(pms_cursor__u32, &s->tid);
	}
	if (st & PERF_SAMPLE_TIME)
		GET(pms_cursor__u64, &s->time);
	if (st & PERF_SAMPLE_ADDR)
		GET(pms_cursor__u64, &s->addr);
	if (st & PERF_SAMPLE_ID)
		GET(pms_cursor__u64, &s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		GET(pms_cursor__u64, &s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		GET(pms_cursor__u32, &s->cpu);
		GET(pms_cursor__u32, &s->cpu_res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		GET(pms_cursor__u64, &s->period);
	if (st & PERF_SAMPLE_READ) {
		if ((err = read_values(&c, &s->read, cfg->read_format)))
			goto bad;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		GET(pms_cursor__u64, &s->callchain_nr);
		if ((err = pms_cursor__u64_array(&c, s->callchain_nr, &s->callchain)))
			goto bad;
	}
	if (st & PERF_SAMPLE_RAW) {
		GET(pms_cursor__u32, &s->raw_size);
		if ((err = pms_cursor__bytes(&c, s->raw_size, &s->raw)))
			goto bad;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		GET(pms_cursor__u64, &s->branch_nr);
		if (cfg->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			GET(pms_cursor__u64, &s->branch_hw_idx);
		}
		if (s->branch_nr > pms_cursor__left(&c) / sizeof(struct perf_branch_entry)) {
			err = pms_cursor__fail(&c, c.off);
			goto bad;
		}
		if ((err = pms_cursor__u64_array(&c, s->branch_nr * 3, &arr)))
			goto bad;
		s->branches = (const struct perf_branch_entry *)(const void *)arr;
		if (cfg->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS &&
		    (err = pms_cursor__u64_array(&c, s->branch_nr, &s->branch_counters)))
			goto bad;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		if ((err = regs(&c, &s->regs_user, cfg->sample_regs_user)))
			goto bad;
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		GET(pms_cursor__u64, &s->stack_user_size);
		/* size 0 (no user regs, e.g. a kernel thread): no data, no dyn_size. */
		if (s->stack_user_size) {
			if ((err = pms_cursor__bytes(&c, s->stack_user_size, &s->stack_user)))
				goto bad;
			GET(pms_cursor__u64, &s->stack_user_dyn_size);
			if (s->stack_user_dyn_size > s->stack_user_size) {
				err = pms_cursor__fail(&c, c.off - 8);
				goto bad;
			}
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		GET(pms_cursor__u64, &v);
		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* union perf_sample_weight, little-endian bitfield layout. */
			s->weight_var1_dw = (uint32_t)v;
			s->weight_var2_w = (uint16_t)(v >> 32);
			s->weight_var3_w = (uint16_t)(v >> 48);
			s->weight = s->weight_var1_dw;
		} else {
			s->weight = v;
		}
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		GET(pms_cursor__u64, &s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		GET(pms_cursor__u64, &s->transaction);
	if (st & PERF_SAMPLE_REGS_INTR) {
		if ((err = regs(&c, &s->regs_intr, cfg->sample_regs_intr)))
			goto bad;
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		GET(pms_cursor__u64, &s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		GET(pms_cursor__u64, &s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		GET(pms_cursor__u64, &s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		GET(pms_cursor__u64, &s->code_page_size);
	if (st & PERF_SAMPLE_AUX) {
		GET(pms_cursor__u64, &s->aux_size);
		if ((err = pms_cursor__bytes(&c, s->aux_size, &s->aux)))
			goto bad;
	}
	/* The kernel sizes samples exactly: bytes left over mean a wrong attr or junk. */
	if (c.off != c.end) {
		err = pms_cursor__fail(&c, c.off);
		goto bad;
	}
	s->misc = h->misc;
	return 0;
bad:
	if (err_off)
		*err_off = c.err_off;
	memset(s, 0, sizeof(*s));
	return err;
}
