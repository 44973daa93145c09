/*
 * bench_barrier: latency of MPI_Barrier on MPI_COMM_WORLD, any number of
 * ranks (more ranks than cores is the interesting case: waiting ranks must
 * leave the cores to the ones that still have to arrive).
 *
 *   bench_barrier [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * Every rank times the same number of back-to-back barriers; the slowest
 * rank's time per barrier is reported, in nanoseconds.
 */
#include "bench.h"

static double barrier_kernel(void *arg, long n)
{
	const bench_t *b = arg;
	double t0 = MPI_Wtime();

	for (long i = 0; i < n; i++)
		MPI_Barrier(b->comm);
	return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
	bench_t b;
	long idx;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, 0, NULL, 0, NULL) < 0) {
		MPI_Finalize();
		return 2;
	}
	idx = bench_point(&b);
	if (bench_want(&b, idx)) {
		bench_rec_t r = {
			.bench = "barrier", .op = "barrier", .type = "-", .sync = "-", .flavor = "-",
			.unit = "ns", .status = "listed", .note = "",
		};
		bench_stat_t st;

		if (!b.list) {
			bench_measure(&b, barrier_kernel, &b, &st);
			bench_rec_latency(&r, &st, 1.0);
		}
		bench_emit(&b, idx, &r);
	}
	MPI_Finalize();
	return 0;
}
