// SPDX-License-Identifier: MIT
// Report histograms: samples interned into frame/chain/class tables, expanded into sorted entries and call-graph trees once at the end.
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/hist.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"

/* ------------------------------------------------------------- hashing -- */

/* Cheap combining step (one multiply); pms_hash__mix64() once at the end spreads the bits. */
static inline uint64_t hash_step(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* ------------------------------------------------------------- tables -- */

struct frame_rec {
	struct pms_hist_frame pub;
	struct pms_resolved res;  /* for source lines */
	const char *srcline;
	const char *entry_dso;    /* canonical by base name: perf's dso key for rows (trees keep the path) */
	uint64_t key_addr;        /* 0 for a function-level frame of a known symbol */
	uint8_t by_addr;          /* 0 per function, 1 per file address, 2 per runtime address */
	uint32_t fn;              /* id of the function-level frame (itself unless by_addr) */
	uint32_t hash, hash_canon;
};

/* Direct-mapped memo of the parent pattern's verdict per symbol. */
#define PARENT_MEMO_SIZE 1024

/* Direct-mapped memo of intern_frame(): a hot loop's addresses hit it every time. */
#define FMEMO_SIZE 4096

struct frame_memo {
	uint64_t ip;
	const char *dso, *sym;
	uint32_t id;      /* frame id + 1; 0: empty */
	uint8_t kind, mode;
};

struct chain_rec {
	uint32_t off, len, hash;
	/*
	 * seq[off + len] holds the sampled frame keyed as a caller (by runtime
	 * address). perf builds trees and its cumulative pass from the
	 * recorded chain, whose first entry is the sampled IP: an unresolved
	 * sampled frame is that runtime address in every tree, and in children
	 * mode also counts (children only) under it, beside its own row at the
	 * file address.
	 */
	bool leaf_twin;
	/*
	 * --max-stack cut the chain from the root (session's leaf_cut): seq[off]
	 * is the sampled frame for the entry, but the recorded chain kept only
	 * the outer callers, so trees start at seq[off + 1], as perf's do.
	 */
	bool leaf_cut;
};

/* A branch-mode class's chain is [to, from]; cycles and bflags are its flags the keys use. */
struct class_rec {
	const char *comm;
	uint32_t pid, tid, cpu;
	uint32_t event;
	uint32_t chain;
	uint32_t hash;
	uint16_t cycles;
	uint8_t bflags;     /* BFLAG_* */
	const char *parent; /* the parent key's symbol (interned by the session), NULL: none matched */
	uint64_t period, samples;
};

enum { BFLAG_MISPRED = 1, BFLAG_PREDICTED = 2 };

struct event_acc {
	bool used;
	struct pms_hist_event pub;
};

struct pms_hist {
	struct pms_hist_opts opts;
	bool key[PMS_SORT__NR];
	bool by_addr;       /* frames keyed by address (srcline) */
	bool whole_chain;   /* chains beyond the leaf are needed */
	struct pms_hist_filter filter;
	bool has_filter;

	struct frame_rec *frames;
	size_t nr_frames, frames_alloc;
	struct pms_idtab frame_tab;

	uint32_t *seq;
	size_t nr_seq, seq_alloc;
	struct chain_rec *chains;
	size_t nr_chains, chains_alloc;
	struct pms_idtab chain_tab;

	struct class_rec *classes;
	size_t nr_classes, classes_alloc;
	struct pms_idtab class_tab;

	struct frame_memo *memo;
	uint32_t *tmp;      /* the current sample's frame ids */
	size_t tmp_alloc;
	uint8_t *levels;    /* finish(): the current chain's levels (chain_levels()) */

	struct event_acc *events;
	size_t nr_events_alloc;
	size_t nr_used_events;
	const struct pms_hist_event **used;
	uint64_t filtered;

	struct pms_hist_entry *entries;
	size_t nr_entries, entries_alloc;
	struct pms_idtab entry_tab;
	struct pms_cg cg;

	const char **canon;  /* first pointer seen for each distinct string content */
	size_t nr_canon, canon_alloc;
	struct pms_idtab canon_tab;
	const char **canon_b; /* first path seen for each distinct base name */
	size_t nr_canon_b, canon_b_alloc;
	struct pms_idtab canon_b_tab;

	char **strs;       /* interned srcline strings */
	size_t nr_strs, strs_alloc;
	struct pms_idtab str_tab;

	/* the parent key's pattern, and whether each symbol (by interned pointer) matches it */
	regex_t parent_re;
	bool has_parent_re;
	struct { const char *sym; bool match; } parent_memo[PARENT_MEMO_SIZE];

	/* filter memo: interned pointers repeat */
	const char *memo_comm, *memo_dso, *memo_sym;
	bool memo_comm_ok, memo_dso_ok, memo_sym_ok;
	bool finished;
};

/* ---------------------------------------------------------- sort keys -- */

static const char *const key_names[PMS_SORT__NR] = {
	[PMS_SORT_COMM] = "comm", [PMS_SORT_PID] = "pid", [PMS_SORT_TID] = "tid",
	[PMS_SORT_DSO] = "dso", [PMS_SORT_SYM] = "sym", [PMS_SORT_SRCLINE] = "srcline",
	[PMS_SORT_CPU] = "cpu", [PMS_SORT_PARENT] = "parent", [PMS_SORT_DSO_FROM] = "dso_from", [PMS_SORT_DSO_TO] = "dso_to",
	[PMS_SORT_SYM_FROM] = "symbol_from", [PMS_SORT_SYM_TO] = "symbol_to", [PMS_SORT_CYCLES] = "cycles",
	[PMS_SORT_MISPREDICT] = "mispredict",
};

bool pms_sort_key__is_branch(enum pms_sort_key key)
{
	return key >= PMS_SORT_DSO_FROM && key < PMS_SORT__NR;
}

int pms_sort_key__parse(const char *name)
{
	if (!strcmp(name, "symbol"))
		return PMS_SORT_SYM;
	if (!strcmp(name, "sym_from"))
		return PMS_SORT_SYM_FROM;
	if (!strcmp(name, "sym_to"))
		return PMS_SORT_SYM_TO;
	for (int i = 0; i < PMS_SORT__NR; i++)
		if (!strcmp(name, key_names[i]))
			return i;
	return -EINVAL;
}

const char *pms_sort_key__name(enum pms_sort_key key)
{
	return key < PMS_SORT__NR ? key_names[key] : "?";
}

int pms_sort_keys__parse(const char *list, enum pms_sort_key *keys, size_t max, size_t *nr,
			 size_t *bad)
{
	const char *p = list;

	*nr = 0;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char word[32];
		int k;
		bool dup = false;

		if (bad)
			*bad = (size_t)(p - list);
		if (len == 0 || len >= sizeof(word))
			return -EINVAL;
		memcpy(word, p, len);
		word[len] = 0;
		k = pms_sort_key__parse(word);
		if (k < 0)
			return -EINVAL;
		for (size_t i = 0; i < *nr; i++)
			dup |= keys[i] == (enum pms_sort_key)k;
		if (!dup) {
			if (*nr >= max)
				return -EINVAL;
			keys[(*nr)++] = (enum pms_sort_key)k;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

const char *pms_hist__branch_level(const struct pms_hist_frame_ref *end)
{
	return end->unmapped ? "[H]" : pms_hist__level(end->kind);
}

const char *pms_hist__level(enum pms_frame_kind kind)
{
	switch (kind) {
	case PMS_FRAME_KERNEL:
		return "[k]";
	case PMS_FRAME_GUEST:
		return "[g]";
	default:
		return "[.]";
	}
}

/* ------------------------------------------------------------ new/free -- */

int pms_hist__new(struct pms_hist **out, const struct pms_hist_opts *opts)
{
	struct pms_hist *h;

	*out = NULL;
	if (!opts || opts->sz < sizeof(*opts) || opts->nr_keys > PMS_HIST_MAX_KEYS ||
	    opts->order > PMS_CG_CALLER)
		return -EINVAL;
	for (size_t i = 0; i < opts->nr_keys; i++)
		if (opts->keys[i] >= PMS_SORT__NR ||
		    (pms_sort_key__is_branch(opts->keys[i]) && !opts->branch) ||
		    /* a branch's ends are keyed per function: srcline (per address) is not done there */
		    (opts->keys[i] == PMS_SORT_SRCLINE && opts->branch))
			return -EINVAL;
	/* perf's branch mode has neither (its entries carry no chains) */
	if (opts->branch && (opts->children || opts->order != PMS_CG_NONE))
		return -EINVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->opts = *opts;
	if (!h->opts.nr_keys && h->opts.branch) {
		/* perf's default_branch_sort_order */
		h->opts.keys[0] = PMS_SORT_COMM;
		h->opts.keys[1] = PMS_SORT_DSO_FROM;
		h->opts.keys[2] = PMS_SORT_SYM_FROM;
		h->opts.keys[3] = PMS_SORT_SYM_TO;
		h->opts.keys[4] = PMS_SORT_CYCLES;
		h->opts.nr_keys = 5;
	} else if (!h->opts.nr_keys) {
		h->opts.keys[0] = PMS_SORT_COMM;
		h->opts.keys[1] = PMS_SORT_DSO;
		h->opts.keys[2] = PMS_SORT_SYM;
		h->opts.nr_keys = 3;
	}
	for (size_t i = 0; i < h->opts.nr_keys; i++)
		h->key[h->opts.keys[i]] = true;
	h->by_addr = h->key[PMS_SORT_SRCLINE];
	h->whole_chain = h->opts.children || h->opts.order != PMS_CG_NONE;
	if (opts->filter) {
		h->filter = *opts->filter;
		h->has_filter = true;
	}
	h->opts.filter = NULL;
	if (h->key[PMS_SORT_PARENT] || h->filter.parent_only) {
		/* perf's default parent_pattern */
		const char *re = h->opts.parent_regex ? h->opts.parent_regex : "^sys_|^do_page_fault";

		if (regcomp(&h->parent_re, re, REG_EXTENDED | REG_NOSUB)) {
			free(h);
			return -EINVAL;
		}
		h->has_parent_re = true;
	}
	h->opts.parent_regex = NULL; /* borrowed: not kept */
	pms_cg__init(&h->cg);
	h->memo = calloc(FMEMO_SIZE, sizeof(*h->memo)); /* optional: NULL only slows __add() */
	*out = h;
	return 0;
}

void pms_hist__free(struct pms_hist *h)
{
	if (!h)
		return;
	if (h->has_parent_re)
		regfree(&h->parent_re);
	free(h->frames);
	pms_idtab__release(&h->frame_tab);
	free(h->seq);
	free(h->chains);
	pms_idtab__release(&h->chain_tab);
	free(h->classes);
	pms_idtab__release(&h->class_tab);
	free(h->tmp);
	free(h->levels);
	free(h->memo);
	for (size_t i = 0; i < h->nr_events_alloc; i++)
		free(h->events[i].pub.entries);
	free(h->events);
	free(h->used);
	free(h->entries);
	pms_idtab__release(&h->entry_tab);
	pms_cg__release(&h->cg);
	free(h->canon);
	pms_idtab__release(&h->canon_tab);
	free(h->canon_b);
	pms_idtab__release(&h->canon_b_tab);
	for (size_t i = 0; i < h->nr_strs; i++)
		free(h->strs[i]);
	free(h->strs);
	pms_idtab__release(&h->str_tab);
	free(h);
}

/* -------------------------------------------------------------- filter -- */

static bool str_in(const char *s, const char *const *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static bool u32_in(uint32_t v, const uint32_t *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

static bool dso_in(const char *dso, const char *const *list, size_t nr)
{
	const char *base = strrchr(dso, '/');

	base = base ? base + 1 : dso;
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(dso, list[i]) || !strcmp(base, list[i]))
			return true;
	return false;
}

enum { KEEP, DROP, HIDE };

/*
 * DROP: out of the time range or CPU list, as if never recorded. HIDE:
 * another thread, object or symbol; perf still counts those in the event's
 * total (its default "absolute" percentages for --comms/--dsos/--symbols/--pid).
 */
/* perf's parent: the first symbol from the sampled frame out that matches the pattern, NULL if none. */
static const char *find_parent(struct pms_hist *h, const struct pms_session_sample *s)
{
	for (size_t i = 0; i < s->nr_frames; i++) {
		const char *sym = s->frames[i].res.sym;
		size_t slot;

		if (!sym)
			continue;
		slot = (size_t)(((uintptr_t)sym >> 4) * 0x9e3779b1u) % PARENT_MEMO_SIZE;
		if (h->parent_memo[slot].sym != sym) {
			h->parent_memo[slot].sym = sym;
			h->parent_memo[slot].match = !regexec(&h->parent_re, sym, 0, NULL, 0);
		}
		if (h->parent_memo[slot].match)
			return sym;
	}
	return NULL;
}

static int keep_sample(struct pms_hist *h, const struct pms_session_sample *s, const char *parent)
{
	const struct pms_hist_filter *f = &h->filter;
	const struct pms_frame *leaf = &s->frames[0];

	if (f->time_start_ns && s->time_ns < f->time_start_ns)
		return DROP;
	if (f->time_end_ns && s->time_ns > f->time_end_ns)
		return DROP;
	if (f->nr_cpus && !u32_in(s->cpu, f->cpus, f->nr_cpus))
		return DROP;
	if (f->nr_pids && !u32_in(s->pid, f->pids, f->nr_pids))
		return HIDE;
	if (f->nr_tids && !u32_in(s->tid, f->tids, f->nr_tids))
		return HIDE;
	if (f->nr_comms) {
		if (s->comm != h->memo_comm || !h->memo_comm) {
			h->memo_comm = s->comm;
			h->memo_comm_ok = s->comm && str_in(s->comm, f->comms, f->nr_comms);
		}
		if (!h->memo_comm_ok)
			return HIDE;
	}
	if (f->nr_dsos) {
		if (leaf->res.dso != h->memo_dso || !h->memo_dso) {
			h->memo_dso = leaf->res.dso;
			h->memo_dso_ok = leaf->res.dso && dso_in(leaf->res.dso, f->dsos, f->nr_dsos);
		}
		if (!h->memo_dso_ok)
			return HIDE;
	}
	if (f->nr_syms) {
		if (!leaf->res.sym)
			return HIDE;
		if (leaf->res.sym != h->memo_sym) {
			h->memo_sym = leaf->res.sym;
			h->memo_sym_ok = str_in(leaf->res.sym, f->syms, f->nr_syms);
		}
		if (!h->memo_sym_ok)
			return HIDE;
	}
	if (f->hide_unresolved && !leaf->res.sym)
		return HIDE;
	if (f->sym_substr && (!leaf->res.sym || !strstr(leaf->res.sym, f->sym_substr)))
		return HIDE;
	if (f->parent_only && !parent)
		return HIDE;
	return KEEP;
}

/* ---------------------------------------------------------------- add -- */

struct frame_key {
	const char *dso, *sym;
	uint64_t addr;
	enum pms_frame_kind kind;
	uint8_t by_addr;
};

static bool frame_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];
	const struct frame_key *k = c[1];
	const struct frame_rec *f = &h->frames[idx];

	return f->pub.dso == k->dso && f->pub.sym == k->sym && f->pub.kind == k->kind &&
	       f->key_addr == k->addr && f->by_addr == k->by_addr;
}

static uint32_t frame_hash(const struct frame_key *k)
{
	return (uint32_t)pms_hash__mix64(hash_step(hash_step(hash_step((uintptr_t)k->dso, (uintptr_t)k->sym), k->addr),
				   k->kind + k->by_addr * 16));
}

/* The id of a frame; by_addr keeps one frame per address, else one per function. */
static int intern_frame_slow(struct pms_hist *h, const struct pms_frame *fr, bool by_addr, bool caller_frame,
			     uint32_t *id);

static int intern_frame(struct pms_hist *h, const struct pms_frame *fr, bool by_addr, bool caller_frame,
			uint32_t *id)
{
	uint8_t mode = (uint8_t)(by_addr | caller_frame << 1);
	struct frame_memo *m;
	int err;

	if (!h->memo)
		return intern_frame_slow(h, fr, by_addr, caller_frame, id);
	m = &h->memo[(pms_hash__mix64(fr->ip) ^ mode) & (FMEMO_SIZE - 1)];
	if (m->id && m->ip == fr->ip && m->dso == fr->res.dso && m->sym == fr->res.sym &&
	    m->kind == (uint8_t)fr->kind && m->mode == mode) {
		*id = m->id - 1;
		return 0;
	}
	err = intern_frame_slow(h, fr, by_addr, caller_frame, id);
	if (!err && fr->res.dso) /* the canonicalization pass re-interns with ip 0: keep it out */
		*m = (struct frame_memo){ .ip = fr->ip, .dso = fr->res.dso, .sym = fr->res.sym, .id = *id + 1,
					  .kind = (uint8_t)fr->kind, .mode = mode };
	return err;
}

static int intern_frame_slow(struct pms_hist *h, const struct pms_frame *fr, bool by_addr, bool caller_frame,
			     uint32_t *id)
{
	/*
	 * perf keys (and prints) an unresolved caller frame by its runtime
	 * address but a sampled one by its file address; doing the same keeps
	 * children percentages comparable when the top frames are unresolved.
	 */
	bool runtime = caller_frame && !fr->res.sym;
	struct frame_key k = {
		.dso = fr->res.dso ? fr->res.dso : "[unknown]",
		.sym = fr->res.sym,
		.addr = runtime ? fr->ip : (by_addr || !fr->res.sym) ? fr->res.addr : 0,
		.kind = fr->kind,
		.by_addr = runtime ? 2 : by_addr,
	};
	const void *ctx[2] = { h, &k };
	uint32_t hash;
	size_t slot;
	struct frame_rec *f;

	hash = frame_hash(&k);
	if (pms_idtab__reserve(&h->frame_tab))
		return -ENOMEM;
	slot = pms_idtab__probe(&h->frame_tab, hash, frame_eq, ctx);
	if (pms_idtab__used(&h->frame_tab, slot)) {
		*id = pms_idtab__id(&h->frame_tab, slot);
		return 0;
	}
	if (h->nr_frames >= UINT32_MAX - 1 ||
	    pms_array__reserve(&h->frames, &h->frames_alloc, h->nr_frames + 1, sizeof(*h->frames)))
		return -ENOMEM;
	f = &h->frames[h->nr_frames];
	memset(f, 0, sizeof(*f));
	f->pub.dso = k.dso;
	f->pub.sym = fr->res.sym;
	f->pub.addr = runtime ? fr->ip : fr->res.addr;
	f->pub.kind = fr->kind;
	f->pub.status = fr->res.status;
	f->res = fr->res;
	f->hash = hash;
	f->fn = (uint32_t)h->nr_frames;
	f->key_addr = k.addr;
	f->by_addr = k.by_addr;
	*id = (uint32_t)h->nr_frames;
	pms_idtab__set(&h->frame_tab, slot, hash, (uint32_t)h->nr_frames++);
	return 0;
}

static bool chain_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];
	const size_t *len = c[1];
	const bool *twin = c[2];
	const bool *cut = c[3];
	const struct chain_rec *ch = &h->chains[idx];

	return ch->len == *len && ch->leaf_twin == *twin && ch->leaf_cut == *cut &&
	       !memcmp(&h->seq[ch->off], h->tmp, (*len + *twin) * sizeof(uint32_t));
}

static bool class_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];
	const struct class_rec *k = c[1];
	const struct class_rec *x = &h->classes[idx];

	return x->chain == k->chain && x->event == k->event && x->comm == k->comm &&
	       x->pid == k->pid && x->tid == k->tid && x->cpu == k->cpu && x->cycles == k->cycles &&
	       x->bflags == k->bflags && x->parent == k->parent;
}

static struct event_acc *event_of(struct pms_hist *h, size_t attr_idx)
{
	if (attr_idx >= h->nr_events_alloc) {
		size_t n = attr_idx + 1;
		struct event_acc *e = realloc(h->events, n * sizeof(*e));

		if (!e)
			return NULL;
		memset(e + h->nr_events_alloc, 0, (n - h->nr_events_alloc) * sizeof(*e));
		h->events = e;
		h->nr_events_alloc = n;
	}
	return &h->events[attr_idx];
}

static void count_event(struct event_acc *ev, const struct pms_session_sample *s, uint64_t period)
{
	if (!ev->used) {
		ev->used = true;
		ev->pub.attr_idx = s->attr_idx;
		ev->pub.name = s->event_name;
	}
	ev->pub.samples++;
	ev->pub.period += period;
}

/* The id of the chain h->tmp[0..nr) (interned). 0 or -ENOMEM. */
/* The chain h->tmp[0..nr), plus its leaf twin at h->tmp[nr] when twin. */
static int intern_chain(struct pms_hist *h, size_t nr, bool twin, bool cut, uint32_t *chain)
{
	const void *ctx[4] = { h, &nr, &twin, &cut };
	uint64_t hv = 0x51ed + twin + 2 * cut;
	size_t slot;

	for (size_t i = 0; i < nr + twin; i++)
		hv = hash_step(hv, h->tmp[i]);
	hv = pms_hash__mix64(hv);
	if (pms_idtab__reserve(&h->chain_tab))
		return -ENOMEM;
	slot = pms_idtab__probe(&h->chain_tab, (uint32_t)hv, chain_eq, ctx);
	if (pms_idtab__used(&h->chain_tab, slot)) {
		*chain = pms_idtab__id(&h->chain_tab, slot);
		return 0;
	}
	if (pms_array__reserve(&h->seq, &h->seq_alloc, h->nr_seq + nr + twin, sizeof(*h->seq)) ||
	    pms_array__reserve(&h->chains, &h->chains_alloc, h->nr_chains + 1, sizeof(*h->chains)))
		return -ENOMEM;
	memcpy(&h->seq[h->nr_seq], h->tmp, (nr + twin) * sizeof(*h->tmp));
	h->chains[h->nr_chains] = (struct chain_rec){
		.off = (uint32_t)h->nr_seq, .len = (uint32_t)nr, .hash = (uint32_t)hv, .leaf_twin = twin, .leaf_cut = cut,
	};
	h->nr_seq += nr + twin;
	*chain = (uint32_t)h->nr_chains;
	pms_idtab__set(&h->chain_tab, slot, (uint32_t)hv, (uint32_t)h->nr_chains++);
	return 0;
}

/* Add period to the class k (event, chain and the keyed fields set; hash computed here). */
static int add_class(struct pms_hist *h, struct class_rec *k, uint64_t period)
{
	const void *ctx[2] = { h, k };
	uint64_t hv;
	size_t slot;

	hv = pms_hash__mix64(hash_step(hash_step(hash_step(hash_step(hash_step(hash_step(k->event, k->chain),
			     (uintptr_t)k->comm), k->pid), k->tid), k->cpu), ((uint64_t)k->cycles << 8 | k->bflags) ^
			     (uintptr_t)k->parent));
	k->hash = (uint32_t)hv;
	if (pms_idtab__reserve(&h->class_tab))
		return -ENOMEM;
	slot = pms_idtab__probe(&h->class_tab, k->hash, class_eq, ctx);
	if (pms_idtab__used(&h->class_tab, slot)) {
		struct class_rec *c = &h->classes[pms_idtab__id(&h->class_tab, slot)];

		c->period += period;
		c->samples++;
		return 0;
	}
	if (pms_array__reserve(&h->classes, &h->classes_alloc, h->nr_classes + 1, sizeof(*h->classes)))
		return -ENOMEM;
	k->period = period;
	k->samples = 1;
	h->classes[h->nr_classes] = *k;
	pms_idtab__set(&h->class_tab, slot, k->hash, (uint32_t)h->nr_classes++);
	return 0;
}

/* The class fields of sample s its thread-related keys look at. */
static void class_thread_fields(const struct pms_hist *h, const struct pms_session_sample *s, struct class_rec *k)
{
	k->event = (uint32_t)s->attr_idx;
	k->comm = h->key[PMS_SORT_COMM] ? s->comm : NULL;
	k->pid = h->key[PMS_SORT_PID] ? s->pid : 0;
	k->tid = h->key[PMS_SORT_TID] ? s->tid : 0;
	k->cpu = h->key[PMS_SORT_CPU] ? s->cpu : 0;
	/* pid/tid keys print "pid:comm": keep the comm of the thread with them */
	if (!k->comm && (h->key[PMS_SORT_PID] || h->key[PMS_SORT_TID]))
		k->comm = s->comm;
}

int pms_hist__add(struct pms_hist *h, const struct pms_session_sample *s)
{
	size_t nr = s->nr_frames;
	struct class_rec k;
	uint32_t chain;
	struct event_acc *ev;
	const char *parent = NULL;
	bool twin;

	if (!nr || h->finished || h->opts.branch)
		return -EINVAL;
	ev = event_of(h, s->attr_idx);
	if (!ev)
		return -ENOMEM;
	if (h->has_parent_re)
		parent = find_parent(h, s);
	if (h->has_filter) {
		int verdict = keep_sample(h, s, parent);

		if (verdict != KEEP) {
			h->filtered++;
			if (verdict == HIDE) {
				count_event(ev, s, s->period);
				ev->pub.hidden_samples++;
				ev->pub.hidden_period += s->period;
			}
			return 0;
		}
	}
	if (!h->whole_chain || !s->has_callchain)
		nr = 1;
	if (nr + 1 > h->tmp_alloc && pms_array__reserve(&h->tmp, &h->tmp_alloc, nr + 1, sizeof(*h->tmp)))
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		if (intern_frame(h, &s->frames[i], h->by_addr, i > 0, &h->tmp[i]))
			return -ENOMEM;
	twin = h->whole_chain && s->has_callchain && !s->leaf_cut && !s->frames[0].res.sym;
	if (twin && intern_frame(h, &s->frames[0], h->by_addr, true, &h->tmp[nr]))
		return -ENOMEM;
	if (intern_chain(h, nr, twin && h->tmp[nr] != h->tmp[0], h->whole_chain && s->has_callchain && s->leaf_cut && nr > 1,
			 &chain))
		return -ENOMEM;
	/* class: only the thread fields a sort key looks at */
	memset(&k, 0, sizeof(k));
	class_thread_fields(h, s, &k);
	k.parent = h->key[PMS_SORT_PARENT] ? parent : NULL;
	k.chain = chain;
	if (add_class(h, &k, s->period))
		return -ENOMEM;
	count_event(ev, s, s->period);
	return 1;
}

int pms_hist__add_branches(struct pms_hist *h, const struct pms_session_sample *s,
			   const struct pms_hist_branch *br, size_t nr)
{
	struct event_acc *ev;

	if (!h->opts.branch || h->finished || !s->nr_frames || (nr && !br))
		return -EINVAL;
	if (!nr)
		return 0;
	ev = event_of(h, s->attr_idx);
	if (!ev)
		return -ENOMEM;
	if (h->has_filter) {
		int verdict = keep_sample(h, s, h->has_parent_re ? find_parent(h, s) : NULL);

		if (verdict != KEEP) {
			h->filtered += nr;
			for (size_t i = 0; verdict == HIDE && i < nr; i++) {
				count_event(ev, s, 1);
				ev->pub.hidden_samples++;
				ev->pub.hidden_period++;
			}
			return 0;
		}
	}
	if (h->tmp_alloc < 2 && pms_array__reserve(&h->tmp, &h->tmp_alloc, 2, sizeof(*h->tmp)))
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct class_rec k;

		memset(&k, 0, sizeof(k));
		/* each end keyed per function when it has a symbol, else per address (perf's sym_from/to) */
		if (intern_frame(h, &br[i].to, false, false, &h->tmp[0]) ||
		    intern_frame(h, &br[i].from, false, false, &h->tmp[1]) || intern_chain(h, 2, false, false, &k.chain))
			return -ENOMEM;
		class_thread_fields(h, s, &k);
		if (h->key[PMS_SORT_CYCLES])
			k.cycles = br[i].cycles;
		if (h->key[PMS_SORT_MISPREDICT])
			k.bflags = (uint8_t)((br[i].mispred ? BFLAG_MISPRED : 0) | (br[i].predicted ? BFLAG_PREDICTED : 0));
		/* perf's pseudo period: "the percentage of total branches captured, not events sampled" */
		if (add_class(h, &k, 1))
			return -ENOMEM;
		count_event(ev, s, 1);
	}
	return (int)(nr > INT32_MAX ? INT32_MAX : nr);
}

/* ------------------------------------------------------------- finish -- */

static bool str_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];

	return !strcmp(h->strs[idx], c[1]);
}

static const char *intern_str(struct pms_hist *h, const char *s)
{
	uint64_t hv = 0x5717;
	const void *ctx[2] = { h, s };
	size_t slot;
	char *copy;

	for (const char *p = s; *p; p++)
		hv = hv * 131 + (unsigned char)*p;
	hv = pms_hash__mix64(hv);
	if (pms_idtab__reserve(&h->str_tab))
		return NULL;
	slot = pms_idtab__probe(&h->str_tab, (uint32_t)hv, str_eq, ctx);
	if (pms_idtab__used(&h->str_tab, slot))
		return h->strs[pms_idtab__id(&h->str_tab, slot)];
	if (pms_array__reserve(&h->strs, &h->strs_alloc, h->nr_strs + 1, sizeof(*h->strs)))
		return NULL;
	copy = strdup(s);
	if (!copy)
		return NULL;
	h->strs[h->nr_strs] = copy;
	pms_idtab__set(&h->str_tab, slot, (uint32_t)hv, (uint32_t)h->nr_strs++);
	return copy;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

static bool canon_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];

	return !strcmp(h->canon[idx], c[1]);
}

static bool canon_b_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];

	return !strcmp(base_name(h->canon_b[idx]), base_name(c[1]));
}

/*
 * One pointer per string content (by_base: per base name). The session
 * interns its strings, but a path can still come from two places (the
 * resolver keeps one per (path, build-id)); and perf's dso key compares
 * base names, so two builds of one program are one row.
 */
static int canon_str(struct pms_hist *h, const char **sp, bool by_base)
{
	const char *s = *sp;
	uint64_t hv = 0xca70;
	const void *ctx[2] = { h, s };
	struct pms_idtab *t = by_base ? &h->canon_b_tab : &h->canon_tab;
	const char ***arr = by_base ? &h->canon_b : &h->canon;
	size_t *nr = by_base ? &h->nr_canon_b : &h->nr_canon;
	size_t *alloc = by_base ? &h->canon_b_alloc : &h->canon_alloc;
	size_t slot;

	if (!s)
		return 0;
	for (const char *p = by_base ? base_name(s) : s; *p; p++)
		hv = hv * 131 + (unsigned char)*p;
	hv = pms_hash__mix64(hv);
	if (pms_idtab__reserve(t))
		return -ENOMEM;
	slot = pms_idtab__probe(t, (uint32_t)hv, by_base ? canon_b_eq : canon_eq, ctx);
	if (pms_idtab__used(t, slot)) {
		*sp = (*arr)[pms_idtab__id(t, slot)];
		return 0;
	}
	if (pms_array__reserve(arr, alloc, *nr + 1, sizeof(**arr)))
		return -ENOMEM;
	(*arr)[*nr] = s;
	pms_idtab__set(t, slot, (uint32_t)hv, (uint32_t)(*nr)++);
	return 0;
}

/* Canonical strings in frames and classes, then frames deduplicated again under them. */
static int canonicalize(struct pms_hist *h)
{
	for (size_t i = 0; i < h->nr_classes; i++)
		if (canon_str(h, &h->classes[i].comm, false))
			return -ENOMEM;
	for (size_t i = 0; i < h->nr_frames; i++) {
		if (canon_str(h, &h->frames[i].pub.dso, false) || canon_str(h, &h->frames[i].pub.sym, false))
			return -ENOMEM;
		h->frames[i].entry_dso = h->frames[i].pub.dso;
		if (canon_str(h, &h->frames[i].entry_dso, true))
			return -ENOMEM;
	}
	pms_idtab__release(&h->frame_tab);
	for (size_t i = 0; i < h->nr_frames; i++) {
		struct frame_rec *f = &h->frames[i];
		struct frame_key k = {
			.dso = f->pub.dso, .sym = f->pub.sym, .addr = f->key_addr,
			.kind = f->pub.kind, .by_addr = f->by_addr,
		};
		const void *ctx[2] = { h, &k };
		size_t slot;

		if (pms_idtab__reserve(&h->frame_tab))
			return -ENOMEM;
		slot = pms_idtab__probe(&h->frame_tab, f->hash_canon = frame_hash(&k), frame_eq, ctx);
		if (pms_idtab__used(&h->frame_tab, slot)) {
			f->fn = h->frames[pms_idtab__id(&h->frame_tab, slot)].fn;
			continue;
		}
		f->fn = (uint32_t)i;
		pms_idtab__set(&h->frame_tab, slot, f->hash_canon, (uint32_t)i);
	}
	return 0;
}

/* perf's srcline forms: "file.c:12"; without DWARF "sym+13" (decimal) or "dso[0x1234]"... */
static int compute_srcline(struct pms_hist *h, struct frame_rec *f, struct pms_resolver *r)
{
	const struct pms_srcline_frame *sf;
	size_t nr;
	char buf[512];

	if (r && f->res.status == PMS_RES_OK && f->res.elf &&
	    !pms_resolver__srcline(r, &f->res, &sf, &nr) && nr && sf[0].file && sf[0].line)
		snprintf(buf, sizeof(buf), "%s:%u", base_name(sf[0].file), sf[0].line);
	else if (f->pub.sym)
		snprintf(buf, sizeof(buf), "%s+%llu", f->pub.sym, (unsigned long long)f->res.sym_off);
	else
		snprintf(buf, sizeof(buf), "%s[%llx]", base_name(f->pub.dso),
			 (unsigned long long)f->pub.addr);
	f->srcline = intern_str(h, buf);
	return f->srcline ? 0 : -ENOMEM;
}

struct entry_key {
	size_t event;
	const struct class_rec *c;
	const struct frame_rec *f;
	bool kind_set;             /* kind below instead of the frame's (see level_of_unmapped()) */
	enum pms_frame_kind kind;
};

static bool is_unknown(const char *dso)
{
	return dso && !strcmp(dso, "[unknown]");
}

/* One end of a branch as its keys see it: its object (by base name, as perf's dso_from), and with_sym its symbol or address. */
static void branch_ref(const struct pms_hist *h, uint32_t frame, bool with_sym, struct pms_hist_frame_ref *out)
{
	const struct frame_rec *f = &h->frames[frame];

	memset(out, 0, sizeof(*out));
	out->dso = f->entry_dso ? f->entry_dso : f->pub.dso;
	/* the session names an address no map covered "[unknown]" */
	out->unmapped = is_unknown(f->pub.dso);
	if (!with_sym)
		return;
	out->sym = f->pub.sym;
	out->addr = f->pub.sym ? 0 : f->pub.addr;
	out->kind = f->pub.kind;
	out->status = f->pub.status;
}

static void entry_fields(const struct pms_hist *h, const struct entry_key *k, struct pms_hist_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->priv_event = k->event;
	e->comm = k->c->comm;
	e->pid = k->c->pid;
	e->tid = k->c->tid;
	e->cpu = k->c->cpu;
	if (h->key[PMS_SORT_DSO] || h->key[PMS_SORT_SYM])
		e->dso = k->f->entry_dso ? k->f->entry_dso : k->f->pub.dso;
	if (h->key[PMS_SORT_SYM]) {
		e->sym = k->f->pub.sym;
		e->addr = e->sym ? 0 : k->f->pub.addr;
		e->kind = k->kind_set ? k->kind : k->f->pub.kind;
		e->status = k->f->pub.status;
	}
	if (h->key[PMS_SORT_SRCLINE])
		e->srcline = k->f->srcline;
	e->parent = k->c->parent;
	if (h->opts.branch) {
		const uint32_t *ends = &h->seq[h->chains[k->c->chain].off]; /* [to, from] */

		if (h->key[PMS_SORT_DSO_FROM] || h->key[PMS_SORT_SYM_FROM])
			branch_ref(h, ends[1], h->key[PMS_SORT_SYM_FROM], &e->from);
		if (h->key[PMS_SORT_DSO_TO] || h->key[PMS_SORT_SYM_TO])
			branch_ref(h, ends[0], h->key[PMS_SORT_SYM_TO], &e->to);
		e->cycles = k->c->cycles;
		e->mispred = k->c->bflags & BFLAG_MISPRED;
		e->predicted = k->c->bflags & BFLAG_PREDICTED;
	}
}

static bool ref_eq(const struct pms_hist_frame_ref *a, const struct pms_hist_frame_ref *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr && a->kind == b->kind &&
	       a->unmapped == b->unmapped;
}

/*
 * perf keys an unresolved symbol by address alone: the level it prints is
 * not part of the key, so an address outside every map is one row whatever
 * level it was met at (the first one is shown).
 */
static bool level_free(const struct pms_hist_entry *e)
{
	return !e->sym && is_unknown(e->dso);
}

/* Same key fields (the event aside): strings are canonical, so pointers compare. */
static bool entry_key_eq(const struct pms_hist_entry *e, const struct pms_hist_entry *k)
{
	return e->comm == k->comm && e->pid == k->pid && e->tid == k->tid && e->cpu == k->cpu &&
	       e->dso == k->dso && e->sym == k->sym && e->addr == k->addr &&
	       (e->kind == k->kind || (level_free(e) && level_free(k))) &&
	       e->srcline == k->srcline && e->parent == k->parent && ref_eq(&e->from, &k->from) && ref_eq(&e->to, &k->to) &&
	       e->cycles == k->cycles && e->mispred == k->mispred && e->predicted == k->predicted;
}

static uint64_t ref_hash(uint64_t hv, const struct pms_hist_frame_ref *r)
{
	return hash_step(hash_step(hash_step(hv, (uintptr_t)r->dso), (uintptr_t)r->sym), r->addr + r->kind + r->unmapped);
}

static uint64_t entry_key_hash(const struct pms_hist_entry *k)
{
	uint64_t hv = hash_step(hash_step(hash_step((uintptr_t)k->comm, k->pid), k->tid), k->cpu);

	hv = hash_step(hash_step(hash_step(hash_step(hv, (uintptr_t)k->dso), (uintptr_t)k->sym), k->addr),
		       (uintptr_t)k->srcline + (level_free(k) ? 0 : k->kind) + (uintptr_t)k->parent);
	hv = ref_hash(ref_hash(hv, &k->from), &k->to);
	return hash_step(hv, (uint64_t)k->cycles << 2 | (uint64_t)k->mispred << 1 | k->predicted);
}

static bool entry_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist *h = c[0];
	const struct pms_hist_entry *k = c[1];
	const struct pms_hist_entry *e = &h->entries[idx];

	return e->priv_event == k->priv_event && entry_key_eq(e, k);
}

static int find_entry(struct pms_hist *h, const struct entry_key *key, uint32_t *idx)
{
	struct pms_hist_entry k;
	const void *ctx[2] = { h, &k };
	uint64_t hv;
	size_t slot;

	entry_fields(h, key, &k);
	hv = pms_hash__mix64(hash_step(entry_key_hash(&k), k.priv_event));
	if (pms_idtab__reserve(&h->entry_tab))
		return -ENOMEM;
	slot = pms_idtab__probe(&h->entry_tab, (uint32_t)hv, entry_eq, ctx);
	if (pms_idtab__used(&h->entry_tab, slot)) {
		*idx = pms_idtab__id(&h->entry_tab, slot);
		return 0;
	}
	if (pms_array__reserve(&h->entries, &h->entries_alloc, h->nr_entries + 1, sizeof(*h->entries)))
		return -ENOMEM;
	h->entries[h->nr_entries] = k;
	*idx = (uint32_t)h->nr_entries;
	pms_idtab__set(&h->entry_tab, slot, (uint32_t)hv, (uint32_t)h->nr_entries++);
	return 0;
}

/* Add path chain[from..] (callee order) or chain[from..0] (caller order) as function frames. */
static int add_tree_path(struct pms_hist *h, uint32_t eidx, const struct chain_rec *ch,
			 size_t from, bool toward_leaf, const struct class_rec *c, uint32_t *buf)
{
	const uint32_t *chain = &h->seq[ch->off];
	size_t len = ch->len, n = 0, first = ch->leaf_cut ? 1 : 0;

	if (!h->entries[eidx].cg_root) {
		uint32_t root = pms_cg__new_root(&h->cg);

		if (!root)
			return -ENOMEM;
		h->entries[eidx].cg_root = root;
	}
	if (toward_leaf) {
		for (size_t i = from + 1; i-- > first;)
			buf[n++] = h->frames[chain[i]].fn;
	} else {
		for (size_t i = from > first ? from : first; i < len; i++)
			buf[n++] = h->frames[chain[i]].fn;
	}
	/* the sampled frame as the chain recorded it (chain_rec.leaf_twin) */
	if (ch->leaf_twin && (toward_leaf || from == 0) && n)
		buf[toward_leaf ? n - 1 : 0] = h->frames[chain[len]].fn;
	return pms_cg__add_path(&h->cg, h->entries[eidx].cg_root, buf, n, c->period, c->samples);
}

/* An entry's tree is built only if it can print: its weight reaches the graph threshold. */
static bool wants_tree(const struct pms_hist *h, const struct pms_hist_entry *e)
{
	uint64_t w = h->opts.children ? e->children_period : e->self_period;

	return (double)w >= h->opts.cg_min_percent / 100.0 * (double)h->events[e->priv_event].pub.period;
}

/*
 * Pass 0 sums the weights of every entry the class touches; pass 1 adds the
 * class's paths to the trees of the entries that passed wants_tree().
 */
/*
 * The level perf gives each position of a chain in children mode. A frame
 * in a map gets its own; one outside every map keeps the level of the node
 * perf looked at before it (fill_callchain_info() leaves it as it was),
 * starting from the sample's. perf walks the chain from the outermost caller
 * in children mode unless told callee order.
 */
static void chain_levels(const struct pms_hist *h, const struct chain_rec *ch, uint8_t *levels)
{
	const uint32_t *chain = &h->seq[ch->off];
	size_t len = ch->len;
	bool from_root = h->opts.order != PMS_CG_CALLEE;
	enum pms_frame_kind level = h->frames[chain[0]].pub.kind;

	for (size_t n = 0; n < len; n++) {
		size_t i = from_root ? len - 1 - n : n;
		const struct frame_rec *f = &h->frames[i == 0 && ch->leaf_twin ? chain[len] : chain[i]];

		if (!is_unknown(f->pub.dso))
			level = f->pub.kind;
		levels[i] = (uint8_t)level;
	}
}

static int expand_class(struct pms_hist *h, const struct class_rec *c, uint32_t stamp, uint32_t *buf,
			int pass)
{
	const struct chain_rec *ch = &h->chains[c->chain];
	const uint32_t *chain = &h->seq[ch->off];
	size_t len = ch->len;
	bool caller = h->opts.order == PMS_CG_CALLER;
	struct entry_key key = { .event = c->event, .c = c };
	struct pms_hist_entry *e;
	uint32_t leaf;
	int err;

	key.f = &h->frames[chain[0]];
	if ((err = find_entry(h, &key, &leaf)))
		return err;
	e = &h->entries[leaf];
	e->priv_stamp = stamp;
	if (pass == 0) {
		enum pms_frame_kind leaf_kind = h->frames[chain[0]].pub.kind;

		e->self_period += c->period;
		e->self_samples += c->samples;
		if (leaf_kind == PMS_FRAME_KERNEL)
			e->self_period_sys += c->period;
		else if (leaf_kind == PMS_FRAME_USER || leaf_kind == PMS_FRAME_JIT)
			e->self_period_us += c->period;
		e->children_period += c->period;
		e->children_samples += c->samples;
		if (len > e->max_depth)
			e->max_depth = (uint32_t)len;
	} else if (wants_tree(h, e)) {
		/* the sampled entry shows the whole chain, in display order */
		err = caller ? add_tree_path(h, leaf, ch, len - 1, true, c, buf)
			     : add_tree_path(h, leaf, ch, 0, false, c, buf);
		if (err)
			return err;
	}
	if (!h->opts.children)
		return 0;
	chain_levels(h, ch, h->levels);
	key.kind_set = true;
	/* every other distinct entry once, first met in display order (perf's rule) */
	for (size_t n = 0; n < len; n++) {
		size_t i = caller ? len - 1 - n : n;
		size_t depth = caller ? i + 1 : len - i;
		uint32_t idx;

		/* the sampled frame's own entry is stamped already; its twin is not */
		key.f = &h->frames[i == 0 && ch->leaf_twin ? chain[len] : chain[i]];
		key.kind = (enum pms_frame_kind)h->levels[i];
		if ((err = find_entry(h, &key, &idx)))
			return err;
		e = &h->entries[idx];
		if (e->priv_stamp == stamp)
			continue;
		e->priv_stamp = stamp;
		if (pass == 0) {
			e->children_period += c->period;
			e->children_samples += c->samples;
			if (depth > e->max_depth)
				e->max_depth = (uint32_t)depth;
		} else if (wants_tree(h, e) && (err = add_tree_path(h, idx, ch, i, caller, c, buf))) {
			return err;
		}
	}
	return 0;
}

/* Branch mode: the class's one branch is one entry: weight only, no children, no tree. */
static int expand_branch_class(struct pms_hist *h, const struct class_rec *c)
{
	struct entry_key key = { .event = c->event, .c = c };
	struct pms_hist_entry *e;
	uint32_t idx;
	int err;

	key.f = &h->frames[h->seq[h->chains[c->chain].off]]; /* the target: what dso and sym name */
	if ((err = find_entry(h, &key, &idx)))
		return err;
	e = &h->entries[idx];
	e->self_period += c->period;
	e->self_samples += c->samples;
	e->children_period += c->period;
	e->children_samples += c->samples;
	return 0;
}

static bool sort_children;
static enum pms_cg_order sort_order;
static const struct pms_hist *sort_hist;

static const char *base_or_null(const char *dso)
{
	return dso ? base_name(dso) : NULL;
}

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return strcmp(a, b);
}

/* A branch end as perf's sym_from/sym_to sort it: resolved first, then by name, else by address. */
static int cmp_ref(const struct pms_hist_frame_ref *a, const struct pms_hist_frame_ref *b)
{
	int d;

	if (!a->sym != !b->sym)
		return a->sym ? -1 : 1;
	if (a->sym && (d = cmp_str(a->sym, b->sym)))
		return d;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int cmp_rest(const struct pms_hist_entry *a, const struct pms_hist_entry *b);

/*
 * Branch mode, at equal weight: the keys in their order, each the way perf's
 * sort function orders it (names and addresses ascending; dso_from/dso_to
 * descending and cycles descending, as perf's comparisons of those run the
 * other way round).
 */
static int cmp_branch_keys(const struct pms_hist_entry *a, const struct pms_hist_entry *b)
{
	const struct pms_hist_opts *o = &sort_hist->opts;
	int d = 0;

	for (size_t i = 0; i < o->nr_keys && !d; i++) {
		switch (o->keys[i]) {
		case PMS_SORT_COMM:
			d = cmp_str(a->comm, b->comm);
			break;
		case PMS_SORT_PID:
			d = a->pid < b->pid ? -1 : a->pid > b->pid;
			break;
		case PMS_SORT_TID:
			d = a->tid < b->tid ? -1 : a->tid > b->tid;
			break;
		case PMS_SORT_CPU:
			d = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
			break;
		case PMS_SORT_DSO:
			d = cmp_str(base_or_null(a->dso), base_or_null(b->dso));
			break;
		case PMS_SORT_SYM:
			d = !a->sym != !b->sym ? (a->sym ? -1 : 1) : cmp_str(a->sym, b->sym);
			if (!d)
				d = a->addr < b->addr ? -1 : a->addr > b->addr;
			break;
		case PMS_SORT_DSO_FROM:
		case PMS_SORT_DSO_TO: {
			const struct pms_hist_frame_ref *x = o->keys[i] == PMS_SORT_DSO_FROM ? &a->from : &a->to;
			const struct pms_hist_frame_ref *y = o->keys[i] == PMS_SORT_DSO_FROM ? &b->from : &b->to;

			/* perf: an end without a map first, then names descending */
			d = x->unmapped != y->unmapped ? (x->unmapped ? -1 : 1) :
			    -cmp_str(base_or_null(x->dso), base_or_null(y->dso));
			break;
		}
		case PMS_SORT_SYM_FROM:
			d = cmp_ref(&a->from, &b->from);
			break;
		case PMS_SORT_SYM_TO:
			d = cmp_ref(&a->to, &b->to);
			break;
		case PMS_SORT_CYCLES:
			d = a->cycles > b->cycles ? -1 : a->cycles < b->cycles;
			break;
		case PMS_SORT_MISPREDICT:
			d = (a->mispred - b->mispred) * 2 + (b->predicted - a->predicted);
			break;
		default:
			break;
		}
	}
	return d ? d : cmp_rest(a, b);
}

/* At equal weight: perf's tie-breaks, then the key fields (deterministic whatever the keys). */
static int cmp_ties(const struct pms_hist_entry *a, const struct pms_hist_entry *b)
{
	if (sort_hist && sort_hist->opts.branch)
		return cmp_branch_keys(a, b);
	/* perf puts a caller above its callee at equal children weight: the deeper tree first (caller order) */
	if (sort_children && sort_order != PMS_CG_NONE && a->max_depth != b->max_depth)
		return (a->max_depth > b->max_depth) == (sort_order == PMS_CG_CALLER) ? -1 : 1;
	/* perf's next column is Self, also descending */
	if (sort_children && a->self_period != b->self_period)
		return a->self_period > b->self_period ? -1 : 1;
	return cmp_rest(a, b);
}

/* The key fields, names ascending (dso by base name, as printed; perf's "[unknown]", no map, last). */
static int cmp_rest(const struct pms_hist_entry *a, const struct pms_hist_entry *b)
{
	int d;

	if ((d = cmp_str(a->comm, b->comm)))
		return d;
	if (is_unknown(a->dso) != is_unknown(b->dso))
		return is_unknown(a->dso) ? 1 : -1;
	if ((d = cmp_str(base_or_null(a->dso), base_or_null(b->dso))) ||
	    (d = cmp_str(a->sym, b->sym)) || (d = cmp_str(a->srcline, b->srcline)))
		return d;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if ((d = cmp_str(base_or_null(a->from.dso), base_or_null(b->from.dso))) || (d = cmp_ref(&a->from, &b->from)) ||
	    (d = cmp_str(base_or_null(a->to.dso), base_or_null(b->to.dso))) || (d = cmp_ref(&a->to, &b->to)))
		return d;
	if (a->cycles != b->cycles)
		return a->cycles < b->cycles ? -1 : 1;
	return (a->mispred - b->mispred) * 2 + (a->predicted - b->predicted);
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct pms_hist_entry *a = *(const struct pms_hist_entry *const *)pa;
	const struct pms_hist_entry *b = *(const struct pms_hist_entry *const *)pb;
	uint64_t x = sort_children ? a->children_period : a->self_period;
	uint64_t y = sort_children ? b->children_period : b->self_period;

	if (x != y)
		return x > y ? -1 : 1;
	return cmp_ties(a, b);
}

int pms_hist__finish(struct pms_hist *h, struct pms_resolver *resolver)
{
	uint32_t *buf = NULL;
	size_t max_len = 1;
	int err = 0;

	if (h->finished)
		return -EINVAL;
	h->finished = true;
	free(h->memo); /* frames change identity below */
	h->memo = NULL;
	if ((err = canonicalize(h)))
		goto out;
	if (h->by_addr) {
		size_t nr = h->nr_frames;

		/* a function-level twin of each frame keeps the trees per function */
		for (size_t i = 0; i < nr; i++) {
			struct pms_frame fr = { .ip = 0, .kind = h->frames[i].pub.kind, .res = h->frames[i].res };
			uint32_t fn;

			fr.res.dso = h->frames[i].pub.dso; /* canonical */
			fr.res.sym = h->frames[i].pub.sym;

			if ((err = compute_srcline(h, &h->frames[i], resolver)))
				goto out;
			if (!fr.res.sym)
				continue;
			if ((err = intern_frame(h, &fr, false, false, &fn)))
				goto out;
			h->frames[i].fn = fn;
		}
	}
	for (size_t i = 0; i < h->nr_chains; i++)
		if (h->chains[i].len > max_len)
			max_len = h->chains[i].len;
	buf = malloc(max_len * sizeof(*buf));
	h->levels = malloc(max_len);
	if (!buf || !h->levels) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < h->nr_classes; i++)
		if ((err = h->opts.branch ? expand_branch_class(h, &h->classes[i])
					  : expand_class(h, &h->classes[i], (uint32_t)i + 1, buf, 0)))
			goto out;
	if (h->opts.order != PMS_CG_NONE)
		for (size_t i = 0; i < h->nr_classes; i++)
			if ((err = expand_class(h, &h->classes[i], (uint32_t)(h->nr_classes + i + 1), buf, 1)))
				goto out;
	for (size_t i = 0; i < h->nr_events_alloc; i++)
		if (h->events[i].used)
			h->nr_used_events++;
	h->used = calloc(h->nr_used_events ? h->nr_used_events : 1, sizeof(*h->used));
	if (!h->used) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0, u = 0; i < h->nr_events_alloc; i++)
		if (h->events[i].used)
			h->used[u++] = &h->events[i].pub;
	for (size_t i = 0; i < h->nr_entries; i++)
		h->events[h->entries[i].priv_event].pub.nr_entries++;
	for (size_t i = 0; i < h->nr_events_alloc; i++) {
		struct pms_hist_event *ev = &h->events[i].pub;

		if (!h->events[i].used)
			continue;
		ev->entries = calloc(ev->nr_entries ? ev->nr_entries : 1, sizeof(*ev->entries));
		if (!ev->entries) {
			err = -ENOMEM;
			goto out;
		}
		ev->nr_entries = 0;
	}
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct pms_hist_event *ev = &h->events[h->entries[i].priv_event].pub;

		ev->entries[ev->nr_entries++] = &h->entries[i];
	}
	sort_children = h->opts.children;
	sort_order = h->opts.order;
	sort_hist = h;
	for (size_t i = 0; i < h->nr_events_alloc; i++)
		if (h->events[i].used)
			qsort(h->events[i].pub.entries, h->events[i].pub.nr_entries,
			      sizeof(*h->events[i].pub.entries), cmp_entries);
	pms_cg__sort(&h->cg);
out:
	free(buf);
	return err;
}

size_t pms_hist__nr_events(const struct pms_hist *h)
{
	return h->nr_used_events;
}

const struct pms_hist_event *pms_hist__event(const struct pms_hist *h, size_t i)
{
	return i < h->nr_used_events ? h->used[i] : NULL;
}

const struct pms_hist_event *pms_hist__event_of(const struct pms_hist *h, size_t attr_idx)
{
	if (!h->finished || attr_idx >= h->nr_events_alloc || !h->events[attr_idx].used)
		return NULL;
	return &h->events[attr_idx].pub;
}

uint64_t pms_hist__filtered(const struct pms_hist *h)
{
	return h->filtered;
}

const struct pms_cg *pms_hist__cg(const struct pms_hist *h)
{
	return &h->cg;
}

const struct pms_hist_frame *pms_hist__frame(const struct pms_hist *h, uint32_t id)
{
	return id < h->nr_frames ? &h->frames[id].pub : NULL;
}

/* ------------------------------------------------------------- groups -- */

static bool row_eq(const void *ctx, uint32_t idx)
{
	const void *const *c = ctx;
	const struct pms_hist_group *g = c[0];

	return entry_key_eq(g->rows[idx].key, c[1]);
}

static size_t sort_group_members;

static uint64_t member_weight(const struct pms_hist_group_row *r, size_t m, bool children)
{
	const struct pms_hist_entry *e = r->members[m];

	return !e ? 0 : children ? e->children_period : e->self_period;
}

/*
 * perf's column sorts on a group: Children compares the leader's alone (its
 * __hpp__sort_acc() is not group-aware), then puts a caller above its callee
 * (the leader's trees); Overhead/Self compares the leader's, then each
 * member's in group order; then the keys.
 */
static int cmp_rows(const void *pa, const void *pb)
{
	const struct pms_hist_group_row *a = pa, *b = pb;
	const struct pms_hist_entry *la = a->members[0], *lb = b->members[0];

	if (sort_children) {
		uint64_t x = member_weight(a, 0, true), y = member_weight(b, 0, true);

		if (x != y)
			return x > y ? -1 : 1;
		if (sort_order != PMS_CG_NONE && la && lb && la->max_depth != lb->max_depth)
			return (la->max_depth > lb->max_depth) == (sort_order == PMS_CG_CALLER) ? -1 : 1;
	}
	for (size_t m = 0; m < sort_group_members; m++) {
		uint64_t x = member_weight(a, m, false), y = member_weight(b, m, false);

		if (x != y)
			return x > y ? -1 : 1;
	}
	return sort_hist->opts.branch ? cmp_branch_keys(a->key, b->key) : cmp_rest(a->key, b->key);
}

struct sorted_row {
	struct pms_hist_group_row row;
	uint64_t weight;
	size_t pos;
};

static int cmp_sorted_rows(const void *a, const void *b)
{
	const struct sorted_row *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int pms_hist_group__sort_by_member(struct pms_hist_group *g, size_t member, bool children)
{
	struct sorted_row *v;

	if (member >= g->nr_members)
		member = 0;
	if (!g->nr_rows)
		return 0;
	v = calloc(g->nr_rows, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_rows; i++) {
		const struct pms_hist_entry *e = g->rows[i].members[member];

		v[i].row = g->rows[i];
		v[i].weight = !e ? 0 : children ? e->children_period : e->self_period;
		v[i].pos = i;
	}
	qsort(v, g->nr_rows, sizeof(*v), cmp_sorted_rows);
	for (size_t i = 0; i < g->nr_rows; i++)
		g->rows[i] = v[i].row;
	free(v);
	return 0;
}

void pms_hist_group__free(struct pms_hist_group *g)
{
	if (!g)
		return;
	free(g->priv_block);
	free(g->rows);
	free(g->events);
	free(g);
}

int pms_hist__group(const struct pms_hist *h, const size_t *attr_idx, size_t nr, struct pms_hist_group **out)
{
	struct pms_hist_group *g;
	const struct pms_hist_entry **block;
	struct pms_idtab tab = { 0 };
	size_t total = 0;
	int err = 0;

	*out = NULL;
	if (!h->finished || !nr || !attr_idx)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->nr_members = nr;
	g->events = calloc(nr, sizeof(*g->events));
	if (!g->events)
		goto nomem;
	for (size_t m = 0; m < nr; m++) {
		g->events[m] = pms_hist__event_of(h, attr_idx[m]);
		if (g->events[m])
			total += g->events[m]->nr_entries;
	}
	/* at most one row per entry; one block of member pointers for all of them */
	g->rows = calloc(total ? total : 1, sizeof(*g->rows));
	if (!g->rows || total > SIZE_MAX / sizeof(*block) / nr)
		goto nomem;
	block = calloc((total ? total : 1) * nr, sizeof(*block));
	if (!block)
		goto nomem;
	g->priv_block = block;
	for (size_t m = 0; m < nr; m++) {
		const struct pms_hist_event *ev = g->events[m];

		for (size_t i = 0; ev && i < ev->nr_entries; i++) {
			const struct pms_hist_entry *e = ev->entries[i];
			const void *ctx[2] = { g, e };
			uint32_t hash = (uint32_t)pms_hash__mix64(entry_key_hash(e));
			size_t slot;
			struct pms_hist_group_row *r;

			if (pms_idtab__reserve(&tab)) {
				err = -ENOMEM;
				goto out;
			}
			slot = pms_idtab__probe(&tab, hash, row_eq, ctx);
			if (pms_idtab__used(&tab, slot)) {
				r = &g->rows[pms_idtab__id(&tab, slot)];
			} else {
				r = &g->rows[g->nr_rows];
				r->members = block + g->nr_rows * nr;
				r->key = e;
				pms_idtab__set(&tab, slot, hash, (uint32_t)g->nr_rows++);
			}
			r->members[m] = e;
		}
	}
	sort_hist = h;
	sort_children = h->opts.children;
	sort_order = h->opts.order;
	sort_group_members = nr;
	qsort(g->rows, g->nr_rows, sizeof(*g->rows), cmp_rows);
out:
	pms_idtab__release(&tab);
	if (err) {
		pms_hist_group__free(g);
		return err;
	}
	*out = g;
	return 0;
nomem:
	pms_hist_group__free(g);
	return -ENOMEM;
}
