/*
 * Synchronizations that end in a sleep on the doorbell, many times over:
 * the ranks hand values round a ring by PSCW (each rank posts to its left
 * neighbour and starts to its right one), by fence and by MPI_Barrier over
 * a shared window, checking each value.  Run with few spin rounds
 * (SHMPI_SPINS, SHMPI_YIELDS=0) the waits sleep, and each sleep races with
 * the ring that ends it: a lost wake-up hangs the job (bounded by shmrun's
 * --timeout), a store not yet seen fails a check.
 *
 *   sync_sleep pscw|fence|barrier [ROUNDS]
 */
#include "testutil.h"

static int rank, size;

static int left(void) { return (rank + size - 1) % size; }
static int right(void) { return (rank + 1) % size; }

/* What rank `who` hands on in round r. */
static int val(int who, int r) { return r * 1000 + who; }

static void ring_pscw(int rounds)
{
	MPI_Group world, lg, rg;
	MPI_Win win;
	int *buf, l = left(), r = right();

	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &buf, &win));
	*buf = -1;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &l, &lg);
	MPI_Group_incl(world, 1, &r, &rg);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < rounds; i++) {
		int v = val(rank, i);

		CHECK_MPI(MPI_Win_post(lg, 0, win));
		CHECK_MPI(MPI_Win_start(rg, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, r, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_complete(win));
		CHECK_MPI(MPI_Win_wait(win));
		CHECK(*buf == val(l, i));
	}
	MPI_Group_free(&lg);
	MPI_Group_free(&rg);
	MPI_Group_free(&world);
	MPI_Win_free(&win);
}

/* Round i puts into slot i % 2, so that the reads after one fence do not
 * meet the left neighbour's put of the next epoch. */
static void ring_fence(int rounds)
{
	MPI_Win win;
	int *buf;

	CHECK_MPI(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &buf, &win));
	buf[0] = buf[1] = -1;
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int i = 0; i < rounds; i++) {
		int v = val(rank, i);

		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right(), i % 2, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		CHECK(buf[i % 2] == val(left(), i));
	}
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	MPI_Win_free(&win);
}

/* Plain stores into the right neighbour's part of a shared window, made
 * visible by MPI_Barrier (with MPI_Win_sync in a lock_all epoch, the
 * standard's pattern for shared memory). */
static void ring_barrier(int rounds)
{
	MPI_Aint sz;
	MPI_Win win;
	int *mine, *theirs, du;

	CHECK_MPI(MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
					  MPI_COMM_WORLD, &mine, &win));
	CHECK_MPI(MPI_Win_shared_query(win, right(), &sz, &du, &theirs));
	mine[0] = mine[1] = -1;
	CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < rounds; i++) {
		theirs[i % 2] = val(rank, i);
		MPI_Win_sync(win);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Win_sync(win);
		CHECK(mine[i % 2] == val(left(), i));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
	int rounds;

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2 || argc > 3) {
		if (rank == 0)
			fprintf(stderr, "usage: sync_sleep pscw|fence|barrier [ROUNDS]\n");
		MPI_Finalize();
		return 2;
	}
	rounds = argc == 3 ? atoi(argv[2]) : 3000;
	if (strcmp(argv[1], "pscw") == 0)
		ring_pscw(rounds);
	else if (strcmp(argv[1], "fence") == 0)
		ring_fence(rounds);
	else if (strcmp(argv[1], "barrier") == 0)
		ring_barrier(rounds);
	else
		CHECK(!"a known synchronization");
	if (rank == 0)
		printf("ok %s\n", argv[1]);
	MPI_Finalize();
	return 0;
}
