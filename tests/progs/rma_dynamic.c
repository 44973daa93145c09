/*
 * Dynamic windows (MPI 3.1, section 11.2.4): any number of attached
 * regions, ranges across adjacent regions, ranges leaving attached memory,
 * and attach/detach while others access other regions of the same rank.
 * Each rank works on its right neighbour.  Also builds with any other MPI
 * (the errors test checks what shmpi says, which the standard leaves open).
 *
 *   rma_dynamic many [alloc|malloc] [N]   N regions per rank (100000)
 *   rma_dynamic halves                    ranges across two regions
 *   rma_dynamic concurrent [alloc|malloc] attach/detach during accesses
 *   rma_dynamic reuse                     new MPI_Alloc_mem memory each round
 *   rma_dynamic unfreed                   a window left to MPI_Finalize
 *   rma_dynamic errors                    error classes (MPI_ERRORS_RETURN)
 *   rma_dynamic fatal                     a range error's message, fatal
 */
#include <dirent.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

static int rank, size, left, right;

/* Memory from MPI_Alloc_mem (alloc) or malloc. */
static void *mem_get(int alloc, size_t n)
{
	void *p = NULL;

	if (alloc)
		CHECK_MPI(MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &p));
	else
		p = malloc(n);
	CHECK(p);
	return p;
}

static void mem_put(int alloc, void *p)
{
	if (alloc)
		CHECK_MPI(MPI_Free_mem(p));
	else
		free(p);
}

static int arg_alloc(int argc, char **argv)
{
	return argc < 3 || strcmp(argv[2], "malloc") != 0;
}

/* Every rank's value of a */
static MPI_Aint *all_addr(const void *p)
{
	MPI_Aint a, *all = malloc(sizeof(*all) * (size_t)size);

	CHECK(all);
	CHECK_MPI(MPI_Get_address(p, &a));
	CHECK_MPI(MPI_Allgather(&a, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
	return all;
}

/* A permutation of [0, n), the same for a given seed. */
static size_t *shuffled(size_t n, unsigned seed)
{
	size_t *p = malloc(n * sizeof(*p));
	uint64_t x = seed * 2654435761u + 1;

	CHECK(p);
	for (size_t i = 0; i < n; i++)
		p[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		j = (size_t)((x >> 33) % i);
		size_t t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
	return p;
}

/* How many /dev/shm objects this shmpi job has (-1 under other MPIs). */
static int job_objects(void)
{
	const char *job = getenv("SHMPI_JOB");
	char prefix[96];
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (!job)
		return -1;
	snprintf(prefix, sizeof(prefix), "shmpi-%u-%s-", (unsigned)geteuid(), job);
	d = opendir("/dev/shm");
	CHECK(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static double now(void)
{
	return MPI_Wtime();
}

/*
 * N regions of 16 bytes per rank, each in its own 32-byte slot (the other
 * 16 bytes are never attached), attached in a random order; every rank
 * puts to, accumulates to and reads back every region of its right
 * neighbour, then detaches in another order.  Nothing of the window is
 * left in /dev/shm afterwards.
 */
static void test_many(int argc, char **argv)
{
	int alloc = arg_alloc(argc, argv);
	size_t n = argc > 3 ? (size_t)atol(argv[3]) : 100000, *order;
	long *buf, *got = malloc(n * 16), one = 1;
	MPI_Aint *bases;
	MPI_Win win;
	int objects;
	double t;

	CHECK(got);
	objects = job_objects();
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* everybody counted first */
	buf = mem_get(alloc, n * 32);
	for (size_t k = 0; k < n * 4; k++)
		buf[k] = -(long)k;
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	order = shuffled(n, (unsigned)rank + 1);
	t = now();
	for (size_t i = 0; i < n; i++)
		CHECK_MPI(MPI_Win_attach(win, buf + 4 * order[i], 16));
	t = now() - t;
	if (rank == 0)
		fprintf(stderr, "many: %zu attaches in %.3f s (%.2f us each)\n", n, t,
			t / (double)n * 1e6);
	bases = all_addr(buf);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* all attached before the epoch */

	CHECK_MPI(MPI_Win_lock_all(0, win));
	t = now();
	for (size_t k = 0; k < n; k++) {
		MPI_Aint at = bases[right] + (MPI_Aint)(32 * k);

		/* the origin buffer stays untouched until the flush */
		got[k] = (long)rank * 1000000000L + (long)k;
		CHECK_MPI(MPI_Put(&got[k], 1, MPI_LONG, right, at, 1, MPI_LONG, win));
		CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, right, at + 8, 1, MPI_LONG, MPI_SUM,
					 win));
		if (k % 1024 == 1023)
			CHECK_MPI(MPI_Win_flush(right, win));
	}
	CHECK_MPI(MPI_Win_flush(right, win));
	t = now() - t;
	if (rank == 0)
		fprintf(stderr, "many: %zu puts + accumulates in %.3f s (%.2f us a pair)\n",
			n, t, t / (double)n * 1e6);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (size_t k = 0; k < n; k++) {
		CHECK(buf[4 * k] == (long)left * 1000000000L + (long)k);
		CHECK(buf[4 * k + 1] == -(long)(4 * k + 1) + 1);
		CHECK(buf[4 * k + 2] == -(long)(4 * k + 2) && buf[4 * k + 3] == -(long)(4 * k + 3));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (size_t k = 0; k < n; k++) {
		CHECK_MPI(MPI_Get(got + 2 * k, 2, MPI_LONG, right,
				  bases[right] + (MPI_Aint)(32 * k), 2, MPI_LONG, win));
		if (k % 1024 == 1023)
			CHECK_MPI(MPI_Win_flush(right, win));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	for (size_t k = 0; k < n; k++)
		CHECK(got[2 * k] == (long)rank * 1000000000L + (long)k &&
		      got[2 * k + 1] == -(long)(4 * k + 1) + 1);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	free(order);
	order = shuffled(n, (unsigned)rank + 77);
	t = now();
	for (size_t i = 0; i < n; i++)
		CHECK_MPI(MPI_Win_detach(win, buf + 4 * order[i]));
	t = now() - t;
	if (rank == 0)
		fprintf(stderr, "many: %zu detaches in %.3f s\n", n, t);
	CHECK_MPI(MPI_Win_free(&win));
	mem_put(alloc, buf);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(job_objects() == objects);
	free(order);
	free(got);
	free(bases);
}

/* ---- ranges across two regions ------------------------------------------ */

enum { HALF = 4096 };	/* bytes of each region */

/* Two regions end to end: lo and the one after it. */
struct pair {
	const char *name;
	char *lo;		/* 2 * HALF bytes from lo are attached */
	void (*release)(struct pair *);
	void *keep[2];
};

static void release_static(struct pair *p)
{
	(void)p;
}

static void release_alloc2(struct pair *p)
{
	CHECK_MPI(MPI_Free_mem(p->keep[0]));
	CHECK_MPI(MPI_Free_mem(p->keep[1]));
}

static void release_mixed(struct pair *p)
{
	CHECK_MPI(MPI_Free_mem(p->keep[0]));
	CHECK(munmap(p->keep[1], HALF) == 0);
}

static void release_alloc1(struct pair *p)
{
	CHECK_MPI(MPI_Free_mem(p->keep[0]));
}

/* Two MPI_Alloc_mem blocks that happen to lie end to end (shmpi: two
 * segments), or 0 when none of a few do. */
static int pair_alloc2(struct pair *p)
{
	char *b[16];
	int found = 0, n = 0;

	for (; n < 16 && !found; n++) {
		CHECK_MPI(MPI_Alloc_mem(HALF, MPI_INFO_NULL, &b[n]));
		for (int j = 0; j < n && !found; j++)
			if (b[j] + HALF == b[n] || b[n] + HALF == b[j]) {
				p->keep[0] = b[j];
				p->keep[1] = b[n];
				p->lo = b[j] < b[n] ? b[j] : b[n];
				found = 1;
			}
	}
	for (int i = 0; i < n; i++)
		if (b[i] != p->keep[0] && b[i] != p->keep[1])
			CHECK_MPI(MPI_Free_mem(b[i]));
	return found;
}

/* An MPI_Alloc_mem block with private memory mapped right after it (or
 * before), or 0 when the address space will not have it. */
static int pair_mixed(struct pair *p)
{
	char *a, *m;

	CHECK_MPI(MPI_Alloc_mem(HALF, MPI_INFO_NULL, &a));
	m = mmap(a + HALF, HALF, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == a + HALF) {
		p->lo = a;
	} else {
		if (m != MAP_FAILED)
			munmap(m, HALF);
		m = mmap(a - HALF, HALF, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (m != a - HALF) {
			if (m != MAP_FAILED)
				munmap(m, HALF);
			CHECK_MPI(MPI_Free_mem(a));
			return 0;
		}
		p->lo = m;
	}
	p->keep[0] = a;
	p->keep[1] = m;
	return 1;
}

static void add_longs(char *at, const long *v, int n)
{
	for (int i = 0; i < n; i++) {
		long x;

		memcpy(&x, at + 8 * i, 8);
		x += v[i];
		memcpy(at + 8 * i, &x, 8);
	}
}

/*
 * What origin does to its right neighbour's pair, whose boundary is at
 * address `at` there, each step across or beside the boundary and
 * completed before the next: on the window win (and checked against the
 * simulation), or, with win MPI_WIN_NULL, to the simulation alone.  sim:
 * the boundary in a copy of the pair's memory.
 */
static void pair_ops(int origin, char *sim, MPI_Win win, MPI_Aint at, MPI_Datatype vec)
{
	long v[16], got[16], r[2], c;
	struct { int v, i; } in = { origin + 5, 7 }, pg = { 0, 0 }, ps;
	int rma = win != MPI_WIN_NULL;

	for (int i = 0; i < 16; i++)
		v[i] = 1000 * (origin + 1) + i;
	/* a put of 8 longs, 3 below the boundary, and a get of them */
	if (rma) {
		CHECK_MPI(MPI_Put(v, 8, MPI_LONG, right, at - 24, 8, MPI_LONG, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK_MPI(MPI_Get(got, 8, MPI_LONG, right, at - 24, 8, MPI_LONG, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK(!memcmp(got, v, sizeof(long) * 8));
	}
	memcpy(sim - 24, v, sizeof(long) * 8);
	/* accumulate 6 longs from 4 below; get_accumulate 6 from 2 below */
	if (rma) {
		CHECK_MPI(MPI_Accumulate(v, 6, MPI_LONG, right, at - 32, 6, MPI_LONG, MPI_SUM,
					 win));
		CHECK_MPI(MPI_Win_flush(right, win));
	}
	add_longs(sim - 32, v, 6);
	if (rma) {
		CHECK_MPI(MPI_Get_accumulate(v + 6, 6, MPI_LONG, got, 6, MPI_LONG, right,
					     at - 16, 6, MPI_LONG, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK(!memcmp(got, sim - 16, sizeof(long) * 6));
	}
	add_longs(sim - 16, v + 6, 6);
	/* a strided put: 4 longs 3 apart, from 6 below */
	if (rma) {
		CHECK_MPI(MPI_Put(v + 12, 4, MPI_LONG, right, at - 48, 1, vec, win));
		CHECK_MPI(MPI_Win_flush(right, win));
	}
	for (int i = 0; i < 4; i++)
		memcpy(sim - 48 + 24 * i, &v[12 + i], 8);
	/* fetch_and_op just below, compare_and_swap just above */
	memcpy(&c, sim, 8);
	if (rma) {
		CHECK_MPI(MPI_Fetch_and_op(&v[0], &r[0], MPI_LONG, right, at - 8, MPI_SUM, win));
		CHECK_MPI(MPI_Compare_and_swap(&v[1], &c, &r[1], MPI_LONG, right, at, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK(!memcmp(&r[0], sim - 8, 8) && r[1] == c);
	}
	add_longs(sim - 8, v, 1);
	memcpy(sim, &v[1], 8);
	/* a pair of ints (MPI_2INT: aligned as int) whose bytes lie 4 below
	 * and 4 above: MPI_MAXLOC, applied to the element as a whole */
	if (rma) {
		CHECK_MPI(MPI_Accumulate(&in, 1, MPI_2INT, right, at - 4, 1, MPI_2INT,
					 MPI_MAXLOC, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_2INT, &pg, 1, MPI_2INT, right,
					     at - 4, 1, MPI_2INT, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(right, win));
	}
	memcpy(&ps, sim - 4, sizeof(ps));
	if (in.v > ps.v || (in.v == ps.v && in.i < ps.i))
		ps = in;
	memcpy(sim - 4, &ps, sizeof(ps));
	if (rma)
		CHECK(pg.v == ps.v && pg.i == ps.i);
	/* accumulates to the same element are ordered (MPI 3.1, 11.7.2): a
	 * replace across, then sums on one long of each side */
	if (rma) {
		CHECK_MPI(MPI_Accumulate(v + 4, 4, MPI_LONG, right, at - 16, 4, MPI_LONG,
					 MPI_REPLACE, win));
		CHECK_MPI(MPI_Accumulate(v, 1, MPI_LONG, right, at - 16, 1, MPI_LONG, MPI_SUM,
					 win));
		CHECK_MPI(MPI_Accumulate(v, 1, MPI_LONG, right, at + 8, 1, MPI_LONG, MPI_SUM,
					 win));
		CHECK_MPI(MPI_Win_flush(right, win));
	}
	memcpy(sim - 16, v + 4, sizeof(long) * 4);
	add_longs(sim - 16, v, 1);
	add_longs(sim + 8, v, 1);
	/* 16 longs across, read back */
	if (rma) {
		CHECK_MPI(MPI_Get(got, 16, MPI_LONG, right, at - 64, 16, MPI_LONG, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK(!memcmp(got, sim - 64, sizeof(long) * 16));
	}
}

static long sarr[2 * HALF / sizeof(long)];	/* static: private memory */

/* The pair's memory as pair_ops leaves it (the boundary: mem + HALF). */
static void pair_init(char *mem)
{
	for (int i = 0; i < 2 * HALF / (int)sizeof(long); i++) {
		long x = 10 * i;

		memcpy(mem + sizeof(long) * (size_t)i, &x, sizeof(x));
	}
}

/* On the pair p of every rank, attached as two regions: pair_ops from the
 * left neighbour, checked by the target against its own simulation. */
static void pair_run(struct pair *p)
{
	char *sim = malloc(2 * HALF);
	MPI_Aint *lo = all_addr(p->lo);
	MPI_Datatype vec;
	MPI_Win win;

	CHECK(sim);
	pair_init(p->lo);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_attach(win, p->lo, HALF));
	CHECK_MPI(MPI_Win_attach(win, p->lo + HALF, HALF));
	CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_LONG, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	pair_init(sim);
	CHECK_MPI(MPI_Win_lock_all(0, win));
	pair_ops(rank, sim + HALF, win, lo[right] + HALF, vec);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	pair_init(sim);
	pair_ops(left, sim + HALF, MPI_WIN_NULL, 0, vec);
	for (int i = 0; i < 2 * HALF; i++)
		if (p->lo[i] != sim[i]) {
			fprintf(stderr, "rank %d: %s: byte %d (boundary %d) is %d, want %d\n",
				rank, p->name, i, HALF, p->lo[i], sim[i]);
			CHECK(p->lo[i] == sim[i]);
		}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_detach(win, p->lo + HALF));
	CHECK_MPI(MPI_Win_detach(win, p->lo));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Type_free(&vec));
	free(lo);
	free(sim);
}

/* Every rank has the pair, or nobody runs it. */
static void pair_maybe(struct pair *p, int have)
{
	int all = 0;

	CHECK_MPI(MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (all)
		pair_run(p);
	else if (rank == 0)
		fprintf(stderr, "halves: no %s here, not run\n", p->name);
	if (have)
		p->release(p);
}

static void test_halves(void)
{
	struct pair p;
	char *a;

	/* a static array, attached as two halves */
	p = (struct pair){ "static array", (char *)sarr, release_static, { 0 } };
	pair_maybe(&p, 1);
	/* one MPI_Alloc_mem block, attached as two halves */
	CHECK_MPI(MPI_Alloc_mem(2 * HALF, MPI_INFO_NULL, &a));
	p = (struct pair){ "one MPI_Alloc_mem block", a, release_alloc1, { a, NULL } };
	pair_maybe(&p, 1);
	/* two MPI_Alloc_mem blocks end to end */
	p = (struct pair){ .name = "two MPI_Alloc_mem blocks end to end",
			   .release = release_alloc2 };
	pair_maybe(&p, pair_alloc2(&p));
	/* MPI_Alloc_mem memory and private memory end to end */
	p = (struct pair){ .name = "MPI_Alloc_mem and mmap memory end to end",
			   .release = release_mixed };
	pair_maybe(&p, pair_mixed(&p));
}

/* ---- attach and detach while others access --------------------------- */

/* How many tables of dynamic windows (shmpi: "d<ctx>.<rank>.<generation>")
 * this process maps (-1 under other MPIs). */
static int mapped_tables(void)
{
	const char *job = getenv("SHMPI_JOB");
	char prefix[96], line[512];
	FILE *f;
	int n = 0;

	if (!job)
		return -1;
	snprintf(prefix, sizeof(prefix), "/dev/shm/shmpi-%u-%s-d", (unsigned)geteuid(), job);
	f = fopen("/proc/self/maps", "r");
	CHECK(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, prefix) != NULL;
	fclose(f);
	return n;
}

/*
 * Every rank keeps S stable regions for each origin (24 bytes each, in
 * 32-byte slots, CHURN slots apart) attached for the whole test and, in
 * the slots between, attaches and detaches regions all the time, so that
 * its table changes (and grows) while the others look regions up in it.
 * Each origin writes its stable regions on every rank, reads them back
 * and counts in them, in one lock_all epoch: a lookup that read a table
 * halfway through a change would fail or land elsewhere.
 */
static void test_concurrent(int argc, char **argv)
{
	enum { S = 16, CHURN = 128, BATCH = 64 };
	int alloc = arg_alloc(argc, argv);
	int iters = argc > 3 ? atoi(argv[3]) : 6000;
	size_t nslots = (size_t)size * S * CHURN, nchurn = nslots - (size_t)size * S;
	long *buf = mem_get(alloc, nslots * 32);
	unsigned char *on = calloc(nslots, 1);
	size_t *order = shuffled(nchurn * 4, (unsigned)rank + 5), next = 0;
	MPI_Aint *bases = all_addr(buf);
	MPI_Win win;
	int tables;

	CHECK(on);
	memset(buf, 0, nslots * 32);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	for (size_t q = 0; q < (size_t)size * S; q++)
		CHECK_MPI(MPI_Win_attach(win, buf + 4 * CHURN * q, 24));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* the stable ones, before the epoch */
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int i = 0; i < iters; i++) {
		int s = i % S;

		/* attach or detach a batch of the slots between */
		for (int b = 0; b < BATCH; b++) {
			size_t c = order[next++ % (nchurn * 4)] % nchurn;
			size_t j = c + c / (CHURN - 1) + 1;	/* skip the stable slots */
			long *at = buf + 4 * j;

			if (on[j])
				CHECK_MPI(MPI_Win_detach(win, at));
			else
				CHECK_MPI(MPI_Win_attach(win, at, 8 + 8 * (long)(c % 3)));
			on[j] ^= 1;
		}
		/* this rank's stable region s on every rank */
		for (int t = 0; t < size; t++) {
			MPI_Aint at = bases[t] + 32 * CHURN * (MPI_Aint)(rank * S + s);
			long v[2] = { i, rank * 1000 + t }, got[2], one = 1;

			CHECK_MPI(MPI_Put(v, 2, MPI_LONG, t, at, 2, MPI_LONG, win));
			CHECK_MPI(MPI_Win_flush(t, win));
			CHECK_MPI(MPI_Get(got, 2, MPI_LONG, t, at, 2, MPI_LONG, win));
			CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, t, at + 16, 1, MPI_LONG,
						 MPI_SUM, win));
			CHECK_MPI(MPI_Win_flush(t, win));
			if (got[0] != v[0] || got[1] != v[1]) {
				fprintf(stderr, "rank %d: iteration %d: rank %d's region %d holds "
					"%ld %ld, want %ld %ld\n", rank, i, t, rank * S + s,
					got[0], got[1], v[0], v[1]);
				CHECK(got[0] == v[0] && got[1] == v[1]);
			}
		}
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* each origin's stable regions here: its last put, its count */
	for (int o = 0; o < size; o++)
		for (int s = 0; s < S; s++) {
			const long *r = buf + 4 * CHURN * (size_t)(o * S + s);
			long n = iters / S + (s < iters % S);

			CHECK(r[2] == n);
			if (n)
				CHECK(r[0] == (long)(s + (n - 1) * S) && r[1] == o * 1000 + rank);
		}
	/* one table mapped per target at most, and this rank's own (twice when
	 * its engine looked at it too) */
	tables = mapped_tables();
	if (tables > size + 1) {
		fprintf(stderr, "rank %d: %d tables mapped\n", rank, tables);
		CHECK(tables <= size + 1);
	}
	for (size_t j = 0; j < nslots; j++)
		if (on[j])
			CHECK_MPI(MPI_Win_detach(win, buf + 4 * j));
	for (size_t q = 0; q < (size_t)size * S; q++)
		CHECK_MPI(MPI_Win_detach(win, buf + 4 * CHURN * q));
	CHECK_MPI(MPI_Win_free(&win));
	mem_put(alloc, buf);
	free(on);
	free(order);
	free(bases);
}

/* ---- memory reused ------------------------------------------------------ */

/*
 * Rounds of: every rank takes a new MPI_Alloc_mem block (often at the
 * address of the one it freed last round, after the same number of
 * attaches), attaches it, its left neighbour puts the round's values in
 * and reads them back, and it detaches and frees the block.  An origin
 * must not reach a block of an earlier round through a mapping it kept.
 */
static void test_reuse(void)
{
	enum { ROUNDS = 50, LEN = 64 };
	MPI_Win win;

	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	for (int round = 0; round < ROUNDS; round++) {
		long *b, v[LEN], got[LEN];
		MPI_Aint *at;

		CHECK_MPI(MPI_Alloc_mem(LEN * sizeof(long), MPI_INFO_NULL, &b));
		memset(b, 0, LEN * sizeof(long));
		CHECK_MPI(MPI_Win_attach(win, b, LEN * sizeof(long)));
		at = all_addr(b);
		for (int i = 0; i < LEN; i++)
			v[i] = 1000 * round + 10 * rank + i;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
		CHECK_MPI(MPI_Put(v, LEN, MPI_LONG, right, at[right], LEN, MPI_LONG, win));
		CHECK_MPI(MPI_Win_flush(right, win));
		CHECK_MPI(MPI_Get(got, LEN, MPI_LONG, right, at[right], LEN, MPI_LONG, win));
		CHECK_MPI(MPI_Win_unlock(right, win));
		CHECK(!memcmp(got, v, sizeof(v)));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		for (int i = 0; i < LEN; i++)
			CHECK(b[i] == 1000 * round + 10 * left + i);
		CHECK_MPI(MPI_Win_detach(win, b));
		CHECK_MPI(MPI_Free_mem(b));
		free(at);
	}
	CHECK_MPI(MPI_Win_free(&win));
}

/* ---- errors ---------------------------------------------------------------- */

#define EXPECT_ERR(call, cls) CHECK(tu_check_class((call), (cls)))

/*
 * MPI_ERRORS_RETURN: overlapping attaches and detaches of what is not
 * attached are MPI_ERR_RMA_ATTACH (shmpi's choice: MPI 3.1, section 11.2.4
 * forbids both but names no class), ranges that leave attached memory
 * MPI_ERR_RMA_RANGE for every kind of operation, and nothing of the target
 * changes; ranges over regions end to end are fine.
 */
static void test_errors(void)
{
	long *m = malloc(64 * sizeof(long)), v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, r[8], c = 0;
	long *r1 = m + 8, *r2 = m + 24;	/* [8, 24) and [24, 32) of m */
	MPI_Aint *base;
	MPI_Win win, none;

	CHECK(m);
	for (int i = 0; i < 64; i++)
		m[i] = -i;
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &none));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_set_errhandler(none, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_attach(win, r1, 16 * sizeof(long)));
	CHECK_MPI(MPI_Win_attach(win, r2, 8 * sizeof(long)));
	/* attaching what overlaps: inside, the same again, across the start */
	EXPECT_ERR(MPI_Win_attach(win, m + 10, 2 * sizeof(long)), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_attach(win, r1, 16 * sizeof(long)), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_attach(win, m, 9 * sizeof(long)), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_attach(win, m + 31, 4 * sizeof(long)), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_attach(win, m, -1), MPI_ERR_ARG);
	/* zero bytes: nothing to reach, but their detach works */
	CHECK_MPI(MPI_Win_attach(win, m + 40, 0));
	CHECK_MPI(MPI_Win_detach(win, m + 40));
	EXPECT_ERR(MPI_Win_detach(win, m + 40), MPI_ERR_RMA_ATTACH);
	/* detaching what is not the base of an attached region */
	EXPECT_ERR(MPI_Win_detach(win, m + 10), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_detach(win, m + 50), MPI_ERR_RMA_ATTACH);
	EXPECT_ERR(MPI_Win_detach(win, m), MPI_ERR_RMA_ATTACH);
	base = all_addr(m);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Win_lock_all(0, none));
#define AT(i) (base[right] + (MPI_Aint)((i) * sizeof(long)))
	/* past the end of r2, below r1, across r1's start, a gap of one */
	EXPECT_ERR(MPI_Put(v, 4, MPI_LONG, right, AT(30), 4, MPI_LONG, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 1, MPI_LONG, right, AT(4), 1, MPI_LONG, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Put(v, 4, MPI_LONG, right, AT(6), 4, MPI_LONG, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get(r, 2, MPI_LONG, right, AT(31), 2, MPI_LONG, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Accumulate(v, 3, MPI_LONG, right, AT(7), 3, MPI_LONG, MPI_SUM, win),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Get_accumulate(v, 3, MPI_LONG, r, 3, MPI_LONG, right, AT(30), 3,
				      MPI_LONG, MPI_SUM, win), MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Fetch_and_op(v, r, MPI_LONG, right, AT(32), MPI_SUM, win),
		   MPI_ERR_RMA_RANGE);
	EXPECT_ERR(MPI_Compare_and_swap(v, &c, r, MPI_LONG, right, AT(2), win),
		   MPI_ERR_RMA_RANGE);
	/* nothing attached at all */
	EXPECT_ERR(MPI_Put(v, 1, MPI_LONG, right, AT(10), 1, MPI_LONG, none), MPI_ERR_RMA_RANGE);
	/* across r1 and r2, end to end: fine */
	CHECK_MPI(MPI_Put(v, 4, MPI_LONG, right, AT(22), 4, MPI_LONG, win));
	CHECK_MPI(MPI_Win_unlock_all(none));
	CHECK_MPI(MPI_Win_unlock_all(win));
#undef AT
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < 64; i++)
		CHECK(m[i] == (i >= 22 && i < 26 ? v[i - 22] : -i));
	CHECK_MPI(MPI_Win_detach(win, r2));
	CHECK_MPI(MPI_Win_detach(win, r1));
	CHECK_MPI(MPI_Win_free(&none));
	CHECK_MPI(MPI_Win_free(&win));
	free(base);
	free(m);
}

/*
 * A range that leaves attached memory under MPI_ERRORS_ARE_FATAL: rank 0
 * prints the words the message must hold, then puts 16 longs from 2
 * longs before the end of a region of rank 1 (which=below: the nearest
 * region is that one) or from 2 longs past it, 1 long before the next
 * region (which=above: the nearest is the next); the job ends there.
 */
static void test_fatal(const char *which)
{
	long *m = calloc(64, sizeof(long)), v[16] = { 0 };
	int above = !strcmp(which, "above");
	MPI_Aint *base, at;
	MPI_Win win;

	CHECK(m);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_attach(win, m + 8, 8 * sizeof(long)));	/* [8, 16) */
	CHECK_MPI(MPI_Win_attach(win, m + 19, 8 * sizeof(long)));	/* [19, 27) */
	base = all_addr(m);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		MPI_Aint b = base[1], lo = b + 8 * (above ? 19 : 8);

		at = b + 8 * (above ? 18 : 14);
		printf("the byte at 0x%lx is not attached; the nearest attached region is "
		       "[0x%lx, 0x%lx) (64 bytes)\n", (unsigned long)(b + 8 * (above ? 18 : 16)),
		       (unsigned long)lo, (unsigned long)(lo + 64));
		fflush(stdout);
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
		MPI_Put(v, 16, MPI_LONG, 1, at, 16, MPI_LONG, win);
		fprintf(stderr, "rank 0: the put returned\n");
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	free(base);
	free(m);
}

/* A dynamic window with memory attached, never freed: MPI_Finalize leaves
 * nothing of it in /dev/shm, even without shmrun to clean up. */
static void test_unfreed(void)
{
	static long m[8];
	MPI_Win win;

	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_attach(win, m, sizeof(m)));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "many";

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	if (!strcmp(which, "many"))
		test_many(argc, argv);
	else if (!strcmp(which, "halves"))
		test_halves();
	else if (!strcmp(which, "concurrent"))
		test_concurrent(argc, argv);
	else if (!strcmp(which, "reuse"))
		test_reuse();
	else if (!strcmp(which, "unfreed"))
		test_unfreed();
	else if (!strcmp(which, "errors"))
		test_errors();
	else if (!strcmp(which, "fatal"))
		test_fatal(argc > 2 ? argv[2] : "below");
	else
		CHECK(!"unknown test");
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("ok %s\n", which);
	MPI_Finalize();
	return 0;
}
