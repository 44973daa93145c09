/*
 * Truly passive target: while rank 0 computes outside MPI (a loop that
 * only reads its own memory and the clock), the other ranks' operations on
 * its window complete -- put, get, accumulate, get_accumulate, fetch_and_op,
 * compare_and_swap, the request-based calls, lock, unlock, lock_all,
 * unlock_all, flush, flush_local, flush_all, sync -- and so does an
 * access epoch start/complete after the target posted.
 *
 * The target computes until every origin says it is done (a counter in a
 * shared-memory window it reads by plain atomic loads) or COMPUTE_LIMIT
 * passes.  Each origin times its own operations and must finish in under
 * a tenth of COMPUTE_LIMIT; the target must have been stopped by the
 * origins, not by the limit.  An origin that needs the target to enter MPI
 * waits the whole limit and fails both checks.
 *
 *   rma_passive [test]
 */
#include <sched.h>
#include <stdatomic.h>

#include "testutil.h"

static int rank, size;

#define COMPUTE_LIMIT 10.0
#define REPS 10
#define REGION 8	/* longs per origin in the target's windows */

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The control block on rank 0: set by the target, counted by the origins. */
struct ctl {
	atomic_int computing;
	atomic_int done;
};

static MPI_Win ctl_win;
static struct ctl *ctl;

static void ctl_create(void)
{
	struct ctl *mine;
	MPI_Aint sz;
	int du;

	CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? sizeof(struct ctl) : 0, 1,
					  MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &ctl_win));
	CHECK_MPI(MPI_Win_shared_query(ctl_win, 0, &sz, &du, &ctl));
	CHECK(sz == sizeof(struct ctl));
	if (rank == 0) {
		atomic_init(&ctl->computing, 0);
		atomic_init(&ctl->done, 0);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void ctl_free(void)
{
	CHECK_MPI(MPI_Win_free(&ctl_win));
}

/*
 * The target's compute loop: no MPI call, only arithmetic, its own memory
 * and the clock.  Returns the time it computed; *stopped says whether the
 * origins stopped it (rather than the limit).
 */
static double compute(int *stopped)
{
	double t0 = mono(), x = 1.0;
	unsigned long n = 0;

	atomic_store_explicit(&ctl->computing, 1, memory_order_release);
	*stopped = 0;
	for (;;) {
		for (int i = 0; i < 4096; i++)
			x = x * 1.0000001 + 1e-9;
		n++;
		/* acquire: pairs with the origins' release increment */
		if (atomic_load_explicit(&ctl->done, memory_order_acquire) == size - 1) {
			*stopped = 1;
			break;
		}
		if (mono() - t0 > COMPUTE_LIMIT)
			break;
	}
	atomic_store_explicit(&ctl->computing, 0, memory_order_relaxed);
	CHECK(x > 0 && n > 0);
	return mono() - t0;
}

/* An origin waits (bounded, without MPI) for the target to be computing. */
static void await_computing(void)
{
	double end = mono() + 10;

	while (!atomic_load_explicit(&ctl->computing, memory_order_acquire) && mono() < end)
		sched_yield();
	CHECK(atomic_load_explicit(&ctl->computing, memory_order_acquire));
}

static void origin_done(double elapsed, const char *what)
{
	atomic_fetch_add_explicit(&ctl->done, 1, memory_order_release);
	if (elapsed >= COMPUTE_LIMIT / 10)
		fprintf(stderr, "rank %d: %s took %.3f s while the target computed\n", rank,
			what, elapsed);
	CHECK(elapsed < COMPUTE_LIMIT / 10);
}

static void target_finish(double computed, int stopped, const char *what)
{
	if (!stopped)
		fprintf(stderr, "%s: the origins did not finish in %.1f s of compute\n", what,
			computed);
	CHECK(stopped);
	atomic_store_explicit(&ctl->done, 0, memory_order_relaxed);
}

/*
 * One origin's operations on the target's window, all under passive
 * synchronization.  Window layout (longs): [0] accumulate total, [1] fetch
 * and op counter, [2 + o * REGION ...] origin o's region.
 */
static void origin_ops(MPI_Win win, int rep)
{
	const int t = 0;
	MPI_Aint reg = 2 + (MPI_Aint)rank * REGION;
	long v[4], got[4], one = 1, mine = rank, old, cmp = 0, res;
	MPI_Request rq[3];

	for (int i = 0; i < 4; i++)
		v[i] = rank * 1000L + rep * 10 + i;
	/* exclusive lock: put, flush, get back */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(v, 4, MPI_LONG, t, reg, 4, MPI_LONG, win));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Get(got, 4, MPI_LONG, t, reg, 4, MPI_LONG, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK(memcmp(got, v, sizeof(v)) == 0);
	/* shared lock: the accumulate family */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_LONG, t, 0, 1, MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, t, 1, MPI_SUM, win));
	CHECK_MPI(MPI_Compare_and_swap(&mine, &cmp, &res, MPI_LONG, t, reg + 4, win));
	CHECK_MPI(MPI_Win_flush_local(t, win));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Win_sync(win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK(old >= 0 && old < (long)REPS * (size - 1));
	CHECK(res == (rep == 0 ? 0 : rank));
	/* lock_all: request-based calls and get_accumulate */
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Rput(v, 2, MPI_LONG, t, reg + 5, 2, MPI_LONG, win, &rq[0]));
	CHECK_MPI(MPI_Raccumulate(&one, 1, MPI_LONG, t, reg + 7, 1, MPI_LONG, MPI_SUM, win,
				  &rq[1]));
	CHECK_MPI(MPI_Rget(got, 2, MPI_LONG, t, reg, 2, MPI_LONG, win, &rq[2]));
	CHECK_MPI(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
	CHECK(got[0] == v[0] && got[1] == v[1]);
	CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_LONG, &old, 1, MPI_LONG, t, reg + 7, 1,
				     MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Win_flush_local_all(win));
	CHECK_MPI(MPI_Win_flush_all(win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK(old == 2L * rep + 1);
}

/* What the target's window holds once every origin did REPS rounds. */
static void target_verify(const long *base)
{
	long sum = 0;

	for (int o = 1; o < size; o++) {
		const long *r = base + 2 + o * REGION;

		sum += o;
		for (int i = 0; i < 4; i++)
			CHECK(r[i] == o * 1000L + (REPS - 1) * 10 + i);
		CHECK(r[4] == o);
		CHECK(r[5] == r[0] && r[6] == r[1]);
		CHECK(r[7] == 2L * REPS);
	}
	CHECK(base[0] == sum * REPS);
	CHECK(base[1] == (long)REPS * (size - 1));
}

/* Passive-target calls on three window flavours whose memory is shared. */
static void test_passive(void)
{
	const int nwin = 3;
	MPI_Aint bytes = (MPI_Aint)(2 + size * REGION) * sizeof(long);
	long *base[3], *mem;
	MPI_Win win[3];

	ctl_create();
	CHECK_MPI(tu_win_allocate(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base[0], &win[0]));
	CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
					  &base[1], &win[1]));
	CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem));
	CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win[2]));
	base[2] = mem;
	for (int w = 0; w < nwin; w++)
		memset(base[w], 0, (size_t)bytes);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		int stopped;
		double c = compute(&stopped);

		target_finish(c, stopped, "passive");
	} else {
		double t0;

		await_computing();
		t0 = MPI_Wtime();
		for (int rep = 0; rep < REPS; rep++)
			for (int w = 0; w < nwin; w++)
				origin_ops(win[w], rep);
		origin_done(MPI_Wtime() - t0, "passive operations");
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		for (int w = 0; w < nwin; w++)
			target_verify(base[w]);
	for (int w = 0; w < nwin; w++)
		CHECK_MPI(MPI_Win_free(&win[w]));
	CHECK_MPI(MPI_Free_mem(mem));
	ctl_free();
}

/*
 * Generalized active target with the target computing between post and
 * wait: the origins' start, put, accumulate, get and complete finish
 * without it.
 */
static void test_pscw_compute(void)
{
	MPI_Group world, g;
	MPI_Win win;
	long *base;
	int zero = 0;

	ctl_create();
	CHECK_MPI(tu_win_allocate((MPI_Aint)(1 + size) * sizeof(long), sizeof(long),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
	memset(base, 0, (size_t)(1 + size) * sizeof(long));
	base[0] = 77;
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		int stopped;
		double c;

		CHECK_MPI(MPI_Group_excl(world, 1, &zero, &g));
		CHECK_MPI(MPI_Win_post(g, 0, win));
		c = compute(&stopped);
		CHECK_MPI(MPI_Win_wait(win));
		target_finish(c, stopped, "pscw");
		for (int q = 1; q < size; q++)
			CHECK(base[1 + q] == q * 3L);
		CHECK(base[1] == (long)size * (size - 1) / 2);
	} else {
		long v = rank * 3L, got, r = rank;
		double t0;

		CHECK_MPI(MPI_Group_incl(world, 1, &zero, &g));
		await_computing();
		t0 = MPI_Wtime();
		CHECK_MPI(MPI_Win_start(g, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, 0, 1 + rank, 1, MPI_LONG, win));
		CHECK_MPI(MPI_Accumulate(&r, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Get(&got, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
		CHECK_MPI(MPI_Win_complete(win));
		origin_done(MPI_Wtime() - t0, "start/put/complete");
		CHECK(got == 77);
	}
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Win_free(&win));
	ctl_free();
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("passive", test_passive);
	TU_RUN("pscw", test_pscw_compute);
	MPI_Finalize();
	return 0;
}
