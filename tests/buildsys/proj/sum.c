/*
 * The test project of tests/buildsys: every rank adds rank + 1 to a counter in
 * rank 0's window (MPI_Accumulate between two fences) and to an
 * MPI_Allreduce; rank 0 prints both sums.  A correct MPI program: it builds
 * and runs the same with MPICH and Open MPI.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, mine, total = 0, *counter;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
	*counter = 0;
	MPI_Win_fence(0, win);
	mine = rank + 1;
	MPI_Accumulate(&mine, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
	MPI_Win_fence(0, win);
	MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("C: %d ranks, accumulate %d, allreduce %d\n", size, *counter, total);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
