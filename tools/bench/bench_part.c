/*
 * bench_part: partitioned point-to-point communication (MPI 4.0 and later,
 * chapter 4 of MPI 4.1) between two ranks: how soon the consumer sees the
 * first partition, and how long the message takes after its last one.
 *
 *   bench_part [--ops first,last,early] [--sizes 64:4M]
 *              [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * For 1, 8 and 64 partitions of each size (the whole message), rank 0
 * produces: it starts its MPI_Psend_init request, meets rank 1 in a
 * barrier, then marks the partitions ready one by one with MPI_Pready,
 * spending 1 us of computation before each but the first (the work that
 * fills a partition); rank 1 starts its MPI_Precv_init request, polls
 * MPI_Parrived on partition 0 until it says true, then waits for the
 * whole message.  Both read CLOCK_MONOTONIC, one clock for the node.
 *
 *   first  from rank 0's first MPI_Pready to rank 1's first MPI_Parrived
 *          that says true (ns)
 *   last   from rank 0's last MPI_Pready to the completion of rank 1's
 *          MPI_Wait (ns)
 *   early  the fraction of iterations in which rank 1 saw partition 0
 *          before rank 0 marked the last partition ready (x; 1 with one
 *          partition means never, since the first is the last)
 *
 * Open MPI before 5.0, which has no partitioned communication, reports
 * every point unsupported.
 */
#include "bench.h"

enum { OP_FIRST, OP_LAST, OP_EARLY, OP_COUNT };
static const char *const ops_names[] = { "first", "last", "early" };
static const int part_counts[] = { 1, 8, 64 };
#define NCOUNTS (int)(sizeof(part_counts) / sizeof(part_counts[0]))
#define GAP 1e-6	/* seconds of computation before each later partition */

typedef struct part {
	const bench_t *b;
	int op, parts;
	long size;
	char *buf;
	MPI_Request req;
	long iters, early;	/* rank 1: iterations run, of them early */
} part_t;

/* MPI 4.0 brought partitioned communication (MPICH 4 and shmpi report
 * it); Open MPI has it from 5.0, which reports 3.1 all the same */
#if MPI_VERSION >= 4 || (defined(OPEN_MPI) && OMPI_MAJOR_VERSION >= 5)

static void spin(double seconds)
{
	double end = bench_now() + seconds;

	while (bench_now() < end)
		;
}

static double part_kernel(void *arg, long n)
{
	part_t *k = arg;
	double sum = 0, t[2];

	for (long i = 0; i < n; i++) {
		MPI_Start(&k->req);
		MPI_Barrier(k->b->comm);
		if (k->b->rank == 0) {
			t[0] = t[1] = bench_now();
			for (int p = 0; p < k->parts; p++) {
				if (p > 0)
					spin(GAP);
				if (p == k->parts - 1)
					t[1] = bench_now();
				MPI_Pready(p, k->req);
			}
			MPI_Wait(&k->req, MPI_STATUS_IGNORE);
			MPI_Send(t, 2, MPI_DOUBLE, 1, 1, k->b->comm);
		} else {
			double seen, done;
			int flag = 0;

			while (!flag)
				MPI_Parrived(k->req, 0, &flag);
			seen = bench_now();
			MPI_Wait(&k->req, MPI_STATUS_IGNORE);
			done = bench_now();
			MPI_Recv(t, 2, MPI_DOUBLE, 0, 1, k->b->comm, MPI_STATUS_IGNORE);
			sum += k->op == OP_LAST ? done - t[1] : seen - t[0];
			k->iters++;
			k->early += seen < t[1];
		}
	}
	return sum;
}

/* The requests of one point; 0, or the error after the record says so. */
static int part_open(part_t *k, bench_rec_t *r, char *note, size_t n)
{
	MPI_Count count = (MPI_Count)(k->size / k->parts);
	int rc = k->b->rank == 0 ?
		 MPI_Psend_init(k->buf, k->parts, count, MPI_CHAR, 1, 0, k->b->comm,
				MPI_INFO_NULL, &k->req) :
		 MPI_Precv_init(k->buf, k->parts, count, MPI_CHAR, 0, 0, k->b->comm,
				MPI_INFO_NULL, &k->req);

	rc = bench_agree(k->b, rc);
	if (rc != MPI_SUCCESS) {
		bench_errstr(note, n, k->b->rank == 0 ? "MPI_Psend_init" : "MPI_Precv_init", rc);
		r->status = "unsupported";
		r->note = note;
	}
	return rc;
}

static void part_point(part_t *k, bench_rec_t *r, char *note, size_t n)
{
	bench_stat_t st;

	if (part_open(k, r, note, n) != MPI_SUCCESS)
		return;
	k->iters = k->early = 0;
	bench_measure(k->b, part_kernel, k, &st);
	if (k->op == OP_EARLY) {
		double frac[2] = { k->iters ? (double)k->early / (double)k->iters : 0, 0 };

		/* rank 1 counted: everyone reports its figure */
		MPI_Bcast(frac, 1, MPI_DOUBLE, 1, k->b->comm);
		r->unit = "x";
		r->median = r->best = frac[0];
		r->iters = st.iters;
		r->status = "ok";
		r->note = "";
	} else {
		bench_rec_latency(r, &st, 1.0);
	}
	MPI_Request_free(&k->req);
}

#else

static void part_point(part_t *k, bench_rec_t *r, char *note, size_t n)
{
	(void)k;
	snprintf(note, n, "no MPI_Psend_init before Open MPI 5.0");
	r->status = "unsupported";
	r->note = note;
}

#endif

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "ops=first,last,early", "sizes=64,4K,256K,4M",
						NULL };
	bench_list_t ops;
	bench_t b;
	long maxsize;
	part_t k;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_SIZES, defaults, 2,
		       " [--ops first,last,early] [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes first,last,early\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 64);
	k = (part_t){ .b = &b, .buf = malloc((size_t)maxsize) };
	if (!k.buf) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(k.buf, 1, (size_t)maxsize);

	for (int c = 0; c < NCOUNTS; c++) {
		for (int s = 0; s < b.sizes.n; s++) {
			for (int o = 0; o < ops.n; o++) {
				long idx = bench_point(&b);
				char type[16], note[BENCH_NOTE_MAX];
				bench_rec_t r = {
					.bench = "part", .op = ops_names[ops.v[o]], .type = type,
					.sync = "none", .flavor = "malloc", .bytes = b.sizes.v[s],
					.unit = ops.v[o] == OP_EARLY ? "x" : "ns", .status = "ok",
					.note = "",
				};

				snprintf(type, sizeof(type), "%dparts", part_counts[c]);
				if (!bench_want(&b, idx))
					continue;
				k.op = (int)ops.v[o];
				k.parts = part_counts[c];
				/* whole partitions of at least a byte */
				k.size = b.sizes.v[s] / k.parts * k.parts;
				if (k.size == 0)
					k.size = k.parts;
				part_point(&k, &r, note, sizeof(note));
				bench_emit(&b, idx, &r);
			}
		}
	}
	free(k.buf);
	MPI_Finalize();
	return 0;
}
