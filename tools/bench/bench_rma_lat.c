/*
 * bench_rma_lat: latency of MPI_Put and MPI_Get, two ranks.
 *
 *   bench_rma_lat [--ops put,get] [--syncs lock,lock_all,flush,flush_local,fence,pscw]
 *                 [--flavors allocate,create,create_malloc,dynamic,dynamic_malloc]
 *                 [--sizes 1:4M] [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * Rank 0 puts (gets) `size` bytes of MPI_CHAR at displacement 0 of rank 1's
 * window, synchronized as the OSU one-sided latency tests do (see
 * bench_lat_kernel in bench.h); one record per (flavour, sync, op, size),
 * in nanoseconds per operation.
 */
#include "bench.h"

static const char *const ops_names[] = { "put", "get" };
enum { OP_PUT, OP_GET, OP_COUNT };

static void issue_put(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Put(op->src, op->count, MPI_CHAR, target, disp, op->count, MPI_CHAR, win);
}

static void issue_get(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Get(op->res, op->count, MPI_CHAR, target, disp, op->count, MPI_CHAR, win);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"ops=put,get", "syncs=flush", "flavors=allocate", "sizes=1:4M", NULL,
	};
	bench_list_t ops;
	bench_t b;
	long maxsize;
	char *src = NULL, *res = NULL;
	MPI_Group peer;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_SYNCS | BENCH_OPT_FLAVORS |
			   BENCH_OPT_SIZES, defaults, 2,
			   " [--ops put,get] [--syncs S,..] [--flavors F,..] [--sizes LIST]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes put,get\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 8);
	if (bench_mem_alloc(maxsize, 0, &src) != MPI_SUCCESS ||
	    bench_mem_alloc(maxsize, 0, &res) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(src, 1, (size_t)maxsize);
	memset(res, 0, (size_t)maxsize);
	bench_peer_group(&b, &peer);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx, last = first + (long)b.syncs.n * ops.n * b.sizes.n - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, maxsize, first, last, msg,
					  sizeof(msg));
		for (int y = 0; y < b.syncs.n; y++) {
			for (int o = 0; o < ops.n; o++) {
				for (int s = 0; s < b.sizes.n; s++) {
					int sync = (int)b.syncs.v[y];
					long idx = bench_point(&b), size = b.sizes.v[s];
					bench_op_t op = {
						.issue = ops.v[o] == OP_PUT ? issue_put : issue_get,
						.type = MPI_CHAR,
						.count = (int)size,
						.src = src,
						.res = res,
					};
					bench_lat_t k = {
						.b = &b, .op = &op, .w = &w, .sync = sync, .peer = peer,
					};
					bench_rec_t r = {
						.bench = "rma_lat", .op = ops_names[ops.v[o]], .type = "char",
						.sync = bench_sync_names[sync],
						.flavor = bench_flavor_names[flavor], .bytes = size,
						.unit = "ns", .status = "unsupported", .note = msg,
					};
					bench_stat_t st;

					if (!bench_want(&b, idx))
						continue;
					if (have) {
						bench_measure(&b, bench_lat_kernel, &k, &st);
						bench_sync_close(w.win, sync);
						bench_rec_latency(&r, &st, bench_lat_ops_per_iter(sync));
					}
					bench_emit(&b, idx, &r);
				}
			}
		}
		if (have)
			bench_win_close(&b, &w, last);
	}
	MPI_Group_free(&peer);
	free(src);
	free(res);
	MPI_Finalize();
	return 0;
}
