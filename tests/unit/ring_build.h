/* SPDX-License-Identifier: MIT */
/*
 * Building synthetic perf_event records for the ring unit tests: an
 * 8-byte-aligned buffer, append helpers, and a finisher that writes the
 * header. Static inline so every test file can include it.
 */
#ifndef PMS_TESTS_RING_BUILD_H
#define PMS_TESTS_RING_BUILD_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

struct rb {
	uint64_t words[8192 + 8];   /* 64 KiB + slack, 8-byte aligned */
	size_t len;
};

static inline unsigned char *rb_bytes(struct rb *b)
{
	return (unsigned char *)b->words;
}

static inline void rb_begin(struct rb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	memset(b->words, 0, sizeof(b->words));
	memcpy(rb_bytes(b), &h, sizeof(h));
	b->len = sizeof(h);
}

static inline void rb_put(struct rb *b, const void *p, size_t n)
{
	memcpy(rb_bytes(b) + b->len, p, n);
	b->len += n;
}

static inline void rb_u64(struct rb *b, uint64_t v) { rb_put(b, &v, 8); }
static inline void rb_u32(struct rb *b, uint32_t v) { rb_put(b, &v, 4); }
static inline void rb_u16(struct rb *b, uint16_t v) { rb_put(b, &v, 2); }
static inline void rb_u8(struct rb *b, uint8_t v) { rb_put(b, &v, 1); }

/* A string with its NUL, padded with NULs to 8 bytes, as the kernel writes it. */
static inline void rb_str(struct rb *b, const char *s)
{
	size_t n = strlen(s) + 1;

	rb_put(b, s, n);
	while (b->len % 8)
		rb_u8(b, 0);
}

static inline void rb_pad8(struct rb *b)
{
	while (b->len % 8)
		rb_u8(b, 0);
}

/* Write header.size = current length; returns it. */
static inline size_t rb_end(struct rb *b)
{
	uint16_t size = (uint16_t)b->len;

	memcpy(rb_bytes(b) + 6, &size, 2);
	return b->len;
}

#endif
