// SPDX-License-Identifier: MIT
// Edit distance and nearest-name suggestion for error messages.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strsim.h"

#define STRSIM_MAX_LEN 128

size_t pms_str__edit_distance(const char *a, const char *b)
{
	/* Three rolling rows: the transposition rule looks two rows back. */
	size_t rows[3][STRSIM_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > STRSIM_MAX_LEN || lb > STRSIM_MAX_LEN)
		return la > lb ? la : lb;
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			int cb = tolower((unsigned char)b[j - 1]);
			size_t v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + (ca != cb) < v)
				v = prev[j - 1] + (ca != cb);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return rows[la % 3][lb];
}

const char *pms_str__suggest(const char *word, const char *const *cands, size_t nr)
{
	size_t best_d = (size_t)-1, len = strlen(word), limit, i;
	const char *best = NULL;

	if (!len)
		return NULL;
	limit = len / 3 > 2 ? len / 3 : 2;
	for (i = 0; i < nr; i++) {
		size_t d;

		if (!cands[i])
			continue;
		if (len >= 4 && !strncasecmp(cands[i], word, len)) {
			d = 1; /* a prefix of a real name is a near miss */
		} else {
			size_t lc = strlen(cands[i]);

			/* the distance is at least the length difference: no better than the best, or past the limit */
			if ((lc > len ? lc - len : len - lc) >= (best_d < limit + 1 ? best_d : limit + 1))
				continue;
			d = pms_str__edit_distance(word, cands[i]);
		}
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
