/* SPDX-License-Identifier: MIT */
/*
 * Hashes for the in-memory tables of the aggregate and export layers (never
 * stored or compared across runs, so they may change freely): FNV-1a over
 * bytes, chainable through its first argument, and a 64-bit finalizer that
 * spreads integer keys (addresses, ids) over the low bits tables mask with.
 */
#ifndef PMS_UTIL_HASH_H
#define PMS_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PMS_HASH_SEED 0xcbf29ce484222325ULL

static inline uint64_t pms_hash__bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h;
}

/* A NUL-terminated string (the NUL not hashed). */
static inline uint64_t pms_hash__str(uint64_t h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h;
}

/* MurmurHash3's 64-bit finalizer. */
static inline uint64_t pms_hash__mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
