/*
 * MPI_ERRORS_ABORT (MPI 4.1, section 9.3): a call that fails on an object
 * whose handler it is ends the processes as MPI_Abort on that object
 * would, which in shmpi is the whole job (README, "Errors"), with the
 * error class as the status.  Rank 0 makes one failing call, chosen by
 * the argument, while MPI_COMM_WORLD's handler is MPI_ERRORS_RETURN and
 * the other ranks wait in a barrier that rank 0 never reaches:
 *
 *   comm      MPI_Send to a rank out of range on a duplicate of
 *             MPI_COMM_WORLD (MPI_ERR_RANK)
 *   self      the same on MPI_COMM_SELF, whose group is rank 0 alone
 *   call      MPI_Comm_call_errhandler(MPI_ERR_OTHER) on the duplicate
 *   win       MPI_Win_fence with an assertion that is none (MPI_ERR_ASSERT)
 *   session   MPI_Session_get_nth_pset past the last process set
 *             (MPI_ERR_ARG) on a session made with MPI_ERRORS_ABORT
 *
 * Prints nothing when it works; returns 1 if rank 0 outlives its error.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "comm";
	MPI_Comm dup;
	MPI_Win win;
	int size, v = 0, len = 64;
	char name[64];

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT));
	CHECK_MPI(MPI_Win_create(&v, sizeof(v), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_ABORT));
	if (tu_rank == 0) {
		if (!strcmp(what, "comm")) {
			MPI_Send(&v, 1, MPI_INT, size + 5, 0, dup);
		} else if (!strcmp(what, "self")) {
			MPI_Send(&v, 1, MPI_INT, 3, 0, MPI_COMM_SELF);
		} else if (!strcmp(what, "call")) {
			MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
		} else if (!strcmp(what, "win")) {
			MPI_Win_fence(0x5, win);
		} else {
			MPI_Session s;

			CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ABORT, &s));
			MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 99, &len, name);
		}
		fprintf(stderr, "rank 0: outlived its error under MPI_ERRORS_ABORT\n");
		return 1;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
