/*
 * RMA error classes through the window's error handler (MPI_ERRORS_RETURN):
 * MPI_ERR_RMA_SYNC, MPI_ERR_RANK, MPI_ERR_RMA_RANGE, MPI_ERR_TYPE,
 * MPI_ERR_OP, MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_WIN,
 * MPI_ERR_RMA_FLAVOR, and MPI_ERR_RMA_SYNC for a lock on a no_locks window.
 * After each error: every rank's window memory is what it was (an
 * erroneous call writes nothing, at the target or in the origin's buffers),
 * and the window still works -- a fence epoch, an exclusive lock epoch, a
 * post/start/complete/wait epoch and a lock_all epoch run and are checked.
 * A user error handler is called once per error with the error's code.
 *
 *   rma_errors [test]
 */
#include "testutil.h"

static int rank, size, left, right;

enum { LEN = 16, PAT = 8 };	/* [0, PAT): a pattern; [PAT, LEN): go_on's */

static MPI_Win win;
static int *base, expect[LEN], token;
static MPI_Group g_left, g_right;

static int pattern(int who, int i) { return 1000 * (who + 1) + i; }

static int eclass(int code)
{
	int c;

	CHECK_MPI(MPI_Error_class(code, &c));
	return c;
}

#define EXPECT_ERR(call, cls)                                                  \
	do {                                                                   \
		int rc_ = (call);                                              \
		if (eclass(rc_) != (cls)) {                                    \
			fprintf(stderr, "rank %d: line %d: %s returned class " \
				"%d, want %d (%s)\n", rank, __LINE__, #call,   \
				eclass(rc_), (cls), #cls);                     \
			CHECK(eclass(rc_) == (cls));                           \
		}                                                              \
	} while (0)

/* Every rank's window holds exactly `expect`. */
static void check_window(const char *what)
{
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < LEN; i++)
		if (base[i] != expect[i]) {
			fprintf(stderr, "rank %d: after %s: element %d is %d, want %d\n", rank,
				what, i, base[i], expect[i]);
			CHECK(base[i] == expect[i]);
		}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/*
 * The window is unchanged, then works in every synchronization mode: each
 * rank writes into its right neighbour's [PAT, LEN) and reads its pattern.
 */
static void go_on(const char *what)
{
	int v, got[PAT], one = 1;

	check_window(what);
	token++;
	v = token * 100 + rank;
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, PAT, 1, MPI_INT, win));
	CHECK_MPI(MPI_Get(got, PAT, MPI_INT, right, 0, PAT, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	for (int i = 0; i < PAT; i++)
		CHECK(got[i] == pattern(right, i));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, PAT + 1, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(right, win));
	CHECK_MPI(MPI_Win_post(g_left, 0, win));
	CHECK_MPI(MPI_Win_start(g_right, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, PAT + 2, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, PAT + 3, 1, MPI_INT, MPI_SUM, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	for (int i = 0; i < 3; i++)
		expect[PAT + i] = token * 100 + left;
	expect[PAT + 3]++;
	check_window(what);
}

static void setup(void)
{
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	g_left = tu_group_of(left);
	g_right = tu_group_of(right);
	CHECK_MPI(MPI_Win_allocate(LEN * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	for (int i = 0; i < LEN; i++)
		expect[i] = base[i] = i < PAT ? pattern(rank, i) : 0;
	go_on("setup");
}

static void teardown(void)
{
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Group_free(&g_left));
	CHECK_MPI(MPI_Group_free(&g_right));
}

/* Communication and synchronization calls outside any epoch. */
static void test_sync_no_epoch(void)
{
	int v = -1, r[PAT], c = 0;
	MPI_Request rq;

	setup();
	for (int i = 0; i < PAT; i++)
		r[i] = -2;
	EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Get(r, PAT, MPI_INT, right, 0, PAT, MPI_INT, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win),
		   MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Get_accumulate(&v, 1, MPI_INT, r, 1, MPI_INT, right, 0, 1, MPI_INT,
				      MPI_SUM, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Fetch_and_op(&v, r, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Compare_and_swap(&v, &c, r, MPI_INT, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Rget(r, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Raccumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win, &rq),
		   MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Rget_accumulate(&v, 1, MPI_INT, r, 1, MPI_INT, right, 0, 1, MPI_INT,
				       MPI_SUM, win, &rq), MPI_ERR_RMA_SYNC);
	for (int i = 0; i < PAT; i++)
		CHECK(r[i] == -2);	/* nothing read either */
	go_on("RMA calls outside an epoch");
	EXPECT_ERR(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_flush_local(right, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
	go_on("flush/unlock outside an epoch");
	EXPECT_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
	go_on("complete without start");
	EXPECT_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_test(win, &c), MPI_ERR_RMA_SYNC);
	go_on("wait/test without post");
	teardown();
}

/* Locks: a second lock on a target, unlock or flush of a target not
 * locked, operations on a target not locked, lock inside other epochs. */
static void test_sync_locks(void)
{
	int v = -1, other = rank;	/* not `right` when size > 1 */

	setup();
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
	if (size > 1) {
		EXPECT_ERR(MPI_Win_unlock(other, win), MPI_ERR_RMA_SYNC);
		EXPECT_ERR(MPI_Win_flush(other, win), MPI_ERR_RMA_SYNC);
		EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, other, PAT, 1, MPI_INT, win),
			   MPI_ERR_RMA_SYNC);
	}
	EXPECT_ERR(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_start(g_right, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_unlock(right, win));
	EXPECT_ERR(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
	go_on("second lock, unlock of an unlocked target");
	/* lock_all, then a lock or fence or start */
	CHECK_MPI(MPI_Win_lock_all(0, win));
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_post(g_left, 0, win));	/* exposure may overlap */
	EXPECT_ERR(MPI_Win_start(g_right, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_start(g_right, 0, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	go_on("lock, fence or start inside lock_all");
	teardown();
}

/* Fence and PSCW epochs mixed with other synchronization. */
static void test_sync_active(void)
{
	int v = 5;

	setup();
	/* a fence epoch with an operation is open: no lock, no lock_all */
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, LEN - 1, 1, MPI_INT, win));
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_start(g_right, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	expect[LEN - 1] = 5;	/* the correct put landed */
	go_on("lock inside a fence epoch");
	/* an access epoch by start: no second start, no lock; a target
	 * outside its group is not accessible */
	CHECK_MPI(MPI_Win_post(g_left, 0, win));
	EXPECT_ERR(MPI_Win_post(g_left, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_start(g_right, 0, win));
	EXPECT_ERR(MPI_Win_start(g_right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC);
	if (size > 1)
		EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, rank, PAT, 1, MPI_INT, win),
			   MPI_ERR_RMA_SYNC);
	if (size > 2)
		EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, left, PAT, 1, MPI_INT, win),
			   MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_complete(win));
	EXPECT_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_wait(win));
	EXPECT_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
	go_on("second post/start, lock inside PSCW");
	/* MPI_Win_test that said yes ended the exposure epoch */
	CHECK_MPI(MPI_Win_post(g_left, 0, win));
	CHECK_MPI(MPI_Win_start(g_right, 0, win));
	CHECK_MPI(MPI_Win_complete(win));
	for (int flag = 0; !flag;)
		CHECK_MPI(MPI_Win_test(win, &flag));
	EXPECT_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_test(win, &v), MPI_ERR_RMA_SYNC);
	go_on("wait after a successful test");
	/* a fence with MPI_MODE_NOSUCCEED opens no epoch */
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, right, PAT, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Accumulate(&v, 1, MPI_INT, right, PAT, 1, MPI_INT, MPI_SUM, win),
		   MPI_ERR_RMA_SYNC);
	go_on("RMA after a fence with MPI_MODE_NOSUCCEED");
	teardown();
}

/* MPI_ERR_RANK: targets outside the window's group. */
static void test_rank(void)
{
	int v = -1, r = -2, c = 0;
	const int bad[2] = { size, -2 };

	setup();
	for (int b = 0; b < 2; b++) {
		EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, bad[b], 0, win), MPI_ERR_RANK);
		EXPECT_ERR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, bad[b], 0, win), MPI_ERR_RANK);
	}
	go_on("lock of a rank outside the group");
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int b = 0; b < 2; b++) {
		int t = bad[b];

		EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RANK);
		EXPECT_ERR(MPI_Get(&r, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RANK);
		EXPECT_ERR(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, win),
			   MPI_ERR_RANK);
		EXPECT_ERR(MPI_Fetch_and_op(&v, &r, MPI_INT, t, 0, MPI_SUM, win), MPI_ERR_RANK);
		EXPECT_ERR(MPI_Compare_and_swap(&v, &c, &r, MPI_INT, t, 0, win), MPI_ERR_RANK);
		EXPECT_ERR(MPI_Win_flush(t, win), MPI_ERR_RANK);
	}
	CHECK(r == -2);
	CHECK_MPI(MPI_Win_unlock_all(win));
	go_on("RMA to a rank outside the group");
	CHECK_MPI(MPI_Win_fence(0, win));
	EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	go_on("put to a rank outside the group in a fence epoch");
	teardown();
}

/* MPI_ERR_RMA_RANGE: nothing written, nothing read. */
static void test_range(void)
{
	int v[4] = { -1, -1, -1, -1 }, r[4] = { -2, -2, -2, -2 }, c = 0, ok[3];
	MPI_Datatype vec, three;
	MPI_Request rq;
	MPI_Win var;
	int *vbase;

	setup();
	CHECK_MPI(MPI_Type_vector(3, 1, 6, MPI_INT, &vec));	/* spans 13 ints */
	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
	CHECK_MPI(MPI_Type_commit(&vec));
	CHECK_MPI(MPI_Type_commit(&three));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	EXPECT_ERR(MPI_Put(v, 1, MPI_INT, right, LEN, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 2, MPI_INT, right, LEN - 1, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 3, MPI_INT, right, LEN - 2, 1, three, win), MPI_ERR_RMA_RANGE);
	/* elements 4, 10 fit, 16 does not: none of them is written */
	EXPECT_ERR(MPI_Put(v, 3, MPI_INT, right, 4, 1, vec, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Accumulate(v, 3, MPI_INT, right, 4, 1, vec, MPI_SUM, win),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Accumulate(v, 2, MPI_INT, right, LEN - 1, 2, MPI_INT, MPI_REPLACE, win),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get(r, 3, MPI_INT, right, 4, 1, vec, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get(r, 1, MPI_INT, right, -3, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get_accumulate(v, 2, MPI_INT, r, 2, MPI_INT, right, LEN - 1, 2, MPI_INT,
				      MPI_SUM, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Fetch_and_op(v, r, MPI_INT, right, LEN, MPI_SUM, win),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Compare_and_swap(v, &c, r, MPI_INT, right, LEN, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Rput(v, 1, MPI_INT, right, LEN, 1, MPI_INT, win, &rq),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Rget(r, 1, MPI_INT, right, -1, 1, MPI_INT, win, &rq),
		   MPI_ERR_RMA_RANGE);
	/* the same vector from 2 (2, 8, 14) is inside the window */
	CHECK_MPI(MPI_Get(ok, 3, MPI_INT, right, 2, 1, vec, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	for (int i = 0; i < 4; i++)
		CHECK(r[i] == -2);	/* nothing read by the failed calls */
	CHECK(ok[0] == pattern(right, 2) && ok[1] == token * 100 + rank && ok[2] == 0);
	go_on("accesses outside the target's window");
	/* the target's size counts, not the origin's: rank q has 4 + 4q ints */
	CHECK_MPI(MPI_Win_allocate((MPI_Aint)(4 + 4 * rank) * sizeof(int), sizeof(int),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &vbase, &var));
	CHECK_MPI(MPI_Win_set_errhandler(var, MPI_ERRORS_RETURN));
	for (int i = 0; i < 4 + 4 * rank; i++)
		vbase[i] = -9;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, var));
	/* everybody but rank 0 has room at 4 itself; rank 0 does not */
	EXPECT_ERR(MPI_Put(v, 1, MPI_INT, 0, 4, 1, MPI_INT, var), MPI_ERR_RMA_RANGE);
	/* the last int of the last rank: past the end of rank 0's own */
	if (rank == 0) {
		int x = 4242;

		CHECK_MPI(MPI_Put(&x, 1, MPI_INT, size - 1, 4 * size - 1, 1, MPI_INT, var));
	}
	CHECK_MPI(MPI_Win_unlock_all(var));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < 4 + 4 * rank; i++)
		CHECK(vbase[i] == (rank == size - 1 && i == 4 * size - 1 ? 4242 : -9));
	CHECK_MPI(MPI_Win_free(&var));
	go_on("range against the target's own size");
	/* a dynamic window: only attached memory is in it */
	MPI_Aint addr, *addrs = malloc(sizeof(MPI_Aint) * (size_t)size);
	int *reg;

	CHECK(addrs);
	CHECK_MPI(MPI_Alloc_mem(8 * sizeof(int), MPI_INFO_NULL, &reg));
	for (int i = 0; i < 8; i++)
		reg[i] = -9;
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &var));
	CHECK_MPI(MPI_Win_set_errhandler(var, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_attach(var, reg, 4 * sizeof(int)));	/* half of it */
	CHECK_MPI(MPI_Get_address(reg, &addr));
	CHECK_MPI(MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, var));
	MPI_Aint at = addrs[right];

	EXPECT_ERR(MPI_Put(v, 1, MPI_INT, right, at + 4 * sizeof(int), 1, MPI_INT, var),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 2, MPI_INT, right, at + 3 * sizeof(int), 2, MPI_INT, var),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 1, MPI_INT, right, at - (MPI_Aint)sizeof(int), 1, MPI_INT, var),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Accumulate(v, 2, MPI_INT, right, at + 3 * sizeof(int), 2, MPI_INT,
				  MPI_SUM, var), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get(r, 2, MPI_INT, right, at + 3 * sizeof(int), 2, MPI_INT, var),
		   MPI_ERR_RMA_RANGE);
	CHECK_MPI(MPI_Win_unlock_all(var));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < 8; i++)
		CHECK(reg[i] == -9);
	CHECK(r[0] == -2 && r[1] == -2);
	CHECK_MPI(MPI_Win_detach(var, reg));
	CHECK_MPI(MPI_Win_free(&var));
	CHECK_MPI(MPI_Free_mem(reg));
	free(addrs);
	go_on("outside the attached memory of a dynamic window");
	CHECK_MPI(MPI_Type_free(&vec));
	CHECK_MPI(MPI_Type_free(&three));
	teardown();
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	(void)dt;
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

/* MPI_ERR_TYPE and MPI_ERR_OP for the accumulate family. */
static void test_type_op(void)
{
	int v[4] = { -1, -1, -1, -1 }, r[4] = { -2, -2, -2, -2 };
	float f[2] = { 1, 1 };
	double d = 1;
	struct { double v; int i; } di = { 1, 1 }, dr = { 0, 0 };
	MPI_Datatype ivec, fvec, two;
	MPI_Op mine;
	int t;

	setup();
	t = right;
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &ivec));
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_FLOAT, &fvec));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
	CHECK_MPI(MPI_Type_commit(&ivec));
	CHECK_MPI(MPI_Type_commit(&fvec));
	CHECK_MPI(MPI_Type_commit(&two));
	CHECK_MPI(MPI_Op_create(user_sum, 1, &mine));
	/* the same errors under lock_all and under an exclusive lock (where
	 * shmpi may use its plain kernels) */
	for (int excl = 0; excl < 2; excl++) {
		if (excl)
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
		else
			CHECK_MPI(MPI_Win_lock_all(0, win));
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_DOUBLE, MPI_SUM, win),
			   MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Accumulate(v, 2, MPI_INT, t, 0, 1, fvec, MPI_SUM, win),
			   MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Accumulate(f, 2, MPI_FLOAT, t, 0, 1, ivec, MPI_REPLACE, win),
			   MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Get_accumulate(v, 1, MPI_INT, r, 1, MPI_INT, t, 0, 1, MPI_LONG,
					      MPI_SUM, win), MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Fetch_and_op(v, r, two, t, 0, MPI_SUM, win), MPI_ERR_TYPE);
		/* compare-and-swap: a derived type, and pair types of 12 bytes
		 * with a gap (floating types of 4 and 8 bytes are the extension
		 * of README: rma_atomic's test_types) */
		EXPECT_ERR(MPI_Compare_and_swap(v, v, r, two, t, 0, win), MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Compare_and_swap(&di, &di, &dr, MPI_DOUBLE_INT, t, 0, win),
			   MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Compare_and_swap(&di, &di, &dr, MPI_LONG_INT, t, 0, win),
			   MPI_ERR_TYPE);
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, mine, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_MAXLOC, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(&d, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_BAND, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(&di, 1, MPI_DOUBLE_INT, t, 0, 1, MPI_DOUBLE_INT, MPI_SUM,
					  win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Fetch_and_op(v, r, MPI_INT, t, 0, MPI_MINLOC, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Get_accumulate(v, 1, MPI_INT, r, 1, MPI_INT, t, 0, 1, MPI_INT, mine,
					      win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_OP_NULL, win),
			   MPI_ERR_OP);
		/* MPI_NO_OP is for the fetching calls only (MPI 3.1, 11.3.4) */
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_NO_OP, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(v, 3, MPI_INT, t, 0, 3, MPI_INT, MPI_NO_OP, win),
			   MPI_ERR_OP);
		{
			MPI_Request rq = MPI_REQUEST_NULL;

			EXPECT_ERR(MPI_Raccumulate(v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_NO_OP, win,
						   &rq), MPI_ERR_OP);
			CHECK(rq == MPI_REQUEST_NULL);
		}
		/* ops outside their type groups: no SUM on bytes or booleans, no bit
		 * op on floating point, no logical op on floating point */
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_BYTE, t, 0, 1, MPI_BYTE, MPI_SUM, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(v, 1, MPI_C_BOOL, t, 0, 1, MPI_C_BOOL, MPI_SUM, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(f, 1, MPI_FLOAT, t, 0, 1, MPI_FLOAT, MPI_BXOR, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(&d, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_LAND, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Fetch_and_op(f, r, MPI_FLOAT, t, 0, MPI_BOR, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Fetch_and_op(v, r, MPI_BYTE, t, 0, MPI_SUM, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Fetch_and_op(v, r, MPI_WCHAR, t, 0, MPI_SUM, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Get_accumulate(v, 1, MPI_WCHAR, r, 1, MPI_WCHAR, t, 0, 1, MPI_WCHAR,
					      MPI_BXOR, win), MPI_ERR_OP);
		/* the same with several elements (which shmpi may apply inline) */
		EXPECT_ERR(MPI_Accumulate(v, 3, MPI_BYTE, t, 0, 3, MPI_BYTE, MPI_SUM, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Accumulate(f, 2, MPI_FLOAT, t, 0, 2, MPI_FLOAT, MPI_BXOR, win),
			   MPI_ERR_OP);
		EXPECT_ERR(MPI_Get_accumulate(v, 3, MPI_WCHAR, r, 3, MPI_WCHAR, t, 0, 3, MPI_WCHAR,
					      MPI_SUM, win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Get_accumulate(v, 3, MPI_INT, r, 3, MPI_INT, t, 0, 3, MPI_INT, mine,
					      win), MPI_ERR_OP);
		EXPECT_ERR(MPI_Get_accumulate(v, 3, MPI_INT, r, 3, MPI_INT, t, 0, 3, MPI_INT,
					      MPI_MAXLOC, win), MPI_ERR_OP);
		/* a large count below INT_MIN is negative, whatever its low 32
		 * bits (here 1) */
		{
			const MPI_Count bad = -(MPI_Count)0xffffffff;

			EXPECT_ERR(MPI_Accumulate_c(v, bad, MPI_INT, t, 0, bad, MPI_INT, MPI_SUM,
						    win), MPI_ERR_COUNT);
			EXPECT_ERR(MPI_Get_accumulate_c(v, bad, MPI_INT, r, bad, MPI_INT, t, 0, bad,
							MPI_INT, MPI_SUM, win), MPI_ERR_COUNT);
			EXPECT_ERR(MPI_Put_c(v, bad, MPI_INT, t, 0, bad, MPI_INT, win),
				   MPI_ERR_COUNT);
			EXPECT_ERR(MPI_Get_c(r, bad, MPI_INT, t, 0, bad, MPI_INT, win),
				   MPI_ERR_COUNT);
		}
		if (excl)
			CHECK_MPI(MPI_Win_unlock(t, win));
		else
			CHECK_MPI(MPI_Win_unlock_all(win));
		CHECK(r[0] == -2 && dr.v == 0 && dr.i == 0 && d == 1);
		go_on(excl ? "accumulate type and op mismatches, exclusive lock" :
			     "accumulate type and op mismatches, lock_all");
	}
	CHECK_MPI(MPI_Op_free(&mine));
	CHECK_MPI(MPI_Type_free(&ivec));
	CHECK_MPI(MPI_Type_free(&fvec));
	CHECK_MPI(MPI_Type_free(&two));
	teardown();
}

/* MPI_ERR_LOCKTYPE and MPI_ERR_ASSERT. */
static void test_locktype_assert(void)
{
	const int bogus = 1 << 28;

	setup();
	EXPECT_ERR(MPI_Win_lock(0, right, 0, win), MPI_ERR_LOCKTYPE);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED + 100, right, 0, win), MPI_ERR_LOCKTYPE);
	go_on("bad lock type");
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, bogus, win), MPI_ERR_ASSERT);
	EXPECT_ERR(MPI_Win_lock_all(bogus, win), MPI_ERR_ASSERT);
	go_on("bad lock assertion");
	EXPECT_ERR(MPI_Win_fence(bogus, win), MPI_ERR_ASSERT);
	EXPECT_ERR(MPI_Win_fence(-1, win), MPI_ERR_ASSERT);
	go_on("bad fence assertion");
	EXPECT_ERR(MPI_Win_post(g_left, bogus, win), MPI_ERR_ASSERT);
	CHECK_MPI(MPI_Win_post(g_left, 0, win));
	EXPECT_ERR(MPI_Win_start(g_right, bogus, win), MPI_ERR_ASSERT);
	CHECK_MPI(MPI_Win_start(g_right, 0, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	go_on("bad post/start assertion");
	teardown();
}

/* MPI_ERR_WIN (a freed handle), MPI_ERR_RMA_FLAVOR, no_locks. */
static void test_win_flavor_nolocks(void)
{
	MPI_Win w2, stale;
	MPI_Info info;
	int *b2, v = 0, flag, *mem;
	void *attr;

	setup();
	/* errors on a window that is not one go to MPI_COMM_WORLD's (MPI-3)
	 * or MPI_COMM_SELF's (MPI-4) handler */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &b2, &w2));
	stale = w2;
	CHECK_MPI(MPI_Win_free(&w2));
	CHECK(w2 == MPI_WIN_NULL);
	EXPECT_ERR(MPI_Win_fence(0, stale), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, stale), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, stale), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Win_get_attr(stale, MPI_WIN_BASE, &attr, &flag), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Win_free(&stale), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
	EXPECT_ERR(MPI_Win_lock_all(0, MPI_WIN_NULL), MPI_ERR_WIN);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
	go_on("a freed window handle");
	/* attach and detach need a dynamic window */
	CHECK_MPI(MPI_Alloc_mem(64, MPI_INFO_NULL, &mem));
	EXPECT_ERR(MPI_Win_attach(win, mem, 64), MPI_ERR_RMA_FLAVOR);
	EXPECT_ERR(MPI_Win_detach(win, base), MPI_ERR_RMA_FLAVOR);
	CHECK_MPI(MPI_Win_create(mem, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
	CHECK_MPI(MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN));
	EXPECT_ERR(MPI_Win_attach(w2, base, 4), MPI_ERR_RMA_FLAVOR);
	CHECK_MPI(MPI_Win_free(&w2));
	CHECK_MPI(MPI_Free_mem(mem));
	go_on("attach to a window that is not dynamic");
	/* no_locks: lock and lock_all are synchronization errors; fence works */
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "no_locks", "true"));
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &b2, &w2));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN));
	*b2 = 3;
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w2), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w2), MPI_ERR_RMA_SYNC);
	EXPECT_ERR(MPI_Win_lock_all(0, w2), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_fence(0, w2));
	CHECK_MPI(MPI_Accumulate(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, w2));
	CHECK_MPI(MPI_Win_fence(0, w2));
	CHECK(*b2 == 3 + left);
	CHECK_MPI(MPI_Win_free(&w2));
	go_on("lock on a no_locks window");
	teardown();
}

/* A user error handler: called once per error, with its code. */
static int handler_calls, handler_code;
static MPI_Win handler_win;

static void count_errors(MPI_Win *w, int *code, ...)
{
	handler_calls++;
	handler_code = *code;
	handler_win = *w;
}

static void test_user_handler(void)
{
	MPI_Errhandler eh, got;
	int v = 0, rc;

	setup();
	CHECK_MPI(MPI_Win_create_errhandler(count_errors, &eh));
	CHECK_MPI(MPI_Win_set_errhandler(win, eh));
	CHECK_MPI(MPI_Win_get_errhandler(win, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));
	rc = MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	CHECK(eclass(rc) == MPI_ERR_RMA_SYNC);
	CHECK(handler_calls == 1 && handler_code == rc && handler_win == win);
	rc = MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win);
	CHECK(eclass(rc) == MPI_ERR_RANK);
	CHECK(handler_calls == 2 && handler_code == rc);
	CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
	CHECK(handler_calls == 3 && eclass(handler_code) == MPI_ERR_OTHER);
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Errhandler_free(&eh));
	EXPECT_ERR(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
	CHECK(handler_calls == 3);
	go_on("a user error handler");
	teardown();
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("sync_no_epoch", test_sync_no_epoch);
	TU_RUN("sync_locks", test_sync_locks);
	TU_RUN("sync_active", test_sync_active);
	TU_RUN("rank", test_rank);
	TU_RUN("range", test_range);
	TU_RUN("type_op", test_type_op);
	TU_RUN("locktype_assert", test_locktype_assert);
	TU_RUN("win_flavor_nolocks", test_win_flavor_nolocks);
	TU_RUN("user_handler", test_user_handler);
	MPI_Finalize();
	return 0;
}
