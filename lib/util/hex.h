/* SPDX-License-Identifier: MIT */
/*
 * Hex digits of text the kernel and JIT runtimes write (/proc maps,
 * kallsyms, perf-PID.map): locale-independent, unlike isxdigit().
 */
#ifndef PMS_UTIL_HEX_H
#define PMS_UTIL_HEX_H

/* 0..15 for a hex digit, -1 for anything else. */
static inline int pms_hex__digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Lower-case hex of bytes into out (2 * n + 1 bytes); returns out. */
static inline char *pms_hex__encode(const unsigned char *bytes, unsigned long n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned long i = 0; i < n; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

#endif
