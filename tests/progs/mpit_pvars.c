/*
 * The MPI_T performance variables count exactly what a known program does
 * (MPI 3.1, section 14.3.7), with the sessions' semantics; categories and
 * the error classes.  Every rank checks its own counts; rank 0 prints one
 * line per part:
 *   ok rma        puts, gets, the accumulates, fetch_and_op and
 *                 compare_and_swap on a window of MPI_Win_allocate (the
 *                 direct path), with a derived datatype, a request-based
 *                 put, MPI_PROC_NULL and an erroneous call (none counted),
 *                 the locks of MPI_Win_lock_all and the flushes
 *   ok private    the same kinds on MPI_Win_create of malloc'd memory (the
 *                 private path) and the locks its targets grant
 *   ok locks      (2 ranks or more) rank 1 waits about 100 ms for the
 *                 exclusive lock rank 0 holds: its wait counts and its time,
 *                 the wait the watchdog sees, a futex sleep; a barrier that
 *                 rank 0 comes late to is a barrier wait for the others
 *   ok p2p        messages and bytes sent and received (a derived datatype
 *                 among them), the unexpected queue's level and high-water
 *                 mark
 *   ok sessions   start, stop, read, write, reset, readreset, two sessions
 *                 counting apart, MPI_T_PVAR_ALL_HANDLES, the continuous
 *                 and read-only variables, the timer's value
 *   ok categories every variable in a category, the tree
 *   ok errors     every MPI_T error class that applies
 * An MPI that lacks these variables (they are shmpi's) prints "skip" for
 * the parts that need them: the program is an ordinary MPI program.
 */
#include <string.h>

#include "testutil.h"

#define WIN_DOUBLES 64

static int rank, nranks, have;	/* have: shmpi's variables are there */
static MPI_T_pvar_session ses;

/* The variables a part checks: name, class, what it must count. */
struct pv {
	const char *name;
	int cls;
	unsigned long long want;
	MPI_T_pvar_handle h;
};

static int pvar_index(const char *name, int cls)
{
	int i;

	return MPI_T_pvar_get_index(name, cls, &i) == MPI_SUCCESS ? i : -1;
}

static MPI_T_pvar_handle pvar_handle(MPI_T_pvar_session s, const char *name, int cls)
{
	MPI_T_pvar_handle h;
	int count, i = pvar_index(name, cls);

	CHECK(i >= 0);
	CHECK_MPI(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count));
	CHECK(count == 1);
	return h;
}

static unsigned long long pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
	unsigned long long v;

	CHECK_MPI(MPI_T_pvar_read(s, h, &v));
	return v;
}

static void pvars_alloc(struct pv *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i].h = pvar_handle(ses, v[i].name, v[i].cls);
}

/* Stop, compare with what each should have counted, free. */
static void pvars_check(struct pv *v, int n)
{
	CHECK_MPI(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES));
	for (int i = 0; i < n; i++) {
		unsigned long long got = pvar_read(ses, v[i].h);

		if (got != v[i].want) {
			fprintf(stderr, "rank %d: %s is %llu, want %llu\n", rank, v[i].name,
				got, v[i].want);
			CHECK(got == v[i].want);
		}
		CHECK_MPI(MPI_T_pvar_handle_free(ses, &v[i].h));
		CHECK(v[i].h == MPI_T_PVAR_HANDLE_NULL);
	}
}

static void done(const char *part)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("%s %s\n", have ? "ok" : "skip", part);
}

#define C MPI_T_PVAR_CLASS_COUNTER

/* One of each RMA call (and a few more) to target t; returns nothing, the
 * callers know what it did: put 12 ops / 104 bytes, get 5 / 40, accumulate
 * 3 / 48, get_accumulate 3 / 48, fetch_and_op 4 / 32, compare_and_swap
 * 2 / 16. */
static void rma_calls(MPI_Win win, int t)
{
	/* buffers live until the epoch ends, after this returns */
	static double d[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, r[8];
	static long long c = 0, x = 1, old[2];
	MPI_Datatype vec;
	MPI_Request req;

	for (int i = 0; i < 10; i++)
		CHECK_MPI(MPI_Put(&d[0], 1, MPI_DOUBLE, t, i, 1, MPI_DOUBLE, win));
	/* two doubles into every other slot: 16 bytes of target memory */
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	CHECK_MPI(MPI_Put(d, 2, MPI_DOUBLE, t, 10, 1, vec, win));
	CHECK_MPI(MPI_Type_free(&vec));
	CHECK_MPI(MPI_Rput(&d[1], 1, MPI_DOUBLE, t, 13, 1, MPI_DOUBLE, win, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Put(d, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, win));
	for (int i = 0; i < 5; i++)
		CHECK_MPI(MPI_Get(&r[i], 1, MPI_DOUBLE, t, 20 + i, 1, MPI_DOUBLE, win));
	for (int i = 0; i < 3; i++)
		CHECK_MPI(MPI_Accumulate(d, 2, MPI_DOUBLE, t, 30, 2, MPI_DOUBLE, MPI_SUM, win));
	for (int i = 0; i < 2; i++)
		CHECK_MPI(MPI_Get_accumulate(d, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, t, 40, 1,
					     MPI_DOUBLE, MPI_SUM, win));
	CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, r, 4, MPI_DOUBLE, t, 40, 4,
				     MPI_DOUBLE, MPI_NO_OP, win));
	for (int i = 0; i < 4; i++)
		CHECK_MPI(MPI_Fetch_and_op(&d[i], &r[i], MPI_DOUBLE, t, 44 + i, MPI_SUM, win));
	for (int i = 0; i < 2; i++)
		CHECK_MPI(MPI_Compare_and_swap(&x, &c, &old[i], MPI_LONG_LONG, t, 48 + i, win));
}

static void rma_want(struct pv *v, const char *path)
{
	static const struct {
		const char *kind;
		unsigned long long ops, bytes;
	} did[] = {
		{ "put", 12, 104 }, { "get", 5, 40 }, { "accumulate", 3, 48 },
		{ "get_accumulate", 3, 48 }, { "fetch_and_op", 4, 32 },
		{ "compare_and_swap", 2, 16 },
	};
	static char names[24][64];
	const char *other = strcmp(path, "direct") == 0 ? "private" : "direct";

	for (int i = 0; i < 6; i++) {
		struct pv *p = &v[4 * i];

		snprintf(names[4 * i], 64, "rma_%s_%s", did[i].kind, path);
		snprintf(names[4 * i + 1], 64, "rma_%s_%s_bytes", did[i].kind, path);
		snprintf(names[4 * i + 2], 64, "rma_%s_%s", did[i].kind, other);
		snprintf(names[4 * i + 3], 64, "rma_%s_%s_bytes", did[i].kind, other);
		p[0] = (struct pv){ names[4 * i], C, did[i].ops, NULL };
		p[1] = (struct pv){ names[4 * i + 1], C, did[i].bytes, NULL };
		p[2] = (struct pv){ names[4 * i + 2], C, 0, NULL };
		p[3] = (struct pv){ names[4 * i + 3], C, 0, NULL };
	}
}

static void part_rma(void)
{
	struct pv v[28];
	double *base;
	MPI_Win win;
	int t = (rank + 1) % nranks;

	CHECK_MPI(MPI_Win_allocate(WIN_DOUBLES * sizeof(double), sizeof(double),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	rma_want(v, "direct");
	v[24] = (struct pv){ "rma_lock_direct", C, (unsigned long long)nranks, NULL };
	v[25] = (struct pv){ "rma_lock_private", C, 0, NULL };
	v[26] = (struct pv){ "rma_flushes", C, 6, NULL };
	v[27] = (struct pv){ "wait_win_lock", C, 0, NULL };
	if (have) {
		pvars_alloc(v, 28);
		CHECK_MPI(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
	}
	CHECK_MPI(MPI_Win_lock_all(0, win));
	rma_calls(win, t);
	/* refused: counts nothing */
	CHECK(tu_check_class(MPI_Put(base, 1, MPI_DOUBLE, nranks, 0, 1, MPI_DOUBLE, win),
			     MPI_ERR_RANK));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Win_flush(t, win));
	CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
	CHECK_MPI(MPI_Win_flush_local(t, win));
	CHECK_MPI(MPI_Win_flush_all(win));
	CHECK_MPI(MPI_Win_flush_local_all(win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	if (have)
		pvars_check(v, 28);
	CHECK_MPI(MPI_Win_free(&win));
	done("rma");
}

static void part_private(void)
{
	static double d = 1;
	struct pv v[26];
	double *mem = calloc(WIN_DOUBLES, sizeof(double));
	MPI_Win win;
	int t = (rank + 1) % nranks;

	CHECK(mem);
	CHECK_MPI(MPI_Win_create(mem, WIN_DOUBLES * sizeof(double), sizeof(double),
				 MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	rma_want(v, "private");
	/* one more put, alone in its epoch; one on this rank itself */
	v[0].want += 2;
	v[1].want += 16;
	v[24] = (struct pv){ "rma_lock_direct", C, 0, NULL };
	v[25] = (struct pv){ "rma_lock_private", C, 3, NULL };
	if (have) {
		pvars_alloc(v, 26);
		CHECK_MPI(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
	}
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	rma_calls(win, t);
	CHECK_MPI(MPI_Win_unlock(t, win));
	/* the lone operation takes its lock along */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	CHECK_MPI(MPI_Put(&d, 1, MPI_DOUBLE, t, 60, 1, MPI_DOUBLE, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	/* a lock on this rank is taken at once */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK_MPI(MPI_Put(&d, 1, MPI_DOUBLE, rank, 61, 1, MPI_DOUBLE, win));
	CHECK_MPI(MPI_Win_unlock(rank, win));
	if (have)
		pvars_check(v, 26);
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
	done("private");
}

static void part_locks(void)
{
	MPI_T_pvar_handle timer = MPI_T_PVAR_HANDLE_NULL;
	struct pv v[6];
	double *base, secs = -1;
	MPI_Win win;

	CHECK_MPI(MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	v[0] = (struct pv){ "rma_lock_direct", C, rank <= 1 ? 1 : 0, NULL };
	v[1] = (struct pv){ "rma_lock_waits", C, rank == 1 ? 1 : 0, NULL };
	v[2] = (struct pv){ "wait_win_lock", C, rank == 1 ? 1 : 0, NULL };
	v[3] = (struct pv){ "rma_flushes", C, 0, NULL };
	v[4] = (struct pv){ "futex_sleeps", C, 0, NULL };
	v[5] = (struct pv){ "wait_barrier", C, 0, NULL };
	if (have) {
		pvars_alloc(v, 6);
		timer = pvar_handle(ses, "rma_lock_wait_time", MPI_T_PVAR_CLASS_TIMER);
		CHECK_MPI(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
	}
	if (rank == 0)
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		tu_sleep_ms(100);
		CHECK_MPI(MPI_Win_unlock(0, win));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	/* the others wait for rank 0 at a barrier */
	if (rank == 0)
		tu_sleep_ms(50);
	MPI_Barrier(MPI_COMM_WORLD);
	if (have) {
		CHECK_MPI(MPI_T_pvar_read(ses, timer, &secs));
		CHECK(rank == 1 ? secs >= 0.05 && secs < 60 : secs == 0);
		CHECK_MPI(MPI_T_pvar_handle_free(ses, &timer));
		/* the sleeps and barrier waits vary: at least one where due
		 * (read once the handles stop: a progress thread may sleep
		 * again meanwhile; pvars_check stops them again, which does
		 * nothing to a stopped handle) */
		CHECK_MPI(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES));
		v[4].want = pvar_read(ses, v[4].h);
		v[5].want = pvar_read(ses, v[5].h);
		CHECK(rank != 1 || v[4].want >= 1);
		CHECK(rank == 0 || v[5].want >= 1);
		pvars_check(v, 6);
	}
	CHECK_MPI(MPI_Win_free(&win));
	done("locks");
}

static void part_p2p(void)
{
	MPI_T_pvar_handle level = MPI_T_PVAR_HANDLE_NULL, hwm = MPI_T_PVAR_HANDLE_NULL;
	MPI_Request reqs[4];
	MPI_Datatype vec;
	struct pv v[4];
	double out[4] = { 1, 2, 3, 4 }, in[8];
	int to = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;

	v[0] = (struct pv){ "p2p_sent", C, 4, NULL };
	v[1] = (struct pv){ "p2p_sent_bytes", C, 3 * 8 + 16, NULL };
	v[2] = (struct pv){ "p2p_received", C, 4, NULL };
	v[3] = (struct pv){ "p2p_received_bytes", C, 3 * 8 + 16, NULL };
	if (have) {
		pvars_alloc(v, 4);
		level = pvar_handle(ses, "p2p_unexpected", MPI_T_PVAR_CLASS_LEVEL);
		hwm = pvar_handle(ses, "p2p_unexpected_max", MPI_T_PVAR_CLASS_HIGHWATERMARK);
		CHECK(pvar_read(ses, level) == 0 && pvar_read(ses, hwm) == 0);
		CHECK_MPI(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
	}
	/* nobody sends before everybody counts */
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	for (int tag = 1; tag <= 3; tag++)
		CHECK_MPI(MPI_Isend(&out[tag - 1], 1, MPI_DOUBLE, to, tag, MPI_COMM_WORLD,
				    &reqs[tag - 1]));
	CHECK_MPI(MPI_Isend(out, 1, vec, to, 4, MPI_COMM_WORLD, &reqs[3]));
	CHECK_MPI(MPI_Send(out, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
	/* all four arrive before any receive: the unexpected queue holds them */
	for (int tag = 1; tag <= 4; tag++)
		CHECK_MPI(MPI_Probe(from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	if (have)
		CHECK(pvar_read(ses, level) == 4 && pvar_read(ses, hwm) == 4);
	/* the last into room for two: counted as sent, 8 bytes */
	for (int tag = 1; tag <= 3; tag++)
		CHECK_MPI(MPI_Recv(&in[tag], tag == 3 ? 2 : 1, MPI_DOUBLE, from, tag,
				   MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Recv(in, 1, vec, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
	CHECK(in[0] == 1 && in[2] == 3 && in[3] == 3);
	CHECK_MPI(MPI_Type_free(&vec));
	if (have) {
		/* the level follows the queue; the mark stays until reset */
		CHECK(pvar_read(ses, level) == 0 && pvar_read(ses, hwm) == 4);
		CHECK_MPI(MPI_T_pvar_reset(ses, hwm));
		CHECK(pvar_read(ses, hwm) == 0);
		CHECK_MPI(MPI_T_pvar_handle_free(ses, &level));
		CHECK_MPI(MPI_T_pvar_handle_free(ses, &hwm));
		pvars_check(v, 4);
	}
	done("p2p");
}

/* n puts of a double to this rank in an epoch of its own. */
static void puts_self(MPI_Win win, int n)
{
	double d = 0;

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	for (int i = 0; i < n; i++)
		CHECK_MPI(MPI_Put(&d, 1, MPI_DOUBLE, rank, 0, 1, MPI_DOUBLE, win));
	CHECK_MPI(MPI_Win_unlock(rank, win));
}

static void part_sessions(void)
{
	MPI_T_pvar_session other;
	MPI_T_pvar_handle a, b, t, level, hwm, hwm2;
	unsigned long long v = 1000, got;
	double *base, secs = 2.5;
	MPI_Win win;

	if (!have) {
		done("sessions");
		return;
	}
	CHECK_MPI(MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_T_pvar_session_create(&other));
	a = pvar_handle(ses, "rma_put_direct", C);
	/* a handle counts only while started, from 0 */
	puts_self(win, 1);
	CHECK(pvar_read(ses, a) == 0);
	CHECK_MPI(MPI_T_pvar_start(ses, a));
	CHECK_MPI(MPI_T_pvar_start(ses, a));	/* started already: nothing */
	puts_self(win, 2);
	CHECK(pvar_read(ses, a) == 2);
	CHECK_MPI(MPI_T_pvar_stop(ses, a));
	puts_self(win, 1);
	CHECK(pvar_read(ses, a) == 2);
	CHECK_MPI(MPI_T_pvar_start(ses, a));
	puts_self(win, 1);
	CHECK(pvar_read(ses, a) == 3);
	/* written: counts on from the value written */
	CHECK_MPI(MPI_T_pvar_write(ses, a, &v));
	CHECK(pvar_read(ses, a) == 1000);
	puts_self(win, 1);
	CHECK_MPI(MPI_T_pvar_readreset(ses, a, &got));
	CHECK(got == 1001 && pvar_read(ses, a) == 0);
	/* another session counts apart */
	b = pvar_handle(other, "rma_put_direct", C);
	CHECK_MPI(MPI_T_pvar_start(other, b));
	puts_self(win, 3);
	CHECK(pvar_read(ses, a) == 3 && pvar_read(other, b) == 3);
	CHECK_MPI(MPI_T_pvar_reset(ses, a));
	puts_self(win, 1);
	CHECK(pvar_read(ses, a) == 1 && pvar_read(other, b) == 4);
	/* MPI_T_PVAR_ALL_HANDLES passes over the continuous and read-only ones */
	level = pvar_handle(ses, "p2p_unexpected", MPI_T_PVAR_CLASS_LEVEL);
	hwm = pvar_handle(ses, "p2p_unexpected_max", MPI_T_PVAR_CLASS_HIGHWATERMARK);
	CHECK_MPI(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES));
	puts_self(win, 1);
	CHECK(pvar_read(ses, a) == 1 && pvar_read(other, b) == 5);
	CHECK_MPI(MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES));
	CHECK(pvar_read(ses, a) == 0);
	CHECK_MPI(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES));
	puts_self(win, 2);
	CHECK(pvar_read(ses, a) == 2);
	/* the continuous ones cannot start or stop; the level is read only */
	CHECK(MPI_T_pvar_start(ses, level) == MPI_T_ERR_PVAR_NO_STARTSTOP);
	CHECK(MPI_T_pvar_stop(ses, hwm) == MPI_T_ERR_PVAR_NO_STARTSTOP);
	CHECK(MPI_T_pvar_write(ses, level, &v) == MPI_T_ERR_PVAR_NO_WRITE);
	CHECK(MPI_T_pvar_reset(ses, level) == MPI_T_ERR_PVAR_NO_WRITE);
	CHECK(MPI_T_pvar_readreset(ses, level, &got) == MPI_T_ERR_PVAR_NO_WRITE);
	CHECK(pvar_read(ses, level) == 0);
	/* a high-water mark written counts on from there; a new one from now */
	CHECK_MPI(MPI_T_pvar_write(ses, hwm, &v));
	hwm2 = pvar_handle(other, "p2p_unexpected_max", MPI_T_PVAR_CLASS_HIGHWATERMARK);
	CHECK(pvar_read(ses, hwm) == 1000 && pvar_read(other, hwm2) == 0);
	/* the timer, in seconds */
	t = pvar_handle(ses, "rma_lock_wait_time", MPI_T_PVAR_CLASS_TIMER);
	CHECK_MPI(MPI_T_pvar_write(ses, t, &secs));
	secs = 0;
	CHECK_MPI(MPI_T_pvar_read(ses, t, &secs));
	CHECK(secs == 2.5);
	secs = -1;
	CHECK(MPI_T_pvar_write(ses, t, &secs) == MPI_T_ERR_INVALID);
	CHECK_MPI(MPI_T_pvar_handle_free(ses, &t));
	CHECK_MPI(MPI_T_pvar_handle_free(ses, &a));
	CHECK_MPI(MPI_T_pvar_handle_free(ses, &level));
	CHECK_MPI(MPI_T_pvar_handle_free(ses, &hwm));
	/* freeing a session frees its handles */
	CHECK_MPI(MPI_T_pvar_session_free(&other));
	CHECK(other == MPI_T_PVAR_SESSION_NULL);
	CHECK_MPI(MPI_Win_free(&win));
	done("sessions");
}

/* The members of kind `what` (0 cvars, 1 pvars, 2 categories) of c. */
static int members(int c, int what, int *idx, int len)
{
	switch (what) {
	case 0:
		return MPI_T_category_get_cvars(c, len, idx);
	case 1:
		return MPI_T_category_get_pvars(c, len, idx);
	default:
		return MPI_T_category_get_categories(c, len, idx);
	}
}

/* Every performance variable: its info, found again by name and class. */
static void list_pvars(void)
{
	int n;

	CHECK_MPI(MPI_T_pvar_get_num(&n));
	for (int i = 0; i < n; i++) {
		char name[64], desc[512];
		int nlen = 0, dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic, j;
		MPI_Datatype dt;
		MPI_T_enum en;

		/* no buffer: the length needed, NUL included */
		CHECK_MPI(MPI_T_pvar_get_info(i, NULL, &nlen, NULL, NULL, NULL, NULL, NULL,
					      NULL, NULL, NULL, NULL, NULL));
		CHECK(nlen > 1 && nlen <= (int)sizeof(name));
		CHECK_MPI(MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &en, desc,
					      &dlen, &bind, &ro, &cont, &atomic));
		CHECK((int)strlen(name) + 1 == nlen && strlen(desc) > 10);
		CHECK(bind == MPI_T_BIND_NO_OBJECT && en == MPI_T_ENUM_NULL && atomic);
		CHECK(dt == (cls == MPI_T_PVAR_CLASS_TIMER ? MPI_DOUBLE : MPI_UNSIGNED_LONG_LONG));
		CHECK(ro == (cls == MPI_T_PVAR_CLASS_LEVEL));
		CHECK(cont == (cls == MPI_T_PVAR_CLASS_LEVEL ||
			       cls == MPI_T_PVAR_CLASS_HIGHWATERMARK));
		CHECK_MPI(MPI_T_pvar_get_index(name, cls, &j));
		CHECK(j == i);
	}
}

static void part_categories(void)
{
	int ncat, ncvar, npvar, sum[3] = { 0, 0, 0 }, stamp, stamp2, rma = -1, top = -1;

	CHECK_MPI(MPI_T_category_get_num(&ncat));
	CHECK_MPI(MPI_T_cvar_get_num(&ncvar));
	CHECK_MPI(MPI_T_pvar_get_num(&npvar));
	CHECK_MPI(MPI_T_category_changed(&stamp));
	for (int c = 0; c < ncat; c++) {
		char name[256], desc[1024];
		int nlen = sizeof(name), dlen = sizeof(desc), n[3], *idx;

		CHECK_MPI(MPI_T_category_get_info(c, name, &nlen, desc, &dlen, &n[0], &n[1],
						  &n[2]));
		CHECK(nlen == (int)strlen(name) + 1);
		CHECK_MPI(MPI_T_category_get_index(name, &nlen));
		CHECK(nlen == c);
		idx = malloc(sizeof(int) * (size_t)(n[0] + n[1] + n[2] + 1));
		CHECK(idx);
		for (int w = 0; w < 3; w++) {
			CHECK(n[w] >= 0);
			CHECK_MPI(members(c, w, idx, n[w]));
			sum[w] += n[w];
		}
		if (have && strcmp(name, "rma") == 0) {
			rma = c;
			CHECK_MPI(MPI_T_category_get_pvars(c, n[1], idx));
			for (int i = 0; i < n[1]; i++) {
				char pname[64];
				int plen = sizeof(pname);

				CHECK_MPI(MPI_T_pvar_get_info(idx[i], pname, &plen, NULL, NULL,
							      NULL, NULL, NULL, NULL, NULL,
							      NULL, NULL, NULL));
				CHECK(strncmp(pname, "rma_", 4) == 0);
			}
			CHECK(n[1] == 29);
			/* no more than len indices */
			idx[n[1] - 1] = -7;
			CHECK_MPI(MPI_T_category_get_pvars(c, n[1] - 1, idx));
			CHECK(idx[n[1] - 1] == -7);
		}
		if (strcmp(name, "shmpi") == 0)
			top = c;
		free(idx);
	}
	if (have) {
		list_pvars();
		/* a tree: every variable in one category, every category but the
		 * top one in another */
		CHECK(rma >= 0 && top >= 0);
		CHECK(sum[0] == ncvar && sum[1] == npvar && sum[2] == ncat - 1);
		CHECK(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
		      MPI_T_ERR_INVALID_INDEX);
		CHECK(MPI_T_category_get_pvars(-1, 0, NULL) == MPI_T_ERR_INVALID_INDEX);
		CHECK(MPI_T_category_get_cvars(top, -1, NULL) == MPI_T_ERR_INVALID);
		CHECK(MPI_T_category_get_index("no such", &ncat) == MPI_T_ERR_INVALID_NAME);
	}
	CHECK_MPI(MPI_T_category_changed(&stamp2));
	CHECK(stamp == stamp2);
	done("categories");
}

static void part_errors(void)
{
	MPI_T_pvar_session other, stale_s;
	MPI_T_pvar_handle h, stale;
	unsigned long long v;
	int i, n, count;

	if (!have) {
		done("errors");
		return;
	}
	CHECK_MPI(MPI_T_pvar_get_num(&n));
	CHECK(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
				  NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
	CHECK(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
				  NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
	/* a name is found with its class only */
	CHECK(MPI_T_pvar_get_index("rma_put_direct", MPI_T_PVAR_CLASS_TIMER, &i) ==
	      MPI_T_ERR_INVALID_NAME);
	CHECK(MPI_T_pvar_get_index("no such", C, &i) == MPI_T_ERR_INVALID_NAME);
	i = pvar_index("rma_put_direct", C);
	CHECK(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, i, NULL, &h, &count) ==
	      MPI_T_ERR_INVALID_SESSION);
	CHECK(MPI_T_pvar_handle_alloc(ses, n, NULL, &h, &count) == MPI_T_ERR_INVALID_INDEX);
	CHECK(MPI_T_pvar_handle_alloc(ses, i, NULL, NULL, &count) == MPI_T_ERR_INVALID);
	CHECK_MPI(MPI_T_pvar_handle_alloc(ses, i, NULL, &h, &count));
	CHECK(MPI_T_pvar_read(ses, h, NULL) == MPI_T_ERR_INVALID);
	CHECK(MPI_T_pvar_read(ses, MPI_T_PVAR_ALL_HANDLES, &v) == MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_write(ses, MPI_T_PVAR_ALL_HANDLES, &v) ==
	      MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_readreset(ses, MPI_T_PVAR_ALL_HANDLES, &v) ==
	      MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_read(ses, MPI_T_PVAR_HANDLE_NULL, &v) == MPI_T_ERR_INVALID_HANDLE);
	/* a handle belongs to its session */
	CHECK_MPI(MPI_T_pvar_session_create(&other));
	CHECK(MPI_T_pvar_read(other, h, &v) == MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_start(other, h) == MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_handle_free(other, &h) == MPI_T_ERR_INVALID_HANDLE);
	stale = h;
	CHECK_MPI(MPI_T_pvar_handle_free(ses, &h));
	CHECK(h == MPI_T_PVAR_HANDLE_NULL);
	CHECK(MPI_T_pvar_read(ses, stale, &v) == MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_pvar_reset(ses, stale) == MPI_T_ERR_INVALID_HANDLE);
	stale_s = other;
	CHECK_MPI(MPI_T_pvar_session_free(&other));
	CHECK(MPI_T_pvar_start(stale_s, MPI_T_PVAR_ALL_HANDLES) == MPI_T_ERR_INVALID_SESSION);
	CHECK(MPI_T_pvar_session_free(&stale_s) == MPI_T_ERR_INVALID_SESSION);
	CHECK(MPI_T_pvar_session_free(NULL) == MPI_T_ERR_INVALID_SESSION);
	CHECK(MPI_T_pvar_session_create(NULL) == MPI_T_ERR_INVALID);
	CHECK(MPI_T_pvar_get_num(NULL) == MPI_T_ERR_INVALID);
	done("errors");
}

int main(int argc, char **argv)
{
	int provided, n;

	/* nothing before MPI_T_init_thread */
	CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
	CHECK(MPI_T_pvar_session_create(&ses) == MPI_T_ERR_NOT_INITIALIZED);
	CHECK(MPI_T_category_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
	CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	have = pvar_index("rma_put_direct", C) >= 0;
	CHECK_MPI(MPI_T_pvar_session_create(&ses));
	part_rma();
	part_private();
	if (nranks >= 2)
		part_locks();
	part_p2p();
	part_sessions();
	part_categories();
	part_errors();
	CHECK_MPI(MPI_T_pvar_session_free(&ses));
	MPI_Finalize();
	CHECK_MPI(MPI_T_finalize());
	CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
	return 0;
}
