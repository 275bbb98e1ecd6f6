// SPDX-License-Identifier: MIT
// Symbol demangling (C++ Itanium, Rust legacy/v0) via libiberty's cplus_demangle.
#include <errno.h>
#include <libiberty/demangle.h>
#include <stdlib.h>

#include "symbol/demangle.h"

bool pms_demangle__is_mangled(const char *name)
{
	if (!name)
		return false;
	if (name[0] == '_' && name[1] == '_')
		name++;
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

static char *demangle(const char *name, int opts)
{
	char *out;

	if (!pms_demangle__is_mangled(name)) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * AUTO style tries Rust first (legacy Rust names are valid Itanium
	 * names too, but want the "::" form without the hash), then C++.
	 */
	out = cplus_demangle(name, opts | DMGL_AUTO);
	if (!out && name[0] == '_' && name[1] == '_')
		out = cplus_demangle(name + 1, opts | DMGL_AUTO);
	if (!out)
		errno = EINVAL;
	return out;
}

char *pms_demangle(const char *name)
{
	return demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

char *pms_demangle__perf(const char *name)
{
	return demangle(name, DMGL_NO_OPTS);
}
