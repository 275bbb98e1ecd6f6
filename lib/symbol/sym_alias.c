// SPDX-License-Identifier: MIT
// perf's choice among symbols that share an address (see sym_alias.h).
#include <ctype.h>
#include <elf.h>
#include <string.h>

#include "symbol/sym_alias.h"

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

int pms_sym_alias__cmp(const struct pms_sym_alias *a, const struct pms_sym_alias *b)
{
	bool aw = a->bind == STB_WEAK, bw = b->bind == STB_WEAK;
	bool ag = a->bind == STB_GLOBAL, bg = b->bind == STB_GLOBAL;
	size_t au, bu, al, bl;

	if (a->sized != b->sized)
		return a->sized ? -1 : 1;
	if (aw != bw)
		return aw ? 1 : -1;
	if (ag != bg)
		return ag ? -1 : 1;
	au = leading_underscores(a->name);
	bu = leading_underscores(b->name);
	if (au != bu)
		return au < bu ? -1 : 1;
	al = strlen(a->name);
	bl = strlen(b->name);
	if (al != bl)
		return al > bl ? -1 : 1;
	return 0;
}

uint8_t pms_sym_alias__kallsyms_bind(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}
