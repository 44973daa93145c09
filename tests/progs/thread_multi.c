/*
 * MPI_THREAD_MULTIPLE: T threads per rank call MPI at once.
 *   thread_multi TEST T [KIND]   TEST: levels, p2p, waits, rma, locks, coll, watch, all;
 *                                KIND: a window kind of winkind.h (allocate)
 * Prints "ok TEST" per test.
 *
 *   levels MPI_Init_thread gives MPI_THREAD_MULTIPLE, MPI_Query_thread says
 *          so in every thread, MPI_Is_thread_main only in the main one
 *   p2p    every thread sends N messages (some of rendezvous size) to every
 *          rank on two communicators, nonblocking; on the first, thread t
 *          receives the messages of tag t from MPI_ANY_SOURCE as they come,
 *          on the second every thread then receives its share with
 *          MPI_ANY_SOURCE and MPI_ANY_TAG; every message arrives exactly
 *          once, with its status and contents
 *   waits  each thread posts nonblocking sends and receives and completes
 *          them with MPI_Waitany, MPI_Testsome, MPI_Waitsome, MPI_Testany
 *   rma    inside one MPI_Win_lock_all of the main thread, every thread
 *          accumulates and fetch-and-adds on every target and flushes; the
 *          sums are exact and every fetched value is unique
 *   locks  thread t increments counters of window t on random targets
 *          under exclusive locks (get, put the value + 1, unlock), and on
 *          one shared window threads lock distinct targets at once; the
 *          counts are exact
 *   coll   thread t runs allreduce, bcast, allgather and barrier on its
 *          own duplicate of MPI_COMM_WORLD
 *   watch  (not in all) one thread of rank 0 waits for rank 1 while
 *          another computes, and rank 1 waits for that other thread
 */
#include <pthread.h>
#include <stdatomic.h>

#include "winkind.h"

#define MAXT 16
#define N 40
#define BIG 20000		/* ints: rendezvous size */

static int nthreads, rank, size;
static enum wk_kind kind = WK_ALLOCATE;

struct thread_arg {
	int t;
	void (*fn)(int t);
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;

	a->fn(a->t);
	return NULL;
}

static void run_threads(void (*fn)(int t))
{
	pthread_t th[MAXT];
	struct thread_arg args[MAXT];

	for (int t = 0; t < nthreads; t++) {
		args[t].t = t;
		args[t].fn = fn;
		CHECK(pthread_create(&th[t], NULL, thread_main, &args[t]) == 0);
	}
	for (int t = 0; t < nthreads; t++)
		CHECK(pthread_join(th[t], NULL) == 0);
}

/* ---- p2p ------------------------------------------------------------------ */

static MPI_Comm p2p_any;
static atomic_uchar *seen;	/* [src][thread][seq][which comm] */

static int msg_len(int seq)
{
	return seq % 8 == 7 ? BIG : 1 + seq % 5;
}

static void fill(int *buf, int src, int t, int seq, int len)
{
	for (int i = 0; i < len; i++)
		buf[i] = ((src * MAXT + t) * N + seq) * 7 + i;
}

static void p2p_check(const int *buf, MPI_Status *st, int which, int want_tag)
{
	int count, src = st->MPI_SOURCE, t, seq, id;

	CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
	CHECK(count >= 1 && src >= 0 && src < size);
	id = buf[0] / 7;
	seq = id % N;
	t = id / N % MAXT;
	CHECK(id / N / MAXT == src);
	CHECK(st->MPI_TAG == t && (want_tag < 0 || t == want_tag));
	CHECK(count == msg_len(seq));
	for (int i = 0; i < count; i++)
		CHECK(buf[i] == id * 7 + i);
	CHECK(atomic_fetch_add(&seen[((src * MAXT + t) * N + seq) * 2 + which], 1) == 0);
}

static void p2p_thread(int t)
{
	int nsend = 2 * N * size, nreq = 0, *rbuf = malloc(BIG * sizeof(int));
	MPI_Request *reqs = malloc((size_t)nsend * sizeof(*reqs));
	int **bufs = malloc((size_t)nsend * sizeof(*bufs));
	MPI_Status st;

	CHECK(rbuf && reqs && bufs);
	/* every send nonblocking, each from a buffer of its own, all
	 * completed at the end: only the receives block */
	for (int seq = 0; seq < N; seq++) {
		int len = msg_len(seq);

		for (int d = 0; d < size; d++)
			for (int which = 0; which < 2; which++) {
				bufs[nreq] = malloc((size_t)len * sizeof(int));
				CHECK(bufs[nreq]);
				fill(bufs[nreq], rank, t, seq, len);
				CHECK_MPI(MPI_Isend(bufs[nreq], len, MPI_INT, d, t,
						    which ? p2p_any : MPI_COMM_WORLD,
						    &reqs[nreq]));
				nreq++;
			}
		/* tag t from every rank: thread t of each sends it at this seq */
		for (int s = 0; s < size; s++) {
			CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD,
					   &st));
			p2p_check(rbuf, &st, 0, t);
		}
	}
	/* then this thread's share of the other communicator's messages,
	 * whatever their source and tag */
	for (int i = 0; i < N * size; i++) {
		CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, p2p_any, &st));
		p2p_check(rbuf, &st, 1, -1);
	}
	CHECK_MPI(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
	for (int i = 0; i < nreq; i++)
		free(bufs[i]);
	free(bufs);
	free(reqs);
	free(rbuf);
}

static void test_p2p(void)
{
	size_t n = (size_t)size * MAXT * N * 2;

	seen = calloc(n, 1);
	CHECK(seen);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &p2p_any));
	run_threads(p2p_thread);
	for (int s = 0; s < size; s++)
		for (int t = 0; t < nthreads; t++)
			for (int q = 0; q < N; q++)
				for (int w = 0; w < 2; w++)
					CHECK(seen[((s * MAXT + t) * N + q) * 2 + w] == 1);
	CHECK_MPI(MPI_Comm_free(&p2p_any));
	free(seen);
}

/* ---- waits ----------------------------------------------------------------- */

#define W 16

static void waits_thread(int t)
{
	int sbuf[W], rbuf[W], done[2 * W] = { 0 }, left = 2 * W, idx[2 * W], out;
	int peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;
	MPI_Request r[2 * W];
	MPI_Status st[2 * W];

	for (int round = 0; round < 8; round++) {
		for (int i = 0; i < W; i++) {
			sbuf[i] = (rank * MAXT + t) * 1000 + round * W + i;
			rbuf[i] = -1;
			CHECK_MPI(MPI_Irecv(&rbuf[i], 1, MPI_INT, peer_from, 100 + t * W + i,
					    MPI_COMM_WORLD, &r[i]));
		}
		for (int i = 0; i < W; i++)
			CHECK_MPI(MPI_Isend(&sbuf[i], 1, MPI_INT, peer_to, 100 + t * W + i,
					    MPI_COMM_WORLD, &r[W + i]));
		memset(done, 0, sizeof(done));
		left = 2 * W;
		while (left > 0) {
			int k;

			switch ((round + left) % 4) {
			case 0:
				CHECK_MPI(MPI_Waitany(2 * W, r, &k, &st[0]));
				CHECK(k != MPI_UNDEFINED && !done[k]);
				done[k] = 1;
				left--;
				break;
			case 1:
				CHECK_MPI(MPI_Testsome(2 * W, r, &out, idx, st));
				for (int i = 0; out != MPI_UNDEFINED && i < out; i++) {
					CHECK(!done[idx[i]]);
					done[idx[i]] = 1;
					left--;
				}
				break;
			case 2:
				CHECK_MPI(MPI_Waitsome(2 * W, r, &out, idx, st));
				CHECK(out != MPI_UNDEFINED && out > 0);
				for (int i = 0; i < out; i++) {
					CHECK(!done[idx[i]]);
					done[idx[i]] = 1;
					left--;
				}
				break;
			default: {
				int flag;

				CHECK_MPI(MPI_Testany(2 * W, r, &k, &flag, &st[0]));
				if (flag && k != MPI_UNDEFINED) {
					CHECK(!done[k]);
					done[k] = 1;
					left--;
				}
				break;
			}
			}
		}
		for (int i = 0; i < W; i++)
			CHECK(rbuf[i] == (peer_from * MAXT + t) * 1000 + round * W + i);
	}
}

/* ---- rma ------------------------------------------------------------------- */

#define RMA_N 200

static struct wk_win rma_win;
static atomic_uchar *fetched;	/* [target][value] */

static void rma_thread(int t)
{
	int one = 1, old;

	for (int i = 0; i < RMA_N * size; i++) {
		int target = (rank + t + i) % size;	/* every target RMA_N times */

		/* counter 0: accumulate; counter 1: fetch-and-add */
		CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, target, wk_at(&rma_win, target, 0),
					 1, MPI_INT, MPI_SUM, rma_win.win));
		CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, target,
					   wk_at(&rma_win, target, 1), MPI_SUM, rma_win.win));
		CHECK_MPI(MPI_Win_flush(target, rma_win.win));
		CHECK(old >= 0 && old < size * nthreads * RMA_N);
		/* every value is fetched once, by one thread of one rank: only
		 * this rank's own share can be checked here */
		CHECK(atomic_fetch_add(&fetched[(size_t)target * size * nthreads * RMA_N +
						(size_t)old], 1) == 0);
	}
}

static void test_rma(void)
{
	int total = size * nthreads * RMA_N;
	unsigned char *sums;

	fetched = calloc((size_t)size * (size_t)total, 1);
	sums = calloc((size_t)size * (size_t)total, 1);
	CHECK(fetched && sums);
	wk_open(&rma_win, kind, 2, 0, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Win_lock_all(0, rma_win.win));
	run_threads(rma_thread);
	CHECK_MPI(MPI_Win_unlock_all(rma_win.win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, rma_win.win));
	CHECK(rma_win.base[0] == total && rma_win.base[1] == total);
	CHECK_MPI(MPI_Win_unlock(rank, rma_win.win));
	/* no value fetched twice across the job: sum the marks */
	CHECK_MPI(MPI_Reduce(fetched, sums, (int)(size * total), MPI_UNSIGNED_CHAR, MPI_SUM,
			     0, MPI_COMM_WORLD));
	for (int i = 0; rank == 0 && i < size * total; i++)
		CHECK(sums[i] == 1);
	wk_close(&rma_win);
	free(fetched);
	free(sums);
}

/* ---- locks ----------------------------------------------------------------- */

#define LOCK_N 50

static struct wk_win lock_wins[MAXT], lock_shared;

/* Increment element 0 of target's memory under an exclusive lock. */
static void lock_increment(struct wk_win *w, int target)
{
	int v;

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, w->win));
	CHECK_MPI(MPI_Get(&v, 1, MPI_INT, target, wk_at(w, target, 0), 1, MPI_INT, w->win));
	CHECK_MPI(MPI_Win_flush(target, w->win));
	v++;
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, target, wk_at(w, target, 0), 1, MPI_INT, w->win));
	CHECK_MPI(MPI_Win_unlock(target, w->win));
}

static void locks_thread(int t)
{
	unsigned seed = (unsigned)(rank * MAXT + t) * 2654435761u;

	for (int i = 0; i < LOCK_N; i++) {
		int target = (int)((seed = seed * 1103515245u + 12345u) >> 16) % size;

		lock_increment(&lock_wins[t], target);
		/* on the shared window, thread t alone locks target t */
		if (t < size)
			lock_increment(&lock_shared, t);
	}
}

static void test_locks(void)
{
	int mine = 0, sum;

	for (int t = 0; t < nthreads; t++)
		wk_open(&lock_wins[t], kind, 1, 0, MPI_COMM_WORLD);
	wk_open(&lock_shared, kind, 1, 0, MPI_COMM_WORLD);
	run_threads(locks_thread);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int t = 0; t < nthreads; t++) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, lock_wins[t].win));
		mine += lock_wins[t].base[0];
		CHECK_MPI(MPI_Win_unlock(rank, lock_wins[t].win));
	}
	CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK(sum == size * nthreads * LOCK_N);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, lock_shared.win));
	CHECK(lock_shared.base[0] == (rank < nthreads ? size * LOCK_N : 0));
	CHECK_MPI(MPI_Win_unlock(rank, lock_shared.win));
	for (int t = 0; t < nthreads; t++)
		wk_close(&lock_wins[t]);
	wk_close(&lock_shared);
}

/* ---- coll ------------------------------------------------------------------ */

static MPI_Comm coll_comms[MAXT];

static void coll_thread(int t)
{
	MPI_Comm c = coll_comms[t];
	int v, sum, *all = malloc((size_t)size * sizeof(int));

	CHECK(all);
	for (int i = 0; i < 50; i++) {
		v = rank * 1000 + t * 10 + i;
		CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
		CHECK(sum == 1000 * size * (size - 1) / 2 + size * (t * 10 + i));
		v = rank == i % size ? t * 7 + i : -1;
		CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, i % size, c));
		CHECK(v == t * 7 + i);
		v = rank + t + i;
		CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, c));
		for (int r = 0; r < size; r++)
			CHECK(all[r] == r + t + i);
		CHECK_MPI(MPI_Barrier(c));
	}
	free(all);
}

static void test_coll(void)
{
	for (int t = 0; t < nthreads; t++)
		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &coll_comms[t]));
	run_threads(coll_thread);
	for (int t = 0; t < nthreads; t++)
		CHECK_MPI(MPI_Comm_free(&coll_comms[t]));
}

/* ---------------------------------------------------------------------------- */

static void test_waits(void)
{
	run_threads(waits_thread);
}

/* MPI_Query_thread and MPI_Is_thread_main agree with what Init gave. */
static void levels_thread(int t)
{
	int level, main_thread;

	(void)t;
	CHECK_MPI(MPI_Query_thread(&level));
	CHECK(level == MPI_THREAD_MULTIPLE);
	CHECK_MPI(MPI_Is_thread_main(&main_thread));
	CHECK(!main_thread);
}

static void test_levels(void)
{
	int main_thread;

	CHECK_MPI(MPI_Is_thread_main(&main_thread));
	CHECK(main_thread);
	run_threads(levels_thread);
}

/*
 * A rank whose one thread blocks while another computes is not stuck:
 * rank 0's thread 0 waits for rank 1's reply while thread 1 computes
 * (sleeps) outside MPI for 2.5 s before it sends what rank 1 waits for.
 * Under a 1 s deadlock timeout the job must go on.  Not in "all".
 */
static void watch_thread(int t)
{
	int v = 0;

	if (t == 0) {
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(v == 42);
	} else {
		tu_sleep_ms(2500);
		v = 41;
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD));
	}
}

static void test_watch(void)
{
	int v;

	if (rank == 0) {
		CHECK(nthreads >= 2);
		run_threads(watch_thread);
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		v++;
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
	}
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "levels", test_levels }, { "p2p", test_p2p }, { "waits", test_waits }, { "rma", test_rma },
	{ "locks", test_locks }, { "coll", test_coll }, { "watch", test_watch },
};

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	int provided;

	nthreads = argc > 2 ? atoi(argv[2]) : 4;
	CHECK(nthreads >= 1 && nthreads <= MAXT);
	if (argc > 3)
		kind = (enum wk_kind)wk_kind_of(argv[3]);
	CHECK((int)kind >= 0);
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	tu_rank = rank;
	CHECK(provided == MPI_THREAD_MULTIPLE);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (strcmp(which, tests[i].name) &&
		    (strcmp(which, "all") || tests[i].fn == test_watch))
			continue;
		tests[i].fn();
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (rank == 0)
			printf("ok %s\n", tests[i].name);
	}
	MPI_Finalize();
	return 0;
}
