/*
 * Accumulates in window memory: one element at a time, atomically with
 * respect to every other accumulate on that element, whatever the op.
 *
 * An element of 1, 2, 4 or 8 bytes, naturally aligned, is changed with one
 * atomic instruction: fetch-and-add/and/or/xor for the integer ops that have
 * one, an exchange for MPI_REPLACE, a load for MPI_NO_OP, and otherwise a
 * compare-and-swap loop around the op's plain kernel applied to a private
 * copy (so MAX on doubles, PROD, the logical ops, MINLOC on MPI_FLOAT_INT
 * all stay atomic).  16-byte elements use cmpxchg16b on x86-64.  Anything
 * else (32-byte pairs, misaligned elements, other machines) takes one of the
 * window's stripe locks, chosen by the element's place in the target's
 * window, so every origin picks the same lock for the same element.  All
 * accumulates to one element use the same one of these ways, since the way
 * depends only on the element's type and address.
 *
 * An origin holding an exclusive lock on the target has no concurrent
 * accumulates to fear and uses the plain (vectorised) kernels.
 *
 * A long accumulate (ACC_BULK_MIN elements or more) uses them too, behind
 * the target's gate (struct win_shm_acc): it takes the target's bulk lock,
 * raises GATE_BULK, and waits until no origin is inside the element-wise
 * path for this target.  The element-wise path announces itself in its own
 * `busy` word and then checks the gate (Dekker's order: store, fence,
 * load); if a bulk accumulate is under way it steps back and works under
 * the bulk lock instead.  So a plain loop never overlaps an atomic on the
 * same target.
 *
 * When every rank of the window registered for membarrier(2)
 * (w->gate_asym), the gate of a target is in one of two modes.  Unfenced
 * (GATE_FENCED clear, the start): the element-wise side's fence is a
 * compiler barrier and the bulk side pays for both with shm_membarrier(); a
 * short accumulate then costs two stores to a line of its own and one load
 * more.  Fenced: both sides fence, and a bulk accumulate makes no system
 * call.  The first bulk accumulate of an unfenced target sets GATE_FENCED
 * along with GATE_BULK before its membarrier, so every element-wise
 * accumulate either is seen busy (and waited for) or sees the new mode; the
 * bulk accumulates after it are cheap.  An origin that fenced
 * GATE_UNFENCE_AFTER element-wise accumulates (about what one membarrier
 * costs in fences) clears GATE_FENCED again, under the bulk lock, so that no
 * bulk accumulate is then deciding whether to make the call; an origin that
 * read the mode before the change still fences, which is always safe.
 * Whichever mix of short and long accumulates comes, the gate costs at
 * most about twice what the better fixed mode would.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../shm/membarrier.h"
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
	case MPI_OFFSET: case MPI_WCHAR:
		return 1;
	default:
		return 0;
	}
}

/* One element of width W bytes with an op that has an instruction (how is
 * not ACC_KERNEL); the value before goes to old unless it is NULL.
 * ACC_LOAD does not read in. */
#define AMO_INT(W, T)                                                           \
static void amo_int_##W(enum acc_how how, const void *in, void *tgt, void *old) \
{                                                                               \
	_Atomic T *p = (_Atomic T *)tgt;                                        \
	T v = 0, prev;                                                          \
                                                                                \
	if (how != ACC_LOAD)                                                    \
		memcpy(&v, in, W);                                              \
	switch (how) {                                                          \
	case ACC_LOAD:                                                          \
		prev = atomic_load_explicit(p, memory_order_acquire);           \
		break;                                                          \
	case ACC_ADD:                                                           \
		prev = atomic_fetch_add_explicit(p, v, memory_order_acq_rel);   \
		break;                                                          \
	case ACC_AND:                                                           \
		prev = atomic_fetch_and_explicit(p, v, memory_order_acq_rel);   \
		break;                                                          \
	case ACC_OR:                                                            \
		prev = atomic_fetch_or_explicit(p, v, memory_order_acq_rel);    \
		break;                                                          \
	case ACC_XOR:                                                           \
		prev = atomic_fetch_xor_explicit(p, v, memory_order_acq_rel);   \
		break;                                                          \
	default:	/* ACC_SWAP */                                          \
		prev = atomic_exchange_explicit(p, v, memory_order_acq_rel);    \
		break;                                                          \
	}                                                                       \
	if (old)                                                                \
		memcpy(old, &prev, W);                                          \
}

AMO_INT(1, uint8_t)
AMO_INT(2, uint16_t)
AMO_INT(4, uint32_t)
AMO_INT(8, uint64_t)

/* One element of width W bytes: *old gets the value before. */
#define ATOMIC_ELEM(W, T)                                                       \
static void acc_elem_##W(const struct rma_acc *a, const char *in, char *tgt,   \
			 char *old)                                             \
{                                                                               \
	_Atomic T *p = (_Atomic T *)(void *)tgt;                                \
	T prev, next;                                                           \
                                                                                \
	if (a->how != ACC_KERNEL) {                                             \
		amo_int_##W(a->how, in, tgt, old);                              \
		return;                                                         \
	}                                                                       \
	prev = atomic_load_explicit(p, memory_order_relaxed);                   \
	do {                                                                    \
		next = prev;                                                    \
		a->kernel(in, &next, 1);                                        \
	} while (!atomic_compare_exchange_weak_explicit(p, &prev, next,         \
			memory_order_acq_rel, memory_order_relaxed));           \
	if (old)                                                                \
		memcpy(old, &prev, W);                                          \
}

ATOMIC_ELEM(1, uint8_t)
ATOMIC_ELEM(2, uint16_t)
ATOMIC_ELEM(4, uint32_t)
ATOMIC_ELEM(8, uint64_t)

#if defined(__x86_64__)
/* 16-byte compare-and-swap; returns whether it stored, *expected updated. */
static int cas16(void *p, unsigned __int128 *expected, unsigned __int128 desired)
{
	uint64_t lo = (uint64_t)*expected, hi = (uint64_t)(*expected >> 64);
	uint64_t dlo = (uint64_t)desired, dhi = (uint64_t)(desired >> 64);
	unsigned char ok;

	__asm__ __volatile__("lock cmpxchg16b %1\n\tsetz %0"
			     : "=q"(ok), "+m"(*(unsigned __int128 *)p), "+a"(lo), "+d"(hi)
			     : "b"(dlo), "c"(dhi)
			     : "memory", "cc");
	*expected = ((unsigned __int128)hi << 64) | lo;
	return ok;
}

static void acc_elem_16(const struct rma_acc *a, const char *in, char *tgt, char *old)
{
	unsigned __int128 prev = 0, next;

	/* a failing compare-and-swap reads the element atomically */
	cas16(tgt, &prev, prev);
	if (a->how != ACC_LOAD) {
		do {
			if (a->how == ACC_SWAP)
				memcpy(&next, in, 16);
			else {
				next = prev;
				a->kernel(in, &next, 1);
			}
		} while (!cas16(tgt, &prev, next));
	}
	if (old)
		memcpy(old, &prev, 16);
}
#endif

/* Under a stripe lock: plain code on one element of any size. */
static void acc_elem_locked(const struct rma_acc *a, const char *in, char *tgt,
			    char *old, size_t w, uint64_t key)
{
	struct shm_rwlock *l = win_shm_stripe(a->w, (unsigned)(((uint64_t)a->target *
					      0x9e3779b97f4a7c15ull + key / w) %
					      WIN_STRIPES));

	shm_rwlock_write_lock(l, rt.spins);
	if (old)
		memcpy(old, tgt, w);
	if (a->how == ACC_SWAP)
		memcpy(tgt, in, w);
	else if (a->how != ACC_LOAD)
		a->kernel(in, tgt, 1);
	shm_rwlock_write_unlock(l);
}

int rma_acc_prepare(struct rma_acc *a, const struct op *op, MPI_Datatype basic)
{
	enum op_kind k = op_kind(op);

	a->kernel = op_kernel(op, basic);
	a->basic = basic;
	/* the op must apply to the type (MPI_SUM on MPI_BYTE does not) */
	if (!a->kernel)
		return -EINVAL;
	switch (k) {
	case OP_NO_OP:
		a->how = ACC_LOAD;
		return 0;
	case OP_REPLACE:
		a->how = ACC_SWAP;
		return 0;
	case OP_SUM:
	case OP_BAND:
	case OP_BOR:
	case OP_BXOR:
		if (rma_is_integer(basic)) {
			a->how = k == OP_SUM ? ACC_ADD : k == OP_BAND ? ACC_AND :
				 k == OP_BOR ? ACC_OR : ACC_XOR;
			return 0;
		}
		break;
	default:
		break;
	}
	a->how = ACC_KERNEL;
	return 0;
}

/* ---- the gate between element-wise and bulk accumulates ----------------- */

/* Spin, then give the core away (the awaited rank may share it). */
static void gate_pause(unsigned *i)
{
	if (++*i > rt.spins)
		sched_yield();
	else
		shm_cpu_relax();
}

/* The gate word of a target (struct win_shm_acc.gate). */
#define GATE_BULK	1u	/* a bulk accumulate is under way */
#define GATE_FENCED	2u	/* with gate_asym: the element-wise side fences */

/* Element-wise accumulates fenced before an origin unfences the gate. */
#define GATE_UNFENCE_AFTER 512u

/* Back to the unfenced mode, if the bulk lock is free: nobody decides on the
 * membarrier meanwhile, and an element-wise accumulate that still reads
 * GATE_FENCED fences for nothing. */
static __attribute__((noinline)) void gate_unfence(struct win *w, int target)
{
	struct win_shm_acc *t = win_shm_acc(w, target);

	w->gate_fenced = 0;
	if (shm_rwlock_try_write(&t->bulk_lock) < 0)
		return;
	atomic_store_explicit(&t->gate, 0, memory_order_relaxed);
	shm_rwlock_write_unlock(&t->bulk_lock);
}

/* Enter the element-wise path for target; returns 1 when it holds the bulk
 * lock instead of the gate (a bulk accumulate was under way). */
static int gate_enter(struct win *w, int target)
{
	shm_atomic_u32 *busy = &win_shm_acc(w, w->rank)->busy;
	struct win_shm_acc *t = win_shm_acc(w, target);
	uint32_t g;

	/* store, fence, load: either the bulk side sees busy, or this side
	 * sees GATE_BULK (acquire: and then the bulk side's plain stores) */
	if (w->gate_asym) {
		atomic_store_explicit(busy, (uint32_t)target + 1, memory_order_relaxed);
		atomic_signal_fence(memory_order_seq_cst);	/* bulk_begin fences */
		g = atomic_load_explicit(&t->gate, memory_order_seq_cst);
		if (__builtin_expect(g & GATE_FENCED, 0)) {
			/* the fenced mode: bulk_begin makes no call for us */
			shm_fence();
			g = atomic_load_explicit(&t->gate, memory_order_seq_cst);
			if (++w->gate_fenced >= GATE_UNFENCE_AFTER && !(g & GATE_BULK)) {
				atomic_store_explicit(busy, 0, memory_order_release);
				gate_unfence(w, target);
				return gate_enter(w, target);
			}
		}
	} else {
		atomic_exchange_explicit(busy, (uint32_t)target + 1, memory_order_seq_cst);
		g = atomic_load_explicit(&t->gate, memory_order_seq_cst);
	}
	if (!(g & GATE_BULK))
		return 0;
	atomic_store_explicit(busy, 0, memory_order_release);
	shm_rwlock_write_lock(&t->bulk_lock, rt.spins);
	return 1;
}

static void gate_leave(struct win *w, int target, int locked)
{
	if (locked)
		shm_rwlock_write_unlock(&win_shm_acc(w, target)->bulk_lock);
	else	/* release: a bulk accumulate that sees 0 sees the changes */
		atomic_store_explicit(&win_shm_acc(w, w->rank)->busy, 0,
				      memory_order_release);
}

static void bulk_begin(struct win *w, int target)
{
	struct win_shm_acc *t = win_shm_acc(w, target);
	uint32_t g;

	shm_rwlock_write_lock(&t->bulk_lock, rt.spins);
	/* the gate changes only under the bulk lock: this is its value */
	g = atomic_load_explicit(&t->gate, memory_order_relaxed);
	atomic_exchange_explicit(&t->gate, GATE_BULK | GATE_FENCED, memory_order_seq_cst);
	/* unfenced: the element-wise side's fence, run on its CPUs
	 * (gate_enter); from now on that side fences itself */
	if (w->gate_asym && !(g & GATE_FENCED) && shm_membarrier() < 0) {
		fprintf(stderr, "shmpi: rank %d: membarrier failed after registering\n",
			rt.rank);
		runtime_abort_job(MPI_ERR_INTERN);
	}
	for (int r = 0; r < w->size; r++) {
		shm_atomic_u32 *busy = &win_shm_acc(w, r)->busy;
		unsigned i = 0;

		while (atomic_load_explicit(busy, memory_order_seq_cst) ==
		       (uint32_t)target + 1)
			gate_pause(&i);
	}
}

static void bulk_end(struct win *w, int target)
{
	/* release: an element-wise accumulate that sees the gate open sees
	 * the plain stores */
	atomic_store_explicit(&win_shm_acc(w, target)->gate, GATE_FENCED,
			      memory_order_release);
	shm_rwlock_write_unlock(&win_shm_acc(w, target)->bulk_lock);
}

/* n elements with the plain kernels: nobody else accumulates there now. */
static void acc_plain(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		      size_t w, char *old)
{
	if (old)
		memcpy(old, tgt, n * w);
	if (a->how == ACC_SWAP) {
		memcpy(tgt, in, n * w);
		if (n * w >= SHM_NT_MIN)	/* non-temporal stores (shm/atomic.h) */
			shm_nt_fence();
	} else if (a->how != ACC_LOAD) {
		a->kernel(in, tgt, (MPI_Aint)n);
	}
}

void rma_acc_run(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		 size_t w, char *old, uint64_t key)
{
	int locked;

	if (a->plain) {
		/* exclusive lock held: nobody else accumulates here */
		acc_plain(a, in, tgt, n, w, old);
		return;
	}
	if (n >= ACC_BULK_MIN) {
		bulk_begin(a->w, a->target);
		acc_plain(a, in, tgt, n, w, old);
		bulk_end(a->w, a->target);
		return;
	}
	locked = gate_enter(a->w, a->target);
	for (size_t i = 0; i < n; i++, in += w, tgt += w, key += w,
	     old = old ? old + w : NULL) {
		int aligned = ((uintptr_t)tgt & (w - 1)) == 0 && (w & (w - 1)) == 0;

		switch (aligned ? w : 0) {
		case 1: acc_elem_1(a, in, tgt, old); break;
		case 2: acc_elem_2(a, in, tgt, old); break;
		case 4: acc_elem_4(a, in, tgt, old); break;
		case 8: acc_elem_8(a, in, tgt, old); break;
#if defined(__x86_64__)
		case 16: acc_elem_16(a, in, tgt, old); break;
#endif
		default: acc_elem_locked(a, in, tgt, old, w, key); break;
		}
	}
	gate_leave(a->w, a->target, locked);
}

/* ---- one element of a common type: the atomic inline -------------------- */

/* Floating point: ACC_LOAD, ACC_SWAP, or ACC_ADD, which is a
 * compare-and-swap loop around the addition. */
#define AMO_FLOAT(W, T, F)                                                      \
static void amo_float_##W(enum acc_how how, const void *in, void *tgt, void *old) \
{                                                                               \
	_Atomic T *p = (_Atomic T *)tgt;                                        \
	T v, prev, next;                                                        \
	F x, y;                                                                 \
                                                                                \
	if (how == ACC_LOAD) {                                                  \
		prev = atomic_load_explicit(p, memory_order_acquire);           \
	} else if (how == ACC_SWAP) {                                           \
		memcpy(&v, in, W);                                              \
		prev = atomic_exchange_explicit(p, v, memory_order_acq_rel);    \
	} else {                                                                \
		memcpy(&y, in, W);                                              \
		prev = atomic_load_explicit(p, memory_order_relaxed);           \
		do {                                                            \
			memcpy(&x, &prev, W);                                   \
			x += y;                                                 \
			memcpy(&next, &x, W);                                   \
		} while (!atomic_compare_exchange_weak_explicit(p, &prev, next, \
				memory_order_acq_rel, memory_order_relaxed));   \
	}                                                                       \
	if (old)                                                                \
		memcpy(old, &prev, W);                                          \
}

AMO_FLOAT(4, uint32_t, float)
AMO_FLOAT(8, uint64_t, double)

int rma_amo(struct win *w, int target, char *tgt, MPI_Datatype type, size_t size,
	    MPI_Op op, const void *in, void *old)
{
	int fl = type == MPI_DOUBLE || type == MPI_FLOAT, locked;
	enum acc_how how;

	if (((uintptr_t)tgt & (size - 1)) || (!fl && !rma_is_integer(type)))
		return 0;
	/* the ops defined on the type (op_kernels.c): MPI_BYTE has no sum,
	 * MPI_WCHAR only replace and no-op, floating point no bit ops */
	switch (op) {
	case MPI_NO_OP: how = ACC_LOAD; break;
	case MPI_REPLACE: how = ACC_SWAP; break;
	case MPI_SUM: how = ACC_ADD; break;
	case MPI_BAND: how = ACC_AND; break;
	case MPI_BOR: how = ACC_OR; break;
	case MPI_BXOR: how = ACC_XOR; break;
	default: return 0;
	}
	if ((how == ACC_ADD && type == MPI_BYTE) ||
	    ((how == ACC_ADD || how == ACC_AND || how == ACC_OR || how == ACC_XOR) &&
	     type == MPI_WCHAR) ||
	    ((how == ACC_AND || how == ACC_OR || how == ACC_XOR) && fl))
		return 0;
	locked = gate_enter(w, target);
	switch (size | (size_t)fl << 8) {
	case 1: amo_int_1(how, in, tgt, old); break;
	case 2: amo_int_2(how, in, tgt, old); break;
	case 4: amo_int_4(how, in, tgt, old); break;
	case 8: amo_int_8(how, in, tgt, old); break;
	case 4 | 1 << 8: amo_float_4(how, in, tgt, old); break;
	case 8 | 1 << 8: amo_float_8(how, in, tgt, old); break;
	default:
		gate_leave(w, target, locked);
		return 0;
	}
	gate_leave(w, target, locked);
	return 1;
}

int rma_cas_run(struct win *win, int target, size_t w, const char *compare,
		const char *in, char *tgt, char *old)
{
	int locked;

	if (((uintptr_t)tgt & (w - 1)) != 0 || (w != 1 && w != 2 && w != 4 && w != 8))
		return -EINVAL;
	locked = gate_enter(win, target);
#define CAS_W(W, T)                                                             \
	case W: {                                                               \
		T expect, desired;                                              \
		memcpy(&expect, compare, W);                                    \
		memcpy(&desired, in, W);                                        \
		atomic_compare_exchange_strong_explicit((_Atomic T *)(void *)tgt,\
			&expect, desired, memory_order_acq_rel,                 \
			memory_order_acquire);                                  \
		memcpy(old, &expect, W);                                        \
		break;                                                          \
	}
	switch (w) {
	CAS_W(1, uint8_t)
	CAS_W(2, uint16_t)
	CAS_W(4, uint32_t)
	CAS_W(8, uint64_t)
	}
#undef CAS_W
	gate_leave(win, target, locked);
	return 0;
}
