/*
 * Shared by the tests of the collectives (coll_nb.c, coll_nbv.c): the
 * values members contribute, buffers with a guard element, each test on
 * several communicators, and a non-commutative associative op for the
 * reducing ones: pairs (a, b), the affine maps x -> a x + b under
 * composition, wrapping; each rank r contributes aff(r, i) at index i.
 */
#ifndef COLLTEST_H
#define COLLTEST_H

#include "testutil.h"

/* The value member r contributes at index i. */
static int val(int r, int i)
{
	return (r * 7 + i * 3) % 101 - 50;
}

/* n ints and a guard after them, all fill. */
static int *ints(size_t n, int fill)
{
	int *b = malloc(sizeof(int) * (n + 1));

	CHECK(b);
	for (size_t i = 0; i <= n; i++)
		b[i] = fill;
	return b;
}

/* An intercommunicator between the lower and the upper half of
 * MPI_COMM_WORLD (at least 2 ranks), and the half it stands on. */
static void halves(MPI_Comm *half, MPI_Comm *inter)
{
	int rank, size, low;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	low = rank < size / 2;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, half));
	CHECK_MPI(MPI_Intercomm_create(*half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7,
				       inter));
}

/* fn on MPI_COMM_WORLD, on a split (ranks reversed) and on a duplicate. */
static void on_comms(void (*fn)(MPI_Comm))
{
	MPI_Comm split, dup;
	int rank, size;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	fn(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &split));
	fn(split);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	fn(dup);
	CHECK_MPI(MPI_Comm_free(&split));
	CHECK_MPI(MPI_Comm_free(&dup));
}

typedef struct {
	unsigned a, b;
} affine;

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	affine *x = in, *y = inout;

	(void)dt;
	for (int i = 0; i < *len; i++) {
		affine r = { x[i].a * y[i].a, x[i].a * y[i].b + x[i].b };

		y[i] = r;
	}
}

static affine aff(int r, int i)
{
	affine v = { (unsigned)(r * 2 + 3 + i), (unsigned)(r * 5 + i * 11 + 1) };

	return v;
}

/* x0 o x1 o ... o xn-1 at index i (n >= 1). */
static affine aff_all(int n, int i)
{
	affine acc = aff(n - 1, i);

	for (int r = n - 2; r >= 0; r--) {
		affine x = aff(r, i), t = { x.a * acc.a, x.a * acc.b + x.b };

		acc = t;
	}
	return acc;
}

/*
 * Progress while the other ranks are outside MPI.  outside_begin (every
 * rank, before the operations start) sets up a flag in shared memory;
 * after every rank started its nonblocking operations reqs[0..n),
 * outside_end has rank 0, under strong progress, wait for them (the other
 * ranks' progress threads move their parts), and under weak progress test
 * reqs[0] and see it stay incomplete (the others' parts wait for them to
 * call MPI), while every other rank computes outside MPI until rank 0 is
 * through; then all complete them.  flag[0]: rank 0 is through; flag[1]:
 * how many others arrived (outside_arrive), for an operation that rank 0
 * must start only once the others are outside MPI (outside_wait).
 */
struct outside {
	int *flag;
	MPI_Win win;
};

static void outside_begin(struct outside *o)
{
	int rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? 2 * sizeof(int) : 0, sizeof(int),
					  MPI_INFO_NULL, MPI_COMM_WORLD, &o->flag, &o->win));
	if (rank != 0) {
		MPI_Aint sz;
		int du;

		CHECK_MPI(MPI_Win_shared_query(o->win, 0, &sz, &du, &o->flag));
	} else {
		__atomic_store_n(&o->flag[0], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&o->flag[1], 0, __ATOMIC_RELAXED);
	}
	/* the barrier orders rank 0's stores before everybody's use */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* A rank other than 0: about to leave MPI. */
static inline void outside_arrive(struct outside *o)
{
	__atomic_add_fetch(&o->flag[1], 1, __ATOMIC_RELEASE);
}

/* Rank 0: until every other rank arrived (bounded: a hang fails). */
static inline void outside_wait(struct outside *o)
{
	double t0 = MPI_Wtime();
	int size;

	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while (__atomic_load_n(&o->flag[1], __ATOMIC_ACQUIRE) < size - 1) {
		CHECK(MPI_Wtime() - t0 < 30);
		tu_sleep_ms(1);
	}
}

static void outside_end(struct outside *o, int strong, int n, MPI_Request *reqs)
{
	int rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		for (int k = 0; !strong && k < 200; k++) {
			int done;

			CHECK_MPI(MPI_Test(&reqs[0], &done, MPI_STATUS_IGNORE));
			CHECK(!done);
			tu_sleep_ms(1);
		}
		if (strong)
			CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
		__atomic_store_n(&o->flag[0], 1, __ATOMIC_RELEASE);
	} else {
		/* outside MPI until rank 0 is through (bounded: a hang fails) */
		double t0 = MPI_Wtime();

		while (!__atomic_load_n(&o->flag[0], __ATOMIC_ACQUIRE)) {
			volatile double x = 0;

			for (int k = 0; k < 1000; k++)
				x += k;
			if (MPI_Wtime() - t0 > 30) {
				fprintf(stderr, "rank %d: rank 0 never got through\n", rank);
				MPI_Abort(MPI_COMM_WORLD, 98);
			}
		}
	}
	CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
	CHECK_MPI(MPI_Win_free(&o->win));
}

#endif
