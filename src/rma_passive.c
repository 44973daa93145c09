/*
 * Passive-target synchronization (MPI 3.1, section 11.5.3): MPI_Win_lock,
 * MPI_Win_unlock, MPI_Win_lock_all, MPI_Win_unlock_all, the flushes and
 * MPI_Win_sync.
 *
 * The locks.  Each target has one fair reader/writer lock in the window
 * segment (struct shm_rwlock, shm/rwlock.h), which origins take and release
 * alone.  MPI_Win_lock takes it shared or exclusive.  MPI_Win_lock_all takes
 * the shared lock of every target, one after the other in ascending rank
 * order, asking for the next one only once it holds the one before.  That
 * is all: no window-wide word is on the path of any lock, and an exclusive
 * epoch writes nothing but its target's line and this rank's own record
 * of what it holds (diagnosis).
 *
 * Invariant: a lock request waits only for requests at its own target --
 * the holders whose mode conflicts with it, and the requests that came
 * before it there and wait too (grants follow arrival order, so no writer
 * starves).  Nothing queued at another target delays it.
 *
 * What follows.  Let every rank of a program nest its locks in ascending
 * target order, MPI_Win_lock_all counting as an ascending acquisition of
 * every target (while it waits at target t it holds the targets below t
 * and none above).  A rank that waits at t for a holder H of t: H holds t,
 * so if H waits, it waits at a target above t.  A rank that waits at t for
 * an earlier request R at t: R waits at t.  So along a chain of lock waits
 * the target never goes down and goes up at every step to a holder; a cycle
 * would have to stay at one target and go back in arrival order there,
 * which it cannot.  Such a program never deadlocks from locks alone (as on
 * Open MPI's osc/sm, whose lock_all takes the targets in order too).
 *
 * Cost: lock_all and unlock_all are O(n) in the targets (a read-modify-
 * write on each target's line); the README gives the figures.
 *
 * Waiting.  A waiter keeps its progress engine running and sleeps on its
 * doorbell.  The lock keeps its own record of who waits (the waiter list of
 * shm/rwlock.h, one node per rank of the window): whoever releases a lock
 * that has waiters wakes exactly those it granted.  While it waits, a rank
 * publishes for the watchdog who keeps it waiting, from the lock's records
 * (its holder, the records of who holds what, the waiter list); it looks
 * again every LOCK_NAP_MS (its sleeps last that long at most), so that
 * what it says stays true.  Under MPI_THREAD_MULTIPLE two threads of a rank
 * may wait for locks of different targets at once: the first waits on the
 * rank's node, the others, whom nobody rings, look at their tickets every
 * LOCK_POLL_NAP_US.
 *
 * That is the direct path, for direct targets and the regions of dynamic
 * windows; targets whose memory is private are locked, unlocked and
 * flushed by rma_pkt_origin.c through the same table of operations.
 */
#include "api.h"
#include "errhandler.h"
#include "progress.h"
#include "event.h"
#include "pvar.h"
#include "rma_pkt.h"
#include "rma.h"
#include "state.h"
#include "win.h"

#define LOCK_NAP_MS 200		/* a waiter looks again at least this often */
#define LOCK_POLL_NAP_US 200	/* and a waiter without a node this often */

static inline struct shm_rwlock *target_lock(const struct win *w, int target)
{
	return &win_shm_target(w, target)->lock;
}

/* ---- this rank's record of what it holds (diagnosis) --------------------- */

/* Note a lock taken (excl: WIN_HELD_EXCL or 0) in the record waiters read:
 * in slot target mod WIN_HELD_MAX, or counted in held_more when another
 * lock has it.  Only this rank writes its record; w->held mirrors it, so
 * that it never loads the shared line back.  One store on the hot path. */
static inline void held_add(struct win *w, int target, uint32_t excl)
{
	struct win_shm_rank *me = win_shm_rank(w, w->rank);
	unsigned i = (unsigned)target % WIN_HELD_MAX;

	if (!w->held[i]) {
		w->held[i] = ((uint32_t)target + 1) | excl;
		/* relaxed: read for diagnosis only */
		atomic_store_explicit(&me->held[i], w->held[i], memory_order_relaxed);
	} else {
		/* relaxed: as above */
		atomic_store_explicit(&me->held_more, ++w->held_more, memory_order_relaxed);
	}
}

static inline void held_remove(struct win *w, int target)
{
	struct win_shm_rank *me = win_shm_rank(w, w->rank);
	unsigned i = (unsigned)target % WIN_HELD_MAX;

	if ((w->held[i] & ~WIN_HELD_EXCL) == (uint32_t)target + 1) {
		w->held[i] = 0;
		/* relaxed: read for diagnosis only */
		atomic_store_explicit(&me->held[i], 0, memory_order_relaxed);
	} else {
		/* relaxed: as above */
		atomic_store_explicit(&me->held_more, --w->held_more, memory_order_relaxed);
	}
}

/* lock_all holds the targets below upto (relaxed: diagnosis only). */
static inline void held_all_upto(struct win *w, int upto)
{
	atomic_store_explicit(&win_shm_rank(w, w->rank)->all_upto, (uint32_t)upto,
			      memory_order_relaxed);
}

/* ---- waiting for a lock --------------------------------------------------- */

/* One lock being acquired: its ticket, and when the watchdog was last
 * told who keeps it waiting (0: not yet). */
struct lock_wait {
	struct win *w;
	int target;
	struct shm_rwlock_ticket ticket;
	uint64_t blamed_ns;
};

/* Whether rank r's record says it holds target's lock shared. */
static int holds_shared(const struct win *w, int r, int target)
{
	struct win_shm_rank *rec = win_shm_rank(w, r);

	/* relaxed, all: a rank's own diagnosis record */
	if ((int)atomic_load_explicit(&rec->all_upto, memory_order_relaxed) > target)
		return 1;
	return atomic_load_explicit(&rec->held[(unsigned)target % WIN_HELD_MAX],
				    memory_order_relaxed) == (uint32_t)target + 1;
}

/* The first earlier waiter of l's target whose request conflicts with
 * ours (a writer's with anybody's, a reader's with a writer's), or -1. */
static int earlier_waiter(const struct lock_wait *l, const struct shm_rwlock_snapshot *s)
{
	struct win *w = l->w;
	struct shm_rwlock *lock = target_lock(w, l->target);
	uint32_t mine = (l->ticket.pos - s->departed) & 0x7fffffffu, best_at = 0;
	unsigned n = shm_rwlock_peek(lock, &w->lock_nodes, w->wake_ids, (unsigned)w->size);
	int best = -1;

	for (unsigned i = 0; i < n; i++) {
		struct shm_rwlock_node *node = shm_rwlock_node(&w->lock_nodes, w->wake_ids[i]);
		/* relaxed: a copy for diagnosis; the list may change meanwhile */
		uint32_t at = (atomic_load_explicit(&node->pos, memory_order_relaxed) -
			       s->departed) & 0x7fffffffu;

		if ((int)w->wake_ids[i] == w->rank || at >= mine ||
		    (!l->ticket.writer &&
		     !atomic_load_explicit(&node->writer, memory_order_relaxed)))
			continue;
		if (best < 0 || at < best_at) {
			best = (int)w->wake_ids[i];
			best_at = at;
		}
	}
	return best;
}

/*
 * Publish who keeps l from its lock: the writer inside; else, for a
 * writer, the shared holders (the first and how many, from their records);
 * else the first earlier conflicting waiter; else, when the records name
 * nobody (a rank that holds more locks than its record has room for, or
 * one between its grant and its record), how many requests are ahead of
 * this one.  Only when none is ahead does it say it found nobody.  It
 * reads the lock and the records and changes nothing of them: diagnosis,
 * never a decision.
 */
static __attribute__((noinline)) void lock_blame(const struct lock_wait *l)
{
	struct win *w = l->w;
	struct shm_rwlock_snapshot s;
	int who = -1, count = 0;
	enum shm_rank_blocker how = SHM_BLOCK_UNKNOWN;

	shm_rwlock_state(target_lock(w, l->target), &s);
	if (s.holder != 0 && (int)s.holder - 1 != w->rank) {
		who = (int)s.holder - 1;
		how = SHM_BLOCK_EXCLUSIVE;
		count = 1;
	}
	for (int r = 0; how == SHM_BLOCK_UNKNOWN && l->ticket.writer && r < w->size; r++)
		if (r != w->rank && holds_shared(w, r, l->target) && count++ == 0)
			who = r;
	if (how == SHM_BLOCK_UNKNOWN && count > 0)
		how = SHM_BLOCK_SHARED;
	if (how == SHM_BLOCK_UNKNOWN && (who = earlier_waiter(l, &s)) >= 0) {
		how = SHM_BLOCK_QUEUED;
		count = 1;
	}
	if (how == SHM_BLOCK_UNKNOWN &&
	    (count = (int)((l->ticket.pos - s.departed) & 0x7fffffffu)) > 0)
		how = SHM_BLOCK_AHEAD;
	state_lock_blocker(who < 0 ? -1 : comm_world_rank(w->comm, who),
			   SHM_BLOCKER(how, (uint32_t)count));
}

static int lock_granted(void *arg)
{
	struct lock_wait *l = arg;
	uint64_t now;

	if (shm_rwlock_ready(target_lock(l->w, l->target), &l->ticket))
		return 1;
	now = state_now_ns();
	if (!l->blamed_ns || now - l->blamed_ns >= LOCK_NAP_MS * 1000000ull) {
		lock_blame(l);
		l->blamed_ns = now ? now : 1;
	}
	return 0;
}

/* Wait for a ticket not granted at once, with the engine running. */
static __attribute__((noinline)) void lock_wait(struct win *w, enum call_id call,
						int target, enum shm_rank_lock kind,
						struct shm_rwlock_ticket ticket)
{
	static const struct timespec nap = { 0, LOCK_NAP_MS * 1000000L };
	static const struct timespec poll_nap = { 0, LOCK_POLL_NAP_US * 1000L };
	struct shm_rwlock *lock = target_lock(w, target);
	struct lock_wait l = { w, target, ticket, 0 };
	uint64_t start = pvar_now_ns();	/* the slow path: the clock is for it */

	/* a lock_all holds the targets below this one: say so to whoever it
	 * keeps waiting meanwhile */
	if (kind == SHM_RANK_LOCK_ALL)
		held_all_upto(w, target);
	state_block(call, WAIT_WIN_LOCK, comm_world_rank(w->comm, target), (int)kind,
		    w->comm->ctx);
	if (event_wanted(EVENT_RMA_LOCK_WAIT_BEGIN))
		event_rma_lock(EVENT_RMA_LOCK_WAIT_BEGIN, w, target, (int)kind, 0);
	if (w->node_taken) {
		/* another thread of this rank waits on the node (only under
		 * MPI_THREAD_MULTIPLE): nobody will ring for this ticket, so
		 * look at it often */
		progress_wait_napping(lock_granted, &l, &poll_nap);
	} else {
		w->node_taken = 1;
		if (!shm_rwlock_enlist(lock, &w->lock_nodes, (uint32_t)w->rank, &ticket))
			progress_wait_napping(lock_granted, &l, &nap);
		shm_rwlock_delist(lock, &w->lock_nodes, (uint32_t)w->rank);
		w->node_taken = 0;
	}
	state_unblock(call);
	pvar_lock_waited(start);
	if (event_wanted(EVENT_RMA_LOCK_WAIT_END))
		event_rma_lock(EVENT_RMA_LOCK_WAIT_END, w, target, (int)kind,
			       pvar_now_ns() - start);
}

/* Wake the waiters that a departure from target's lock granted. */
static __attribute__((noinline)) void wake_granted(struct win *w, int target)
{
	unsigned n = shm_rwlock_granted(target_lock(w, target), &w->lock_nodes,
					w->wake_ids, (unsigned)w->size);

	for (unsigned i = 0; i < n; i++)
		progress_wake_rank(comm_world_rank(w->comm, (int)w->wake_ids[i]));
}

/* ---- taking and releasing one target's lock ------------------------------ */

static inline void lock_shared(struct win *w, int target, enum call_id call,
			       enum shm_rank_lock kind)
{
	struct shm_rwlock_ticket t = shm_rwlock_read_begin(target_lock(w, target));

	if (!shm_rwlock_ready(target_lock(w, target), &t))
		lock_wait(w, call, target, kind, t);
	pvar_c.locks_direct++;
}

static inline void unlock_shared(struct win *w, int target)
{
	shm_rwlock_read_leave(target_lock(w, target));
	if (shm_rwlock_has_waiters(target_lock(w, target)))
		wake_granted(w, target);
}

/* MPI_Win_lock and MPI_Win_unlock of a direct target, inline for the API
 * calls' fast paths; rma_direct_lock and rma_direct_unlock are the same
 * for the table of operations. */
static inline __attribute__((always_inline)) void direct_lock(struct win *w, int target,
							       int lock_type)
{
	struct shm_rwlock *lock = target_lock(w, target);
	struct shm_rwlock_ticket t;

	if (lock_type == MPI_LOCK_SHARED) {
		lock_shared(w, target, CALL_WIN_LOCK, SHM_RANK_LOCK_SHARED);
		held_add(w, target, 0);
		return;
	}
	t = shm_rwlock_write_begin(lock);
	if (!shm_rwlock_ready(lock, &t))
		lock_wait(w, CALL_WIN_LOCK, target, SHM_RANK_LOCK_EXCLUSIVE, t);
	pvar_c.locks_direct++;
	shm_rwlock_set_holder(lock, (uint32_t)w->rank + 1);
	held_add(w, target, WIN_HELD_EXCL);
}

static inline __attribute__((always_inline)) void direct_unlock(struct win *w, int target)
{
	struct shm_rwlock *lock = target_lock(w, target);

	/* our operations are complete; the departure's seq_cst
	 * read-modify-write releases them to the next holder (MPI_MODE_NOCHECK:
	 * a full fence publishes them) */
	switch (w->locked[target]) {
	case WIN_LOCKED_SHARED:
		held_remove(w, target);
		unlock_shared(w, target);
		break;
	case WIN_LOCKED_EXCLUSIVE:
		held_remove(w, target);
		shm_rwlock_set_holder(lock, 0);
		shm_rwlock_write_leave(lock);
		if (shm_rwlock_has_waiters(lock))
			wake_granted(w, target);
		break;
	default:
		shm_fence();
		break;
	}
}

void rma_direct_lock(struct win *w, int target, int lock_type)
{
	direct_lock(w, target, lock_type);
}

void rma_direct_unlock(struct win *w, int target)
{
	direct_unlock(w, target);
}

/* Every operation is complete when its call returns: a flush only orders
 * memory.  A full fence, not a release one: the flushed puts are complete
 * at the target (MPI 3.1, section 11.5.4) before any later access of this
 * process, a get or a load of its own window too, and only a full fence
 * keeps a later load from passing an earlier store (so in MPI_Win_flush's
 * fast path and MPI_Win_sync). */
void rma_direct_flush(struct win *w, int rank, enum call_id call)
{
	(void)w;
	(void)rank;
	(void)call;
	shm_fence();
}

/* ---- the API --------------------------------------------------------------- */

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
	if ((rank < 0 || rank >= w->size) && rank != MPI_PROC_NULL)
		return win_err(w, "MPI_Win_lock", MPI_ERR_RANK, "rank",
			       "%d is not a rank of the window (size %d)", rank, w->size);
	if (assert & ~MPI_MODE_NOCHECK)
		return win_err(w, "MPI_Win_lock", MPI_ERR_ASSERT, "assert",
			       "0x%x: only MPI_MODE_NOCHECK applies to lock", assert);
	/* MPI_PROC_NULL is a valid target of the communication calls, where
	 * nothing happens (MPI 3.1, section 11.3): a program may bracket them
	 * with a lock of it, which is no lock, as its unlock and flush are
	 * nothing */
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
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
		/* a lock taken now comes after the lower private ones still to
		 * take (rma_pkt_origin.c) */
		if (w->npriv && w->t[rank].path == WIN_PATH_DIRECT)
			rma_pkt_acquire_below(w, rank, CALL_WIN_LOCK);
		w->t[rank].ops->lock(w, rank, lock_type);
		w->locked[rank] = lock_type == MPI_LOCK_SHARED ? WIN_LOCKED_SHARED :
				  WIN_LOCKED_EXCLUSIVE;
	}
	w->nlocked++;
	return MPI_SUCCESS;
}

/* The calls with a fast path are in three parts, as in rma.c: the call,
 * the body (*_fast) and the gated entry (*_serial). */
static inline __attribute__((always_inline)) int win_lock_fast(int lock_type, int rank,
							       int assert, MPI_Win win)
{
	struct win *w;

	/* the common case in a few instructions: a lock of a direct target of
	 * a window of direct targets, no epoch open to it, no fence or PSCW
	 * epoch, no assertion */
	if (!(w = win_get(win)) || assert ||
	    (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) ||
	    (unsigned)rank >= (unsigned)w->size || w->locked[rank] || w->lock_all ||
	    w->no_locks || w->start_group || w->fence_on || w->npriv ||
	    w->t[rank].path != WIN_PATH_DIRECT)
		return win_lock_general(lock_type, rank, assert, win);
	direct_lock(w, rank, lock_type);
	w->locked[rank] = lock_type == MPI_LOCK_SHARED ? WIN_LOCKED_SHARED :
			  WIN_LOCKED_EXCLUSIVE;
	w->nlocked++;
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_lock_serial(int lock_type, int rank, int assert,
						     MPI_Win win)
{
	runtime_check("MPI_Win_lock");
	return win_lock_fast(lock_type, rank, assert, win);
}

API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
{
	if (rt.gate)
		return win_lock_serial(lock_type, rank, assert, win);
	return win_lock_fast(lock_type, rank, assert, win);
}

static __attribute__((noinline)) int win_unlock_general(int rank, MPI_Win win)
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_unlock");
	if (!(w = win_arg("MPI_Win_unlock", win, &rc)))
		return rc;
	if (rank == MPI_PROC_NULL)	/* as in MPI_Win_lock */
		return MPI_SUCCESS;
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

static inline __attribute__((always_inline)) int win_unlock_fast(int rank, MPI_Win win)
{
	struct win *w;

	/* the common case: a lock of a direct target */
	if (!(w = win_get(win)) || (unsigned)rank >= (unsigned)w->size ||
	    (w->locked[rank] != WIN_LOCKED_SHARED &&
	     w->locked[rank] != WIN_LOCKED_EXCLUSIVE) ||
	    w->t[rank].path != WIN_PATH_DIRECT)
		return win_unlock_general(rank, win);
	direct_unlock(w, rank);
	w->locked[rank] = WIN_UNLOCKED;
	w->nlocked--;
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_unlock_serial(int rank, MPI_Win win)
{
	runtime_check("MPI_Win_unlock");
	return win_unlock_fast(rank, win);
}

API(int, Win_unlock, (int rank, MPI_Win win))
{
	if (rt.gate)
		return win_unlock_serial(rank, win);
	return win_unlock_fast(rank, win);
}

/* Take every direct (or dynamic) target's shared lock in ascending order
 * (w->lock_all already set).  Private targets are locked by their packets
 * (rma_pkt_origin.c): when the first flush needs them, in a window of
 * private targets alone; at once, in their place in the order, in a
 * window that has direct targets too, so that no direct lock is held
 * while a lower private one is still to take. */
static void lock_all_targets(struct win *w)
{
	int mixed = w->npriv && w->npriv < w->size && w->flavor != MPI_WIN_FLAVOR_DYNAMIC;

	for (int r = 0; r < w->size; r++) {
		if (w->t[r].path != WIN_PATH_PRIVATE) {
			lock_shared(w, r, CALL_WIN_LOCK_ALL, SHM_RANK_LOCK_ALL);
		} else if (mixed) {
			held_all_upto(w, r);
			rma_pkt_acquire(w, r, CALL_WIN_LOCK_ALL);
		}
	}
	held_all_upto(w, w->size);
}

static void unlock_all_targets(struct win *w)
{
	held_all_upto(w, 0);
	for (int r = 0; r < w->size; r++)
		if (w->t[r].path != WIN_PATH_PRIVATE)
			unlock_shared(w, r);
}

static __attribute__((noinline)) int win_lock_all_general(int assert, MPI_Win win)
{
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
	w->lock_all = 1;
	lock_all_targets(w);
	return MPI_SUCCESS;
}

static inline __attribute__((always_inline)) int win_lock_all_fast(int assert, MPI_Win win)
{
	struct win *w;

	/* the common case: no other epoch, no assertion */
	if (!(w = win_get(win)) || assert || w->no_locks || w->lock_all ||
	    w->nlocked || w->start_group || w->fence_on)
		return win_lock_all_general(assert, win);
	w->lock_all = 1;
	lock_all_targets(w);
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_lock_all_serial(int assert, MPI_Win win)
{
	runtime_check("MPI_Win_lock_all");
	return win_lock_all_fast(assert, win);
}

API(int, Win_lock_all, (int assert, MPI_Win win))
{
	if (rt.gate)
		return win_lock_all_serial(assert, win);
	return win_lock_all_fast(assert, win);
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
	/* as in rma_direct_unlock: the departures release, or the fence */
	if (w->lock_all == 1)
		unlock_all_targets(w);
	else
		shm_fence();
	w->lock_all = 0;
	return MPI_SUCCESS;
}

static inline __attribute__((always_inline)) int win_unlock_all_fast(MPI_Win win)
{
	struct win *w;

	/* the common case: a lock_all of direct targets only */
	if (!(w = win_get(win)) || w->lock_all != 1 || w->npriv)
		return win_unlock_all_general(win);
	unlock_all_targets(w);
	w->lock_all = 0;
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int win_unlock_all_serial(MPI_Win win)
{
	runtime_check("MPI_Win_unlock_all");
	return win_unlock_all_fast(win);
}

API(int, Win_unlock_all, (MPI_Win win))
{
	if (rt.gate)
		return win_unlock_all_serial(win);
	return win_unlock_all_fast(win);
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
	if (rank == MPI_PROC_NULL)	/* as in MPI_Win_lock */
		return MPI_SUCCESS;
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
	shm_fence();	/* full: as in rma_direct_flush */
	pvar_c.flushes++;
	return MPI_SUCCESS;
}

static inline __attribute__((always_inline)) int win_flush_fast(int rank, MPI_Win win)
{
	struct win *w;

	/* the common case in a few instructions; win_flush reports errors */
	if ((w = win_get(win)) && (unsigned)rank < (unsigned)w->size &&
	    (w->lock_all | w->locked[rank]) && w->t[rank].path == WIN_PATH_DIRECT) {
		shm_fence();	/* full: as in rma_direct_flush */
		pvar_c.flushes++;
		return MPI_SUCCESS;
	}
	return win_flush("MPI_Win_flush", win, rank);
}

static __attribute__((noinline)) int win_flush_serial(int rank, MPI_Win win)
{
	runtime_check("MPI_Win_flush");
	return win_flush_fast(rank, win);
}

API(int, Win_flush, (int rank, MPI_Win win))
{
	if (rt.gate)
		return win_flush_serial(rank, win);
	return win_flush_fast(rank, win);
}

static inline __attribute__((always_inline)) int win_flush_local_fast(int rank, MPI_Win win)
{
	struct win *w;

	/* the common case: an operation on the direct path completed locally
	 * (its origin buffer free again) when its call returned */
	if ((w = win_get(win)) && (unsigned)rank < (unsigned)w->size &&
	    (w->lock_all | w->locked[rank]) && w->t[rank].path == WIN_PATH_DIRECT) {
		pvar_c.flushes++;
		return MPI_SUCCESS;
	}
	return win_flush("MPI_Win_flush_local", win, rank);
}

static __attribute__((noinline)) int win_flush_local_serial(int rank, MPI_Win win)
{
	runtime_check("MPI_Win_flush_local");
	return win_flush_local_fast(rank, win);
}

API(int, Win_flush_local, (int rank, MPI_Win win))
{
	if (rt.gate)
		return win_flush_local_serial(rank, win);
	return win_flush_local_fast(rank, win);
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
