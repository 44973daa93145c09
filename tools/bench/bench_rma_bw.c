/*
 * bench_rma_bw: bandwidth and bidirectional bandwidth of MPI_Put and
 * MPI_Get, two ranks.
 *
 *   bench_rma_bw [--dirs uni,bi] [--ops put,get] [--syncs S,..] [--flavors F,..]
 *                [--sizes 1:4M] [--window 64]
 *                [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]
 *
 * As the OSU one-sided bandwidth tests: each synchronization covers
 * --window back-to-back operations of `size` bytes.  uni: rank 0 is the
 * origin, rank 1 the target (it waits in MPI_Barrier in the passive modes,
 * calls fence or post/wait in the active ones).  bi: both ranks are
 * origins and targets at once, and the figure is the sum of both
 * directions.  lock is lock(shared) + window + unlock, lock_all likewise,
 * flush and flush_local one flush per window inside one lock epoch.
 *
 * The operations of one window go to distinct target and origin addresses
 * (slot j of `size` bytes), as OSU does, up to BW_REGION bytes: beyond it
 * the slots are reused, so large sizes still stream through memory rather
 * than hit one cached block.  One record per (flavour, direction, sync, op,
 * size), in MB/s (10^6 bytes per second).
 */
#include "bench.h"

#define BW_REGION (64L << 20) /* bytes of distinct slots per rank */

static const char *const ops_names[] = { "put", "get" };
enum { OP_PUT, OP_GET, OP_COUNT };

static const char *const dir_names[] = { "uni", "bi" };
enum { DIR_UNI, DIR_BI, DIR_COUNT };

typedef struct bw {
	const bench_t *b;
	const bench_win_t *w;
	int op, sync, bi, window;
	long size, slots;
	char *buf;       /* origin memory: source of put, destination of get */
	MPI_Group peer;
} bw_t;

static long bw_slots(long size, int window)
{
	long fit = size > 0 ? BW_REGION / size : window;

	if (fit < 1)
		fit = 1;
	return fit < window ? fit : window;
}

/* the window's operations from this rank to `target` */
static void bw_issue(const bw_t *k, int target, MPI_Win win)
{
	MPI_Aint disp = k->w->disp[target];
	int count = (int)k->size;

	for (int j = 0; j < k->window; j++) {
		long off = (j % k->slots) * k->size;

		if (k->op == OP_PUT)
			MPI_Put(k->buf + off, count, MPI_CHAR, target, disp + off, count, MPI_CHAR,
				win);
		else
			MPI_Get(k->buf + off, count, MPI_CHAR, target, disp + off, count, MPI_CHAR,
				win);
	}
}

static double bw_kernel(void *arg, long n)
{
	const bw_t *k = arg;
	MPI_Win win = k->w->win;
	int me = k->b->rank, other = 1 - me, origin = k->bi || me == 0;
	double t0, t = 0;

	switch (k->sync) {
	case BENCH_SYNC_LOCK:
	case BENCH_SYNC_LOCK_ALL:
		if (origin) {
			int all = k->sync == BENCH_SYNC_LOCK_ALL;

			t0 = MPI_Wtime();
			for (long i = 0; i < n; i++) {
				if (all)
					MPI_Win_lock_all(0, win);
				else
					MPI_Win_lock(MPI_LOCK_SHARED, other, 0, win);
				bw_issue(k, other, win);
				if (all)
					MPI_Win_unlock_all(win);
				else
					MPI_Win_unlock(other, win);
			}
			t = MPI_Wtime() - t0;
		}
		MPI_Barrier(k->b->comm);
		break;
	case BENCH_SYNC_FLUSH:
	case BENCH_SYNC_FLUSH_LOCAL:
		if (origin) {
			int local = k->sync == BENCH_SYNC_FLUSH_LOCAL;

			MPI_Win_lock(MPI_LOCK_SHARED, other, 0, win);
			t0 = MPI_Wtime();
			for (long i = 0; i < n; i++) {
				bw_issue(k, other, win);
				if (local)
					MPI_Win_flush_local(other, win);
				else
					MPI_Win_flush(other, win);
			}
			t = MPI_Wtime() - t0;
			MPI_Win_unlock(other, win);
		}
		MPI_Barrier(k->b->comm);
		break;
	case BENCH_SYNC_FENCE:
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			MPI_Win_fence(0, win);
			if (origin)
				bw_issue(k, other, win);
			MPI_Win_fence(0, win);
		}
		t = MPI_Wtime() - t0;
		break;
	default: /* BENCH_SYNC_PSCW */
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			if (k->bi || me == 1)
				MPI_Win_post(k->peer, 0, win);
			if (origin) {
				MPI_Win_start(k->peer, 0, win);
				bw_issue(k, other, win);
				MPI_Win_complete(win);
			}
			if (k->bi || me == 1)
				MPI_Win_wait(win);
		}
		t = MPI_Wtime() - t0;
		break;
	}
	return t;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"ops=put,get", "dirs=uni,bi", "syncs=flush", "flavors=allocate", "sizes=1:4M", NULL,
	};
	bench_list_t ops, dirs;
	bench_t b;
	long region = 0;
	char *buf = NULL;
	MPI_Group peer;

	MPI_Init(&argc, &argv);
	if (bench_init(&b, argc, argv, BENCH_OPT_OPS | BENCH_OPT_DIRS | BENCH_OPT_SYNCS |
			   BENCH_OPT_FLAVORS | BENCH_OPT_SIZES | BENCH_OPT_WINDOW, defaults, 2,
			   " [--dirs uni,bi] [--ops put,get] [--syncs S,..] [--flavors F,..]"
			   " [--sizes LIST] [--window N]") < 0) {
		MPI_Finalize();
		return 2;
	}
	if (bench_list_names(&ops, b.ops, ops_names, OP_COUNT) < 0 ||
	    bench_list_names(&dirs, b.dirs, dir_names, DIR_COUNT) < 0) {
		if (b.rank == 0)
			fprintf(stderr, "%s: --ops takes put,get and --dirs uni,bi\n", b.prog);
		MPI_Finalize();
		return 2;
	}
	for (int s = 0; s < b.sizes.n; s++) {
		long need = b.sizes.v[s] * bw_slots(b.sizes.v[s], b.window);

		if (need > region)
			region = need;
	}
	if (region < 8)
		region = 8;
	if (bench_mem_alloc(region, 0, &buf) != MPI_SUCCESS) {
		fprintf(stderr, "%s: out of memory\n", b.prog);
		MPI_Abort(b.comm, 1);
	}
	memset(buf, 1, (size_t)region);
	bench_peer_group(&b, &peer);

	for (int f = 0; f < b.flavors.n; f++) {
		int flavor = (int)b.flavors.v[f];
		long first = b.idx;
		long last = first + (long)dirs.n * b.syncs.n * ops.n * b.sizes.n - 1;
		char msg[BENCH_NOTE_MAX] = "";
		bench_win_t w;
		int have = bench_win_open(&b, &w, flavor, region, first, last, msg,
					  sizeof(msg));
		for (int d = 0; d < dirs.n; d++) {
			for (int y = 0; y < b.syncs.n; y++) {
				for (int o = 0; o < ops.n; o++) {
					for (int s = 0; s < b.sizes.n; s++) {
						int sync = (int)b.syncs.v[y], bi = dirs.v[d] == DIR_BI;
						long idx = bench_point(&b), size = b.sizes.v[s];
						bw_t k = {
							.b = &b, .w = &w, .op = (int)ops.v[o], .sync = sync,
							.bi = bi, .window = b.window, .size = size,
							.slots = bw_slots(size, b.window), .buf = buf,
							.peer = peer,
						};
						bench_rec_t r = {
							.bench = bi ? "rma_bibw" : "rma_bw",
							.op = ops_names[ops.v[o]], .type = "char",
							.sync = bench_sync_names[sync],
							.flavor = bench_flavor_names[flavor], .bytes = size,
							.unit = "MB/s", .status = "unsupported", .note = msg,
						};
						bench_stat_t st;

						if (!bench_want(&b, idx))
							continue;
						if (have) {
							bench_measure(&b, bw_kernel, &k, &st);
							bench_sync_close(w.win, sync);
							bench_rec_bandwidth(&r, &st, (double)size * b.window *
										     (bi ? 2 : 1));
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
	free(buf);
	MPI_Finalize();
	return 0;
}
