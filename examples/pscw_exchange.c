/*
 * The symmetric exchange of the MPI standard's RMA progress section
 * (Figure 32 in MPI-4.1, 11.6 in MPI-2.2): each of two processes exposes
 * its window to the other and puts into the other's window.
 *
 *   pscw_exchange [order] [bytes]
 *
 * order "post-start" (the standard's): post; start; put; complete; wait;
 *   then read the own window.  Post is local, so both starts find their
 *   post and the exchange completes, whatever the size and under weak or
 *   strong progress.
 * order "start-post": start before post at both processes.  Start may wait
 *   for the matching post (shmpi's start does), so each waits for the
 *   other's post, which comes after its start: deadlock, as the standard
 *   says it may.
 * order "wait-complete": wait before complete.  Wait returns only when the
 *   other's complete arrives, which comes after its own wait: deadlock, as
 *   the standard says it will.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *order = argc > 1 ? argv[1] : "post-start";
	long bytes = argc > 2 ? atol(argv[2]) : 8;
	int rank, size, other;
	unsigned char *mine, *out;
	MPI_Group world, peer;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "pscw_exchange: run it on 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	other = 1 - rank;
	MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
	out = malloc((size_t)bytes);
	memset(out, 'a' + rank, (size_t)bytes);
	memset(mine, 0, (size_t)bytes);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &other, &peer);
	MPI_Barrier(MPI_COMM_WORLD);

	if (!strcmp(order, "start-post")) {
		MPI_Win_start(peer, 0, win);
		MPI_Win_post(peer, 0, win);
	} else {
		MPI_Win_post(peer, 0, win);
		MPI_Win_start(peer, 0, win);
	}
	MPI_Put(out, (int)bytes, MPI_BYTE, other, 0, (int)bytes, MPI_BYTE, win);
	if (!strcmp(order, "wait-complete")) {
		MPI_Win_wait(win);
		MPI_Win_complete(win);
	} else {
		MPI_Win_complete(win);
		MPI_Win_wait(win);
	}
	/* the load of the figure: the own window holds the other's data */
	for (long i = 0; i < bytes; i++)
		if (mine[i] != 'a' + other) {
			fprintf(stderr, "rank %d: byte %ld is wrong\n", rank, i);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	printf("rank %d: %s exchange of %ld bytes completed\n", rank, order, bytes);
	MPI_Group_free(&peer);
	MPI_Group_free(&world);
	MPI_Win_free(&win);
	free(out);
	MPI_Finalize();
	return 0;
}
