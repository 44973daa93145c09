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

#endif
