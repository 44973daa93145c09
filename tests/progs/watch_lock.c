/*
 * A lock deadlock for shmrun's watchdog: every rank locks its own portion
 * of a window exclusively, then (after a barrier, so every rank holds its
 * lock) the next rank's, which that rank holds: a cycle of MPI_Win_lock.
 *   watch_lock deadlock    as above
 *   watch_lock ok          each rank unlocks its own portion first
 * Waits whose culprit is not the rank named in the call (3 ranks):
 *   watch_lock holder      rank 0 holds rank 2's lock and waits for a
 *                          message from rank 1, which waits for that lock
 *   watch_lock wait        rank 0 posts to ranks 1 and 2 and waits; rank 1
 *                          completes, rank 2 waits for a message from rank 0
 *   watch_lock start       rank 0 starts towards ranks 1 and 2; rank 1
 *                          posts, rank 2 waits for a message from rank 0
 *   watch_lock shared      ranks 1 and 2 hold rank 0's lock shared and wait
 *                          for a message from rank 0, which waits to lock
 *                          it exclusively
 *   watch_lock queued      rank 1 holds rank 0's lock shared and waits for
 *                          a message from rank 0; rank 2 asks for it
 *                          exclusively, then rank 0 shared, behind rank 2
 *   watch_lock lock_all    rank 0 holds rank 1's lock exclusively and waits
 *                          for a message from rank 2, whose MPI_Win_lock_all
 *                          waits for rank 1's lock
 *   watch_lock many        rank 0 holds every other rank's lock shared and
 *                          waits for a message from rank 1, which waits to
 *                          lock the last rank exclusively (any size)
 * Rank 0 prints "done" when the job gets through.
 */
#include <unistd.h>

#include "testutil.h"

/* The three-rank waits above; none of them gets through. */
static void culprits(const char *mode, MPI_Win win)
{
	MPI_Group world, g12, g0;
	int r12[2] = { 1, 2 }, r0 = 0, token;

	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_incl(world, 2, r12, &g12));
	CHECK_MPI(MPI_Group_incl(world, 1, &r0, &g0));
	if (!strcmp(mode, "shared")) {
		if (tu_rank != 0)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (tu_rank == 0)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		else
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
	} else if (!strcmp(mode, "queued")) {
		if (tu_rank == 1)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (tu_rank == 1) {
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		} else if (tu_rank == 2) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		} else {
			usleep(200000);	/* rank 2 asks first */
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		}
	} else if (!strcmp(mode, "many")) {
		int size;

		MPI_Comm_size(MPI_COMM_WORLD, &size);
		for (int t = 1; tu_rank == 0 && t < size; t++)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (tu_rank == 0)
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		else if (tu_rank == 1)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, size - 1, 0, win));
	} else if (!strcmp(mode, "lock_all")) {
		if (tu_rank == 0)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (tu_rank == 0)
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		else if (tu_rank == 2)
			CHECK_MPI(MPI_Win_lock_all(0, win));
	} else if (!strcmp(mode, "holder")) {
		if (tu_rank == 0)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (tu_rank == 0)
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		else if (tu_rank == 1)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win));
	} else if (tu_rank == 2) {
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	} else if (!strcmp(mode, "wait")) {
		if (tu_rank == 0) {
			CHECK_MPI(MPI_Win_post(g12, 0, win));
			CHECK_MPI(MPI_Win_wait(win));
		} else {
			CHECK_MPI(MPI_Win_start(g0, 0, win));
			CHECK_MPI(MPI_Win_complete(win));
		}
	} else {
		if (tu_rank == 0) {
			CHECK_MPI(MPI_Win_start(g12, 0, win));
			CHECK_MPI(MPI_Win_complete(win));
		} else {
			CHECK_MPI(MPI_Win_post(g0, 0, win));
			CHECK_MPI(MPI_Win_wait(win));
		}
	}
	/* the ranks not stuck above wait here */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(!"the job got through");
}

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
	if (argc > 1 && (!strcmp(argv[1], "holder") || !strcmp(argv[1], "wait") ||
			 !strcmp(argv[1], "start") || !strcmp(argv[1], "shared") ||
			 !strcmp(argv[1], "queued") || !strcmp(argv[1], "lock_all") ||
			 !strcmp(argv[1], "many"))) {
		CHECK(size == 3 || !strcmp(argv[1], "many"));
		culprits(argv[1], win);
	}
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
