/*
 * The path of dynamic windows (struct win_ops, win.h): each operation goes
 * the way of the attached memory its target range lies in, as the
 * target's table says (win_dyn.h).
 *
 *   - One piece of memory mapped here (MPI_Alloc_mem memory, one region or
 *     several end to end in one segment): the direct path, rma_direct.c.
 *   - Memory only the target reaches (malloc, stack), one region or
 *     several end to end: the private path, rma_pkt.h, with the range's
 *     address as its offset.
 *   - Regions end to end in several segments mapped here (each MPI_Alloc_mem
 *     is a segment of its own): done here in pieces, a put or a get per
 *     piece of each run of the target type, an accumulate per run of
 *     whole elements inside a piece and, for an element whose bytes lie in
 *     two pieces, a read-modify-write of a copy under its stripe lock (the
 *     key is its address, as on the direct path, so it stays atomic
 *     against every other accumulate on it).  A compare-and-swap cannot
 *     straddle: segments start and end on page boundaries, so its element
 *     would be misaligned, which is an error anyway.
 *   - Shared and private memory end to end: the whole operation goes to the
 *     target's engine, which reaches all of its own memory and applies
 *     accumulates there under the same stripe locks (rma_pkt_target.c).
 *     Accumulates to the same element from the same origin are ordered
 *     (MPI 3.1, section 11.7.2), so until this origin finds the engine's
 *     queue for that target empty again, its accumulates to the target's
 *     shared memory go that way too, behind the one already queued.
 *
 * The target's passive-target lock is the direct path's for every region;
 * operations on private memory need none of their own, but are applied
 * before it goes.
 */
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "datatype.h"
#include "errhandler.h"
#include "rma.h"
#include "rma_pkt.h"
#include "win.h"
#include "win_dyn.h"

static int dyn_locate(struct win *w, int target, MPI_Aint disp, MPI_Aint lo,
		      MPI_Aint hi, struct rma_args *a)
{
	const struct win_dyn_span *s;
	MPI_Aint first;

	if (hi <= lo) {
		a->taddr = NULL;	/* nothing is touched */
		return MPI_SUCCESS;
	}
	/* disp is an address in the target, from MPI_Get_address */
	if (__builtin_add_overflow(disp, lo, &first) ||
	    win_dyn_lookup(w, target, (uint64_t)first, (uint64_t)(hi - lo), &s) < 0)
		return MPI_ERR_RMA_RANGE;
	if (s->priv == 0 && s->n == 1) {
		/* the datatype's runs count from disp's byte */
		a->taddr = s->p[0].at - lo;
		return MPI_SUCCESS;
	}
	if (s->priv) {
		a->priv = 1;
		a->toff = (uint64_t)disp;
		if (s->priv < s->n)
			win_dyn_mixed(w)[target] = 1;
		return MPI_SUCCESS;
	}
	a->span = s;
	return MPI_SUCCESS;
}

/* The piece of a->span holding target address `addr`, and the bytes from
 * there to its end. */
static char *span_at(const struct rma_args *a, uint64_t addr, uint64_t *avail)
{
	const struct win_dyn_piece *p = a->span->p;
	int lo = 0, hi = a->span->n;

	/* the last piece starting at or below addr (the lookup covered the
	 * whole range, so there is one and it holds addr) */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (p[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*avail = p[lo].addr + p[lo].len - addr;
	return p[lo].at + (addr - p[lo].addr);
}

/* Put (to_target) or get over several pieces: each target run, piece by
 * piece, to or from its place in the origin's packed stream. */
static int span_copy(struct rma_args *a, void *obuf, int to_target)
{
	const struct datatype *t = a->tdt;

	for (MPI_Count e = 0; e < a->tcount; e++)
		for (int b = 0; b < t->nblocks; b++) {
			uint64_t addr = (uint64_t)(a->tdisp + e * t->extent + t->blocks[b].disp);
			size_t pos = (size_t)(e * t->size + t->blocks[b].pos);
			size_t left = (size_t)t->blocks[b].len;

			while (left) {
				uint64_t avail;
				char *here = span_at(a, addr, &avail);
				size_t n = avail < left ? (size_t)avail : left;

				if (to_target)
					dt_pack(a->odt, obuf, pos, here, n);
				else
					dt_unpack(a->odt, obuf, pos, here, n);
				addr += n;
				pos += n;
				left -= n;
			}
		}
	if (to_target && a->bytes >= SHM_NT_MIN)	/* non-temporal stores (shm/atomic.h) */
		shm_nt_fence();
	return MPI_SUCCESS;
}

/* Copy w bytes between target address addr and buf, across pieces. */
static void span_move(const struct rma_args *a, uint64_t addr, char *buf, size_t w,
		      int to_target)
{
	while (w) {
		uint64_t avail;
		char *here = span_at(a, addr, &avail);
		size_t n = avail < w ? (size_t)avail : w;

		if (to_target)
			memcpy(here, buf, n);
		else
			memcpy(buf, here, n);
		addr += n;
		buf += n;
		w -= n;
	}
}

/* One run of an accumulate over several pieces: the elements inside one
 * piece as on the direct path, an element across two through a copy. */
static void span_run(const struct rma_acc *acc, const struct rma_args *a, const char *in,
		     MPI_Aint at, size_t n, size_t w, char *old)
{
	uint64_t addr = (uint64_t)(a->tdisp + at);

	while (n) {
		uint64_t avail;
		char *here = span_at(a, addr, &avail);
		size_t whole = avail / w < n ? (size_t)(avail / w) : n;

		if (whole) {
			rma_acc_run(acc, in, here, whole, w, old, addr);
		} else {
			/* its bytes in two pieces: atomic under its stripe */
			char tmp[64] __attribute__((aligned(16)));
			unsigned mask;

			whole = 1;
			mask = rma_acc_lock(acc, addr, addr);
			span_move(a, addr, tmp, w, 0);
			rma_acc_apply(acc, in, tmp, 1, w, old);
			if (acc->how != ACC_LOAD)
				span_move(a, addr, tmp, w, 1);
			rma_acc_unlock(acc, mask);
		}
		addr += whole * w;
		in += whole * w;
		if (old)
			old += whole * w;
		n -= whole;
	}
}

static const struct win_ops *dyn_path(const struct rma_args *a)
{
	return a->priv ? &win_ops_private : &win_ops_direct;
}

static int dyn_copy(struct rma_args *a, void *obuf, int to_target)
{
	if (a->span)
		return span_copy(a, obuf, to_target);
	return dyn_path(a)->copy(a, obuf, to_target);
}

/*
 * An accumulate or compare-and-swap to shared memory of the target, while
 * one that also touches it may be queued for the target's engine: sent
 * behind it (see above).  The queue found empty, it goes directly again.
 */
static void dyn_order(struct rma_args *a)
{
	uint8_t *mixed = win_dyn_mixed(a->w);

	if (a->priv || !mixed[a->target])
		return;
	if (!rma_pkt_queued(a->w, a->target)) {
		mixed[a->target] = 0;
		return;
	}
	a->priv = 1;
	a->span = NULL;
	a->toff = (uint64_t)a->tdisp;
}

static int dyn_acc(const char *call, struct rma_args *a, const struct rma_accargs *x)
{
	dyn_order(a);
	if (a->span)
		return rma_direct_acc_runs(call, a, x, span_run);
	return dyn_path(a)->acc(call, a, x);
}

static int dyn_cas(const char *call, struct rma_args *a, const void *compare,
		   void *result)
{
	dyn_order(a);
	if (a->span)
		return win_err(a->w, call, MPI_ERR_RMA_RANGE, "target_disp",
			       "the element at 0x%lx lies in two segments, so it is not "
			       "aligned to its size (%ld bytes)", (unsigned long)a->tdisp,
			       (long)a->odt->size);
	return dyn_path(a)->cas(call, a, compare, result);
}

/* Operations on private memory are applied before the lock goes. */
static void dyn_unlock(struct win *w, int target)
{
	win_ops_private.flush(w, target, CALL_WIN_UNLOCK);
	rma_direct_unlock(w, target);
}

static void dyn_flush(struct win *w, int target, enum call_id call)
{
	win_ops_private.flush(w, target, call);
	rma_direct_flush(w, target, call);
}

const struct win_ops win_ops_dynamic = {
	.memory = "dynamic",
	.locate = dyn_locate,
	.range_err = win_dyn_range_err,
	.copy = dyn_copy,
	.acc = dyn_acc,
	.cas = dyn_cas,
	.lock = rma_direct_lock,
	.unlock = dyn_unlock,
	.flush = dyn_flush,
};
