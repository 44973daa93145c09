/*
 * hello: every rank reports who it is and where it runs.
 *
 *   shmcc -o hello examples/hello.c && shmrun -n 8 ./hello
 *
 * An ordinary MPI program: it builds with any MPI's mpicc as well.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	char host[MPI_MAX_PROCESSOR_NAME];
	int rank, size, len, version, subversion;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(host, &len);
	MPI_Get_version(&version, &subversion);
	printf("rank %d of %d on %s (MPI %d.%d)\n", rank, size, host, version,
	       subversion);
	MPI_Finalize();
	return 0;
}
