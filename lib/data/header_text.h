/* SPDX-License-Identifier: MIT */
/*
 * A perf.data file's header as perf prints it for `report --header` and
 * `script --header` (perf_header__fprintf_info without -I): the file
 * header, then each feature present in feature order, then the features
 * missing. Features whose payload pmuscope does not decode (BPF program
 * info and BTF, directory format, PMU capabilities, clock data, hybrid
 * topology) print nothing here where perf prints their contents.
 */
#ifndef PMS_DATA_HEADER_TEXT_H
#define PMS_DATA_HEADER_TEXT_H

#include "data/reader.h"
#include "util/strbuf.h"

/*
 * Append the text to out. path (NULL or "-": standard input) is only
 * stat'ed for perf's "captured on" line, the file's modification time in
 * local time. Memory failures are sticky in out->oom.
 */
void pms_data_header__text(struct pms_data_reader *r, const char *path, struct strbuf *out);

#endif
