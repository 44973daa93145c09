/*
 * Passive-target synchronization: MPI_Win_lock, MPI_Win_unlock,
 * MPI_Win_lock_all, MPI_Win_unlock_all, the flushes and MPI_Win_sync.
 *
 * Each target has a fair reader/writer lock in the window segment; an
 * exclusive lock also takes the window's group lock as kind B, and lock_all
 * takes it as kind A (one operation, not one per target), so lock_all and
 * exclusive locks exclude each other while shared locks and lock_all mix.
 * The origin takes and releases the locks alone.  A waiter keeps its
 * progress engine running and sleeps on its doorbell; it publishes that it
 * waits for a lock of this window (its rank state) and counts itself in
 * lock_waiters, and whoever releases a lock of the window while someone
 * waits rings the doorbells of the ranks whose state says so.
 *
 * That is the direct path (win_ops_direct); targets whose memory is private
 * are locked, unlocked and flushed by rma_pkt_origin.c through the same
 * table of operations.
 */
#include "api.h"
#include "errhandler.h"
#include "progress.h"
#include "rma_pkt.h"
#include "rma.h"
#include "state.h"
#include "win.h"

/* One lock being acquired: the ticket and how to ask whether it is granted
 * (asked again after a yes, it must keep saying yes without re-granting). */
struct lock_wait {
	struct win *w;
	int target;
	int kind;		/* 0: shared, 1: exclusive rwlock, 2: group A, 3: group B */
	uint32_t ticket;
	int granted;
};

static int lock_granted(void *arg)
{
	struct lock_wait *l = arg;
	struct shm_rwlock *rw = &win_shm_target(l->w, l->target)->lock;

	if (l->granted)
		return 1;
	switch (l->kind) {
	case 0:
		l->granted = shm_rwlock_read_ready(rw, l->ticket);
		break;
	case 1:
		l->granted = shm_rwlock_write_ready(rw, l->ticket);
		break;
	default:
		l->granted = shm_grouplock_ready(&l->w->shm->all, l->kind == 2 ?
						 SHM_GROUP_A : SHM_GROUP_B, l->ticket);
	}
	/* for the watchdog: who keeps us waiting, if one rank does */
	if (!l->granted && l->kind < 2)
		state_lock_holder((int)atomic_load_explicit(
			&win_shm_target(l->w, l->target)->holder, memory_order_relaxed) - 1);
	return l->granted;
}

/* Wait for a lock ticket with the engine running. */
static void lock_wait(struct win *w, enum call_id call, struct lock_wait *l)
{
	if (lock_granted(l))
		return;
	state_block(call, WAIT_WIN_LOCK, l->target < 0 ? -1 :
		    comm_world_rank(w->comm, l->target), l->kind, w->comm->ctx);
	/* seq_cst: our published state before the count; pairs with the
	 * look at it in win_lock_released() */
	atomic_fetch_add_explicit(&w->shm->lock_waiters, 1, memory_order_seq_cst);
	progress_wait(lock_granted, l);
	atomic_fetch_sub_explicit(&w->shm->lock_waiters, 1, memory_order_relaxed);
	state_unblock(call);
}

/* After releasing a lock (with a seq_cst read-modify-write, as every
 * unlock of shm/rwlock.h is): wake the ranks that wait for one of this
 * window. */
static __attribute__((noinline)) void wake_lock_waiters(struct win *w)
{
	for (int r = 0; r < w->size; r++) {
		int world = comm_world_rank(w->comm, r);
		struct shm_rank_state *s = &shm_job_rank(rt.job, world)->state;

		if (r != w->rank &&
		    atomic_load_explicit(&s->wait_kind, memory_order_relaxed) == WAIT_WIN_LOCK &&
		    atomic_load_explicit(&s->ctx, memory_order_relaxed) == w->comm->ctx)
			progress_wake_rank(world);
	}
}

static inline void win_lock_released(struct win *w)
{
	/* seq_cst after the seq_cst release: one of them sees the other, the
	 * release or the increment in lock_wait() */
	if (atomic_load_explicit(&w->shm->lock_waiters, memory_order_seq_cst) != 0)
		wake_lock_waiters(w);
}

/* Whether another epoch keeps a lock from beginning (fence epochs without
 * operations end quietly). */
static int lock_conflict(struct win *w)
{
	if (w->start_group || (w->fence_on && w->fence_used))
		return 1;
	w->fence_on = 0;
	return 0;
}

static __attribute__((noinline)) int
win_lock_general(int lock_type, int rank, int assert, MPI_Win win)
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_lock");
	if (!(w = win_arg("MPI_Win_lock", win, &rc)))
		return rc;
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		return win_err(w, "MPI_Win_lock", MPI_ERR_LOCKTYPE, "lock_type",
			       "%d is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE",
			       lock_type);
	if (rank < 0 || rank >= w->size)
		return win_err(w, "MPI_Win_lock", MPI_ERR_RANK, "rank",
			       "%d is not a rank of the window (size %d)", rank, w->size);
	if (assert & ~MPI_MODE_NOCHECK)
		return win_err(w, "MPI_Win_lock", MPI_ERR_ASSERT, "assert",
			       "0x%x: only MPI_MODE_NOCHECK applies to lock", assert);
	if (w->no_locks)
		return win_err(w, "MPI_Win_lock", MPI_ERR_RMA_SYNC, "win",
			       "was created with the info no_locks=true");
	if (w->locked[rank] || w->lock_all || lock_conflict(w))
		return win_err(w, "MPI_Win_lock", MPI_ERR_RMA_SYNC, "rank",
			       w->locked[rank] ? "rank %d is locked already in this epoch" :
			       "another access epoch is open (rank %d)", rank);
	if (assert & MPI_MODE_NOCHECK) {
		w->locked[rank] = WIN_LOCKED_NOCHECK;
	} else {
		w->t[rank].ops->lock(w, rank, lock_type);
		w->locked[rank] = lock_type == MPI_LOCK_SHARED ? WIN_LOCKED_SHARED :
				  WIN_LOCKED_EXCLUSIVE;
	}
	w->nlocked++;
	return MPI_SUCCESS;
}

/* A waiting shared lock of a direct target, its ticket taken (Win_lock). */
static __attribute__((noinline)) void lock_shared_wait(struct win *w, int rank,
							 uint32_t ticket)
{
	struct lock_wait l = { w, rank, 0, ticket, 0 };

	lock_wait(w, CALL_WIN_LOCK, &l);
}

API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
{
	struct win *w = win_get(win);
	uint32_t ticket;

	/* the common case in a few instructions: a shared lock of a target on
	 * the direct path, no epoch open to it, no fence or PSCW epoch */
	if (rt.phase != RUNTIME_ACTIVE || !w || lock_type != MPI_LOCK_SHARED || assert ||
	    (unsigned)rank >= (unsigned)w->size || w->locked[rank] || w->lock_all ||
	    w->no_locks || w->start_group || w->fence_on ||
	    w->t[rank].ops != &win_ops_direct)
		return win_lock_general(lock_type, rank, assert, win);
	if (!shm_rwlock_read_enter(&win_shm_target(w, rank)->lock, &ticket))
		lock_shared_wait(w, rank, ticket);
	w->locked[rank] = WIN_LOCKED_SHARED;
	w->nlocked++;
	return MPI_SUCCESS;
}

void rma_direct_lock(struct win *w, int rank, int lock_type)
{
	struct lock_wait l;

	if (lock_type == MPI_LOCK_SHARED) {
		l = (struct lock_wait){ w, rank, 0, 0, 0 };
		l.ticket = shm_rwlock_read_begin(&win_shm_target(w, rank)->lock);
		lock_wait(w, CALL_WIN_LOCK, &l);
	} else {
		/* the group lock first (against lock_all), then the target */
		l = (struct lock_wait){ w, rank, 3, 0, 0 };
		l.ticket = shm_grouplock_begin(&w->shm->all, SHM_GROUP_B);
		lock_wait(w, CALL_WIN_LOCK, &l);
		l = (struct lock_wait){ w, rank, 1, 0, 0 };
		l.ticket = shm_rwlock_write_begin(&win_shm_target(w, rank)->lock);
		lock_wait(w, CALL_WIN_LOCK, &l);
		atomic_store_explicit(&win_shm_target(w, rank)->holder,
				      (uint32_t)rt.rank + 1, memory_order_relaxed);
	}
}

void rma_direct_unlock(struct win *w, int rank)
{
	/* our operations are complete; the unlock's seq_cst read-modify-write
	 * publishes them and fences (MPI_MODE_NOCHECK: the fence alone) */
	switch (w->locked[rank]) {
	case WIN_LOCKED_SHARED:
		shm_rwlock_read_unlock(&win_shm_target(w, rank)->lock);
		win_lock_released(w);
		break;
	case WIN_LOCKED_EXCLUSIVE:
		atomic_store_explicit(&win_shm_target(w, rank)->holder, 0,
				      memory_order_relaxed);
		shm_rwlock_write_unlock(&win_shm_target(w, rank)->lock);
		shm_grouplock_unlock(&w->shm->all, SHM_GROUP_B);
		win_lock_released(w);
		break;
	default:
		shm_fence();
		break;
	}
}

/* Every operation is complete when its call returns: a flush only orders
 * memory. */
void rma_direct_flush(struct win *w, int rank, enum call_id call)
{
	(void)w;
	(void)rank;
	(void)call;
	shm_fence();
}

static __attribute__((noinline)) int win_unlock_general(int rank, MPI_Win win)
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_unlock");
	if (!(w = win_arg("MPI_Win_unlock", win, &rc)))
		return rc;
	if (rank < 0 || rank >= w->size)
		return win_err(w, "MPI_Win_unlock", MPI_ERR_RANK, "rank",
			       "%d is not a rank of the window (size %d)", rank, w->size);
	if (!w->locked[rank])
		return win_err(w, "MPI_Win_unlock", MPI_ERR_RMA_SYNC, "rank",
			       "rank %d is not locked", rank);
	w->t[rank].ops->unlock(w, rank);
	w->locked[rank] = WIN_UNLOCKED;
	w->nlocked--;
	return MPI_SUCCESS;
}

API(int, Win_unlock, (int rank, MPI_Win win))
{
	struct win *w = win_get(win);

	/* the common case: a shared lock of a target on the direct path */
	if (rt.phase != RUNTIME_ACTIVE || !w || (unsigned)rank >= (unsigned)w->size ||
	    w->locked[rank] != WIN_LOCKED_SHARED || w->t[rank].ops != &win_ops_direct)
		return win_unlock_general(rank, win);
	shm_rwlock_read_leave(&win_shm_target(w, rank)->lock);
	win_lock_released(w);
	w->locked[rank] = WIN_UNLOCKED;
	w->nlocked--;
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_lock_all_general(int assert, MPI_Win win)
{
	struct lock_wait l;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_lock_all");
	if (!(w = win_arg("MPI_Win_lock_all", win, &rc)))
		return rc;
	if (assert & ~MPI_MODE_NOCHECK)
		return win_err(w, "MPI_Win_lock_all", MPI_ERR_ASSERT, "assert",
			       "0x%x: only MPI_MODE_NOCHECK applies to lock_all", assert);
	if (w->no_locks)
		return win_err(w, "MPI_Win_lock_all", MPI_ERR_RMA_SYNC, "win",
			       "was created with the info no_locks=true");
	if (w->lock_all || w->nlocked || lock_conflict(w))
		return win_err(w, "MPI_Win_lock_all", MPI_ERR_RMA_SYNC, "win",
			       "another access epoch is open");
	if (assert & MPI_MODE_NOCHECK) {
		w->lock_all = 2;
		return MPI_SUCCESS;
	}
	l = (struct lock_wait){ w, -1, 2, 0, 0 };
	l.ticket = shm_grouplock_begin(&w->shm->all, SHM_GROUP_A);
	lock_wait(w, CALL_WIN_LOCK_ALL, &l);
	w->lock_all = 1;
	return MPI_SUCCESS;
}

/* A waiting lock_all, its ticket taken (Win_lock_all). */
static __attribute__((noinline)) void lock_all_wait(struct win *w, uint32_t ticket)
{
	struct lock_wait l = { w, -1, 2, ticket, 0 };

	lock_wait(w, CALL_WIN_LOCK_ALL, &l);
}

API(int, Win_lock_all, (int assert, MPI_Win win))
{
	struct win *w = win_get(win);
	uint32_t ticket;

	/* the common case: no other epoch, no assertion */
	if (rt.phase != RUNTIME_ACTIVE || !w || assert || w->no_locks || w->lock_all ||
	    w->nlocked || w->start_group || w->fence_on)
		return win_lock_all_general(assert, win);
	if (!shm_grouplock_enter_a(&w->shm->all, &ticket))
		lock_all_wait(w, ticket);
	w->lock_all = 1;
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_unlock_all_general(MPI_Win win)
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_unlock_all");
	if (!(w = win_arg("MPI_Win_unlock_all", win, &rc)))
		return rc;
	if (!w->lock_all)
		return win_err(w, "MPI_Win_unlock_all", MPI_ERR_RMA_SYNC, "win",
			       "MPI_Win_lock_all was not called");
	if (w->npriv)
		rma_pkt_unlock_all(w);
	/* as in rma_direct_unlock: the unlock fences, or the fence alone */
	if (w->lock_all == 1) {
		shm_grouplock_leave_a(&w->shm->all);
		win_lock_released(w);
	} else {
		shm_fence();
	}
	w->lock_all = 0;
	return MPI_SUCCESS;
}

API(int, Win_unlock_all, (MPI_Win win))
{
	struct win *w = win_get(win);

	/* the common case: a lock_all of direct targets only */
	if (rt.phase != RUNTIME_ACTIVE || !w || w->lock_all != 1 || w->npriv)
		return win_unlock_all_general(win);
	shm_grouplock_leave_a(&w->shm->all);
	win_lock_released(w);
	w->lock_all = 0;
	return MPI_SUCCESS;
}

/*
 * The flushes belong to passive-target epochs.  On the direct path every
 * operation is complete when its call returns, so a flush only orders
 * memory; the private path sends what is queued and waits.  flush_local
 * waits as long as flush.
 */
#define FLUSH_ALL (-100)	/* win_flush: every target */

static int win_flush(const char *call, MPI_Win win, int rank)
{
	struct win *w;
	int rc;

	runtime_check(call);
	if (!(w = win_arg(call, win, &rc)))
		return rc;
	if (rank != FLUSH_ALL && (rank < 0 || rank >= w->size))
		return win_err(w, call, MPI_ERR_RANK, "rank",
			       "%d is not a rank of the window (size %d)", rank, w->size);
	if (rank == FLUSH_ALL ? !w->lock_all && !w->nlocked : !rma_passive_ok(w, rank))
		return win_err(w, call, MPI_ERR_RMA_SYNC, "win",
			       "no passive-target epoch is open%s", rank == FLUSH_ALL ? "" :
			       " to that rank");
	if (rank != FLUSH_ALL)
		w->t[rank].ops->flush(w, rank, CALL_WIN_FLUSH);
	else if (w->npriv)
		rma_pkt_flush_all(w, CALL_WIN_FLUSH);
	shm_fence();
	return MPI_SUCCESS;
}

API(int, Win_flush, (int rank, MPI_Win win))
{
	struct win *w = win_get(win);

	/* the common case in a few instructions; win_flush reports errors */
	if (rt.phase == RUNTIME_ACTIVE && w && (unsigned)rank < (unsigned)w->size &&
	    (w->lock_all | w->locked[rank]) && w->t[rank].ops == &win_ops_direct) {
		shm_fence();
		return MPI_SUCCESS;
	}
	return win_flush("MPI_Win_flush", win, rank);
}

API(int, Win_flush_local, (int rank, MPI_Win win))
{
	struct win *w = win_get(win);

	/* the common case: an operation on the direct path completed locally
	 * (its origin buffer free again) when its call returned */
	if (rt.phase == RUNTIME_ACTIVE && w && (unsigned)rank < (unsigned)w->size &&
	    (w->lock_all | w->locked[rank]) && w->t[rank].ops == &win_ops_direct)
		return MPI_SUCCESS;
	return win_flush("MPI_Win_flush_local", win, rank);
}

API(int, Win_flush_all, (MPI_Win win))
{
	return win_flush("MPI_Win_flush_all", win, FLUSH_ALL);
}

API(int, Win_flush_local_all, (MPI_Win win))
{
	return win_flush("MPI_Win_flush_local_all", win, FLUSH_ALL);
}

/* A full memory barrier, allowed in any epoch. */
API(int, Win_sync, (MPI_Win win))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_sync");
	if (!(w = win_arg("MPI_Win_sync", win, &rc)))
		return rc;
	shm_fence();
	return MPI_SUCCESS;
}
