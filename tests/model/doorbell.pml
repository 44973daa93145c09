/*
 * The doorbell of shm/wait.c (shm_waitword_sleep_unless and
 * shm_waitword_ring): no lost wake-up.  The sleeper takes the futex value,
 * announces itself in sleepers, fences, and sleeps unless the condition
 * holds; the ringer stores the condition, fences, and changes the value
 * and wakes if it sees a sleeper.  A sleeper that the ringer missed must
 * see the condition; a sleeper it did not miss is woken, or its futex
 * wait returns at once.  Pan reports a sleeper left asleep as an invalid
 * end state.  The value the sleeper takes is a relaxed load: the model
 * also runs it after the announcement and after the ringer's change.
 * mutants: NO_SLEEPER_FENCE NO_RINGER_FENCE
 */
#include "ppo.h"

int value = 7;		/* the futex word: any start */
byte sleepers;
bool cond;		/* the sleeper's condition (a ring record, a flag) */
bool asleep;		/* in the kernel's futex queue */

#ifdef NO_SLEEPER_FENCE
#define SLEEPER_FENCE true
#else
#define SLEEPER_FENCE (s1 && s2)
#endif
#ifdef NO_RINGER_FENCE
#define RINGER_FENCE true
#else
#define RINGER_FENCE r1
#endif

active proctype sleeper()
{
	bool s1, s2, s3, s4, s5;
	int seen;
	bool ready;

	do
	EVENT(s1, true, seen = value)		/* relaxed: sleep_seen() */
	EVENT(s2, true, sleepers++)		/* relaxed */
	EVENT(s3, SLEEPER_FENCE, skip)		/* shm_fence() */
	EVENT(s4, s3, ready = cond)		/* ready(arg) */
	/* futex_wait(&value, seen): sleeps only while value == seen */
	EVENT(s5, s1 && s4, if :: !ready && value == seen -> asleep = true :: else fi)
	:: s5 -> break
	od;
	(!asleep)	/* woken; the caller looks at its condition again */
}

active proctype ringer()
{
	bool r1, r2, r3, r4, r5;
	byte seen_sleepers;

	do
	EVENT(r1, true, cond = true)
	EVENT(r2, RINGER_FENCE, skip)		/* shm_fence() in shm_waitword_ring */
	EVENT(r3, r2, seen_sleepers = sleepers)	/* relaxed */
	EVENT(r4, r3, if :: seen_sleepers > 0 -> value++ :: else fi)	/* relaxed */
	EVENT(r5, r4, if :: seen_sleepers > 0 -> asleep = false :: else fi)	/* futex_wake */
	:: r5 -> break
	od
}
