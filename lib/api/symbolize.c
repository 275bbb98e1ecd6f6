// SPDX-License-Identifier: MIT
// Public symbolizer of a live process's addresses (include/pmuscope/perf_data.h) over live_syms.
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include <pmuscope/perf_data.h>

#include "api/api_priv.h"
#include "aggregate/live_syms.h"
#include "symbol/resolver.h"

struct pms_symbolizer {
	struct pms_resolver *res;
	struct pms_live_syms *ls;
	struct pms_live_image *img;
};

PMS_API struct pms_symbolizer *pms_symbolizer__new(pid_t pid)
{
	struct pms_symbolizer *s;
	int err = ENOMEM;

	if (pid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto fail;
	s->res = pms_resolver__new();
	if (!s->res)
		goto fail;
	s->ls = pms_live_syms__new(s->res);
	if (!s->ls)
		goto fail;
	s->img = pms_live_syms__announce(s->ls, (uint32_t)pid, 0);
	if (!s->img)
		goto fail;
	if (!s->img->maps) {
		/* /proc/PID/maps could not be read: gone, or not ours to read */
		err = kill(pid, 0) && errno == ESRCH ? ESRCH : EACCES;
		goto fail;
	}
	return s;
fail:
	pms_symbolizer__free(s);
	errno = err;
	return NULL;
}

PMS_API void pms_symbolizer__free(struct pms_symbolizer *s)
{
	if (!s)
		return;
	pms_live_syms__free(s->ls);
	pms_resolver__free(s->res);
	free(s);
}

PMS_API int pms_symbolizer__lookup(struct pms_symbolizer *s, uint64_t addr, bool return_address,
				   struct pms_sample_frame *out)
{
	struct pms_resolved r = { 0 };
	const struct pms_map *map = NULL;
	int err;

	if (!s || !out)
		return -EINVAL;
	/* the upper half of the address space is the kernel's on x86-64 and arm64 */
	if ((int64_t)addr < 0) {
		err = pms_resolver__kernel(s->res, return_address ? addr - 1 : addr, &r);
		if (err)
			return err;
		pms_api__frame(&r, addr, PMS_SAMPLE_FRAME_KERNEL, return_address, out);
		return 0;
	}
	err = pms_live_syms__resolve_user(s->ls, s->img, addr, !return_address, &r, &map);
	if (err)
		return err;
	if (!map)
		r = (struct pms_resolved){ 0 }; /* nothing mapped there: "[unknown]" */
	pms_api__frame(&r, addr, PMS_SAMPLE_FRAME_USER, return_address, out);
	return 0;
}
