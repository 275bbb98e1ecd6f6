/* SPDX-License-Identifier: MIT */
/*
 * C++ (Itanium) and Rust (legacy and v0) demangling through libiberty.
 * Invariant: C names and anything not starting with _Z / _R (optionally
 * behind one extra '_' as on some platforms) are never touched and cost one
 * byte comparison; a name libiberty rejects is returned unchanged.
 */
#ifndef PMS_SYMBOL_DEMANGLE_H
#define PMS_SYMBOL_DEMANGLE_H

#include <stdbool.h>

/* True if name looks mangled (cheap prefix test). */
bool pms_demangle__is_mangled(const char *name);
/*
 * malloc()ed demangled name (with parameters for C++, without the hash
 * suffix for Rust legacy), or NULL (errno = EINVAL) when name is not
 * mangled or libiberty cannot demangle it; caller then uses name as is.
 */
char *pms_demangle(const char *name);
/*
 * The same in perf's default form (libiberty without DMGL_PARAMS): a
 * function's name without its parameter list or return type
 * ("ns::W<long>::spin" for "ns::W<long>::spin(long)"); special names keep
 * their target's ("virtual thunk to X::~X()"). What report and script print.
 */
char *pms_demangle__perf(const char *name);

#endif
