// SPDX-License-Identifier: MIT
// Processes and address spaces from a recording's events: perf's map splitting, fork, exit.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate/procs.h"
#include "util/array.h"
#include "util/hash.h"

void pms_vmas__init(struct pms_vmas *v, size_t elem_size)
{
	memset(v, 0, sizeof(*v));
	v->elem_size = elem_size < sizeof(struct pms_vma) ? sizeof(struct pms_vma) : elem_size;
}

void pms_vmas__release(struct pms_vmas *v)
{
	free(v->maps);
	v->maps = NULL;
	v->nr = v->cap = 0;
	v->gen++;
}

static inline const struct pms_vma *vma_at(const struct pms_vmas *v, size_t i)
{
	return (const struct pms_vma *)pms_vmas__at(v, i);
}

static int reserve(struct pms_vmas *v, size_t extra)
{
	return pms_array__reserve(&v->maps, &v->cap, v->nr + extra, v->elem_size);
}

const void *pms_vmas__find(const struct pms_vmas *v, uint64_t addr)
{
	size_t lo = 0, hi = v->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pms_vma *m = vma_at(v, mid);

		if (addr < m->start)
			hi = mid;
		else if (addr >= m->end)
			lo = mid + 1;
		else
			return m;
	}
	return NULL;
}

void pms_vmas__remove(struct pms_vmas *v, const void *elem)
{
	size_t i = (size_t)((const char *)elem - (const char *)v->maps) / v->elem_size;

	if (i >= v->nr)
		return;
	memmove(pms_vmas__at(v, i), pms_vmas__at(v, i + 1), (v->nr - i - 1) * v->elem_size);
	v->nr--;
	v->gen++;
}

int pms_vmas__insert(struct pms_vmas *v, const void *elem)
{
	const struct pms_vma *m = elem;
	size_t i, first, last, nnew, nold, es = v->elem_size;
	bool has_head = false, has_tail = false;

	if (m->end <= m->start)
		return 0;
	/* room for the head, the new map and the tail, and a scratch copy of each split part */
	if (reserve(v, 5))
		return -ENOMEM;
	/* first entry whose end > m->start */
	for (first = 0, last = v->nr; first < last;) {
		size_t mid = first + (last - first) / 2;

		if (vma_at(v, mid)->end <= m->start)
			first = mid + 1;
		else
			last = mid;
	}
	for (i = first; i < v->nr && vma_at(v, i)->start < m->end; i++)
		;
	last = i; /* [first, last) overlap m */
	/* the split parts, built in the scratch slots past the end before anything moves */
	{
		char *head = pms_vmas__at(v, v->nr + 3), *tail = pms_vmas__at(v, v->nr + 4);

		if (first < last) {
			if (vma_at(v, first)->start < m->start) {
				memcpy(head, pms_vmas__at(v, first), es);
				((struct pms_vma *)head)->end = m->start;
				has_head = true;
			}
			if (vma_at(v, last - 1)->end > m->end) {
				struct pms_vma *t = (struct pms_vma *)tail;

				memcpy(tail, pms_vmas__at(v, last - 1), es);
				t->pgoff += m->end - t->start;
				t->start = m->end;
				has_tail = true;
			}
		}
		nnew = (size_t)has_head + 1 + (size_t)has_tail;
		nold = last - first;
		/*
		 * Head or tail exist only beside an overlap (nold >= 1), so the tail
		 * of the array grows by at most 2 slots: into [nr, nr + 2), below the
		 * scratch copies, which stay intact.
		 */
		memmove(pms_vmas__at(v, first + nnew), pms_vmas__at(v, last), (v->nr - last) * es);
		v->nr = v->nr - nold + nnew;
		i = first;
		if (has_head)
			memcpy(pms_vmas__at(v, i++), head, es);
		memcpy(pms_vmas__at(v, i++), elem, es);
		if (has_tail)
			memcpy(pms_vmas__at(v, i), tail, es);
	}
	v->gen++;
	return 0;
}

void pms_vmas__clear(struct pms_vmas *v)
{
	v->nr = 0;
	v->gen++;
}

int pms_vmas__copy(struct pms_vmas *dst, const struct pms_vmas *src)
{
	dst->nr = 0;
	dst->gen++;
	if (!src->nr)
		return 0;
	if (reserve(dst, src->nr))
		return -ENOMEM;
	memcpy(dst->maps, src->maps, src->nr * src->elem_size);
	dst->nr = src->nr;
	return 0;
}

void pms_procs__init(struct pms_procs *t, size_t proc_size, size_t elem_size,
		     void (*release)(struct pms_proc *p))
{
	memset(t, 0, sizeof(*t));
	t->proc_size = proc_size < sizeof(struct pms_proc) ? sizeof(struct pms_proc) : proc_size;
	t->elem_size = elem_size;
	t->release = release;
}

void pms_procs__release(struct pms_procs *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		if (t->release)
			t->release(t->procs[i]);
		pms_vmas__release(&t->procs[i]->vmas);
		free(t->procs[i]);
	}
	free(t->procs);
	pms_idtab__release(&t->by_pid);
	memset(t, 0, sizeof(*t));
}

static uint32_t pid_hash(int32_t pid)
{
	return (uint32_t)pms_hash__mix64((uint64_t)(uint32_t)pid);
}

struct pms_proc *pms_procs__find(struct pms_procs *t, int32_t pid, bool create)
{
	uint32_t h = pid_hash(pid);
	struct pms_proc *p;
	size_t i;

	if (t->last && t->last->pid == pid)
		return t->last;
	if (t->by_pid.cap) {
		for (i = pms_idtab__start(&t->by_pid, h); pms_idtab__used(&t->by_pid, i);
		     i = pms_idtab__next(&t->by_pid, i)) {
			p = t->procs[pms_idtab__id(&t->by_pid, i)];
			if (pms_idtab__hash(&t->by_pid, i) == h && p->pid == pid)
				return t->last = p;
		}
	}
	if (!create)
		return NULL;
	if (pms_idtab__reserve(&t->by_pid) || pms_array__reserve(&t->procs, &t->cap, t->nr + 1, sizeof(*t->procs)))
		return NULL;
	p = calloc(1, t->proc_size);
	if (!p)
		return NULL;
	p->pid = pid;
	pms_vmas__init(&p->vmas, t->elem_size);
	for (i = pms_idtab__start(&t->by_pid, h); pms_idtab__used(&t->by_pid, i); i = pms_idtab__next(&t->by_pid, i))
		;
	pms_idtab__set(&t->by_pid, i, h, (uint32_t)t->nr);
	t->procs[t->nr++] = p;
	return t->last = p;
}

struct pms_proc *pms_procs__fork(struct pms_procs *t, int32_t pid, int32_t ppid, bool clone)
{
	struct pms_proc *parent, *child;

	errno = 0;
	if (pid == ppid)
		return NULL; /* a new thread shares its process's maps */
	parent = clone ? pms_procs__find(t, ppid, false) : NULL;
	child = pms_procs__find(t, pid, true);
	if (!child) {
		errno = ENOMEM;
		return NULL;
	}
	if (parent && parent != child) {
		if (pms_vmas__copy(&child->vmas, &parent->vmas)) {
			errno = ENOMEM;
			return NULL;
		}
	} else {
		pms_vmas__clear(&child->vmas);
	}
	return child;
}
