/*
 * An MPI program for shmrun's tests: how a rank leaves the job.
 *   run_mpi ok                 every rank: init, print "rank R of N", finalize
 *   run_mpi no-finalize R      rank R exits 0 between MPI_Init and MPI_Finalize
 *   run_mpi abort R CODE       rank R calls MPI_Abort(MPI_COMM_WORLD, CODE)
 * In the last two, the other ranks sleep 60 s in MPI: shmrun must end them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	int who = argc > 2 ? atoi(argv[2]) : -1;
	int code = argc > 3 ? atoi(argv[3]) : 1;
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (strcmp(mode, "ok") == 0) {
		printf("rank %d of %d\n", rank, size);
		MPI_Finalize();
		return 0;
	}
	if (rank == who) {
		printf("rank %d leaves\n", rank);
		fflush(stdout);
		if (strcmp(mode, "abort") == 0)
			MPI_Abort(MPI_COMM_WORLD, code);
		exit(0);
	}
	sleep(60);
	MPI_Finalize();
	return 0;
}
