// SPDX-License-Identifier: MIT
// libFuzzer target: perf's tracing data (container and event formats) and a tracepoint payload through lib/data/tracing_data, every accessor and the formatting of the payload for every event.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/tracing_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every address is a kernel function, so %ps takes the resolver's path too. */
static const char *any_sym(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	*start = addr & ~0xfffULL;
	return addr & 1 ? NULL : "fuzz_function";
}

/*
 * Input: a little-endian u16 payload length n, the tracing data, then the
 * last n bytes (at most what is there) as the payload. Each piece is a
 * private heap copy of exactly its size, so a read past either is caught.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pms_tracing_data *td;
	volatile size_t sink = 0;
	size_t raw_len, blob_len;
	uint8_t *blob, *raw;
	char msg[256], out[512];
	uint16_t n;

	if (size < 2)
		return 0;
	memcpy(&n, data, 2);
	data += 2;
	size -= 2;
	raw_len = n < size ? n : size;
	blob_len = size - raw_len;
	blob = malloc(blob_len ? blob_len : 1);
	raw = malloc(raw_len ? raw_len : 1);
	if (!blob || !raw)
		goto out;
	memcpy(blob, data, blob_len);
	memcpy(raw, data + blob_len, raw_len);
	if (pms_tracing_data__open(&td, blob, blob_len, msg, sizeof(msg))) {
		sink += strlen(msg);
		goto out;
	}
	if (pms_tracing_data__warning(td))
		sink += strlen(pms_tracing_data__warning(td));
	sink += strlen(pms_tracing_data__version(td));
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			pms_tracing_data__set_func_resolver(td, any_sym, NULL);
		for (size_t i = 0; i < pms_tracing_data__nr_events(td); i++) {
			const char *sys, *name, *why;
			uint64_t id;
			int len;

			if (pms_tracing_data__event_at(td, i, &id, &sys, &name))
				__builtin_trap();
			sink += strlen(sys) + strlen(name);
			why = pms_tracing_data__why(td, id);
			if (why)
				sink += strlen(why);
			len = pms_tracing_data__format(td, id, (int)i, raw, raw_len, out, sizeof(out));
			if (len >= 0 && strlen(out) != ((size_t)len < sizeof(out) ? (size_t)len : sizeof(out) - 1))
				__builtin_trap();
			/* a too small buffer must still be NUL-terminated */
			len = pms_tracing_data__format(td, id, 0, raw, raw_len, out, 3);
			if (len >= 0 && strlen(out) > 2)
				__builtin_trap();
		}
		sink += (size_t)pms_tracing_data__format(td, raw_len ? raw[0] : 0, 0, raw, raw_len, out, sizeof(out));
	}
	pms_tracing_data__free(td);
out:
	free(blob);
	free(raw);
	(void)sink;
	return 0;
}
