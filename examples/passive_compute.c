/*
 * The MPI standard's rationale on RMA progress (MPI 3.1, section 11.7.3),
 * both readings: rank 0 exposes a window
 * of ordinary (malloc) memory and then computes for a while without calling
 * MPI; rank 1 meanwhile locks rank 0's window, puts a value and unlocks.
 *
 * Whether rank 1's MPI_Win_unlock can return before rank 0 calls MPI again
 * is up to the implementation.  When the target's memory cannot be reached
 * without the target's help (as here, where nobody else can map it), the
 * put needs the target's MPI library to act:
 *   - weak progress: it acts only inside MPI calls, so the unlock returns
 *     only once rank 0 has finished computing;
 *   - strong progress: a progress thread acts at once, and the unlock
 *     returns while rank 0 still computes.
 * The program prints both times; compare
 *   shmrun -n 2 --progress=weak   build/examples/passive_compute
 *   shmrun -n 2 --progress=strong build/examples/passive_compute
 * An ordinary MPI program: it builds with any mpicc.
 *
 *   passive_compute [SECONDS]   how long rank 0 computes (default 2)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	double t0, unlocked = 0, computed = 0;
	int rank, size, *mem, value = 42;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "passive_compute needs 2 ranks\n");
		MPI_Finalize();
		return 1;
	}
	mem = calloc(1, sizeof(int));
	MPI_Win_create(mem, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (rank == 0) {
		volatile double x = 0;

		/* computing: no MPI call but the clock */
		while (MPI_Wtime() - t0 < secs)
			x += 1;
		computed = MPI_Wtime() - t0;
	} else if (rank == 1) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
		MPI_Win_unlock(0, win);
		unlocked = MPI_Wtime() - t0;
	}
	/* rank 1's time to rank 0, which prints both */
	if (rank == 1)
		MPI_Send(&unlocked, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_Recv(&unlocked, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0 computed outside MPI for %.3f s\n", computed);
		printf("rank 1's lock/put/unlock returned after %.3f s: %s\n", unlocked,
		       unlocked < computed ? "while rank 0 was computing (strong progress)" :
		       "once rank 0 was back in MPI (weak progress)");
	}
	MPI_Win_free(&win);
	if (rank == 0)
		printf("rank 0's window holds %d\n", *mem);
	free(mem);
	MPI_Finalize();
	return 0;
}
