/*
 * Ranks that compute outside MPI while others wait for them: what shmrun's
 * watchdog must tell apart.
 *   watch_compute barrier MS   rank 0 computes MS ms, the others wait in
 *                              MPI_Barrier (shared memory: no engine needed)
 *   watch_compute recv MS      rank 0 computes MS ms, then sends; the others
 *                              wait in MPI_Recv for a call rank 0 has yet
 *                              to make
 *   watch_compute isend MS     rank 0 starts a large MPI_Isend to rank 1,
 *                              computes MS ms, then waits: rank 1's receive
 *                              needs rank 0's engine (a weak-progress stall
 *                              while rank 0 computes); ranks 2 and up
 *                              compute MS + 500 ms
 *   watch_compute waitall MS   the same, with rank 1 receiving through
 *                              MPI_Irecv and MPI_Waitall
 * Each completes; rank 0 prints "done" at the end.
 */
#include "testutil.h"

#define BIG ((size_t)16 << 20)

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "barrier";
	int ms = argc > 2 ? atoi(argv[2]) : 2000;
	int size, token = 0;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Barrier(MPI_COMM_WORLD);
	if (!strcmp(mode, "barrier")) {
		if (tu_rank == 0)
			tu_sleep_ms(ms);	/* "computing" */
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	} else if (!strcmp(mode, "recv")) {
		if (tu_rank == 0) {
			tu_sleep_ms(ms);
			token = 7;
			for (int r = 1; r < size; r++)
				CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, 0, MPI_COMM_WORLD));
		} else {
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK(token == 7);
		}
	} else if (!strcmp(mode, "isend") || !strcmp(mode, "waitall")) {
		unsigned char *b = malloc(BIG);
		MPI_Request req;

		CHECK(b != NULL && size >= 2);
		if (tu_rank == 0) {
			tu_fill(b, BIG, 0, 1);
			CHECK_MPI(MPI_Isend(b, (int)BIG, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &req));
			tu_sleep_ms(ms);
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		} else if (tu_rank == 1 && !strcmp(mode, "waitall")) {
			CHECK_MPI(MPI_Irecv(b, (int)BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req));
			CHECK_MPI(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE));
			CHECK(tu_verify(b, BIG, 0, 1));
		} else if (tu_rank == 1) {
			CHECK_MPI(MPI_Recv(b, (int)BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK(tu_verify(b, BIG, 0, 1));
		} else {
			tu_sleep_ms(ms + 500);
		}
		free(b);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	} else {
		CHECK(!"mode is barrier, recv or isend");
	}
	if (tu_rank == 0)
		printf("done\n");
	MPI_Finalize();
	return 0;
}
