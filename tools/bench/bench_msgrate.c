/*
 * bench_msgrate: all-pairs message rate of MPI_Put + MPI_Win_flush, any
 * number of ranks (the case of interest: 8 ranks on 2 cores).
 *
 *   bench_msgrate [--flavors F,..] [--sizes 8]
 *                 [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * Every rank opens one lock_all epoch, then in each iteration puts `size`
 * bytes into every other rank's window (at its own slot, so no two origins
 * write the same bytes), each put followed by MPI_Win_flush to that rank.
 * The rate is all ranks' puts divided by the slowest rank's time, in
 * millions of put+flush per second.
 */
#include "bench.h"

typedef struct rate {
	const bench_t *b;
	const bench_win_t *w;
	const char *src;
	long size;
} rate_t;

static double rate_kernel(void *arg, long n)
{
	const rate_t *k = arg;
	int me = k->b->rank, np = k->b->size, count = (int)k->size;
	MPI_Win win = k->w->win;
	double t0, t;

	MPI_Win_lock_all(0, win);
	t0 = MPI_Wtime();
	for (long i = 0; i < n; i++) {
		for (int p = 1; p < np; p++) {
			int target = (me + p) % np;

			MPI_Put(k->src, count, MPI_CHAR, target, k->w->disp[target] + me * k->size,
				count, MPI_CHAR, win);
			MPI_Win_flush(target, win);
		}
	}
	t = MPI_Wtime() - t0;
	MPI_Win_unlock_all(win);
	return t;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "flavors=allocate", "sizes=8", NULL };
	bench_t b;
	long maxsize;
	char *src = NULL;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_FLAVORS | BENCH_OPT_SIZES, defaults, 0,
		       " [--flavors F,..] [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (b.size < 2) {
		if (b.rank == 0)
			fprintf(stderr, "%s: needs at least 2 ranks\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 1);
	if (bench_mem_alloc(maxsize, 0, &src) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(src, 1, (size_t)maxsize);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx, last = first + b.sizes.n - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, maxsize * b.size, first, last, msg,
					  sizeof(msg));
		for (int s = 0; s < b.sizes.n; s++) {
			long idx = bench_point(&b), size = b.sizes.v[s];
			rate_t k = { .b = &b, .w = &w, .src = src, .size = size };
			bench_rec_t r = {
				.bench = "msgrate", .op = "put", .type = "char", .sync = "flush",
				.flavor = bench_flavor_names[flavor], .bytes = size,
				.unit = "Mmsg/s", .status = "unsupported", .note = msg,
			};
			bench_stat_t st;
			double msgs = (double)b.size * (b.size - 1);

			if (!bench_want(&b, idx))
				continue;
			if (have) {
				bench_measure(&b, rate_kernel, &k, &st);
				r.median = msgs / bench_stat_median(&st) / 1e6;
				r.best = msgs / bench_stat_min(&st) / 1e6;
				r.iters = st.iters;
				r.status = "ok";
				r.note = "";
			}
			bench_emit(&b, idx, &r);
		}
		if (have)
			bench_win_close(&b, &w, last);
	}
	free(src);
	MPI_Finalize();
	return 0;
}
