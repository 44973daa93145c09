/*
 * The passive-target locks of a window, in shared memory, between processes.
 *
 * struct shm_rwlock: a fair reader/writer lock in the style of Mellor-Crummey
 * and Scott's fair ticket reader/writer lock.  Protocol.  `issued` is the
 * ticket dispenser: it counts the readers (low half) and the writers (high
 * half) that ever arrived, each half 31 bits plus a guard bit as in the group
 * lock below.  An arrival adds one to its half with fetch_add and so learns
 * how many of each kind came before it.  Two now-serving words count
 * departures: `writers_done`, which readers wait on, counts two per writer
 * (+1 once the writer has seen its grant, so an odd value means a writer
 * holds, +1 when it leaves); `all_done`, which writers wait on, counts every
 * departure, reader or writer.  A reader enters when every writer that came
 * before it has left (writers_done == 2 * writers before it); a writer enters
 * when everybody who came before it has left (all_done == readers + writers
 * before it).  Nobody who comes after a waiter can leave before it has
 * entered, so the counters never run past a waiter's value.  Grants follow
 * arrival order between the kinds (no writer starvation, no reader
 * starvation), readers in a row share, and a grant depends on departures
 * only: a holder that sees its own grant changes nothing for anybody else, so
 * a caller that waits its own way needs waking only after an unlock.  Every
 * change is an atomic read-modify-write; nothing is ever stored over a
 * concurrent update.
 *
 * struct shm_grouplock: group mutual exclusion of two kinds, A and B (MPI:
 * A = lock_all, B = an exclusive lock, taken besides the target's rwlock).
 * Protocol.  `issued` holds two counters, A arrivals in the low half and B
 * arrivals in the high half, each 31 bits plus a guard bit that absorbs the
 * carry when the counter wraps (the arrival that sets the guard takes it
 * back), so a wrap never spills into the other half.  An arrival of kind k
 * adds one to its half with fetch_add, and so learns how many of the other
 * kind arrived before it; it enters when the other kind's `done` counter
 * reaches that number (compared modulo 2^31).  A later arrival of the other
 * kind waits for this one, so neither kind overtakes the other and neither
 * starves; holders of one kind never wait for each other.
 *
 * Waiting (both locks).  A waiter that is next in line spins up to `spins`
 * rounds in all; otherwise, or once they are spent, it sleeps on the futex
 * of the word it waits for through struct shm_waitword (wait.h): an unlocker
 * changes the word with a seq_cst read-modify-write and makes a futex_wake
 * system call only when that word has sleepers.  Sleepers re-check after
 * every wake-up, spurious or not.  The begin/ready/wait split lets a caller
 * wait its own way (the MPI library keeps its progress engine running):
 * begin takes the ticket, ready polls it, wait blocks.  A ticket cannot be
 * given back: it must be waited for, then unlocked.  The try forms take a
 * ticket only when it is granted at once (compare-and-swap on the
 * dispenser), so a failed try leaves nothing behind.
 *
 * Counters are compared modulo 2^31: fewer than 2^30 acquirers may wait at
 * once.
 */
#ifndef SHM_RWLOCK_H
#define SHM_RWLOCK_H

#include <stdint.h>

#include "atomic.h"
#include "wait.h"

struct shm_rwlock {
	shm_atomic_u64 issued;			/* readers | writers << 32 */
	struct shm_waitword writers_done;	/* readers wait on it */
	struct shm_waitword all_done;		/* writers wait on it */
	char pad_[SHM_CACHE_LINE - sizeof(shm_atomic_u64) -
		  2 * sizeof(struct shm_waitword)];
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_rwlock) == SHM_CACHE_LINE,
	       "a window's per-target lock takes one cache line");

/*
 * What the watchdog sees of an rwlock.  Who holds it: the writer if
 * `writer`; otherwise the readers that came before the first pending writer
 * (all pending readers when no writer is pending); every other pending one
 * waits.  A granted writer that has not yet seen its grant still counts as
 * waiting; the counts cannot tell how many readers came before it.
 */
struct shm_rwlock_snapshot {
	uint32_t readers;	/* readers holding or waiting */
	uint32_t writers;	/* writers holding or waiting */
	uint32_t writer;	/* 1 when a writer holds it, else 0 */
};

/* Lay out a free lock (all counters zero). */
void shm_rwlock_init(struct shm_rwlock *l);

/* Blocking forms: return holding the lock. */
void shm_rwlock_read_lock(struct shm_rwlock *l, unsigned spins);
void shm_rwlock_read_unlock(struct shm_rwlock *l);
void shm_rwlock_write_lock(struct shm_rwlock *l, unsigned spins);
void shm_rwlock_write_unlock(struct shm_rwlock *l);

/* Take the lock only if it is granted at once: 0, or -EBUSY (nothing taken). */
int shm_rwlock_try_read(struct shm_rwlock *l);
int shm_rwlock_try_write(struct shm_rwlock *l);

/*
 * Split forms.  begin takes a ticket (joins the queue) and returns it;
 * ready returns 1 once the ticket is granted, and then the caller holds the
 * lock (ready may be called again: it keeps returning 1 until the unlock);
 * wait blocks until ready.  A ticket becomes ready only through an unlock
 * (or at once), never through another waiter's ready.
 */
uint32_t shm_rwlock_read_begin(struct shm_rwlock *l);
int shm_rwlock_read_ready(struct shm_rwlock *l, uint32_t ticket);
void shm_rwlock_read_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins);
uint32_t shm_rwlock_write_begin(struct shm_rwlock *l);
int shm_rwlock_write_ready(struct shm_rwlock *l, uint32_t ticket);
void shm_rwlock_write_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins);

/*
 * The uncontended shared lock in a few instructions, for callers on a hot
 * path: the same protocol as read_begin + read_ready and read_unlock, with
 * only the rare parts (a wrapping arrival counter, a sleeping writer) out of
 * line.  shm_rwlock_read_enter takes a ticket into *ticket and says whether
 * it is granted at once; if not, the caller waits for it as for any other.
 */
void shm_pair_wrapped_(shm_atomic_u64 *word, unsigned half, uint64_t prev);

/* One arrival in half `half` (0: low, 1: high) of a word of two arrival
 * counters (see rwlock.c); returns the word as it was. */
static inline uint64_t shm_pair_arrive_(shm_atomic_u64 *word, unsigned half)
{
	unsigned shift = half ? 32 : 0;
	/* relaxed: only the ticket's value matters (see rwlock.c) */
	uint64_t prev = atomic_fetch_add_explicit(word, 1ull << shift, memory_order_relaxed);

	if (__builtin_expect(((uint32_t)(prev >> shift) & 0x7fffffffu) == 0x7fffffffu, 0))
		shm_pair_wrapped_(word, half, prev);
	return prev;
}

static inline int shm_rwlock_read_enter(struct shm_rwlock *l, uint32_t *ticket)
{
	uint64_t prev = shm_pair_arrive_(&l->issued, 0);
	/* acquire: as in read_ready */
	uint32_t wd = atomic_load_explicit(&l->writers_done.value, memory_order_acquire);

	*ticket = (uint32_t)(prev >> 32) & 0x7fffffffu;
	return ((wd - 2 * *ticket) & 0x7fffffffu) == 0;
}

static inline void shm_rwlock_read_leave(struct shm_rwlock *l)
{
	shm_waitword_bump(&l->all_done, 1);	/* as read_unlock */
}

/*
 * A snapshot for the watchdog, without locking: the counters as they were
 * at one instant (re-read until they hold still, a few times at most).  A
 * writer between the two steps of its unlock shows as one reader too many.
 */
void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out);

enum shm_group_kind {
	SHM_GROUP_A = 0,
	SHM_GROUP_B = 1,
};

struct shm_grouplock {
	shm_atomic_u64 issued;			/* A | B << 32 arrivals */
	struct shm_waitword done[2];		/* releases, by kind */
	char pad_[SHM_CACHE_LINE - sizeof(shm_atomic_u64) -
		  2 * sizeof(struct shm_waitword)];
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_grouplock) == SHM_CACHE_LINE,
	       "a window's group lock takes one cache line");

/* What the watchdog sees of a group lock. */
struct shm_grouplock_snapshot {
	/* arrived and not yet released, by kind: holding or waiting; when only
	 * one kind has any, they all hold */
	uint32_t pending[2];
};

/* Lay out a free group lock. */
void shm_grouplock_init(struct shm_grouplock *g);

/* Blocking forms: return holding the lock in the given kind. */
void shm_grouplock_lock(struct shm_grouplock *g, enum shm_group_kind kind,
			unsigned spins);
void shm_grouplock_unlock(struct shm_grouplock *g, enum shm_group_kind kind);

/* Take it only if granted at once (no holder or waiter of the other kind):
 * 0, or -EBUSY (nothing taken). */
int shm_grouplock_try(struct shm_grouplock *g, enum shm_group_kind kind);

/*
 * Split forms, as for the rwlock: begin joins the queue and returns the
 * ticket (how many of the other kind arrived before), ready tells whether it
 * is granted (a pure check, any number of times), wait blocks until it is.
 */
uint32_t shm_grouplock_begin(struct shm_grouplock *g, enum shm_group_kind kind);
int shm_grouplock_ready(struct shm_grouplock *g, enum shm_group_kind kind,
			uint32_t ticket);
void shm_grouplock_wait(struct shm_grouplock *g, enum shm_group_kind kind,
			uint32_t ticket, unsigned spins);

/* A snapshot for the watchdog (same caveats as shm_rwlock_state). */
void shm_grouplock_state(const struct shm_grouplock *g,
			 struct shm_grouplock_snapshot *out);


/* The uncontended group lock of kind A, as shm_rwlock_read_enter/leave. */
static inline int shm_grouplock_enter_a(struct shm_grouplock *g, uint32_t *ticket)
{
	uint64_t prev = shm_pair_arrive_(&g->issued, SHM_GROUP_A);
	/* acquire: as in shm_grouplock_ready */
	uint32_t done = atomic_load_explicit(&g->done[SHM_GROUP_B].value,
					     memory_order_acquire);

	*ticket = (uint32_t)(prev >> 32) & 0x7fffffffu;
	return ((done - *ticket) & 0x7fffffffu) == 0;
}

static inline void shm_grouplock_leave_a(struct shm_grouplock *g)
{
	shm_waitword_bump(&g->done[SHM_GROUP_A], 1);	/* as shm_grouplock_unlock */
}

#endif
