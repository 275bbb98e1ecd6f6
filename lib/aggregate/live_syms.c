// SPDX-License-Identifier: MIT
// Live processes' stacks symbolized: image snapshots taken while the process lives, frames resolved once.
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate/live_syms.h"
#include "symbol/dso.h"
#include "symbol/maps.h"
#include "symbol/unwind.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/idtab.h"
#include "util/strbuf.h"

struct image {
	struct pms_live_image pub;
	uint32_t serial;            /* the frame cache's key: 1, 2, ... (0 is the kernel) */
	struct pms_maps *maps;
	struct pms_unwinder *unw;
	int unw_err;
	char *root;
	uint8_t (*build_ids)[PMS_BUILD_ID_MAX];
	size_t *build_id_sizes;
	bool released;              /* its process is gone: only the shell is kept (pointers stay valid) */
	bool forgettable;           /* released at an earlier __release_gone(): the next one frees the shell */
};

/* A file's build-id, valid while the file is the same one (a rebuilt or redeployed binary is read again). */
struct bid_entry {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t size_bytes;
	int64_t mtime_ns;
	uint8_t id[PMS_BUILD_ID_MAX];
	size_t size;
};

/* A cached frame: (image serial, ip) -> frame id in the current tree. */
struct cached_frame {
	uint64_t key_image, ip;
	uint32_t frame;
};

struct pms_live_syms {
	struct pms_resolver *res;
	struct image **images;      /* by serial - 1 */
	size_t nr_images, images_alloc;
	struct pms_idtab images_by_key; /* (tgid, exec_id) -> serial - 1 */
	struct bid_entry *bids;
	size_t nr_bids, bids_alloc;
	struct pms_idtab bids_by_path;
	struct cached_frame *fc;
	size_t nr_fc, fc_alloc;
	struct pms_idtab fc_by_key; /* (image serial, ip) -> index in fc */
	struct pms_live_syms_stats stats;
	char self_mnt_ns[64];       /* our mount namespace ("mnt:[4026531841]"), read once */
	dev_t self_root_dev;
	ino_t self_root_ino;
	bool self_known;
	pms_live_syms_access_fn access;
	void *access_arg;
};

static void held_counts(struct pms_live_syms *ls);

struct pms_live_syms *pms_live_syms__new(struct pms_resolver *res)
{
	struct pms_live_syms *ls = calloc(1, sizeof(*ls));

	if (!ls)
		return NULL;
	ls->res = res;
	return ls;
}

static void image_release(struct image *im)
{
	pms_unwinder__free(im->unw);
	pms_maps__free(im->maps);
	free(im->root);
	free(im->build_ids);
	free(im->build_id_sizes);
	im->unw = NULL;
	im->maps = NULL;
	im->root = NULL;
	im->build_ids = NULL;
	im->build_id_sizes = NULL;
	im->pub.maps = NULL;
	im->pub.root = NULL;
	im->released = true;
}

static void image_free(struct image *im)
{
	image_release(im);
	free(im);
}

void pms_live_syms__free(struct pms_live_syms *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->nr_images; i++)
		image_free(ls->images[i]);
	free(ls->images);
	pms_idtab__release(&ls->images_by_key);
	pms_idtab__release(&ls->fc_by_key);
	for (size_t i = 0; i < ls->nr_bids; i++)
		free(ls->bids[i].path);
	free(ls->bids);
	pms_idtab__release(&ls->bids_by_path);
	free(ls->fc);
	free(ls);
}

/* Where to open a mapping's file from here (malloc'd; NULL without memory). */
static char *object_path(const struct image *im, const struct pms_map *m)
{
	struct strbuf sb = STRBUF_INIT;

	if (im->root)
		strbuf_adds(&sb, im->root);
	strbuf_adds(&sb, m->path);
	if (sb.oom) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* The build-id of the file at path, read once per path. NULL without memory. */
/*
 * Build-ids by path: most processes map the same few objects. Bounded: a
 * host running containers sees a new /proc/PID/root/... path per process,
 * so past PMS_LIVE_MAX_BUILD_IDS paths the table starts over.
 */
#define PMS_LIVE_MAX_BUILD_IDS 4096

static void bids_clear(struct pms_live_syms *ls)
{
	for (size_t i = 0; i < ls->nr_bids; i++)
		free(ls->bids[i].path);
	ls->nr_bids = 0;
	pms_idtab__release(&ls->bids_by_path);
	held_counts(ls);
}

static void bid_read(struct bid_entry *b, const struct stat *st)
{
	int n = pms_build_id__read(b->path, b->id, sizeof(b->id));

	b->size = n > 0 ? (size_t)n : 0;
	b->dev = st ? st->st_dev : 0;
	b->ino = st ? st->st_ino : 0;
	b->size_bytes = st ? st->st_size : -1;
	b->mtime_ns = st ? (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec : -1;
}

static const struct bid_entry *build_id_of(struct pms_live_syms *ls, const char *path)
{
	uint32_t h = (uint32_t)pms_hash__str(PMS_HASH_SEED, path);
	struct stat st;
	bool have_st = stat(path, &st) == 0;
	struct bid_entry *b;
	size_t slot;

	if (ls->nr_bids >= PMS_LIVE_MAX_BUILD_IDS)
		bids_clear(ls);
	if (pms_idtab__reserve(&ls->bids_by_path))
		return NULL;
	for (slot = pms_idtab__start(&ls->bids_by_path, h); pms_idtab__used(&ls->bids_by_path, slot);
	     slot = pms_idtab__next(&ls->bids_by_path, slot)) {
		b = &ls->bids[pms_idtab__id(&ls->bids_by_path, slot)];
		if (pms_idtab__hash(&ls->bids_by_path, slot) != h || strcmp(b->path, path))
			continue;
		if (have_st && (b->dev != st.st_dev || b->ino != st.st_ino || b->size_bytes != st.st_size ||
				b->mtime_ns != (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec))
			bid_read(b, &st); /* replaced since: another file now */
		return b;
	}
	if (pms_array__reserve(&ls->bids, &ls->bids_alloc, ls->nr_bids + 1, sizeof(*ls->bids)))
		return NULL;
	b = &ls->bids[ls->nr_bids];
	b->path = strdup(path);
	if (!b->path)
		return NULL;
	bid_read(b, have_st ? &st : NULL);
	pms_idtab__set(&ls->bids_by_path, slot, h, (uint32_t)ls->nr_bids++);
	held_counts(ls);
	return b;
}

/*
 * Whether tgid's paths mean other files than ours: another mount namespace
 * (a container) or another root (chroot). Then its files are opened through
 * /proc/PID/root, which only lives as long as the process.
 */
static bool sees_other_files(struct pms_live_syms *ls, uint32_t tgid)
{
	char path[64], ns[64];
	struct stat st;
	ssize_t n;

	if (!ls->self_known) {
		struct stat root;

		n = readlink("/proc/self/ns/mnt", ls->self_mnt_ns, sizeof(ls->self_mnt_ns) - 1);
		ls->self_mnt_ns[n > 0 ? n : 0] = 0;
		if (!stat("/", &root)) {
			ls->self_root_dev = root.st_dev;
			ls->self_root_ino = root.st_ino;
		}
		ls->self_known = true;
	}
	snprintf(path, sizeof(path), "/proc/%u/ns/mnt", tgid);
	n = readlink(path, ns, sizeof(ns) - 1);
	if (n > 0) {
		ns[n] = 0;
		if (strcmp(ns, ls->self_mnt_ns))
			return true;
	}
	snprintf(path, sizeof(path), "/proc/%u/root/", tgid);
	return !stat(path, &st) && (st.st_dev != ls->self_root_dev || st.st_ino != ls->self_root_ino);
}

/* The maps' build-ids, and the files of a process that sees other files opened while it exists. */
static int read_image(struct pms_live_syms *ls, struct image *im)
{
	size_t nr = im->maps->nr ? im->maps->nr : 1;

	im->build_ids = calloc(nr, sizeof(*im->build_ids));
	im->build_id_sizes = calloc(nr, sizeof(*im->build_id_sizes));
	if (!im->build_ids || !im->build_id_sizes)
		return -ENOMEM;
	if (sees_other_files(ls, im->pub.tgid)) {
		char root[64];

		snprintf(root, sizeof(root), "/proc/%u/root", im->pub.tgid);
		im->root = strdup(root);
		if (!im->root)
			return -ENOMEM;
		im->pub.root = im->root;
		ls->stats.foreign++;
	}
	for (size_t i = 0; i < im->maps->nr; i++) {
		const struct pms_map *m = &im->maps->maps[i];
		const struct bid_entry *b;
		char *file;

		if (!pms_map__is_exec(m) || m->anon || m->special || m->path[0] != '/')
			continue;
		file = object_path(im, m);
		b = file ? build_id_of(ls, file) : NULL;
		if (!b) {
			free(file);
			return -ENOMEM;
		}
		memcpy(im->build_ids[i], b->id, b->size);
		im->build_id_sizes[i] = b->size;
		if (im->root && b->size) {
			/* open it now, while /proc/PID/root exists: the resolver keeps it open */
			struct pms_map_ref ref = {
				.path = file, .start = m->start, .pgoff = m->pgoff, .pid = (pid_t)im->pub.tgid,
				.build_id = b->id, .build_id_size = b->size,
			};
			struct pms_resolved r;

			if (pms_resolver__user(ls->res, &ref, m->start, &r)) {
				free(file);
				return -ENOMEM;
			}
		}
		free(file);
	}
	return 0;
}

static uint32_t image_hash(uint32_t tgid, uint32_t exec_id)
{
	return (uint32_t)pms_hash__mix64(((uint64_t)tgid << 32) | exec_id);
}

/* The known image, or a new one read now (*fresh then says whether its maps could be read). */
static struct image *lookup(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id, int *fresh)
{
	struct pms_idtab *t = &ls->images_by_key;
	uint32_t h = image_hash(tgid, exec_id);
	struct image *im;
	size_t i;

	*fresh = -1;
	if (pms_idtab__reserve(t) ||
	    pms_array__reserve(&ls->images, &ls->images_alloc, ls->nr_images + 1, sizeof(*ls->images)))
		return NULL;
	for (i = pms_idtab__start(t, h); pms_idtab__used(t, i); i = pms_idtab__next(t, i)) {
		im = ls->images[pms_idtab__id(t, i)];
		if (pms_idtab__hash(t, i) == h && im->pub.tgid == tgid && im->pub.exec_id == exec_id)
			return im;
	}
	im = calloc(1, sizeof(*im));
	if (!im)
		return NULL;
	im->pub.tgid = tgid;
	im->pub.exec_id = exec_id;
	im->serial = (uint32_t)ls->nr_images + 1;
	if (ls->access)
		ls->access(ls->access_arg, true);
	if (pms_maps__read_pid((pid_t)tgid, &im->maps)) {
		im->maps = NULL;
	} else if (read_image(ls, im)) {
		if (ls->access)
			ls->access(ls->access_arg, false);
		image_free(im);
		errno = ENOMEM;
		return NULL;
	}
	if (ls->access)
		ls->access(ls->access_arg, false);
	im->pub.maps = im->maps;
	pms_idtab__set(t, i, h, (uint32_t)ls->nr_images);
	ls->images[ls->nr_images++] = im;
	held_counts(ls);
	*fresh = im->maps != NULL;
	return im;
}

/* The image, its reading counted as *read_now (or as missed when its maps were gone). */
static struct pms_live_image *counted(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id,
				      uint64_t *read_now)
{
	int fresh;
	struct image *im = lookup(ls, tgid, exec_id, &fresh);

	if (fresh == 1)
		(*read_now)++;
	else if (fresh == 0)
		ls->stats.missed++;
	return im ? &im->pub : NULL;
}

/* The image (tgid, exec_id) if it is known, without reading it. */
static struct image *find(const struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id)
{
	const struct pms_idtab *t = &ls->images_by_key;
	uint32_t h = image_hash(tgid, exec_id);

	if (!t->cap)
		return NULL;
	for (size_t i = pms_idtab__start(t, h); pms_idtab__used(t, i); i = pms_idtab__next(t, i)) {
		struct image *im = ls->images[pms_idtab__id(t, i)];

		if (pms_idtab__hash(t, i) == h && im->pub.tgid == tgid && im->pub.exec_id == exec_id)
			return im;
	}
	return NULL;
}

/*
 * Free the shells released at an earlier call: a caller's image pointers last
 * one cut, so after a whole cut no one holds them. Serials and the table are
 * renumbered, and the frame cache (keyed by serial) starts over. Without this
 * a long run's table grows by one shell per process that ever ran.
 */
static void forget_shells(struct pms_live_syms *ls)
{
	struct pms_idtab t = { 0 };
	size_t kept = 0, gone = 0;

	for (size_t i = 0; i < ls->nr_images; i++)
		gone += ls->images[i]->forgettable;
	if (!gone)
		return;
	for (size_t i = 0; i < ls->nr_images; i++) {
		struct image *im = ls->images[i];

		if (im->forgettable) {
			image_free(im);
			continue;
		}
		im->serial = (uint32_t)kept + 1;
		ls->images[kept++] = im;
	}
	ls->nr_images = kept;
	ls->stats.forgotten += gone;
	held_counts(ls);
	for (size_t i = 0; i < kept; i++) {
		uint32_t h = image_hash(ls->images[i]->pub.tgid, ls->images[i]->pub.exec_id);
		size_t slot;

		if (pms_idtab__reserve(&t)) {
			/* no memory for the new index: keep the old one, shells and all (still correct) */
			pms_idtab__release(&t);
			return;
		}
		for (slot = pms_idtab__start(&t, h); pms_idtab__used(&t, slot); slot = pms_idtab__next(&t, slot))
			;
		pms_idtab__set(&t, slot, h, (uint32_t)i);
	}
	pms_idtab__release(&ls->images_by_key);
	ls->images_by_key = t;
	pms_live_syms__new_tree(ls);
}

size_t pms_live_syms__release_gone(struct pms_live_syms *ls)
{
	size_t n = 0;

	forget_shells(ls);
	for (size_t i = 0; i < ls->nr_images; i++)
		if (ls->images[i]->released)
			ls->images[i]->forgettable = true;

	for (size_t i = 0; i < ls->nr_images; i++) {
		struct image *im = ls->images[i];

		bool gone;

		if (im->released)
			continue;
		/* replaced by an exec, or the process has exited */
		gone = find(ls, im->pub.tgid, im->pub.exec_id + 1) || (kill((pid_t)im->pub.tgid, 0) && errno == ESRCH);
		if (gone && !im->maps) {
			/* missed (gone before it could be read): nothing to let go, only its shell to forget */
			im->released = true;
		} else if (gone) {
			image_release(im);
			n++;
		}
	}
	ls->stats.released += n;
	return n;
}

struct pms_live_image *pms_live_syms__announce(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id)
{
	return counted(ls, tgid, exec_id, &ls->stats.snapshots);
}

struct pms_live_image *pms_live_syms__image(struct pms_live_syms *ls, uint32_t tgid, uint32_t exec_id)
{
	/* no announcement read (its ring was full, or the sample came first): read now */
	return counted(ls, tgid, exec_id, &ls->stats.late);
}

static struct image *image_of(struct pms_live_image *img)
{
	return (struct image *)((char *)img - offsetof(struct image, pub));
}

/* A frame-cache probe: where (image, ip) is, or the empty slot it would go to. */
struct fc_probe {
	uint64_t key_image, ip;
	uint32_t hash;
	size_t slot;
};

/* The cached frame id of (image, ip), or -1 with *p ready for fc_add(); -ENOMEM. */
static int64_t fc_find(struct pms_live_syms *ls, uint64_t key_image, uint64_t ip, struct fc_probe *p)
{
	struct pms_idtab *t = &ls->fc_by_key;

	p->key_image = key_image;
	p->ip = ip;
	p->hash = (uint32_t)pms_hash__mix64(ip ^ (key_image * 0x9e3779b97f4a7c15ULL));
	if (pms_idtab__reserve(t) || pms_array__reserve(&ls->fc, &ls->fc_alloc, ls->nr_fc + 1, sizeof(*ls->fc)))
		return -ENOMEM;
	for (p->slot = pms_idtab__start(t, p->hash); pms_idtab__used(t, p->slot); p->slot = pms_idtab__next(t, p->slot)) {
		const struct cached_frame *c = &ls->fc[pms_idtab__id(t, p->slot)];

		if (pms_idtab__hash(t, p->slot) == p->hash && c->key_image == key_image && c->ip == ip)
			return c->frame;
	}
	return -1;
}

/* After fc_find() missed, with nothing added to the cache since. */
static void fc_add(struct pms_live_syms *ls, const struct fc_probe *p, uint32_t frame)
{
	pms_idtab__set(&ls->fc_by_key, p->slot, p->hash, (uint32_t)ls->nr_fc);
	ls->fc[ls->nr_fc++] = (struct cached_frame){ .key_image = p->key_image, .ip = p->ip, .frame = frame };
}

void pms_live_syms__new_tree(struct pms_live_syms *ls)
{
	pms_idtab__release(&ls->fc_by_key);
	ls->nr_fc = 0;
}

static int resolve(struct pms_live_syms *ls, struct image *im, uint64_t ip, bool leaf, struct pms_resolved *r,
		   const struct pms_map **mout, char **file)
{
	const struct pms_map *m = im && im->maps ? pms_maps__find(im->maps, leaf ? ip : ip - 1) : NULL;
	size_t mi;

	*file = NULL;
	*mout = m;
	memset(r, 0, sizeof(*r));
	if (!m)
		return 0;
	if (im->root && m->path[0] == '/' && !(*file = object_path(im, m)))
		return -ENOMEM;
	mi = (size_t)(m - im->maps->maps);
	{
		struct pms_map_ref ref = {
			.path = *file ? *file : m->path, .start = m->start, .pgoff = m->pgoff, .pid = (pid_t)im->pub.tgid,
			.build_id = im->build_id_sizes[mi] ? im->build_ids[mi] : NULL,
			.build_id_size = im->build_id_sizes[mi],
		};

		return pms_resolver__user(ls->res, &ref, leaf ? ip : ip - 1, r);
	}
}

int pms_live_syms__resolve_user(struct pms_live_syms *ls, struct pms_live_image *img, uint64_t ip, bool leaf,
				struct pms_resolved *r, const struct pms_map **map)
{
	char *file;
	int err = resolve(ls, img ? image_of(img) : NULL, ip, leaf, r, map, &file);

	free(file);
	return err;
}

static int intern(struct pms_stacks *st, const struct pms_stack_frame *f, uint32_t *frame)
{
	int64_t id = pms_stacks__intern(st, f);

	if (id < 0)
		return (int)id;
	*frame = (uint32_t)id;
	return 0;
}

int pms_live_syms__user_frame(struct pms_live_syms *ls, struct pms_stacks *st, struct pms_live_image *img,
			      uint64_t ip, bool leaf, uint32_t *frame)
{
	struct image *im = img ? image_of(img) : NULL;
	struct pms_stack_frame f = { .kind = PMS_STACK_UNKNOWN, .name = "[unknown]" };
	const struct pms_map *m;
	char hex[32], *file = NULL;
	struct pms_resolved r;
	struct fc_probe probe;
	int64_t cached = fc_find(ls, im ? im->serial : UINT32_MAX, ip, &probe);
	int err;

	if (cached < -1)
		return (int)cached;
	if (cached >= 0) {
		*frame = (uint32_t)cached;
		return 0;
	}
	err = resolve(ls, im, ip, leaf, &r, &m, &file);
	if (!err && m) {
		size_t mi = (size_t)(m - im->maps->maps);

		/* the name the process knows the file by, not our way in */
		f.dso = file && r.dso && !strcmp(r.dso, file) ? m->path : r.dso;
		if (r.status == PMS_RES_OK) {
			f.name = r.sym;
			f.kind = r.dso && !strcmp(r.dso, "[jit]") ? PMS_STACK_JIT : PMS_STACK_USER;
		} else {
			snprintf(hex, sizeof(hex), "0x%" PRIx64, ip);
			f.name = hex;
		}
		if (im->build_id_sizes[mi] && m->path[0] == '/' && !pms_stacks__build_id(st, m->path)) {
			char bh[PMS_BUILD_ID_HEX_MAX];

			pms_build_id__to_hex(im->build_ids[mi], im->build_id_sizes[mi], bh, sizeof(bh));
			err = pms_stacks__set_build_id(st, m->path, bh);
		}
	}
	if (!err)
		err = intern(st, &f, frame);
	free(file);
	if (err)
		return err;
	fc_add(ls, &probe, *frame);
	return 0;
}

int pms_live_syms__kernel_frame(struct pms_live_syms *ls, struct pms_stacks *st, uint64_t ip, uint32_t *frame)
{
	struct pms_stack_frame f = { .kind = PMS_STACK_KERNEL };
	struct pms_resolved r;
	struct fc_probe probe;
	int64_t cached = fc_find(ls, 0, ip, &probe);
	char hex[32];
	int err;

	if (cached < -1)
		return (int)cached;
	if (cached >= 0) {
		*frame = (uint32_t)cached;
		return 0;
	}
	err = pms_resolver__kernel(ls->res, ip, &r);
	if (err)
		return err;
	f.dso = r.dso ? r.dso : "[kernel.kallsyms]";
	if (r.status == PMS_RES_OK) {
		f.name = r.sym;
	} else {
		snprintf(hex, sizeof(hex), "0x%" PRIx64, ip);
		f.name = hex;
		f.kind = PMS_STACK_UNKNOWN;
	}
	err = intern(st, &f, frame);
	if (err)
		return err;
	fc_add(ls, &probe, *frame);
	return 0;
}

struct pms_unwinder *pms_live_syms__unwinder(struct pms_live_syms *ls, struct pms_live_image *img)
{
	struct image *im = image_of(img);

	(void)ls;
	if (im->maps && !im->unw && !im->unw_err)
		im->unw_err = pms_unwinder__new(im->maps, &im->unw);
	return im->unw;
}

const struct pms_live_syms_stats *pms_live_syms__stats(const struct pms_live_syms *ls)
{
	return &ls->stats;
}

/* The held counts of the stats follow the tables. */
static void held_counts(struct pms_live_syms *ls)
{
	ls->stats.images = ls->nr_images;
	ls->stats.build_ids = ls->nr_bids;
}

void pms_live_syms__set_access(struct pms_live_syms *ls, pms_live_syms_access_fn fn, void *arg)
{
	ls->access = fn;
	ls->access_arg = arg;
}
