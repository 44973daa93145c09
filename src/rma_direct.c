/*
 * The direct path of RMA (struct win_ops, win.h): targets whose window
 * memory is mapped in this process, so that the origin does everything
 * itself -- put and get copy (datatype-aware), the accumulates and
 * compare-and-swap apply the op under the target's accumulate locks
 * (rma_atomic.c), lock, unlock and flush are rma_passive.c's.  The API
 * calls and their inline fast paths are in rma.c; dynamic windows, which
 * use this path for their shared memory, are rma_dynamic.c's.
 */
#include <stdlib.h>
#include <string.h>

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
	return win_target_addr_static(&w->t[target], disp, lo, hi, &a->taddr);
}

/* n elements at a->taddr + at, under the stripes of their keys (their
 * place in the target's window, or their address in a dynamic window). */
static void direct_run(const struct rma_acc *acc, const struct rma_args *a, const char *in,
		       MPI_Aint at, size_t n, size_t w, char *old)
{
	rma_acc_run(acc, in, a->taddr + at, n, w, old,
		    win_target_key(a->w, a->target, a->tdisp) + (uint64_t)at);
}

int rma_direct_acc_runs(const char *call, struct rma_args *a, const struct rma_accargs *x,
			rma_acc_run_fn *run)
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
		run(&acc, a, src, a->tdt->rruns[0].disp, n, bw, old);
		k = n;
	}
	for (MPI_Count e = 0; e < a->tcount && k < n; e++)
		for (int r = 0; r < a->tdt->nrruns; r++) {
			const struct dt_rrun *rr = &a->tdt->rruns[r];

			run(&acc, a, src + k * bw, e * a->tdt->extent + rr->disp,
			    (size_t)rr->count, bw, old ? old + k * bw : NULL);
			k += (size_t)rr->count;
		}
	if (x->rdt)
		dt_basic_copy(x->rdt, x->bt, NULL, x->result, 0, n, old, 0);
out:
	free(in);
	free(old);
	return rc;
}

static int direct_acc(const char *call, struct rma_args *a, const struct rma_accargs *x)
{
	return rma_direct_acc_runs(call, a, x, direct_run);
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
	.range_err = win_range_err_static,
	.copy = direct_copy,
	.acc = direct_acc,
	.cas = direct_cas,
	.lock = rma_direct_lock,
	.unlock = rma_direct_unlock,
	.flush = rma_direct_flush,
};
