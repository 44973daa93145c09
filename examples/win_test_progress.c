/*
 * MPI_Win_test is a test procedure (MPI-4.1 section 2.9): called again and
 * again, it must make progress.  Rank 1 buffers a large message for rank 0,
 * posts an exposure epoch and then loops on MPI_Win_test.  Rank 0 must
 * first receive the message -- whose data only rank 1's MPI library can
 * move -- before it starts its access epoch and completes it.  The program
 * completes under weak progress too, because every MPI_Win_test call runs
 * rank 1's progress engine.
 *
 *   shmrun -n 2 ./win_test_progress [MiB]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int mib = argc > 1 ? atoi(argv[1]) : 16;
	int count = mib << 20, rank, size, other, flag = 0, bufsize, value = 5;
	long tests = 0;
	MPI_Group world, peer;
	char *message, *buffer;
	void *detached;
	MPI_Win win;
	int *mine;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "win_test_progress: run it on 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	other = 1 - rank;
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
			 &win);
	*mine = 0;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &other, &peer);
	message = calloc((size_t)count, 1);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1) {
		bufsize = count + MPI_BSEND_OVERHEAD;
		buffer = malloc((size_t)bufsize);
		MPI_Buffer_attach(buffer, bufsize);
		MPI_Bsend(message, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
		MPI_Win_post(peer, 0, win);
		while (!flag) {
			MPI_Win_test(win, &flag);
			tests++;
		}
		MPI_Buffer_detach(&detached, &bufsize);
		free(buffer);
		printf("rank 1: exposure epoch over after %ld calls of MPI_Win_test; "
		       "window holds %d\n", tests, *mine);
	} else {
		MPI_Recv(message, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Win_start(peer, 0, win);
		MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
		MPI_Win_complete(win);
		printf("rank 0: received %d MiB, then put into rank 1's window\n", mib);
	}
	MPI_Group_free(&peer);
	MPI_Group_free(&world);
	MPI_Win_free(&win);
	free(message);
	MPI_Finalize();
	return 0;
}
