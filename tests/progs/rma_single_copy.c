/*
 * Put and get on windows of private memory (MPI_Win_create on malloc
 * memory) around and above the single-copy threshold (README, "Large
 * messages": SHMPI_SINGLE_COPY, SHMPI_SINGLE_COPY_RMA_MIN), every rank putting
 * to and getting from the next one (a ring), each checked byte for byte at
 * the target and at the origin:
 *   sizes     contiguous, from below the threshold to 4 MiB, in every
 *             epoch: exclusive and shared lock, lock_all with flush, lock
 *             with MPI_MODE_NOCHECK, fence, post/start/complete/wait
 *   derived   strided and indexed types on either side or both, in lock
 *             and fence epochs
 *   requests  MPI_Rput and MPI_Rget (lock_all), waited for
 *   dynamic   a dynamic window on malloc memory, lock_all and flush
 *   lockwait  rank 0 holds an exclusive lock on itself while rank 1 puts
 *             to it in an exclusive lock epoch: nothing lands before rank
 *             0 lets the lock go
 *   order     one epoch (exclusive lock, lock_all, fence) of short puts and
 *             gets (packets) and accumulates (the target's engine) mixed
 *             with large puts and gets to overlapping memory, against a
 *             sequential model of the target's memory: shmpi applies one
 *             origin's operations to a target in the order they were
 *             issued, whichever way each moves (README), which MPI itself
 *             does not promise for puts and gets (MPI 3.1, section 11.7.2)
 * "unordered" runs all but order.  The last argument says what the window's info key shmpi_single_copies
 * must count: "cma" (every put and get of at least the threshold moved in
 * one copy), "none" (none did), or nothing (another MPI: no count).
 * Rank 0 prints "ok NAME" per test.
 */
#include "testutil.h"

#define WIN_BYTES ((8u << 20) + (64u << 10))
#define BIG ((4u << 20) + 3)

enum epoch { EP_EXCL, EP_SHARED, EP_LOCK_ALL, EP_NOCHECK, EP_FENCE, EP_PSCW, EP_COUNT };

static const char *const epoch_name[EP_COUNT] = {
	"exclusive lock", "shared lock", "lock_all", "nocheck lock", "fence", "pscw",
};

static int rank, size, next, prev;
static unsigned char *mem;	/* this rank's window memory */
static MPI_Win win;
static MPI_Group g_next, g_prev;
static size_t min_bytes = 1024;	/* SHMPI_SINGLE_COPY_RMA_MIN */
static const char *expect = "";	/* "cma", "none" or "" */
static long copies;		/* single copies this rank's operations must have made */

/* The byte at offset i of the window of `owner` as it fills it in round r. */
static unsigned char img(int owner, int r, size_t i)
{
	return tu_pattern(owner, r, i);
}

/* b[0, n) = tu_pattern(from, r, off + i): a pattern of period 64 KiB
 * (tu_pattern depends on i mod 2^16), copied in tiles, so that the
 * megabytes of the test cost memcpy, not a call per byte. */
static void pat_fill(unsigned char *b, size_t off, size_t n, int from, int r)
{
	static unsigned char tile[1u << 16];

	for (size_t j = 0; j < sizeof(tile); j++)
		tile[j] = tu_pattern(from, r, j);
	while (n) {
		size_t at = off & (sizeof(tile) - 1), k = sizeof(tile) - at;

		k = k < n ? k : n;
		memcpy(b, tile + at, k);
		b += k;
		off += k;
		n -= k;
	}
}

/* Whether b[0, n) is tu_pattern(from, r, off + i). */
static int pat_check(const unsigned char *b, size_t off, size_t n, int from, int r)
{
	unsigned char *want = malloc(n ? n : 1);
	int same;

	CHECK(want);
	pat_fill(want, off, n, from, r);
	same = !memcmp(b, want, n);
	free(want);
	return same;
}

/* Fill [0, n) of this rank's window in round r, in an epoch of its own. */
static void fill_own(int r, size_t n)
{
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	pat_fill(mem, 0, n, rank, r);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* This rank's window equals want over [0, n) (in an epoch of its own). */
static void check_own(const unsigned char *want, size_t n, int line)
{
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	if (memcmp(mem, want, n)) {
		size_t i = 0;

		while (mem[i] == want[i])
			i++;
		fprintf(stderr, "rank %d: line %d: byte %zu is %d, want %d\n", rank, line, i,
			mem[i], want[i]);
		CHECK(0);
	}
	CHECK_MPI(MPI_Win_unlock(rank, win));
}

static long info_long(MPI_Win w, const char *key, int *found)
{
	char v[64] = "";
	MPI_Info info;

	CHECK_MPI(MPI_Win_get_info(w, &info));
	CHECK_MPI(MPI_Info_get(info, key, (int)sizeof(v) - 1, v, found));
	CHECK_MPI(MPI_Info_free(&info));
	return atol(v);
}

/* An operation of `bytes` was issued: count it if it is to go in one copy. */
static void issued(size_t bytes)
{
	if (!strcmp(expect, "cma") && bytes >= min_bytes)
		copies++;
}

/* Window w's count of single copies is what this rank's operations on it
 * made (copies, from issued()). */
static void check_copies_of(MPI_Win w, int line)
{
	int found = 0;
	long got = info_long(w, "shmpi_single_copies", &found);

	if (!*expect)
		return;
	CHECK(found);
	if (got != copies) {
		fprintf(stderr, "rank %d: line %d: %ld single copies, want %ld\n", rank, line,
			got, copies);
		CHECK(0);
	}
}

static void check_copies(int line)
{
	check_copies_of(win, line);
}

static void epoch_open(enum epoch e)
{
	switch (e) {
	case EP_EXCL:
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
		break;
	case EP_SHARED:
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
		break;
	case EP_LOCK_ALL:
		CHECK_MPI(MPI_Win_lock_all(0, win));
		break;
	case EP_NOCHECK:
		/* nobody else locks the target in this epoch */
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, MPI_MODE_NOCHECK, win));
		break;
	case EP_FENCE:
		CHECK_MPI(MPI_Win_fence(0, win));
		break;
	case EP_PSCW:
		CHECK_MPI(MPI_Win_post(g_prev, 0, win));
		CHECK_MPI(MPI_Win_start(g_next, 0, win));
		break;
	default:
		CHECK(0);
	}
}

static void epoch_close(enum epoch e)
{
	switch (e) {
	case EP_EXCL:
	case EP_SHARED:
	case EP_NOCHECK:
		CHECK_MPI(MPI_Win_unlock(next, win));
		break;
	case EP_LOCK_ALL:
		CHECK_MPI(MPI_Win_flush(next, win));
		CHECK_MPI(MPI_Win_unlock_all(win));
		break;
	case EP_FENCE:
		CHECK_MPI(MPI_Win_fence(0, win));
		break;
	case EP_PSCW:
		CHECK_MPI(MPI_Win_complete(win));
		CHECK_MPI(MPI_Win_wait(win));
		break;
	default:
		CHECK(0);
	}
}

/* This rank's window as it filled it in round r, over [0, n), into want. */
static void want_fill(unsigned char *want, size_t n, int r)
{
	pat_fill(want, 0, n, rank, r);
}

static void test_sizes(void)
{
	size_t sizes[] = { min_bytes > 1 ? min_bytes - 1 : 1, min_bytes > 1 ? min_bytes : 2,
			   min_bytes + 3, 65536 + 5, 1u << 20, BIG };
	size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	unsigned char *buf = malloc(BIG), *got = malloc(BIG), *want = malloc(WIN_BYTES);
	int r = 0;

	CHECK(buf && got && want);
	for (int e = 0; e < EP_COUNT; e++)
		for (size_t k = 0; k < nsizes; k++, r += 2) {
			size_t n = sizes[k], d = 4096 + (size_t)(r * 17) % 4096;

			/* the put: into memory the target filled in round r */
			fill_own(r, d + 2 * n + 64);
			pat_fill(buf, 0, n, rank, r + 1);
			epoch_open((enum epoch)e);
			CHECK_MPI(MPI_Put(buf, (int)n, MPI_BYTE, next, (MPI_Aint)d, (int)n,
					  MPI_BYTE, win));
			issued(n);
			epoch_close((enum epoch)e);
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
			want_fill(want, d + 2 * n + 64, r);
			pat_fill(want + d, 0, n, prev, r + 1);
			check_own(want, d + 2 * n + 64, __LINE__);
			/* the get: what the put wrote and what follows it */
			memset(got, 0, n);
			epoch_open((enum epoch)e);
			CHECK_MPI(MPI_Get(got, (int)n, MPI_BYTE, next, (MPI_Aint)(d + n / 2),
					  (int)n, MPI_BYTE, win));
			issued(n);
			epoch_close((enum epoch)e);
			/* what this rank put, then what the next rank filled */
			if (!pat_check(got, n / 2, n - n / 2, rank, r + 1) ||
			    !pat_check(got + n - n / 2, d + n, n / 2, next, r)) {
				fprintf(stderr, "rank %d: %s, %zu bytes: the get is wrong\n", rank,
					epoch_name[e], n);
				CHECK(0);
			}
			check_copies(__LINE__);
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		}
	free(buf);
	free(got);
	free(want);
}

/* Put (ocount, otype) from a buffer of origin layout to (tcount, ttype) at
 * d, and get it back the other way, in epoch e; both ends checked against
 * MPI_Pack/MPI_Unpack of the same types. */
static void derived_case(int r, enum epoch e, int ocount, MPI_Datatype otype, int tcount,
			 MPI_Datatype ttype, size_t d)
{
	MPI_Aint olb, oext, tlb, text;
	int osize, psize, pos = 0;
	size_t obytes, tbytes;
	unsigned char *obuf, *back, *packed, *want, *want_back;

	CHECK_MPI(MPI_Type_get_extent(otype, &olb, &oext));
	CHECK_MPI(MPI_Type_get_extent(ttype, &tlb, &text));
	CHECK_MPI(MPI_Type_size(otype, &osize));
	obytes = (size_t)(olb + oext * ocount);
	tbytes = d + (size_t)(tlb + text * tcount);
	CHECK(tbytes <= WIN_BYTES);
	psize = osize * ocount;
	obuf = malloc(obytes);
	back = calloc(1, obytes);
	want_back = calloc(1, obytes);
	packed = malloc((size_t)psize);
	want = malloc(tbytes);
	CHECK(obuf && back && want_back && packed && want);
	pat_fill(obuf, 0, obytes, rank, r + 1);

	fill_own(r, tbytes);
	epoch_open(e);
	CHECK_MPI(MPI_Put(obuf, ocount, otype, next, (MPI_Aint)d, tcount, ttype, win));
	issued((size_t)psize);
	epoch_close(e);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* here: what the previous rank put, by the same types */
	{
		unsigned char *pbuf = malloc(obytes);

		CHECK(pbuf);
		pat_fill(pbuf, 0, obytes, prev, r + 1);
		CHECK_MPI(MPI_Pack(pbuf, ocount, otype, packed, psize, &pos, MPI_COMM_SELF));
		free(pbuf);
	}
	want_fill(want, tbytes, r);
	pos = 0;
	CHECK_MPI(MPI_Unpack(packed, psize, &pos, want + d, tcount, ttype, MPI_COMM_SELF));
	check_own(want, tbytes, __LINE__);

	/* and back: the next rank's memory through ttype into otype */
	epoch_open(e);
	CHECK_MPI(MPI_Get(back, ocount, otype, next, (MPI_Aint)d, tcount, ttype, win));
	issued((size_t)psize);
	epoch_close(e);
	{
		/* the next rank's memory is what this rank put into its image */
		unsigned char *timg = malloc(tbytes);

		CHECK(timg);
		pat_fill(timg, 0, tbytes, next, r);
		pos = 0;
		CHECK_MPI(MPI_Pack(obuf, ocount, otype, packed, psize, &pos, MPI_COMM_SELF));
		pos = 0;
		CHECK_MPI(MPI_Unpack(packed, psize, &pos, timg + d, tcount, ttype,
				     MPI_COMM_SELF));
		pos = 0;
		CHECK_MPI(MPI_Pack(timg + d, tcount, ttype, packed, psize, &pos,
				   MPI_COMM_SELF));
		pos = 0;
		CHECK_MPI(MPI_Unpack(packed, psize, &pos, want_back, ocount, otype,
				     MPI_COMM_SELF));
		free(timg);
	}
	CHECK(!memcmp(back, want_back, obytes));
	check_copies(__LINE__);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	free(obuf);
	free(back);
	free(want_back);
	free(packed);
	free(want);
}

static void test_derived(void)
{
	MPI_Datatype ov, tv, tidx, tres, small;
	int blens[3] = { 700, 1, 299 }, displs[3] = { 0, 900, 1200 };
	int nsmall = (int)(min_bytes / 100) + 1;
	int r = 100;

	/* origin: 1000 of every 1700 bytes; target: 3000 of every 4096 */
	CHECK_MPI(MPI_Type_vector(1200, 1000, 1700, MPI_BYTE, &ov));
	CHECK_MPI(MPI_Type_vector(400, 3000, 4096, MPI_BYTE, &tv));
	/* three runs, the element's extent stretched: gaps between elements */
	CHECK_MPI(MPI_Type_indexed(3, blens, displs, MPI_BYTE, &tidx));
	CHECK_MPI(MPI_Type_create_resized(tidx, 0, 4000, &tres));
	/* just above the threshold, in runs of 100 */
	CHECK_MPI(MPI_Type_vector(nsmall, 100, 150, MPI_BYTE, &small));
	CHECK_MPI(MPI_Type_commit(&ov));
	CHECK_MPI(MPI_Type_commit(&tv));
	CHECK_MPI(MPI_Type_commit(&tres));
	CHECK_MPI(MPI_Type_commit(&small));
	for (int k = 0; k < 2; k++) {
		enum epoch e = k ? EP_FENCE : EP_EXCL;

		/* 1.2 MB: strided origin to contiguous target and the reverse */
		derived_case(r += 2, e, 1, ov, 1200000, MPI_BYTE, 333);
		derived_case(r += 2, e, 1200000, MPI_BYTE, 1, ov, 4096);
		/* both strided, runs that never line up */
		derived_case(r += 2, e, 1, ov, 1200, tres, 7);
		derived_case(r += 2, e, 2, ov, 2, tv, 0);
		/* just above the threshold */
		derived_case(r += 2, e, 1, small, nsmall * 100, MPI_BYTE, 1);
		derived_case(r += 2, e, nsmall * 100, MPI_BYTE, 1, small, 64);
	}
	MPI_Type_free(&ov);
	MPI_Type_free(&tv);
	MPI_Type_free(&tidx);
	MPI_Type_free(&tres);
	MPI_Type_free(&small);
}

static void test_requests(void)
{
	size_t n = 3u << 20, d = 100;
	unsigned char *buf = malloc(n), *got = malloc(n + d);
	MPI_Request req[2];
	int r = 200;

	CHECK(buf && got);
	fill_own(r, n + d);
	pat_fill(buf, 0, n, rank, r + 1);
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Rput(buf, (int)n, MPI_BYTE, next, (MPI_Aint)d, (int)n, MPI_BYTE, win,
			   &req[0]));
	issued(n);
	CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
	/* what the put wrote and the bytes before it, in two gets */
	CHECK_MPI(MPI_Rget(got, (int)d, MPI_BYTE, next, 0, (int)d, MPI_BYTE, win, &req[0]));
	issued(d);
	CHECK_MPI(MPI_Rget(got + d, (int)n, MPI_BYTE, next, (MPI_Aint)d, (int)n, MPI_BYTE,
			   win, &req[1]));
	issued(n);
	CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	CHECK(pat_check(got, 0, d, next, r));
	CHECK(pat_check(got + d, 0, n, rank, r + 1));
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_copies(__LINE__);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	free(buf);
	free(got);
}

static void test_lockwait(void)
{
	size_t n = 2u << 20;
	unsigned char *buf = malloc(n), *want = malloc(n);
	int r = 250;

	CHECK(buf && want);
	fill_own(r, n);
	if (rank == 0)
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		/* rank 1's put waits for this lock, wherever it waits */
		tu_sleep_ms(300 * tu_time_scale());
		want_fill(want, n, r);
		CHECK(!memcmp(mem, want, n));
		CHECK_MPI(MPI_Win_unlock(0, win));
	} else if (rank == 1) {
		pat_fill(buf, 0, n, rank, r + 1);
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Put(buf, (int)n, MPI_BYTE, 0, 0, (int)n, MPI_BYTE, win));
		issued(n);
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK(pat_check(mem, 0, n, 1, r + 1));
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	check_copies(__LINE__);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	free(buf);
	free(want);
}

/* A dynamic window with a malloc region attached at every rank, whose
 * addresses are the targets' own. */
static void test_dynamic(void)
{
	size_t n = (1u << 20) + 5, d = 100, rsize = 2u << 20;
	unsigned char *region = malloc(rsize), *buf = malloc(n), *got = malloc(n);
	long saved = copies;
	MPI_Aint *addr = malloc((size_t)size * sizeof(*addr));
	MPI_Win dwin;
	int r = 400;

	CHECK(region && buf && got && addr);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dwin));
	CHECK_MPI(MPI_Win_attach(dwin, region, (MPI_Aint)rsize));
	pat_fill(region, 0, rsize, rank, r);
	CHECK_MPI(MPI_Get_address(region, &addr[rank]));
	CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, addr, 1, MPI_AINT,
				MPI_COMM_WORLD));
	copies = 0;
	pat_fill(buf, 0, n, rank, r + 1);
	CHECK_MPI(MPI_Win_lock_all(0, dwin));
	CHECK_MPI(MPI_Put(buf, (int)n, MPI_BYTE, next, addr[next] + (MPI_Aint)d, (int)n,
			  MPI_BYTE, dwin));
	issued(n);
	CHECK_MPI(MPI_Win_flush(next, dwin));
	CHECK_MPI(MPI_Get(got, (int)n, MPI_BYTE, next, addr[next] + (MPI_Aint)(d + 1),
			  (int)n, MPI_BYTE, dwin));
	issued(n);
	CHECK_MPI(MPI_Win_unlock_all(dwin));
	CHECK(!memcmp(got, buf + 1, n - 1));
	CHECK(got[n - 1] == img(next, r, d + n));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, dwin));
	CHECK(pat_check(region, 0, d, rank, r));
	CHECK(pat_check(region + d, 0, n, prev, r + 1));
	CHECK(pat_check(region + d + n, d + n, rsize - d - n, rank, r));
	CHECK_MPI(MPI_Win_unlock(rank, dwin));
	check_copies_of(dwin, __LINE__);
	copies = saved;
	CHECK_MPI(MPI_Win_detach(dwin, region));
	CHECK_MPI(MPI_Win_free(&dwin));
	free(region);
	free(buf);
	free(got);
	free(addr);
}

/* Put n bytes of pattern seed from a buffer of keep[] (kept to the end of
 * the epoch: a put may read it until then) at `at` of the next rank, and
 * into the model of its memory. */
static void order_put(unsigned char *model, unsigned char **keep, size_t at, size_t n,
		      int seed)
{
	CHECK((*keep = malloc(n)) != NULL);
	pat_fill(*keep, 0, n, rank, seed);
	CHECK_MPI(MPI_Put(*keep, (int)n, MPI_BYTE, next, (MPI_Aint)at, (int)n, MPI_BYTE,
			  win));
	issued(n);
	memcpy(model + at, *keep, n);
}

/* The same for an accumulate (MPI_BXOR). */
static void order_acc(unsigned char *model, unsigned char **keep, size_t at, size_t n,
		      int seed)
{
	CHECK((*keep = malloc(n)) != NULL);
	pat_fill(*keep, 0, n, rank, seed);
	CHECK_MPI(MPI_Accumulate(*keep, (int)n, MPI_BYTE, next, (MPI_Aint)at, (int)n,
				 MPI_BYTE, MPI_BXOR, win));
	for (size_t i = 0; i < n; i++)
		model[at + i] ^= (*keep)[i];
}

/* A get of n bytes at `at` into got, and what the model says it must
 * return into *want. */
static void order_get(const unsigned char *model, unsigned char *got,
		      unsigned char **want, size_t at, size_t n)
{
	CHECK_MPI(MPI_Get(got, (int)n, MPI_BYTE, next, (MPI_Aint)at, (int)n, MPI_BYTE, win));
	issued(n);
	CHECK((*want = malloc(n)) != NULL);
	memcpy(*want, model + at, n);
}

static void test_order(void)
{
	static const enum epoch eps[] = { EP_EXCL, EP_LOCK_ALL, EP_FENCE };
	size_t big = 1u << 20, small = 1000, d = 5000, span = 5 * big + 64;
	unsigned char *model = malloc(WIN_BYTES), *want = malloc(WIN_BYTES);
	unsigned char *got[3] = { malloc(small), malloc(big), malloc(big) };
	int r = 300;

	CHECK(model && want && got[0] && got[1] && got[2]);
	for (size_t k = 0; k < sizeof(eps) / sizeof(eps[0]); k++, r += 10) {
		unsigned char *keep[6], *m[3];

		fill_own(r, span);
		pat_fill(model, 0, span, next, r);
		epoch_open(eps[k]);
		/* a short get (packets) before a large put over it: the old bytes */
		order_get(model, got[0], &m[0], d + 10, small);
		/* a short put, then a large one over it: the large one stays */
		order_put(model, &keep[0], d, small, r + 1);
		order_put(model, &keep[1], d - 100, big, r + 2);
		/* a short put into it after the large one: the short one stays */
		order_put(model, &keep[2], d + 300, small, r + 3);
		/* an accumulate (the target's engine), then a large get over it */
		order_acc(model, &keep[3], d + 600, small, r + 4);
		order_get(model, got[1], &m[1], d, big);
		/* a large put, then a large get of half of it and beyond */
		order_put(model, &keep[4], 2 * big, big, r + 5);
		order_get(model, got[2], &m[2], 2 * big + big / 2, big);
		/* a large accumulate: the target's engine, never one copy */
		order_acc(model, &keep[5], 4 * big, big, r + 6);
		epoch_close(eps[k]);
		CHECK(!memcmp(got[0], m[0], small));
		CHECK(!memcmp(got[1], m[1], big));
		CHECK(!memcmp(got[2], m[2], big));
		for (int i = 0; i < 6; i++)
			free(keep[i]);
		for (int i = 0; i < 3; i++)
			free(m[i]);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		/* the model of this rank's memory is the previous rank's */
		CHECK_MPI(MPI_Sendrecv(model, (int)span, MPI_BYTE, next, 0, want, (int)span,
				       MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		check_own(want, span, __LINE__);
		check_copies(__LINE__);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	free(model);
	free(want);
	for (int i = 0; i < 3; i++)
		free(got[i]);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	/* "unordered": all but the order test (the adversarial mode shuffles) */
	int unordered = !strcmp(which, "unordered");
	const char *min = getenv("SHMPI_SINGLE_COPY_RMA_MIN");

	tu_init(&argc, &argv);
	expect = argc > 2 ? argv[2] : "";
	if (min)
		min_bytes = (size_t)strtoul(min, NULL, 10);
	if (unordered)
		which = "all";
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	g_next = tu_group_of(next);
	g_prev = tu_group_of(prev);
	mem = malloc(WIN_BYTES);
	CHECK(mem);
	CHECK_MPI(MPI_Win_create(mem, WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	TU_RUN("sizes", test_sizes);
	TU_RUN("derived", test_derived);
	TU_RUN("requests", test_requests);
	TU_RUN("lockwait", test_lockwait);
	if (!unordered)
		TU_RUN("order", test_order);
	TU_RUN("dynamic", test_dynamic);
	CHECK_MPI(MPI_Win_free(&win));
	MPI_Group_free(&g_next);
	MPI_Group_free(&g_prev);
	free(mem);
	MPI_Finalize();
	return 0;
}
