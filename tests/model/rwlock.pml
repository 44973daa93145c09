/*
 * The exclusive hand-over of shm/rwlock.c (the passive-target lock of a
 * window target) and its waiter list, for two writers: each takes a ticket
 * (relaxed fetch_add on issued), acquire-loads done until its ticket is
 * granted, increments a plain counter in its critical section, and leaves
 * with a seq_cst fetch_add on done, then a seq_cst look at waiters and, if
 * someone is listed, wakes the granted ones (shm_rwlock_granted).  A
 * writer not granted at once publishes itself with a seq_cst exchange of
 * waiters, looks at done again (seq_cst) and sleeps unless granted; woken,
 * it acquire-loads done.  Both increments must land (the critical
 * sections exclude each other and each sees the other's), and nobody may
 * sleep on: pan reports a sleeper left as an invalid end state.
 * mutants: GRANT_RELAXED LEAVE_RELAXED ENLIST_RELAXED UNLOCK_RELAXED
 */
#include "ppo.h"

byte issued, done, waiters, x;
bool woken[2];

#ifdef GRANT_RELAXED
#define LOAD_AFTER_GRANT e1
#else
#define LOAD_AFTER_GRANT e6
#endif
#ifdef LEAVE_RELAXED
#define LEAVE_AFTER_CS e7
#else
#define LEAVE_AFTER_CS (e7 && e8)
#endif
#ifdef ENLIST_RELAXED
#define LOOK_AFTER_ENLIST true
#else
#define LOOK_AFTER_ENLIST e3
#endif
#ifdef UNLOCK_RELAXED
#define LOOK_AFTER_LEAVE e8
#else
#define LOOK_AFTER_LEAVE e9
#endif

proctype writer(byte me)
{
	bool e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11;
	byte want, d, t, w;
	bool granted, slow;

	do
	EVENT(e1, true, want = issued; issued++)		/* relaxed ticket */
	/* acquire: the first look at done (shm_rwlock_ready) */
	EVENT(e2, e1, d = done; granted = d == want; slow = !granted)
	/* not granted: enlist (seq_cst exchange), look again (seq_cst) */
	EVENT(e3, e2, if :: slow -> waiters++ :: else fi)
	EVENT(e4, e2 && LOOK_AFTER_ENLIST,
	      if :: slow -> d = done; granted = d == want :: else fi)
	/* asleep until an unlocker wakes us, then acquire-load done */
	EVENT(e5, e4, if :: slow && !granted -> woken[me] :: else fi)
	EVENT(e6, e5, if :: slow && !granted -> d = done; granted = d == want :: else fi)
	/* the critical section: a plain read-modify-write, its store after
	 * the grant in any case (it depends on it) */
	EVENT(e7, LOAD_AFTER_GRANT, t = x)
	EVENT(e8, e7 && e6, assert(granted); x = t + 1)
	EVENT(e9, LEAVE_AFTER_CS, done++)			/* seq_cst departure */
	EVENT(e10, LOOK_AFTER_LEAVE, w = waiters)		/* seq_cst */
	/* shm_rwlock_granted: wake the other writer if listed and granted */
	EVENT(e11, e10 && e9, if :: w > 0 && done == 1 -> woken[1 - me] = true :: else fi)
	:: e11 -> break
	od
}

init
{
	atomic { run writer(0); run writer(1) }
	(_nr_pr == 1);
	assert(x == 2)
}
