/*
 * The direct path of RMA (struct win_ops, win.h): targets whose window
 * memory is mapped in this process, so that the origin does everything
 * itself -- put and get copy (datatype-aware), the accumulates and
 * compare-and-swap apply the op under the target's accumulate locks
 * (rma_atomic.c), lock, unlock and flush are rma_passive.c's.  And the
 * dynamic windows' path, which sends each operation the way of the
 * attached region it lands in (direct, or private: rma_pkt.h).  The API
 * calls and their inline fast paths are in rma.c.
 */
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "datatype.h"
#include "errhandler.h"
#include "op.h"
#include "rma.h"
#include "win.h"

static int direct_copy(struct rma_args *a, void *obuf, int to_target)
{
	if (!to_target) {
		dt_copy(a->taddr, a->tdt, obuf, a->odt, a->bytes);
		return MPI_SUCCESS;
	}
	dt_copy(obuf, a->odt, a->taddr, a->tdt, a->bytes);
	if (a->bytes >= SHM_NT_MIN)	/* non-temporal stores (shm/atomic.h) */
		shm_nt_fence();
	return MPI_SUCCESS;
}

static int direct_locate(struct win *w, int target, MPI_Aint disp, MPI_Aint lo,
			 MPI_Aint hi, struct rma_args *a)
{
	return win_target_addr(w, target, disp, lo, hi, &a->taddr);
}

/* The direct path: the accumulate applied here, element by element. */
static int direct_acc(const char *call, struct rma_args *a, const struct rma_accargs *x)
{
	struct win *w = a->w;
	struct rma_acc acc = { .w = w, .target = a->target };
	size_t n = x->n, bw = (size_t)x->bt->extent, k = 0;
	char *in = NULL, *old = NULL;
	const char *src;
	int rc = MPI_SUCCESS;

	rma_acc_prepare(&acc, x->op, x->bt->handle);
	acc.plain = w->locked[a->target] == WIN_LOCKED_EXCLUSIVE;
	/* the origin as a C array of the basic type */
	if (a->odt->contig && a->odt->nrruns == 1) {
		src = (const char *)a->obuf + a->odt->rruns[0].disp;
	} else {
		in = malloc(n * bw);
		if (!in)
			return win_err(w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
		dt_basic_copy(a->odt, x->bt, a->obuf, NULL, 0, n, in, 1);
		src = in;
	}
	if (x->rdt && !(old = malloc(n * bw))) {
		rc = win_err(w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
		goto out;
	}
	if (a->tdt->contig) {
		/* one run of n elements: a long one takes the plain kernels */
		char *tgt = a->taddr + a->tdt->rruns[0].disp;

		rma_acc_run(&acc, src, tgt, n, bw, old,
			    win_target_key(w, a->target, a->tdisp) +
			    (uint64_t)(tgt - a->taddr));
		k = n;
	}
	for (MPI_Count e = 0; e < a->tcount && k < n; e++)
		for (int r = 0; r < a->tdt->nrruns; r++) {
			const struct dt_rrun *run = &a->tdt->rruns[r];
			char *tgt = a->taddr + e * a->tdt->extent + run->disp;
			uint64_t key = win_target_key(w, a->target, a->tdisp) +
				       (uint64_t)(tgt - a->taddr);

			rma_acc_run(&acc, src + k * bw, tgt, (size_t)run->count, bw,
				    old ? old + k * bw : NULL, key);
			k += (size_t)run->count;
		}
	if (x->rdt)
		dt_basic_copy(x->rdt, x->bt, NULL, x->result, 0, n, old, 0);
out:
	free(in);
	free(old);
	return rc;
}

static int direct_cas(const char *call, struct rma_args *a, const void *compare,
		      void *result)
{
	(void)call;
	rma_cas_run(a->w, a->target, (size_t)a->odt->size, rma_cas_bytes(a->odt->handle),
		    compare, a->obuf, a->taddr, result, win_target_key(a->w, a->target, a->tdisp));
	return MPI_SUCCESS;
}

const struct win_ops win_ops_direct = {
	.memory = "direct",
	.locate = direct_locate,
	.copy = direct_copy,
	.acc = direct_acc,
	.cas = direct_cas,
	.lock = rma_direct_lock,
	.unlock = rma_direct_unlock,
	.flush = rma_direct_flush,
};

/* Dynamic windows: each attached region is direct or private memory. */
static int dyn_locate(struct win *w, int target, MPI_Aint disp, MPI_Aint lo,
		      MPI_Aint hi, struct rma_args *a)
{
	struct win_dyn_region reg;

	if (hi <= lo)
		return win_target_addr(w, target, disp, lo, hi, &a->taddr);
	/* one look at the table decides the path and the address */
	if (win_dyn_region(w, target, disp, lo, hi, &reg) != MPI_SUCCESS)
		return MPI_ERR_RMA_RANGE;
	if (!reg.seg[0] || adv_on()) {
		a->priv = 1;
		a->toff = (uint64_t)disp;
		return MPI_SUCCESS;
	}
	return win_dyn_addr(w, target, disp, &reg, &a->taddr);
}

static const struct win_ops *dyn_path(const struct rma_args *a)
{
	return a->priv ? &win_ops_private : &win_ops_direct;
}

static int dyn_copy(struct rma_args *a, void *obuf, int to_target)
{
	return dyn_path(a)->copy(a, obuf, to_target);
}

static int dyn_acc(const char *call, struct rma_args *a, const struct rma_accargs *x)
{
	return dyn_path(a)->acc(call, a, x);
}

static int dyn_cas(const char *call, struct rma_args *a, const void *compare,
		   void *result)
{
	return dyn_path(a)->cas(call, a, compare, result);
}

/* The direct path's lock covers every region: operations on private ones
 * need none of their own, but must be applied before it goes. */
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
	.copy = dyn_copy,
	.acc = dyn_acc,
	.cas = dyn_cas,
	.lock = rma_direct_lock,
	.unlock = dyn_unlock,
	.flush = dyn_flush,
};
