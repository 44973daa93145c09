/*
 * Windows on private memory (MPI_Win_create on malloc or stack memory),
 * what the other RMA suites cannot see (they run on private memory too,
 * with TU_PRIVATE=1):
 *   memory    which path a window takes (info shmpi_memory), stack memory,
 *             MPI_Win_shared_query on it, mixed windows
 *   table     the target's lock table, every (incoming, existing) pair:
 *             a holder keeps a lock on rank 0 while a requester asks for
 *             another; granted requests finish while the lock is held,
 *             queued ones only after it is released (3 ranks)
 *   order     queued requests are granted in arrival order (5 ranks)
 *   single    a lone short operation travels with the lock request (info
 *             shmpi_single_op_unlocks), others take a lock request
 *             (shmpi_lock_requests)
 *   no_locks  info no_locks=true: lock calls are MPI_ERR_RMA_SYNC, fence
 *             and PSCW work
 *   dynamic   a dynamic window with malloc and MPI_Alloc_mem regions
 *             attached: every call and epoch on both kinds at once
 *   large     a 4 MiB put and get with derived types on both sides, in
 *             lock and fence epochs, byte for byte
 *   weak | strong [MS]
 *             rank 0 computes outside MPI for MS ms (1500); rank 1's
 *             lock/put/unlock returns only after rank 0 is back in MPI
 *             (weak), or while it still computes (strong)
 * Rank 0 prints "ok NAME" per test.
 */
#include <stdint.h>

#include "testutil.h"

static int rank, size;
static int compute_ms = 1500;	/* test_progress: rank 0's computation */

static const char *info_value(MPI_Win win, const char *key, char *v, int len)
{
	MPI_Info info;
	int flag;

	CHECK_MPI(MPI_Win_get_info(win, &info));
	CHECK_MPI(MPI_Info_get(info, key, len - 1, v, &flag));
	CHECK_MPI(MPI_Info_free(&info));
	if (!flag)
		v[0] = 0;
	return v;
}

static long info_long(MPI_Win win, const char *key)
{
	char v[64];

	return atol(info_value(win, key, v, sizeof(v)));
}

static void test_memory(void)
{
	char v[64];
	int stack[64];
	int *heap = malloc(64 * sizeof(int)), *shared;
	MPI_Win wh, ws, wa, wm;
	MPI_Aint sz;
	int du;
	void *p;

	CHECK(heap != NULL);
	CHECK_MPI(MPI_Win_create(heap, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &wh));
	CHECK(!strcmp(info_value(wh, "shmpi_memory", v, sizeof(v)), "private"));
	CHECK_MPI(MPI_Alloc_mem(64 * sizeof(int), MPI_INFO_NULL, &shared));
	CHECK_MPI(MPI_Win_create(shared, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &wa));
	CHECK(!strcmp(info_value(wa, "shmpi_memory", v, sizeof(v)), "direct"));
	/* private memory is out of others' reach, not of its owner's */
	CHECK_MPI(MPI_Win_shared_query(wh, (rank + 1) % size, &sz, &du, &p));
	CHECK(size == 1 || (sz == 0 && p == NULL));
	CHECK_MPI(MPI_Win_shared_query(wh, rank, &sz, &du, &p));
	CHECK(sz == 64 * sizeof(int) && p == heap && du == sizeof(int));

	/* stack memory, and a window mixing both kinds (odd ranks private) */
	for (int i = 0; i < 64; i++)
		stack[i] = -1;
	CHECK_MPI(MPI_Win_create(stack, sizeof(stack), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &ws));
	CHECK_MPI(MPI_Win_create(rank % 2 ? (void *)heap : (void *)shared, 64 * sizeof(int),
				 sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wm));
	CHECK(!strcmp(info_value(wm, "shmpi_memory", v, sizeof(v)),
		      rank % 2 ? "private" : "direct"));
	for (int i = 0; i < 64; i++)
		heap[i] = shared[i] = -1;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, ws));
	CHECK_MPI(MPI_Win_lock_all(0, wm));
	for (int t = 0; t < size; t++) {
		int val = rank * 100 + t;

		CHECK_MPI(MPI_Put(&val, 1, MPI_INT, t, rank, 1, MPI_INT, ws));
		CHECK_MPI(MPI_Accumulate(&val, 1, MPI_INT, t, rank, 1, MPI_INT, MPI_REPLACE,
					 wm));
	}
	CHECK_MPI(MPI_Win_unlock_all(wm));
	CHECK_MPI(MPI_Win_unlock_all(ws));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int o = 0; o < size; o++) {
		CHECK(stack[o] == o * 100 + rank);
		CHECK((rank % 2 ? heap : shared)[o] == o * 100 + rank);
	}
	CHECK_MPI(MPI_Win_free(&wm));
	CHECK_MPI(MPI_Win_free(&ws));
	CHECK_MPI(MPI_Win_free(&wa));
	CHECK_MPI(MPI_Win_free(&wh));
	CHECK_MPI(MPI_Free_mem(shared));
	free(heap);
}

/* Whether a message from `from` with tag arrives within ms. */
static int arrives_within(int from, int tag, int ms)
{
	double end = MPI_Wtime() + ms / 1000.0;
	int flag = 0;

	while (!flag && MPI_Wtime() < end) {
		CHECK_MPI(MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
		if (!flag)
			tu_sleep_ms(1);
	}
	return flag;
}

/*
 * One (incoming, existing) pair: rank 1 holds `held` on rank 0, rank 2 asks
 * for `asked` with one accumulate.  granted: rank 2 is done while rank 1
 * still holds; otherwise rank 2 is done only after rank 1 let go.
 */
static void table_pair(int held, int asked, int granted)
{
	int *mem = calloc(4, sizeof(int)), token = 0, one = 1, got = 0;
	MPI_Win win;

	CHECK(mem != NULL);
	CHECK_MPI(MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 1) {
		CHECK_MPI(MPI_Win_lock(held, 0, 0, win));
		CHECK_MPI(MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));	/* the lock is held now */
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 2, 1, MPI_COMM_WORLD));
		/* rank 2 finishes under our lock, or it cannot */
		CHECK(arrives_within(2, 2, granted ? 20000 : 300) == granted);
		CHECK_MPI(MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK(got == (granted ? 1 : 0));
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 2, 2, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	} else if (rank == 2) {
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Win_lock(asked, 0, 0, win));
		CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
	}
	/* rank 0 serves both from inside MPI */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(mem[0] == 1);
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

static void test_table(void)
{
	const int S = MPI_LOCK_SHARED, X = MPI_LOCK_EXCLUSIVE;

	CHECK(size >= 3);
	table_pair(X, S, 0);	/* shared vs exclusive: queue */
	table_pair(S, S, 1);	/* shared vs shared: grant */
	table_pair(X, X, 0);	/* exclusive vs exclusive: queue */
	table_pair(S, X, 0);	/* exclusive vs shared: queue */
	/* vs no lock: grant, whatever comes */
	{
		int *mem = calloc(1, sizeof(int)), one = 1;
		MPI_Win win;

		CHECK_MPI(MPI_Win_create(mem, sizeof(int), sizeof(int), MPI_INFO_NULL,
					 MPI_COMM_WORLD, &win));
		for (int k = 0; k < 2; k++) {
			CHECK_MPI(MPI_Win_lock(k ? X : S, 0, 0, win));
			CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
						 win));
			CHECK_MPI(MPI_Win_unlock(0, win));
		}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (rank == 0)
			CHECK(*mem == 2 * size);
		CHECK_MPI(MPI_Win_free(&win));
		free(mem);
	}
}

/* Ranks 2, 3, 4 queue shared, exclusive, shared behind rank 1's exclusive
 * lock, one after the other (rank 0 watches its queue grow); each takes a
 * ticket with a lone fetch-and-add: the tickets follow the arrival order. */
static void test_order(void)
{
	const int types[] = { 0, 0, MPI_LOCK_SHARED, MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED };
	long *mem = calloc(2, sizeof(long)), one = 1, ticket = -1;
	int token = 0;
	MPI_Win win;

	CHECK(size >= 5 && mem != NULL);
	CHECK_MPI(MPI_Win_create(mem, 2 * sizeof(long), sizeof(long), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		for (int k = 2; k <= 4; k++) {
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, k, 1, MPI_COMM_WORLD));
			/* until the request is in the table */
			while (info_long(win, "shmpi_lock_queue") < k - 1) {
				int flag;

				CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag,
						     MPI_STATUS_IGNORE));
			}
		}
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 1, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK(ticket == 0);
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK(info_long(win, "shmpi_lock_requests") == 1);
	} else if (rank <= 4) {
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Win_lock(types[rank], 0, 0, win));
		CHECK_MPI(MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK(ticket == rank - 2);
		/* each went with its lock request */
		CHECK(info_long(win, "shmpi_single_op_unlocks") == 1);
		CHECK(info_long(win, "shmpi_lock_requests") == 0);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		CHECK(mem[0] == 3 && mem[1] == 1 && info_long(win, "shmpi_lock_queue") == 0);
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

static void test_single(void)
{
	const size_t big = 1 << 20;
	char *mem = calloc(big, 1), *buf = malloc(big);
	int t = (rank + 1) % size, v = rank;
	MPI_Win win;

	CHECK(mem != NULL && buf != NULL);
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)big, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	/* a lone short put, get, accumulate: one packet each */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	CHECK_MPI(MPI_Get(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK(v == rank);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, t, 4, 1, MPI_INT, MPI_SUM, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK(info_long(win, "shmpi_single_op_unlocks") == 3);
	CHECK(info_long(win, "shmpi_lock_requests") == 0);
	/* two operations, a large one, a flush: a lock request each */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 8, 1, MPI_INT, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 12, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Get(buf, (int)big, MPI_BYTE, t, 0, (int)big, MPI_BYTE, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 16, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	/* nothing at all: no packet */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK(info_long(win, "shmpi_single_op_unlocks") == 3);
	CHECK(info_long(win, "shmpi_lock_requests") == 3);
	CHECK(((int *)buf)[0] == rank && ((int *)buf)[1] == rank);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	{
		int from = (rank + size - 1) % size, *m = (int *)mem;

		CHECK(m[0] == from && m[1] == from && m[2] == from && m[3] == from &&
		      m[4] == from);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
	free(buf);
}

static void test_no_locks(void)
{
	int *mem = calloc((size_t)size, sizeof(int)), v = rank + 1;
	MPI_Info info;
	MPI_Group world;
	MPI_Win win;
	char s[16];

	CHECK(mem != NULL);
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "no_locks", "true"));
	CHECK_MPI(MPI_Win_create(mem, size * (MPI_Aint)sizeof(int), sizeof(int), info,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(!strcmp(info_value(win, "no_locks", s, sizeof(s)), "true"));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_ERR_RMA_SYNC);
	CHECK(MPI_Win_lock_all(0, win) == MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int t = 0; t < size; t++)
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, rank, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int o = 0; o < size; o++)
		CHECK(mem[o] == o + 1);
	/* PSCW among all */
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Win_post(world, 0, win));
	CHECK_MPI(MPI_Win_start(world, 0, win));
	v = -v;
	for (int t = 0; t < size; t++)
		CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, t, rank, 1, MPI_INT, MPI_SUM, win));
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	for (int o = 0; o < size; o++)
		CHECK(mem[o] == 0);
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

static void test_dynamic(void)
{
	const int n = 64;
	long *heap = calloc((size_t)n, sizeof(long)), *shm, one = 1, old;
	MPI_Aint *addr = malloc(2 * (size_t)size * sizeof(MPI_Aint)), mine[2];
	MPI_Win win;
	char v[32];

	CHECK(heap && addr);
	CHECK_MPI(MPI_Alloc_mem(n * (MPI_Aint)sizeof(long), MPI_INFO_NULL, &shm));
	memset(shm, 0, (size_t)n * sizeof(long));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK(!strcmp(info_value(win, "shmpi_memory", v, sizeof(v)), "dynamic"));
	CHECK_MPI(MPI_Win_attach(win, heap, n * (MPI_Aint)sizeof(long)));
	CHECK_MPI(MPI_Win_attach(win, shm, n * (MPI_Aint)sizeof(long)));
	CHECK_MPI(MPI_Get_address(heap, &mine[0]));
	CHECK_MPI(MPI_Get_address(shm, &mine[1]));
	CHECK_MPI(MPI_Allgather(mine, 2, MPI_AINT, addr, 2, MPI_AINT, MPI_COMM_WORLD));
	/* passive: a put to slot `rank` and a sum into slot n-1 of both regions
	 * of every target, read back after a flush */
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int t = 0; t < size; t++)
		for (int k = 0; k < 2; k++) {
			long val = rank * 10 + k, back = -1;
			MPI_Aint at = MPI_Aint_add(addr[2 * t + k], rank * (MPI_Aint)sizeof(long));

			CHECK_MPI(MPI_Put(&val, 1, MPI_LONG, t, at, 1, MPI_LONG, win));
			CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, t,
						   MPI_Aint_add(addr[2 * t + k],
								(n - 1) * (MPI_Aint)sizeof(long)),
						   MPI_SUM, win));
			CHECK_MPI(MPI_Win_flush(t, win));
			CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, t, at, 1, MPI_LONG, win));
			CHECK_MPI(MPI_Win_flush(t, win));
			CHECK(back == val && old >= 0 && old < size);
		}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int o = 0; o < size; o++)
		CHECK(heap[o] == o * 10 && shm[o] == o * 10 + 1);
	CHECK(heap[n - 1] == size && shm[n - 1] == size);
	/* fence: an exclusive lock on the left neighbour and then a fence
	 * epoch accumulate into slot n-2 */
	{
		int t = (rank + 1) % size;
		long two = 2;

		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
		for (int k = 0; k < 2; k++)
			CHECK_MPI(MPI_Accumulate(&two, 1, MPI_LONG, t,
						 MPI_Aint_add(addr[2 * t + k],
							      (n - 2) * (MPI_Aint)sizeof(long)),
						 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Win_unlock(t, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		for (int k = 0; k < 2; k++)
			CHECK_MPI(MPI_Accumulate(&two, 1, MPI_LONG, t,
						 MPI_Aint_add(addr[2 * t + k],
							      (n - 2) * (MPI_Aint)sizeof(long)),
						 1, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		CHECK(heap[n - 2] == 4 && shm[n - 2] == 4);
	}
	CHECK_MPI(MPI_Win_detach(win, heap));
	CHECK_MPI(MPI_Win_detach(win, shm));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Free_mem(shm));
	free(heap);
	free(addr);
}

/* 4 MiB as a vector of 3-int blocks with stride 5 at the target, from a
 * contiguous buffer, and back into a vector of stride 4. */
static void test_large(void)
{
	const int blocks = (4 << 20) / 12;
	const size_t tbytes = (size_t)blocks * 5 * sizeof(int);
	int *mem = malloc(tbytes), *src = malloc((size_t)blocks * 3 * sizeof(int));
	int *back = malloc((size_t)blocks * 4 * sizeof(int));
	int t = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Datatype tv, ov;
	MPI_Win win;

	CHECK(mem && src && back);
	for (size_t i = 0; i < tbytes / sizeof(int); i++)
		mem[i] = -7;
	for (int i = 0; i < blocks * 3; i++)
		src[i] = rank * 1000003 + i;
	CHECK_MPI(MPI_Type_vector(blocks, 3, 5, MPI_INT, &tv));
	CHECK_MPI(MPI_Type_commit(&tv));
	CHECK_MPI(MPI_Type_vector(blocks, 3, 4, MPI_INT, &ov));
	CHECK_MPI(MPI_Type_commit(&ov));
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)tbytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	for (int epoch = 0; epoch < 2; epoch++) {
		memset(back, 0, (size_t)blocks * 4 * sizeof(int));
		if (epoch == 0) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
			CHECK_MPI(MPI_Put(src, blocks * 3, MPI_INT, t, 0, 1, tv, win));
			CHECK_MPI(MPI_Win_flush(t, win));
			CHECK_MPI(MPI_Get(back, 1, ov, t, 0, 1, tv, win));
			CHECK_MPI(MPI_Win_unlock(t, win));
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		} else {
			CHECK_MPI(MPI_Win_fence(0, win));
			CHECK_MPI(MPI_Put(src, blocks * 3, MPI_INT, t, 0, 1, tv, win));
			CHECK_MPI(MPI_Win_fence(0, win));
			CHECK_MPI(MPI_Get(back, 1, ov, t, 0, 1, tv, win));
			CHECK_MPI(MPI_Win_fence(0, win));
		}
		for (int b = 0; b < blocks; b++)
			for (int k = 0; k < 5; k++) {
				CHECK(mem[b * 5 + k] == (k < 3 ? from * 1000003 + b * 3 + k : -7));
				if (k < 4)
					CHECK(back[b * 4 + k] == (k < 3 ? src[b * 3 + k] : 0));
			}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Type_free(&tv));
	CHECK_MPI(MPI_Type_free(&ov));
	free(mem);
	free(src);
	free(back);
}

/*
 * The standard's rationale on RMA progress (MPI 3.1, section 11.7.3):
 * rank 0 computes outside MPI for `ms`; rank 1 locks, puts and unlocks
 * meanwhile.  Weak progress: the unlock returns only after
 * rank 0 calls MPI again; strong: it returns while rank 0 still computes.
 * Both sides read the same clock (MPI_Wtime is global on one node).
 */
static void test_progress(int strong)
{
	const int ms = compute_ms;
	int *mem = calloc(1, sizeof(int)), v = 42;
	double back_in_mpi = 0, unlocked = 0;
	MPI_Win win;

	CHECK(mem != NULL && size >= 2);
	CHECK_MPI(MPI_Win_create(mem, sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		double end = MPI_Wtime() + ms / 1000.0;
		volatile double x = 0;

		while (MPI_Wtime() < end)	/* computing: no MPI call but the clock */
			x += 1;
		back_in_mpi = MPI_Wtime();
		CHECK_MPI(MPI_Recv(&unlocked, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK(*mem == 42);
		if (strong)
			CHECK(unlocked < back_in_mpi - ms / 4000.0);
		else
			CHECK(unlocked >= back_in_mpi);
	} else if (rank == 1) {
		tu_sleep_ms(50);	/* rank 0 is computing by now */
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		unlocked = MPI_Wtime();
		CHECK_MPI(MPI_Send(&unlocked, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

static void test_weak(void)
{
	test_progress(0);
}

static void test_strong(void)
{
	test_progress(1);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2)
		compute_ms = atoi(argv[2]);
	TU_RUN("memory", test_memory);
	if (!strcmp(which, "table"))
		TU_RUN("table", test_table);
	if (!strcmp(which, "order"))
		TU_RUN("order", test_order);
	TU_RUN("single", test_single);
	TU_RUN("no_locks", test_no_locks);
	TU_RUN("dynamic", test_dynamic);
	TU_RUN("large", test_large);
	if (!strcmp(which, "weak"))
		TU_RUN("weak", test_weak);
	if (!strcmp(which, "strong"))
		TU_RUN("strong", test_strong);
	MPI_Finalize();
	return 0;
}
