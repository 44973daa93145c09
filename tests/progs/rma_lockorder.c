/*
 * Lock ordering of passive-target synchronization.
 *
 * MPI 3.1, section 11.5.3 ("Lock") makes a lock a matter of one target: an
 * exclusive lock keeps other lock-protected accesses away "at the window
 * site", a shared lock keeps exclusive ones away, MPI_Win_lock_all is a
 * shared lock on every member of the window's group, and one process may
 * hold lock epochs to several targets at once.  What shmpi promises on top,
 * and what every case here holds it to:
 *
 *  (1) A lock request waits only for the holders of its own target whose
 *      mode conflicts with it, and for earlier conflicting requests of that
 *      same target: nothing held or queued at another target delays it.
 *  (2) MPI_Win_lock_all behaves as shared locks taken on the targets in
 *      ascending rank order, waiting at one target at a time.
 *
 * So a program whose ranks nest their locks in ascending target order
 * (MPI_Win_lock_all counting as an ascending acquisition of every target)
 * never deadlocks on locks.  The standard leaves the order open; (1) and
 * (2) are shmpi's.  Each case is such a program, in which the lock_all
 * ranks (2 and up) wait at target 1 while a lock on a higher target
 * is asked for: by the exclusive holder of target 1 itself, by a rank that
 * holder waits for in MPI_Recv, by a second exclusive holder, or by the
 * shared holder of target 1 behind which an exclusive request waits.  A
 * lock that waits for anything but its own target turns the case into a
 * deadlock.
 *
 * Where a rank is free to watch, it waits for the decisive step with a
 * deadline (WAIT_LIMIT) and ends the job with a message naming the step;
 * a job whose every rank is blocked in a lock call is left to shmrun's
 * watchdog and --timeout.  Puts and gets in the epochs check what each one
 * sees: the lock_all ranks read every target and find what the exclusive
 * epochs before them left; at the end every rank checks its own memory.
 *
 *   rma_lockorder CASE [KIND]
 *
 * KIND is a window kind of winkind.h (allocate by default), or "all" for
 * each in turn.  Needs 3 ranks or more; rank 0 prints "ok CASE".
 */
#include "winkind.h"

enum { TAG_DONE = 31 };

/* Seconds for a step that only a lock waiting for more than its own
 * target keeps from happening. */
#define WAIT_LIMIT 5.0
/* Milliseconds for lock requests made before to reach their queues. */
#define QUEUE_MS 100

static int rank, size;
static const char *case_name;
static struct wk_win W;
/* what the lock_all ranks may read at each target (alt: -1, or a second
 * value the standard allows), and what each target holds at the end */
static int *want, *alt, *final;

static int init_value(int t)
{
	return 1000 + t;
}

/* The value rank `who` puts into target t at its step-th put there. */
static int mark(int who, int t, int step)
{
	return 100000 * (who + 1) + 100 * t + step;
}

static void expect(int t, int got, int a, int b, const char *where)
{
	if (got == a || got == b)
		return;
	fprintf(stderr, "rank %d: %s on a %s window, %s: target %d holds %d, want %d",
		rank, case_name, wk_names[W.kind], where, t, got, a);
	if (b != a && b != -1)
		fprintf(stderr, " or %d", b);
	fprintf(stderr, "\n");
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, 99);
}

static void lock(int mode, int t)
{
	CHECK_MPI(MPI_Win_lock(mode, t, 0, W.win));
}

static void unlock(int t)
{
	CHECK_MPI(MPI_Win_unlock(t, W.win));
}

/* Target t's word, read in the epoch that holds t (flushed: the read also
 * proves the lock is held, which MPI_Win_lock need not wait for). */
static int get_at(int t)
{
	int v;

	CHECK_MPI(MPI_Get(&v, 1, MPI_INT, t, wk_at(&W, t, 0), 1, MPI_INT, W.win));
	CHECK_MPI(MPI_Win_flush(t, W.win));
	return v;
}

/* Put v into target t, in the exclusive epoch that holds it, and read it
 * back. */
static void put_check(int t, int v)
{
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, wk_at(&W, t, 0), 1, MPI_INT, W.win));
	CHECK_MPI(MPI_Win_flush(t, W.win));
	expect(t, get_at(t), v, v, "its own put");
}

/*
 * A lock_all epoch that reads every target: on odd ranks in ascending
 * order, each get flushed before the next is issued; on even ranks all at
 * once in descending order, completed by one MPI_Win_flush_all.  By (2)
 * the order of the operations does not matter: an implementation that
 * takes the shared locks only when operations need them still takes them
 * in ascending order, one at a time.
 */
static void lock_all_scan(void)
{
	int *got = malloc(sizeof(int) * (size_t)size);

	CHECK(got);
	CHECK_MPI(MPI_Win_lock_all(0, W.win));
	for (int i = 0; i < size; i++) {
		int t = rank % 2 ? i : size - 1 - i;

		CHECK_MPI(MPI_Get(&got[t], 1, MPI_INT, t, wk_at(&W, t, 0), 1, MPI_INT, W.win));
		if (rank % 2)
			CHECK_MPI(MPI_Win_flush(t, W.win));
	}
	CHECK_MPI(MPI_Win_flush_all(W.win));
	for (int t = 0; t < size; t++)
		expect(t, got[t], want[t], alt[t], "in MPI_Win_lock_all");
	CHECK_MPI(MPI_Win_unlock_all(W.win));
	free(got);
}

static void tell(int to)
{
	CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, to, TAG_DONE, MPI_COMM_WORLD));
}

/* Receive the message `from` sends once `what` has happened, or end the
 * job if it has not within WAIT_LIMIT. */
static void wait_for(int from, const char *what)
{
	double end = MPI_Wtime() + WAIT_LIMIT;
	MPI_Request rq;
	int done = 0;

	CHECK_MPI(MPI_Irecv(NULL, 0, MPI_INT, from, TAG_DONE, MPI_COMM_WORLD, &rq));
	while (!done && MPI_Wtime() < end) {
		CHECK_MPI(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
		if (!done)
			tu_sleep_ms(1);
	}
	if (!done) {
		fprintf(stderr, "rank %d: %s on a %s window: %s: not within %.0f s\n", rank,
			case_name, wk_names[W.kind], what, WAIT_LIMIT);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, 98);
	}
}

/* Rank 0 takes target 1 exclusively, the lock behind which the lock_all
 * ranks will queue, and proves that it holds it. */
static void hold_target1(void)
{
	lock(MPI_LOCK_EXCLUSIVE, 1);
	put_check(1, mark(0, 1, 1));
}

/* Rank 0 puts into target 1 once more and lets it go: the lock_all ranks,
 * let in only then, must find this value. */
static void release_target1(void)
{
	put_check(1, mark(0, 1, 2));
	unlock(1);
}

/* What the lock_all ranks see, by default: every target as it began,
 * but target 1 as rank 0 leaves it. */
static void want_init(void)
{
	for (int t = 0; t < size; t++) {
		want[t] = final[t] = init_value(t);
		alt[t] = -1;
	}
	want[1] = final[1] = mark(0, 1, 2);
}

static void want_set(int t, int v)
{
	want[t] = final[t] = v;
}

/*
 * The holder goes on: rank 0 locks target 1 exclusively, the lock_all
 * ranks queue at target 1 (each holding its shared lock on target 0 and
 * no other), and rank 0 then locks targets 2 to `last`, nested in
 * ascending order, in `mode`.  They are idle: by (1) and (2) rank 0 gets
 * each at once, and rank 1 sees within WAIT_LIMIT that it has.  A lock
 * that also waited for the lock_all queued at target 1 would wait for
 * rank 0.  Rank 0 then releases them and puts into target 1 last, so the
 * lock_all ranks, let in at target 1 only then, find every put of it.
 */
static void holder_goes_on(int last, int mode)
{
	want_init();
	for (int t = 2; t <= last && mode == MPI_LOCK_EXCLUSIVE; t++)
		want_set(t, mark(0, t, 1));
	if (rank == 0) {
		hold_target1();
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(QUEUE_MS);
		for (int t = 2; t <= last; t++) {
			lock(mode, t);
			if (mode == MPI_LOCK_EXCLUSIVE)
				put_check(t, mark(0, t, 1));
			else
				expect(t, get_at(t), init_value(t), -1, "rank 0's shared lock");
		}
		tell(1);
		for (int t = last; t >= 2; t--)
			unlock(t);
		release_target1();
	} else if (rank == 1) {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		wait_for(0, last == 2 ? "rank 0 to lock target 2 while lock_all waits at "
			 "target 1, held by rank 0" : "rank 0 to lock targets 2 and up "
			 "while lock_all waits at target 1, held by rank 0");
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		lock_all_scan();
	}
}

static void test_one(void)
{
	holder_goes_on(2, MPI_LOCK_EXCLUSIVE);
}

static void test_one_shared(void)
{
	holder_goes_on(2, MPI_LOCK_SHARED);
}

static void test_all(void)
{
	holder_goes_on(size - 1, MPI_LOCK_EXCLUSIVE);
}

/*
 * Exclusive locks held on two targets: rank 0 holds target 1, rank 1
 * target 2, and the lock_all ranks queue at target 1.  Rank 0 asks for
 * target 2 and waits, as it must, for rank 1 alone (1); rank 1 meanwhile
 * locks the idle target size-1 (when that is above 2), which neither the
 * lock_all queued at target 1 nor rank 0's request queued at target 2 may
 * delay (1, 2), then releases both.  Rank 1 sees within WAIT_LIMIT that
 * rank 0 got target 2.  The lock_all ranks reach target 2 after rank 0 let
 * target 1 go, so after both epochs on target 2.
 */
static void test_two(void)
{
	const int top = size - 1;

	want_init();
	want_set(2, mark(0, 2, 1));
	if (top > 2)
		want_set(top, mark(1, top, 1));
	if (rank == 0) {
		hold_target1();
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(QUEUE_MS);
		lock(MPI_LOCK_EXCLUSIVE, 2);
		expect(2, get_at(2), mark(1, 2, 2), -1, "after rank 1's epoch");
		put_check(2, mark(0, 2, 1));
		tell(1);
		unlock(2);
		release_target1();
	} else if (rank == 1) {
		lock(MPI_LOCK_EXCLUSIVE, 2);
		put_check(2, mark(1, 2, 1));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(2 * QUEUE_MS);	/* rank 0 waits at target 2 by now */
		if (top > 2) {
			lock(MPI_LOCK_EXCLUSIVE, top);
			put_check(top, mark(1, top, 1));
			unlock(top);
		}
		put_check(2, mark(1, 2, 2));
		unlock(2);
		wait_for(0, "rank 0 to lock target 2 once rank 1 let it go, while "
			 "lock_all waits at target 1, held by rank 0");
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		lock_all_scan();
	}
}

/*
 * The holder waits in MPI_Recv: rank 0 holds target 1 exclusively and
 * waits (bounded by WAIT_LIMIT) for a message from rank 1, which first
 * locks target size-1 in `mode`, while the lock_all ranks queue at target
 * 1.  They have not reached size-1, so it is idle and rank 1 gets it at
 * once (1, 2); a lock that waited for the queued lock_all would wait for
 * rank 0, which waits for rank 1.
 */
static void holder_waits(int mode)
{
	const int top = size - 1;

	want_init();
	if (mode == MPI_LOCK_EXCLUSIVE)
		want_set(top, mark(1, top, 1));
	if (rank == 0) {
		hold_target1();
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		wait_for(1, "rank 1 to lock the idle target size-1 while lock_all "
			 "waits at target 1, held by rank 0 in MPI_Recv");
		release_target1();
	} else if (rank == 1) {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(QUEUE_MS);
		lock(mode, top);
		if (mode == MPI_LOCK_EXCLUSIVE)
			put_check(top, mark(1, top, 1));
		else
			expect(top, get_at(top), init_value(top), -1, "rank 1's shared lock");
		unlock(top);
		tell(0);
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		lock_all_scan();
	}
}

static void test_recv(void)
{
	holder_waits(MPI_LOCK_EXCLUSIVE);
}

static void test_recv_shared(void)
{
	holder_waits(MPI_LOCK_SHARED);
}

/*
 * An earlier conflicting waiter: rank 0 holds a shared lock on target 1,
 * rank 1 asks for target 1 exclusively and waits, the lock_all ranks then
 * ask for their shared lock on target 1, and rank 0 locks target 2
 * exclusively.  The lock_all ranks either queue behind rank 1's request
 * (1 lets them) and have not reached target 2, so rank 0 gets it at once,
 * or join rank 0 at target 1 and finish without waiting for anyone, rank
 * 0 getting target 2 after them; the lock_all ranks' reads tell which.
 * A lock on target 2 that waited for the queue of target 1 deadlocks.
 */
static void test_behind(void)
{
	want_init();
	/* target 1 before or after rank 1's epoch; target 2 after rank 0's
	 * epoch, or before it if they went ahead at target 1 */
	want[1] = init_value(1);
	alt[1] = final[1] = mark(1, 1, 1);
	want_set(2, mark(0, 2, 1));
	alt[2] = init_value(2);
	if (rank == 0) {
		lock(MPI_LOCK_SHARED, 1);
		expect(1, get_at(1), init_value(1), -1, "rank 0's shared lock");
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(2 * QUEUE_MS);	/* rank 1, then lock_all, wait at 1 */
		lock(MPI_LOCK_EXCLUSIVE, 2);
		put_check(2, mark(0, 2, 1));
		unlock(2);
		unlock(1);
	} else if (rank == 1) {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		lock(MPI_LOCK_EXCLUSIVE, 1);
		put_check(1, mark(1, 1, 1));
		unlock(1);
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		tu_sleep_ms(QUEUE_MS);	/* behind rank 1's request */
		lock_all_scan();
	}
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "one", test_one },
	{ "one_shared", test_one_shared },
	{ "all", test_all },
	{ "two", test_two },
	{ "recv", test_recv },
	{ "recv_shared", test_recv_shared },
	{ "behind", test_behind },
};

/* One case on one kind of window, then every rank checks its memory. */
static void run(int c, enum wk_kind kind)
{
	wk_open(&W, kind, 1, init_value(rank), MPI_COMM_WORLD);
	cases[c].run();
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	lock(MPI_LOCK_SHARED, rank);
	expect(rank, get_at(rank), final[rank], final[rank], "at the end");
	unlock(rank);
	wk_close(&W);
}

int main(int argc, char **argv)
{
	const char *kind = argc > 2 ? argv[2] : "allocate";
	int c = -1, k = wk_kind_of(kind);

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; argc > 1 && i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
		if (!strcmp(argv[1], cases[i].name))
			c = i;
	if (c < 0 || (k < 0 && strcmp(kind, "all")) || size < 3) {
		if (rank == 0)
			fprintf(stderr, "usage: rma_lockorder CASE [KIND|all] on 3 ranks "
				"or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	case_name = cases[c].name;
	want = malloc(sizeof(int) * (size_t)size);
	alt = malloc(sizeof(int) * (size_t)size);
	final = malloc(sizeof(int) * (size_t)size);
	CHECK(want && alt && final);
	for (int i = k < 0 ? 0 : k; i < (k < 0 ? WK_NKINDS : k + 1); i++)
		run(c, (enum wk_kind)i);
	if (rank == 0)
		printf("ok %s\n", case_name);
	free(final);
	free(alt);
	free(want);
	MPI_Finalize();
	return 0;
}
