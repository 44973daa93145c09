/*
 * Every rank passes 1 MiB to the next, 20 times around the ring, checking
 * every byte; prints the time per round on rank 0.
 */
#include "testutil.h"

int main(int argc, char **argv)
{
	size_t n = (size_t)1 << 20;
	int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 20;
	unsigned char *s, *r;
	double t0, t;

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	s = malloc(n);
	r = malloc(n);
	CHECK(s && r);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	t0 = MPI_Wtime();
	for (int round = 0; round < rounds; round++) {
		int to = (rank + 1) % size, from = (rank + size - 1) % size;

		tu_fill(s, 64, rank, round);
		CHECK_MPI(MPI_Sendrecv(s, (int)n, MPI_BYTE, to, round, r, (int)n, MPI_BYTE,
				       from, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(tu_verify(r, 64, from, round));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("%d ranks, %d rounds of 1 MiB: %.3f s (%.1f ms per round)\n", size,
		       rounds, t, t / rounds * 1e3);
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
