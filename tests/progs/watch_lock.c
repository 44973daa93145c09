/*
 * A lock deadlock for shmrun's watchdog: every rank locks its own portion
 * of a window exclusively, then (after a barrier, so every rank holds its
 * lock) the next rank's, which that rank holds: a cycle of MPI_Win_lock.
 *   watch_lock deadlock    as above
 *   watch_lock ok          each rank unlocks its own portion first
 * Rank 0 prints "done" when the job gets through.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
	int deadlock = argc > 1 && !strcmp(argv[1], "deadlock");
	int size, next, *base;
	MPI_Win win;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (tu_rank + 1) % size;
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tu_rank, 0, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (!deadlock)
		CHECK_MPI(MPI_Win_unlock(tu_rank, win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
	CHECK_MPI(MPI_Win_unlock(next, win));
	if (deadlock)
		CHECK_MPI(MPI_Win_unlock(tu_rank, win));
	CHECK_MPI(MPI_Win_free(&win));
	if (tu_rank == 0)
		printf("done\n");
	MPI_Finalize();
	return 0;
}
