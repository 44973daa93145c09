/*
 * init_finalize: MPI_Init then MPI_Finalize, nothing else.  The driver
 * times whole jobs of it from outside (launch + init + finalize + exit).
 *
 *   init_finalize              init, finalize
 *   init_finalize --hold PATH  init, barrier; rank 0 creates PATH.ready;
 *                              every rank waits, outside MPI, until
 *                              PATH.go exists; barrier, finalize
 *
 * --hold keeps a fully initialized job still so that the driver can
 * measure the shared memory it holds.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HOLD_POLL_NS 5000000L   /* 5 ms between looks at PATH.go */
#define HOLD_MAX_S 600          /* give up holding after this long */

static int hold(const char *path, int rank)
{
	char ready[4096], go[4096];
	struct timespec nap = { 0, HOLD_POLL_NS };
	long waited_ns = 0;

	if (snprintf(ready, sizeof(ready), "%s.ready", path) >= (int)sizeof(ready) ||
	    snprintf(go, sizeof(go), "%s.go", path) >= (int)sizeof(go))
		return -1;
	if (rank == 0) {
		FILE *f = fopen(ready, "w");

		if (!f)
			return -1;
		fclose(f);
	}
	while (access(go, F_OK) != 0 && waited_ns < HOLD_MAX_S * 1000000000L) {
		nanosleep(&nap, NULL);
		waited_ns += HOLD_POLL_NS;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rank, rc = 0;

	MPI_Init(&argc, &argv);
	if (argc == 3 && strcmp(argv[1], "--hold") == 0) {
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		MPI_Barrier(MPI_COMM_WORLD);
		rc = hold(argv[2], rank) < 0;
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (argc != 1) {
		fprintf(stderr, "usage: init_finalize [--hold PATH]\n");
		rc = 2;
	}
	MPI_Finalize();
	return rc;
}
