/*
 * The large-count one-sided calls (MPI 4.1, section 2.5.8), checked by
 * their results at any number of ranks, on a window of each kind: memory
 * of MPI_Win_allocate_c (the direct path) and heap memory given to
 * MPI_Win_create_c (the private path, served by the target's engine).
 * Each "_c" call on a ring gives what its int form gives, with
 * predefined and derived types; MPI_Win_allocate_shared_c and
 * MPI_Win_shared_query_c hand out sizes and units as MPI_Aint.  Prints
 * one "ok" line per part on rank 0.  A plain MPI program.
 */
#include "testutil.h"

#define W 64		/* longs in each rank's window */

static int size, right, left;

/* The window's values after an epoch: w[i] == want(i). */
static long want_put(int from, int i)
{
	return from * 1000 + i;
}

/* One window: put, get and the accumulates of both forms, fence epochs,
 * then the request-based ones in a lock_all epoch. */
static void check_window(MPI_Win win, long *mem)
{
	long src[W], got[W], res[W], one = 1;
	MPI_Datatype every2;
	MPI_Request reqs[4];

	CHECK_MPI(MPI_Type_vector_c(W / 2, 1, 2, MPI_LONG, &every2));
	CHECK_MPI(MPI_Type_commit(&every2));
	for (int i = 0; i < W; i++) {
		src[i] = want_put(tu_rank, i);
		got[i] = res[i] = -1;
	}

	/* put: half with MPI_Put_c, half with MPI_Put; the even elements by
	 * a derived type */
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put_c(src, W / 2, MPI_LONG, right, 0, W / 2, MPI_LONG, win));
	CHECK_MPI(MPI_Put(src + W / 2, W / 2, MPI_LONG, right, W / 2, W / 2, MPI_LONG, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int i = 0; i < W; i++)
		CHECK(mem[i] == want_put(left, i));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put_c(src, 1, every2, right, 0, W / 2, MPI_LONG, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int i = 0; i < W / 2; i++)
		CHECK(mem[i] == want_put(left, 2 * i));

	/* get from the left, both forms */
	CHECK_MPI(MPI_Get_c(got, W / 2, MPI_LONG, left, W / 2, W / 2, MPI_LONG, win));
	CHECK_MPI(MPI_Get(got + W / 2, W / 2, MPI_LONG, left, W / 2, W / 2, MPI_LONG, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	/* the left rank's window holds what its own left put */
	for (int i = W / 2; i < W; i++)
		CHECK(got[i - W / 2] == want_put((left + size - 1) % size, i) &&
		      got[i] == want_put((left + size - 1) % size, i));

	/* accumulate: everyone adds 1 to the right's element 0 with the
	 * large form and to element 1 with the int form */
	CHECK_MPI(MPI_Accumulate_c(&one, 1, MPI_LONG, right, 0, 1, MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, right, 1, 1, MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK(mem[0] == want_put(left, 0) + 1 && mem[1] == want_put(left, 2) + 1);
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Get_accumulate_c(&one, 1, MPI_LONG, &res[0], 1, MPI_LONG, right, 0, 1,
				       MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_LONG, &res[1], 1, MPI_LONG, right, 1, 1,
				     MPI_LONG, MPI_SUM, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK(res[0] == want_put(tu_rank, 0) + 1 && res[1] == want_put(tu_rank, 2) + 1);
	CHECK(mem[0] == want_put(left, 0) + 2 && mem[1] == want_put(left, 2) + 2);
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

	/* the request-based forms, in a passive-target epoch */
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Rput_c(src, 4, MPI_LONG, right, 8, 4, MPI_LONG, win, &reqs[0]));
	CHECK_MPI(MPI_Rput(src + 4, 4, MPI_LONG, right, 12, 4, MPI_LONG, win, &reqs[1]));
	CHECK_MPI(MPI_Raccumulate_c(&one, 1, MPI_LONG, right, 20, 1, MPI_LONG, MPI_SUM, win,
				    &reqs[2]));
	CHECK_MPI(MPI_Raccumulate(&one, 1, MPI_LONG, right, 21, 1, MPI_LONG, MPI_SUM, win,
				  &reqs[3]));
	CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
	CHECK_MPI(MPI_Win_flush_all(win));
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Rget_c(got, 8, MPI_LONG, left, 8, 8, MPI_LONG, win, &reqs[0]));
	CHECK_MPI(MPI_Rget(got + 8, 2, MPI_LONG, left, 20, 2, MPI_LONG, win, &reqs[1]));
	CHECK_MPI(MPI_Rget_accumulate_c(NULL, 0, MPI_LONG, &res[0], 1, MPI_LONG, left, 20,
					1, MPI_LONG, MPI_NO_OP, win, &reqs[2]));
	CHECK_MPI(MPI_Rget_accumulate(NULL, 0, MPI_LONG, &res[1], 1, MPI_LONG, left, 21, 1,
				      MPI_LONG, MPI_NO_OP, win, &reqs[3]));
	CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
	CHECK_MPI(MPI_Win_unlock_all(win));
	{
		int ll = (left + size - 1) % size;

		for (int i = 0; i < 8; i++)
			CHECK(got[i] == want_put(ll, i));
		/* elements 20 and 21 of the left's window: what its left put
		 * there by the derived type (its elements 40 and 42), plus one */
		CHECK(got[8] == want_put(ll, 40) + 1 && got[9] == want_put(ll, 42) + 1);
		CHECK(res[0] == got[8] && res[1] == got[9]);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Type_free(&every2));
}

static void check_shared(void)
{
	MPI_Comm node;
	MPI_Win win;
	MPI_Aint sz, du_c;
	long *mine, *other;
	int du, nr;

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				      MPI_INFO_NULL, &node));
	MPI_Comm_size(node, &nr);
	CHECK_MPI(MPI_Win_allocate_shared_c((MPI_Aint)(tu_rank + 1) * 16, 8, MPI_INFO_NULL,
					    node, &mine, &win));
	CHECK_MPI(MPI_Win_fence(0, win));
	mine[0] = 500 + tu_rank;
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int r = 0; r < nr; r++) {
		CHECK_MPI(MPI_Win_shared_query_c(win, r, &sz, &du_c, &other));
		CHECK(sz == (MPI_Aint)(r + 1) * 16 && du_c == 8 && other[0] == 500 + r);
		CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &other));
		CHECK(sz == (MPI_Aint)(r + 1) * 16 && du == 8);
	}
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&node));
}

int main(int argc, char **argv)
{
	MPI_Win win;
	long *mem;
	int *du, flag;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;

	CHECK_MPI(MPI_Win_allocate_c(W * sizeof(long), sizeof(long), MPI_INFO_NULL,
				     MPI_COMM_WORLD, &mem, &win));
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
	CHECK(flag && *du == (int)sizeof(long));
	check_window(win, mem);
	CHECK_MPI(MPI_Win_free(&win));
	if (tu_rank == 0)
		printf("ok allocate\n");

	mem = calloc(W, sizeof(long));
	CHECK(mem);
	CHECK_MPI(MPI_Win_create_c(mem, W * sizeof(long), sizeof(long), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &win));
	check_window(win, mem);
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
	if (tu_rank == 0)
		printf("ok create\n");

	check_shared();
	if (tu_rank == 0)
		printf("ok shared\n");
	MPI_Finalize();
	return 0;
}
