/*
 * The asymmetry of complete and wait (Figures 33 and 34 of MPI-4.1's RMA
 * progress section, 11.7 and 11.8 in MPI-2.2): wait returns only once the
 * matching complete has happened, but complete does not wait for wait.
 *
 *   pscw_send_recv deadlock [bytes]   process 0: start; put; recv; complete
 *                                     process 1: post; wait; send
 *     Process 0 receives before it completes; process 1 sends only after
 *     its wait, which needs process 0's complete: deadlock, under weak and
 *     strong progress alike.
 *
 *   pscw_send_recv ok [bytes]         process 0: start; put; complete; send
 *                                     process 1: post; recv; wait
 *     Once process 1 has posted, start-put-complete at process 0 can go on
 *     (a blocked procedure must make progress, here the receive), and the
 *     send lets the receive return: no deadlock, also with a large put.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int deadlock = argc > 1 && !strcmp(argv[1], "deadlock");
	long bytes = argc > 2 ? atol(argv[2]) : 8;
	int rank, size, other, token = 7;
	unsigned char *mine, *out;
	MPI_Group world, peer;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "pscw_send_recv: run it on 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	other = 1 - rank;
	MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
	out = malloc((size_t)bytes);
	memset(out, 'x', (size_t)bytes);
	memset(mine, 0, (size_t)bytes);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &other, &peer);
	MPI_Barrier(MPI_COMM_WORLD);

	if (rank == 0) {
		MPI_Win_start(peer, 0, win);
		MPI_Put(out, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
		if (deadlock) {
			MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Win_complete(win);
		} else {
			MPI_Win_complete(win);
			MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		}
	} else {
		MPI_Win_post(peer, 0, win);
		if (deadlock) {
			MPI_Win_wait(win);
			MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		} else {
			MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Win_wait(win);
		}
		for (long i = 0; i < bytes; i++)
			if (mine[i] != 'x') {
				fprintf(stderr, "rank 1: byte %ld is wrong\n", i);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
	}
	printf("rank %d: done (%s, %ld bytes)\n", rank, deadlock ? "figure 33" :
	       "figure 34", bytes);
	MPI_Group_free(&peer);
	MPI_Group_free(&world);
	MPI_Win_free(&win);
	free(out);
	MPI_Finalize();
	return 0;
}
