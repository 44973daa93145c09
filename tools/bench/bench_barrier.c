/*
 * bench_barrier: latency of MPI_Barrier, and of MPI_Allreduce (MPI_SUM of
 * doubles), on MPI_COMM_WORLD, any number of ranks (more ranks than cores
 * is the interesting case: waiting ranks must leave the cores to the ones
 * that still have to arrive).
 *
 *   bench_barrier [--ops barrier,allreduce] [--sizes LIST] [--csv|--json] [--list]
 *                 [--min-time MS] [--samples N] [--skip N]
 *
 * Every rank times the same number of back-to-back calls; the slowest
 * rank's time per call is reported, in nanoseconds.  --sizes: the bytes
 * each rank contributes to an allreduce (a whole number of doubles); the
 * barrier has none.
 */
#include "bench.h"

static const char *const ops_names[] = { "barrier", "allreduce" };
enum { OP_BARRIER, OP_ALLREDUCE, OP_COUNT };

struct coll_arg {
	const bench_t *b;
	int count;		/* doubles of an allreduce */
	double *in, *out;
};

static double barrier_kernel(void *arg, long n)
{
	const struct coll_arg *a = arg;
	double t0 = MPI_Wtime();

	for (long i = 0; i < n; i++)
		MPI_Barrier(a->b->comm);
	return MPI_Wtime() - t0;
}

static double allreduce_kernel(void *arg, long n)
{
	const struct coll_arg *a = arg;
	double t0 = MPI_Wtime();

	for (long i = 0; i < n; i++)
		MPI_Allreduce(a->in, a->out, a->count, MPI_DOUBLE, MPI_SUM, a->b->comm);
	return MPI_Wtime() - t0;
}

/* One point: op at `bytes` per rank (0 for the barrier). */
static void coll_point(bench_t *b, int op, long bytes, double *in, double *out)
{
	long idx = bench_point(b);
	struct coll_arg a = { b, (int)(bytes / (long)sizeof(double)), in, out };
	bench_rec_t r = {
		.bench = ops_names[op], .op = ops_names[op],
		.type = op == OP_BARRIER ? "-" : "double", .sync = "-", .flavor = "-",
		.bytes = op == OP_BARRIER ? 0 : bytes, .unit = "ns", .status = "listed",
		.note = "",
	};
	bench_stat_t st;

	if (!bench_want(b, idx))
		return;
	if (!b->list) {
		bench_measure(b, op == OP_BARRIER ? barrier_kernel : allreduce_kernel, &a, &st);
		bench_rec_latency(&r, &st, 1.0);
	}
	bench_emit(b, idx, &r);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "ops=barrier", "sizes=1M", NULL };
	bench_list_t ops;
	double *in = NULL, *out = NULL;
	long maxsize;
	bench_t b;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_SIZES, defaults, 0,
		       " [--ops barrier,allreduce] [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes barrier,allreduce\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 8);
	in = malloc((size_t)maxsize);
	out = malloc((size_t)maxsize);
	if (!in || !out) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	for (long i = 0; i < maxsize / (long)sizeof(double); i++)
		in[i] = (double)(i + b.rank);
	for (int o = 0; o < ops.n; o++) {
		if (ops.v[o] == OP_BARRIER) {
			coll_point(&b, OP_BARRIER, 0, in, out);
			continue;
		}
		for (int s = 0; s < b.sizes.n; s++)
			coll_point(&b, OP_ALLREDUCE, b.sizes.v[s], in, out);
	}
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
