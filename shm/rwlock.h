/*
 * The passive-target locks of a window, in shared memory, between processes.
 *
 * struct shm_rwlock: a fair reader/writer lock (Mellor-Crummey and Scott's
 * ticket reader/writer lock).  Protocol.  `next` is the ticket dispenser;
 * every acquirer takes a ticket t with fetch_add, so tickets are the arrival
 * order.  `read_serving` counts, in steps of two per ticket, the tickets that
 * have passed the readers' gate: a reader passes it on entry (+2), a writer
 * in two halves, +1 once granted (the odd value tells that a writer holds)
 * and +1 on release.  `write_serving` counts the tickets that have left
 * (readers and writers, +1 each).  Reader t enters when read_serving == 2t
 * (every earlier writer has left, every earlier reader has entered) and adds
 * 2, which lets the next ticket in if it is a reader: consecutive readers
 * share.  Writer t enters when write_serving == t (every earlier ticket has
 * left).  Only ticket t moves read_serving away from 2t, and no later ticket
 * can leave before ticket t does, so a waiter's value cannot run past it.
 * Every change is an atomic read-modify-write; nothing is ever stored over a
 * concurrent acquirer's update.  Grants are first come first served: no
 * writer starvation, no reader starvation.
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
 * Waiting (both locks).  A waiter spins `spins` rounds, then sleeps on the
 * futex of the word it waits for through struct shm_waitword (wait.h): an
 * unlocker changes the word with a seq_cst read-modify-write and makes a
 * futex_wake system call only when that word has sleepers.  Sleepers re-check
 * after every wake-up.  The begin/ready/wait split lets a caller wait its own
 * way (the MPI library keeps its progress engine running): begin takes the
 * ticket, ready polls it (and completes the grant when it says yes), wait
 * blocks.  A ticket cannot be given back: it must be waited for, then
 * unlocked.  The try forms take a ticket only when it is granted at once
 * (compare-and-swap on the dispenser), so a failed try leaves nothing behind.
 *
 * Tickets are compared modulo 2^31 (the rwlock's dispenser runs modulo 2^32):
 * fewer than 2^30 acquirers may wait at once.
 */
#ifndef SHM_RWLOCK_H
#define SHM_RWLOCK_H

#include <stdint.h>

#include "atomic.h"
#include "wait.h"

struct shm_rwlock {
	shm_atomic_u32 next;			/* ticket dispenser */
	struct shm_waitword read_serving;	/* readers wait on it: 2t */
	struct shm_waitword write_serving;	/* writers wait on it: t */
	char pad_[SHM_CACHE_LINE - sizeof(shm_atomic_u32) -
		  2 * sizeof(struct shm_waitword)];
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_rwlock) == SHM_CACHE_LINE,
	       "a window's per-target lock takes one cache line");

/* What the watchdog sees of an rwlock. */
struct shm_rwlock_snapshot {
	uint32_t readers;	/* holding it shared */
	uint32_t writer;	/* 1 when held exclusively, else 0 */
	uint32_t waiting;	/* tickets taken and not yet granted */
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
 * wait blocks until ready.  Between begin and ready, a reader ticket keeps
 * later readers from entering, so poll it.
 */
uint32_t shm_rwlock_read_begin(struct shm_rwlock *l);
int shm_rwlock_read_ready(struct shm_rwlock *l, uint32_t ticket);
void shm_rwlock_read_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins);
uint32_t shm_rwlock_write_begin(struct shm_rwlock *l);
int shm_rwlock_write_ready(struct shm_rwlock *l, uint32_t ticket);
void shm_rwlock_write_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins);

/*
 * A snapshot for the watchdog, in three loads without locking: exact when
 * nobody is between two steps; otherwise it may count a reader or a waiter
 * too many, never too few, and never less than zero.  A granted ticket whose
 * owner has not yet seen the grant counts as waiting.
 */
void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out);

enum shm_group_kind {
	SHM_GROUP_A = 0,
	SHM_GROUP_B = 1,
};

struct shm_grouplock {
	shm_atomic_u64 issued;			/* A arrivals | B arrivals << 32 */
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

#endif
