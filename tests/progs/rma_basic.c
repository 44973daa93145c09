/*
 * RMA on shared memory: every window flavor, every communication call with
 * every synchronization mode, atomicity under contention, locks, errors.
 *   rma_basic [test]
 */
#include <stdint.h>

#include "testutil.h"

static int rank, size;

/* Every rank puts (and gets) with every synchronization mode. */
static void test_put_get_modes(void)
{
	MPI_Win win;
	int *base, n = size * 4;

	CHECK_MPI(tu_win_allocate(sizeof(int) * (MPI_Aint)n, sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	for (int mode = 0; mode < 4; mode++) {
		int to = (rank + 1) % size, from = (rank + size - 1) % size;
		int v[4] = { rank, mode, rank * mode, 7 }, got[4];
		MPI_Group world, one, ones[2];

		for (int i = 0; i < n; i++)
			base[i] = -1;
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		switch (mode) {
		case 0:	/* fence */
			CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
			CHECK_MPI(MPI_Put(v, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_fence(0, win));
			CHECK_MPI(MPI_Get(got, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
			break;
		case 1:	/* post/start/complete/wait with the neighbours */
			CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
			CHECK_MPI(MPI_Group_incl(world, 1, &from, &ones[0]));
			CHECK_MPI(MPI_Group_incl(world, 1, &to, &one));
			CHECK_MPI(MPI_Win_post(ones[0], 0, win));
			CHECK_MPI(MPI_Win_start(one, 0, win));
			CHECK_MPI(MPI_Put(v, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
			CHECK_MPI(MPI_Win_wait(win));
			CHECK_MPI(MPI_Win_post(ones[0], 0, win));
			CHECK_MPI(MPI_Win_start(one, 0, win));
			CHECK_MPI(MPI_Get(got, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
			CHECK_MPI(MPI_Win_wait(win));
			MPI_Group_free(&world);
			MPI_Group_free(&one);
			MPI_Group_free(&ones[0]);
			break;
		case 2:	/* lock / flush / unlock */
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
			CHECK_MPI(MPI_Put(v, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_flush(to, win));
			CHECK_MPI(MPI_Get(got, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win));
			CHECK_MPI(MPI_Win_unlock(to, win));
			break;
		case 3:	/* lock_all with request-based operations */
		{
			MPI_Request r[2];

			CHECK_MPI(MPI_Win_lock_all(0, win));
			CHECK_MPI(MPI_Rput(v, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win, &r[0]));
			CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Rget(got, 4, MPI_INT, to, rank * 4, 4, MPI_INT, win, &r[1]));
			CHECK_MPI(MPI_Waitall(1, &r[1], MPI_STATUSES_IGNORE));
			CHECK_MPI(MPI_Win_unlock_all(win));
			break;
		}
		}
		CHECK(memcmp(got, v, sizeof(v)) == 0);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK(base[from * 4] == from && base[from * 4 + 1] == mode &&
		      base[from * 4 + 3] == 7);
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK(win == MPI_WIN_NULL);
}

/*
 * Large puts and gets (shmpi streams copies of 512 KiB or more to a new
 * place past the caches, and copies again to the same place plainly):
 * 1 MiB and a bit to the next rank at an odd displacement, twice to one
 * place and once to another, then read back, and seen by the target.
 */
static void test_large(void)
{
	const size_t big = (1u << 20) + 77;
	const MPI_Aint at[3] = { 3, 3, (MPI_Aint)big + 1000 };
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	unsigned char *v = malloc(big), *got = malloc(big), *base;
	MPI_Win win;

	CHECK(v && got);
	CHECK_MPI(tu_win_allocate(2 * (MPI_Aint)big + 2048, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	memset(base, 0xee, 2 * big + 2048);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < big; i++)
			v[i] = (unsigned char)(i * 31 + (size_t)rank * 7 + (size_t)k);
		CHECK_MPI(MPI_Put(v, (int)big, MPI_BYTE, to, at[k], (int)big, MPI_BYTE, win));
		CHECK_MPI(MPI_Win_flush(to, win));
		memset(got, 0, big);
		CHECK_MPI(MPI_Get(got, (int)big, MPI_BYTE, to, at[k], (int)big, MPI_BYTE, win));
		CHECK_MPI(MPI_Win_flush(to, win));
		CHECK(memcmp(got, v, big) == 0);
	}
	CHECK_MPI(MPI_Win_unlock(to, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* what the origin wrote last to each place, and nothing around it */
	for (size_t i = 0; i < big; i++) {
		CHECK(base[3 + i] == (unsigned char)(i * 31 + (size_t)from * 7 + 1));
		CHECK(base[big + 1000 + i] == (unsigned char)(i * 31 + (size_t)from * 7 + 2));
	}
	CHECK(base[2] == 0xee && base[big + 999] == 0xee && base[2 * big + 1000] == 0xee);
	CHECK_MPI(MPI_Win_free(&win));
	free(v);
	free(got);
}

/* Contention: everybody accumulates on rank 0's elements; totals exact. */
static void test_atomicity(void)
{
	const int rounds = 500;
	MPI_Win win;
	struct { double v; int i; } *pair;
	long *base;

	CHECK_MPI(tu_win_allocate(64 * sizeof(long), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	memset(base, 0, 64 * sizeof(long));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int r = 0; r < rounds; r++) {
		long one = 1, old, two = 2;
		double d = 0.5;
		int cmp, swapped, newv;
		struct { double v; int i; } p = { (double)((rank * 7 + r) % 13), rank };

		CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Accumulate(&two, 1, MPI_LONG, 0, 8, 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Get_accumulate(&d, 1, MPI_DOUBLE, &d, 1, MPI_DOUBLE, 0, 16, 1,
					     MPI_DOUBLE, MPI_SUM, win));
		/* an int counter through compare-and-swap */
		/* (results are defined only after a flush) */
		do {
			CHECK_MPI(MPI_Fetch_and_op(NULL, &cmp, MPI_INT, 0, 24, MPI_NO_OP, win));
			CHECK_MPI(MPI_Win_flush(0, win));
			newv = cmp + 1;
			CHECK_MPI(MPI_Compare_and_swap(&newv, &cmp, &swapped, MPI_INT, 0, 24,
						       win));
			CHECK_MPI(MPI_Win_flush(0, win));
		} while (swapped != cmp);
		CHECK_MPI(MPI_Accumulate(&p, 1, MPI_DOUBLE_INT, 0, 32, 1, MPI_DOUBLE_INT,
					 MPI_MAXLOC, win));
		/* mixing ops on one element stays atomic: +3 then a no-op read */
		long three = 3;

		CHECK_MPI(MPI_Accumulate(&three, 1, MPI_LONG, 0, 48, 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Fetch_and_op(NULL, &old, MPI_LONG, 0, 48, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK(old % 3 == 0);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		int maxv = 0, maxi = size;
		double *dv = (double *)((char *)base + 16);

		CHECK(base[0] == (long)size * rounds);
		CHECK(base[1] == 2L * size * rounds);
		CHECK(*dv == 0.5 * size * rounds);
		CHECK(*(int *)((char *)base + 24) == size * rounds);
		CHECK(base[6] == 3L * size * rounds);
		pair = (void *)((char *)base + 32);
		for (int q = 0; q < size; q++)
			for (int r = 0; r < rounds; r++) {
				int v = (q * 7 + r) % 13;

				if (v > maxv || (v == maxv && q < maxi)) {
					maxv = v;
					maxi = q;
				}
			}
		CHECK(pair->v == maxv && pair->i == maxi);
	}
	CHECK_MPI(MPI_Win_free(&win));
}

/* An exclusive lock protects a get-increment-put sequence. */
static void test_exclusive_lock(void)
{
	const int rounds = 300;
	MPI_Win win;
	int *base;

	CHECK_MPI(tu_win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	*base = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int r = 0; r < rounds; r++) {
		int v;

		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		v++;
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(*base == size * rounds);
	CHECK_MPI(MPI_Win_free(&win));
}

/* MPI_Win_allocate_shared: every rank's memory by load and store. */
static void test_shared(void)
{
	MPI_Comm shm;
	MPI_Win win;
	MPI_Aint sz;
	int du, *mine, *p;
	MPI_Info info;

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				      &shm));
	/* odd sizes, and rank 1 brings nothing */
	CHECK_MPI(MPI_Win_allocate_shared(rank == 1 ? 0 : (MPI_Aint)(3 + rank) * 4, 4,
					  MPI_INFO_NULL, shm, &mine, &win));
	CHECK(rank == 1 || ((uintptr_t)mine % 64) == 0);
	for (int i = 0; rank != 1 && i < 3 + rank; i++)
		mine[i] = rank * 100 + i;
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int q = 0; q < size; q++) {
		CHECK_MPI(MPI_Win_shared_query(win, q, &sz, &du, &p));
		CHECK(du == 4);
		if (q == 1) {
			CHECK(sz == 0);
			continue;
		}
		CHECK(sz == (3 + q) * 4);
		for (int i = 0; i < 3 + q; i++)
			CHECK(p[i] == q * 100 + i);
	}
	CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
	CHECK(sz == 12 && p[0] == 0);
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Win_free(&win));
	/* not contiguous: page-aligned portions */
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
	CHECK_MPI(MPI_Win_allocate_shared(100, 1, info, shm, &mine, &win));
	CHECK(((uintptr_t)mine % 4096) == 0);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&shm));
}

/* MPI_Win_create on MPI_Alloc_mem memory, and a dynamic window. */
static void test_create_dynamic(void)
{
	MPI_Win win;
	int *mem, flag, *flavor, v = rank + 10, got;
	MPI_Aint addr, *all = malloc(sizeof(MPI_Aint) * (size_t)size);
	char value[MPI_MAX_INFO_VAL];
	MPI_Info used;

	CHECK_MPI(MPI_Alloc_mem(16 * sizeof(int), MPI_INFO_NULL, &mem));
	CHECK_MPI(MPI_Win_create(mem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
	CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE);
	CHECK_MPI(MPI_Win_get_info(win, &used));
	CHECK_MPI(MPI_Info_get(used, "shmpi_memory", MPI_MAX_INFO_VAL - 1, value, &flag));
	CHECK(flag && !strcmp(value, "direct"));
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, 5, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK(mem[5] == (rank + size - 1) % size + 10);
	CHECK_MPI(MPI_Win_free(&win));
	/* a window on the memory of another window (all of whose ranks are in
	 * this one): direct too */
	{
		MPI_Win first, second;
		int *base, got2;

		CHECK_MPI(tu_win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL,
					   MPI_COMM_WORLD, &base, &first));
		for (int i = 0; i < 16; i++)
			base[i] = rank * 100 + i;
		CHECK_MPI(MPI_Win_create(base + 8, 8 * sizeof(int), sizeof(int),
					 MPI_INFO_NULL, MPI_COMM_WORLD, &second));
		CHECK_MPI(MPI_Win_fence(0, second));
		CHECK_MPI(MPI_Get(&got2, 1, MPI_INT, (rank + 1) % size, 2, 1, MPI_INT, second));
		CHECK_MPI(MPI_Win_fence(0, second));
		CHECK(got2 == (rank + 1) % size * 100 + 10);
		CHECK_MPI(MPI_Win_free(&second));
		CHECK_MPI(MPI_Win_free(&first));
	}
	/* dynamic: attach, trade addresses, put at absolute addresses */
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_attach(win, mem, 16 * sizeof(int)));
	CHECK_MPI(MPI_Get_address(&mem[3], &addr));
	CHECK_MPI(MPI_Allgather(&addr, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, all[(rank + 1) % size], 1,
			  MPI_INT, win));
	CHECK_MPI(MPI_Win_flush_all(win));
	CHECK_MPI(MPI_Get(&got, 1, MPI_INT, (rank + 1) % size, all[(rank + 1) % size], 1,
			  MPI_INT, win));
	CHECK(got == v);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(mem[3] == (rank + size - 1) % size + 10);
	CHECK_MPI(MPI_Win_detach(win, mem));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Free_mem(mem));
	free(all);
}

/* Derived datatypes on both sides: a column out of a row-major matrix. */
static void test_derived(void)
{
	MPI_Datatype col;
	MPI_Win win;
	int *m, v[8];

	CHECK_MPI(MPI_Type_vector(8, 1, 8, MPI_INT, &col));
	CHECK_MPI(MPI_Type_commit(&col));
	CHECK_MPI(tu_win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &m, &win));
	for (int i = 0; i < 64; i++)
		m[i] = 0;
	for (int i = 0; i < 8; i++)
		v[i] = rank * 10 + i;
	CHECK_MPI(MPI_Win_fence(0, win));
	/* into column `rank % 8` of the next rank */
	CHECK_MPI(MPI_Put(v, 8, MPI_INT, (rank + 1) % size, rank % 8, 1, col, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	int from = (rank + size - 1) % size;

	for (int i = 0; i < 8; i++)
		CHECK(m[i * 8 + from % 8] == from * 10 + i);
	/* accumulate a column (in the next epoch), read it back by columns */
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Accumulate(v, 8, MPI_INT, (rank + 1) % size, rank % 8, 1, col,
				 MPI_SUM, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	memset(v, 0, sizeof(v));
	CHECK_MPI(MPI_Get(v, 8, MPI_INT, rank, from % 8, 1, col, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int i = 0; i < 8; i++)
		CHECK(v[i] == (size <= 8 ? 2 : 1) * (from * 10 + i) || size > 8);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Type_free(&col));
}

static void test_errors(void)
{
	MPI_Win win;
	int *base, v = 0, res;

	CHECK_MPI(tu_win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	base[0] = 42;
	/* no epoch */
	CHECK(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_complete(win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_wait(win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_unlock(0, win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_flush(0, win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_unlock_all(win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_lock(99, 0, 0, win) == MPI_ERR_LOCKTYPE);
	CHECK(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win) == MPI_ERR_RANK);
	CHECK(MPI_Win_fence(12345678, win) == MPI_ERR_ASSERT);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_lock_all(0, win) == MPI_ERR_RMA_SYNC);
	/* range: outside the target's window, nothing written */
	CHECK(MPI_Put(&v, 1, MPI_INT, rank, 4, 1, MPI_INT, win) == MPI_ERR_RMA_RANGE);
	CHECK(MPI_Put(&v, 2, MPI_INT, rank, 3, 2, MPI_INT, win) == MPI_ERR_RMA_RANGE);
	CHECK(MPI_Put(&v, 1, MPI_INT, rank, -1, 1, MPI_INT, win) == MPI_ERR_RMA_RANGE);
	CHECK(MPI_Get(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win) == MPI_ERR_RANK);
	CHECK(MPI_Accumulate(&v, 1, MPI_INT, rank, 0, 1, MPI_DOUBLE, MPI_SUM, win) ==
	      MPI_ERR_TYPE);
	CHECK(MPI_Accumulate(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, MPI_MAXLOC, win) ==
	      MPI_ERR_OP);
	CHECK(MPI_Accumulate(&v, 1, MPI_FLOAT, rank, 0, 1, MPI_FLOAT, MPI_BAND, win) ==
	      MPI_ERR_OP);
	CHECK(MPI_Compare_and_swap(&v, &v, &res, MPI_SHORT_INT, rank, 0, win) == MPI_ERR_TYPE);
	/* zero elements: fine whatever the types */
	CHECK_MPI(MPI_Put(NULL, 0, MPI_DATATYPE_NULL, rank, 1000, 0, MPI_DATATYPE_NULL, win));
	CHECK(base[0] == 42);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Win_free(&(MPI_Win){ MPI_WIN_NULL }) == MPI_ERR_WIN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("modes", test_put_get_modes);
	TU_RUN("large", test_large);
	TU_RUN("atomicity", test_atomicity);
	TU_RUN("exclusive", test_exclusive_lock);
	TU_RUN("shared", test_shared);
	TU_RUN("create", test_create_dynamic);
	TU_RUN("derived", test_derived);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
