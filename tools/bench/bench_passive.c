/*
 * bench_passive: is passive-target communication truly passive?  Two ranks.
 *
 *   bench_passive [--flavors F,..] [--sizes 8]
 *                 [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * Rank 0 measures MPI_Put + MPI_Win_flush latency to rank 1 inside one
 * lock(shared) epoch three times: while rank 1 waits in MPI_Barrier (where
 * any MPI library makes progress), while rank 1 computes outside MPI, and
 * while it sleeps outside MPI, each time for COMPUTE_FACTOR times longer
 * than rank 0 needs undisturbed.  A library that needs the target's help
 * stalls until the target is back in MPI, so its latency grows at least
 * COMPUTE_FACTOR-fold; on shared memory the ratio compute/barrier should be
 * about 1.0.  The sleeping case separates the library from the hardware:
 * a busy core next door can slow the origin by itself (on this VM's vCPUs
 * it does), an idle one cannot.  Five records per point: passive_barrier,
 * passive_compute, passive_sleep (ns), passive_ratio = compute/barrier and
 * passive_ratio_sleep = sleep/barrier (x).
 */
#include "bench.h"

#define COMPUTE_FACTOR 4.0     /* the target stays away this many times the origin's time ... */
#define COMPUTE_MARGIN_S 0.005 /* ... plus this many seconds */
#define NREC 5                 /* records per point */

typedef struct passive {
	const bench_t *b;
	const bench_win_t *w;
	const char *src;
	long size;
	double away_s;    /* how long the target stays outside MPI, seconds */
	int sleep;        /* sleeps instead of computing */
} passive_t;

/* work outside MPI until `seconds` have passed; the result keeps it from being optimized out */
static double compute(double seconds)
{
	double end = bench_now() + seconds, x = 1.0;

	do {
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	} while (bench_now() < end);
	return x;
}

static volatile double compute_sink; /* not synchronization: keeps compute() alive */

static void issue_put(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Put(op->src, op->count, MPI_CHAR, target, disp, op->count, MPI_CHAR, win);
}

/* origin: put+flush; target: compute or sleep outside MPI, then MPI_Barrier */
static double compute_kernel(void *arg, long n)
{
	const passive_t *k = arg;
	MPI_Win win = k->w->win;
	int count = (int)k->size;
	double t0, t = 0;

	if (k->b->rank == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			MPI_Put(k->src, count, MPI_CHAR, 1, k->w->disp[1], count, MPI_CHAR, win);
			MPI_Win_flush(1, win);
		}
		t = MPI_Wtime() - t0;
		MPI_Win_unlock(1, win);
	} else if (k->sleep) {
		struct timespec ts = {
			.tv_sec = (time_t)k->away_s,
			.tv_nsec = (long)((k->away_s - (double)(time_t)k->away_s) * 1e9),
		};

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	} else {
		compute_sink = compute(k->away_s);
	}
	MPI_Barrier(k->b->comm);
	return t;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "flavors=allocate", "sizes=8", NULL };
	bench_t b;
	long maxsize;
	char *src = NULL;
	MPI_Group peer;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_FLAVORS | BENCH_OPT_SIZES, defaults, 2,
		       " [--flavors F,..] [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 8);
	if (bench_mem_alloc(maxsize, 0, &src) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(src, 1, (size_t)maxsize);
	bench_peer_group(&b, &peer);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx, last = first + (long)NREC * b.sizes.n - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, maxsize, first, last, msg,
					  sizeof(msg));
		for (int s = 0; s < b.sizes.n; s++) {
			long size = b.sizes.v[s];
			long idx[NREC];
			bench_op_t op = {
				.issue = issue_put, .type = MPI_CHAR, .count = (int)size, .src = src,
			};
			bench_lat_t lat = {
				.b = &b, .op = &op, .w = &w, .sync = BENCH_SYNC_FLUSH, .peer = peer,
			};
			passive_t pk = { .b = &b, .w = &w, .src = src, .size = size };
			static const char *const names[NREC] = {
				"passive_barrier", "passive_compute", "passive_sleep",
				"passive_ratio", "passive_ratio_sleep",
			};
			bench_rec_t r[NREC];
			bench_stat_t st[3];

			for (int i = 0; i < NREC; i++) {
				idx[i] = bench_point(&b);
				r[i] = (bench_rec_t){
					.bench = names[i], .op = "put", .type = "char", .sync = "flush",
					.flavor = bench_flavor_names[flavor], .bytes = size,
					.unit = i >= 3 ? "x" : "ns", .status = "unsupported",
					.note = msg,
				};
			}
			/* the records of a point are measured together */
			if (!bench_want(&b, idx[0]))
				continue;
			if (have) {
				bench_measure(&b, bench_lat_kernel, &lat, &st[0]);
				pk.away_s = COMPUTE_FACTOR * bench_stat_median(&st[0]) *
					    (double)st[0].iters + COMPUTE_MARGIN_S;
				for (int m = 1; m <= 2; m++) {
					pk.sleep = m == 2;
					st[m].iters = st[0].iters;
					st[m].nsamples = b.samples;
					bench_run(&b, compute_kernel, &pk, st[m].iters); /* warm-up */
					for (int i = 0; i < b.samples; i++)
						st[m].sample[i] = bench_run(&b, compute_kernel, &pk,
									    st[m].iters) /
								  (double)st[m].iters;
				}
				for (int m = 0; m < 3; m++)
					bench_rec_latency(&r[m], &st[m], 1.0);
				for (int m = 3; m < NREC; m++) {
					r[m].median = r[m - 2].median / r[0].median;
					r[m].best = r[m - 2].best / r[0].best;
					r[m].iters = st[0].iters;
					r[m].status = "ok";
					r[m].note = "";
				}
			}
			for (int i = 0; i < NREC; i++)
				bench_emit(&b, idx[i], &r[i]);
		}
		if (have)
			bench_win_close(&b, &w, last);
	}
	MPI_Group_free(&peer);
	free(src);
	MPI_Finalize();
	return 0;
}
