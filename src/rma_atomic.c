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
 * raises `bulk`, and waits until no origin is inside the element-wise path
 * for this target.  The element-wise path announces itself in its own
 * `busy` word and then checks `bulk` (Dekker's order: store, full fence,
 * load); if a bulk accumulate is under way it steps back and works under
 * the bulk lock instead.  So a plain loop never overlaps an atomic on the
 * same target, and a short accumulate costs one fenced store to a line of
 * its own more.
 */
#include <sched.h>
#include <string.h>

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

/* One element of width W bytes: *old gets the value before. */
#define ATOMIC_ELEM(W, T)                                                       \
static void acc_elem_##W(const struct rma_acc *a, const char *in, char *tgt,   \
			 char *old)                                             \
{                                                                               \
	_Atomic T *p = (_Atomic T *)(void *)tgt;                                \
	T v, prev, next;                                                        \
                                                                                \
	memcpy(&v, in, W);                                                      \
	switch (a->how) {                                                       \
	case ACC_LOAD:                                                          \
		prev = atomic_load_explicit(p, memory_order_acquire);           \
		break;                                                          \
	case ACC_SWAP:                                                          \
		prev = atomic_exchange_explicit(p, v, memory_order_acq_rel);    \
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
	default:                                                                \
		prev = atomic_load_explicit(p, memory_order_relaxed);           \
		do {                                                            \
			next = prev;                                            \
			a->kernel(in, &next, 1);                                \
		} while (!atomic_compare_exchange_weak_explicit(                \
				p, &prev, next, memory_order_acq_rel,           \
				memory_order_relaxed));                         \
	}                                                                       \
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

/* Enter the element-wise path for target; returns 1 when it holds the bulk
 * lock instead of the gate (a bulk accumulate was under way). */
static int gate_enter(struct win *w, int target)
{
	shm_atomic_u32 *busy = &win_shm_acc(w, w->rank)->busy;
	struct win_shm_acc *t = win_shm_acc(w, target);

	/* seq_cst exchange then seq_cst load: either the bulk side sees busy,
	 * or this side sees bulk */
	atomic_exchange_explicit(busy, (uint32_t)target + 1, memory_order_seq_cst);
	if (!atomic_load_explicit(&t->bulk, memory_order_seq_cst))
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

	shm_rwlock_write_lock(&t->bulk_lock, rt.spins);
	atomic_exchange_explicit(&t->bulk, 1, memory_order_seq_cst);
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
	struct win_shm_acc *t = win_shm_acc(w, target);

	atomic_store_explicit(&t->bulk, 0, memory_order_release);
	shm_rwlock_write_unlock(&t->bulk_lock);
}

/* n elements with the plain kernels: nobody else accumulates there now. */
static void acc_plain(const struct rma_acc *a, const char *in, char *tgt, size_t n,
		      size_t w, char *old)
{
	if (old)
		memcpy(old, tgt, n * w);
	if (a->how == ACC_SWAP)
		memcpy(tgt, in, n * w);
	else if (a->how != ACC_LOAD)
		a->kernel(in, tgt, (MPI_Aint)n);
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
