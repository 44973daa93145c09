/*
 * The counts of post/start/complete/wait (src/rma_active.c, src/win.h):
 * the target reads and writes its window, then posts (a release store of
 * its post count, win_pscw_raise); the origin's start acquire-loads the
 * count until it sees the post, then gets and puts; its complete
 * release-stores its complete count; the target's wait acquire-loads that
 * count, then reads the window.  The origin's get must see the target's
 * store from before the post, the target's read from before the post must
 * not see the put, and its read after the wait must (MPI 3.1, section
 * 11.5.2).
 * mutants: POST_RELAXED START_RELAXED COMPLETE_RELAXED WAIT_RELAXED
 */
#include "ppo.h"

byte X, Y, post, compl;

#ifdef POST_RELAXED
#define POST_AFTER true
#else
#define POST_AFTER (t1 && t2)
#endif
#ifdef START_RELAXED
#define ACCESS_AFTER_START true
#else
#define ACCESS_AFTER_START o1
#endif
#ifdef COMPLETE_RELAXED
#define COMPLETE_AFTER o1
#else
#define COMPLETE_AFTER (o1 && o2 && o3)
#endif
#ifdef WAIT_RELAXED
#define READ_AFTER_WAIT true
#else
#define READ_AFTER_WAIT t4
#endif

active proctype target()
{
	bool t1, t2, t3, t4, t5;
	byte before, after;

	do
	EVENT(t1, true, before = Y)		/* its window, before the post */
	EVENT(t2, true, X = 1)
	EVENT(t3, POST_AFTER, post = 1)		/* release: MPI_Win_post */
	EVENT(t4, t3, compl == 1)		/* acquire: MPI_Win_wait */
	EVENT(t5, t1 && READ_AFTER_WAIT, after = Y)
	:: t4 && t5 -> break
	od;
	assert(before == 0 && after == 1)
}

active proctype origin()
{
	bool o1, o2, o3, o4;
	byte got;

	do
	EVENT(o1, true, post == 1)		/* acquire: MPI_Win_start */
	EVENT(o2, ACCESS_AFTER_START, got = X)	/* MPI_Get */
	EVENT(o3, ACCESS_AFTER_START, Y = 1)	/* MPI_Put */
	EVENT(o4, COMPLETE_AFTER, compl = 1)	/* release: MPI_Win_complete */
	:: o1 && o2 && o3 && o4 -> break
	od;
	assert(got == 1)
}
