/*
 * bench_p2p: point-to-point latency and streaming bandwidth between two
 * ranks, as the OSU micro-benchmarks measure them (osu_latency, osu_bw).
 *
 *   bench_p2p [--ops lat,bw] [--sizes 8:4M] [--window 64]
 *             [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * lat: ping-pong of MPI_Send / MPI_Recv of `size` bytes; the figure is half
 * a round trip, in ns.  bw: rank 0 starts --window MPI_Isend of `size`
 * bytes, rank 1 as many MPI_Irecv, both wait for all of them, then rank 1
 * answers with a 4-byte message; the figure is the window's bytes over the
 * time, in MB/s.  Buffers are malloc'd (not MPI_Alloc_mem), as OSU's are,
 * and the window's messages share one send and one receive buffer.
 */
#include "bench.h"

enum { OP_LAT, OP_BW, OP_COUNT };
static const char *const ops_names[] = { "lat", "bw" };

typedef struct p2p {
	const bench_t *b;
	int window;
	long size;
	char *sbuf, *rbuf;
	MPI_Request *reqs;
} p2p_t;

static double lat_kernel(void *arg, long n)
{
	const p2p_t *k = arg;
	int count = (int)k->size;
	double t0;

	t0 = MPI_Wtime();
	for (long i = 0; i < n; i++) {
		if (k->b->rank == 0) {
			MPI_Send(k->sbuf, count, MPI_CHAR, 1, 1, k->b->comm);
			MPI_Recv(k->rbuf, count, MPI_CHAR, 1, 1, k->b->comm, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(k->rbuf, count, MPI_CHAR, 0, 1, k->b->comm, MPI_STATUS_IGNORE);
			MPI_Send(k->sbuf, count, MPI_CHAR, 0, 1, k->b->comm);
		}
	}
	return MPI_Wtime() - t0;
}

static double bw_kernel(void *arg, long n)
{
	const p2p_t *k = arg;
	int count = (int)k->size, ack = 0;
	double t0;

	t0 = MPI_Wtime();
	for (long i = 0; i < n; i++) {
		if (k->b->rank == 0) {
			for (int j = 0; j < k->window; j++)
				MPI_Isend(k->sbuf, count, MPI_CHAR, 1, 2, k->b->comm, &k->reqs[j]);
			MPI_Waitall(k->window, k->reqs, MPI_STATUSES_IGNORE);
			MPI_Recv(&ack, 1, MPI_INT, 1, 3, k->b->comm, MPI_STATUS_IGNORE);
		} else {
			for (int j = 0; j < k->window; j++)
				MPI_Irecv(k->rbuf, count, MPI_CHAR, 0, 2, k->b->comm, &k->reqs[j]);
			MPI_Waitall(k->window, k->reqs, MPI_STATUSES_IGNORE);
			MPI_Send(&ack, 1, MPI_INT, 0, 3, k->b->comm);
		}
	}
	return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "ops=lat,bw", "sizes=8:4M", NULL };
	bench_list_t ops;
	bench_t b;
	long maxsize;
	p2p_t k;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_SIZES | BENCH_OPT_WINDOW,
		       defaults, 2, " [--ops lat,bw] [--sizes LIST] [--window N]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes lat,bw\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 1);
	k = (p2p_t){
		.b = &b, .window = b.window, .sbuf = malloc((size_t)maxsize),
		.rbuf = malloc((size_t)maxsize),
		.reqs = malloc((size_t)b.window * sizeof(MPI_Request)),
	};
	if (!k.sbuf || !k.rbuf || !k.reqs) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(k.sbuf, 1, (size_t)maxsize);
	memset(k.rbuf, 0, (size_t)maxsize);

	for (int o = 0; o < ops.n; o++) {
		for (int s = 0; s < b.sizes.n; s++) {
			long idx = bench_point(&b);
			int op = (int)ops.v[o];
			bench_rec_t r = {
				.bench = op == OP_LAT ? "p2p_lat" : "p2p_bw", .op = ops_names[op],
				.type = "char", .sync = "none", .flavor = "malloc",
				.bytes = b.sizes.v[s], .unit = op == OP_LAT ? "ns" : "MB/s",
				.status = "ok", .note = "",
			};
			bench_stat_t st;

			if (!bench_want(&b, idx))
				continue;
			k.size = b.sizes.v[s];
			if (op == OP_LAT) {
				bench_measure(&b, lat_kernel, &k, &st);
				bench_rec_latency(&r, &st, 2.0);
			} else {
				bench_measure(&b, bw_kernel, &k, &st);
				bench_rec_bandwidth(&r, &st, (double)k.size * b.window);
			}
			bench_emit(&b, idx, &r);
		}
	}
	free(k.sbuf);
	free(k.rbuf);
	free(k.reqs);
	MPI_Finalize();
	return 0;
}
