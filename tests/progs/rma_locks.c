/*
 * Passive-target locks as the MPI standard describes them (MPI-3.1 11.5.3):
 * an exclusive lock keeps every other access epoch away from that target,
 * shared locks and lock_all admit each other, a writer queued behind a
 * stream of readers gets in and so does a reader behind a stream of
 * writers (first come, first served), locks on different targets
 * are independent, waiters that sleep are woken, and MPI_MODE_NOCHECK
 * does not change results.
 *
 * Whether a lock is held is proved by an RMA operation completed with
 * MPI_Win_flush (the standard lets MPI_Win_lock return before the lock is
 * acquired).  Every wait on another rank is bounded by an MPI_Wtime
 * deadline: a lock that serializes readers or starves a writer makes a
 * check fail (and MPI_Abort the job), never the job hang.
 *
 *   rma_locks [test]
 */
#include <sched.h>
#include <stdlib.h>

#include "testutil.h"

static int rank, size;

enum { TAG_HELD = 11, TAG_GO, TAG_DONE, TAG_TOKEN };

/* Bound for a wait that only a broken lock makes long. */
#define WAIT_LIMIT 5.0

static void nap(void)
{
	struct timespec ts = { 0, 200000 };

	nanosleep(&ts, NULL);
}

/* Receive up to `n` empty messages with `tag` (from anyone) before `secs`
 * have passed; returns how many came. */
static int recv_within(int n, int tag, double secs)
{
	double end = MPI_Wtime() + secs;
	int got = 0;

	while (got < n && MPI_Wtime() < end) {
		int flag;
		MPI_Status st;

		CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st));
		if (!flag) {
			nap();
			continue;
		}
		CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, st.MPI_SOURCE, tag, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		got++;
	}
	return got;
}

/* Whether a message with `tag` is waiting (progress made meanwhile). */
static int msg_waiting(int tag)
{
	int flag;

	CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
	return flag;
}

/* Tell every other rank (empty messages with tag); told() completes the
 * sends once this rank receives too, so nobody waits on a send. */
static MPI_Request *tell_all(int tag)
{
	MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)size);

	CHECK(rq);
	for (int q = 0; q < size; q++)
		if (q != rank)
			CHECK_MPI(MPI_Isend(NULL, 0, MPI_INT, q, tag, MPI_COMM_WORLD, &rq[q]));
		else
			rq[q] = MPI_REQUEST_NULL;
	return rq;
}

static void told(MPI_Request *rq)
{
	CHECK_MPI(MPI_Waitall(size, rq, MPI_STATUSES_IGNORE));
	free(rq);
}

/*
 * Every rank holds its lock (proved by a flushed get), tells everybody, and
 * waits (bounded) until everybody told it the same: all of them held the
 * lock at the same time.
 */
static void all_hold_together(MPI_Win win, int target)
{
	int v;

	CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(target, win));
	MPI_Request *rq = tell_all(TAG_HELD);

	CHECK(recv_within(size - 1, TAG_HELD, WAIT_LIMIT) == size - 1);
	told(rq);
}

/* A lock-free counter board on rank 0 (window `board`, under lock_all). */
static long board_op(MPI_Win board, int idx, long v, MPI_Op op)
{
	long old;

	CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_LONG, 0, idx, op, board));
	CHECK_MPI(MPI_Win_flush(0, board));
	return old;
}

/*
 * Exclusive locks: 8 ranks, thousands of rounds in all, each reading a
 * counter kept twice (lo, hi) and writing it back in two separate flushed
 * puts.  Under a working lock every holder sees lo == hi and no update is
 * lost; an occupancy count on another window (atomic, under lock_all)
 * shows nobody else inside.
 */
static void test_exclusive_tear(void)
{
	const int total = 4000, target = size - 1;
	int rounds = total / size, *base;
	long *occ_base;
	MPI_Win win, occ;

	CHECK_MPI(tu_win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(tu_win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &occ_base, &occ));
	base[0] = base[1] = 0;
	*occ_base = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, occ));
	for (int r = 0; r < rounds; r++) {
		int v[2], next;

		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
		CHECK_MPI(MPI_Get(v, 2, MPI_INT, target, 0, 2, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		CHECK(board_op(occ, 0, 1, MPI_SUM) == 0);
		CHECK(v[0] == v[1]);
		next = v[0] + 1;
		CHECK_MPI(MPI_Put(&next, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		if (r % 4 == 0)
			sched_yield();	/* widen the window between the halves */
		CHECK_MPI(MPI_Put(&next, 1, MPI_INT, target, 1, 1, MPI_INT, win));
		CHECK(board_op(occ, 0, -1, MPI_SUM) == 1);
		CHECK_MPI(MPI_Win_unlock(target, win));
	}
	CHECK_MPI(MPI_Win_unlock_all(occ));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == target)
		CHECK(base[0] == rounds * size && base[1] == rounds * size);
	if (rank == 0)
		CHECK(*occ_base == 0);
	CHECK_MPI(MPI_Win_free(&occ));
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * Readers and writers at random on one target, from every rank: exclusive
 * locks (a writer adds one to the counter kept in two halves, written by
 * two flushed puts), shared locks and lock_all (a reader checks the halves
 * agree).  An occupancy word on another window counts writers (in units of
 * WRITER) and readers inside: a writer is alone, a reader sees no writer.
 */
static void test_mixed_hammer(void)
{
	const long WRITER = 1L << 20;
	const int rounds = 3000 / size, target = 0;
	int *base, writes = 0, total = 0;
	long *occ_base;
	unsigned seed = 7919u * (unsigned)rank + 1;
	MPI_Win win, occ;

	CHECK_MPI(tu_win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(tu_win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &occ_base, &occ));
	base[0] = base[1] = 0;
	*occ_base = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, occ));
	for (int r = 0; r < rounds; r++) {
		int kind = rand_r(&seed) % 4, v[2];

		if (kind == 0) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
		} else if (kind == 3) {
			CHECK_MPI(MPI_Win_lock_all(0, win));
		} else {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
		}
		CHECK_MPI(MPI_Get(v, 2, MPI_INT, target, 0, 2, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		CHECK(v[0] == v[1]);
		if (kind == 0) {
			CHECK(board_op(occ, 0, WRITER, MPI_SUM) == 0);
			v[0]++;
			CHECK_MPI(MPI_Put(v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			CHECK_MPI(MPI_Put(v, 1, MPI_INT, target, 1, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			CHECK(board_op(occ, 0, -WRITER, MPI_SUM) == WRITER);
			writes++;
		} else {
			CHECK(board_op(occ, 0, 1, MPI_SUM) < WRITER);
			CHECK(board_op(occ, 0, -1, MPI_SUM) < WRITER);
		}
		if (kind == 3)
			CHECK_MPI(MPI_Win_unlock_all(win));
		else
			CHECK_MPI(MPI_Win_unlock(target, win));
	}
	CHECK_MPI(MPI_Win_unlock_all(occ));
	CHECK_MPI(MPI_Allreduce(&writes, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	if (rank == target)
		CHECK(base[0] == total && base[1] == total && *occ_base == 0);
	CHECK_MPI(MPI_Win_free(&occ));
	CHECK_MPI(MPI_Win_free(&win));
}

/* Every rank holds MPI_LOCK_SHARED on the same target at the same time. */
static void test_shared_readers(void)
{
	int *base;
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	*base = 7;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int target = 0; target < size; target += size - 1 > 0 ? size - 1 : 1) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
		all_hold_together(win, target);
		CHECK_MPI(MPI_Win_unlock(target, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * A writer behind a stream of readers: the other ranks keep taking shared
 * locks on the target (each holding it a little, so at three ranks and more
 * there is nearly always a reader inside), until the writer says stop or
 * READ_LIMIT passes.  The writer takes the exclusive lock WRITES times and
 * must get it each time long before the readers would give up; while it
 * holds it, no reader is inside and the readers never see its half-written
 * value (lo != hi).
 */
static void test_writer_not_starved(void)
{
	const double READ_LIMIT = 6.0;
	const int WRITES = 5, writer = 0, target = size - 1;
	int *base;
	long *board_base;
	MPI_Win win, board;	/* board[0]: readers inside, [1]: stop */

	CHECK_MPI(tu_win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(tu_win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &board_base, &board));
	base[0] = base[1] = 0;
	board_base[0] = board_base[1] = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, board));
	if (rank == writer) {
		double worst = 0;

		CHECK(recv_within(size - 1, TAG_HELD, WAIT_LIMIT) == size - 1);
		for (int w = 1; w <= WRITES; w++) {
			double t0;

			tu_sleep_ms(10);	/* readers keep coming meanwhile */
			t0 = MPI_Wtime();
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
			CHECK_MPI(MPI_Put(&w, 1, MPI_INT, target, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			if (MPI_Wtime() - t0 > worst)
				worst = MPI_Wtime() - t0;
			CHECK(board_op(board, 0, 0, MPI_NO_OP) == 0);
			tu_sleep_ms(2);	/* lo written, hi not yet */
			CHECK(board_op(board, 0, 0, MPI_NO_OP) == 0);
			CHECK_MPI(MPI_Put(&w, 1, MPI_INT, target, 1, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_unlock(target, win));
		}
		board_op(board, 1, 1, MPI_REPLACE);
		if (worst > READ_LIMIT / 4)
			fprintf(stderr, "writer waited %.3f s for the lock\n", worst);
		CHECK(worst < READ_LIMIT / 4);
	} else {
		double end = MPI_Wtime() + READ_LIMIT;
		int told = 0, stopped = 0, reads = 0;

		while (!stopped && MPI_Wtime() < end) {
			int v[2];

			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
			CHECK_MPI(MPI_Get(v, 2, MPI_INT, target, 0, 2, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			board_op(board, 0, 1, MPI_SUM);
			CHECK(v[0] == v[1]);
			if (!told) {
				CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, writer, TAG_HELD,
						   MPI_COMM_WORLD));
				told = 1;
			}
			tu_sleep_ms(1);
			board_op(board, 0, -1, MPI_SUM);
			CHECK_MPI(MPI_Win_unlock(target, win));
			reads++;
			stopped = board_op(board, 1, 0, MPI_NO_OP) != 0;
		}
		/* not stopped: the writer was still waiting when time ran out */
		CHECK(stopped);
		CHECK(reads > 0);
	}
	CHECK_MPI(MPI_Win_unlock_all(board));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == target)
		CHECK(base[0] == WRITES && base[1] == WRITES);
	CHECK_MPI(MPI_Win_free(&board));
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * The other way round: a reader behind a stream of writers (each holding
 * the exclusive lock a little) gets its shared lock long before the
 * writers would give up.
 */
static void test_reader_not_starved(void)
{
	const double WRITE_LIMIT = 6.0;
	const int READS = 5, reader = 0, target = size - 1;
	int *base;
	long *board_base;
	MPI_Win win, board;	/* board[1]: stop */

	CHECK_MPI(tu_win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(tu_win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &board_base, &board));
	base[0] = base[1] = 0;
	board_base[0] = board_base[1] = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, board));
	if (rank == reader) {
		double worst = 0;

		CHECK(recv_within(size - 1, TAG_HELD, WAIT_LIMIT) == size - 1);
		for (int k = 0; k < READS; k++) {
			double t0;
			int v[2];

			tu_sleep_ms(10);	/* writers keep coming meanwhile */
			t0 = MPI_Wtime();
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
			CHECK_MPI(MPI_Get(v, 2, MPI_INT, target, 0, 2, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			if (MPI_Wtime() - t0 > worst)
				worst = MPI_Wtime() - t0;
			CHECK(v[0] == v[1]);
			CHECK(board_op(board, 0, 0, MPI_NO_OP) == 0);	/* no writer */
			CHECK_MPI(MPI_Win_unlock(target, win));
		}
		board_op(board, 1, 1, MPI_REPLACE);
		if (worst > WRITE_LIMIT / 4)
			fprintf(stderr, "reader waited %.3f s for the lock\n", worst);
		CHECK(worst < WRITE_LIMIT / 4);
	} else {
		double end = MPI_Wtime() + WRITE_LIMIT;
		int told = 0, stopped = 0;

		while (!stopped && MPI_Wtime() < end) {
			int v[2];

			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
			CHECK_MPI(MPI_Get(v, 2, MPI_INT, target, 0, 2, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			CHECK(board_op(board, 0, 1, MPI_SUM) == 0);
			v[0]++;
			CHECK_MPI(MPI_Put(v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(target, win));
			if (!told) {
				CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, reader, TAG_HELD,
						   MPI_COMM_WORLD));
				told = 1;
			}
			tu_sleep_ms(1);
			CHECK_MPI(MPI_Put(v, 1, MPI_INT, target, 1, 1, MPI_INT, win));
			CHECK(board_op(board, 0, -1, MPI_SUM) == 1);
			CHECK_MPI(MPI_Win_unlock(target, win));
			stopped = board_op(board, 1, 0, MPI_NO_OP) != 0;
		}
		/* not stopped: the reader was still waiting when time ran out */
		CHECK(stopped);
	}
	CHECK_MPI(MPI_Win_unlock_all(board));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == target)
		CHECK(base[0] == base[1]);
	CHECK_MPI(MPI_Win_free(&board));
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * lock_all against exclusive locks, both ways, then shared locks and
 * lock_all together, then exclusive locks on different targets together.
 */
static void test_lock_all_interplay(void)
{
	const int writer = 0, target = size - 1;
	int *base, v;
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	*base = 100;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* 1. an exclusive lock keeps lock_all holders off its target */
	if (rank == writer) {
		v = 101;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		MPI_Request *rq = tell_all(TAG_GO);

		for (int i = 0; i < 100; i++) {	/* 200 ms for a broken lock_all */
			CHECK(!msg_waiting(TAG_DONE));
			tu_sleep_ms(2);
		}
		v = 102;
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(target, win));
		CHECK(recv_within(size - 1, TAG_DONE, WAIT_LIMIT) == size - 1);
		told(rq);
	} else {
		CHECK(recv_within(1, TAG_GO, WAIT_LIMIT) == 1);
		CHECK_MPI(MPI_Win_lock_all(0, win));
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, writer, TAG_DONE, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Win_unlock_all(win));
		CHECK(v == 102);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* 2. lock_all holders keep an exclusive lock off */
	if (rank == writer) {
		CHECK(recv_within(size - 1, TAG_HELD, WAIT_LIMIT) == size - 1);
		v = 103;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		told(tell_all(TAG_DONE));	/* they are waiting for it */
		CHECK_MPI(MPI_Win_unlock(target, win));
	} else {
		CHECK_MPI(MPI_Win_lock_all(0, win));
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		CHECK(v == 102);
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, writer, TAG_HELD, MPI_COMM_WORLD));
		for (int i = 0; i < 100; i++) {	/* 200 ms for a broken lock */
			CHECK(!msg_waiting(TAG_DONE));
			tu_sleep_ms(2);
		}
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(target, win));
		CHECK(v == 102);
		CHECK_MPI(MPI_Win_unlock_all(win));
		CHECK(recv_within(1, TAG_DONE, WAIT_LIMIT) == 1);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == target)
		CHECK(*base == 103);

	/* 3. shared locks and lock_all at the same time */
	if (rank % 2 == 0) {
		CHECK_MPI(MPI_Win_lock_all(0, win));
		all_hold_together(win, target);
		CHECK_MPI(MPI_Win_unlock_all(win));
	} else {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
		all_hold_together(win, target);
		CHECK_MPI(MPI_Win_unlock(target, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* 4. exclusive locks on different targets: one lock per target */
	int next = (rank + 1) % size;

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
	all_hold_together(win, next);
	CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, next, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(next, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(*base == (rank + size - 1) % size);
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * Waiters that go to sleep are woken: one rank holds a lock long enough
 * (HOLD_MS) for every other rank's lock request to stop spinning and
 * sleep, then releases it; they must all get in.  Exclusive, shared and
 * lock_all requests behind an exclusive lock, then exclusive requests
 * behind lock_all, on several windows of each flavour whose memory is
 * shared.  A lost wake-up leaves a rank blocked in MPI_Win_lock: shmrun's
 * watchdog or --timeout ends the job.
 */
static void test_wakeup(void)
{
	enum { HOLD_MS = 30, PER_FLAVOUR = 4 };
	const int holder = size > 1 ? 1 : 0, target = 0;

	for (int f = 0; f < 3 * PER_FLAVOUR; f++) {
		int *base = NULL, *mem = NULL, v;
		MPI_Win win;

		switch (f % 3) {
		case 0:
			CHECK_MPI(tu_win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
						   MPI_COMM_WORLD, &base, &win));
			break;
		case 1:
			CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL,
							  MPI_COMM_WORLD, &base, &win));
			break;
		default:
			CHECK_MPI(MPI_Alloc_mem(sizeof(int), MPI_INFO_NULL, &mem));
			CHECK_MPI(MPI_Win_create(mem, sizeof(int), sizeof(int), MPI_INFO_NULL,
						 MPI_COMM_WORLD, &win));
			base = mem;
			break;
		}
		*base = 5;
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		for (int phase = 0; phase < 2; phase++) {
			if (rank == holder) {
				if (phase == 0)
					CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
				else
					CHECK_MPI(MPI_Win_lock_all(0, win));
				CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
				CHECK_MPI(MPI_Win_flush(target, win));
				CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* it holds */
				tu_sleep_ms(HOLD_MS);
				if (phase == 0)
					CHECK_MPI(MPI_Win_unlock(target, win));
				else
					CHECK_MPI(MPI_Win_unlock_all(win));
			} else {
				int kind = phase ? 0 : rank % 3;

				CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
				if (kind == 2)
					CHECK_MPI(MPI_Win_lock_all(0, win));
				else
					CHECK_MPI(MPI_Win_lock(kind ? MPI_LOCK_SHARED :
							       MPI_LOCK_EXCLUSIVE, target, 0, win));
				CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, 0, 1, MPI_INT, win));
				CHECK_MPI(MPI_Win_flush(target, win));
				if (kind == 2)
					CHECK_MPI(MPI_Win_unlock_all(win));
				else
					CHECK_MPI(MPI_Win_unlock(target, win));
			}
			CHECK(v == 5);
		}
		CHECK_MPI(MPI_Win_free(&win));
		if (mem)
			CHECK_MPI(MPI_Free_mem(mem));
	}
}

/* MPI_MODE_NOCHECK where the program guarantees no conflicting lock. */
static void test_nocheck(void)
{
	const int n = 16;
	int *base, v[16], got[16];
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(n * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	memset(base, 0, n * sizeof(int));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* each target is locked by one origin only */
	for (int i = 0; i < n; i++)
		v[i] = rank * 1000 + i;
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, MPI_MODE_NOCHECK, win));
	CHECK_MPI(MPI_Put(v, n, MPI_INT, next, 0, n, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(next, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < n; i++)
		CHECK(base[i] == prev * 1000 + i);
	/* shared NOCHECK locks by everybody on one target */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, win));
	CHECK_MPI(MPI_Get(got, n, MPI_INT, 0, 0, n, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(0, win));
	for (int i = 0; i < n; i++)
		CHECK(got[i] == (size - 1) * 1000 + i);
	/* lock_all NOCHECK */
	CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	CHECK_MPI(MPI_Get(got, n, MPI_INT, prev, 0, n, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(prev, win));
	for (int i = 0; i < n; i++)
		CHECK(got[i] == ((prev + size - 1) % size) * 1000 + i);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* a token ring: exclusive NOCHECK epochs in turn, each unlock makes
	 * the update visible to the next holder */
	if (rank > 0)
		CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, rank - 1, TAG_TOKEN, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, MPI_MODE_NOCHECK, win));
	CHECK_MPI(MPI_Get(got, 2, MPI_INT, 0, n - 2, 2, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(0, win));
	CHECK(got[0] == (rank == 0 ? n - 2 + (size - 1) * 1000 : rank));
	got[0] = rank + 1;
	got[1] = rank * 3;
	CHECK_MPI(MPI_Put(got, 2, MPI_INT, 0, n - 2, 2, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(0, win));
	if (rank + 1 < size)
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, rank + 1, TAG_TOKEN, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(base[n - 2] == size && base[n - 1] == (size - 1) * 3);
	CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("exclusive", test_exclusive_tear);
	TU_RUN("mixed", test_mixed_hammer);
	TU_RUN("shared", test_shared_readers);
	TU_RUN("writer", test_writer_not_starved);
	TU_RUN("reader", test_reader_not_starved);
	TU_RUN("lock_all", test_lock_all_interplay);
	TU_RUN("wakeup", test_wakeup);
	TU_RUN("nocheck", test_nocheck);
	MPI_Finalize();
	return 0;
}
