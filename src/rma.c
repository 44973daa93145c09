/*
 * The RMA communication calls: MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap, and the
 * request-based MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate.
 *
 * Each call checks its arguments and the epoch once, then hands them to
 * the path that serves the target (w->t[target].ops: rma_direct.c for
 * memory mapped here, rma_pkt_origin.c for private memory).  The common
 * cases of the direct path -- a contiguous predefined type, an epoch open,
 * the range inside the window -- are inline here, in a few instructions:
 * there everything is complete at the origin and the target when the call
 * returns, and flush and unlock only add the memory ordering.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../shm/copy.h"
#include "adversary.h"
#include "api.h"
#include "datatype.h"
#include "errhandler.h"
#include "group.h"
#include "op.h"
#include "pvar.h"
#include "request.h"
#include "rma.h"
#include "runtime.h"
#include "win.h"

int rma_access_ok(struct win *w, int target)
{
	if (rma_passive_ok(w, target))
		return 1;
	if (w->start_group &&
	    w->start_group->index[comm_world_rank(w->comm, target)] >= 0)
		return 1;
	if (w->fence_on) {
		w->fence_used = 1;
		return 1;
	}
	return 0;
}

/* Count an operation of kind k that succeeded, by the path that served it:
 * the target's, or for dynamic windows the region's (a->priv, which the
 * path may have set while ordering it behind queued operations). */
static int rma_counted(enum pvar_rma_kind k, const struct rma_args *a, int rc)
{
	if (rc == MPI_SUCCESS)
		pvar_rma(k, a->priv || a->w->t[a->target].path == WIN_PATH_PRIVATE,
			 a->bytes);
	return rc;
}

static int rma_type(struct win *w, const char *call, MPI_Datatype h, const char *arg,
		    struct datatype **out)
{
	struct datatype *dt = dt_get(h);

	if (!dt)
		return win_err(w, call, MPI_ERR_TYPE, arg, h == MPI_DATATYPE_NULL ?
			       "is MPI_DATATYPE_NULL" : "0x%x is not a valid datatype",
			       (unsigned)h);
	if (!dt->committed)
		return win_err(w, call, MPI_ERR_TYPE, arg, "%s is not committed", dt->name);
	*out = dt;
	return MPI_SUCCESS;
}

static int rma_prepare(const char *call, MPI_Win win, const void *obuf, MPI_Count ocount,
		       MPI_Datatype otype, int target, MPI_Aint tdisp, MPI_Count tcount,
		       MPI_Datatype ttype, struct rma_args *a)
{
	MPI_Aint lo = 0, hi = 0;
	struct win *w;
	int rc;

	memset(a, 0, sizeof(*a));
	if (!(w = win_arg(call, win, &rc)))
		return rc;
	a->w = w;
	if (ocount < 0 || tcount < 0)
		return win_err(w, call, MPI_ERR_COUNT, ocount < 0 ? "origin_count" :
			       "target_count", "%lld is negative",
			       (long long)(ocount < 0 ? ocount : tcount));
	if (target == MPI_PROC_NULL) {
		a->noop = 1;
		return MPI_SUCCESS;
	}
	if (target < 0 || target >= w->size)
		return win_err(w, call, MPI_ERR_RANK, "target_rank",
			       "%d is not a rank of the window (size %d)", target, w->size);
	if (!rma_access_ok(w, target))
		return win_err(w, call, MPI_ERR_RMA_SYNC, "target_rank",
			       "no access epoch to rank %d is open (fence, start, lock "
			       "or lock_all)", target);
	a->target = target;
	/* zero elements: nothing happens, whatever the buffers and types */
	if (ocount == 0 || tcount == 0) {
		a->noop = 1;
		return MPI_SUCCESS;
	}
	if ((rc = rma_type(w, call, otype, "origin_datatype", &a->odt)) != MPI_SUCCESS ||
	    (rc = rma_type(w, call, ttype, "target_datatype", &a->tdt)) != MPI_SUCCESS)
		return rc;
	a->bytes = (size_t)ocount * (size_t)a->odt->size;
	if (a->bytes == 0 || a->tdt->size == 0) {
		a->noop = 1;
		return MPI_SUCCESS;
	}
	if (a->bytes != (size_t)tcount * (size_t)a->tdt->size)
		return win_err(w, call, MPI_ERR_TYPE, "target_datatype",
			       "%lld x %s (%zu bytes) does not match %lld x %s at the "
			       "origin", (long long)tcount, a->tdt->name,
			       (size_t)tcount * (size_t)a->tdt->size, (long long)ocount,
			       a->odt->name);
	if (!obuf && handle_is_builtin(otype))
		return win_err(w, call, MPI_ERR_BUFFER, "origin_addr", "is NULL");
	if (dt_span(a->tdt, tcount, &lo, &hi) < 0 ||
	    w->t[target].ops->locate(w, target, tdisp, lo, hi, a) != MPI_SUCCESS)
		return w->t[target].ops->range_err(w, call, target, tdisp, lo, hi, tcount,
						   a->tdt->name);
	a->obuf = obuf;
	a->ocount = ocount;
	a->tdisp = tdisp;
	a->tcount = tcount;
	return MPI_SUCCESS;
}

/*
 * The common case, checked in a few instructions: a predefined gapless
 * type, the same on both sides, with equal positive counts, an open
 * epoch to the target (lock, lock_all, fence, or start naming it), a
 * target of the
 * direct path (dynamic windows and private memory have no base here), and
 * a range inside the target's window.  Returns the target address and the
 * type's size in *esize, or NULL when the general path must decide (it
 * reports every error).
 */
static inline __attribute__((always_inline)) char *
rma_fast(struct win *w, int target, MPI_Aint disp, int ocount, MPI_Datatype otype,
	 int tcount, MPI_Datatype ttype, size_t *esize)
{
	size_t size = dt_contig_size(otype);
	const struct win_target *t;
	MPI_Aint at;

	if (!size || otype != ttype || ocount != tcount || ocount <= 0 ||
	    (unsigned)target >= (unsigned)w->size)
		return NULL;
	if (!(w->lock_all | w->locked[target])) {
		if (w->fence_on)
			w->fence_used = 1;	/* as rma_access_ok */
		else if (!w->start_group ||
			 w->start_group->index[comm_world_rank(w->comm, target)] < 0)
			return NULL;
	}
	t = &w->t[target];
	if (!t->base || disp < 0 || __builtin_mul_overflow(disp, (MPI_Aint)t->disp_unit, &at) ||
	    at > t->size - (MPI_Aint)ocount * (MPI_Aint)size)
		return NULL;
	*esize = size;
	return t->base + at;
}

/*
 * The same for a target of the private path: the checked arguments in *a
 * and 1, or 0 for the general path.
 */
static inline int rma_fast_private(struct win *w, int target, MPI_Aint disp,
				   const void *obuf, MPI_Count ocount, MPI_Datatype otype,
				   MPI_Count tcount, MPI_Datatype ttype, struct rma_args *a)
{
	struct datatype *dt;
	MPI_Aint at;

	if (otype != ttype || ocount != tcount || ocount <= 0 ||
	    !handle_is_builtin(otype) || (unsigned)target >= (unsigned)w->size ||
	    !(w->lock_all | w->locked[target]) || w->t[target].path != WIN_PATH_PRIVATE)
		return 0;
	dt = dt_get(otype);
	if (!dt || !dt->contig ||
	    win_target_offset(&w->t[target], disp, 0, (MPI_Aint)ocount * dt->size, &at) !=
	    MPI_SUCCESS)
		return 0;
	*a = (struct rma_args){ .w = w, .target = target, .obuf = obuf, .ocount = ocount,
				.odt = dt, .tdisp = disp, .tcount = tcount, .tdt = dt,
				.toff = (uint64_t)at,
				.bytes = (size_t)ocount * (size_t)dt->size };
	return 1;
}

/* ---- put and get -------------------------------------------------------- */

/*
 * A copy of RMA_STREAM_MIN bytes or more to another place than the last
 * such copy streams past the caches (shm/copy.h): a bandwidth run through a
 * large window then moves half the memory traffic, while a copy repeated to
 * one place (a latency loop, a buffer reused) stays in the cache.
 */
#define RMA_STREAM_MIN (512u << 10)

static void *rma_stream_last;

static void rma_copy_large(void *dst, const void *src, size_t bytes)
{
	if (dst == rma_stream_last) {
		memcpy(dst, src, bytes);
		return;
	}
	rma_stream_last = dst;
	shm_copy_stream(dst, src, bytes);
}

/* A copy of the common small sizes without a call. */
static inline __attribute__((always_inline)) void rma_move(void *dst, const void *src,
							   size_t bytes)
{
	uint64_t v8;
	uint32_t v4;

	switch (bytes) {
	case 8:
		memcpy(&v8, src, 8);
		memcpy(dst, &v8, 8);
		break;
	case 4:
		memcpy(&v4, src, 4);
		memcpy(dst, &v4, 4);
		break;
	default:
		memcpy(dst, src, bytes);
	}
}

/* Put (to_target) or get, past the common case: the private path, or the
 * general checks. */
static __attribute__((noinline)) int
rma_copy_general(const char *call, struct win *w, void *origin_addr, MPI_Count origin_count,
		 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		 MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
		 int to_target)
{
	enum pvar_rma_kind kind = to_target ? PVAR_RMA_PUT : PVAR_RMA_GET;
	struct rma_args a;
	int rc;

	if (w && origin_addr &&
	    rma_fast_private(w, target_rank, target_disp, origin_addr, origin_count,
			     origin_datatype, target_count, target_datatype, &a))
		return rma_counted(kind, &a, win_ops_private.copy(&a, origin_addr, to_target));
	rc = rma_prepare(call, win, origin_addr, origin_count, origin_datatype,
			 target_rank, target_disp, target_count, target_datatype, &a);
	if (rc != MPI_SUCCESS || a.noop)
		return rc;
	return rma_counted(kind, &a, a.w->t[a.target].ops->copy(&a, origin_addr, to_target));
}

/*
 * Put (to_target) or get: a copy between the origin buffer and the target,
 * the common case inline in the API call.  Returns -1 when the call needs
 * the general path, which the API call then enters as a sibling call with
 * its own arguments: the fast path keeps no frame of its own.
 */
static inline __attribute__((always_inline)) int
rma_copy(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	 int target_rank, MPI_Aint target_disp, int target_count,
	 MPI_Datatype target_datatype, MPI_Win win, int to_target)
{
	size_t esize, bytes;
	struct win *w;
	char *addr;
	void *dst;
	const void *src;

	if (!(w = win_get(win)) || !origin_addr ||
	    !(addr = rma_fast(w, target_rank, target_disp, origin_count, origin_datatype,
			      target_count, target_datatype, &esize)))
		return -1;
	bytes = (size_t)origin_count * esize;
	dst = to_target ? addr : origin_addr;
	src = to_target ? origin_addr : addr;
	if (bytes >= RMA_STREAM_MIN)
		rma_copy_large(dst, src, bytes);
	else
		rma_move(dst, src, bytes);
	/* glibc's memcpy may store non-temporally, which flush's fence leaves
	 * unordered (shm/atomic.h) */
	if (to_target && bytes >= SHM_NT_MIN)
		shm_nt_fence();
	pvar_rma(to_target ? PVAR_RMA_PUT : PVAR_RMA_GET, PVAR_PATH_DIRECT, bytes);
	return MPI_SUCCESS;
}

/* The same for calls named `call` that take no sibling-call shortcut. */
static int rma_copy_named(const char *call, void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
			  int to_target)
{
	/* the common case has int counts (those of the int forms, inline);
	 * negative ones, however large, are the general path's to report */
	if (origin_count >= 0 && origin_count <= INT_MAX && target_count >= 0 &&
	    target_count <= INT_MAX &&
	    rma_copy(origin_addr, (int)origin_count, origin_datatype, target_rank,
		     target_disp, (int)target_count, target_datatype, win, to_target) ==
	    MPI_SUCCESS)
		return MPI_SUCCESS;
	return rma_copy_general(call, win_get(win), origin_addr, origin_count,
				origin_datatype, target_rank, target_disp, target_count,
				target_datatype, win, to_target);
}

static __attribute__((noinline)) int
put_general(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	    int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	runtime_check("MPI_Put");
	return rma_copy_general("MPI_Put", win_get(win), (void *)origin_addr, origin_count,
				origin_datatype, target_rank, target_disp, target_count,
				target_datatype, win, 1);
}

static __attribute__((noinline)) int
get_general(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	    int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	runtime_check("MPI_Get");
	return rma_copy_general("MPI_Get", win_get(win), origin_addr, origin_count,
				origin_datatype, target_rank, target_disp, target_count,
				target_datatype, win, 0);
}

/*
 * The API calls with a fast path have three parts: the call, which tests
 * the gate (runtime.h) and goes on inline; the body (*_fast), which takes
 * the common case inline and hands anything else to the general path; and
 * the gated entry (*_serial), for before MPI_Init and after MPI_Finalize
 * (runtime_check ends the process) and for MPI_THREAD_MULTIPLE, where it
 * holds the lock of serial.h around the same body.  Handles are looked up
 * only inside the body, under that lock.
 */
static inline __attribute__((always_inline)) int
put_fast(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	 int target_rank, MPI_Aint target_disp, int target_count,
	 MPI_Datatype target_datatype, MPI_Win win)
{
	if (rma_copy((void *)origin_addr, origin_count, origin_datatype, target_rank,
		     target_disp, target_count, target_datatype, win, 1) == MPI_SUCCESS)
		return MPI_SUCCESS;
	return put_general(origin_addr, origin_count, origin_datatype, target_rank,
			   target_disp, target_count, target_datatype, win);
}

static __attribute__((noinline)) int
put_serial(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	   int target_rank, MPI_Aint target_disp, int target_count,
	   MPI_Datatype target_datatype, MPI_Win win)
{
	runtime_check("MPI_Put");
	return put_fast(origin_addr, origin_count, origin_datatype, target_rank,
			target_disp, target_count, target_datatype, win);
}

API(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	       int target_rank, MPI_Aint target_disp, int target_count,
	       MPI_Datatype target_datatype, MPI_Win win))
{
	if (rt.gate)
		return put_serial(origin_addr, origin_count, origin_datatype, target_rank,
				  target_disp, target_count, target_datatype, win);
	return put_fast(origin_addr, origin_count, origin_datatype, target_rank,
			target_disp, target_count, target_datatype, win);
}

static inline __attribute__((always_inline)) int
get_fast(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	 int target_rank, MPI_Aint target_disp, int target_count,
	 MPI_Datatype target_datatype, MPI_Win win)
{
	if (rma_copy(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
		     target_count, target_datatype, win, 0) == MPI_SUCCESS)
		return MPI_SUCCESS;
	return get_general(origin_addr, origin_count, origin_datatype, target_rank,
			   target_disp, target_count, target_datatype, win);
}

static __attribute__((noinline)) int
get_serial(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	   int target_rank, MPI_Aint target_disp, int target_count,
	   MPI_Datatype target_datatype, MPI_Win win)
{
	runtime_check("MPI_Get");
	return get_fast(origin_addr, origin_count, origin_datatype, target_rank,
			target_disp, target_count, target_datatype, win);
}

API(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	       int target_rank, MPI_Aint target_disp, int target_count,
	       MPI_Datatype target_datatype, MPI_Win win))
{
	if (rt.gate)
		return get_serial(origin_addr, origin_count, origin_datatype, target_rank,
				  target_disp, target_count, target_datatype, win);
	return get_fast(origin_addr, origin_count, origin_datatype, target_rank,
			target_disp, target_count, target_datatype, win);
}

/* The large-count forms (MPI 4.1, section 2.5.8) take the same path, from
 * rma_copy_named: its common case inline, then the general checks. */
API(int, Put_c, (const void *origin_addr, MPI_Count origin_count,
		 MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		 MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
{
	runtime_check("MPI_Put_c");
	return rma_copy_named("MPI_Put_c", (void *)origin_addr, origin_count,
			      origin_datatype, target_rank, target_disp, target_count,
			      target_datatype, win, 1);
}

API(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
		 int target_rank, MPI_Aint target_disp, MPI_Count target_count,
		 MPI_Datatype target_datatype, MPI_Win win))
{
	runtime_check("MPI_Get_c");
	return rma_copy_named("MPI_Get_c", origin_addr, origin_count, origin_datatype,
			      target_rank, target_disp, target_count, target_datatype, win,
			      0);
}

/* ---- accumulates -------------------------------------------------------- */

/*
 * Accumulate (origin) into the target with op; old values go to (result,
 * rcount, rdt) unless rdt is NULL.  The caller has prepared a; this checks
 * the rest and hands over to the target's path.
 */
static int rma_acc(const char *call, enum pvar_rma_kind kind, struct rma_args *a,
		   MPI_Op op_h, void *result, MPI_Count rcount, struct datatype *rdt)
{
	struct win *w = a->w;
	struct rma_accargs x = { .op_h = op_h, .op = op_get(op_h), .result = result,
				 .rcount = rcount, .rdt = rdt };
	struct rma_acc acc;

	if (!x.op || !op_is_builtin(x.op))
		return win_err(w, call, MPI_ERR_OP, "op", !x.op ? "0x%x is not a valid op" :
			       "user ops are not allowed in RMA (op 0x%x)", (unsigned)op_h);
	if (a->odt->basic == MPI_DATATYPE_NULL || a->odt->basic != a->tdt->basic ||
	    (rdt && rdt->basic != a->tdt->basic))
		return win_err(w, call, MPI_ERR_TYPE, "target_datatype",
			       "the origin, target%s types must be built of one and the "
			       "same predefined type", rdt ? " and result" : "");
	x.bt = dt_get(a->tdt->basic);
	if (rma_acc_prepare(&acc, x.op, x.bt->handle) < 0)
		return win_err(w, call, MPI_ERR_OP, "op", "is not defined on %s",
			       x.bt->name);
	x.n = (size_t)a->ocount * (size_t)dt_basic_per_elem(a->odt);
	if (rdt && (size_t)rcount * (size_t)dt_basic_per_elem(rdt) != x.n)
		return win_err(w, call, MPI_ERR_TYPE, "result_datatype",
			       "holds another number of elements than the target");
	return rma_counted(kind, a, w->t[a->target].ops->acc(call, a, &x));
}

/* rma_acc_fast's kernel path: the op applied and 0, or -1 for the
 * general path (a user-defined op, or one the type does not take). */
static int rma_acc_kernel(struct win *w, int target, char *addr, size_t esize,
			  const void *in, void *result, MPI_Count count, MPI_Datatype type,
			  MPI_Op op_h, uint64_t key)
{
	struct rma_acc acc = { .w = w, .target = target };
	struct op *op = op_get(op_h);

	if (!op || !op_is_builtin(op) || rma_acc_prepare(&acc, op, type) < 0)
		return -1;
	acc.plain = w->locked[target] == WIN_LOCKED_EXCLUSIVE;
	rma_acc_run(&acc, in, addr, (size_t)count, esize, result, key);
	return 0;
}

/*
 * The accumulates' common case: rma_fast's conditions, a predefined op, and
 * a type that is its own basic type (no pairs split in two runs).  Applies
 * the op, inline for a few elements of the commonest types (rma_amo), else
 * with the op's kernel, and returns 1; or returns 0 for the general path.
 */
static inline __attribute__((always_inline)) int
rma_acc_fast(enum pvar_rma_kind kind, struct win *w, const void *origin, void *result,
	     MPI_Count count, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op)
{
	size_t esize;
	uint64_t key;
	char *addr;

	/* (count: 1 to INT_MAX, for rma_fast; the general path reports the rest) */
	if ((!origin && op != MPI_NO_OP) || count <= 0 || count > INT_MAX ||
	    !(addr = rma_fast(w, target, disp, (int)count, type, (int)count, type, &esize)))
		return 0;
	key = win_target_key(w, target, disp);
	/* MPI_NO_OP reads only: its origin buffer may be anything */
	if (!origin)
		origin = result;
	if (((size_t)count * esize > RMA_AMO_MAX ||
	     !rma_amo(w, target, addr, type, esize, op, origin, result, (size_t)count, key)) &&
	    rma_acc_kernel(w, target, addr, esize, origin, result, count, type, op, key) < 0)
		return 0;
	pvar_rma(kind, PVAR_PATH_DIRECT, (size_t)count * esize);
	return 1;
}

static int rma_accumulate(const char *call, const void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_datatype, int target_rank,
			  MPI_Aint target_disp, MPI_Count target_count,
			  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	struct rma_args a;
	int rc;

	rc = rma_prepare(call, win, origin_addr, origin_count, origin_datatype,
			 target_rank, target_disp, target_count, target_datatype, &a);
	if (rc != MPI_SUCCESS || a.noop)
		return rc;
	/* MPI 3.1, section 11.3.4: MPI_NO_OP only in the calls that fetch */
	if (op == MPI_NO_OP)
		return win_err(a.w, call, MPI_ERR_OP, "op",
			       "MPI_NO_OP is for the fetching calls, not %s", call);
	return rma_acc(call, PVAR_RMA_ACC, &a, op, NULL, 0, NULL);
}

static int rma_get_accumulate(const char *call, enum pvar_rma_kind kind,
			      const void *origin_addr, MPI_Count origin_count,
			      MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
			      MPI_Datatype result_datatype, int target_rank,
			      MPI_Aint target_disp, MPI_Count target_count,
			      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	struct datatype *rdt;
	struct rma_args a;
	int rc;

	/* MPI_NO_OP ignores the origin buffer: its count may be 0 */
	if (op == MPI_NO_OP) {
		origin_addr = result_addr;
		origin_count = result_count;
		origin_datatype = result_datatype;
	}
	rc = rma_prepare(call, win, origin_addr, origin_count, origin_datatype,
			 target_rank, target_disp, target_count, target_datatype, &a);
	if (rc != MPI_SUCCESS || a.noop)
		return rc;
	if ((rc = rma_type(a.w, call, result_datatype, "result_datatype", &rdt)) !=
	    MPI_SUCCESS)
		return rc;
	if (result_count < 0)
		return win_err(a.w, call, MPI_ERR_COUNT, "result_count",
			       "%lld is negative", (long long)result_count);
	if (!result_addr && handle_is_builtin(result_datatype))
		return win_err(a.w, call, MPI_ERR_BUFFER, "result_addr", "is NULL");
	return rma_acc(call, kind, &a, op, result_addr, result_count, rdt);
}

static int accumulate(const char *call, const void *origin_addr, MPI_Count origin_count,
		      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
		      MPI_Win win)
{
	struct win *w;

	runtime_check(call);
	w = win_get(win);
	/* MPI_NO_OP is refused by the general path */
	if (w && op != MPI_NO_OP && origin_datatype == target_datatype &&
	    origin_count == target_count &&
	    rma_acc_fast(PVAR_RMA_ACC, w, origin_addr, NULL, origin_count, origin_datatype,
			 target_rank, target_disp, op))
		return MPI_SUCCESS;
	return rma_accumulate(call, origin_addr, origin_count, origin_datatype,
			      target_rank, target_disp, target_count, target_datatype, op,
			      win);
}

API(int, Accumulate, (const void *origin_addr, int origin_count,
		      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		      int target_count, MPI_Datatype target_datatype, MPI_Op op,
		      MPI_Win win))
{
	return accumulate("MPI_Accumulate", origin_addr, origin_count, origin_datatype,
			  target_rank, target_disp, target_count, target_datatype, op, win);
}

API(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count,
			MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
			MPI_Win win))
{
	return accumulate("MPI_Accumulate_c", origin_addr, origin_count, origin_datatype,
			  target_rank, target_disp, target_count, target_datatype, op, win);
}

static int get_accumulate(const char *call, const void *origin_addr,
			  MPI_Count origin_count, MPI_Datatype origin_datatype,
			  void *result_addr, MPI_Count result_count,
			  MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
			  MPI_Win win)
{
	struct win *w;

	runtime_check(call);
	w = win_get(win);
	if (w && result_addr && result_count == target_count &&
	    result_datatype == target_datatype &&
	    (op == MPI_NO_OP || (origin_addr && origin_count == target_count &&
				 origin_datatype == target_datatype)) &&
	    rma_acc_fast(PVAR_RMA_GET_ACC, w, op == MPI_NO_OP ? NULL : origin_addr,
			 result_addr, target_count, target_datatype, target_rank, target_disp,
			 op))
		return MPI_SUCCESS;
	return rma_get_accumulate(call, PVAR_RMA_GET_ACC, origin_addr, origin_count,
				  origin_datatype, result_addr, result_count,
				  result_datatype, target_rank, target_disp, target_count,
				  target_datatype, op, win);
}

API(int, Get_accumulate, (const void *origin_addr, int origin_count,
			  MPI_Datatype origin_datatype, void *result_addr,
			  int result_count, MPI_Datatype result_datatype, int target_rank,
			  MPI_Aint target_disp, int target_count,
			  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
{
	return get_accumulate("MPI_Get_accumulate", origin_addr, origin_count,
			      origin_datatype, result_addr, result_count, result_datatype,
			      target_rank, target_disp, target_count, target_datatype, op,
			      win);
}

API(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
			    MPI_Datatype origin_datatype, void *result_addr,
			    MPI_Count result_count, MPI_Datatype result_datatype,
			    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
			    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
{
	return get_accumulate("MPI_Get_accumulate_c", origin_addr, origin_count,
			      origin_datatype, result_addr, result_count, result_datatype,
			      target_rank, target_disp, target_count, target_datatype, op,
			      win);
}

API(int, Fetch_and_op, (const void *origin_addr, void *result_addr,
			MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
			MPI_Op op, MPI_Win win))
{
	struct win *w;

	runtime_check("MPI_Fetch_and_op");
	w = win_get(win);
	if (w && result_addr &&
	    rma_acc_fast(PVAR_RMA_FOP, w, origin_addr, result_addr, 1, datatype, target_rank,
			 target_disp, op))
		return MPI_SUCCESS;
	if (datatype != MPI_DATATYPE_NULL && dt_get(datatype) &&
	    !dt_predefined(dt_get(datatype))) {
		struct win *w;
		int rc;

		if (!(w = win_arg("MPI_Fetch_and_op", win, &rc)))
			return rc;
		return win_err(w, "MPI_Fetch_and_op", MPI_ERR_TYPE, "datatype",
			       "must be a predefined type");
	}
	return rma_get_accumulate("MPI_Fetch_and_op", PVAR_RMA_FOP, origin_addr, 1, datatype,
				  result_addr, 1, datatype, target_rank, target_disp, 1,
				  datatype, op, win);
}

API(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr,
			    void *result_addr, MPI_Datatype datatype, int target_rank,
			    MPI_Aint target_disp, MPI_Win win))
{
	struct rma_args a;
	size_t cmp;
	int rc;

	runtime_check("MPI_Compare_and_swap");
	{
		struct win *w = win_get(win);
		size_t esize;
		char *addr;

		if (w && origin_addr && compare_addr && result_addr &&
		    (cmp = rma_cas_bytes(datatype)) &&
		    (addr = rma_fast(w, target_rank, target_disp, 1, datatype, 1, datatype,
				     &esize))) {
			rma_cas_run(w, target_rank, esize, cmp, compare_addr, origin_addr, addr,
				    result_addr, win_target_key(w, target_rank, target_disp));
			pvar_rma(PVAR_RMA_CAS, PVAR_PATH_DIRECT, esize);
			return MPI_SUCCESS;
		}
	}
	rc = rma_prepare("MPI_Compare_and_swap", win, origin_addr, 1, datatype,
			 target_rank, target_disp, 1, datatype, &a);
	if (rc != MPI_SUCCESS || a.noop)
		return rc;
	/* MPI 3.1, section 11.3.4, and the extension of rma_cas_bytes */
	if (!rma_cas_bytes(datatype))
		return win_err(a.w, "MPI_Compare_and_swap", MPI_ERR_TYPE, "datatype",
			       "%s is not a predefined type of 1, 2, 4, 8 or 16 bytes "
			       "without gaps", a.odt->name);
	if (!compare_addr || !result_addr)
		return win_err(a.w, "MPI_Compare_and_swap", MPI_ERR_BUFFER,
			       !compare_addr ? "compare_addr" : "result_addr", "is NULL");
	return rma_counted(PVAR_RMA_CAS, &a,
			   a.w->t[a.target].ops->cas("MPI_Compare_and_swap", &a, compare_addr,
						     result_addr));
}

/* ---- request-based forms: complete on return ---------------------------- */

/* The request of an operation that completed during the call. */
static int rma_request(const char *call, MPI_Win win, int target, MPI_Request *request,
		       int rc)
{
	struct win *w = win_get(win);
	struct request *r;

	if (rc != MPI_SUCCESS)
		return rc;
	/* the private path queues: the request's operation is sent now and
	 * waited for (the request is then complete, as on the direct path) */
	if (target >= 0 && target < w->size && w->t[target].path != WIN_PATH_DIRECT)
		w->t[target].ops->flush(w, target, CALL_WIN_FLUSH);
	r = req_new(REQ_RMA, 1);
	if (!r)
		return win_err(w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	r->comm = w->comm;
	comm_ref(w->comm);
	req_complete(r);
	*request = r->handle;
	return MPI_SUCCESS;
}

/* Request-based operations belong to passive-target epochs only. */
static int rma_check_passive(const char *call, MPI_Win win, int target,
			     MPI_Request *request)
{
	struct win *w;
	int rc;

	if (!(w = win_arg(call, win, &rc)))
		return rc;
	if (!request)
		return win_err(w, call, MPI_ERR_ARG, "request", "is NULL");
	if (target != MPI_PROC_NULL && target >= 0 && target < w->size &&
	    !rma_passive_ok(w, target))
		return win_err(w, call, MPI_ERR_RMA_SYNC, "target_rank",
			       "request-based RMA needs a lock or lock_all on rank %d",
			       target);
	return MPI_SUCCESS;
}

static int rput(const char *call, const void *origin_addr, MPI_Count origin_count,
		MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
		MPI_Request *request)
{
	int rc;

	runtime_check(call);
	rc = rma_check_passive(call, win, target_rank, request);
	if (rc == MPI_SUCCESS)
		rc = rma_copy_named(call, (void *)origin_addr, origin_count, origin_datatype,
				    target_rank, target_disp, target_count, target_datatype,
				    win, 1);
	return rma_request(call, win, target_rank, request, rc);
}

static int rget(const char *call, void *origin_addr, MPI_Count origin_count,
		MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
		MPI_Request *request)
{
	int rc;

	runtime_check(call);
	rc = rma_check_passive(call, win, target_rank, request);
	if (rc == MPI_SUCCESS)
		rc = rma_copy_named(call, origin_addr, origin_count, origin_datatype,
				    target_rank, target_disp, target_count, target_datatype,
				    win, 0);
	return rma_request(call, win, target_rank, request, rc);
}

static int raccumulate(const char *call, const void *origin_addr, MPI_Count origin_count,
		       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
		       MPI_Win win, MPI_Request *request)
{
	int rc;

	runtime_check(call);
	rc = rma_check_passive(call, win, target_rank, request);
	if (rc == MPI_SUCCESS)
		rc = rma_accumulate(call, origin_addr, origin_count, origin_datatype,
				    target_rank, target_disp, target_count, target_datatype,
				    op, win);
	return rma_request(call, win, target_rank, request, rc);
}

static int rget_accumulate(const char *call, const void *origin_addr,
			   MPI_Count origin_count, MPI_Datatype origin_datatype,
			   void *result_addr, MPI_Count result_count,
			   MPI_Datatype result_datatype, int target_rank,
			   MPI_Aint target_disp, MPI_Count target_count,
			   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			   MPI_Request *request)
{
	int rc;

	runtime_check(call);
	rc = rma_check_passive(call, win, target_rank, request);
	if (rc == MPI_SUCCESS)
		rc = rma_get_accumulate(call, PVAR_RMA_GET_ACC, origin_addr, origin_count,
					origin_datatype, result_addr, result_count,
					result_datatype, target_rank, target_disp,
					target_count, target_datatype, op, win);
	return rma_request(call, win, target_rank, request, rc);
}

API(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		int target_rank, MPI_Aint target_disp, int target_count,
		MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
{
	return rput("MPI_Rput", origin_addr, origin_count, origin_datatype, target_rank,
		    target_disp, target_count, target_datatype, win, request);
}

API(int, Rput_c, (const void *origin_addr, MPI_Count origin_count,
		  MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		  MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
		  MPI_Request *request))
{
	return rput("MPI_Rput_c", origin_addr, origin_count, origin_datatype, target_rank,
		    target_disp, target_count, target_datatype, win, request);
}

API(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		int target_rank, MPI_Aint target_disp, int target_count,
		MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
{
	return rget("MPI_Rget", origin_addr, origin_count, origin_datatype, target_rank,
		    target_disp, target_count, target_datatype, win, request);
}

API(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
		  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
		  MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
{
	return rget("MPI_Rget_c", origin_addr, origin_count, origin_datatype, target_rank,
		    target_disp, target_count, target_datatype, win, request);
}

API(int, Raccumulate, (const void *origin_addr, int origin_count,
		       MPI_Datatype origin_datatype, int target_rank,
		       MPI_Aint target_disp, int target_count,
		       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
		       MPI_Request *request))
{
	return raccumulate("MPI_Raccumulate", origin_addr, origin_count, origin_datatype,
			   target_rank, target_disp, target_count, target_datatype, op,
			   win, request);
}

API(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count,
			 MPI_Datatype origin_datatype, int target_rank,
			 MPI_Aint target_disp, MPI_Count target_count,
			 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			 MPI_Request *request))
{
	return raccumulate("MPI_Raccumulate_c", origin_addr, origin_count,
			   origin_datatype, target_rank, target_disp, target_count,
			   target_datatype, op, win, request);
}

API(int, Rget_accumulate, (const void *origin_addr, int origin_count,
			   MPI_Datatype origin_datatype, void *result_addr,
			   int result_count, MPI_Datatype result_datatype,
			   int target_rank, MPI_Aint target_disp, int target_count,
			   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			   MPI_Request *request))
{
	return rget_accumulate("MPI_Rget_accumulate", origin_addr, origin_count,
			       origin_datatype, result_addr, result_count, result_datatype,
			       target_rank, target_disp, target_count, target_datatype, op,
			       win, request);
}

API(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
			     MPI_Datatype origin_datatype, void *result_addr,
			     MPI_Count result_count, MPI_Datatype result_datatype,
			     int target_rank, MPI_Aint target_disp, MPI_Count target_count,
			     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			     MPI_Request *request))
{
	return rget_accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count,
			       origin_datatype, result_addr, result_count, result_datatype,
			       target_rank, target_disp, target_count, target_datatype, op,
			       win, request);
}
