/*
 * MPI_PROC_NULL in passive-target synchronization (README, "Types and ops
 * in RMA"): MPI_Win_lock, MPI_Win_unlock, MPI_Win_flush and
 * MPI_Win_flush_local on MPI_PROC_NULL succeed and do nothing, as every
 * communication call on MPI_PROC_NULL does (MPI 3.1, section 11.3).
 * Under MPI_ERRORS_RETURN:
 *  - an epoch of MPI_PROC_NULL alone (shared, exclusive) carrying every
 *    communication call to MPI_PROC_NULL, its request forms waited for,
 *    flushed and unlocked: nothing written at any target nor in the
 *    result buffers;
 *  - the same calls inside real epochs (a lock of the neighbour, lock_all,
 *    fence, post/start/complete/wait), next to real operations, whose
 *    results are checked;
 *  - an exclusive lock of MPI_PROC_NULL locks nobody: every rank holds one
 *    while it takes its neighbour's exclusive lock, around a barrier (were
 *    it a lock of some rank, that rank's neighbour would wait for it
 *    forever);
 *  - unlock, flush and flush_local of MPI_PROC_NULL outside any epoch;
 *  - ranks out of range still get MPI_ERR_RANK (lock, unlock, flush,
 *    flush_local and the communication calls), a bad lock type or assert
 *    on MPI_PROC_NULL their own class.
 * The window is MPI_Win_allocate, or MPI_Win_create on malloc memory with
 * TU_PRIVATE=1 (testutil.h).
 *
 *   rma_proc_null
 */
#include "testutil.h"

enum { LEN = 8, POISON = -77 };

static int rank, size, left, right;
static MPI_Win win;
static int *base;

static int eclass(int code)
{
	int c = -1;

	if (code != MPI_SUCCESS)
		CHECK_MPI(MPI_Error_class(code, &c));
	return code == MPI_SUCCESS ? MPI_SUCCESS : c;
}

#define EXPECT(call, cls)                                                      \
	do {                                                                   \
		int c_ = eclass(call);                                         \
		if (c_ != (cls)) {                                             \
			fprintf(stderr, "rank %d: line %d: %s: class %d, want " \
				"%s\n", rank, __LINE__, #call, c_, #cls);      \
			CHECK(c_ == (cls));                                    \
		}                                                              \
	} while (0)

#define OK(call) EXPECT(call, MPI_SUCCESS)

/* Every communication call to target (MPI_PROC_NULL, or a rank out of
 * range: then class cls), none of which may write its result buffers. */
static void calls_to(int target, int cls)
{
	int v[2] = { 5, 6 }, cmp = 0, r[2] = { POISON, POISON };
	MPI_Request rq[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
			      MPI_REQUEST_NULL };

	EXPECT(MPI_Put(v, 2, MPI_INT, target, 0, 2, MPI_INT, win), cls);
	EXPECT(MPI_Get(r, 2, MPI_INT, target, 0, 2, MPI_INT, win), cls);
	EXPECT(MPI_Accumulate(v, 2, MPI_INT, target, 0, 2, MPI_INT, MPI_SUM, win), cls);
	EXPECT(MPI_Get_accumulate(v, 2, MPI_INT, r, 2, MPI_INT, target, 0, 2, MPI_INT,
				  MPI_SUM, win), cls);
	EXPECT(MPI_Fetch_and_op(v, r, MPI_INT, target, 0, MPI_SUM, win), cls);
	EXPECT(MPI_Compare_and_swap(v, &cmp, r, MPI_INT, target, 0, win), cls);
	EXPECT(MPI_Rput(v, 2, MPI_INT, target, 0, 2, MPI_INT, win, &rq[0]), cls);
	EXPECT(MPI_Rget(r, 2, MPI_INT, target, 0, 2, MPI_INT, win, &rq[1]), cls);
	EXPECT(MPI_Raccumulate(v, 2, MPI_INT, target, 0, 2, MPI_INT, MPI_SUM, win, &rq[2]),
	       cls);
	EXPECT(MPI_Rget_accumulate(v, 2, MPI_INT, r, 2, MPI_INT, target, 0, 2, MPI_INT,
				   MPI_SUM, win, &rq[3]), cls);
	CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
	CHECK(r[0] == POISON && r[1] == POISON);
}

/* The same without the request forms (active-target epochs). */
static void calls_to_active(void)
{
	int v = 5, cmp = 0, r = POISON;

	OK(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
	OK(MPI_Get(&r, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
	OK(MPI_Accumulate(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win));
	OK(MPI_Fetch_and_op(&v, &r, MPI_INT, MPI_PROC_NULL, 0, MPI_SUM, win));
	OK(MPI_Compare_and_swap(&v, &cmp, &r, MPI_INT, MPI_PROC_NULL, 0, win));
	CHECK(r == POISON);
}

/* Every rank's window holds want(owner, i). */
static void check_window(const char *what, int (*want)(int, int))
{
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (int i = 0; i < LEN; i++)
		if (base[i] != want(rank, i)) {
			fprintf(stderr, "rank %d: %s: element %d is %d, want %d\n", rank, what,
				i, base[i], want(rank, i));
			CHECK(base[i] == want(rank, i));
		}
	OK(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static int initial(int who, int i) { return 100 * who + i; }

/* After the real operations of the epochs below (from the left neighbour). */
static int after(int who, int i)
{
	int from = (who + size - 1) % size;

	switch (i) {
	case 1: return 1000 + from;		/* put under its exclusive lock */
	case 2: return initial(who, 2) + from;	/* accumulate under lock_all */
	case 3: return 3000 + from;		/* put in a fence epoch */
	case 4: return 4000 + from;		/* put in a PSCW epoch */
	case 5: return 5000 + from;		/* put beside the exclusive lock of PROC_NULL */
	default: return initial(who, i);
	}
}

int main(int argc, char **argv)
{
	int v, got = POISON;
	MPI_Group gl, gr;

	tu_init(&argc, &argv);
	rank = tu_rank;
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	gl = tu_group_of(left);
	gr = tu_group_of(right);
	CHECK_MPI(tu_win_allocate(LEN * sizeof(int), sizeof(int), MPI_INFO_NULL,
				  MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	for (int i = 0; i < LEN; i++)
		base[i] = initial(rank, i);
	CHECK_MPI(MPI_Win_unlock(rank, win));

	/* epochs of MPI_PROC_NULL alone */
	for (int type = 0; type < 2; type++) {
		OK(MPI_Win_lock(type ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, MPI_PROC_NULL,
				type ? 0 : MPI_MODE_NOCHECK, win));
		calls_to(MPI_PROC_NULL, MPI_SUCCESS);
		OK(MPI_Win_flush(MPI_PROC_NULL, win));
		calls_to(MPI_PROC_NULL, MPI_SUCCESS);
		OK(MPI_Win_flush_local(MPI_PROC_NULL, win));
		OK(MPI_Win_unlock(MPI_PROC_NULL, win));
	}
	check_window("epochs of MPI_PROC_NULL", initial);

	/* outside any epoch */
	OK(MPI_Win_unlock(MPI_PROC_NULL, win));
	OK(MPI_Win_flush(MPI_PROC_NULL, win));
	OK(MPI_Win_flush_local(MPI_PROC_NULL, win));

	/* ranks out of range, and bad arguments beside MPI_PROC_NULL */
	EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, -2, 0, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, MPI_ANY_SOURCE, 0, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_unlock(size, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_unlock(-3, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_flush(size + 1, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_flush_local(-5, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_lock(12345, MPI_PROC_NULL, 0, win), MPI_ERR_LOCKTYPE);
	EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, MPI_MODE_NOSTORE, win),
	       MPI_ERR_ASSERT);
	OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
	EXPECT(MPI_Win_flush(size, win), MPI_ERR_RANK);
	EXPECT(MPI_Win_flush_local(-2, win), MPI_ERR_RANK);
	calls_to(size, MPI_ERR_RANK);
	calls_to(-2, MPI_ERR_RANK);
	OK(MPI_Win_unlock(right, win));
	check_window("ranks out of range", initial);

	/* inside a lock of the neighbour */
	v = 1000 + rank;
	OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
	OK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win));
	OK(MPI_Put(&v, 1, MPI_INT, right, 1, 1, MPI_INT, win));
	calls_to(MPI_PROC_NULL, MPI_SUCCESS);
	OK(MPI_Win_flush(MPI_PROC_NULL, win));
	OK(MPI_Win_unlock(MPI_PROC_NULL, win));
	OK(MPI_Win_flush(right, win));
	OK(MPI_Get(&got, 1, MPI_INT, right, 1, 1, MPI_INT, win));
	OK(MPI_Win_flush_local(MPI_PROC_NULL, win));
	OK(MPI_Win_unlock(right, win));
	CHECK(got == v);

	/* inside lock_all */
	v = rank;
	OK(MPI_Win_lock_all(0, win));
	calls_to(MPI_PROC_NULL, MPI_SUCCESS);
	OK(MPI_Accumulate(&v, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_SUM, win));
	OK(MPI_Win_flush(MPI_PROC_NULL, win));
	OK(MPI_Win_flush_local(MPI_PROC_NULL, win));
	calls_to(MPI_PROC_NULL, MPI_SUCCESS);
	OK(MPI_Win_unlock_all(win));

	/* fence */
	v = 3000 + rank;
	OK(MPI_Win_fence(0, win));
	calls_to_active();
	OK(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win));
	OK(MPI_Win_fence(0, win));

	/* post/start/complete/wait */
	v = 4000 + rank;
	OK(MPI_Win_post(gl, 0, win));
	OK(MPI_Win_start(gr, 0, win));
	calls_to_active();
	OK(MPI_Put(&v, 1, MPI_INT, right, 4, 1, MPI_INT, win));
	calls_to_active();
	OK(MPI_Win_complete(win));
	OK(MPI_Win_wait(win));

	/* an exclusive lock of MPI_PROC_NULL held by every rank locks nobody */
	v = 5000 + rank;
	OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
	OK(MPI_Put(&v, 1, MPI_INT, right, 5, 1, MPI_INT, win));
	OK(MPI_Win_unlock(right, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	OK(MPI_Win_unlock(MPI_PROC_NULL, win));
	check_window("after the epochs", after);

	CHECK_MPI(MPI_Group_free(&gl));
	CHECK_MPI(MPI_Group_free(&gr));
	CHECK_MPI(MPI_Win_free(&win));
	if (rank == 0)
		printf("ok proc_null\n");
	MPI_Finalize();
	return 0;
}
