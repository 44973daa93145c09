/*
 * MPI_Win_shared_query on every kind of window (MPI 4.1, section 12.2.3):
 * where a rank's memory is shared with the caller (MPI_Win_allocate,
 * MPI_Win_allocate_shared, MPI_Win_create on MPI_Alloc_mem memory) the
 * answer is its size, displacement unit and a pointer through which the
 * caller loads what the rank stored; memory the caller cannot reach
 * (MPI_Win_create on malloc memory of another rank) answers size 0 and
 * NULL, with the rank's displacement unit; a dynamic window has no memory
 * to answer for (MPI_ERR_RMA_FLAVOR, under MPI_ERRORS_RETURN).
 * MPI_PROC_NULL answers for the lowest rank with memory.  Prints
 * "ok shared_query" on rank 0.  A plain MPI 4.1 program; shmpi shares the
 * memory of the first three kinds, and says so.
 */
#include "winkind.h"

#define COUNT 16

/* Whether rank q's memory in a window of kind k is shared with us. */
static int shared_with_me(enum wk_kind k, int q, int me)
{
	return q == me || k == WK_ALLOCATE || k == WK_SHARED || k == WK_ALLOCMEM ||
	       (k == WK_MIXED && q % 2 == 0);
}

static void check_kind(enum wk_kind k, int size)
{
	struct wk_win w;
	MPI_Aint sz;
	int du, me;
	int *p;

	wk_open(&w, k, COUNT, 1000 + tu_rank, MPI_COMM_WORLD);
	me = w.rank;
	if (k == WK_DYNAMIC) {
		MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
		p = &du;
		CHECK(tu_check_class(MPI_Win_shared_query(w.win, 0, &sz, &du, &p),
				     MPI_ERR_RMA_FLAVOR));
		CHECK(p == &du);
		wk_close(&w);
		return;
	}
	for (int q = 0; q < size; q++) {
		CHECK_MPI(MPI_Win_shared_query(w.win, q, &sz, &du, &p));
		CHECK(du == (int)sizeof(int));
		if (!shared_with_me(k, q, me)) {
			CHECK(sz == 0 && p == NULL);
			continue;
		}
		CHECK(sz >= COUNT * (MPI_Aint)sizeof(int) && p != NULL);
		if (q == me)
			CHECK(p == w.base);
		for (int i = 0; i < COUNT; i++)
			CHECK(p[i] == 1000 + q);
	}
	/* MPI_PROC_NULL: rank 0's, the lowest with memory */
	CHECK_MPI(MPI_Win_shared_query(w.win, MPI_PROC_NULL, &sz, &du, &p));
	CHECK(shared_with_me(k, 0, me) ? p != NULL && p[0] == 1000 : sz == 0 && !p);
	MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Win_shared_query(w.win, size, &sz, &du, &p), MPI_ERR_RANK));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	wk_close(&w);
}

int main(int argc, char **argv)
{
	int size;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int k = 0; k < WK_NKINDS; k++)
		check_kind((enum wk_kind)k, size);
	if (tu_rank == 0)
		printf("ok shared_query\n");
	MPI_Finalize();
	return 0;
}
