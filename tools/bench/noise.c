/*
 * noise: what a job whose ranks sleep and wake often costs a computation
 * beside it (tools/bench/noise.sh runs the two side by side).
 *
 *   noise victim SECONDS   one rank: rounds of fixed integer work (about a
 *                          millisecond each) for SECONDS; prints the median
 *                          and the best round in nanoseconds
 *   noise ring SECONDS     two or more ranks: a barrier, then a
 *                          post/start/put/complete/wait exchange between
 *                          neighbours, in turn, for SECONDS; rank 0 prints
 *                          the mean time of each in nanoseconds
 *
 * The victim is an MPI program too, so that under a library that
 * registers its processes for membarrier(2) it is interrupted by the
 * ring's calls like any rank of another job.  An ordinary MPI program: it
 * builds with any mpicc.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_STEPS 400000	/* about a millisecond of dependent steps */
#define ROUNDS_MAX 100000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One round: a chain of dependent multiply-adds the compiler cannot drop. */
static uint64_t work(uint64_t x)
{
	for (int i = 0; i < ROUND_STEPS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static int victim(double seconds)
{
	static double t[ROUNDS_MAX];
	double start = MPI_Wtime(), end = start + seconds;
	uint64_t x = 1;
	int n = 0;

	while (n < ROUNDS_MAX && MPI_Wtime() < end) {
		double t0 = MPI_Wtime();

		x = work(x);
		t[n++] = MPI_Wtime() - t0;
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp_double);
	printf("victim rounds %d median_ns %.0f best_ns %.0f check %llu\n", n,
	       t[n / 2] * 1e9, t[0] * 1e9, (unsigned long long)(x & 1));
	return 0;
}

static int ring(double seconds)
{
	int rank, size, next, prev, flag = 0, *buf;
	double barrier_s = 0, pscw_s = 0, end;
	long rounds = 0;
	MPI_Group world, gnext, gprev;
	MPI_Win win;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		fprintf(stderr, "noise ring: needs two ranks or more\n");
		return 2;
	}
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &next, &gnext);
	MPI_Group_incl(world, 1, &prev, &gprev);
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
	end = MPI_Wtime() + seconds;
	MPI_Barrier(MPI_COMM_WORLD);
	for (;;) {
		double t0 = MPI_Wtime(), t1;

		MPI_Barrier(MPI_COMM_WORLD);
		t1 = MPI_Wtime();
		MPI_Win_post(gprev, 0, win);
		MPI_Win_start(gnext, 0, win);
		MPI_Put(&rank, 1, MPI_INT, next, 0, 1, MPI_INT, win);
		MPI_Win_complete(win);
		MPI_Win_wait(win);
		pscw_s += MPI_Wtime() - t1;
		barrier_s += t1 - t0;
		rounds++;
		/* everybody stops after the same round */
		flag = rank == 0 && MPI_Wtime() > end;
		MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (flag)
			break;
	}
	if (rank == 0)
		printf("ring ranks %d rounds %ld barrier_ns %.0f pscw_ns %.0f\n", size, rounds,
		       barrier_s / (double)rounds * 1e9, pscw_s / (double)rounds * 1e9);
	MPI_Win_free(&win);
	MPI_Group_free(&gnext);
	MPI_Group_free(&gprev);
	MPI_Group_free(&world);
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 0;
	int rc = 2;

	MPI_Init(&argc, &argv);
	if (argc > 2 && seconds > 0 && !strcmp(argv[1], "victim"))
		rc = victim(seconds);
	else if (argc > 2 && seconds > 0 && !strcmp(argv[1], "ring"))
		rc = ring(seconds);
	else
		fprintf(stderr, "usage: noise victim|ring SECONDS\n");
	MPI_Finalize();
	return rc;
}
