/*
 * A program that races, for the adversarial mode to show: rank 1 puts into
 * rank 0's window inside a lock_all epoch and, without a flush, tells rank
 * 0 by a message; rank 0 then reads its window.  The standard does not
 * promise that the put has landed (only the flush or unlock would), so the
 * read may see either value.  Rank 0 prints what the racing read saw
 * ("racy read: new" or "racy read: old") and checks that after the epoch
 * (unlock_all, then a barrier) the value is there.
 *   adv_race start   rank 0 calls MPI_Win_start towards rank 1, then sends
 *                    it a message, which rank 1 awaits before it posts:
 *                    this completes only if start returns before the post
 *                    (the standard allows both); rank 0 prints
 *                    "start returned before the post"
 */
#include "testutil.h"

int main(int argc, char **argv)
{
	int *base, v = 7, token = 0, size;
	MPI_Win win;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size == 2);
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	if (argc > 1 && !strcmp(argv[1], "start")) {
		MPI_Group world, other;
		int peer = 1 - tu_rank;

		CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
		CHECK_MPI(MPI_Group_incl(world, 1, &peer, &other));
		if (tu_rank == 0) {
			CHECK_MPI(MPI_Win_start(other, 0, win));
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
			printf("start returned before the post\n");
		} else {
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Win_post(other, 0, win));
			CHECK_MPI(MPI_Win_wait(win));
			CHECK(*base == 7);
		}
		MPI_Group_free(&other);
		MPI_Group_free(&world);
		CHECK_MPI(MPI_Win_free(&win));
		MPI_Finalize();
		return 0;
	}
	*base = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (tu_rank == 1) {
		CHECK_MPI(MPI_Win_lock_all(0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Win_unlock_all(win));
	} else {
		int seen;

		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		seen = __atomic_load_n(base, __ATOMIC_ACQUIRE);	/* the race */
		printf("racy read: %s\n", seen == 7 ? "new" : "old");
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (tu_rank == 0)
		CHECK(__atomic_load_n(base, __ATOMIC_ACQUIRE) == 7);
	CHECK_MPI(MPI_Win_free(&win));
	MPI_Finalize();
	return 0;
}
