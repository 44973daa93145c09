/*
 * bench_scale: passive-target latency as ranks are added, any number of
 * ranks from two (more ranks than CPUs is a case of interest).
 *
 *   bench_scale [--ops lock_excl,lock_shared,lock_all,acc_one,acc_ring] [--flavors F,..]
 *               [--sizes 8]
 *               [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * lock_excl, lock_shared: every rank r at once runs MPI_Win_lock (exclusive,
 * shared) + MPI_Put of `size` bytes of MPI_CHAR + MPI_Win_unlock on rank
 * (r + 1) mod n.  Each target has a single origin, so no lock ever waits
 * for another: a library whose locks concern their target alone runs as fast
 * at 64 ranks as at 2.
 *
 * lock_all: rank 0 runs MPI_Win_lock_all + MPI_Put of `size` bytes to rank
 * 1 + MPI_Win_unlock_all while every other rank waits in MPI_Barrier: what
 * a lock_all costs as the window grows (a library that locks every target
 * pays per rank).
 *
 * acc_one: inside one MPI_Win_lock_all epoch, rank 0 runs MPI_Accumulate
 * (MPI_SUM on `size` bytes of MPI_DOUBLE) + MPI_Win_flush on rank 1, the
 * OSU pattern, while every other rank waits in MPI_Barrier.  acc_ring: the
 * same, every rank r at once to rank (r + 1) mod n.  Sizes that are not a
 * multiple of a double make no acc point.
 *
 * One record per point, in nanoseconds per operation.  lock_all, acc_one:
 * rank 0's latency.  The ring patterns time every rank at once, from the first
 * rank's start to the last rank's end (bench_now, one clock for the whole
 * node), and report that span per iteration times min(ranks, online CPUs)
 * / ranks: the CPU time one operation costs.  With no more ranks than CPUs
 * it is each rank's latency; with more, it stays flat as ranks are added
 * as long as the operations do not slow each other down.
 */
#include "bench.h"

#include <unistd.h>

static const char *const ops_names[] = {
	"lock_excl", "lock_shared", "lock_all", "acc_one", "acc_ring",
};
enum { OP_LOCK_EXCL, OP_LOCK_SHARED, OP_LOCK_ALL, OP_ACC_ONE, OP_ACC_RING, OP_COUNT };

typedef struct scale {
	const bench_t *b;
	const bench_win_t *w;
	const char *src;
	int count;     /* elements per operation: chars (put) or doubles (acc) */
	int lock_type; /* MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED (lock patterns) */
} scale_t;

/* this rank's target in the ring patterns */
static int ring_target(const bench_t *b)
{
	return (b->rank + 1) % b->size;
}

/* from the first rank's start to this rank's end: the harness's maximum is the whole run */
static double ring_span(const bench_t *b, double start, double end)
{
	double first = start;

	MPI_Allreduce(&start, &first, 1, MPI_DOUBLE, MPI_MIN, b->comm);
	return end - first;
}

static double lock_ring_kernel(void *arg, long n)
{
	const scale_t *k = arg;
	int target = ring_target(k->b);
	MPI_Aint disp = k->w->disp[target];
	MPI_Win win = k->w->win;
	double start, end;

	start = bench_now();
	for (long i = 0; i < n; i++) {
		MPI_Win_lock(k->lock_type, target, 0, win);
		MPI_Put(k->src, k->count, MPI_CHAR, target, disp, k->count, MPI_CHAR, win);
		MPI_Win_unlock(target, win);
	}
	end = bench_now();
	return ring_span(k->b, start, end);
}

/* `n` accumulates of k->count doubles, each followed by a flush, inside an open epoch */
static void acc_flush_loop(const scale_t *k, int target, long n)
{
	MPI_Aint disp = k->w->disp[target];
	MPI_Win win = k->w->win;

	for (long i = 0; i < n; i++) {
		MPI_Accumulate(k->src, k->count, MPI_DOUBLE, target, disp, k->count, MPI_DOUBLE,
			       MPI_SUM, win);
		MPI_Win_flush(target, win);
	}
}

static double lock_all_kernel(void *arg, long n)
{
	const scale_t *k = arg;
	double t0, t = 0;

	if (k->b->rank == 0) {
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			MPI_Win_lock_all(0, k->w->win);
			MPI_Put(k->src, k->count, MPI_CHAR, 1, 0, k->count, MPI_CHAR, k->w->win);
			MPI_Win_unlock_all(k->w->win);
		}
		t = MPI_Wtime() - t0;
	}
	MPI_Barrier(k->b->comm);
	return t;
}

static double acc_one_kernel(void *arg, long n)
{
	const scale_t *k = arg;
	double t0, t = 0;

	if (k->b->rank == 0) {
		MPI_Win_lock_all(0, k->w->win);
		t0 = MPI_Wtime();
		acc_flush_loop(k, 1, n);
		t = MPI_Wtime() - t0;
		MPI_Win_unlock_all(k->w->win);
	}
	MPI_Barrier(k->b->comm);
	return t;
}

static double acc_ring_kernel(void *arg, long n)
{
	const scale_t *k = arg;
	double start, end;

	MPI_Win_lock_all(0, k->w->win);
	start = bench_now();
	acc_flush_loop(k, ring_target(k->b), n);
	end = bench_now();
	MPI_Win_unlock_all(k->w->win);
	return ring_span(k->b, start, end);
}

static bench_kernel_fn *const kernels[OP_COUNT] = {
	lock_ring_kernel, lock_ring_kernel, lock_all_kernel, acc_one_kernel, acc_ring_kernel,
};

/* does (op, size) make a point?  an accumulate moves whole doubles */
static int point_valid(int op, long size)
{
	if (op == OP_ACC_ONE || op == OP_ACC_RING)
		return size >= (long)sizeof(double) && size % (long)sizeof(double) == 0;
	return 1;
}

/* operations one timed iteration stands for: ranks / CPUs they share in the ring patterns */
static double ops_per_iter(const bench_t *b, int op)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (op == OP_ACC_ONE || op == OP_LOCK_ALL)
		return 1.0;
	if (cpus < 1 || cpus > b->size)
		cpus = b->size;
	return (double)b->size / (double)cpus;
}

/* the fields of a point's record that do not depend on the measurement */
static bench_rec_t point_rec(int op, int flavor, long size, const char *note)
{
	int lock = op == OP_LOCK_EXCL || op == OP_LOCK_SHARED || op == OP_LOCK_ALL;
	static const char *const bench_names[OP_COUNT] = {
		"lock_ring", "lock_ring", "lock_all_one", "acc_one", "acc_ring",
	};
	static const char *const syncs[OP_COUNT] = {
		"lock_excl", "lock_shared", "lock_all", "flush", "flush",
	};

	return (bench_rec_t){
		.bench = bench_names[op], .op = lock ? "put" : "acc",
		.type = lock ? "char" : "double",
		.sync = syncs[op],
		.flavor = bench_flavor_names[flavor], .bytes = size, .unit = "ns",
		.status = "unsupported", .note = note,
	};
}

/* ones of MPI_DOUBLE, as many as fit in `bytes` */
static void fill_ones(char *buf, long bytes)
{
	for (long i = 0; i < bytes / (long)sizeof(double); i++)
		((double *)buf)[i] = 1.0;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"ops=lock_excl,lock_shared,lock_all,acc_one,acc_ring", "flavors=allocate",
		"sizes=8", NULL,
	};
	bench_list_t ops;
	bench_t b;
	long maxsize, per_flavor = 0;
	char *src = NULL;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_FLAVORS | BENCH_OPT_SIZES,
		       defaults, 0,
		       " [--ops lock_excl,lock_shared,lock_all,acc_one,acc_ring] [--flavors F,..]"
		       " [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes lock_excl,lock_shared,lock_all,acc_one,acc_ring\n",
				b.prog);
		MPI_Finalize();
		return 2;
	}
	if (b.size < 2) {
		if (b.rank == 0)
			fprintf(stderr, "%s: needs at least 2 ranks\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, (long)sizeof(double));
	/* points per window: the same predicate as the loop below */
	for (int o = 0; o < ops.n; o++)
		for (int s = 0; s < b.sizes.n; s++)
			per_flavor += point_valid((int)ops.v[o], b.sizes.v[s]);
	if (bench_mem_alloc(maxsize, 0, &src) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	fill_ones(src, maxsize);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx, last = first + per_flavor - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, maxsize, first, last, msg,
					  sizeof(msg));
		for (int o = 0; o < ops.n; o++) {
			for (int s = 0; s < b.sizes.n; s++) {
				int op = (int)ops.v[o];
				long idx, size = b.sizes.v[s];
				int acc = op == OP_ACC_ONE || op == OP_ACC_RING;
				scale_t k = {
					.b = &b, .w = &w, .src = src,
					.count = (int)(acc ? size / (long)sizeof(double) : size),
					.lock_type = op == OP_LOCK_EXCL ? MPI_LOCK_EXCLUSIVE
									: MPI_LOCK_SHARED,
				};
				bench_rec_t r = point_rec(op, flavor, size, msg);
				bench_stat_t st;

				if (!point_valid(op, size))
					continue;
				idx = bench_point(&b);
				if (!bench_want(&b, idx))
					continue;
				if (have) {
					bench_measure(&b, kernels[op], &k, &st);
					bench_rec_latency(&r, &st, ops_per_iter(&b, op));
				}
				bench_emit(&b, idx, &r);
			}
		}
		if (have)
			bench_win_close(&b, &w, last);
	}
	free(src);
	MPI_Finalize();
	return 0;
}
