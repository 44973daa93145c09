/*
 * What a job of many ranks must do, each result checked:
 *
 *   many_ranks   hello (every rank reports to rank 0 through a gather),
 *                barrier, allreduce, a point-to-point ring (each rank sends
 *                its rank to the right and gets the left one's, three
 *                laps with MPI_ANY_SOURCE on the last), a put+flush ring on
 *                an MPI_Win_allocate window, and MPI_Alltoall; rank 0
 *                prints "ok N ranks".
 *
 * Messages in a ring use one channel per rank pair, and the alltoall every
 * pair: at hundreds of ranks most senders go through the receivers' shared
 * rings (shm/inbox.h).  Also builds with any other MPI.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
	int rank, size, left, right, *all, *to, *from;
	long sum = 0, want;
	MPI_Win win;
	int *slot;

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	/* hello: rank 0 hears from everyone */
	all = malloc(sizeof(int) * (size_t)size);
	CHECK(all);
	CHECK_MPI(MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD));
	for (int i = 0; rank == 0 && i < size; i++)
		CHECK(all[i] == i);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* allreduce */
	long mine = rank + 1;

	CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
	want = (long)size * (size + 1) / 2;
	CHECK(sum == want);

	/* a point-to-point ring, three laps */
	for (int lap = 0; lap < 3; lap++) {
		int got = -1, src = lap == 2 ? MPI_ANY_SOURCE : left;
		MPI_Request rq;
		MPI_Status st;

		CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, src, lap, MPI_COMM_WORLD, &rq));
		CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, right, lap, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Wait(&rq, &st));
		CHECK(got == left && st.MPI_SOURCE == left);
	}

	/* a put+flush ring */
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &slot, &win));
	*slot = -1;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(right, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK(*slot == left);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Win_free(&win));

	/* alltoall: every pair */
	to = malloc(sizeof(int) * (size_t)size);
	from = malloc(sizeof(int) * (size_t)size);
	CHECK(to && from);
	for (int i = 0; i < size; i++)
		to[i] = rank * size + i;
	CHECK_MPI(MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size; i++)
		CHECK(from[i] == i * size + rank);

	if (rank == 0)
		printf("ok %d ranks\n", size);
	free(all);
	free(to);
	free(from);
	MPI_Finalize();
	return 0;
}
