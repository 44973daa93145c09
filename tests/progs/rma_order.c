/*
 * Active-target ordering as the MPI standard (MPI 3.1, section 11.5) states it:
 * - PSCW: local stores a target makes before MPI_Win_post are what the
 *   origins' gets in the matching epoch read; the origins' puts are what
 *   the target loads after MPI_Win_wait (or after MPI_Win_test says so);
 *   access and exposure epochs match one to one, epoch after epoch, with
 *   several origins and targets (each rank posts to its two neighbours)
 *   and with MPI_MODE_NOCHECK (NOSTORE / NOPUT on a read-only post), and
 *   with empty groups;
 * - MPI_Win_test reports false until the origins have completed;
 * - fence: stores before a fence are what gets after it read, puts in an
 *   epoch are what loads after the closing fence read, and the assertions
 *   NOPRECEDE / NOSUCCEED / NOSTORE / NOPUT change no result.
 *
 *   rma_order [test]
 */
#include "testutil.h"

static int rank, size;

enum { DATA = 16, SLOT = 8, TAG_GO = 21 };

static int left(void) { return (rank + size - 1) % size; }
static int right(void) { return (rank + 1) % size; }

/* The value a rank stores in its DATA area in iteration it. */
static int data_val(int who, int it, int i) { return who * 100000 + it * 100 + i; }

/* The value an origin puts into its slot at a target in iteration it. */
static int slot_val(int who, int it, int i) { return -(who * 100000 + it * 100 + i) - 1; }

/* The distinct neighbours (one at two ranks) and their group. */
static int neighbours(int nb[2], MPI_Group *g)
{
	MPI_Group world;
	int n;

	nb[0] = left();
	nb[1] = right();
	n = nb[0] == nb[1] ? 1 : 2;
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_incl(world, n, nb, g));
	CHECK_MPI(MPI_Group_free(&world));
	return n;
}

/*
 * Each rank exposes its window to its neighbours and accesses theirs, many
 * epochs in a row without barriers, so an origin running ahead must still
 * land in the matching exposure epoch.  Variants by iteration:
 *   0  post/start/complete/wait
 *   1  the target stores and posts late (origins already in start)
 *   2  MPI_MODE_NOCHECK on post and start (a barrier between them)
 *   3  the target ends the exposure with an MPI_Win_test loop
 */
static void test_pscw_neighbours(void)
{
	const int iters = 120;
	int nb[2], nn, *base, got[2][DATA];
	MPI_Group g;
	MPI_Win win;
	int len = DATA + size * SLOT;

	nn = neighbours(nb, &g);
	CHECK_MPI(tu_win_allocate((MPI_Aint)len * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	for (int i = 0; i < len; i++)
		base[i] = -7;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int it = 0; it < iters; it++) {
		int variant = it % 4, assert = variant == 2 ? MPI_MODE_NOCHECK : 0;
		int mine[SLOT];

		if (variant == 1) {
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
			if (it % 8 == 1)
				tu_sleep_ms(5);
		}
		for (int i = 0; i < DATA; i++)
			base[i] = data_val(rank, it, i);
		CHECK_MPI(MPI_Win_post(g, assert, win));
		if (variant == 2)
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK_MPI(MPI_Win_start(g, assert, win));
		for (int i = 0; i < SLOT; i++)
			mine[i] = slot_val(rank, it, i);
		for (int k = 0; k < nn; k++) {
			CHECK_MPI(MPI_Get(got[k], DATA, MPI_INT, nb[k], 0, DATA, MPI_INT, win));
			CHECK_MPI(MPI_Put(mine, SLOT, MPI_INT, nb[k], DATA + rank * SLOT, SLOT,
					  MPI_INT, win));
		}
		CHECK_MPI(MPI_Win_complete(win));
		for (int k = 0; k < nn; k++)
			for (int i = 0; i < DATA; i++)
				CHECK(got[k][i] == data_val(nb[k], it, i));
		if (variant == 3) {
			int flag = 0;
			double end = MPI_Wtime() + 10;

			while (!flag && MPI_Wtime() < end)
				CHECK_MPI(MPI_Win_test(win, &flag));
			CHECK(flag);
		} else {
			CHECK_MPI(MPI_Win_wait(win));
		}
		for (int k = 0; k < nn; k++)
			for (int i = 0; i < SLOT; i++)
				CHECK(base[DATA + nb[k] * SLOT + i] == slot_val(nb[k], it, i));
	}
	/* a read-only epoch: no store since the wait, no put until the next:
	 * MPI_MODE_NOSTORE | MPI_MODE_NOPUT on post change nothing */
	CHECK_MPI(MPI_Win_post(g, MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
	CHECK_MPI(MPI_Win_start(g, 0, win));
	for (int k = 0; k < nn; k++)
		CHECK_MPI(MPI_Get(got[k], DATA, MPI_INT, nb[k], 0, DATA, MPI_INT, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	for (int k = 0; k < nn; k++)
		for (int i = 0; i < DATA; i++)
			CHECK(got[k][i] == data_val(nb[k], iters - 1, i));
	/* empty groups: nothing to wait for */
	CHECK_MPI(MPI_Win_post(MPI_GROUP_EMPTY, 0, win));
	CHECK_MPI(MPI_Win_start(MPI_GROUP_EMPTY, 0, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Group_free(&g));
}

/*
 * MPI_Win_test must say "not yet" while the origin has not called
 * MPI_Win_complete (the origin waits for a message meanwhile), then "done"
 * once it has, with the origin's put visible.  Ranks 0 (target) and 1.
 */
static void test_win_test_pending(void)
{
	int *base, flag = 0, v[4] = { 5, 6, 7, 8 };
	MPI_Group world, g;
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	memset(base, 0, 4 * sizeof(int));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0 && size > 1) {
		int one = 1;
		double end;

		CHECK_MPI(MPI_Group_incl(world, 1, &one, &g));
		CHECK_MPI(MPI_Win_post(g, 0, win));
		for (int i = 0; i < 25; i++) {
			CHECK_MPI(MPI_Win_test(win, &flag));
			CHECK(!flag);
			tu_sleep_ms(2);
		}
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD));
		end = MPI_Wtime() + 10;
		while (!flag && MPI_Wtime() < end)
			CHECK_MPI(MPI_Win_test(win, &flag));
		CHECK(flag);
		CHECK(base[0] == 5 && base[1] == 6 && base[2] == 7 && base[3] == 8);
		CHECK_MPI(MPI_Group_free(&g));
	} else if (rank == 1) {
		int zero = 0;

		CHECK_MPI(MPI_Group_incl(world, 1, &zero, &g));
		CHECK_MPI(MPI_Win_start(g, 0, win));
		CHECK_MPI(MPI_Put(v, 4, MPI_INT, 0, 0, 4, MPI_INT, win));
		CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Win_complete(win));
		CHECK_MPI(MPI_Group_free(&g));
	}
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * A star: rank 0 exposes to everybody else, who put into their slots and
 * accumulate into a shared counter; then everybody else exposes to rank 0,
 * which reads what they stored before posting and writes to them.
 */
static void test_pscw_star(void)
{
	const int iters = 20;
	int *base, len = DATA + size * SLOT;
	MPI_Group world, others, zero_g;
	MPI_Win win;
	int zero = 0, *got = malloc(sizeof(int) * DATA * (size_t)size);

	CHECK(got);
	CHECK_MPI(tu_win_allocate((MPI_Aint)len * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_excl(world, 1, &zero, &others));
	CHECK_MPI(MPI_Group_incl(world, 1, &zero, &zero_g));
	for (int it = 0; it < iters; it++) {
		int mine[SLOT], one = rank;

		for (int i = 0; i < SLOT; i++)
			mine[i] = slot_val(rank, it, i);
		if (rank == 0) {
			int sum = 0;

			base[0] = 0;
			CHECK_MPI(MPI_Win_post(others, 0, win));
			CHECK_MPI(MPI_Win_wait(win));
			for (int q = 1; q < size; q++) {
				sum += q;
				for (int i = 0; i < SLOT; i++)
					CHECK(base[DATA + q * SLOT + i] == slot_val(q, it, i));
			}
			CHECK(base[0] == sum);
			/* the other way round */
			CHECK_MPI(MPI_Win_start(others, 0, win));
			for (int q = 1; q < size; q++) {
				CHECK_MPI(MPI_Get(&got[q * DATA], DATA, MPI_INT, q, 0, DATA,
						  MPI_INT, win));
				CHECK_MPI(MPI_Put(mine, SLOT, MPI_INT, q, DATA, SLOT, MPI_INT,
						  win));
			}
			CHECK_MPI(MPI_Win_complete(win));
			for (int q = 1; q < size; q++)
				for (int i = 1; i < DATA; i++)
					CHECK(got[q * DATA + i] == data_val(q, it, i));
		} else {
			CHECK_MPI(MPI_Win_start(zero_g, 0, win));
			CHECK_MPI(MPI_Put(mine, SLOT, MPI_INT, 0, DATA + rank * SLOT, SLOT,
					  MPI_INT, win));
			CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
						 win));
			CHECK_MPI(MPI_Win_complete(win));
			for (int i = 1; i < DATA; i++)
				base[i] = data_val(rank, it, i);
			CHECK_MPI(MPI_Win_post(zero_g, 0, win));
			CHECK_MPI(MPI_Win_wait(win));
			for (int i = 0; i < SLOT; i++)
				CHECK(base[DATA + i] == slot_val(0, it, i));
		}
	}
	CHECK_MPI(MPI_Group_free(&zero_g));
	CHECK_MPI(MPI_Group_free(&others));
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Win_free(&win));
	free(got);
}

/*
 * Fence epochs: stores, then a read epoch (gets of the neighbours' stores),
 * then a write epoch (puts and accumulates into the neighbours), then loads.
 * Odd iterations give every assertion that holds, even ones none: the
 * results must be the same.
 */
static void test_fence(void)
{
	const int iters = 100;
	int nb[2], nn, *base, got[2][DATA];
	MPI_Group g;
	MPI_Win win;
	int len = DATA + size * SLOT + 1, acc = len - 1;

	nn = neighbours(nb, &g);
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(tu_win_allocate((MPI_Aint)len * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	for (int i = 0; i < len; i++)
		base[i] = -7;
	for (int it = 0; it < iters; it++) {
		int a = it % 2, mine[SLOT], one = rank + 1, want;

		/* stores before the fence */
		for (int i = 0; i < DATA; i++)
			base[i] = data_val(rank, it, i);
		base[acc] = 0;
		/* no RMA since the last fence; this epoch only reads the window */
		CHECK_MPI(MPI_Win_fence(a ? MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT : 0, win));
		for (int k = 0; k < nn; k++)
			CHECK_MPI(MPI_Get(got[k], DATA, MPI_INT, nb[k], 0, DATA, MPI_INT, win));
		/* no local store since the last fence */
		CHECK_MPI(MPI_Win_fence(a ? MPI_MODE_NOSTORE : 0, win));
		for (int k = 0; k < nn; k++)
			for (int i = 0; i < DATA; i++)
				CHECK(got[k][i] == data_val(nb[k], it, i));
		for (int i = 0; i < SLOT; i++)
			mine[i] = slot_val(rank, it, i);
		for (int k = 0; k < nn; k++) {
			CHECK_MPI(MPI_Put(mine, SLOT, MPI_INT, nb[k], DATA + rank * SLOT, SLOT,
					  MPI_INT, win));
			CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, nb[k], acc, 1, MPI_INT,
						 MPI_SUM, win));
		}
		/* no store since the last fence, no RMA until the next */
		CHECK_MPI(MPI_Win_fence(a ? MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED |
					MPI_MODE_NOPUT : 0, win));
		want = 0;
		for (int k = 0; k < nn; k++) {
			want += nb[k] + 1;
			for (int i = 0; i < SLOT; i++)
				CHECK(base[DATA + nb[k] * SLOT + i] == slot_val(nb[k], it, i));
		}
		CHECK(base[acc] == want);
	}
	/* a get after a fence reads the puts of the epoch before it */
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, right(), 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Get(got[0], 1, MPI_INT, right(), 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	CHECK(got[0][0] == rank);
	CHECK(base[0] == left());
	CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("pscw", test_pscw_neighbours);
	TU_RUN("win_test", test_win_test_pending);
	TU_RUN("star", test_pscw_star);
	TU_RUN("fence", test_fence);
	MPI_Finalize();
	return 0;
}
