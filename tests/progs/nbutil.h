/*
 * Shared by the tests of the nonblocking collectives (coll_nb.c and
 * coll_nbv.c on intracommunicators, inter_nb.c on intercommunicators):
 * the values a process contributes, buffers with a sentinel, waiting while
 * computing, each test on several communicators, a non-commutative op,
 * the ways to complete a set of requests, progress while the other
 * processes are outside MPI, and error checks.  Also builds with any
 * other MPI.
 */
#ifndef NBUTIL_H
#define NBUTIL_H

#include "testutil.h"

/* The value process r contributes at index i. */
static inline int val(int r, int i)
{
	return (r * 7 + i * 3) % 101 - 50;
}

/* Counts from nothing to rendezvous sizes. */
static const int sizes[] = { 0, 1, 7, 3000, 40000 };
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

/* n ints of `fill` and one more (a sentinel past the end). */
static inline int *ints(size_t n, int fill)
{
	int *b = malloc(sizeof(int) * (n + 1));

	CHECK(b);
	for (size_t i = 0; i <= n; i++)
		b[i] = fill;
	return b;
}

/* An intercommunicator between the lower and the upper half of
 * MPI_COMM_WORLD (at least 2 ranks), and the half it stands on. */
static inline void halves(MPI_Comm *half, MPI_Comm *inter)
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
static inline void on_comms(void (*fn)(MPI_Comm))
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

/* Wait for req, computing a little and testing it now and then. */
static inline void overlap_wait(MPI_Request *req)
{
	volatile double x = 1.0;
	int flag = 0;

	for (int k = 0; !flag; k++) {
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
		if (k % 3 == 0)
			CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
		if (k > 200)
			break;
	}
	if (!flag)
		CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
	CHECK(*req == MPI_REQUEST_NULL);
}

/* Displacements for n blocks of counts[m] ints, placed one after the
 * other in rank order (or backwards), `gap` ints after each; returns the
 * ints they span. */
static inline int place_blocks(int n, const int *counts, int *displs, int backwards,
			       int gap)
{
	int total = 0;

	for (int k = 0; k < n; k++) {
		int m = backwards ? n - 1 - k : k;

		displs[m] = total;
		total += counts[m] + gap;
	}
	return total;
}

/* MPI_Type_vector(count, 2, 3, MPI_INT) resized to `extent` ints,
 * committed: pairs of ints, one int apart. */
static inline MPI_Datatype pairs_type(int count, int extent)
{
	MPI_Datatype base, t;

	CHECK_MPI(MPI_Type_vector(count, 2, 3, MPI_INT, &base));
	CHECK_MPI(MPI_Type_create_resized(base, 0, extent * (MPI_Aint)sizeof(int), &t));
	CHECK_MPI(MPI_Type_free(&base));
	CHECK_MPI(MPI_Type_commit(&t));
	return t;
}

/* Whether e, an element of pairs_type(count, extent), holds val(r, 0 ..
 * 2 count - 1) in its pairs and `gap` between them. */
static inline int pairs_hold(const int *e, int count, int extent, int r, int gap)
{
	for (int k = 0; k < 2 * count; k++)
		if (e[k / 2 * 3 + k % 2] != val(r, k))
			return 0;
	for (int at = 2; at < extent; at += 3)
		if (e[at] != gap)
			return 0;
	return 1;
}

/* A non-commutative associative op on pairs (a, b), the affine maps
 * x -> a x + b under composition, wrapping. */
typedef struct {
	unsigned a, b;
} affine;

static inline affine aff_compose(affine x, affine y)
{
	affine r = { x.a * y.a, x.a * y.b + x.b };

	return r;
}

static inline void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	affine *x = in, *y = inout;

	(void)dt;
	for (int i = 0; i < *len; i++)
		y[i] = aff_compose(x[i], y[i]);
}

/* What process r contributes at index i. */
static inline affine aff(int r, int i)
{
	affine v = { (unsigned)(r * 2 + 3 + i), (unsigned)(r * 5 + i * 11 + 1) };

	return v;
}

/* x_first o ... o x_first+n-1 at index i: the contributions of n
 * processes in rank order. */
static inline affine aff_range(int first, int n, int i)
{
	affine acc = aff(first + n - 1, i);

	for (int r = first + n - 2; r >= first; r--)
		acc = aff_compose(aff(r, i), acc);
	return acc;
}

/* Complete the n requests in the way `how` (0 to 5) says: Waitall, Wait
 * from the last, Waitany, Test loops computing between, Testall,
 * Waitsome.  Persistent requests stay (inactive), the others are freed. */
static inline void complete_reqs(MPI_Request *req, int n, int how, int persistent)
{
	MPI_Request keep[64];
	int left = n, idx, flag;

	CHECK(n <= 64);
	memcpy(keep, req, sizeof(*req) * (size_t)(n < 64 ? n : 64));

	switch (how) {
	case 0:
		CHECK_MPI(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
		break;
	case 1:
		for (int i = n - 1; i >= 0; i--)
			CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
		break;
	case 2:
		while (left) {
			CHECK_MPI(MPI_Waitany(n, req, &idx, MPI_STATUS_IGNORE));
			CHECK(idx != MPI_UNDEFINED);
			CHECK(req[idx] == (persistent ? keep[idx] : MPI_REQUEST_NULL));
			left--;
		}
		break;
	case 3:
		for (int i = n - 1; i >= 0; i--)
			do {
				volatile double x = 0;

				for (int k = 0; k < 1000; k++)
					x += k * 0.5;
				CHECK_MPI(MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE));
			} while (!flag);
		break;
	case 4:
		do
			CHECK_MPI(MPI_Testall(n, req, &flag, MPI_STATUSES_IGNORE));
		while (!flag);
		break;
	default:
		while (left > 0) {
			int out, *idxs = malloc(sizeof(int) * (size_t)n);

			CHECK(idxs);
			CHECK_MPI(MPI_Waitsome(n, req, &out, idxs, MPI_STATUSES_IGNORE));
			CHECK(out != MPI_UNDEFINED && out > 0);
			left -= out;
			free(idxs);
		}
	}
	for (int i = 0; i < n; i++)
		CHECK(req[i] == (persistent ? keep[i] : MPI_REQUEST_NULL));
}

static inline void complete_all(MPI_Request *req, int n, int how)
{
	complete_reqs(req, n, how, 0);
}

/*
 * Progress while the others are outside MPI.  outside_begin (collective
 * over MPI_COMM_WORLD, before the operations start) sets up two flags in
 * job rank 0's memory that every process maps.  Then every process starts
 * its nonblocking operations reqs[0..n) and calls outside_end: job rank 0
 * waits for them while every other process computes outside MPI until
 * rank 0 says, through flag[0], that it is through.  Progress "strong":
 * they complete (the progress threads move the data); "weak": reqs[0]
 * cannot complete (say, a large broadcast whose root is not job rank 0:
 * its data sits with the root until the root calls MPI), however often
 * rank 0 tests it; any other mode expects neither.  Then everybody
 * completes them.  flag[1] counts the others that arrived
 * (outside_arrive), for an operation that rank 0 must start only once the
 * others are outside MPI (outside_wait).
 */
struct outside {
	MPI_Win win;
	int *flag;
};

static inline void outside_begin(struct outside *o)
{
	CHECK_MPI(MPI_Win_allocate_shared(tu_rank == 0 ? 2 * sizeof(int) : 0, sizeof(int),
					  MPI_INFO_NULL, MPI_COMM_WORLD, &o->flag, &o->win));
	if (tu_rank != 0) {
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

/* A process other than job rank 0: about to leave MPI. */
static inline void outside_arrive(struct outside *o)
{
	__atomic_add_fetch(&o->flag[1], 1, __ATOMIC_RELEASE);
}

/* Job rank 0: until every other process arrived (bounded: a hang fails). */
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

static inline void outside_end(struct outside *o, const char *mode, int n,
			       MPI_Request *reqs)
{
	if (tu_rank == 0) {
		for (int k = 0; !strcmp(mode, "weak") && k < 200; k++) {
			int done;

			CHECK_MPI(MPI_Test(&reqs[0], &done, MPI_STATUS_IGNORE));
			CHECK(!done);
			tu_sleep_ms(1);
		}
		if (!strcmp(mode, "strong"))
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
				fprintf(stderr, "rank %d: rank 0 never got through\n", tu_rank);
				MPI_Abort(MPI_COMM_WORLD, 98);
			}
		}
	}
	CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
	CHECK_MPI(MPI_Win_free(&o->win));
}

/* The call returns class `want` and leaves the request variable `req`
 * alone. */
#define EXPECT_ERR(want, call) TU_EXPECT_REQ_ERR(want, req, call)

#endif
