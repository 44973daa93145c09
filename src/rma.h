/*
 * RMA inside the library: epoch checks, and how an accumulate is applied
 * to target memory (rma_atomic.c).
 */
#ifndef SRC_RMA_H
#define SRC_RMA_H

#include <errno.h>
#include <stdint.h>

#include "op.h"
#include "runtime.h"
#include "win.h"

enum acc_how {
	ACC_LOAD,	/* MPI_NO_OP: read only */
	ACC_SWAP,	/* MPI_REPLACE */
	ACC_KERNEL,	/* the op's kernel */
};

/* One accumulate: the op, the basic type, the window and target. */
struct rma_acc {
	enum acc_how how;
	op_kernel_t kernel;
	MPI_Datatype basic;
	struct win *w;
	int target;
	int plain;	/* an exclusive lock is held: plain kernels will do */
};

/* Choose how op works on basic; -EINVAL when the op does not apply. */
int rma_acc_prepare(struct rma_acc *a, const struct op *op, MPI_Datatype basic);

/*
 * Apply the accumulate to n elements of w bytes at tgt, from the C array
 * in; the old values go to old (a C array) unless it is NULL.  key: the
 * first element's place in the target's window, the same for every origin
 * (it picks the stripe locks, rma_atomic.c).
 */
void rma_acc_run(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		 size_t w, char *old, uint64_t key);

/*
 * The pieces of rma_acc_run, for elements that are not contiguous here
 * (rma_dynamic.c) and compare-and-swap at the target's engine: take the
 * stripes of the elements that start at keys first to last (none when
 * a->plain) and return them as a mask for rma_acc_unlock; apply the op to
 * n elements at tgt, the stripes held.
 */
unsigned rma_acc_lock(const struct rma_acc *a, uint64_t first, uint64_t last);
void rma_acc_unlock(const struct rma_acc *a, unsigned mask);
void rma_acc_apply(const struct rma_acc *a, const char *in, char *tgt, size_t n, size_t w,
		   char *old);

/* Whether b is a C integer type (or MPI_BYTE): what fetch-and-add and
 * compare-and-swap apply to. */
int rma_is_integer(MPI_Datatype b);

/*
 * n elements (1 or more, in one stripe) of a C integer type, float or
 * double at tgt (direct path), with MPI_SUM, MPI_REPLACE, MPI_NO_OP or
 * (integers) MPI_BAND/BOR/BXOR: the op applied, atomic per element, and 1,
 * the old values to old unless it is NULL; 0 for anything else, old
 * overlapping in included (the general path decides).  The caller keeps
 * n * size within RMA_AMO_MAX.  size: the type's size; key: the first
 * element's (win_target_key).
 */
#define RMA_AMO_MAX 2048
int rma_amo(struct win *w, int target, char *tgt, MPI_Datatype type, size_t size,
	    MPI_Op op, const void *in, void *old, size_t n, uint64_t key);

/*
 * The bytes compare-and-swap compares in an element of predefined type t,
 * or 0 when it refuses t.  MPI 3.1 (section 11.3.4) asks for a C integer,
 * Fortran integer, logical, multi-language or byte type; as an extension
 * (README) every predefined type of 1, 2, 4, 8 or 16 bytes without gaps is
 * accepted and compared bit by bit: the bytes of its value (a long double
 * that uses 10 of its 16 bytes compares those 10, and swaps all 16).
 */
size_t rma_cas_bytes(MPI_Datatype t);

/* Compare-and-swap of one element of w bytes at tgt, comparing its first
 * cmp bytes with compare: the old element to old, in stored if they were
 * equal.  The caller makes it atomic. */
void rma_cas_apply(char *tgt, const char *compare, const char *in, char *old, size_t w,
		   size_t cmp);

/* The same under the element's stripe lock in win's target (direct path;
 * any alignment: the lock, not the hardware, makes it atomic). */
void rma_cas_run(struct win *win, int target, size_t w, size_t cmp, const char *compare,
		 const char *in, char *tgt, char *old, uint64_t key);

struct win_dyn_span;

/* One communication call's checked arguments (rma.c). */
struct rma_args {
	struct win *w;
	int target;
	const void *obuf;
	MPI_Count ocount;
	struct datatype *odt;
	MPI_Aint tdisp;
	MPI_Count tcount;
	struct datatype *tdt;
	char *taddr;	/* direct path: the target's bytes, mapped here */
	uint64_t toff;	/* private path: their offset in the target's window */
	size_t bytes;
	int noop;	/* MPI_PROC_NULL, or nothing to move */
	int priv;	/* dynamic windows: a private region (toff: its address) */
	const struct win_dyn_span *span;	/* dynamic windows: a range over
						 * several mappings (win_dyn.h) */
};

/* An accumulate's checked extras: the op, the basic type, the number of
 * basic elements, and where old values go (result NULL: nowhere). */
struct rma_accargs {
	MPI_Op op_h;
	struct op *op;
	struct datatype *bt;
	size_t n;
	void *result;
	MPI_Count rcount;
	struct datatype *rdt;
};

/*
 * The direct path's accumulate, run by run: run(a, x, in, at, n, old) does
 * n basic elements whose first lies `at` bytes from the target
 * displacement's address (a->taddr on the direct path), taking its input
 * from the C array in and giving old values to old (NULL: none).
 */
typedef void rma_acc_run_fn(const struct rma_acc *acc, const struct rma_args *a,
			    const char *in, MPI_Aint at, size_t n, size_t w, char *old);
int rma_direct_acc_runs(const char *call, struct rma_args *a, const struct rma_accargs *x,
			rma_acc_run_fn *run);

/* The direct path's locks (rma_passive.c). */
void rma_direct_lock(struct win *w, int target, int type);
void rma_direct_unlock(struct win *w, int target);
void rma_direct_flush(struct win *w, int target, enum call_id call);

/* Whether this process has an access epoch to target (and note that an
 * RMA call happens in a fence epoch). */
int rma_access_ok(struct win *w, int target);

/* Whether this process holds a lock (or lock_all) on target. */
static inline int rma_passive_ok(const struct win *w, int target)
{
	return w->lock_all || w->locked[target] != WIN_UNLOCKED;
}

#endif
