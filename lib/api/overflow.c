// SPDX-License-Identifier: MIT
// Public overflow sampling API (include/pmuscope/overflow.h): one sampling event of the calling thread.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmuscope/overflow.h>

#include "api/api_priv.h"
#include "event/event.h"
#include "perf_event/mmap.h"
#include "perf_event/sys.h"
#include "ring/ring.h"
#include "ring/sample.h"
#include "util/print.h"

#define DEFAULT_RING_PAGES 8

struct pms_overflow {
	int fd;
	struct pms_mmap map;
	struct pms_ring ring;
	struct pms_decode_cfg cfg;
	uint64_t lost;
};

struct drain_ctx {
	struct pms_overflow *ov;
	pms_overflow_fn fn;
	void *arg;
	int n;
};

static int parse_one(const char *event, struct perf_event_attr *attr)
{
	struct pms_event_ctx *ctx = pms_event_ctx__new();
	struct pms_evlist list = { 0 };
	int err;

	if (!ctx)
		return -errno;
	err = pms_api__parse_events(event, &list, ctx);
	if (err) {
		/* the callback has had perf's message */
	} else if (list.nr != 1 || list.entries[0].tool_event != PMS_TOOL_NONE) {
		pr_warn("%s: overflow sampling takes one event\n", event);
		err = -EINVAL;
	} else {
		*attr = list.entries[0].attr;
	}
	pms_evlist__release(&list);
	pms_event_ctx__free(ctx);
	return err;
}

PMS_API struct pms_overflow *pms_overflow__open(const char *event, uint64_t period,
					       const struct pms_overflow_opts *opts)
{
	struct pms_overflow_opts o;
	struct perf_event_attr attr;
	struct pms_overflow *ov;
	unsigned pages;
	int err;

	if (!event || !period || pms_api__copy_opts(&o, sizeof(o), opts)) {
		errno = EINVAL;
		return NULL;
	}
	pages = o.ring_pages ? o.ring_pages : DEFAULT_RING_PAGES;
	if (o.pid < 0 || (pages & (pages - 1))) {
		errno = EINVAL;
		return NULL;
	}
	err = parse_one(event, &attr);
	if (err) {
		errno = -err;
		return NULL;
	}
	attr.sample_period = period;
	attr.freq = 0;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.read_format = 0;
	attr.disabled = !o.enabled;
	attr.inherit = 0;
	attr.wakeup_events = 1; /* a wakeup, and so a signal, per sample */
	attr.watermark = 0;
	ov = calloc(1, sizeof(*ov));
	if (!ov) {
		errno = ENOMEM;
		return NULL;
	}
	ov->fd = -1;
	pms_decode_cfg__from_attr(&ov->cfg, &attr);
	ov->fd = pms_sys__perf_event_open(&attr, o.pid, -1, -1, 0);
	if (ov->fd < 0) {
		err = ov->fd;
		pr_warn("%s: %s\n", event, pms_event__open_error_reason(&attr, err));
		goto fail;
	}
	err = pms_mmap__map(&ov->map, ov->fd, pages);
	if (err) {
		char why[256];

		pr_warn("%s: %s\n", event, pms_mmap__error_reason(err, pages, why, sizeof(why)));
		goto fail;
	}
	err = pms_ring__init_mmap(&ov->ring, &ov->map);
	if (err)
		goto fail;
	if (o.signo) {
		err = pms_perf_fd__signal_on_wakeup(ov->fd, o.signo, (pid_t)syscall(SYS_gettid));
		if (err)
			goto fail;
	}
	return ov;
fail:
	pms_overflow__close(ov);
	errno = -err;
	return NULL;
}

PMS_API void pms_overflow__close(struct pms_overflow *ov)
{
	if (!ov)
		return;
	pms_ring__exit(&ov->ring);
	pms_mmap__unmap(&ov->map);
	if (ov->fd >= 0)
		close(ov->fd);
	free(ov);
}

PMS_API int pms_overflow__fd(const struct pms_overflow *ov)
{
	return ov ? ov->fd : -EINVAL;
}

PMS_API int pms_overflow__enable(struct pms_overflow *ov)
{
	return ov ? pms_perf_fd__enable(ov->fd) : -EINVAL;
}

PMS_API int pms_overflow__disable(struct pms_overflow *ov)
{
	return ov ? pms_perf_fd__disable(ov->fd) : -EINVAL;
}

static int on_record(const struct perf_event_header *rec, void *arg)
{
	struct drain_ctx *c = arg;
	struct pms_sample s;
	struct pms_overflow_sample out;

	if (rec->type == PERF_RECORD_LOST && rec->size >= sizeof(*rec) + 2 * sizeof(uint64_t)) {
		uint64_t lost;

		memcpy(&lost, (const char *)rec + sizeof(*rec) + sizeof(uint64_t), sizeof(lost));
		c->ov->lost += lost;
		return 0;
	}
	if (rec->type != PERF_RECORD_SAMPLE || pms_sample__decode(&c->ov->cfg, rec, rec->size, &s, NULL))
		return 0;
	out = (struct pms_overflow_sample){
		.ip = s.ip,
		.pid = s.pid,
		.tid = s.tid,
		.time_ns = s.time,
		.period = s.period,
		.kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL,
	};
	c->fn(&out, c->arg);
	c->n++;
	return 0;
}

PMS_API int pms_overflow__drain(struct pms_overflow *ov, pms_overflow_fn fn, void *arg)
{
	struct drain_ctx c = { .ov = ov, .fn = fn, .arg = arg };
	int64_t r;

	if (!ov || !fn)
		return -EINVAL;
	r = pms_ring__drain(&ov->ring, on_record, &c);
	return r < 0 ? (int)r : c.n;
}

PMS_API uint64_t pms_overflow__lost(const struct pms_overflow *ov)
{
	return ov ? ov->lost : 0;
}
