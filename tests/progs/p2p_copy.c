/*
 * Large messages, byte for byte, around every size where the way their
 * data moves changes: the eager limit, SHMPI_SINGLE_COPY_MIN, the channels'
 * chunk; from send buffers in malloc'd memory, MPI_Alloc_mem memory and
 * window memory; with derived datatypes on either side, MPI_ANY_SOURCE,
 * truncation, MPI_Ssend, a matched probe, and messages to oneself; and
 * messages whose copy the receiver shares with a sender inside MPI
 * (SHMPI_SINGLE_COPY_SHARE).
 *
 *   p2p_copy [cma|nocma|nopush]   nocma: process_vm_readv is refused here;
 *                                 nopush: only process_vm_writev is
 *
 * Under shmpi it also checks, with the MPI_T performance variables
 * p2p_rndv_cma, _mapped and _pipeline, that every rendezvous message took
 * the way SHMPI_SINGLE_COPY (read as a control variable) and the buffer
 * call for (README, "Large messages"), and with p2p_rndv_shared and
 * p2p_rndv_pushed_bytes which copies were shared and that senders did
 * write some of the data (at 2 ranks, where each has a core; never under
 * nopush); elsewhere only the data.
 */
#include "testutil.h"

/* shmpi's eager limit: larger messages are rendezvous ones */
#define EAGER_MAX 8192

enum where { IN_MALLOC, IN_ALLOC_MEM, IN_WINDOW, WHERES };
enum mech { M_CMA, M_MAPPED, M_PIPELINE, MECHS };
static const char *const mech_names[MECHS] = { "cma", "mapped", "pipeline" };
/* the choices of SHMPI_SINGLE_COPY, in its order */
enum knob { K_AUTO, K_CMA, K_MAPPED, K_PIPELINE };

static int rank, size, cma_ok = 1, push_ok = 1, have_mpit;
static int knob = K_AUTO, copy_min = 16384, share_min = 131072;
static MPI_T_pvar_handle shared_pvar, pushed_pvar;
static long expect[MECHS];
static MPI_T_pvar_session session;
static MPI_T_pvar_handle pvar[MECHS];
static char *win_mem;
static MPI_Win win;
#define WIN_BYTES ((size_t)5 << 20)

/* How shmpi moves a message of `bytes` from a buffer `where` (or to
 * oneself): counted at the receiver. */
static void expect_msg_runs(size_t bytes, enum where where, int self, int runs)
{
	int mapped = self || where != IN_MALLOC;

	if (bytes <= EAGER_MAX)
		return;
	/* a send type of more runs than an RTS describes (about 1000 with the
	 * default channels) goes through the channels */
	if (bytes < (size_t)copy_min || knob == K_PIPELINE || runs > 1000)
		expect[M_PIPELINE]++;
	else if (knob != K_CMA && mapped)
		expect[M_MAPPED]++;
	else if (knob != K_MAPPED && cma_ok)
		expect[M_CMA]++;
	else
		expect[M_PIPELINE]++;
}

static void expect_msg(size_t bytes, enum where where, int self)
{
	expect_msg_runs(bytes, where, self, 1);
}

static int cvar_int(const char *name, int *out)
{
	MPI_T_cvar_handle h;
	int i, n;

	if (MPI_T_cvar_get_index(name, &i) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(i, NULL, &h, &n) != MPI_SUCCESS)
		return 0;
	CHECK(MPI_T_cvar_read(h, out) == MPI_SUCCESS);
	MPI_T_cvar_handle_free(&h);
	return 1;
}

static void pvar_open(const char *name, MPI_T_pvar_handle *h)
{
	int i, n;

	CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i) == MPI_SUCCESS);
	CHECK(MPI_T_pvar_handle_alloc(session, i, NULL, h, &n) == MPI_SUCCESS);
	CHECK(MPI_T_pvar_start(session, *h) == MPI_SUCCESS);
}

static void mpit_start(void)
{
	int provided;

	CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
	have_mpit = cvar_int("SHMPI_SINGLE_COPY", &knob) &&
		    cvar_int("SHMPI_SINGLE_COPY_MIN", &copy_min);
	if (!have_mpit)
		return;
	CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
	for (int m = 0; m < MECHS; m++) {
		char name[64];

		snprintf(name, sizeof(name), "p2p_rndv_%s", mech_names[m]);
		pvar_open(name, &pvar[m]);
	}
	CHECK(cvar_int("SHMPI_SINGLE_COPY_SHARE", &share_min));
	pvar_open("p2p_rndv_shared", &shared_pvar);
	pvar_open("p2p_rndv_pushed_bytes", &pushed_pvar);
}

static unsigned long long pvar_value(MPI_T_pvar_handle h)
{
	unsigned long long v;

	CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS);
	return v;
}

static void mpit_check(void)
{
	for (int m = 0; have_mpit && m < MECHS; m++) {
		unsigned long long got;

		CHECK(MPI_T_pvar_read(session, pvar[m], &got) == MPI_SUCCESS);
		if ((long)got != expect[m])
			fprintf(stderr, "rank %d: %llu messages by %s, want %ld\n", rank, got,
				mech_names[m], expect[m]);
		CHECK((long)got == expect[m]);
	}
}

/* A send buffer of n bytes in `where` (window: this rank's portion). */
static unsigned char *buf_get(enum where where, size_t n)
{
	void *p = NULL;

	switch (where) {
	case IN_MALLOC:
		p = malloc(n);
		break;
	case IN_ALLOC_MEM:
		CHECK_MPI(MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &p));
		break;
	case IN_WINDOW:
		CHECK(n <= WIN_BYTES);
		p = win_mem;
		break;
	case WHERES:
		break;
	}
	CHECK(p != NULL);
	return p;
}

static void buf_put(enum where where, unsigned char *p)
{
	if (where == IN_MALLOC)
		free(p);
	else if (where == IN_ALLOC_MEM)
		MPI_Free_mem(p);
}

/* Every rank sends n bytes from `where` to rank+1, receives from rank-1. */
static void ring(size_t n, enum where where, int round)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size, count;
	unsigned char *s = buf_get(where, n), *r = malloc(n + 1);
	MPI_Request req[2];
	MPI_Status st[2];

	CHECK(r != NULL);
	tu_fill(s, n, rank, round);
	memset(r, 0xee, n + 1);
	CHECK_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, from, round, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, to, round, MPI_COMM_WORLD, &req[1]));
	CHECK_MPI(MPI_Waitall(2, req, st));
	CHECK(st[0].MPI_SOURCE == from && st[0].MPI_TAG == round);
	CHECK_MPI(MPI_Get_count(&st[0], MPI_BYTE, &count));
	CHECK(count == (int)n);
	CHECK(tu_verify(r, n, from, round));
	CHECK(r[n] == 0xee);
	expect_msg(n, where, from == rank);
	free(r);
	buf_put(where, s);
}

static void test_sizes(void)
{
	const size_t sizes[] = {
		EAGER_MAX, EAGER_MAX + 1, (size_t)copy_min - 1, (size_t)copy_min,
		(size_t)copy_min + 1, 16327, 16328, 16329, 65536 + 7, (size_t)1 << 20,
		((size_t)4 << 20) + 3,
	};
	int round = 0;

	for (int w = 0; w < WHERES; w++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			ring(sizes[i], (enum where)w, round++);
}

/* Rank 0 takes one message from every other rank, in any order. */
static void test_any_source(void)
{
	size_t n = (size_t)1 << 20;
	unsigned char *b = malloc(n);
	int seen = 0;

	CHECK(b != NULL);
	if (rank != 0) {
		tu_fill(b, n, rank, 7);
		CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
	} else {
		for (int i = 1; i < size; i++) {
			MPI_Status st;

			memset(b, 0, n);
			CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, 7,
					   MPI_COMM_WORLD, &st));
			CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
			CHECK(!(seen & (1 << st.MPI_SOURCE)));
			seen |= 1 << st.MPI_SOURCE;
			CHECK(tu_verify(b, n, st.MPI_SOURCE, 7));
			expect_msg(n, IN_MALLOC, 0);
		}
	}
	free(b);
}

/* A vector of `blocks` blocks of blen ints on the send side, an indexed
 * type on the receive side (and the reverse), same signature; then both
 * derived. */
static void derived(int blocks, int blen)
{
	const int stride = blen + 2;
	int nints = blocks * blen, to = (rank + 1) % size, from = (rank + size - 1) % size;
	int *sv = malloc((size_t)blocks * stride * sizeof(int));
	int *rv = malloc((size_t)nints * 2 * sizeof(int));	/* the vector or the pairs */
	int *flat = malloc((size_t)nints * sizeof(int));
	int *disp = malloc((size_t)nints / 2 * sizeof(int)), *lens = malloc((size_t)nints / 2 * sizeof(int));
	MPI_Datatype vec, idx;
	MPI_Request req;

	CHECK(sv && rv && flat && disp && lens);
	CHECK_MPI(MPI_Type_vector(blocks, blen, stride, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	/* pairs of ints, each pair 3 ints apart in reverse order */
	for (int i = 0; i < nints / 2; i++) {
		lens[i] = 2;
		disp[i] = (nints / 2 - 1 - i) * 3;
	}
	CHECK_MPI(MPI_Type_indexed(nints / 2, lens, disp, MPI_INT, &idx));
	CHECK_MPI(MPI_Type_commit(&idx));
	/* the send side's stream is from*1000000 + (k/blen)*stride + k%blen */
	for (int i = 0; i < blocks * stride; i++)
		sv[i] = rank * 1000000 + i;
	for (int k = 0; k < nints; k++)
		flat[k] = rank * 1000000 + (k / blen) * stride + k % blen;
	for (int pass = 0; pass < 3; pass++) {
		int svec = pass != 0, rind = pass != 1, k = 0;

		memset(rv, 0xff, (size_t)nints * 2 * sizeof(int));
		CHECK_MPI(MPI_Irecv(rv, rind ? 1 : nints, rind ? idx : MPI_INT, from, 30 + pass,
				    MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Send(svec ? sv : flat, svec ? 1 : nints, svec ? vec : MPI_INT,
				   to, 30 + pass, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < (rind ? nints / 2 : nints); i++)
			for (int j = 0; j < (rind ? 2 : 1); j++, k++)
				CHECK(rv[rind ? disp[i] + j : i] ==
				      from * 1000000 + (k / blen) * stride + k % blen);
		expect_msg_runs((size_t)nints * sizeof(int), IN_MALLOC, from == rank,
				svec ? blocks : 1);
	}
	MPI_Type_free(&vec);
	MPI_Type_free(&idx);
	free(sv);
	free(rv);
	free(flat);
	free(disp);
	free(lens);
}

static void test_derived(void)
{
	derived(200, 300);	/* 240000 bytes in 200 runs: described in the RTS */
	derived(20000, 3);	/* 240000 bytes in 20000 runs: too many */
}

/* A message longer than the receive buffer: MPI_ERR_TRUNCATE; shmpi fills
 * the buffer with the message's first bytes, and writes nothing past it. */
static void test_truncation(void)
{
	const size_t sizes[][2] = { { 100000, 60000 }, { 20000, 16384 }, { 1 << 20, 0 } };
	int to = (rank + 1) % size, from = (rank + size - 1) % size;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	for (size_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
		size_t n = sizes[c][0], keep = sizes[c][1];
		unsigned char *s = malloc(n), *r = malloc(n);
		MPI_Request req;
		MPI_Status st;
		int rc, cls;

		CHECK(s && r);
		tu_fill(s, n, rank, 40);
		memset(r, 0xee, n);
		CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, to, 40, MPI_COMM_WORLD, &req));
		rc = MPI_Recv(r, (int)keep, MPI_BYTE, from, 40, MPI_COMM_WORLD, &st);
		MPI_Error_class(rc, &cls);
		CHECK(cls == MPI_ERR_TRUNCATE);
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		/* the buffer's content is the implementation's (MPI 3.1, section
		 * 3.2.4); shmpi's is the message's first bytes, nothing past */
		if (have_mpit) {
			CHECK(tu_verify(r, keep, from, 40));
			for (size_t i = keep; i < n; i++)
				CHECK(r[i] == 0xee);
		}
		expect_msg(n, IN_MALLOC, from == rank);
		free(s);
		free(r);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Synchronous sends, a matched probe, and messages to oneself. */
static void test_modes(void)
{
	size_t n = 300000;
	int to = (rank + 1) % size, from = (rank + size - 1) % size, count;
	unsigned char *s = malloc(n), *r = malloc(n);
	MPI_Request req;
	MPI_Message msg;
	MPI_Status st;

	CHECK(s && r);
	tu_fill(s, n, rank, 50);
	CHECK_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, from, 50, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Ssend(s, (int)n, MPI_BYTE, to, 50, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(tu_verify(r, n, from, 50));
	expect_msg(n, IN_MALLOC, from == rank);

	CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, to, 51, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Mprobe(from, 51, MPI_COMM_WORLD, &msg, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
	CHECK(count == (int)n);
	memset(r, 0, n);
	CHECK_MPI(MPI_Mrecv(r, (int)n, MPI_BYTE, &msg, &st));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(tu_verify(r, n, from, 50));
	expect_msg(n, IN_MALLOC, from == rank);

	memset(r, 0, n);
	CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, rank, 52, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Recv(r, (int)n, MPI_BYTE, rank, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(tu_verify(r, n, rank, 50));
	expect_msg(n, IN_MALLOC, 1);
	free(s);
	free(r);
}

/*
 * Shared copies: messages from malloc'd memory into contiguous buffers,
 * around SHMPI_SINGLE_COPY_SHARE and up to 4 MiB, each rank sending to the
 * next and receiving from the previous one at once (MPI_Sendrecv: each is
 * a receiver that shares while it helps its own receiver), a truncated one
 * (what is shared is what the buffer takes) and a strided receive (not
 * shared).  Every receive of a contiguous buffer that a copy with
 * process_vm_readv brings, of at least the threshold, is shared: counted.
 */
static void test_share(void)
{
	const size_t sizes[] = {
		(size_t)share_min - 1, (size_t)share_min, ((size_t)1 << 20) + 3,
		(size_t)4 << 20,
	};
	int to = (rank + 1) % size, from = (rank + size - 1) % size, round = 60, rc, cls;
	int cma = cma_ok && from != rank && (knob == K_AUTO || knob == K_CMA);
	unsigned long long shared0 = 0, pushed0 = 0, pushed, all;
	long want = 0;
	size_t big = (size_t)4 << 20;
	unsigned char *s = malloc(big), *r = malloc(big + 1);
	MPI_Datatype strided;
	MPI_Status st;

	CHECK(s && r);
	if (have_mpit) {
		shared0 = pvar_value(shared_pvar);
		pushed0 = pvar_value(pushed_pvar);
	}
	for (int rep = 0; rep < 3; rep++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, round++) {
			size_t n = sizes[i];

			if (share_min <= 0)
				n = (size_t)1 << 20;
			tu_fill(s, n, rank, round);
			memset(r, 0xee, n + 1);
			CHECK_MPI(MPI_Sendrecv(s, (int)n, MPI_BYTE, to, round, r, (int)n,
					       MPI_BYTE, from, round, MPI_COMM_WORLD, &st));
			CHECK(tu_verify(r, n, from, round));
			CHECK(r[n] == 0xee);
			expect_msg(n, IN_MALLOC, from == rank);
			want += cma && share_min > 0 && n >= (size_t)share_min &&
				n >= (size_t)copy_min;
		}
	/* truncated: 2 MiB into 1 MiB */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	tu_fill(s, (size_t)2 << 20, rank, round);
	memset(r, 0xee, ((size_t)1 << 20) + 1);
	rc = MPI_Sendrecv(s, 2 << 20, MPI_BYTE, to, round, r, 1 << 20, MPI_BYTE, from, round,
			  MPI_COMM_WORLD, &st);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Error_class(rc, &cls);
	CHECK(cls == MPI_ERR_TRUNCATE);
	CHECK(tu_verify(r, (size_t)1 << 20, from, round));
	CHECK(r[(size_t)1 << 20] == 0xee);
	expect_msg((size_t)2 << 20, IN_MALLOC, from == rank);
	want += cma && share_min > 0 && ((size_t)1 << 20) >= (size_t)share_min &&
		((size_t)2 << 20) >= (size_t)copy_min;
	round++;
	/* strided receive: 1 MiB into every other 4 KiB block of 2 MiB */
	CHECK_MPI(MPI_Type_vector(256, 4096, 8192, MPI_BYTE, &strided));
	CHECK_MPI(MPI_Type_commit(&strided));
	free(r);
	r = malloc((size_t)2 << 20);
	CHECK(r != NULL);
	tu_fill(s, (size_t)1 << 20, rank, round);
	CHECK_MPI(MPI_Sendrecv(s, 1 << 20, MPI_BYTE, to, round, r, 1, strided, from, round,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	for (size_t b = 0; b < 256; b++)
		for (size_t j = 0; j < 4096; j++)
			CHECK(r[b * 8192 + j] == tu_pattern(from, round, b * 4096 + j));
	expect_msg((size_t)1 << 20, IN_MALLOC, from == rank);
	MPI_Type_free(&strided);
	if (have_mpit) {
		CHECK((long)(pvar_value(shared_pvar) - shared0) == want);
		pushed = pvar_value(pushed_pvar) - pushed0;
		if (!push_ok)
			CHECK(pushed == 0);
		CHECK_MPI(MPI_Allreduce(&pushed, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
					MPI_COMM_WORLD));
		if (size == 2 && cma && push_ok && share_min > 0)
			CHECK(all > 0);
	}
	free(s);
	free(r);
}

int main(int argc, char **argv)
{
	const char *which = "all";

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	cma_ok = !(argc > 1 && !strcmp(argv[1], "nocma"));
	push_ok = !(argc > 1 && !strcmp(argv[1], "nopush"));
	mpit_start();
	CHECK_MPI(MPI_Win_allocate((MPI_Aint)WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				   &win_mem, &win));
	TU_RUN("sizes", test_sizes);
	TU_RUN("any_source", test_any_source);
	TU_RUN("derived", test_derived);
	TU_RUN("truncation", test_truncation);
	TU_RUN("modes", test_modes);
	TU_RUN("share", test_share);
	mpit_check();
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("ok mechanisms\n");
	MPI_Win_free(&win);
	if (have_mpit)
		MPI_T_pvar_session_free(&session);
	MPI_T_finalize();
	MPI_Finalize();
	return 0;
}
