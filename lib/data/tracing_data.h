/* SPDX-License-Identifier: MIT */
/*
 * perf's tracing data (the HEADER_TRACING_DATA feature, or the payload of a
 * pipe-mode PERF_RECORD_HEADER_TRACING_DATA record): tracefs event formats
 * that name tracepoint ids and let libtraceevent print their PERF_SAMPLE_RAW
 * payloads the way `perf script` does.
 *
 * The container (perf's tools/perf/util/trace-event-{info,read}.c): magic
 * "\027\010\104tracing", a NUL-terminated version ("0.6"), an endianness
 * byte, the size of long, a u32 page size, "header_page\0" + u64 size +
 * text, "header_event\0" + u64 size + text, u32 count of ftrace formats
 * (u64 size + text each), u32 count of systems (NUL-terminated name, u32
 * count, u64 size + text each), u32 size + /proc/kallsyms text, u32 size +
 * printk formats, and from version 0.6 u64 size + saved cmdlines. Numbers
 * are in the byte order the endianness byte says.
 *
 * Invariants:
 * - Input is untrusted, both the container and the texts in it, and the
 *   raw payloads formatted later: every length is checked before use, and
 *   an event format is only ever used to print after it was checked to keep
 *   every read libtraceevent makes inside the payload buffer (field
 *   offsets and sizes, array indices, hex/array lengths, printf widths,
 *   divisions); events failing that are listed but not formatted.
 * - A damaged container is refused when its header is (magic, version,
 *   sizes); damage after the header keeps what was parsed before it, and
 *   says what was left out in __warning().
 * - Never prints: libtraceevent's own log is silenced (process-wide, as
 *   libtraceevent's log level is global), and problems are returned.
 *
 * Builds without host libraries (PMS_NO_HOST_LIBS: no libtraceevent) get
 * inline stubs that answer -EOPNOTSUPP.
 */
#ifndef PMS_DATA_TRACING_DATA_H
#define PMS_DATA_TRACING_DATA_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct pms_tracing_data;

/*
 * A kernel symbol for an address (the caller's kallsyms): its name and
 * start, or NULL when none covers addr. The name must live as long as the
 * handle.
 */
typedef const char *(*pms_tracing_func_fn)(void *ctx, uint64_t addr, uint64_t *start);

/* A tracepoint to take from tracefs: its id (attr.config), and its name when known. */
struct pms_tracepoint_ref {
	uint64_t id;
	const char *sys;   /* "sched", or NULL: found by id */
	const char *name;  /* "sched_switch" */
};

#ifndef PMS_NO_HOST_LIBS
/*
 * Parse blob[0..size) (not kept: the handle copies what it needs). On
 * failure *out is NULL and msg (msg_size bytes, may be NULL) explains:
 * -EINVAL not tracing data (no magic), -EBADMSG damaged header, -ENOMEM.
 * On success with damage after the header, __warning() says what was lost.
 */
int pms_tracing_data__open(struct pms_tracing_data **out, const void *blob, size_t size, char *msg,
			   size_t msg_size);
void pms_tracing_data__free(struct pms_tracing_data *td);

/* What was left out of a partly damaged blob (or events whose format was refused), or NULL. */
const char *pms_tracing_data__warning(const struct pms_tracing_data *td);
/* The container's version string ("0.6"). */
const char *pms_tracing_data__version(const struct pms_tracing_data *td);

/* Events by ascending id (a duplicated id is listed once, its first format). */
size_t pms_tracing_data__nr_events(const struct pms_tracing_data *td);
/* Event idx: id, system and name (borrowed until __free()); -ENOENT past the end. */
int pms_tracing_data__event_at(const struct pms_tracing_data *td, size_t idx, uint64_t *id,
			       const char **sys, const char **name);
/* The event of tracepoint id (attr.config): "sched" and "sched_switch"; -ENOENT if not in the data. */
int pms_tracing_data__event(const struct pms_tracing_data *td, uint64_t id, const char **sys,
			    const char **name);

/*
 * Where %ps/%pS get kernel symbol names, as perf resolves them through its
 * machine's kernel map. Without one, the blob's kallsyms text (files of old
 * perf versions) is used, else addresses print as numbers.
 */
void pms_tracing_data__set_func_resolver(struct pms_tracing_data *td, pms_tracing_func_fn fn,
					 void *ctx);

/*
 * The PERF_SAMPLE_RAW payload raw[0..raw_size) of tracepoint id, taken on
 * cpu, as `perf script` prints it after the event name (libtraceevent's
 * TEP_PRINT_INFO: the event's print fmt, "[FAILED TO PARSE] fields..." for
 * formats libtraceevent could not parse). Writes at most size bytes to buf,
 * NUL-terminated, and returns the full length (like snprintf). Errors:
 * -ENOENT id not in the data; -EOPNOTSUPP the event's format was refused
 * (__why()); -EBADMSG the payload does not fit its format (shorter than
 * its fields, array lengths past its end, an unknown or refused event type
 * in its common_type); -ENOMEM.
 */
int pms_tracing_data__format(struct pms_tracing_data *td, uint64_t id, int cpu, const void *raw,
			     size_t raw_size, char *buf, size_t size);
/* Why event id's format is not used to print ("field 'x' past 64 KiB", ...), or NULL if it is. */
const char *pms_tracing_data__why(const struct pms_tracing_data *td, uint64_t id);
/*
 * Field idx of tracepoint id's own fields (the common_* ones left out), in
 * format order, as perf's evlist --trace-fields lists them: its name
 * (borrowed until __free()). -ENOENT id not in the data, -ERANGE past the last field.
 */
int pms_tracing_data__field_at(const struct pms_tracing_data *td, uint64_t id, size_t idx,
			       const char **name);

/*
 * Tracing data for the given tracepoints, as `perf record` writes it, from
 * this machine's tracefs (util/sysfs.h: $PMS_TRACEFS_ROOT): the header
 * files, each event's format whose ID matches its id (found by id when the
 * name is not given or names another id; ids found nowhere are left out),
 * no kallsyms (perf writes none either), printk formats and saved cmdlines.
 * For files recorded without tracing data on this machine, and for writers.
 * *blob is malloc()ed. -ENOENT tracefs not mounted or none of the ids found,
 * -errno reading tracefs, -ENOMEM.
 */
int pms_tracing_data__synthesize(const struct pms_tracepoint_ref *tps, size_t nr, void **blob,
				 size_t *size);
#else
static inline int pms_tracing_data__open(struct pms_tracing_data **out, const void *blob,
					 size_t size, char *msg, size_t msg_size)
{
	(void)blob, (void)size;
	*out = NULL;
	if (msg && msg_size)
		msg[0] = '\0';
	return -EOPNOTSUPP;
}
static inline void pms_tracing_data__free(struct pms_tracing_data *td)
{
	(void)td;
}
static inline const char *pms_tracing_data__warning(const struct pms_tracing_data *td)
{
	(void)td;
	return NULL;
}
static inline int pms_tracing_data__event(const struct pms_tracing_data *td, uint64_t id,
					  const char **sys, const char **name)
{
	(void)td, (void)id, (void)sys, (void)name;
	return -EOPNOTSUPP;
}
static inline void pms_tracing_data__set_func_resolver(struct pms_tracing_data *td,
						       pms_tracing_func_fn fn, void *ctx)
{
	(void)td, (void)fn, (void)ctx;
}
static inline int pms_tracing_data__format(struct pms_tracing_data *td, uint64_t id, int cpu,
					   const void *raw, size_t raw_size, char *buf, size_t size)
{
	(void)td, (void)id, (void)cpu, (void)raw, (void)raw_size;
	if (size)
		buf[0] = '\0';
	return -EOPNOTSUPP;
}
static inline int pms_tracing_data__field_at(const struct pms_tracing_data *td, uint64_t id,
					     size_t idx, const char **name)
{
	(void)td, (void)id, (void)idx, (void)name;
	return -EOPNOTSUPP;
}
static inline const char *pms_tracing_data__why(const struct pms_tracing_data *td, uint64_t id)
{
	(void)td, (void)id;
	return "built without libtraceevent";
}
static inline int pms_tracing_data__synthesize(const struct pms_tracepoint_ref *tps, size_t nr,
					       void **blob, size_t *size)
{
	(void)tps, (void)nr;
	*blob = NULL;
	*size = 0;
	return -EOPNOTSUPP;
}
#endif

struct pms_evlist;
/*
 * The tracing data for the tracepoint events of list (sys and name taken
 * from "sys:name[:modifiers]", else found by id), as above; *blob NULL and
 * *size 0 when list has none. 0 or -errno as pms_tracing_data__synthesize().
 */
int pms_tracing_data__for_evlist(const struct pms_evlist *list, void **blob, size_t *size);

#endif
