/*
 * Accumulate-family atomicity under contention (MPI-3.1 11.7.1): every rank
 * hammers the same elements of rank 0's window under MPI_Win_lock_all, all
 * of them during the same stretch of time, and the results must be those
 * of some serial order of the operations.  Fetching operations are checked
 * value by value: the old values fetched by +1 increments are exactly
 * first..first+N-1 (none lost, none seen twice); so are the values a
 * compare-and-swap loop installed; a chain of mixed SUM / BXOR / REPLACE /
 * NO_OP fetches is one history from the initial to the final value.
 * Counters cross a 32-bit boundary so a torn 64-bit update shows, pairs
 * and complex numbers carry a redundant half so a torn one shows.  Also
 * other widths, compare-and-swap on floating and complex types (the
 * extension of README) at any alignment, program order per origin
 * (accumulate_ordering), derived datatypes on origin and target, MPI_SUM
 * on MPI_CHAR, and operations of zero count or zero size, and long
 * accumulates (up to hundreds of KiB) racing with short ones.
 *
 * Mixing different ops on one element goes beyond the standard's default
 * accumulate_ops hint (same_op_no_op); shmpi promises it (README, "What is implemented").
 *
 *   rma_atomic [test]
 */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "testutil.h"

static int rank, size;

/*
 * Every rank hammers for the same WINDOW seconds (at most MAXR rounds):
 * long enough for the scheduler to interleave them even when there are
 * more ranks than cores.  A fixed round count is no good: a rank leaving
 * a barrier late finds the others done.
 */
#define WINDOW 0.15
#define MAXR 40000

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Start together (every rank spins, staying runnable, until the same
 * moment); returns when to stop. */
static double hammer_start(void)
{
	double t0 = mono() + 0.05;

	/* the barrier: every rank has t0 before anybody spins outside MPI */
	CHECK_MPI(MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	while (mono() < t0)
		;
	return t0 + WINDOW;
}

/* Whether round r runs: below max, and (looked at every 16 rounds)
 * before the end. */
static int more(int r, int max, double end)
{
	return r < max && (r % 16 || mono() < end);
}

/* Every rank's round count, and their sum. */
static long counts_of(int n, int *counts)
{
	long total = 0;

	CHECK_MPI(MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD));
	for (int q = 0; q < size; q++)
		total += counts[q];
	return total;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Gather every rank's `n` values to rank 0 and check there that together
 * they are exactly first, first + 1, ..., first + total - 1.
 */
static void check_permutation(const long long *v, int n, long long first, const char *what)
{
	int *counts = malloc(sizeof(int) * (size_t)size), *displs = NULL;
	long long *all = NULL;
	long total = counts_of(n, counts);

	CHECK(counts);
	if (rank == 0) {
		all = malloc(sizeof(long long) * (size_t)(total ? total : 1));
		displs = malloc(sizeof(int) * (size_t)size);
		CHECK(all && displs);
		displs[0] = 0;
		for (int q = 1; q < size; q++)
			displs[q] = displs[q - 1] + counts[q - 1];
	}
	CHECK_MPI(MPI_Gatherv(v, n, MPI_LONG_LONG, all, counts, displs, MPI_LONG_LONG, 0,
			      MPI_COMM_WORLD));
	if (rank == 0) {
		qsort(all, (size_t)total, sizeof(long long), cmp_ll);
		for (long i = 0; i < total; i++)
			if (all[i] != first + i) {
				fprintf(stderr, "%s: value %ld of %ld: got %lld, want %lld\n",
					what, i, total, all[i], first + i);
				CHECK(all[i] == first + i);
			}
		free(all);
		free(displs);
	}
	free(counts);
}

/* Fetch_and_op SUM +1 on int, long and double: every old value once. */
static void test_fetch_and_op(void)
{
	const long lfirst = (1L << 32) - 50000;
	const int ifirst = -50000;
	struct el { int i; int pad; long l; double d; } *e;
	long long *oi = malloc(sizeof(long long) * MAXR * 3), *ol = oi + MAXR,
		  *od = oi + 2 * MAXR;
	int *counts = malloc(sizeof(int) * (size_t)size), n;
	long total;
	double end;
	MPI_Win win;

	CHECK(oi && counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	e->i = ifirst;
	e->l = lfirst;
	e->d = 0.0;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		int one = 1, i;
		long lone = 1, l;
		double done = 1.0, d;

		CHECK_MPI(MPI_Fetch_and_op(&one, &i, MPI_INT, 0, offsetof(struct el, i), MPI_SUM,
					   win));
		CHECK_MPI(MPI_Fetch_and_op(&lone, &l, MPI_LONG, 0, offsetof(struct el, l),
					   MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&done, &d, MPI_DOUBLE, 0, offsetof(struct el, d),
					   MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		oi[n] = i;
		ol[n] = l;
		od[n] = (long long)d;
		CHECK(d == (double)od[n]);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_permutation(oi, n, ifirst, "int fetch_and_op");
	check_permutation(ol, n, lfirst, "long fetch_and_op");
	check_permutation(od, n, 0, "double fetch_and_op");
	total = counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(e->i == ifirst + total && e->l == lfirst + total && e->d == (double)total);
	CHECK_MPI(MPI_Win_free(&win));
	free(oi);
	free(counts);
}

/*
 * Accumulate SUM on int, long and double vectors; Get_accumulate and
 * Rget_accumulate SUM +1 on long vectors (every element's old values once
 * each); Accumulate, Raccumulate and Fetch_and_op on the same element.
 */
static void test_accumulate(void)
{
	enum { NI = 8, NL = 4 };
	struct el {
		int i[NI];
		long l[NL];
		double d[NL];
		long g[NL];
		long rg[NL];
		int mix;
	} *e;
	long long *olds = malloc(sizeof(long long) * MAXR * 2 * NL);
	const long gfirst = (1L << 32) - 50000;
	int iv[NI], *counts = malloc(sizeof(int) * (size_t)size), n;
	long lv[NL], ones[NL], gold[NL], rgold[NL];
	double dv[NL], end;
	MPI_Win win;
	long long want = 0, total;

	CHECK(olds && counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e));
	for (int k = 0; k < NL; k++)
		e->rg[k] = e->g[k] = gfirst + k * 1000000L;
	for (int k = 0; k < NI; k++)
		iv[k] = (rank + 1) * (k + 1);
	for (int k = 0; k < NL; k++) {
		lv[k] = (rank + 1) * 0x100000001L;	/* carries across the halves */
		dv[k] = (rank + 1) * 0.25;
		ones[k] = 1;
	}
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		int two = 2, one = 1, five = 5, old;
		MPI_Request rq[2];

		CHECK_MPI(MPI_Accumulate(iv, NI, MPI_INT, 0, offsetof(struct el, i), NI, MPI_INT,
					 MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(lv, NL, MPI_LONG, 0, offsetof(struct el, l), NL,
					 MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(dv, NL, MPI_DOUBLE, 0, offsetof(struct el, d), NL,
					 MPI_DOUBLE, MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(ones, NL, MPI_LONG, gold, NL, MPI_LONG, 0,
					     offsetof(struct el, g), NL, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Rget_accumulate(ones, NL, MPI_LONG, rgold, NL, MPI_LONG, 0,
					      offsetof(struct el, rg), NL, MPI_LONG, MPI_SUM, win,
					      &rq[0]));
		CHECK_MPI(MPI_Accumulate(&two, 1, MPI_INT, 0, offsetof(struct el, mix), 1,
					 MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Raccumulate(&five, 1, MPI_INT, 0, offsetof(struct el, mix), 1,
					  MPI_INT, MPI_SUM, win, &rq[1]));
		CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, offsetof(struct el, mix),
					   MPI_SUM, win));
		CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
		CHECK_MPI(MPI_Win_flush(0, win));
		for (int k = 0; k < NL; k++) {
			olds[(2 * k) * MAXR + n] = gold[k] - k * 1000000L;
			olds[(2 * k + 1) * MAXR + n] = rgold[k] - k * 1000000L;
		}
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	for (int k = 0; k < 2 * NL; k++)
		check_permutation(&olds[k * MAXR], n, gfirst,
				  k % 2 ? "rget_accumulate" : "get_accumulate");
	total = counts_of(n, counts);
	for (int q = 0; q < size; q++)
		want += (q + 1) * (long long)counts[q];
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		for (int k = 0; k < NI; k++)
			CHECK(e->i[k] == want * (k + 1));
		for (int k = 0; k < NL; k++) {
			CHECK(e->l[k] == want * 0x100000001L);
			CHECK(e->d[k] == want * 0.25);
			CHECK(e->g[k] == gfirst + k * 1000000L + total);
			CHECK(e->rg[k] == gfirst + k * 1000000L + total);
		}
		CHECK(e->mix == 8 * total);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(olds);
	free(counts);
}

/*
 * Long accumulates (thousands of elements, which shmpi applies with plain
 * vectorised kernels under the target's stripe locks) racing with
 * one-element ones on the same elements:
 * element 0 of g takes +1 from every rank's long Get_accumulate and from
 * its Fetch_and_op, and the old values fetched there are first..first+N-1;
 * the final sums of every element count every operation, for long long,
 * int and double alike.
 */
static void test_bulk(void)
{
	enum { NB = 4096, MAXB = 4000 };
	struct el {
		long long g[NB];
		int h[NB];
		double d[NB];
	} *e;
	const long long first = (1LL << 32) - 3000;
	long long *ones = malloc(sizeof(long long) * NB), *gold = malloc(sizeof(long long) * NB);
	long long *olds = malloc(sizeof(long long) * 2 * MAXB);
	int *iones = malloc(sizeof(int) * NB), *counts = malloc(sizeof(int) * (size_t)size), n;
	double *halves = malloc(sizeof(double) * NB), end;
	MPI_Win win;

	CHECK(ones && gold && olds && iones && counts && halves);
	for (int i = 0; i < NB; i++) {
		ones[i] = 1;
		iones[i] = 1;
		halves[i] = 0.5;
	}
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e));
	for (int i = 0; i < NB; i++)
		e->g[i] = first;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXB, end); n++) {
		long long one = 1;
		int ione = 1, k = (n * 7 + rank * 13) % NB;
		double half = 0.5;

		CHECK_MPI(MPI_Get_accumulate(ones, NB, MPI_LONG_LONG, gold, NB, MPI_LONG_LONG, 0,
					     offsetof(struct el, g), NB, MPI_LONG_LONG, MPI_SUM,
					     win));
		CHECK_MPI(MPI_Fetch_and_op(&one, &olds[2 * n + 1], MPI_LONG_LONG, 0,
					   offsetof(struct el, g), MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(iones, NB, MPI_INT, 0, offsetof(struct el, h), NB,
					 MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(&ione, 1, MPI_INT, 0,
					 offsetof(struct el, h) + sizeof(int) * (size_t)k, 1,
					 MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(halves, NB, MPI_DOUBLE, 0, offsetof(struct el, d), NB,
					 MPI_DOUBLE, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(&half, 1, MPI_DOUBLE, 0,
					 offsetof(struct el, d) + sizeof(double) * (size_t)k, 1,
					 MPI_DOUBLE, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		olds[2 * n] = gold[0];
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_permutation(olds, 2 * n, first, "bulk get_accumulate + fetch_and_op");
	counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		long long total = 0;
		long *extra = calloc(NB, sizeof(long));

		CHECK(extra);
		for (int q = 0; q < size; q++) {
			total += counts[q];
			for (int r = 0; r < counts[q]; r++)
				extra[(r * 7 + q * 13) % NB]++;
		}
		CHECK(e->g[0] == first + 2 * total);
		for (int i = 1; i < NB; i++)
			CHECK(e->g[i] == first + total);
		for (int i = 0; i < NB; i++) {
			CHECK(e->h[i] == total + extra[i]);
			CHECK(e->d[i] == 0.5 * (double)(total + extra[i]));
		}
		free(extra);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(ones);
	free(gold);
	free(olds);
	free(iones);
	free(counts);
	free(halves);
}

/*
 * Short and long accumulates in alternation under contention: every rank
 * alternates a run of one-element Fetch_and_op with one long
 * Get_accumulate, all on the elements of rank 0, with runs of different
 * lengths so that the long accumulates of one rank meet the short ones of
 * the others at every point of their runs.  Every value fetched from element 0 is
 * first..first+N-1 exactly once, and every element counts every operation.
 */
static void test_alternating(void)
{
	enum { NB = 1024, RUN = 700, ROUNDS = 48 };
	const long long first = 1000, one = 1;
	long long *g, *ones = malloc(sizeof(long long) * NB);
	long long *gold = malloc(sizeof(long long) * NB);
	long long *olds = malloc(sizeof(long long) * ROUNDS * (RUN + 1));
	int *counts = malloc(sizeof(int) * (size_t)size), n = 0, r;
	long rounds;
	double end;
	MPI_Win win;

	CHECK(ones && gold && olds && counts);
	for (int i = 0; i < NB; i++)
		ones[i] = 1;
	CHECK_MPI(tu_win_allocate(sizeof(long long) * NB, sizeof(long long), MPI_INFO_NULL,
				  MPI_COMM_WORLD, &g, &win));
	for (int i = 0; i < NB; i++)
		g[i] = first;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (r = 0; more(r, ROUNDS, end); r++) {
		int run = RUN - (rank * 37 + r * 11) % 200;

		for (int i = 0; i < run; i++)
			CHECK_MPI(MPI_Fetch_and_op(&one, &olds[n++], MPI_LONG_LONG, 0, 0,
						   MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(ones, NB, MPI_LONG_LONG, gold, NB, MPI_LONG_LONG,
					     0, 0, NB, MPI_LONG_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		olds[n++] = gold[0];
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_permutation(olds, n, first, "alternating: fetch_and_op + long get_accumulate");
	rounds = counts_of(r, counts);
	counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		long total = 0;

		for (int q = 0; q < size; q++)
			total += counts[q];
		CHECK(g[0] == first + total);
		for (int i = 1; i < NB; i++)
			CHECK(g[i] == first + rounds);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(ones);
	free(gold);
	free(olds);
	free(counts);
}

/*
 * Accumulates of hundreds of KiB (which shmpi runs 4 KiB at a time, in
 * alternating order from one call to the next) of several widths, with
 * counts that are not whole pieces, racing with one-element Fetch_and_op
 * on elements at piece edges, in the middle and at the end.  Each position
 * gets its own value, so a piece applied at the wrong place shows.  Every
 * rank applies each accumulate twice in a row (so both orders run) under a
 * shared lock, then twice through MPI_Get_accumulate under an exclusive
 * lock, where the values fetched must be the window's before.
 */
struct large_el {
	int i[70001];
	double d[40003];
	unsigned short s[140001];
	double complex c[20011];
	struct { double v; int loc; } m[20021];	/* MPI_DOUBLE_INT */
};

#define LARGE_N(f) ((int)(sizeof(((struct large_el *)0)->f) / \
			  sizeof(((struct large_el *)0)->f[0])))

static int large_i(long k) { return (int)(k % 997) + 1; }
static double large_d(long k) { return (double)(k % 991) * 0.5; }
static unsigned short large_s(long k) { return (unsigned short)(k % 7 + 1); }
static double complex large_c(long k) { return (double)(k % 13) + (double)(k % 17) * I; }
static double large_m(long k, int r) { return (double)((k * 31 + r * 7) % 1009); }

static void test_large(void)
{
	enum { ROUNDS = 3, FOPS = 4, ADD = 1 << 20 };
	const int ni = LARGE_N(i), edges[FOPS] = { 1023, 1024, 70001 / 2, 70001 - 1 };
	struct large_el *e, *in = malloc(sizeof(*in));
	int *before = malloc(sizeof(int) * (size_t)ni), *old = malloc(sizeof(int) * (size_t)ni);
	long long per_rank = 2 * ROUNDS + 2;	/* accumulates of i by each rank */
	MPI_Win win;

	CHECK(in && before && old);
	for (long k = 0; k < ni; k++)
		in->i[k] = large_i(k);
	for (long k = 0; k < LARGE_N(d); k++)
		in->d[k] = large_d(k);
	for (long k = 0; k < LARGE_N(s); k++)
		in->s[k] = large_s(k);
	for (long k = 0; k < LARGE_N(c); k++)
		in->c[k] = large_c(k);
	for (long k = 0; k < LARGE_N(m); k++) {
		in->m[k].v = large_m(k, rank);
		in->m[k].loc = rank;
	}
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e));
	for (long k = 0; k < LARGE_N(m); k++)
		e->m[k].v = -1;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	hammer_start();
	/* each accumulate twice in a row: the second runs in the other order
	 * whatever the first did */
	const struct {
		const void *buf;
		int n;
		MPI_Datatype type;
		MPI_Aint off;
		MPI_Op op;
	} accs[] = {
		{ in->d, LARGE_N(d), MPI_DOUBLE, offsetof(struct large_el, d), MPI_SUM },
		{ in->s, LARGE_N(s), MPI_UNSIGNED_SHORT, offsetof(struct large_el, s), MPI_SUM },
		{ in->c, LARGE_N(c), MPI_C_DOUBLE_COMPLEX, offsetof(struct large_el, c), MPI_SUM },
		{ in->m, LARGE_N(m), MPI_DOUBLE_INT, offsetof(struct large_el, m), MPI_MAXLOC },
	};

	for (int r = 0; r < ROUNDS; r++) {
		/* the buffers of the fetches live until the flush completes them */
		int one = ADD, got[2];

		for (int twice = 0; twice < 2; twice++) {
			CHECK_MPI(MPI_Accumulate(in->i, ni, MPI_INT, 0, offsetof(struct large_el, i),
						 ni, MPI_INT, MPI_SUM, win));
			CHECK_MPI(MPI_Fetch_and_op(&one, &got[twice], MPI_INT, 0,
						   offsetof(struct large_el, i) +
						   sizeof(int) * (size_t)edges[(r * 2 + twice) % FOPS],
						   MPI_SUM, win));
		}
		for (int k = 0; k < (int)(sizeof(accs) / sizeof(accs[0])); k++)
			for (int twice = 0; twice < 2; twice++)
				CHECK_MPI(MPI_Accumulate(accs[k].buf, accs[k].n, accs[k].type, 0,
							 accs[k].off, accs[k].n, accs[k].type,
							 accs[k].op, win));
		CHECK_MPI(MPI_Win_flush(0, win));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	/* one rank at a time: the fetched values are the window's before */
	for (int q = 0; q < size; q++) {
		if (q == rank) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
			for (int twice = 0; twice < 2; twice++) {
				CHECK_MPI(MPI_Get(before, ni, MPI_INT, 0, offsetof(struct large_el, i),
						  ni, MPI_INT, win));
				CHECK_MPI(MPI_Win_flush(0, win));
				CHECK_MPI(MPI_Get_accumulate(in->i, ni, MPI_INT, old, ni, MPI_INT, 0,
							     offsetof(struct large_el, i), ni,
							     MPI_INT, MPI_SUM, win));
				CHECK_MPI(MPI_Win_flush(0, win));
				for (long k = 0; k < ni; k++)
					CHECK(old[k] == before[k]);
			}
			CHECK_MPI(MPI_Win_unlock(0, win));
		}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	if (rank == 0) {
		long long n = per_rank * size, fops[FOPS] = { 0 };

		/* round r's two Fetch_and_op hit edges 2r and 2r+1 (mod FOPS) */
		for (int r = 0; r < ROUNDS; r++)
			for (int twice = 0; twice < 2; twice++)
				fops[(r * 2 + twice) % FOPS] += size;
		for (long k = 0; k < ni; k++) {
			long long want = n * large_i(k);

			for (int f = 0; f < FOPS; f++)
				if (k == edges[f])
					want += fops[f] * ADD;
			CHECK(e->i[k] == want);
		}
		n = 2 * ROUNDS * size;
		for (long k = 0; k < LARGE_N(d); k++)
			CHECK(e->d[k] == (double)n * large_d(k));
		for (long k = 0; k < LARGE_N(s); k++)
			CHECK(e->s[k] == (unsigned short)(n * large_s(k)));
		for (long k = 0; k < LARGE_N(c); k++)
			CHECK(e->c[k] == (double)n * large_c(k));
		for (long k = 0; k < LARGE_N(m); k++) {
			int best = 0;

			for (int q = 1; q < size; q++)
				if (large_m(k, q) > large_m(k, best))
					best = q;
			CHECK(e->m[k].v == large_m(k, best) && e->m[k].loc == best);
		}
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(in);
	free(before);
	free(old);
}

/*
 * Accumulates of a few elements (shmpi applies up to 2 KiB of the commonest
 * types and ops inline), checked value by value against the same op
 * computed here: integer types of every width, floating types, MPI_BYTE and
 * MPI_WCHAR with the ops they take; SUM, the bit ops, REPLACE, NO_OP and
 * MAX (which takes the op kernels); counts around the vector widths and the
 * 2 KiB limit; aligned and unaligned displacements and a range across a
 * page; under a shared lock and an exclusive one; old values fetched by
 * MPI_Get_accumulate, some into the origin buffer itself (shmpi only, and
 * few_overlapping).  Each rank works on its own slice of the next rank's
 * window, so the expected values are known.  (MPICH 4.0 passes; Open MPI
 * 4.1's AVX op component saturates 8-bit sums, so MPI_SUM on MPI_INT8_T
 * fails there from 17 elements on, as it does in MPI_Reduce_local.)
 */
enum { FEW_SLICE = 12288 };

static void few_fill(MPI_Datatype t, int w, char *buf, int n, int seed)
{
	for (int k = 0; k < n; k++) {
		if (t == MPI_FLOAT) {
			float f = (float)(k * (seed + 1)) * 0.25f - 3.0f;

			memcpy(buf + k * w, &f, 4);
		} else if (t == MPI_DOUBLE) {
			double d = (double)(k * (seed + 1)) * 0.125 - 5.0;

			memcpy(buf + k * w, &d, 8);
		} else {
			for (int b = 0; b < w; b++)
				buf[k * w + b] = (char)(k * 31 + b * 7 + seed * 13 + 1);
		}
	}
}

/* y = x op y, element by element, as MPI defines the op on type t */
static void few_expect(MPI_Datatype t, int w, MPI_Op op, const char *x, char *y, int n)
{
	for (int k = 0; k < n; k++) {
		const char *xk = x + k * w;
		char *yk = y + k * w;

		if (op == MPI_NO_OP)
			continue;
		if (op == MPI_REPLACE) {
			memcpy(yk, xk, (size_t)w);
		} else if (t == MPI_FLOAT) {
			float a, b;

			memcpy(&a, xk, 4);
			memcpy(&b, yk, 4);
			b = op == MPI_SUM ? a + b : (a > b ? a : b);
			memcpy(yk, &b, 4);
		} else if (t == MPI_DOUBLE) {
			double a, b;

			memcpy(&a, xk, 8);
			memcpy(&b, yk, 8);
			b = op == MPI_SUM ? a + b : (a > b ? a : b);
			memcpy(yk, &b, 8);
		} else {
			uint64_t a = 0, b = 0, mask = w == 8 ? ~0ULL : (1ULL << (8 * w)) - 1;
			int64_t sa, sb;

			memcpy(&a, xk, (size_t)w);	/* little-endian */
			memcpy(&b, yk, (size_t)w);
			/* signed values for MAX: sign-extend from w bytes */
			sa = (int64_t)(a << (64 - 8 * w)) >> (64 - 8 * w);
			sb = (int64_t)(b << (64 - 8 * w)) >> (64 - 8 * w);
			if (op == MPI_SUM)
				b = (a + b) & mask;
			else if (op == MPI_BAND)
				b &= a;
			else if (op == MPI_BOR)
				b |= a;
			else if (op == MPI_BXOR)
				b ^= a;
			else	/* MPI_MAX on the signed types used below */
				b = (uint64_t)(sa > sb ? sa : sb) & mask;
			memcpy(yk, &b, (size_t)w);
		}
	}
}

/*
 * shmpi's extension: MPI_Get_accumulate with result and origin buffers that
 * overlap, by whole buffers and shifted either way, over more than the 4
 * KiB pieces that shmpi applies such a call in: the op applies the values
 * passed, and the result holds the values before.
 */
static void few_overlapping(MPI_Win win, int t)
{
	enum { N = 1500, SHIFT = 7 };	/* doubles: 12000 bytes */
	double *buf = malloc(sizeof(double) * (N + 2 * SHIFT)), *x = malloc(sizeof(double) * N);
	double *y0 = malloc(sizeof(double) * N), *got = malloc(sizeof(double) * N);
	const MPI_Aint d = (MPI_Aint)FEW_SLICE * rank;

	CHECK(buf && x && y0 && got && N * sizeof(double) <= FEW_SLICE);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	for (int shift = -SHIFT; shift <= SHIFT; shift += SHIFT) {
		double *in = buf + SHIFT, *res = buf + SHIFT + shift;

		for (int k = 0; k < N; k++) {
			x[k] = in[k] = k * 0.5 + shift;
			y0[k] = 3.0 * k - 1;
		}
		CHECK_MPI(MPI_Put(y0, N, MPI_DOUBLE, t, d, N, MPI_DOUBLE, win));
		CHECK_MPI(MPI_Win_flush(t, win));
		CHECK_MPI(MPI_Get_accumulate(in, N, MPI_DOUBLE, res, N, MPI_DOUBLE, t, d, N,
					     MPI_DOUBLE, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(t, win));
		CHECK_MPI(MPI_Get(got, N, MPI_DOUBLE, t, d, N, MPI_DOUBLE, win));
		CHECK_MPI(MPI_Win_flush(t, win));
		for (int k = 0; k < N; k++) {
			CHECK(res[k] == y0[k]);
			CHECK(got[k] == y0[k] + x[k]);
		}
	}
	CHECK_MPI(MPI_Win_unlock(t, win));
	free(buf);
	free(x);
	free(y0);
	free(got);
}

static void test_few(void)
{
	static const struct { MPI_Datatype t; int w, bits, sum; } types[] = {
		{ MPI_INT8_T, 1, 1, 1 }, { MPI_UNSIGNED_CHAR, 1, 1, 1 }, { MPI_BYTE, 1, 1, 0 },
		{ MPI_SHORT, 2, 1, 1 }, { MPI_INT, 4, 1, 1 }, { MPI_UNSIGNED, 4, 1, 1 },
		{ MPI_WCHAR, 4, 0, 0 }, { MPI_LONG, 8, 1, 1 }, { MPI_INT64_T, 8, 1, 1 },
		{ MPI_FLOAT, 4, 0, 1 }, { MPI_DOUBLE, 8, 0, 1 },
	};
	static const MPI_Op ops[] = { MPI_SUM, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_REPLACE,
				      MPI_NO_OP, MPI_MAX };
	static const int counts[] = { 1, 2, 3, 7, 8, 9, 17, 31, 64, 65, 256, 257 };
	/* byte offsets in the slice: aligned, unaligned, the last bytes of a page */
	static const int offs[] = { 0, 3, 4096 - 24 };
	const int t = (rank + 1) % size, nt = (int)(sizeof(types) / sizeof(types[0]));
	char *base, *x = malloc(4096), *y0 = malloc(4096), *want = malloc(4096);
	char *got = malloc(4096), *old = malloc(4096), lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int in_place, len;
	MPI_Win win;

	CHECK(x && y0 && want && got && old);
	/* MPI 3.1, section 11.3.4, wants the origin and result buffers
	 * disjoint; fetching into the origin buffer is shmpi's extension
	 * (README), which MPICH shares and Open MPI's osc sm does not */
	CHECK_MPI(MPI_Get_library_version(lib, &len));
	in_place = !strncmp(lib, "shmpi ", 6);
	/* each rank its own slice, which starts a page (the window's pages are
	 * pages of the target's window memory) */
	CHECK_MPI(tu_win_allocate((MPI_Aint)FEW_SLICE * size, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				  &base, &win));
	for (int excl = 0; excl < 2; excl++) {
		CHECK_MPI(MPI_Win_lock(excl ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, t, 0, win));
		for (int ti = 0; ti < nt; ti++) {
			MPI_Datatype ty = types[ti].t;
			int w = types[ti].w;

			for (int oi = 0; oi < (int)(sizeof(ops) / sizeof(ops[0])); oi++) {
				MPI_Op op = ops[oi];

				if ((op == MPI_SUM && !types[ti].sum) ||
				    ((op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) &&
				     !types[ti].bits) ||
				    (op == MPI_MAX && (!types[ti].sum || ty == MPI_UNSIGNED ||
						       ty == MPI_UNSIGNED_CHAR)))
					continue;
				for (int ci = 0; ci < (int)(sizeof(counts) / sizeof(counts[0])); ci++)
				for (int fi = 0; fi < (int)(sizeof(offs) / sizeof(offs[0])); fi++) {
					/* from 64 on, counts of 8 bytes: 512 B, 520 B,
					 * 2 KiB (shmpi's inline limit) and over */
					int n = counts[ci] * (counts[ci] >= 64 ? 8 / w : 1);
					MPI_Aint d = (MPI_Aint)FEW_SLICE * rank + offs[fi];
					int fetch = (ci + fi + oi) % 2 || op == MPI_NO_OP;

					few_fill(ty, w, y0, n, ci + fi);
					few_fill(ty, w, x, n, ti + oi + 5);
					memcpy(want, y0, (size_t)(n * w));
					few_expect(ty, w, op, x, want, n);
					CHECK_MPI(MPI_Put(y0, n * w, MPI_BYTE, t, d, n * w, MPI_BYTE,
							  win));
					CHECK_MPI(MPI_Win_flush(t, win));
					/* some fetch in place (shmpi only) */
					if (in_place && fetch && ci % 3 == 0 && op != MPI_NO_OP) {
						memcpy(old, x, (size_t)(n * w));
						CHECK_MPI(MPI_Get_accumulate(old, n, ty, old, n, ty, t,
									     d, n, ty, op, win));
					} else if (fetch)
						CHECK_MPI(MPI_Get_accumulate(x, n, ty, old, n, ty, t, d,
									     n, ty, op, win));
					else
						CHECK_MPI(MPI_Accumulate(x, n, ty, t, d, n, ty, op,
									 win));
					CHECK_MPI(MPI_Win_flush(t, win));
					CHECK_MPI(MPI_Get(got, n * w, MPI_BYTE, t, d, n * w, MPI_BYTE,
							  win));
					CHECK_MPI(MPI_Win_flush(t, win));
					if (memcmp(got, want, (size_t)(n * w)) ||
					    (fetch && memcmp(old, y0, (size_t)(n * w)))) {
						fprintf(stderr, "rank %d: type %d op %d count %d "
							"offset %d %s: wrong %s\n", rank, ti, oi, n,
							offs[fi], excl ? "exclusive" : "shared",
							memcmp(got, want, (size_t)(n * w)) ?
							"result" : "old values");
						CHECK(0);
					}
				}
			}
		}
		CHECK_MPI(MPI_Win_unlock(t, win));
	}
	if (in_place)
		few_overlapping(win, t);
	CHECK_MPI(MPI_Win_free(&win));
	free(x);
	free(y0);
	free(want);
	free(got);
	free(old);
}

/* Compare_and_swap loops on int and long: the values installed, once each. */
static void test_compare_and_swap(void)
{
	const long lfirst = (1L << 32) - 20000;
	const int ifirst = -20000;
	struct el { int i; int pad; long l; } *e;
	long long *si = malloc(sizeof(long long) * MAXR * 2), *sl = si + MAXR;
	int *counts = malloc(sizeof(int) * (size_t)size), n;
	long total;
	double end;
	MPI_Win win;

	CHECK(si && counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	e->i = ifirst;
	e->l = lfirst;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		int icur, inext, ires;
		long lcur, lnext, lres;

		CHECK_MPI(MPI_Fetch_and_op(NULL, &icur, MPI_INT, 0, offsetof(struct el, i),
					   MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		for (;;) {
			inext = icur + 1;
			CHECK_MPI(MPI_Compare_and_swap(&inext, &icur, &ires, MPI_INT, 0,
						       offsetof(struct el, i), win));
			CHECK_MPI(MPI_Win_flush(0, win));
			if (ires == icur)
				break;
			CHECK(ires > icur);	/* it only grows */
			icur = ires;
		}
		si[n] = icur;
		CHECK_MPI(MPI_Fetch_and_op(NULL, &lcur, MPI_LONG, 0, offsetof(struct el, l),
					   MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		for (;;) {
			lnext = lcur + 1;
			CHECK_MPI(MPI_Compare_and_swap(&lnext, &lcur, &lres, MPI_LONG, 0,
						       offsetof(struct el, l), win));
			CHECK_MPI(MPI_Win_flush(0, win));
			if (lres == lcur)
				break;
			CHECK(lres > lcur);
			lcur = lres;
		}
		sl[n] = lcur;
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_permutation(si, n, ifirst, "int compare_and_swap");
	check_permutation(sl, n, lfirst, "long compare_and_swap");
	total = counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(e->i == ifirst + total && e->l == lfirst + total);
	CHECK_MPI(MPI_Win_free(&win));
	free(si);
	free(counts);
}

/*
 * Compare-and-swap beyond the integers (README: an extension): counters
 * kept in a double, a long double whose padding the origins fill with
 * garbage (the value's bytes are compared, not the padding), and a double
 * complex at an odd address, each advanced by compare-and-swap loops of
 * every rank at once: the totals show that no swap was lost and none
 * failed forever.
 */
struct cas_el {
	double d;
	long double ld;
	char odd[1 + sizeof(double _Complex)];	/* the complex at odd + 1 */
};

/* One compare-and-swap loop: the element at disp goes from cur to cur + 1
 * (compared as values: a long double's padding bytes may differ). */
#define CAS_LOOP(T, type, disp, cur)                                            \
	do {                                                                    \
		T next_, res_;                                                  \
		for (;;) {                                                      \
			next_ = (cur) + 1;                                      \
			if ((type) == MPI_LONG_DOUBLE)                          \
				cas_scribble(&next_, &(cur));                   \
			CHECK_MPI(MPI_Compare_and_swap(&next_, &(cur), &res_, type, 0, \
						       disp, win));             \
			CHECK_MPI(MPI_Win_flush(0, win));                       \
			if (res_ == (cur))                                      \
				break;                                          \
			(cur) = res_;                                           \
		}                                                               \
	} while (0)

/* A long double's padding (x87: 6 of its 16 bytes) as garbage. */
static void cas_scribble(void *next, void *cur)
{
#if LDBL_MANT_DIG == 64
	memset((char *)next + 10, rank + 1, sizeof(long double) - 10);
	memset((char *)cur + 10, 0xee - rank, sizeof(long double) - 10);
#else
	(void)next;
	(void)cur;
#endif
}

static void test_cas_widths(void)
{
	const MPI_Aint dz = offsetof(struct cas_el, odd) + 1;
	struct cas_el *e;
	int *counts = malloc(sizeof(int) * (size_t)size), n;
	long total;
	double end;
	MPI_Win win;

	CHECK(counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e));
	e->d = -1e6;
	e->ld = 0.5L;
	{
		double _Complex z = 2.0 + 3.0 * _Complex_I;

		memcpy(e->odd + 1, &z, sizeof(z));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR / 4, end); n++) {
		double d;
		long double ld;
		double _Complex z;

		CHECK_MPI(MPI_Fetch_and_op(NULL, &d, MPI_DOUBLE, 0, offsetof(struct cas_el, d),
					   MPI_NO_OP, win));
		CHECK_MPI(MPI_Fetch_and_op(NULL, &ld, MPI_LONG_DOUBLE, 0,
					   offsetof(struct cas_el, ld), MPI_NO_OP, win));
		CHECK_MPI(MPI_Fetch_and_op(NULL, &z, MPI_C_DOUBLE_COMPLEX, 0, dz, MPI_NO_OP,
					   win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CAS_LOOP(double, MPI_DOUBLE, offsetof(struct cas_el, d), d);
		CAS_LOOP(long double, MPI_LONG_DOUBLE, offsetof(struct cas_el, ld), ld);
		CAS_LOOP(double _Complex, MPI_C_DOUBLE_COMPLEX, dz, z);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	total = counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		double _Complex z;

		memcpy(&z, e->odd + 1, sizeof(z));
		CHECK(e->d == -1e6 + (double)total);
		CHECK(e->ld == 0.5L + (long double)total);
		CHECK(creal(z) == 2.0 + (double)total && cimag(z) == 3.0);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(counts);
}

/* Pair types: the index encodes the value, so a torn pair shows. */
static int loc_index(int v, int who) { return (v + 1000) * 1000 + who; }

static int loc_value(int r, int who) { return (who * 37 + r * 11) % 101 - 50; }

static int loc_whole(int v, int i) { return i / 1000 - 1000 == v; }

struct di { double v; int i; };
struct li { long v; int i; };

/*
 * MAXLOC and MINLOC on MPI_2INT, MPI_DOUBLE_INT and MPI_LONG_INT under
 * contention (ties go to the lower index), and REPLACE of whole pairs with
 * NO_OP reads that must never see half of one pair and half of another.
 */
static void test_loc(void)
{
	struct el {
		int maxi[2];
		int mini[2];
		struct di maxd;
		struct di mind;
		struct li maxl;
		int rep[2];
		struct di repd;
	} *e;
	int wmax = INT_MIN, wmaxi = 0, wmin = INT_MAX, wmini = 0, n, *counts;
	double end;
	MPI_Win win;

	counts = malloc(sizeof(int) * (size_t)size);
	CHECK(counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	e->maxi[0] = -999;
	e->maxi[1] = loc_index(-999, 0);
	e->mini[0] = 999;
	e->mini[1] = loc_index(999, 0);
	e->maxd = (struct di){ -999 + 0.5, loc_index(-999, 0) };
	e->mind = (struct di){ 999 + 0.5, loc_index(999, 0) };
	e->maxl = (struct li){ -999L * (1L << 33), loc_index(-999, 0) };
	e->rep[0] = 0;
	e->rep[1] = loc_index(0, 0);
	e->repd = (struct di){ 0.5, loc_index(0, 0) };
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		int v = loc_value(n, rank), p[2] = { v, loc_index(v, rank) }, seen[2];
		struct di d = { v + 0.5, loc_index(v, rank) }, ds, dr;
		struct li l = { (long)v * (1L << 33), loc_index(v, rank) };

		CHECK_MPI(MPI_Accumulate(p, 1, MPI_2INT, 0, offsetof(struct el, maxi), 1, MPI_2INT,
					 MPI_MAXLOC, win));
		CHECK_MPI(MPI_Accumulate(p, 1, MPI_2INT, 0, offsetof(struct el, mini), 1, MPI_2INT,
					 MPI_MINLOC, win));
		CHECK_MPI(MPI_Get_accumulate(&d, 1, MPI_DOUBLE_INT, &ds, 1, MPI_DOUBLE_INT, 0,
					     offsetof(struct el, maxd), 1, MPI_DOUBLE_INT,
					     MPI_MAXLOC, win));
		CHECK_MPI(MPI_Accumulate(&d, 1, MPI_DOUBLE_INT, 0, offsetof(struct el, mind), 1,
					 MPI_DOUBLE_INT, MPI_MINLOC, win));
		CHECK_MPI(MPI_Accumulate(&l, 1, MPI_LONG_INT, 0, offsetof(struct el, maxl), 1,
					 MPI_LONG_INT, MPI_MAXLOC, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_2INT, seen, 1, MPI_2INT, 0,
					     offsetof(struct el, maxi), 1, MPI_2INT, MPI_NO_OP,
					     win));
		CHECK_MPI(MPI_Win_flush(0, win));
		/* the maximum never decreases below ours */
		CHECK(loc_whole(seen[0], seen[1]) && seen[0] >= v);
		CHECK(loc_whole((int)(ds.v - 0.5), ds.i));
		/* whole pairs replaced and read */
		CHECK_MPI(MPI_Accumulate(p, 1, MPI_2INT, 0, offsetof(struct el, rep), 1, MPI_2INT,
					 MPI_REPLACE, win));
		CHECK_MPI(MPI_Get_accumulate(&d, 1, MPI_DOUBLE_INT, &dr, 1, MPI_DOUBLE_INT, 0,
					     offsetof(struct el, repd), 1, MPI_DOUBLE_INT,
					     MPI_REPLACE, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_2INT, seen, 1, MPI_2INT, 0,
					     offsetof(struct el, rep), 1, MPI_2INT, MPI_NO_OP,
					     win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK(loc_whole(seen[0], seen[1]));
		CHECK(loc_whole((int)(dr.v - 0.5), dr.i));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	counts_of(n, counts);
	for (int q = 0; q < size; q++)
		for (int r = 0; r < counts[q]; r++) {
			int v = loc_value(r, q), i = loc_index(v, q);

			if (v > wmax || (v == wmax && i < wmaxi)) {
				wmax = v;
				wmaxi = i;
			}
			if (v < wmin || (v == wmin && i < wmini)) {
				wmin = v;
				wmini = i;
			}
		}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK(e->maxi[0] == wmax && e->maxi[1] == wmaxi);
		CHECK(e->mini[0] == wmin && e->mini[1] == wmini);
		CHECK(e->maxd.v == wmax + 0.5 && e->maxd.i == wmaxi);
		CHECK(e->mind.v == wmin + 0.5 && e->mind.i == wmini);
		CHECK(e->maxl.v == (long)wmax * (1L << 33) && e->maxl.i == wmaxi);
		CHECK(loc_whole(e->rep[0], e->rep[1]));
		CHECK(loc_whole((int)(e->repd.v - 0.5), e->repd.i));
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(counts);
}

/* splitmix64: operands that make every value of the chain distinct */
static uint64_t mix64(uint64_t x)
{
	return tu_splitmix(&x);
}

/* The rounds in which a rank toggles its bit of the second element. */
static int toggles_at(int r) { return r % 7 == 0; }

static int cmp_u64_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Index of the pair whose first member is v in sorted pairs, or -1. */
static long find_old(const uint64_t *pairs, long m, uint64_t v)
{
	long lo = 0, hi = m;

	while (lo < hi) {
		long mid = (lo + hi) / 2;

		if (pairs[2 * mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m && pairs[2 * lo] == v ? lo : -1;
}

/*
 * SUM, BXOR, REPLACE and NO_OP through Fetch_and_op on one 64-bit element.
 * Each mutating op turns the old value it fetched into a new one we can
 * compute; with all of them atomic the (old, new) pairs form one chain from
 * the initial value to the final one, each rank's own operations in order
 * along it, and every NO_OP read is a value of the chain.  A lost update
 * forks the chain, a torn one leaves a value nobody made.
 * A second element mixes Accumulate SUM, Get_accumulate SUM, Fetch_and_op
 * BXOR (each rank toggles its own bit in the upper half) and NO_OP reads:
 * the low half counts the sums, the high half the toggles.
 */
static void test_mixed_ops(void)
{
	const uint64_t init = 0x0123456789abcdefull;
	const MPI_Op ops[4] = { MPI_SUM, MPI_BXOR, MPI_REPLACE, MPI_NO_OP };
	/* per round: op index, old, new (or the value read) */
	uint64_t *rec = malloc(sizeof(uint64_t) * 3 * MAXR), *all = NULL, *pairs = NULL,
		 *chain = NULL;
	uint64_t *e, fin;
	int *counts = malloc(sizeof(int) * (size_t)size), *c3 = NULL, *displs = NULL, n;
	long toggles = 0, last_low = 0, total;
	double end;
	MPI_Win win;

	CHECK(rec && counts);
	CHECK_MPI(tu_win_allocate(2 * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &e, &win));
	e[0] = init;
	e[1] = 0;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		int k = (rank + n) % 4;
		uint64_t x = mix64((uint64_t)rank << 32 | (uint64_t)n), old, nw;
		long one = 1, bit = 1L << (32 + rank % 31), seen;

		CHECK_MPI(MPI_Fetch_and_op(&x, &old, MPI_UNSIGNED_LONG, 0, 0, ops[k], win));
		/* the second element */
		CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_LONG, &seen, 1, MPI_LONG, 0, 1, 1,
					     MPI_LONG, MPI_SUM, win));
		if (toggles_at(n)) {
			CHECK_MPI(MPI_Fetch_and_op(&bit, &seen, MPI_LONG, 0, 1, MPI_BXOR, win));
			toggles++;
		}
		CHECK_MPI(MPI_Fetch_and_op(NULL, &seen, MPI_LONG, 0, 1, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		nw = k == 0 ? old + x : k == 1 ? old ^ x : k == 2 ? x : old;
		rec[3 * n] = (uint64_t)k;
		rec[3 * n + 1] = old;
		rec[3 * n + 2] = nw;
		/* the low half only grows; our bit is what our toggles made it */
		CHECK((seen & 0xffffffffL) >= last_low + 2);
		CHECK((seen & 0xffffffffL) <= 2L * MAXR * size);
		CHECK(size > 31 || !!(seen & bit) == (int)(toggles & 1));
		last_low = seen & 0xffffffffL;
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	total = counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		all = malloc(sizeof(uint64_t) * 3 * (size_t)total);
		pairs = malloc(sizeof(uint64_t) * 2 * (size_t)total);
		chain = malloc(sizeof(uint64_t) * 2 * ((size_t)total + 1));
		c3 = malloc(sizeof(int) * (size_t)size);
		displs = malloc(sizeof(int) * (size_t)size);
		CHECK(all && pairs && chain && c3 && displs);
		for (int q = 0; q < size; q++) {
			c3[q] = 3 * counts[q];
			displs[q] = q ? displs[q - 1] + c3[q - 1] : 0;
		}
	}
	CHECK_MPI(MPI_Gatherv(rec, 3 * n, MPI_UNSIGNED_LONG, all, c3, displs,
			      MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		long m = 0, steps = 0, j = 0;
		uint64_t cur = init, bits = 0;

		fin = e[0];
		for (long i = 0; i < total; i++)
			if (all[3 * i] != 3) {
				pairs[2 * m] = all[3 * i + 1];
				pairs[2 * m + 1] = all[3 * i + 2];
				m++;
			}
		qsort(pairs, (size_t)m, 2 * sizeof(uint64_t), cmp_u64_pair);
		for (long i = 1; i < m; i++)
			CHECK(pairs[2 * i] != pairs[2 * (i - 1)]);	/* a fork: lost update */
		/* walk the chain: value k is the one the k-th update made */
		chain[0] = init;
		chain[1] = 0;
		while (steps < m && (j = find_old(pairs, m, cur)) >= 0) {
			cur = pairs[2 * j + 1];
			steps++;
			chain[2 * steps] = cur;
			chain[2 * steps + 1] = (uint64_t)steps;
		}
		CHECK(steps == m);
		CHECK(cur == fin);
		/* every read, and every op's old value, is a value of the chain;
		 * each rank's operations advance along it in program order */
		qsort(chain, (size_t)m + 1, 2 * sizeof(uint64_t), cmp_u64_pair);
		for (long i = 1; i <= m; i++)
			CHECK(chain[2 * i] != chain[2 * (i - 1)]);
		for (int q = 0, at = 0; q < size; at += counts[q], q++) {
			long minpos = 0;

			for (int r = 0; r < counts[q]; r++) {
				uint64_t *x = &all[3 * ((long)at + r)];
				long k = find_old(chain, m + 1, x[1]), p;

				CHECK(k >= 0);
				p = (long)chain[2 * k + 1];
				/* after a read at p the next op is at p or later,
				 * after an update at p at p + 1 or later */
				CHECK(p >= minpos);
				minpos = x[0] == 3 ? p : p + 1;
			}
		}
		for (int q = 0; q < size; q++) {
			long t = 0;

			for (int r = 0; r < counts[q]; r++)
				t += toggles_at(r);
			if (t & 1)
				bits |= 1ull << (32 + q % 31);
		}
		if (size <= 31)
			CHECK(e[1] == (bits | (uint64_t)(2 * total)));
		free(all);
		free(pairs);
		free(chain);
		free(c3);
		free(displs);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(rec);
	free(counts);
}

/*
 * Other widths: ranks updating neighbouring bytes and shorts of one word
 * (a read-modify-write of the whole word would lose their updates), a
 * 16-bit counter, a double complex whose imaginary part is twice its real
 * part (a torn 16-byte update breaks that), a long double counter.
 */
static void test_widths(void)
{
	const int max = 30000 / size;	/* the 16-bit counter holds them all */
	struct el {
		unsigned char b[16];
		short s[16];
		short counter;
		short pad[3];
		double _Complex z;
		long double ld;
	} *e;
	long long *os = malloc(sizeof(long long) * 3 * (size_t)max), *oz = os + max,
		  *old = os + 2 * max;
	const short sfirst = -15000;
	int *counts = malloc(sizeof(int) * (size_t)size), n;
	long total;
	double end;
	MPI_Win win;

	CHECK(os && counts);
	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e));
	e->counter = sfirst;
	e->z = 0;
	e->ld = 0;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, max, end); n++) {
		unsigned char one = 1, ob;
		short sone = 1, sc;
		double _Complex zinc = 1.0 + 2.0 * _Complex_I, zo;
		long double lone = 1.0L, lo;

		CHECK_MPI(MPI_Fetch_and_op(&one, &ob, MPI_UNSIGNED_CHAR, 0,
					   offsetof(struct el, b) + rank % 16, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(&sone, 1, MPI_SHORT, 0,
					 offsetof(struct el, s) + 2 * (rank % 16), 1, MPI_SHORT,
					 MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&sone, &sc, MPI_SHORT, 0, offsetof(struct el, counter),
					   MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&zinc, &zo, MPI_C_DOUBLE_COMPLEX, 0,
					   offsetof(struct el, z), MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&lone, &lo, MPI_LONG_DOUBLE, 0, offsetof(struct el, ld),
					   MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		if (size <= 16)
			CHECK(ob == (unsigned char)n);	/* nobody else touches our byte */
		os[n] = sc;
		oz[n] = (long long)__real__ zo;
		CHECK(__imag__ zo == 2 * __real__ zo);
		old[n] = (long long)lo;
		CHECK(lo == (long double)old[n]);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_permutation(os, n, sfirst, "short fetch_and_op");
	check_permutation(oz, n, 0, "double complex fetch_and_op");
	check_permutation(old, n, 0, "long double fetch_and_op");
	total = counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		for (int k = 0; k < 16; k++) {
			long owned = 0;

			for (int q = k; q < size; q += 16)
				owned += counts[q];
			CHECK(e->b[k] == (unsigned char)owned);
			CHECK(e->s[k] == (short)owned);
		}
		CHECK(e->counter == sfirst + total);
		CHECK(__real__ e->z == (double)total && __imag__ e->z == 2.0 * total);
		CHECK(e->ld == (long double)total);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(os);
	free(counts);
}

/*
 * accumulate_ordering defaults to rar,raw,war,waw: accumulate-family
 * operations of one origin on one element happen in program order, with
 * no flush between them, whatever the op and the type's atomic path.
 */
static void test_ordering(void)
{
	struct el { long l; long double ld; struct di p; } *e;
	const MPI_Aint me = rank * (MPI_Aint)sizeof(*e);
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(sizeof(*e) * (size_t)size, 1, MPI_INFO_NULL,
				   MPI_COMM_WORLD, &e, &win));
	memset(e, 0, sizeof(*e) * (size_t)size);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int r = 0; r < 2000; r++) {
		/* element `rank` of target t: only this rank touches it */
		const int t = (rank + r) % size;
		const MPI_Aint dl = me + offsetof(struct el, l),
			       dld = me + offsetof(struct el, ld),
			       dp = me + offsetof(struct el, p);
		long a = r * 100L + rank + 1, seven = 7, c = -a, b = 0x5a5a0000L + r, o1, o2,
		     o3, o4;
		long double la = a, half = 0.5L, lo = 0;
		struct di pa = { a + 0.25, rank }, pb = { a - 1.0, 99 }, po = { 0, 0 };

		CHECK_MPI(MPI_Accumulate(&a, 1, MPI_LONG, t, dl, 1, MPI_LONG, MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(&seven, 1, MPI_LONG, t, dl, 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&c, &o1, MPI_LONG, t, dl, MPI_REPLACE, win));
		CHECK_MPI(MPI_Fetch_and_op(&b, &o2, MPI_LONG, t, dl, MPI_BXOR, win));
		long cb = c ^ b;

		CHECK_MPI(MPI_Compare_and_swap(&a, &cb, &o3, MPI_LONG, t, dl, win));
		CHECK_MPI(MPI_Fetch_and_op(NULL, &o4, MPI_LONG, t, dl, MPI_NO_OP, win));
		CHECK_MPI(MPI_Accumulate(&la, 1, MPI_LONG_DOUBLE, t, dld, 1, MPI_LONG_DOUBLE,
					 MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(&half, 1, MPI_LONG_DOUBLE, t, dld, 1, MPI_LONG_DOUBLE,
					 MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_LONG_DOUBLE, &lo, 1, MPI_LONG_DOUBLE, t,
					     dld, 1, MPI_LONG_DOUBLE, MPI_NO_OP, win));
		CHECK_MPI(MPI_Accumulate(&pa, 1, MPI_DOUBLE_INT, t, dp, 1, MPI_DOUBLE_INT,
					 MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(&pb, 1, MPI_DOUBLE_INT, t, dp, 1, MPI_DOUBLE_INT,
					 MPI_MAXLOC, win));
		CHECK_MPI(MPI_Accumulate(&pb, 1, MPI_DOUBLE_INT, t, dp, 1, MPI_DOUBLE_INT,
					 MPI_MINLOC, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DOUBLE_INT, &po, 1, MPI_DOUBLE_INT, t,
					     dp, 1, MPI_DOUBLE_INT, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(t, win));
		CHECK(o1 == a + 7 && o2 == c && o3 == cb && o4 == a);
		CHECK(lo == la + 0.5L);
		CHECK(po.v == pb.v && po.i == pb.i);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * The other predefined types and ops, on self and neighbour: each
 * combination the standard allows gives the standard's result.
 * Compare_and_swap on every integer width, MPI_BYTE, MPI_C_BOOL and
 * MPI_AINT; logical ops on MPI_C_BOOL; bit ops on MPI_BYTE; PROD, MIN, MAX;
 * MAXLOC and MINLOC on all six pair types with a count of two (so each
 * pair's extent counts); REPLACE on complex and long double.
 */
struct si { short v; int i; };
struct fi { float v; int i; };
struct ldi { long double v; int i; };

static void test_types(void)
{
	struct el {
		signed char c; unsigned char b; _Bool bo; char pad0;
		short s; unsigned short us; int i; unsigned u;
		long l; unsigned long long ull; MPI_Aint ai; int64_t i64;
		int prod; float fmin; double dmax; unsigned band; unsigned bor;
		struct si sp[2]; struct fi fp[2]; struct li lp[2]; struct di dp[2];
		struct ldi ldp[2]; int ip[2][2];
		float _Complex fz; long double ld; long double _Complex lz;
		_Bool land, lor, lxor;
	} *e, *me;
	const int t = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Win win;

	CHECK_MPI(tu_win_allocate(sizeof(*e), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e, &win));
	me = e;
	memset(me, 0, sizeof(*me));
	me->c = -7; me->b = 0xf0; me->bo = 1; me->s = -300; me->us = 60000; me->i = -5;
	me->u = 4000000000u; me->l = -(1L << 40); me->ull = 1ull << 63; me->ai = 4096;
	me->i64 = INT64_MIN + 1; me->prod = 3; me->fmin = 1.5f; me->dmax = -2.5;
	me->band = 0xff00ff00u; me->bor = 0x0f0f0000u;
	for (int k = 0; k < 2; k++) {
		me->sp[k] = (struct si){ 10, 500 };
		me->fp[k] = (struct fi){ 10.0f, 500 };
		me->lp[k] = (struct li){ 10, 500 };
		me->dp[k] = (struct di){ 10.0, 500 };
		me->ldp[k] = (struct ldi){ 10.0L, 500 };
		me->ip[k][0] = 10;
		me->ip[k][1] = 500;
	}
	me->land = 1; me->lor = 0; me->lxor = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	/* compare and swap: a mismatch leaves the value, a match swaps it */
#define CAS(field, type, newv, wrongv)                                          \
	do {                                                                    \
		__typeof__(e->field) nv = (newv), bad = (wrongv), r1, r2, cmp;  \
		MPI_Aint d = offsetof(struct el, field);                        \
		CHECK_MPI(MPI_Compare_and_swap(&nv, &bad, &r1, type, t, d, win)); \
		CHECK_MPI(MPI_Win_flush(t, win));                               \
		cmp = r1;                                                       \
		CHECK_MPI(MPI_Compare_and_swap(&nv, &cmp, &r2, type, t, d, win)); \
		CHECK_MPI(MPI_Win_flush(t, win));                               \
		CHECK(r2 == r1);                                                \
	} while (0)
	CAS(c, MPI_SIGNED_CHAR, 11, 12);
	CAS(b, MPI_BYTE, 0x0f, 0x10);
	CAS(bo, MPI_C_BOOL, 0, 0);
	CAS(s, MPI_SHORT, 301, 302);
	CAS(us, MPI_UNSIGNED_SHORT, 7, 8);
	CAS(i, MPI_INT, 5, 6);
	CAS(u, MPI_UNSIGNED, 9, 10);
	CAS(l, MPI_LONG, 1L << 41, 3);
	CAS(ull, MPI_UNSIGNED_LONG_LONG, 5, 6);
	CAS(ai, MPI_AINT, 8192, 1);
	CAS(i64, MPI_INT64_T, INT64_MAX, 0);
	/* the other ops */
	{
		int three = 3;
		float f = 0.5f;
		double dm = 7.25;
		unsigned m1 = 0x0ff00ff0u, m2 = 0x000000ffu;
		unsigned char x = 0xff;
		_Bool tr = 1, fa = 0;
		float _Complex fz = 1.0f - 2.0f * _Complex_I;
		long double ld = 1.0L / 3;
		long double _Complex lz = 2.0L + 3.0L * _Complex_I;

		CHECK_MPI(MPI_Accumulate(&three, 1, MPI_INT, t, offsetof(struct el, prod), 1,
					 MPI_INT, MPI_PROD, win));
		CHECK_MPI(MPI_Accumulate(&f, 1, MPI_FLOAT, t, offsetof(struct el, fmin), 1,
					 MPI_FLOAT, MPI_MIN, win));
		CHECK_MPI(MPI_Accumulate(&dm, 1, MPI_DOUBLE, t, offsetof(struct el, dmax), 1,
					 MPI_DOUBLE, MPI_MAX, win));
		CHECK_MPI(MPI_Accumulate(&m1, 1, MPI_UNSIGNED, t, offsetof(struct el, band), 1,
					 MPI_UNSIGNED, MPI_BAND, win));
		CHECK_MPI(MPI_Accumulate(&m2, 1, MPI_UNSIGNED, t, offsetof(struct el, bor), 1,
					 MPI_UNSIGNED, MPI_BOR, win));
		CHECK_MPI(MPI_Accumulate(&x, 1, MPI_BYTE, t, offsetof(struct el, b), 1, MPI_BYTE,
					 MPI_BXOR, win));
		CHECK_MPI(MPI_Accumulate(&fa, 1, MPI_C_BOOL, t, offsetof(struct el, land), 1,
					 MPI_C_BOOL, MPI_LAND, win));
		CHECK_MPI(MPI_Accumulate(&tr, 1, MPI_C_BOOL, t, offsetof(struct el, lor), 1,
					 MPI_C_BOOL, MPI_LOR, win));
		CHECK_MPI(MPI_Accumulate(&tr, 1, MPI_C_BOOL, t, offsetof(struct el, lxor), 1,
					 MPI_C_BOOL, MPI_LXOR, win));
		CHECK_MPI(MPI_Accumulate(&fz, 1, MPI_C_FLOAT_COMPLEX, t, offsetof(struct el, fz),
					 1, MPI_C_FLOAT_COMPLEX, MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(&ld, 1, MPI_LONG_DOUBLE, t, offsetof(struct el, ld), 1,
					 MPI_LONG_DOUBLE, MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(&lz, 1, MPI_C_LONG_DOUBLE_COMPLEX, t,
					 offsetof(struct el, lz), 1, MPI_C_LONG_DOUBLE_COMPLEX,
					 MPI_SUM, win));
	}
	/* pairs, two of each: the first wins with MAXLOC (bigger value), the
	 * second with MINLOC (equal value, smaller index) */
	{
		struct si sp[2] = { { 11, 7 }, { 10, 3 } };
		struct fi fp[2] = { { 11, 7 }, { 10, 3 } };
		struct li lp[2] = { { 11, 7 }, { 10, 3 } };
		struct di dp[2] = { { 11, 7 }, { 10, 3 } };
		struct ldi ldp[2] = { { 11, 7 }, { 10, 3 } };
		int ip[2][2] = { { 11, 7 }, { 10, 3 } };

		for (int op = 0; op < 2; op++) {
			MPI_Op o = op ? MPI_MINLOC : MPI_MAXLOC;

			/* MAXLOC into element 0 only, MINLOC into element 1 only */
			CHECK_MPI(MPI_Accumulate(&sp[op], 1, MPI_SHORT_INT, t,
						 offsetof(struct el, sp) + op * sizeof(struct si),
						 1, MPI_SHORT_INT, o, win));
			CHECK_MPI(MPI_Accumulate(&fp[op], 1, MPI_FLOAT_INT, t,
						 offsetof(struct el, fp) + op * sizeof(struct fi),
						 1, MPI_FLOAT_INT, o, win));
			CHECK_MPI(MPI_Accumulate(&lp[op], 1, MPI_LONG_INT, t,
						 offsetof(struct el, lp) + op * sizeof(struct li),
						 1, MPI_LONG_INT, o, win));
			CHECK_MPI(MPI_Accumulate(&dp[op], 1, MPI_DOUBLE_INT, t,
						 offsetof(struct el, dp) + op * sizeof(struct di),
						 1, MPI_DOUBLE_INT, o, win));
			CHECK_MPI(MPI_Accumulate(&ldp[op], 1, MPI_LONG_DOUBLE_INT, t,
						 offsetof(struct el, ldp) + op * sizeof(struct ldi),
						 1, MPI_LONG_DOUBLE_INT, o, win));
			CHECK_MPI(MPI_Accumulate(ip[op], 1, MPI_2INT, t,
						 offsetof(struct el, ip) + op * 2 * sizeof(int), 1,
						 MPI_2INT, o, win));
		}
		/* and count 2 with MAXLOC over both: element 0 keeps 11, element
		 * 1 (10, 3) against (10, 3): unchanged */
		CHECK_MPI(MPI_Accumulate(sp, 2, MPI_SHORT_INT, t, offsetof(struct el, sp), 2,
					 MPI_SHORT_INT, MPI_MAXLOC, win));
		CHECK_MPI(MPI_Accumulate(ldp, 2, MPI_LONG_DOUBLE_INT, t, offsetof(struct el, ldp),
					 2, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, win));
	}
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* what `from` did to this rank's window */
	(void)from;
	CHECK(me->c == 11 && me->b == (0x0f ^ 0xff) && me->bo == 0 && me->s == 301 &&
	      me->us == 7 && me->i == 5 && me->u == 9 && me->l == 1L << 41 && me->ull == 5 &&
	      me->ai == 8192 && me->i64 == INT64_MAX);
	CHECK(me->prod == 9 && me->fmin == 0.5f && me->dmax == 7.25);
	CHECK(me->band == (0xff00ff00u & 0x0ff00ff0u) && me->bor == (0x0f0f0000u | 0xffu));
	CHECK(me->land == 0 && me->lor == 1 && me->lxor == 1);
	CHECK(me->fz == 1.0f - 2.0f * _Complex_I && me->ld == 1.0L / 3);
	CHECK(me->lz == 2.0L + 3.0L * _Complex_I);
	CHECK(me->sp[0].v == 11 && me->sp[0].i == 7 && me->sp[1].v == 10 && me->sp[1].i == 3);
	CHECK(me->fp[0].v == 11 && me->fp[0].i == 7 && me->fp[1].v == 10 && me->fp[1].i == 3);
	CHECK(me->lp[0].v == 11 && me->lp[0].i == 7 && me->lp[1].v == 10 && me->lp[1].i == 3);
	CHECK(me->dp[0].v == 11 && me->dp[0].i == 7 && me->dp[1].v == 10 && me->dp[1].i == 3);
	CHECK(me->ldp[0].v == 11 && me->ldp[0].i == 7 && me->ldp[1].v == 10 &&
	      me->ldp[1].i == 3);
	CHECK(me->ip[0][0] == 11 && me->ip[0][1] == 7 && me->ip[1][0] == 10 &&
	      me->ip[1][1] == 3);
	CHECK_MPI(MPI_Win_free(&win));
}

/*
 * Derived datatypes on origin and target under contention: a strided
 * origin vector into a differently strided target vector, everybody on the
 * same elements; the gaps stay untouched.  Then REPLACE through a vector
 * that interleaves the ranks' elements, and a Get_accumulate whose result
 * type is a vector too.
 */
static void test_derived(void)
{
	enum { BLOCKS = 4, BLEN = 2, OSTRIDE = 3, TSTRIDE = 5, TLEN = BLOCKS * TSTRIDE };
	int *base, ov[BLOCKS * OSTRIDE], res[BLOCKS * OSTRIDE], n, *counts;
	MPI_Datatype ot, tt, it;
	MPI_Win win;
	int len = TLEN + 4 * size + 8;
	long want = 0;
	double end;

	counts = malloc(sizeof(int) * (size_t)size);
	CHECK(counts);
	CHECK_MPI(MPI_Type_vector(BLOCKS, BLEN, OSTRIDE, MPI_INT, &ot));
	CHECK_MPI(MPI_Type_vector(BLOCKS, BLEN, TSTRIDE, MPI_INT, &tt));
	CHECK_MPI(MPI_Type_vector(4, 1, size, MPI_INT, &it));
	CHECK_MPI(MPI_Type_commit(&ot));
	CHECK_MPI(MPI_Type_commit(&tt));
	CHECK_MPI(MPI_Type_commit(&it));
	CHECK_MPI(tu_win_allocate((MPI_Aint)len * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	for (int i = 0; i < len; i++)
		base[i] = -1;
	for (int i = 0; i < BLOCKS * OSTRIDE; i++)
		/* the gaps are never sent */
		ov[i] = i % OSTRIDE < BLEN ? (rank + 1) * (i + 1) : 1000000;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++)
		CHECK_MPI(MPI_Accumulate(ov, 1, ot, 0, 0, 1, tt, MPI_SUM, win));
	/* interleaved REPLACE: element TLEN + q + size * j belongs to rank q */
	int mine[4] = { rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3 };

	CHECK_MPI(MPI_Accumulate(mine, 4, MPI_INT, 0, TLEN + rank, 1, it, MPI_REPLACE, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	counts_of(n, counts);
	for (int q = 0; q < size; q++)
		want += (q + 1) * (long)counts[q];
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		for (int b = 0; b < BLOCKS; b++)
			for (int j = 0; j < TSTRIDE; j++) {
				int t = base[b * TSTRIDE + j];

				if (j < BLEN)
					CHECK(t == -1 + want * (b * OSTRIDE + j + 1));
				else
					CHECK(t == -1);
			}
		for (int q = 0; q < size; q++)
			for (int j = 0; j < 4; j++)
				CHECK(base[TLEN + q + size * j] == q * 10 + j);
		CHECK(base[TLEN + 4 * size] == -1);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* Get_accumulate (NO_OP) into a strided result buffer */
	for (int i = 0; i < BLOCKS * OSTRIDE; i++)
		res[i] = -5;
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
	CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, res, 1, ot, 0, 0, 1, tt, MPI_NO_OP,
				     win));
	CHECK_MPI(MPI_Win_unlock(0, win));
	for (int b = 0; b < BLOCKS; b++)
		for (int j = 0; j < OSTRIDE; j++) {
			int t = res[b * OSTRIDE + j];

			if (j < BLEN)
				CHECK(t == -1 + want * (b * OSTRIDE + j + 1));
			else
				CHECK(t == -5);
		}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Type_free(&ot));
	CHECK_MPI(MPI_Type_free(&tt));
	CHECK_MPI(MPI_Type_free(&it));
	free(counts);
}

/*
 * MPI_SUM on MPI_CHAR, accepted and computed as signed char (wrapping),
 * under contention; MAX and MIN on MPI_CHAR and MPI_SIGNED_CHAR compare
 * signed.
 */
static void test_char(void)
{
	signed char *c, m3 = -3, m5 = -5, p100 = 100, got;
	int *counts = malloc(sizeof(int) * (size_t)size), n;
	long total;
	double end;
	MPI_Win win;

	CHECK(counts);
	CHECK_MPI(tu_win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c, &win));
	memset(c, 0, 8);
	c[1] = -100;
	c[3] = -100;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	end = hammer_start();
	for (n = 0; more(n, MAXR, end); n++) {
		CHECK_MPI(MPI_Accumulate(&m3, 1, MPI_CHAR, 0, 0, 1, MPI_CHAR, MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(&m5, &got, MPI_CHAR, 0, 0, MPI_SUM, win));
	}
	CHECK_MPI(MPI_Accumulate(rank % 2 ? &m5 : &p100, 1, MPI_SIGNED_CHAR, 0, 1, 1,
				 MPI_SIGNED_CHAR, MPI_MAX, win));
	CHECK_MPI(MPI_Accumulate(rank % 2 ? &m5 : &p100, 1, MPI_SIGNED_CHAR, 0, 2, 1,
				 MPI_SIGNED_CHAR, MPI_MIN, win));
	CHECK_MPI(MPI_Accumulate(rank % 2 ? &m5 : &p100, 1, MPI_CHAR, 0, 3, 1, MPI_CHAR,
				 MPI_MAX, win));
	CHECK_MPI(MPI_Accumulate(rank % 2 ? &m5 : &p100, 1, MPI_CHAR, 0, 4, 1, MPI_CHAR,
				 MPI_MIN, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	/* the same under an exclusive lock (where plain kernels may run) */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
	CHECK_MPI(MPI_Accumulate(&m3, 1, MPI_CHAR, 0, 5, 1, MPI_CHAR, MPI_SUM, win));
	CHECK_MPI(MPI_Fetch_and_op(&m5, &got, MPI_CHAR, 0, 5, MPI_SUM, win));
	CHECK_MPI(MPI_Accumulate(rank % 2 ? &m5 : &p100, 1, MPI_CHAR, 0, 6, 1, MPI_CHAR,
				 MPI_MIN, win));
	CHECK_MPI(MPI_Win_unlock(0, win));
	total = -8 * counts_of(n, counts);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK((unsigned char)c[0] == (unsigned char)(((total % 256) + 256) % 256));
		CHECK(c[1] == 100 && c[3] == 100);
		CHECK(c[2] == (size > 1 ? -5 : 0) && c[4] == (size > 1 ? -5 : 0));
		CHECK(c[5] == (signed char)(-8 * size) && c[6] == (size > 1 ? -5 : 0));
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(counts);
}

/*
 * Zero count or zero-size datatypes: every call succeeds and touches
 * nothing, whatever the buffers, types and displacement; MPI_PROC_NULL as
 * target is a no-op too.  Under lock_all and under fence.
 */
static void test_zero(void)
{
	MPI_Datatype empty;
	MPI_Request rq[4];
	int *base, t = (rank + 1) % size, junk = 99;
	MPI_Win win;

	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
	CHECK_MPI(MPI_Type_commit(&empty));
	CHECK_MPI(tu_win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	for (int i = 0; i < 4; i++)
		base[i] = 40 + i;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			CHECK_MPI(MPI_Win_lock_all(0, win));
		else
			CHECK_MPI(MPI_Win_fence(0, win));
		CHECK_MPI(MPI_Put(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, win));
		CHECK_MPI(MPI_Put(&junk, 0, MPI_INT, t, 1000, 0, MPI_DOUBLE, win));
		CHECK_MPI(MPI_Put(&junk, 3, empty, t, 0, 5, empty, win));
		CHECK_MPI(MPI_Get(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, win));
		CHECK_MPI(MPI_Get(&junk, 2, empty, t, 1000, 0, MPI_INT, win));
		CHECK_MPI(MPI_Accumulate(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(&junk, 0, MPI_INT, t, 1000, 0, MPI_DOUBLE, MPI_SUM,
					 win));
		CHECK_MPI(MPI_Accumulate(&junk, 4, empty, t, 0, 4, empty, MPI_REPLACE, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, NULL, 0, MPI_INT, t, 0, 0,
					     MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(&junk, 0, MPI_INT, &junk, 0, MPI_INT, t, 2000, 0,
					     MPI_INT, MPI_NO_OP, win));
		if (pass == 0) {	/* request-based calls: passive target only */
			CHECK_MPI(MPI_Rput(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, win, &rq[0]));
			CHECK_MPI(MPI_Rget(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, win, &rq[1]));
			CHECK_MPI(MPI_Raccumulate(NULL, 0, MPI_INT, t, 0, 0, MPI_INT, MPI_SUM,
						  win, &rq[2]));
			CHECK_MPI(MPI_Rget_accumulate(NULL, 0, MPI_INT, NULL, 0, MPI_INT, t, 0,
						      0, MPI_INT, MPI_SUM, win, &rq[3]));
			CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
			CHECK_MPI(MPI_Rput(&junk, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win,
					   &rq[0]));
			CHECK_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
		}
		/* MPI_PROC_NULL: no effect, whatever the count */
		CHECK_MPI(MPI_Put(&junk, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Get(&junk, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Accumulate(&junk, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM,
					 win));
		CHECK_MPI(MPI_Fetch_and_op(&junk, &junk, MPI_INT, MPI_PROC_NULL, 0, MPI_SUM,
					   win));
		CHECK_MPI(MPI_Compare_and_swap(&junk, &junk, &junk, MPI_INT, MPI_PROC_NULL, 0,
					       win));
		if (pass == 0)
			CHECK_MPI(MPI_Win_unlock_all(win));
		else
			CHECK_MPI(MPI_Win_fence(0, win));
		CHECK(junk == 99);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		for (int i = 0; i < 4; i++)
			CHECK(base[i] == 40 + i);
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Type_free(&empty));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("fetch_and_op", test_fetch_and_op);
	TU_RUN("accumulate", test_accumulate);
	TU_RUN("bulk", test_bulk);
	TU_RUN("alternating", test_alternating);
	TU_RUN("large", test_large);
	TU_RUN("few", test_few);
	TU_RUN("compare_and_swap", test_compare_and_swap);
	TU_RUN("cas_widths", test_cas_widths);
	TU_RUN("loc", test_loc);
	TU_RUN("widths", test_widths);
	TU_RUN("ordering", test_ordering);
	TU_RUN("types", test_types);
	TU_RUN("mixed", test_mixed_ops);
	TU_RUN("derived", test_derived);
	TU_RUN("char", test_char);
	TU_RUN("zero", test_zero);
	MPI_Finalize();
	return 0;
}
