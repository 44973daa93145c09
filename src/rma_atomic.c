/*
 * Accumulates in window memory (MPI 3.1, section 11.7.1): atomic per
 * element with respect to every other accumulate on that element, whatever
 * the op, the type and the number of elements.
 *
 * Each target has WIN_ACC_STRIPES spin locks in one line of the window
 * segment (struct win_shm_acc); a byte of the target's window belongs to
 * the stripe of its 4 KiB page (page number mod WIN_ACC_STRIPES), counted
 * from a key that every origin computes alike (the byte's offset in the
 * target's window; its address there for dynamic windows).  An accumulate
 * takes the stripes of the bytes its elements start at, in ascending order,
 * applies the op's plain kernel (vectorised, for any number of elements of
 * any type), and gives them back.  Every accumulate to an element takes
 * that element's stripe, so no two overlap on an element; none waits for a
 * rank that is not accumulating to the same target, and the cost does not
 * depend on how many ranks the window has.  A spin lock is held for the
 * kernel alone, never across a wait: whoever waits for one waits for a
 * bounded piece of work (and gives the CPU away after a few spins, in case
 * its holder shares that CPU, then sleeps a little at a time).
 *
 * An origin holding an exclusive lock on the target has no concurrent
 * accumulate to fear and takes no stripe.  Compare-and-swap and the
 * inline path of a few elements (rma_amo, which takes only ranges that lie
 * in one stripe) take the same stripes, so they are atomic whatever the
 * element's width and alignment.
 */
#include <float.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../shm/futex.h"
#include "datatype.h"
#include "op.h"
#include "rma.h"

int rma_is_integer(MPI_Datatype b)
{
	switch (b) {
	case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_BYTE:
	case MPI_SHORT: case MPI_UNSIGNED_SHORT: case MPI_INT: case MPI_UNSIGNED:
	case MPI_LONG: case MPI_UNSIGNED_LONG: case MPI_LONG_LONG_INT:
	case MPI_UNSIGNED_LONG_LONG: case MPI_INT8_T: case MPI_INT16_T:
	case MPI_INT32_T: case MPI_INT64_T: case MPI_UINT8_T: case MPI_UINT16_T:
	case MPI_UINT32_T: case MPI_UINT64_T: case MPI_AINT: case MPI_COUNT:
	case MPI_OFFSET: case MPI_WCHAR: case MPI_INTEGER: case MPI_INTEGER1:
	case MPI_INTEGER2: case MPI_INTEGER4: case MPI_INTEGER8:
		return 1;
	default:
		return 0;
	}
}

int rma_acc_prepare(struct rma_acc *a, const struct op *op, MPI_Datatype basic)
{
	enum op_kind k = op_kind(op);

	a->kernel = op_kernel(op, basic);
	a->basic = basic;
	/* the op must apply to the type (MPI_SUM on MPI_BYTE does not) */
	if (!a->kernel)
		return -EINVAL;
	a->how = k == OP_NO_OP ? ACC_LOAD : k == OP_REPLACE ? ACC_SWAP : ACC_KERNEL;
	return 0;
}

/* ---- the stripe locks ------------------------------------------------------ */

/*
 * Spin, then give the CPU away (the holder may share it), then sleep a
 * little at a time.  Nobody wakes a stripe's waiters, so that an unlock
 * stays one plain store: a holder keeps a stripe for one kernel's run, a
 * bounded time, so a waiter that sleeps STRIPE_NAP_NS and looks again
 * loses at most that much, and busy-waits for no one.
 */
#define STRIPE_NAP_NS 50000L

static void stripe_pause(shm_atomic_u32 *s, unsigned *i)
{
	static const struct timespec nap = { 0, STRIPE_NAP_NS };

	if (++*i <= rt.spins)
		shm_cpu_relax();
	else if (*i <= rt.spins + rt.yields)
		sched_yield();
	else
		(void)shm_futex_wait(s, 1, &nap);	/* returns at once if free */
}

static __attribute__((noinline)) void stripe_lock_slow(shm_atomic_u32 *s)
{
	unsigned i = 0;

	do {
		/* relaxed: only a hint that the exchange may succeed */
		while (atomic_load_explicit(s, memory_order_relaxed))
			stripe_pause(s, &i);
		/* acquire: as in stripe_lock */
	} while (atomic_exchange_explicit(s, 1, memory_order_acquire));
}

static inline void stripe_lock(shm_atomic_u32 *s)
{
	/* acquire: pairs with the release in stripe_unlock, so the last
	 * holder's changes to the stripe's elements happen before ours */
	if (__builtin_expect(atomic_exchange_explicit(s, 1, memory_order_acquire) != 0, 0))
		stripe_lock_slow(s);
}

static inline void stripe_unlock(shm_atomic_u32 *s)
{
	/* release: our changes before the next holder's acquire */
	atomic_store_explicit(s, 0, memory_order_release);
}

/* The stripes (a bit each) holding the elements that start at keys first
 * to last. */
static inline unsigned stripes_of(uint64_t first, uint64_t last)
{
	uint64_t a = first >> WIN_ACC_STRIPE_SHIFT, b = last >> WIN_ACC_STRIPE_SHIFT;
	unsigned mask = 0;

	if (b - a >= WIN_ACC_STRIPES - 1)
		return (1u << WIN_ACC_STRIPES) - 1;
	for (; a <= b; a++)
		mask |= 1u << (a % WIN_ACC_STRIPES);
	return mask;
}

/* Take the stripes of mask, lowest first (everybody takes them in that
 * order, so two accumulates never wait for each other in a cycle). */
static void stripes_lock(struct win *w, int target, unsigned mask)
{
	struct win_shm_acc *acc = win_shm_acc(w, target);

	for (unsigned m = mask; m; m &= m - 1)
		stripe_lock(&acc->stripe[__builtin_ctz(m)]);
}

static void stripes_unlock(struct win *w, int target, unsigned mask)
{
	struct win_shm_acc *acc = win_shm_acc(w, target);

	for (unsigned m = mask; m; m &= m - 1)
		stripe_unlock(&acc->stripe[__builtin_ctz(m)]);
}

/* ---- the kernel's run -------------------------------------------------------- */

/*
 * Large kernels run in pieces of ACC_FLIP_CHUNK bytes counted from the
 * start of the data, in alternating order: ascending on one call,
 * descending on the next (each piece ascending inside, the order the
 * hardware prefetchers follow best).  A program that accumulates the same
 * region again and again (an iterative method's contributions, a latency
 * benchmark) makes cyclic scans of a working set, origin and target data,
 * that may be a little larger than a cache level (L1, L2 or the last);
 * scanned in one direction, each scan evicts the lines the next needs
 * first, which is the worst case of least-recently-used replacement, while
 * a scan that starts where the last one ended finds them still in cache.
 * A program that accumulates a different region each time loses nothing
 * (it finds nothing in cache either way).  The result is the same: an
 * accumulate is element-wise (MPI 3.1, section 11.7.1), the stripes are
 * held for the whole run, and every element is visited once.  README
 * "Performance" has what it gains.  An accumulate of fewer than
 * ACC_FLIP_MIN bytes runs in one call: its origin and target data, under
 * 64 KiB together, come close to fitting an L1 data cache (32-48 KiB on
 * current x86 cores), and a call per piece would cost more than it saves.
 */
#define ACC_FLIP_MIN (32 * 1024)
#define ACC_FLIP_CHUNK 4096	/* bytes run ascending in one call */

static __thread unsigned acc_flip;	/* this thread's large kernels so far */

static void acc_kernel(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		       size_t w)
{
	/* (w, a basic type's size, is at most 32 bytes) */
	size_t step = ACC_FLIP_CHUNK / w, at;

	if (n * w < ACC_FLIP_MIN || (acc_flip++ & 1) == 0) {
		a->kernel(in, tgt, (MPI_Aint)n);
		return;
	}
	/* descending: the last (perhaps partial) chunk first */
	for (at = (n - 1) / step * step;; at -= step) {
		size_t m = n - at < step ? n - at : step;

		a->kernel(in + at * w, tgt + at * w, (MPI_Aint)m);
		if (at == 0)
			break;
	}
}

static void acc_plain(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		      size_t w, char *old);

/* Whether the n * w bytes at p and at q overlap. */
static inline int acc_overlap(const void *p, const void *q, size_t n, size_t w)
{
	return (uintptr_t)p < (uintptr_t)q + n * w && (uintptr_t)q < (uintptr_t)p + n * w;
}

/*
 * acc_plain with input and result buffers that overlap.  MPI 3.1, section
 * 11.3.4, wants them disjoint, but a fetch into the origin buffer (the
 * get-accumulate or fetch-and-op in place) is common, and gets the op of
 * the values it passed: the elements go in pieces, each piece's input
 * copied aside before its old values are written, the pieces in the order
 * that reads every input before a result lands on it (ascending when the
 * result buffer starts below the input, else descending).
 */
static void acc_in_place(const struct rma_acc *a, const char *in, char *tgt, size_t n,
			 size_t w, char *old)
{
	char copy[ACC_FLIP_CHUNK] __attribute__((aligned(64)));
	/* (w, a basic type's size, is at most 32 bytes) */
	size_t step = sizeof(copy) / w, last = (n - 1) / step;
	int down = (uintptr_t)old > (uintptr_t)in;

	for (size_t c = 0; c <= last; c++) {
		size_t at = (down ? last - c : c) * step, m = n - at < step ? n - at : step;

		memcpy(copy, in + at * w, m * w);
		acc_plain(a, copy, tgt + at * w, m, w, old + at * w);
	}
}

/* n elements with the plain kernels: nobody else accumulates there now. */
static void acc_plain(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		      size_t w, char *old)
{
	if (old && a->how != ACC_LOAD && n && acc_overlap(in, old, n, w)) {
		acc_in_place(a, in, tgt, n, w, old);
		return;
	}
	if (old)
		memcpy(old, tgt, n * w);
	if (a->how == ACC_SWAP) {
		memcpy(tgt, in, n * w);
		if (n * w >= SHM_NT_MIN)	/* non-temporal stores (shm/atomic.h) */
			shm_nt_fence();
	} else if (a->how != ACC_LOAD) {
		acc_kernel(a, in, tgt, n, w);
	}
}

void rma_acc_run(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		 size_t w, char *old, uint64_t key)
{
	unsigned mask;

	if (a->plain || n == 0) {
		/* exclusive lock held: nobody else accumulates here */
		acc_plain(a, in, tgt, n, w, old);
		return;
	}
	mask = stripes_of(key, key + (n - 1) * w);
	stripes_lock(a->w, a->target, mask);
	acc_plain(a, in, tgt, n, w, old);
	stripes_unlock(a->w, a->target, mask);
}

unsigned rma_acc_lock(const struct rma_acc *a, uint64_t first, uint64_t last)
{
	unsigned mask = a->plain ? 0 : stripes_of(first, last);

	stripes_lock(a->w, a->target, mask);
	return mask;
}

void rma_acc_unlock(const struct rma_acc *a, unsigned mask)
{
	stripes_unlock(a->w, a->target, mask);
}

void rma_acc_apply(const struct rma_acc *a, const char *in, char *tgt, size_t n, size_t w,
		   char *old)
{
	acc_plain(a, in, tgt, n, w, old);
}

/* ---- a few elements of a common type: the op inline ---------------------- */

/*
 * The accumulates of a few elements (at most RMA_AMO_MAX bytes, all in one
 * stripe) of the commonest types and ops, one call: the op's loop inline
 * and the one stripe taken inline, without the general path's table
 * lookups and stripe masks.  *old gets the values before.  MPI_NO_OP reads
 * nothing at in (the caller may pass anything there).
 */

/* y = x op y over n elements of type T at unaligned addresses, in blocks
 * of a fixed count (what GCC's -O2 cost model vectorises, as in
 * op_kernels.c), then the rest */
#define AMO_BLOCK 8
#define AMO_ONE(T, W, in, tgt, i, E)                                             \
	do {                                                                     \
		T x_, y_;                                                        \
                                                                                 \
		memcpy(&x_, (in) + (i) * (W), (W));                              \
		memcpy(&y_, (tgt) + (i) * (W), (W));                             \
		y_ = (T)E(x_, y_);                                               \
		memcpy((tgt) + (i) * (W), &y_, (W));                             \
	} while (0)
#define AMO_LOOP(T, W, in, tgt, n, E)                                            \
	{                                                                        \
		size_t i = 0;                                                    \
                                                                                 \
		for (; (n) - i >= AMO_BLOCK; i += AMO_BLOCK)                     \
			for (size_t j = 0; j < AMO_BLOCK; j++)                   \
				AMO_ONE(T, W, in, tgt, i + j, E);                \
		for (; i < (n); i++)                                             \
			AMO_ONE(T, W, in, tgt, i, E);                            \
	}

/*
 * Integers: the ops with an instruction, on the unsigned type of the size
 * (two's complement wraps); floating point: MPI_SUM.  MPI_REPLACE and
 * MPI_NO_OP for both.  Each is built twice from one body: for one element
 * (one_*, straight-line code) and for more (amo_*, vectorised for the
 * widest vectors the CPU has, OP_CLONES).
 */
#define AMO_BODY(T, W, BITS, op, in, tgt, old, n)                                \
	do {                                                                     \
		if (old)                                                         \
			memcpy(old, tgt, (n) * (W));                             \
		switch (op) {                                                    \
		case MPI_SUM: AMO_LOOP(T, W, in, tgt, n, E_SUM) break;           \
		BITS(T, W, in, tgt, n)                                           \
		case MPI_REPLACE: memcpy(tgt, in, (n) * (W)); break;             \
		default: break;	/* MPI_NO_OP */                                  \
		}                                                                \
	} while (0)
/* the bit ops, for the integers */
#define AMO_BITS(T, W, in, tgt, n)                                               \
	case MPI_BAND: AMO_LOOP(T, W, in, tgt, n, E_BAND) break;                 \
	case MPI_BOR: AMO_LOOP(T, W, in, tgt, n, E_BOR) break;                   \
	case MPI_BXOR: AMO_LOOP(T, W, in, tgt, n, E_BXOR) break;
#define AMO_NO_BITS(T, W, in, tgt, n)
#define E_SUM(x, y) ((x) + (y))
#define E_BAND(x, y) ((x) & (y))
#define E_BOR(x, y) ((x) | (y))
#define E_BXOR(x, y) ((x) ^ (y))

typedef void amo_fn(MPI_Op op, const char *restrict in, char *restrict tgt,
		    char *restrict old, size_t n);

#define AMO(SFX, T, W, BITS)                                                      \
static void one_##SFX(MPI_Op op, const char *restrict in, char *restrict tgt,    \
		      char *restrict old, size_t n)                              \
{                                                                                \
	(void)n;                                                                 \
	AMO_BODY(T, W, BITS, op, in, tgt, old, 1);                                \
}                                                                                \
OP_CLONES static void amo_##SFX(MPI_Op op, const char *restrict in,              \
				char *restrict tgt, char *restrict old, size_t n) \
{                                                                                \
	AMO_BODY(T, W, BITS, op, in, tgt, old, n);                                \
}

AMO(u8, uint8_t, 1, AMO_BITS)
AMO(u16, uint16_t, 2, AMO_BITS)
AMO(u32, uint32_t, 4, AMO_BITS)
AMO(u64, uint64_t, 8, AMO_BITS)
AMO(f, float, 4, AMO_NO_BITS)
AMO(d, double, 8, AMO_NO_BITS)

int rma_amo(struct win *w, int target, char *tgt, MPI_Datatype type, size_t size,
	    MPI_Op op, const void *in, void *old, size_t n, uint64_t key)
{
	int fl = type == MPI_DOUBLE || type == MPI_FLOAT || type == MPI_REAL ||
		 type == MPI_DOUBLE_PRECISION || type == MPI_REAL4 || type == MPI_REAL8;
	shm_atomic_u32 *stripe;
	amo_fn *amo;

	/* (n * size <= RMA_AMO_MAX: the caller's check) the keys in one
	 * stripe; a fetch into the origin buffer itself goes to acc_plain,
	 * which knows how (acc_in_place) */
	if (key >> WIN_ACC_STRIPE_SHIFT != (key + n * size - 1) >> WIN_ACC_STRIPE_SHIFT ||
	    (old && op != MPI_NO_OP && acc_overlap(in, old, n, size)))
		return 0;
	if (!fl && !rma_is_integer(type))
		return 0;
	/* the ops defined on the type (op_kernels.c): MPI_BYTE has no sum,
	 * MPI_WCHAR only replace and no-op, floating point no bit ops */
	switch (op) {
	case MPI_NO_OP:
	case MPI_REPLACE:
		break;
	case MPI_SUM:
		if (type == MPI_BYTE || type == MPI_WCHAR)
			return 0;
		break;
	case MPI_BAND:
	case MPI_BOR:
	case MPI_BXOR:
		if (fl || type == MPI_WCHAR)
			return 0;
		break;
	default:
		return 0;
	}
	switch (size | (size_t)fl << 8) {
	case 1: amo = n == 1 ? one_u8 : amo_u8; break;
	case 2: amo = n == 1 ? one_u16 : amo_u16; break;
	case 4: amo = n == 1 ? one_u32 : amo_u32; break;
	case 8: amo = n == 1 ? one_u64 : amo_u64; break;
	case 4 | 1 << 8: amo = n == 1 ? one_f : amo_f; break;
	case 8 | 1 << 8: amo = n == 1 ? one_d : amo_d; break;
	default: return 0;
	}
	if (w->locked[target] == WIN_LOCKED_EXCLUSIVE) {
		amo(op, in, tgt, old, n);
		return 1;
	}
	stripe = &win_shm_acc(w, target)->stripe[(key >> WIN_ACC_STRIPE_SHIFT) %
						  WIN_ACC_STRIPES];
	stripe_lock(stripe);
	amo(op, in, tgt, old, n);
	stripe_unlock(stripe);
	return 1;
}

/* x87 extended precision: 80 bits of value in the 16 bytes of a long
 * double, the rest padding that a store leaves as it was */
#if LDBL_MANT_DIG == 64
#define RMA_LDBL_BYTES 10
#else
#define RMA_LDBL_BYTES sizeof(long double)
#endif

size_t rma_cas_bytes(MPI_Datatype t)
{
	const struct datatype *dt;

	/* the types MPI_Type_create_f90_* returns are predefined (MPI 3.1,
	 * 17.1.9): each is laid out as its named type, dt->basic */
	if (!(dt = dt_get(t)) || !dt_predefined(dt) || !dt->contig)
		return 0;
	switch (dt->size) {
	case 1: case 2: case 4: case 8: case 16:
		return dt->basic == MPI_LONG_DOUBLE ? RMA_LDBL_BYTES : (size_t)dt->size;
	default:
		return 0;
	}
}

void rma_cas_apply(char *tgt, const char *compare, const char *in, char *old, size_t w,
		   size_t cmp)
{
	/* compared before old is written: compare may be the result buffer */
	int same = !memcmp(tgt, compare, cmp);

	memcpy(old, tgt, w);
	if (same)
		memcpy(tgt, in, w);
}

void rma_cas_run(struct win *win, int target, size_t w, size_t cmp, const char *compare,
		 const char *in, char *tgt, char *old, uint64_t key)
{
	unsigned mask;

	mask = win->locked[target] == WIN_LOCKED_EXCLUSIVE ? 0 : stripes_of(key, key);
	stripes_lock(win, target, mask);
	rma_cas_apply(tgt, compare, in, old, w, cmp);
	stripes_unlock(win, target, mask);
}
