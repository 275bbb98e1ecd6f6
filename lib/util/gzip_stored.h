/* SPDX-License-Identifier: MIT */
/*
 * The pieces of a gzip member (RFC 1952) whose deflate data is stored
 * blocks (RFC 1951, BTYPE 00): what the zlib-less builds
 * (PMS_NO_HOST_LIBS) write so every gzip reader still takes their output,
 * only not smaller. Shared by the whole-buffer and the streaming writer.
 */
#ifndef PMS_UTIL_GZIP_STORED_H
#define PMS_UTIL_GZIP_STORED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes one stored block holds (LEN is 16 bits). */
#define PMS_GZIP_STORED_BLOCK_MAX 65535u

/* Member header: deflate, no flags, no mtime, OS unknown. */
extern const unsigned char pms_gzip_stored__header[10];

/* CRC-32 (gzip's, the IEEE polynomial) of p[0..n) continuing crc (0 to start). */
uint32_t pms_gzip_stored__crc32(uint32_t crc, const void *p, size_t n);

/* The 5 bytes before a stored block of len bytes (at most _BLOCK_MAX):
 * BFINAL/BTYPE, LEN, NLEN. */
void pms_gzip_stored__block_header(unsigned char out[5], uint16_t len, bool final);

/* The member trailer: CRC-32 and input size mod 2^32, little-endian. */
void pms_gzip_stored__trailer(unsigned char out[8], uint32_t crc, uint32_t size);

#endif
