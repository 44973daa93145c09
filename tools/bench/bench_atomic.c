/*
 * bench_atomic: latency of the accumulate family, two ranks.
 *
 *   bench_atomic [--ops acc,get_acc,fop,cas] [--types char,int,double] [--ftypes int64]
 *                [--syncs S,..] [--flavors F,..] [--sizes 1:4M]
 *                [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * acc is MPI_Accumulate and get_acc MPI_Get_accumulate with MPI_SUM on each
 * of --types, for every size of --sizes that is a multiple of the type's
 * size; fop (MPI_Fetch_and_op, MPI_SUM) and cas (MPI_Compare_and_swap) act
 * on one element of each of --ftypes (cas only on the integer ones: int,
 * int64).  Rank 0 targets displacement 0 of rank 1's window, synchronized
 * as the OSU one-sided latency tests do (bench_lat_kernel in bench.h); one
 * record per point, in nanoseconds per operation.
 */
#include "bench.h"

static const char *const ops_names[] = { "acc", "get_acc", "fop", "cas" };
enum { OP_ACC, OP_GET_ACC, OP_FOP, OP_CAS, OP_COUNT };

static void issue_acc(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Accumulate(op->src, op->count, op->type, target, disp, op->count, op->type, op->mop,
		       win);
}

static void issue_get_acc(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Get_accumulate(op->src, op->count, op->type, op->res, op->count, op->type, target, disp,
			   op->count, op->type, op->mop, win);
}

static void issue_fop(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Fetch_and_op(op->src, op->res, op->type, target, disp, op->mop, win);
}

static void issue_cas(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win)
{
	MPI_Compare_and_swap(op->src, op->cmp, op->res, op->type, target, disp, win);
}

static bench_issue_fn *const issue[OP_COUNT] = { issue_acc, issue_get_acc, issue_fop, issue_cas };

/* the types an operation runs on */
static const bench_list_t *op_types(const bench_t *b, int op)
{
	return op == OP_ACC || op == OP_GET_ACC ? &b->types : &b->ftypes;
}

/* does (op, type, size) make a point?  cas needs an integer type */
static int point_valid(int op, int type, long size)
{
	int tsize = bench_type_size(type);

	if (op == OP_CAS && type != BENCH_TYPE_INT && type != BENCH_TYPE_INT64)
		return 0;
	if (op == OP_FOP || op == OP_CAS)
		return 1; /* one element; the size list does not apply */
	return size >= tsize && size % tsize == 0;
}

/* sizes iterated for an op: the list, or one pass for single-element ops */
static int op_nsizes(const bench_t *b, int op)
{
	return op == OP_FOP || op == OP_CAS ? 1 : b->sizes.n;
}

/* ones of `type` in `buf`, `bytes` long */
static void fill_ones(char *buf, int type, long bytes)
{
	long n = bytes / bench_type_size(type);

	for (long i = 0; i < n; i++) {
		switch (type) {
		case BENCH_TYPE_CHAR:
			buf[i] = 1;
			break;
		case BENCH_TYPE_INT:
			((int *)buf)[i] = 1;
			break;
		case BENCH_TYPE_DOUBLE:
			((double *)buf)[i] = 1.0;
			break;
		default:
			((long long *)buf)[i] = 1;
			break;
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"ops=acc,get_acc,fop,cas", "types=char,int,double", "ftypes=int64",
		"syncs=flush", "flavors=allocate", "sizes=1:4M", NULL,
	};
	bench_list_t ops;
	bench_t b;
	long maxsize, per_flavor = 0;
	char *src = NULL, *res = NULL, *cmp = NULL;
	MPI_Group peer;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_TYPES | BENCH_OPT_FTYPES |
			   BENCH_OPT_SYNCS | BENCH_OPT_FLAVORS | BENCH_OPT_SIZES, defaults, 2,
			   " [--ops acc,get_acc,fop,cas] [--types T,..] [--ftypes T,..]"
			   " [--syncs S,..] [--flavors F,..] [--sizes LIST]\n"
			   "  types: char,int,double,int64") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes acc,get_acc,fop,cas\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	maxsize = bench_sizes_max(&b, 16);
	/* points per window: the same predicate as the loops below */
	for (int o = 0; o < ops.n; o++) {
		const bench_list_t *types = op_types(&b, (int)ops.v[o]);

		for (int t = 0; t < types->n; t++)
			for (int s = 0; s < op_nsizes(&b, (int)ops.v[o]); s++)
				per_flavor += point_valid((int)ops.v[o], (int)types->v[t],
							  b.sizes.v[s]);
	}
	per_flavor *= b.syncs.n;
	if (bench_mem_alloc(maxsize, 0, &src) != MPI_SUCCESS ||
	    bench_mem_alloc(maxsize, 0, &res) != MPI_SUCCESS ||
	    bench_mem_alloc(16, 0, &cmp) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(res, 0, (size_t)maxsize);
	memset(cmp, 0, 16);
	bench_peer_group(&b, &peer);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx, last = first + per_flavor - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, maxsize, first, last, msg,
					  sizeof(msg));
		for (int y = 0; y < b.syncs.n; y++) {
			for (int o = 0; o < ops.n; o++) {
				int opi = (int)ops.v[o];
				const bench_list_t *types = op_types(&b, opi);

				for (int t = 0; t < types->n; t++) {
					for (int s = 0; s < op_nsizes(&b, opi); s++) {
						int sync = (int)b.syncs.v[y], type = (int)types->v[t];
						long idx, size = b.sizes.v[s];
						bench_op_t op = {
							.issue = issue[opi], .type = bench_type_mpi(type),
							.mop = MPI_SUM, .src = src, .res = res, .cmp = cmp,
						};
						bench_lat_t k = {
							.b = &b, .op = &op, .w = &w, .sync = sync,
							.peer = peer,
						};
						bench_rec_t r = {
							.bench = "atomic_lat", .op = ops_names[opi],
							.type = bench_type_names[type],
							.sync = bench_sync_names[sync],
							.flavor = bench_flavor_names[flavor],
							.unit = "ns", .status = "unsupported", .note = msg,
						};
						bench_stat_t st;

						if (!point_valid(opi, type, size))
							continue;
						if (opi == OP_FOP || opi == OP_CAS)
							size = bench_type_size(type);
						op.count = (int)(size / bench_type_size(type));
						r.bytes = size;
						idx = bench_point(&b);
						if (!bench_want(&b, idx))
							continue;
						if (have) {
							fill_ones(src, type, size);
							bench_measure(&b, bench_lat_kernel, &k, &st);
							bench_sync_close(w.win, sync);
							bench_rec_latency(&r, &st,
									  bench_lat_ops_per_iter(sync));
						}
						bench_emit(&b, idx, &r);
					}
				}
			}
		}
		if (have)
			bench_win_close(&b, &w, last);
	}
	MPI_Group_free(&peer);
	free(src);
	free(res);
	free(cmp);
	MPI_Finalize();
	return 0;
}
