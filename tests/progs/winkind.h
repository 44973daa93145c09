/*
 * The kinds of window a passive-target test runs on, chosen by name:
 *
 *   allocate   MPI_Win_allocate
 *   shared     MPI_Win_allocate_shared
 *   allocmem   MPI_Win_create on MPI_Alloc_mem memory
 *   malloc     MPI_Win_create on malloc memory (nobody else can map it: the
 *              private path, served by the target's progress engine)
 *   dynamic    MPI_Win_create_dynamic with malloc memory attached
 *   mixed      MPI_Win_create, even ranks on MPI_Alloc_mem memory and odd ranks
 *              on malloc memory: targets of both paths in one window
 *
 * Each rank exposes `count` ints (in whole 64-byte lines), the first
 * `count` set to `fill` before anyone can reach them (in an exclusive
 * epoch on itself, then a barrier), so that a get in any later epoch sees
 * them (MPI 3.1, section 11.7).  wk_at() is
 * the target displacement of element i of rank t's memory: the attached
 * address on a dynamic window, the index (disp_unit sizeof(int))
 * otherwise.  Builds with any MPI.
 */
#ifndef WINKIND_H
#define WINKIND_H

#include "testutil.h"

enum wk_kind {
	WK_ALLOCATE, WK_SHARED, WK_ALLOCMEM, WK_MALLOC, WK_DYNAMIC, WK_MIXED, WK_NKINDS
};

static const char *const wk_names[WK_NKINDS] = {
	"allocate", "shared", "allocmem", "malloc", "dynamic", "mixed",
};

struct wk_win {
	MPI_Win win;
	enum wk_kind kind;
	int rank;		/* this rank in the window's communicator */
	int *base;		/* this rank's memory */
	MPI_Aint *addr;		/* dynamic: every rank's attached address */
};

/* The kind called `name`, or -1. */
static inline int wk_kind_of(const char *name)
{
	for (int k = 0; k < WK_NKINDS; k++)
		if (!strcmp(name, wk_names[k]))
			return k;
	return -1;
}

static inline MPI_Aint wk_at(const struct wk_win *w, int t, int i)
{
	if (w->kind == WK_DYNAMIC)
		return w->addr[t] + (MPI_Aint)i * (MPI_Aint)sizeof(int);
	return i;
}

static inline void wk_open(struct wk_win *w, enum wk_kind kind, int count, int fill,
			   MPI_Comm comm)
{
	/* whole 64-byte lines: other MPIs have been seen to hand out
	 * overlapping memory in MPI_Win_allocate for sizes that are not */
	MPI_Aint bytes = ((MPI_Aint)count * (MPI_Aint)sizeof(int) + 63) / 64 * 64;
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	w->kind = kind;
	w->rank = me;
	w->addr = NULL;
	switch (kind) {
	case WK_ALLOCATE:
		CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, comm, &w->base,
					   &w->win));
		break;
	case WK_SHARED:
		CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, comm,
						  &w->base, &w->win));
		break;
	case WK_ALLOCMEM:
		CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &w->base));
		CHECK_MPI(MPI_Win_create(w->base, bytes, sizeof(int), MPI_INFO_NULL, comm,
					 &w->win));
		break;
	case WK_MALLOC:
		w->base = malloc((size_t)bytes);
		CHECK(w->base);
		CHECK_MPI(MPI_Win_create(w->base, bytes, sizeof(int), MPI_INFO_NULL, comm,
					 &w->win));
		break;
	case WK_MIXED:
		if (me % 2)
			w->base = malloc((size_t)bytes);
		else
			CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &w->base));
		CHECK(w->base);
		CHECK_MPI(MPI_Win_create(w->base, bytes, sizeof(int), MPI_INFO_NULL, comm,
					 &w->win));
		break;
	default: {
		MPI_Aint mine;

		w->base = malloc((size_t)bytes);
		w->addr = malloc(sizeof(MPI_Aint) * (size_t)n);
		CHECK(w->base && w->addr);
		CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
		CHECK_MPI(MPI_Win_attach(w->win, w->base, bytes));
		CHECK_MPI(MPI_Get_address(w->base, &mine));
		CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, comm));
		break;
	}
	}
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w->win));
	for (int i = 0; i < count; i++)
		w->base[i] = fill;
	CHECK_MPI(MPI_Win_unlock(me, w->win));
	CHECK_MPI(MPI_Barrier(comm));
}

static inline void wk_close(struct wk_win *w)
{
	if (w->kind == WK_DYNAMIC)
		CHECK_MPI(MPI_Win_detach(w->win, w->base));
	CHECK_MPI(MPI_Win_free(&w->win));
	if (w->kind == WK_ALLOCMEM || (w->kind == WK_MIXED && w->rank % 2 == 0))
		CHECK_MPI(MPI_Free_mem(w->base));
	else if (w->kind == WK_MALLOC || w->kind == WK_DYNAMIC || w->kind == WK_MIXED)
		free(w->base);
	free(w->addr);
}

#endif
