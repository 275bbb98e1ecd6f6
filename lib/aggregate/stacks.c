// SPDX-License-Identifier: MIT
// Call stacks merged into one prefix tree with interned frames: the model every exporter draws from.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/stacks.h"
#include "data/features.h"
#include "data/reader.h"
#include "symbol/resolver.h"
#include "util/array.h"
#include "util/idtab.h"
#include "util/hash.h"
#include "util/strbuf.h"

/* Strings live in chunks that never move, so interned pointers stay valid. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

/* Session frame -> frame id cache: a hit skips string hashing entirely. */
#define MEMO_SIZE 16384
struct memo {
	const char *dso, *sym;
	uint64_t addr;
	uint32_t id1;
	uint8_t kind;
};

struct pms_stacks {
	struct pms_stacks_opts opts;
	struct pms_stack_frame *frames;
	size_t nr_frames, frames_alloc;
	struct pms_stack_node *nodes;
	uint32_t *last_child; /* per node: O(1) appends in insertion order */
	size_t nr_nodes, nodes_alloc;
	const char **strs;
	size_t nr_strs, strs_alloc;
	struct pms_idtab str_tab, frame_tab, child_tab;
	struct chunk *chunks;
	struct pms_stacks_meta meta;
	/* per-session state (reset when the session changes) */
	const struct pms_session *memo_session;
	struct memo *memo;
	bool *attr_seen;
	size_t nr_attrs_seen;
	bool period_ns;
	uint32_t *path;
	size_t path_alloc;
	/* the last sample's root pseudo frames: consecutive samples mostly share them */
	const char *root_comm;
	uint32_t root_pid, root_tid, root_ids[2];
	/* dso -> build-id hex, both interned (pointer-compared) */
	const char **bid_dso, **bid_hex;
	size_t nr_bids, bids_alloc;
};

/* -------------------------------------------------------- strings -- */

static char *chunk_alloc(struct pms_stacks *st, size_t n)
{
	struct chunk *c = st->chunks;

	if (!c || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = st->chunks;
		c->used = 0;
		c->cap = cap;
		st->chunks = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

/* The interned copy of s (NULL stays NULL); NULL with errno ENOMEM. */
static const char *intern_str(struct pms_stacks *st, const char *s)
{
	uint32_t h;
	size_t i, len;
	char *copy;

	if (!s)
		return NULL;
	h = (uint32_t)pms_hash__str(PMS_HASH_SEED, s);
	if (pms_idtab__reserve(&st->str_tab))
		return NULL;
	for (i = pms_idtab__start(&st->str_tab, h); pms_idtab__used(&st->str_tab, i); i = pms_idtab__next(&st->str_tab, i))
		if (pms_idtab__hash(&st->str_tab, i) == h && !strcmp(st->strs[pms_idtab__id(&st->str_tab, i)], s))
			return st->strs[pms_idtab__id(&st->str_tab, i)];
	if (st->nr_strs == st->strs_alloc &&
	    pms_array__reserve(&st->strs, &st->strs_alloc, st->nr_strs + 1, sizeof(*st->strs)))
		return NULL;
	len = strlen(s) + 1;
	copy = chunk_alloc(st, len);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	pms_idtab__set(&st->str_tab, i, h, (uint32_t)st->nr_strs);
	st->strs[st->nr_strs++] = copy;
	return copy;
}

/* --------------------------------------------------------- frames -- */

static uint32_t frame_hash(const struct pms_stack_frame *f)
{
	uint64_t h = pms_hash__mix64((uint64_t)(uintptr_t)f->name ^ ((uint64_t)f->kind << 56));

	h = pms_hash__mix64(h ^ (uint64_t)(uintptr_t)f->dso);
	h = pms_hash__mix64(h ^ (uint64_t)(uintptr_t)f->file ^ ((uint64_t)f->line << 32));
	h = pms_hash__mix64(h ^ f->pid ^ ((uint64_t)f->tid << 32));
	return (uint32_t)h;
}

static bool frame_eq(const struct pms_stack_frame *a, const struct pms_stack_frame *b)
{
	/* strings are interned: pointer equality is string equality */
	return a->name == b->name && a->dso == b->dso && a->file == b->file && a->line == b->line &&
	       a->kind == b->kind && a->pid == b->pid && a->tid == b->tid;
}

/* f's strings must already be interned. */
static int64_t intern_interned(struct pms_stacks *st, const struct pms_stack_frame *f)
{
	uint32_t h = frame_hash(f);
	size_t i;

	if (pms_idtab__reserve(&st->frame_tab))
		return -ENOMEM;
	for (i = pms_idtab__start(&st->frame_tab, h); pms_idtab__used(&st->frame_tab, i); i = pms_idtab__next(&st->frame_tab, i))
		if (pms_idtab__hash(&st->frame_tab, i) == h && frame_eq(&st->frames[pms_idtab__id(&st->frame_tab, i)], f))
			return pms_idtab__id(&st->frame_tab, i);
	if (st->nr_frames >= UINT32_MAX - 2)
		return -ENOMEM;
	if (st->nr_frames == st->frames_alloc &&
	    pms_array__reserve(&st->frames, &st->frames_alloc, st->nr_frames + 1, sizeof(*st->frames)))
		return -ENOMEM;
	st->frames[st->nr_frames] = *f;
	pms_idtab__set(&st->frame_tab, i, h, (uint32_t)st->nr_frames);
	return (int64_t)st->nr_frames++;
}

int64_t pms_stacks__intern(struct pms_stacks *st, const struct pms_stack_frame *frame)
{
	struct pms_stack_frame f = *frame;

	if ((frame->name && !(f.name = intern_str(st, frame->name))) ||
	    (frame->dso && !(f.dso = intern_str(st, frame->dso))) ||
	    (frame->file && !(f.file = intern_str(st, frame->file))))
		return -ENOMEM;
	if (!f.name)
		f.name = intern_str(st, "[unknown]");
	if (!f.name)
		return -ENOMEM;
	return intern_interned(st, &f);
}

/* ---------------------------------------------------------- nodes -- */

static int64_t new_node(struct pms_stacks *st, uint32_t parent, uint32_t frame)
{
	struct pms_stack_node *n;

	if (st->nr_nodes >= UINT32_MAX - 1)
		return -ENOMEM;
	if (st->nr_nodes == st->nodes_alloc) {
		size_t na = st->nodes_alloc ? st->nodes_alloc * 2 : 1024;
		struct pms_stack_node *nn = realloc(st->nodes, na * sizeof(*nn));
		uint32_t *nl;

		if (!nn)
			return -ENOMEM;
		st->nodes = nn;
		nl = realloc(st->last_child, na * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		st->last_child = nl;
		st->nodes_alloc = na;
	}
	n = &st->nodes[st->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	st->last_child[st->nr_nodes] = 0;
	if (st->nr_nodes) {
		n->depth = st->nodes[parent].depth + 1;
		if (st->last_child[parent])
			st->nodes[st->last_child[parent]].next_sibling = (uint32_t)st->nr_nodes;
		else
			st->nodes[parent].first_child = (uint32_t)st->nr_nodes;
		st->last_child[parent] = (uint32_t)st->nr_nodes;
	}
	return (int64_t)st->nr_nodes++;
}

static uint32_t child_hash(uint32_t parent, uint32_t frame)
{
	return (uint32_t)pms_hash__mix64(((uint64_t)parent << 32) | frame);
}

/* The child of parent for frame, created when missing. */
static int64_t child(struct pms_stacks *st, uint32_t parent, uint32_t frame)
{
	uint32_t h = child_hash(parent, frame);
	struct pms_idtab *t = &st->child_tab;
	int64_t id;
	size_t i;

	if (pms_idtab__reserve(t))
		return -ENOMEM;
	for (i = pms_idtab__start(t, h); pms_idtab__used(t, i); i = pms_idtab__next(t, i)) {
		const struct pms_stack_node *n = &st->nodes[pms_idtab__id(t, i)];

		if (pms_idtab__hash(t, i) == h && n->parent == parent && n->frame == frame)
			return pms_idtab__id(t, i);
	}
	id = new_node(st, parent, frame);
	if (id < 0)
		return id;
	pms_idtab__set(t, i, h, (uint32_t)id);
	return id;
}

int pms_stacks__add_path(struct pms_stacks *st, const uint32_t *frame_ids, size_t nr,
			 uint64_t samples, uint64_t period)
{
	uint32_t node = 0;

	for (size_t i = 0; i < nr; i++) {
		int64_t c;

		if (frame_ids[i] >= st->nr_frames)
			return -EINVAL;
		c = child(st, node, frame_ids[i]);
		if (c < 0)
			return (int)c;
		node = (uint32_t)c;
	}
	st->nodes[node].self_samples += samples;
	st->nodes[node].self_period += period;
	/* nodes on one path are distinct, so each total is bumped once */
	for (;;) {
		st->nodes[node].total_samples += samples;
		st->nodes[node].total_period += period;
		if (!node)
			break;
		node = st->nodes[node].parent;
	}
	st->meta.samples = st->nodes[0].total_samples;
	return 0;
}

int pms_stacks__add_tree(struct pms_stacks *dst, const struct pms_stacks *src, uint64_t num, uint64_t den)
{
	return pms_stacks__add_tree_if(dst, src, num, den, NULL, NULL);
}

int pms_stacks__add_tree_if(struct pms_stacks *dst, const struct pms_stacks *src, uint64_t num, uint64_t den,
			    pms_stacks_keep_fn keep, void *arg)
{
	uint32_t *map, *path = NULL;
	int8_t *kept = NULL; /* per src frame at depth 1: -1 not asked yet, 0 left out, 1 kept */
	size_t path_alloc = 0;
	int err = 0;

	if (!den || dst == src)
		return -EINVAL;
	map = malloc((src->nr_frames ? src->nr_frames : 1) * sizeof(*map));
	if (keep)
		kept = malloc(src->nr_frames ? src->nr_frames : 1);
	if (!map || (keep && !kept)) {
		free(map);
		free(kept);
		return -ENOMEM;
	}
	for (size_t f = 0; f < src->nr_frames; f++) {
		map[f] = UINT32_MAX;
		if (kept)
			kept[f] = -1;
	}
	for (size_t i = 1; i < src->nr_nodes && !err; i++) {
		const struct pms_stack_node *nd = &src->nodes[i];
		uint64_t samples = nd->self_samples * num / den, period = nd->self_period * num / den;
		size_t depth = nd->depth;

		/* a path decays away with its sample count, whatever its period (ns) still holds */
		if (!samples && (nd->self_samples || !period))
			continue;
		if (kept) {
			uint32_t top = (uint32_t)i, f;

			while (src->nodes[top].depth > 1)
				top = src->nodes[top].parent;
			f = src->nodes[top].frame;
			if (kept[f] < 0)
				kept[f] = keep(arg, &src->frames[f]) ? 1 : 0;
			if (!kept[f])
				continue;
		}
		if (depth > path_alloc && (err = pms_array__reserve(&path, &path_alloc, depth, sizeof(*path))))
			break;
		for (uint32_t n = (uint32_t)i; n; n = src->nodes[n].parent) {
			uint32_t f = src->nodes[n].frame;

			if (map[f] == UINT32_MAX) {
				int64_t id = pms_stacks__intern(dst, &src->frames[f]);

				if (id < 0) {
					err = (int)id;
					break;
				}
				map[f] = (uint32_t)id;
			}
			path[src->nodes[n].depth - 1] = map[f];
		}
		if (!err)
			err = pms_stacks__add_path(dst, path, depth, samples, period);
	}
	if (!err && !keep && src->nodes && (src->nodes[0].self_samples || src->nodes[0].self_period))
		err = pms_stacks__add_path(dst, NULL, 0, src->nodes[0].self_samples * num / den,
					   src->nodes[0].self_period * num / den);
	for (size_t b = 0; b < src->nr_bids && !err; b++)
		if (!pms_stacks__build_id(dst, src->bid_dso[b]))
			err = pms_stacks__set_build_id(dst, src->bid_dso[b], src->bid_hex[b]);
	free(path);
	free(map);
	free(kept);
	return err;
}

/* ------------------------------------------------------ lifecycle -- */

struct pms_stacks *pms_stacks__new(const struct pms_stacks_opts *opts)
{
	struct pms_stacks *st;

	if (opts && opts->sz < sizeof(size_t)) {
		errno = EINVAL;
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	if (opts) {
		size_t n = opts->sz < sizeof(st->opts) ? opts->sz : sizeof(st->opts);

		memcpy(&st->opts, opts, n);
	}
	st->opts.sz = sizeof(st->opts);
	if (st->opts.event && !(st->opts.event = intern_str(st, st->opts.event)))
		goto fail;
	if (new_node(st, 0, PMS_STACKS_NO_FRAME) < 0)
		goto fail;
	return st;
fail:
	pms_stacks__free(st);
	errno = ENOMEM;
	return NULL;
}

void pms_stacks__free(struct pms_stacks *st)
{
	if (!st)
		return;
	while (st->chunks) {
		struct chunk *c = st->chunks;

		st->chunks = c->next;
		free(c);
	}
	pms_idtab__release(&st->str_tab);
	pms_idtab__release(&st->frame_tab);
	pms_idtab__release(&st->child_tab);
	free(st->strs);
	free(st->frames);
	free(st->nodes);
	free(st->last_child);
	free(st->memo);
	free(st->attr_seen);
	free(st->path);
	free(st->bid_dso);
	free(st->bid_hex);
	free(st);
}

/* ------------------------------------------------------- sessions -- */

static int set_event_meta(struct pms_stacks *st, struct pms_data_reader *r)
{
	struct strbuf sb = STRBUF_INIT;
	bool ns = true, any = false;

	for (size_t i = 0; i < st->nr_attrs_seen; i++) {
		const struct perf_event_attr *a;
		const char *name;

		if (!st->attr_seen[i])
			continue;
		a = pms_data_reader__attr(r, i);
		name = pms_data_reader__attr_name(r, i);
		if (any)
			strbuf_addch(&sb, ',');
		strbuf_adds(&sb, name ? name : "?");
		any = true;
		/* cpu-clock and task-clock periods are nanoseconds of CPU time */
		if (!a || a->type != PERF_TYPE_SOFTWARE ||
		    (a->config != PERF_COUNT_SW_CPU_CLOCK && a->config != PERF_COUNT_SW_TASK_CLOCK))
			ns = false;
	}
	if (sb.oom)
		return -ENOMEM;
	st->meta.event = any ? intern_str(st, strbuf_str(&sb)) : NULL;
	strbuf_release(&sb);
	if (any && !st->meta.event)
		return -ENOMEM;
	st->meta.period_unit = intern_str(st, ns ? "nanoseconds" : "events");
	return st->meta.period_unit ? 0 : -ENOMEM;
}

/* A new session: frame memo pointers belong to the old one; take its header's words. */
static int switch_session(struct pms_stacks *st, struct pms_session *s)
{
	struct pms_data_reader *r = pms_session__reader(s);
	const struct pms_data_features *f = pms_data_reader__features(r);
	size_t nr = pms_data_reader__nr_attrs(r);

	if (!st->memo) {
		st->memo = calloc(MEMO_SIZE, sizeof(*st->memo));
		if (!st->memo)
			return -ENOMEM;
	} else {
		memset(st->memo, 0, MEMO_SIZE * sizeof(*st->memo));
	}
	free(st->attr_seen);
	st->attr_seen = calloc(nr ? nr : 1, sizeof(*st->attr_seen));
	if (!st->attr_seen)
		return -ENOMEM;
	st->nr_attrs_seen = nr;
	st->memo_session = s;
	st->root_comm = NULL;
	if (f && pms_data_features__has(f, PMS_FEAT_HOSTNAME) && f->hostname &&
	    !(st->meta.hostname = intern_str(st, f->hostname)))
		return -ENOMEM;
	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct pms_data_build_id *b = &f->build_ids[i];
		char hex[2 * PMS_BUILD_ID_MAX + 1];
		int err;

		if (!b->filename || !b->size || b->size > PMS_BUILD_ID_MAX)
			continue;
		for (size_t k = 0; k < b->size; k++)
			snprintf(hex + 2 * k, 3, "%02x", b->id[k]);
		if ((err = pms_stacks__set_build_id(st, b->filename, hex)))
			return err;
	}
	if (f && f->nr_cmdline) {
		struct strbuf sb = STRBUF_INIT;

		for (uint32_t i = 0; i < f->nr_cmdline; i++) {
			if (i)
				strbuf_addch(&sb, ' ');
			strbuf_adds(&sb, f->cmdline[i] ? f->cmdline[i] : "");
		}
		st->meta.command = sb.oom ? NULL : intern_str(st, strbuf_str(&sb));
		strbuf_release(&sb);
		if (!st->meta.command)
			return -ENOMEM;
	}
	return set_event_meta(st, r);
}

static int path_room(struct pms_stacks *st, size_t n)
{
	if (n <= st->path_alloc)
		return 0;
	size_t na = st->path_alloc ? st->path_alloc : 256;
	uint32_t *np;

	while (na < n)
		na *= 2;
	np = realloc(st->path, na * sizeof(*np));
	if (!np)
		return -ENOMEM;
	st->path = np;
	st->path_alloc = na;
	return 0;
}

static int push(struct pms_stacks *st, size_t *nr, int64_t id)
{
	if (id < 0)
		return (int)id;
	if (path_room(st, *nr + 1))
		return -ENOMEM;
	st->path[(*nr)++] = (uint32_t)id;
	return 0;
}

static enum pms_stack_kind kind_of(const struct pms_frame *fr)
{
	if (fr->res.status != PMS_RES_OK || fr->kind == PMS_FRAME_GUEST)
		return PMS_STACK_UNKNOWN;
	switch (fr->kind) {
	case PMS_FRAME_KERNEL:
		return PMS_STACK_KERNEL;
	case PMS_FRAME_JIT:
		return PMS_STACK_JIT;
	default:
		return PMS_STACK_USER;
	}
}

/* The source line lookup address: return addresses are looked up at the call (ip - 1). */
static struct pms_resolved lookup_res(const struct pms_frame *fr)
{
	struct pms_resolved res = fr->res;

	if (fr->caller && res.status == PMS_RES_OK && res.addr)
		res.addr--;
	return res;
}

/* Frame ids of one session frame, root first (its inlined calls after it). */
static int push_frame(struct pms_stacks *st, struct pms_session *s, const struct pms_frame *fr, size_t *nr)
{
	enum pms_stack_kind kind = kind_of(fr);
	bool with_lines = (st->opts.srcline || st->opts.inline_frames) && kind == PMS_STACK_USER && fr->res.elf;
	struct pms_stack_frame f = { .kind = kind };
	const struct pms_srcline_frame *sl = NULL;
	size_t nsl = 0, mi;
	uint64_t key_addr = 0;
	struct memo *m;
	char hex[32];
	int64_t id;

	if (kind == PMS_STACK_UNKNOWN)
		key_addr = fr->map_addr;
	else if (with_lines)
		key_addr = fr->res.addr | (uint64_t)fr->caller << 63;
	if (!(with_lines && st->opts.inline_frames)) {
		mi = (size_t)pms_hash__mix64((uint64_t)(uintptr_t)fr->res.dso ^ ((uint64_t)(uintptr_t)fr->res.sym << 1) ^
				   key_addr * 31 ^ kind) & (MEMO_SIZE - 1);
		m = &st->memo[mi];
		if (m->id1 && m->dso == fr->res.dso && m->sym == fr->res.sym && m->addr == key_addr &&
		    m->kind == (uint8_t)kind)
			return push(st, nr, m->id1 - 1);
	} else {
		m = NULL;
	}
	f.dso = fr->res.dso;
	if (kind == PMS_STACK_UNKNOWN) {
		/* never invent a name: no mapping says so, else the address as perf script prints it */
		if (!fr->res.dso || !strcmp(fr->res.dso, "[unknown]")) {
			f.name = "[unknown]";
			f.dso = "[unknown]";
		} else {
			snprintf(hex, sizeof(hex), "0x%" PRIx64, fr->map_addr);
			f.name = hex;
		}
	} else {
		f.name = fr->res.sym ? fr->res.sym : "[unknown]";
	}
	if (with_lines) {
		struct pms_resolved res = lookup_res(fr);

		if (pms_resolver__srcline(pms_session__resolver(s), &res, &sl, &nsl))
			nsl = 0;
	}
	if (nsl && st->opts.srcline) {
		f.file = sl[nsl - 1].file;
		f.line = sl[nsl - 1].line;
	}
	id = pms_stacks__intern(st, &f);
	if (m && id >= 0)
		*m = (struct memo){ .dso = fr->res.dso, .sym = fr->res.sym, .addr = key_addr,
				    .id1 = (uint32_t)id + 1, .kind = (uint8_t)kind };
	if (push(st, nr, id))
		return -ENOMEM;
	if (!st->opts.inline_frames)
		return 0;
	/* sl[nsl-1] is the real function (emitted above); the ones before were inlined into it */
	for (size_t i = nsl > 0 ? nsl - 1 : 0; i-- > 0;) {
		struct pms_stack_frame in = { .kind = PMS_STACK_INLINED, .dso = fr->res.dso };

		if (!sl[i].func)
			continue;
		in.name = sl[i].func;
		if (st->opts.srcline) {
			in.file = sl[i].file;
			in.line = sl[i].line;
		}
		if (push(st, nr, pms_stacks__intern(st, &in)))
			return -ENOMEM;
	}
	return 0;
}

static bool keep_frame(const struct pms_stacks *st, const struct pms_frame *fr)
{
	if (st->opts.kernel_only)
		return fr->kind == PMS_FRAME_KERNEL;
	if (st->opts.user_only)
		return fr->kind != PMS_FRAME_KERNEL;
	return true;
}

static bool same_address(const struct pms_frame *a, const struct pms_frame *b)
{
	return a->ip == b->ip && a->kind == b->kind &&
	       (a->res.dso == b->res.dso || (a->res.dso && b->res.dso && !strcmp(a->res.dso, b->res.dso)));
}

/*
 * How many outermost frames of the chain repeat the frame inside them: the
 * extra copies of a run of one user address that reaches the end of the
 * chain, 0 when there is none.
 *
 * A user frame-pointer walk follows saved frame pointers in memory the
 * program controls; a word that points at itself gives the same "return
 * address" until the kernel's frame limit. pthread_create's clone3 does
 * that: glibc, built without frame pointers, leaves the new thread's
 * struct pthread in the register, and its first word points to itself (the
 * next word, the dtv pointer, is the heap address that then repeats).
 *
 * Keying on one address, not one name, and on the run reaching the end is
 * what keeps real recursion intact: recursion through different call sites
 * shows different return addresses, and recursion from a single call site,
 * which does repeat one address, is followed by the call into it from its
 * caller, so its run never ends the chain. Only recursion deeper than the
 * chain limit looks the same, and that chain has already lost its callers.
 * Kernel frames are left alone: the kernel's own unwinders refuse a frame
 * that does not move up the stack.
 */
static size_t looped_extra(const struct pms_session_sample *ss)
{
	const struct pms_frame *outer;
	size_t i;

	if (ss->nr_frames < 2)
		return 0;
	outer = &ss->frames[ss->nr_frames - 1];
	if (outer->kind == PMS_FRAME_KERNEL)
		return 0;
	for (i = ss->nr_frames - 1; i > 0 && same_address(&ss->frames[i - 1], outer); i--)
		;
	return ss->nr_frames - 1 - i;
}

int pms_stacks__from_session(struct pms_session *s, const struct pms_stacks_opts *opts, struct pms_stacks **out,
			     const struct pms_data_error **damage)
{
	const struct pms_data_error *d;
	int err;

	*out = pms_stacks__new(opts);
	if (!*out)
		return -errno;
	err = pms_stacks__add_session(*out, s);
	if (err == -ENOMEM) {
		pms_stacks__free(*out);
		*out = NULL;
		return err;
	}
	d = pms_data_reader__error(pms_session__reader(s));
	if (damage)
		*damage = d && d->err ? d : NULL;
	return err < 0 ? err : 0;
}

int pms_stacks__add_sample(struct pms_stacks *st, struct pms_session *s,
			   const struct pms_session_sample *ss)
{
	size_t nr = 0, kept = 0, nr_frames = ss->nr_frames, extra;
	int err;

	if (st->memo_session != s && (err = switch_session(st, s)))
		return err;
	if ((st->opts.event && strcmp(ss->event_name ? ss->event_name : "", st->opts.event)) ||
	    (st->opts.time_start_ns && ss->time_ns < st->opts.time_start_ns) ||
	    (st->opts.time_end_ns && ss->time_ns > st->opts.time_end_ns)) {
		st->meta.samples_filtered++;
		return 0;
	}
	for (size_t i = 0; i < ss->nr_frames; i++)
		kept += keep_frame(st, &ss->frames[i]);
	if (!kept) {
		st->meta.samples_filtered++;
		return 0;
	}
	if (st->opts.root != PMS_STACKS_ROOT_NONE) {
		/* session comms are interned: the pointer tells the name */
		if (!st->root_comm || st->root_comm != ss->comm || st->root_pid != ss->pid ||
		    st->root_tid != ss->tid) {
			struct pms_stack_frame p = { .name = ss->comm ? ss->comm : "[unknown]",
						     .kind = PMS_STACK_PROCESS };
			int64_t id;

			st->root_comm = NULL;
			if (st->opts.root != PMS_STACKS_ROOT_COMM)
				p.pid = ss->pid;
			if ((id = pms_stacks__intern(st, &p)) < 0)
				return (int)id;
			st->root_ids[0] = (uint32_t)id;
			if (st->opts.root == PMS_STACKS_ROOT_TID) {
				p.kind = PMS_STACK_THREAD;
				p.tid = ss->tid;
				if ((id = pms_stacks__intern(st, &p)) < 0)
					return (int)id;
				st->root_ids[1] = (uint32_t)id;
			}
			st->root_comm = ss->comm;
			st->root_pid = ss->pid;
			st->root_tid = ss->tid;
		}
		if ((err = push(st, &nr, st->root_ids[0])))
			return err;
		if (st->opts.root == PMS_STACKS_ROOT_TID && (err = push(st, &nr, st->root_ids[1])))
			return err;
	}
	extra = looped_extra(ss);
	if (extra && keep_frame(st, &ss->frames[nr_frames - 1])) {
		nr_frames -= extra;
		st->meta.looped_chains++;
	}
	for (size_t i = nr_frames; i-- > 0;)
		if (keep_frame(st, &ss->frames[i]) && (err = push_frame(st, s, &ss->frames[i], &nr)))
			return err;
	if (st->frames[st->path[nr - 1]].kind == PMS_STACK_UNKNOWN)
		st->meta.unresolved_leaves++;
	if (ss->attr_idx < st->nr_attrs_seen && !st->attr_seen[ss->attr_idx]) {
		st->attr_seen[ss->attr_idx] = true;
		if ((err = set_event_meta(st, pms_session__reader(s))))
			return err;
	}
	if (ss->time_ns) {
		if (!st->meta.time_first_ns || ss->time_ns < st->meta.time_first_ns)
			st->meta.time_first_ns = ss->time_ns;
		if (ss->time_ns > st->meta.time_last_ns)
			st->meta.time_last_ns = ss->time_ns;
	}
	return pms_stacks__add_path(st, st->path, nr, 1, ss->period);
}

int pms_stacks__add_session(struct pms_stacks *st, struct pms_session *s)
{
	const struct pms_session_sample *ss;
	const struct pms_session_stats *stats;
	int rc, err;

	if (st->memo_session != s && (err = switch_session(st, s)))
		return err;
	while ((rc = pms_session__next(s, &ss)) > 0)
		if ((err = pms_stacks__add_sample(st, s, ss)))
			return err;
	stats = pms_session__stats(s);
	st->meta.lost += stats->lost_events + stats->lost_samples; /* sessions add up */
	return rc < 0 ? rc : 0;
}

/* ---------------------------------------------------------- order -- */

struct sort_ctx {
	const struct pms_stacks *st;
	enum pms_stacks_order order;
};

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_nodes(const struct pms_stacks *st, enum pms_stacks_order order, uint32_t a, uint32_t b)
{
	const struct pms_stack_node *na = &st->nodes[a], *nb = &st->nodes[b];
	const struct pms_stack_frame *fa = &st->frames[na->frame], *fb = &st->frames[nb->frame];
	int c;

	if (order == PMS_STACKS_BY_WEIGHT && na->total_samples != nb->total_samples)
		return na->total_samples > nb->total_samples ? -1 : 1;
	if ((c = strcmp0(fa->name, fb->name)))
		return c;
	if (fa->pid != fb->pid)
		return fa->pid < fb->pid ? -1 : 1;
	if (fa->tid != fb->tid)
		return fa->tid < fb->tid ? -1 : 1;
	if ((c = strcmp0(fa->dso, fb->dso)))
		return c;
	if ((c = strcmp0(fa->file, fb->file)))
		return c;
	if (fa->line != fb->line)
		return fa->line < fb->line ? -1 : 1;
	if (fa->kind != fb->kind)
		return fa->kind < fb->kind ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Bottom-up merge sort of a sibling list: O(n log n), no allocation. */
static uint32_t sort_list(const struct pms_stacks *st, enum pms_stacks_order order, uint32_t head, size_t len)
{
	struct pms_stack_node *nodes = st->nodes;
	uint32_t a, b, tail = 0, out = 0;
	size_t half;

	if (len < 2)
		return head;
	half = len / 2;
	a = head;
	b = head;
	for (size_t i = 1; i < half; i++)
		b = nodes[b].next_sibling;
	{
		uint32_t t = nodes[b].next_sibling;

		nodes[b].next_sibling = 0;
		b = t;
	}
	a = sort_list(st, order, a, half);
	b = sort_list(st, order, b, len - half);
	while (a && b) {
		uint32_t take;

		if (cmp_nodes(st, order, a, b) <= 0) {
			take = a;
			a = nodes[a].next_sibling;
		} else {
			take = b;
			b = nodes[b].next_sibling;
		}
		if (tail)
			nodes[tail].next_sibling = take;
		else
			out = take;
		tail = take;
	}
	nodes[tail].next_sibling = a ? a : b;
	return out;
}

void pms_stacks__sort(struct pms_stacks *st, enum pms_stacks_order order)
{
	for (size_t n = 0; n < st->nr_nodes; n++) {
		struct pms_stack_node *p = &st->nodes[n];
		size_t len = 0;
		uint32_t c, last = 0;

		for (c = p->first_child; c; c = st->nodes[c].next_sibling)
			len++;
		if (len < 2)
			continue;
		p->first_child = sort_list(st, order, p->first_child, len);
		for (c = p->first_child; c; c = st->nodes[c].next_sibling)
			last = c;
		st->last_child[n] = last;
	}
}

/* -------------------------------------------------------- getters -- */

const struct pms_stack_node *pms_stacks__nodes(const struct pms_stacks *st, size_t *nr)
{
	*nr = st->nr_nodes;
	return st->nodes;
}

const struct pms_stack_frame *pms_stacks__frames(const struct pms_stacks *st, size_t *nr)
{
	*nr = st->nr_frames;
	return st->frames;
}

const struct pms_stacks_meta *pms_stacks__meta(const struct pms_stacks *st)
{
	return &st->meta;
}

int pms_stacks__set_meta(struct pms_stacks *st, const struct pms_stacks_meta *meta)
{
	struct pms_stacks_meta m = *meta;

	if ((meta->event && !(m.event = intern_str(st, meta->event))) ||
	    (meta->period_unit && !(m.period_unit = intern_str(st, meta->period_unit))) ||
	    (meta->sample_noun && !(m.sample_noun = intern_str(st, meta->sample_noun))) ||
	    (meta->period_noun && !(m.period_noun = intern_str(st, meta->period_noun))) ||
	    (meta->command && !(m.command = intern_str(st, meta->command))) ||
	    (meta->hostname && !(m.hostname = intern_str(st, meta->hostname))))
		return -ENOMEM;
	/* the tree's own count wins: it is what the exporters' totals add up to */
	m.samples = st->nodes[0].total_samples;
	st->meta = m;
	return 0;
}

int pms_stacks__functions(const struct pms_stacks *st, struct pms_stacks_function **out, size_t *nr)
{
	struct pms_stacks_function *fn = calloc(st->nr_frames ? st->nr_frames : 1, sizeof(*fn));
	size_t n = 0;

	if (!fn)
		return -ENOMEM;
	for (size_t i = 1; i < st->nr_nodes; i++) {
		const struct pms_stack_node *nd = &st->nodes[i];
		struct pms_stacks_function *f = &fn[nd->frame];
		bool outermost = true;

		for (uint32_t up = nd->parent; up; up = st->nodes[up].parent)
			if (st->nodes[up].frame == nd->frame) {
				outermost = false;
				break;
			}
		f->self_samples += nd->self_samples;
		f->self_period += nd->self_period;
		if (outermost) {
			f->total_samples += nd->total_samples;
			f->total_period += nd->total_period;
		}
	}
	for (size_t i = 0; i < st->nr_frames; i++) {
		enum pms_stack_kind k = st->frames[i].kind;

		if (k == PMS_STACK_PROCESS || k == PMS_STACK_THREAD || (!fn[i].total_samples && !fn[i].total_period))
			continue;
		fn[i].frame = (uint32_t)i;
		fn[n++] = fn[i];
	}
	*out = fn;
	*nr = n;
	return 0;
}

const char *pms_stacks__build_id(const struct pms_stacks *st, const char *dso)
{
	if (!dso)
		return NULL;
	for (size_t i = st->nr_bids; i-- > 0;)
		if (st->bid_dso[i] == dso || !strcmp(st->bid_dso[i], dso))
			return st->bid_hex[i];
	return NULL;
}

int pms_stacks__set_build_id(struct pms_stacks *st, const char *dso, const char *build_id_hex)
{
	const char *d = intern_str(st, dso), *h = intern_str(st, build_id_hex);

	if (!d || !h)
		return -ENOMEM;
	for (size_t i = 0; i < st->nr_bids; i++)
		if (st->bid_dso[i] == d) {
			st->bid_hex[i] = h;
			return 0;
		}
	if (st->nr_bids == st->bids_alloc) {
		size_t dso_alloc = st->bids_alloc, hex_alloc = st->bids_alloc;

		if (pms_array__reserve(&st->bid_dso, &dso_alloc, st->nr_bids + 1, sizeof(*st->bid_dso)) ||
		    pms_array__reserve(&st->bid_hex, &hex_alloc, st->nr_bids + 1, sizeof(*st->bid_hex)))
			return -ENOMEM;
		st->bids_alloc = dso_alloc < hex_alloc ? dso_alloc : hex_alloc;
	}
	st->bid_dso[st->nr_bids] = d;
	st->bid_hex[st->nr_bids] = h;
	st->nr_bids++;
	return 0;
}

int pms_stacks_root__parse(const char *name, enum pms_stacks_root *out)
{
	static const char *const names[] = {
		[PMS_STACKS_ROOT_NONE] = "none", [PMS_STACKS_ROOT_COMM] = "comm",
		[PMS_STACKS_ROOT_PID] = "pid", [PMS_STACKS_ROOT_TID] = "tid",
	};

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum pms_stacks_root)i;
			return 0;
		}
	return -EINVAL;
}
