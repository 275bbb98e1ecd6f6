/* SPDX-License-Identifier: MIT */
/*
 * The flame graph page's script and style sheet (lib/export/flamegraph.js,
 * flamegraph.css), turned into byte arrays at build time by scripts/embed.sh
 * into $(BUILD)/gen/flamegraph_assets.c so the library needs no files at run
 * time. Invariant: the arrays are not NUL-terminated; use the lengths.
 */
#ifndef PMS_EXPORT_FLAMEGRAPH_ASSETS_H
#define PMS_EXPORT_FLAMEGRAPH_ASSETS_H

#include <stddef.h>

extern const unsigned char pms_flamegraph_js[];
extern const size_t pms_flamegraph_js_len;
extern const unsigned char pms_flamegraph_css[];
extern const size_t pms_flamegraph_css_len;

#endif
