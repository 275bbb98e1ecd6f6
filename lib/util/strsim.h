/* SPDX-License-Identifier: MIT */
/* String similarity for "did you mean ...?" suggestions. */
#ifndef PMS_UTIL_STRSIM_H
#define PMS_UTIL_STRSIM_H

#include <stddef.h>

/* Case-insensitive Damerau-Levenshtein (optimal string alignment) distance. */
size_t pms_str__edit_distance(const char *a, const char *b);
/*
 * Best match for `word` among `nr` candidates, or NULL when nothing is close
 * enough to be a plausible typo (distance > max(2, len/3)). Prefix matches
 * ("cache-miss" -> "cache-misses") count as close.
 */
const char *pms_str__suggest(const char *word, const char *const *cands, size_t nr);

#endif
