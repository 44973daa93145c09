/*
 * The barrier of shm/barrier.c for three processes: each writes its word,
 * takes the generation (acquire), arrives with a release fetch_add; the
 * last arriver fences (acquire), resets the count and bumps the generation
 * (seq_cst); the others acquire-load the generation until it changes.
 * After the barrier every process must read every word written before it.
 * mutants: ARRIVE_RELAXED NO_ACQUIRE_FENCE PASSED_RELAXED
 */
#include "ppo.h"

#define N 3

byte word[N], arrived, gen;

#ifdef ARRIVE_RELAXED
#define ARRIVE_AFTER true
#else
#define ARRIVE_AFTER (e1 && e2)
#endif
#ifdef NO_ACQUIRE_FENCE
#define LAST_READS true
#define EARLY true	/* a read may come before the fetch_add (see below) */
#else
#define LAST_READS e4
#define EARLY false
#endif
#ifdef PASSED_RELAXED
#define OTHERS_READ true
#else
#define OTHERS_READ e6
#endif
/* The reads after the barrier, once the fetch_add said who is last; or,
 * without the fence, before it: a core may read ahead, and such an
 * execution is real only if the process turns out to be the last (an
 * early read of the others passes their acquire: `early` leaves them out
 * of the check). */
#define READ_AFTER ((e3 && (last -> LAST_READS : OTHERS_READ)) || (!e3 && EARLY))
#define READ(e, w, i) EVENT(e, READ_AFTER, w = word[i]; early = early || !e3)

proctype member(byte me)
{
	bool e1, e2, e3, e4, e5, e6, e7, e8, e9;
	byte g, ticket, w0, w1, w2;
	bool last, early;

	do
	EVENT(e1, true, word[me] = 1)
	EVENT(e2, true, g = gen)			/* acquire */
	EVENT(e3, e2 && ARRIVE_AFTER, ticket = arrived; arrived++; last = ticket == N - 1)
	/* the last arriver: acquire fence, reset, bump (seq_cst) */
	EVENT(e4, e3, skip)
	EVENT(e5, e4, if :: last -> arrived = 0; gen++ :: else fi)
	/* the others: acquire-load the generation until it changes */
	EVENT(e6, e5, if :: !last -> gen != g :: else fi)
	READ(e7, w0, 0)
	READ(e8, w1, 1)
	READ(e9, w2, 2)
	:: e6 && e7 && e8 && e9 -> break
	od;
	assert((early && !last) || (w0 == 1 && w1 == 1 && w2 == 1))
}

init
{
	atomic { run member(0); run member(1); run member(2) }
}
