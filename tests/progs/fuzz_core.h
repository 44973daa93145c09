/*
 * The fuzzing core shared by tests/progs/fuzz_mpi.c (many ranks, a seeded
 * generator, bounded in make check) and tests/fuzz/libfuzzer_mpi.c (one rank,
 * libFuzzer's inputs, make fuzz).
 *
 * One execution is one MPI call (RMA, point-to-point, datatype or RMA
 * synchronization) with random and boundary arguments, under
 * MPI_ERRORS_RETURN.  Either the call is given one defect the standard makes
 * erroneous (negative count, bad rank or tag, displacement outside the
 * window, a type whose extent leaves it, null/freed/uncommitted/garbage
 * handles, wrong window, bad op, bad assertion, null buffer) and must return
 * an error class, or it is legal (overlapping buffers, zero counts,
 * MPI_PROC_NULL...) and may return success or an error class.  Nothing may
 * crash or hang.
 *
 * Memory is checked by construction: every window holds a known pattern, a
 * legal call only ever writes that same pattern (put of the bytes already
 * there, accumulate of zeros with MPI_SUM, MPI_NO_OP, compare_and_swap whose
 * compare never matches...), and an erroneous call carries poison.  So after
 * any mix of calls every window byte must still be its pattern, and the
 * guard bytes around every window, origin and result buffer must be intact:
 * checked after every call (buffers) and every round (windows, by every rank
 * through MPI_Get too).
 */
#ifndef FUZZ_CORE_H
#define FUZZ_CORE_H

#include <limits.h>
#include <stdint.h>

#include "testutil.h"

enum { FZ_NWIN = 4, FZ_WSIZE = 256, FZ_GUARD = 64, FZ_BUF = 512 };
#define FZ_GUARD_BYTE 0xA5
#define FZ_POISON 0x5A

struct fz {
	int rank, size;
	/* the random source: a seeded generator, or libFuzzer's bytes */
	uint64_t rng;
	const uint8_t *in;
	size_t in_len, in_pos;
	/* windows with an open lock_all epoch during a round: allocate,
	 * create on MPI_Alloc_mem memory, allocate_shared, create on malloc */
	MPI_Win win[FZ_NWIN];
	unsigned char *wbase[FZ_NWIN];	/* this rank's window memory */
	unsigned char *walloc[FZ_NWIN];	/* with guards, where we own them */
	int du[FZ_NWIN];		/* disp_unit */
	MPI_Win idle_win, freed_win;	/* no epoch ever; freed */
	MPI_Datatype uncommitted, freed_type, big_extent;
	MPI_Comm freed_comm;
	MPI_Op user_op;
	unsigned char obuf[FZ_BUF + 2 * FZ_GUARD], rbuf[FZ_BUF + 2 * FZ_GUARD];
	unsigned char cbuf[64];
	/* what is going on, for the failure message */
	const char *call, *defect;
	long execs, errors, successes, round;
	unsigned long long seed;
	/* proves the checks can fail: 1, a legal call counted as erroneous;
	 * 2, a legal put of poison into the last rank's window */
	int selftest;
};

/* A number in [0, bound). */
static inline uint32_t fz_pick(struct fz *f, uint32_t bound)
{
	uint64_t v;

	if (f->in && f->in_pos < f->in_len) {
		v = 0;
		for (int i = 0; i < 3 && f->in_pos < f->in_len; i++)
			v = v << 8 | f->in[f->in_pos++];
	} else {
		/* past the input's end: the generator, seeded from the input */
		v = tu_splitmix(&f->rng);
	}
	return bound ? (uint32_t)(v % bound) : 0;
}

static inline int fz_chance(struct fz *f, int percent)
{
	return (int)fz_pick(f, 100) < percent;
}

static inline unsigned char fz_pattern(int w, int rank, MPI_Aint byte)
{
	return (unsigned char)(w * 59 + rank * 101 + byte * 7 + 1);
}

/* How a failed check ends: the whole job, or (libFuzzer) an abort that
 * libFuzzer reports with the input that caused it. */
#ifndef FZ_DIE
#define FZ_DIE() MPI_Abort(MPI_COMM_WORLD, 98)
#endif

#define FZ_FAIL(f, ...)                                                        \
	do {                                                                   \
		fprintf(stderr, "fuzz: rank %d seed %llu round %ld execution " \
			"%ld (%s, defect %s): ", (f)->rank, (f)->seed,         \
			(f)->round, (f)->execs, (f)->call ? (f)->call : "-",   \
			(f)->defect ? (f)->defect : "none");                   \
		fprintf(stderr, __VA_ARGS__);                                  \
		fputc('\n', stderr);                                           \
		fflush(stderr);                                                \
		FZ_DIE();                                                      \
	} while (0)

/* Guards of the origin and result buffers. */
static void fz_guard(unsigned char *b)
{
	memset(b, FZ_GUARD_BYTE, FZ_GUARD);
	memset(b + FZ_GUARD + FZ_BUF, FZ_GUARD_BYTE, FZ_GUARD);
}

static void fz_user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	(void)in; (void)inout; (void)len; (void)dt;
}

static void fz_setup(struct fz *f)
{
	MPI_Datatype t;
	MPI_Win tmp;
	void *idle_mem;

	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	for (int w = 0; w < FZ_NWIN; w++) {
		unsigned char *mem = NULL;

		f->du[w] = w == 1 ? 4 : 1;
		switch (w) {
		case 0:
			CHECK_MPI(MPI_Win_allocate(FZ_WSIZE, 1, MPI_INFO_NULL,
						   MPI_COMM_WORLD, &mem, &f->win[w]));
			break;
		case 1:
			CHECK_MPI(MPI_Alloc_mem(FZ_WSIZE + 2 * FZ_GUARD, MPI_INFO_NULL,
						&f->walloc[w]));
			mem = f->walloc[w] + FZ_GUARD;
			CHECK_MPI(MPI_Win_create(mem, FZ_WSIZE, 4, MPI_INFO_NULL,
						 MPI_COMM_WORLD, &f->win[w]));
			break;
		case 2:
			CHECK_MPI(MPI_Win_allocate_shared(FZ_WSIZE, 1, MPI_INFO_NULL,
							  MPI_COMM_WORLD, &mem, &f->win[w]));
			break;
		default:
			f->walloc[w] = malloc(FZ_WSIZE + 2 * FZ_GUARD);
			CHECK(f->walloc[w]);
			mem = f->walloc[w] + FZ_GUARD;
			CHECK_MPI(MPI_Win_create(mem, FZ_WSIZE, 1, MPI_INFO_NULL,
						 MPI_COMM_WORLD, &f->win[w]));
			break;
		}
		f->wbase[w] = mem;
		if (f->walloc[w])
			memset(f->walloc[w], FZ_GUARD_BYTE, FZ_WSIZE + 2 * FZ_GUARD);
		for (MPI_Aint i = 0; i < FZ_WSIZE; i++)
			mem[i] = fz_pattern(w, f->rank, i);
		MPI_Win_set_errhandler(f->win[w], MPI_ERRORS_RETURN);
	}
	CHECK_MPI(MPI_Win_allocate(FZ_WSIZE, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				   &idle_mem, &f->idle_win));
	MPI_Win_set_errhandler(f->idle_win, MPI_ERRORS_RETURN);
	/* the stale handle of a freed window (MPI_Win_free nulls tmp only) */
	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &idle_mem, &tmp));
	f->freed_win = tmp;
	CHECK_MPI(MPI_Win_free(&tmp));

	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &f->uncommitted));
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
	f->freed_type = t;
	CHECK_MPI(MPI_Type_free(&t));
	/* 2 ints, 4 windows apart: any one element leaves every window */
	CHECK_MPI(MPI_Type_vector(2, 1, FZ_WSIZE, MPI_INT, &f->big_extent));
	CHECK_MPI(MPI_Type_commit(&f->big_extent));
	{
		MPI_Comm c;

		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
		f->freed_comm = c;
		CHECK_MPI(MPI_Comm_free(&c));
	}
	CHECK_MPI(MPI_Op_create(fz_user_fn, 1, &f->user_op));
	memset(f->cbuf, 0, sizeof(f->cbuf));
	fz_guard(f->obuf);
	fz_guard(f->rbuf);
}

static void fz_teardown(struct fz *f)
{
	for (int w = 0; w < FZ_NWIN; w++) {
		CHECK_MPI(MPI_Win_free(&f->win[w]));
		if (w == 1)
			MPI_Free_mem(f->walloc[w]);
		else
			free(f->walloc[w]);
	}
	CHECK_MPI(MPI_Win_free(&f->idle_win));
	MPI_Type_free(&f->uncommitted);
	MPI_Type_free(&f->big_extent);
	MPI_Op_free(&f->user_op);
}

static void fz_check_guard(struct fz *f, const unsigned char *b, const char *what)
{
	for (int i = 0; i < FZ_GUARD; i++)
		if (b[i] != FZ_GUARD_BYTE || b[FZ_GUARD + FZ_BUF + i] != FZ_GUARD_BYTE)
			FZ_FAIL(f, "the guard of the %s buffer was overwritten", what);
}

/* The outcome of one execution: must_fail says the call had a defect. */
static void fz_outcome(struct fz *f, int rc, int must_fail)
{
	int cls = -1;

	f->execs++;
	fz_check_guard(f, f->obuf, "origin");
	fz_check_guard(f, f->rbuf, "result");
	if (rc == MPI_SUCCESS) {
		if (must_fail)
			FZ_FAIL(f, "returned MPI_SUCCESS");
		f->successes++;
		return;
	}
	if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls <= MPI_SUCCESS ||
	    cls > MPI_ERR_LASTCODE)
		FZ_FAIL(f, "returned %d, not an error class (class %d)", rc, cls);
	f->errors++;
}

/* --- RMA data movement ------------------------------------------------- */

enum fz_rma { R_PUT, R_GET, R_ACC, R_GACC, R_FOP, R_CAS, R_RPUT, R_RGET, R_RACC,
	      R_RGACC, R_NCALLS };
static const char *const fz_rma_names[] = {
	"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate",
	"MPI_Fetch_and_op", "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget",
	"MPI_Raccumulate", "MPI_Rget_accumulate",
};

struct fz_args {
	int w, target, ocount, tcount;
	MPI_Aint disp;
	MPI_Datatype otype, ttype;
	MPI_Op op;
	MPI_Win win;
	void *obuf, *rbuf, *cmp;
	MPI_Request *req;
};

static int fz_rma_call(enum fz_rma c, struct fz_args *a)
{
	switch (c) {
	case R_PUT:
		return MPI_Put(a->obuf, a->ocount, a->otype, a->target, a->disp,
			       a->tcount, a->ttype, a->win);
	case R_GET:
		return MPI_Get(a->rbuf, a->ocount, a->otype, a->target, a->disp,
			       a->tcount, a->ttype, a->win);
	case R_ACC:
		return MPI_Accumulate(a->obuf, a->ocount, a->otype, a->target, a->disp,
				      a->tcount, a->ttype, a->op, a->win);
	case R_GACC:
		return MPI_Get_accumulate(a->obuf, a->ocount, a->otype, a->rbuf,
					  a->ocount, a->otype, a->target, a->disp,
					  a->tcount, a->ttype, a->op, a->win);
	case R_FOP:
		return MPI_Fetch_and_op(a->obuf, a->rbuf, a->otype, a->target, a->disp,
					a->op, a->win);
	case R_CAS:
		return MPI_Compare_and_swap(a->obuf, a->cmp, a->rbuf, a->otype,
					    a->target, a->disp, a->win);
	case R_RPUT:
		return MPI_Rput(a->obuf, a->ocount, a->otype, a->target, a->disp,
				a->tcount, a->ttype, a->win, a->req);
	case R_RGET:
		return MPI_Rget(a->rbuf, a->ocount, a->otype, a->target, a->disp,
				a->tcount, a->ttype, a->win, a->req);
	case R_RACC:
		return MPI_Raccumulate(a->obuf, a->ocount, a->otype, a->target, a->disp,
				       a->tcount, a->ttype, a->op, a->win, a->req);
	default:
		return MPI_Rget_accumulate(a->obuf, a->ocount, a->otype, a->rbuf,
					   a->ocount, a->otype, a->target, a->disp,
					   a->tcount, a->ttype, a->op, a->win, a->req);
	}
}

static int fz_is_acc(enum fz_rma c)
{
	return c == R_ACC || c == R_GACC || c == R_FOP || c == R_RACC || c == R_RGACC;
}

static int fz_fetches(enum fz_rma c)
{
	return c == R_GET || c == R_GACC || c == R_FOP || c == R_CAS || c == R_RGET ||
	       c == R_RGACC;
}

/* One defect from those that apply to call c; returns its name. */
static const char *fz_rma_defect(struct fz *f, enum fz_rma c, struct fz_args *a)
{
	static const MPI_Aint huge[] = { (MPI_Aint)1 << 40, -1, -4096, FZ_WSIZE,
					 (MPI_Aint)INT_MAX * 8 };
	static const int bad_ranks[] = { -2, -77, INT_MAX, INT_MIN };
	int single = c == R_FOP || c == R_CAS;

	for (;;) {
		switch (fz_pick(f, 11)) {
		case 0:
			if (single)
				continue;
			if (fz_chance(f, 50))
				a->ocount = fz_chance(f, 50) ? -1 : INT_MIN;
			else
				a->tcount = -1 - (int)fz_pick(f, 100);
			return "negative count";
		case 1:
			a->target = fz_chance(f, 50) ? f->size + (int)fz_pick(f, 3)
				: bad_ranks[fz_pick(f, 4)];
			return "bad rank";
		case 2:
			/* FZ_WSIZE: in units, just past the end of the window */
			a->disp = huge[fz_pick(f, 5)];
			if (a->disp == FZ_WSIZE)
				a->disp = FZ_WSIZE / f->du[a->w];
			return "displacement outside the window";
		case 3: {
			const MPI_Datatype bad[] = { MPI_DATATYPE_NULL, f->uncommitted,
						     f->freed_type, (MPI_Datatype)0x7f3e1234 };
			MPI_Datatype t = bad[fz_pick(f, 4)];

			if (single || fz_chance(f, 50))
				a->otype = t;
			else
				a->ttype = t;
			return "bad datatype";
		}
		case 4:
			if (single || c == R_GET || c == R_RGET)
				continue;
			a->ttype = f->big_extent;
			a->tcount = 1;
			a->ocount = 2;
			a->otype = MPI_INT;
			a->disp = 0;
			return "target type's extent leaves the window";
		case 5: {
			const MPI_Win bad[] = { MPI_WIN_NULL, f->freed_win, f->idle_win,
						(MPI_Win)0x6d3c1235 };

			a->win = bad[fz_pick(f, 4)];
			return "bad or wrong window";
		}
		case 6:
			if (!fz_is_acc(c))
				continue;
			{
				const MPI_Op bad[] = { MPI_OP_NULL, f->user_op,
						       (MPI_Op)0x5e2b1236 };

				a->op = bad[fz_pick(f, 3)];
			}
			return "bad op";
		case 7:
			if (!fz_is_acc(c))
				continue;
			a->op = MPI_SUM;	/* not defined on MPI_BYTE */
			a->otype = a->ttype = MPI_BYTE;
			a->ocount = a->tcount = single ? 1 : a->ocount * 4;
			return "op not defined on the type";
		case 8:
			if (c == R_GET || c == R_RGET || (single && fz_chance(f, 50))) {
				if (c == R_CAS && fz_chance(f, 50))
					a->cmp = NULL;
				else
					a->rbuf = NULL;
				return "null result buffer";
			}
			if (a->op == MPI_NO_OP)
				a->op = MPI_SUM;
			a->obuf = NULL;
			return "null origin buffer";
		case 9:
			if (single)
				continue;
			a->tcount = a->tcount + 1 + (int)fz_pick(f, 4);
			return "origin and target sizes differ";
		default:
			if (c < R_RPUT)
				continue;
			a->req = NULL;
			return "null request pointer";
		}
	}
}

/* The n bytes of rank r's window w from byte d on, as the pattern has them. */
static void fz_expect(int w, int r, MPI_Aint d, unsigned char *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = fz_pattern(w, r, d + (MPI_Aint)i);
}

static void fz_rma_one(struct fz *f)
{
	enum fz_rma c = (enum fz_rma)fz_pick(f, R_NCALLS);
	struct fz_args a;
	MPI_Request req = MPI_REQUEST_NULL;
	int single = c == R_FOP || c == R_CAS;
	int must_fail = fz_chance(f, 55), rc;
	unsigned char *ob = f->obuf + FZ_GUARD, *rb = f->rbuf + FZ_GUARD;
	MPI_Aint byte;
	size_t nbytes;

	memset(&a, 0, sizeof(a));
	a.w = (int)fz_pick(f, FZ_NWIN);
	a.win = f->win[a.w];
	a.target = (int)fz_pick(f, (uint32_t)f->size);
	/* ints, or bytes for put and get */
	a.otype = a.ttype = (single || fz_is_acc(c) || fz_chance(f, 50)) ? MPI_INT
									 : MPI_BYTE;
	{
		int esz = a.otype == MPI_INT ? 4 : 1;
		int max = FZ_WSIZE / esz;
		int n = single ? 1 : 1 + (int)fz_pick(f, (uint32_t)(max < 16 ? max : 16));
		int first = (int)fz_pick(f, (uint32_t)(max - n + 1));

		byte = (MPI_Aint)first * esz;
		byte -= byte % f->du[a.w];	/* displacements count disp_units */
		a.disp = byte / f->du[a.w];
		a.ocount = a.tcount = n;
		nbytes = (size_t)n * (size_t)esz;
	}
	a.op = MPI_REPLACE;
	a.obuf = ob;
	a.rbuf = rb;
	a.cmp = f->cbuf;
	a.req = &req;
	memset(f->obuf + FZ_GUARD, 0, FZ_BUF);
	memset(f->rbuf + FZ_GUARD, 0, FZ_BUF);
	fz_guard(f->obuf);
	fz_guard(f->rbuf);
	/* data that leaves the target as it is */
	fz_expect(a.w, a.target, byte, ob, nbytes);
	if (fz_is_acc(c)) {
		const MPI_Op same[] = { MPI_REPLACE, MPI_SUM, MPI_BOR, MPI_BXOR, MPI_NO_OP };

		a.op = same[fz_pick(f, c == R_ACC || c == R_RACC ? 4 : 5)];
		if (a.op != MPI_REPLACE)
			memset(ob, 0, nbytes);
	}
	if (c == R_CAS) {
		fz_expect(a.w, a.target, byte, f->cbuf, 4);
		f->cbuf[0] ^= 0x80;	/* never matches: no swap */
		memset(ob, FZ_POISON, 4);
	}
	f->call = fz_rma_names[c];
	f->defect = NULL;
	if (must_fail) {
		f->defect = fz_rma_defect(f, c, &a);
		if (a.obuf && a.op != MPI_NO_OP && c != R_CAS)
			memset(ob, FZ_POISON, FZ_BUF);
	} else if (fz_chance(f, 20)) {
		/* legal corners: nothing to do, or nowhere to do it */
		switch (fz_pick(f, 4)) {
		case 0:
			a.target = MPI_PROC_NULL;
			f->defect = "(legal) MPI_PROC_NULL";
			break;
		case 1:
			if (single)
				break;
			a.ocount = a.tcount = 0;
			a.obuf = a.rbuf = NULL;
			f->defect = "(legal) zero count, null buffers";
			break;
		case 2:
			/* the origin is the very window memory the put rewrites */
			if (c != R_PUT || a.target != f->rank)
				break;
			a.obuf = f->wbase[a.w] + byte;
			f->defect = "(legal) origin overlaps the target";
			break;
		default:
			if (c != R_GACC || a.op != MPI_NO_OP)
				break;
			a.rbuf = a.obuf;	/* the origin is not read for MPI_NO_OP */
			f->defect = "(legal) result overlaps origin";
			break;
		}
	}
	rc = fz_rma_call(c, &a);
	if (rc == MPI_SUCCESS && a.req && c >= R_RPUT)
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	if (rc == MPI_SUCCESS && !must_fail && fz_fetches(c) && a.target != MPI_PROC_NULL &&
	    a.rbuf && a.ocount > 0) {
		unsigned char want[FZ_BUF];

		CHECK_MPI(MPI_Win_flush_local(a.target, a.win));
		fz_expect(a.w, a.target, byte, want, nbytes);
		if (memcmp(a.rbuf, want, nbytes) != 0)
			FZ_FAIL(f, "fetched %zu bytes at byte %ld of rank %d's window %d "
				"are not that window's contents", nbytes, (long)byte,
				a.target, a.w);
	}
	if (rc == MPI_SUCCESS && !must_fail && a.target != MPI_PROC_NULL)
		CHECK_MPI(MPI_Win_flush(a.target, a.win));
	fz_outcome(f, rc, must_fail);
}

/* --- RMA synchronization: erroneous calls only (a legal one would end
 * or block the round's epochs) ------------------------------------------ */
static void fz_sync_one(struct fz *f)
{
	int w = (int)fz_pick(f, FZ_NWIN), r = (int)fz_pick(f, (uint32_t)f->size);
	MPI_Win win = f->win[w];
	int rc;

	switch (fz_pick(f, 12)) {
	case 0:
		f->call = "MPI_Win_lock", f->defect = "bad lock type";
		rc = MPI_Win_lock(fz_chance(f, 50) ? 0 : 77 + (int)fz_pick(f, 9), r, 0, win);
		break;
	case 1:
		f->call = "MPI_Win_lock", f->defect = "bad rank";
		rc = MPI_Win_lock(MPI_LOCK_SHARED, f->size + (int)fz_pick(f, 5), 0, win);
		break;
	case 2:
		f->call = "MPI_Win_lock", f->defect = "bad assert";
		rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0x7f00 | (int)fz_pick(f, 256), win);
		break;
	case 3:
		f->call = "MPI_Win_lock", f->defect = "inside a lock_all epoch";
		rc = MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win);
		break;
	case 4:
		f->call = "MPI_Win_unlock", f->defect = "rank not locked";
		rc = MPI_Win_unlock(r, win);
		break;
	case 5:
		f->call = "MPI_Win_flush", f->defect = "bad rank";
		rc = fz_chance(f, 50) ? MPI_Win_flush(-3, win) : MPI_Win_flush_local(f->size, win);
		break;
	case 6:
		f->call = "MPI_Win_fence", f->defect = "bad assert";
		rc = MPI_Win_fence(0x4000 << fz_pick(f, 8), win);
		break;
	case 7:
		f->call = "MPI_Win_lock_all", f->defect = "already in lock_all";
		rc = MPI_Win_lock_all(0, win);
		break;
	case 8:
		f->call = "MPI_Win_unlock_all", f->defect = "no lock_all epoch";
		rc = MPI_Win_unlock_all(f->idle_win);
		break;
	case 9:
		f->call = "MPI_Win_complete/wait", f->defect = "no epoch";
		rc = fz_chance(f, 50) ? MPI_Win_complete(f->idle_win) : MPI_Win_wait(f->idle_win);
		break;
	case 10:
		f->call = "MPI_Win_start/post", f->defect = "MPI_GROUP_NULL";
		rc = fz_chance(f, 50) ? MPI_Win_start(MPI_GROUP_NULL, 0, f->idle_win)
				      : MPI_Win_post(MPI_GROUP_NULL, 0, f->idle_win);
		break;
	default:
		f->call = "MPI_Win_flush_all/sync", f->defect = "freed window";
		rc = fz_chance(f, 50) ? MPI_Win_flush_all(f->freed_win) : MPI_Win_sync(f->freed_win);
		break;
	}
	fz_outcome(f, rc, 1);
}

/* --- point to point ---------------------------------------------------- */
static void fz_p2p_one(struct fz *f)
{
	unsigned char *ob = f->obuf + FZ_GUARD, *rb = f->rbuf + FZ_GUARD;
	int n = 1 + (int)fz_pick(f, FZ_BUF / 4), dest = f->rank, tag = (int)fz_pick(f, 100);
	MPI_Datatype type = MPI_INT;
	MPI_Comm comm = MPI_COMM_WORLD;
	MPI_Request req = MPI_REQUEST_NULL;
	const void *sbuf = ob;
	void *rbuf = rb;
	int rc, call = (int)fz_pick(f, 5);

	fz_guard(f->obuf);
	fz_guard(f->rbuf);
	for (int i = 0; i < n * 4; i++)
		ob[i] = (unsigned char)(i * 13 + f->rank);
	memset(rb, 0, FZ_BUF);
	f->defect = NULL;
	if (!fz_chance(f, 30)) {
		switch (fz_pick(f, 8)) {
		case 0: n = -1 - (int)fz_pick(f, 1000); f->defect = "negative count"; break;
		case 1: dest = f->size + (int)fz_pick(f, 4); f->defect = "bad rank"; break;
		case 2: dest = -5; f->defect = "bad rank"; break;
		case 3: tag = call == 2 || call == 3 ? -7 : -7 - (int)fz_pick(f, 9);
			f->defect = "negative tag"; break;
		case 4: comm = fz_chance(f, 50) ? MPI_COMM_NULL : f->freed_comm;
			f->defect = "null or freed communicator"; break;
		case 5: {
			const MPI_Datatype bad[] = { MPI_DATATYPE_NULL, f->uncommitted,
						     f->freed_type };
			type = bad[fz_pick(f, 3)];
			f->defect = "bad datatype";
			break;
		}
		case 6: sbuf = NULL; rbuf = NULL; f->defect = "null buffer"; break;
		default: if (call == 2 || call == 3) { tag = MPI_ANY_TAG; dest = -5; }
			 else tag = -3;
			 f->defect = "MPI_ANY_TAG/bad tag where not allowed"; break;
		}
	}
	switch (call) {
	case 0:
		f->call = "MPI_Sendrecv (to self)";
		rc = MPI_Sendrecv(sbuf, n, type, dest, tag, rbuf, n, type, dest, tag, comm,
				  MPI_STATUS_IGNORE);
		break;
	case 1:
		f->call = "MPI_Send";
		/* only erroneous sends: a legal one to self would block */
		if (!f->defect)
			dest = f->size, f->defect = "bad rank";
		rc = MPI_Send(sbuf, n, type, dest, tag, comm);
		break;
	case 2:
		f->call = "MPI_Recv";
		if (!f->defect)
			dest = f->size + 1, f->defect = "bad rank";
		rc = MPI_Recv(rbuf, n, type, dest, tag, comm, MPI_STATUS_IGNORE);
		break;
	case 3:
		f->call = "MPI_Irecv + MPI_Send (to self)";
		rc = MPI_Irecv(rbuf, n, type, dest, tag, comm, &req);
		if (rc == MPI_SUCCESS) {
			CHECK_MPI(MPI_Send(sbuf, n, type, dest, tag, comm));
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		}
		break;
	default:
		f->call = "MPI_Isend (to self) + MPI_Recv";
		rc = MPI_Isend(sbuf, n, type, dest, tag, comm, &req);
		if (rc == MPI_SUCCESS) {
			CHECK_MPI(MPI_Recv(rbuf, n, type, dest, tag, comm, MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		}
		break;
	}
	if (rc == MPI_SUCCESS && !f->defect && memcmp(ob, rb, (size_t)n * 4) != 0)
		FZ_FAIL(f, "%d ints sent to self came back different", n);
	fz_outcome(f, rc, f->defect != NULL);
}

/* --- datatypes --------------------------------------------------------- */
static void fz_type_one(struct fz *f)
{
	const MPI_Datatype sentinel = (MPI_Datatype)0x4b1d0001;
	MPI_Datatype t = sentinel, old = MPI_INT;
	int n = 1 + (int)fz_pick(f, 8), bl = 1 + (int)fz_pick(f, 4);
	int stride = (int)fz_pick(f, 9) - 4, bad = fz_chance(f, 60), rc;
	int bls[8], displs[8];
	MPI_Aint adispls[8], lb, extent;
	MPI_Datatype types[8];

	f->defect = NULL;
	if (bad) {
		switch (fz_pick(f, 4)) {
		case 0: n = -1 - (int)fz_pick(f, 5); f->defect = "negative count"; break;
		case 1: bl = -1; f->defect = "negative blocklength"; break;
		case 2: old = fz_chance(f, 50) ? MPI_DATATYPE_NULL : f->freed_type;
			f->defect = "null or freed oldtype"; break;
		default: old = (MPI_Datatype)0x7a7a7a7a; f->defect = "garbage oldtype"; break;
		}
	}
	for (int i = 0; i < 8; i++) {
		bls[i] = bl;
		displs[i] = i * 5;
		adispls[i] = i * 20;
		types[i] = old;
	}
	switch (fz_pick(f, 8)) {
	case 0: f->call = "MPI_Type_contiguous"; rc = MPI_Type_contiguous(n * bl, old, &t); break;
	case 1: f->call = "MPI_Type_vector"; rc = MPI_Type_vector(n, bl, stride, old, &t); break;
	case 2: f->call = "MPI_Type_indexed"; rc = MPI_Type_indexed(n, bls, displs, old, &t); break;
	case 3: f->call = "MPI_Type_create_struct";
		rc = MPI_Type_create_struct(n, bls, adispls, types, &t); break;
	case 4: f->call = "MPI_Type_create_resized";
		/* any lb and extent are legal: only a bad oldtype is a defect */
		if (bad && old == MPI_INT)
			old = MPI_DATATYPE_NULL;
		rc = MPI_Type_create_resized(old, -8, 4 * n * bl, &t); break;
	case 5: f->call = "MPI_Type_create_hvector";
		rc = MPI_Type_create_hvector(n, bl, (MPI_Aint)stride * 4, old, &t); break;
	case 6: f->call = "MPI_Type_free (predefined or freed)";
		t = fz_chance(f, 50) ? MPI_INT : f->freed_type;
		rc = MPI_Type_free(&t);
		f->defect = "not freeable";
		fz_outcome(f, rc, 1);
		return;
	default: f->call = "MPI_Type_get_extent/commit (bad type)";
		t = fz_chance(f, 50) ? f->freed_type : MPI_DATATYPE_NULL;
		rc = fz_chance(f, 50) ? MPI_Type_get_extent(t, &lb, &extent) : MPI_Type_commit(&t);
		f->defect = "null or freed type";
		fz_outcome(f, rc, 1);
		return;
	}
	if (rc != MPI_SUCCESS && t != sentinel)
		FZ_FAIL(f, "failed but wrote newtype");
	if (rc == MPI_SUCCESS) {
		int size;

		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Type_size(t, &size));
		CHECK(size >= 0);
		CHECK_MPI(MPI_Type_free(&t));
	}
	fz_outcome(f, rc, f->defect != NULL);
}

/* --- a round: lock_all on every window, n executions, unlock_all,
 * then every rank checks every window ------------------------------------ */

static void fz_check_window(struct fz *f, int w, int r, const unsigned char *mem,
			    const char *how)
{
	for (MPI_Aint i = 0; i < FZ_WSIZE; i++)
		if (mem[i] != fz_pattern(w, r, i))
			FZ_FAIL(f, "rank %d's window %d changed at byte %ld (%s): 0x%02x, "
				"want 0x%02x", r, w, (long)i, how, mem[i], fz_pattern(w, r, i));
}

static void fz_verify(struct fz *f)
{
	unsigned char got[FZ_WSIZE];

	f->call = "verify";
	f->defect = NULL;
	for (int w = 0; w < FZ_NWIN; w++) {
		fz_check_window(f, w, f->rank, f->wbase[w], "own memory");
		if (f->walloc[w])
			for (int i = 0; i < FZ_GUARD; i++)
				if (f->walloc[w][i] != FZ_GUARD_BYTE ||
				    f->walloc[w][FZ_GUARD + FZ_WSIZE + i] != FZ_GUARD_BYTE)
					FZ_FAIL(f, "a guard around window %d was overwritten", w);
		/* and every other rank's, through MPI_Get */
		for (int r = 0; r < f->size; r++) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, f->win[w]));
			CHECK_MPI(MPI_Get(got, FZ_WSIZE, MPI_BYTE, r, 0, FZ_WSIZE / f->du[w],
					  f->du[w] == 1 ? MPI_BYTE : MPI_INT, f->win[w]));
			CHECK_MPI(MPI_Win_unlock(r, f->win[w]));
			fz_check_window(f, w, r, got, "read with MPI_Get");
		}
	}
	/* the erroneous synchronization calls left the idle window usable */
	CHECK_MPI(MPI_Win_fence(0, f->idle_win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, f->idle_win));
}

/* n executions inside one lock_all epoch on every window (local calls only:
 * every rank may run a different number of them). */
static void fz_round(struct fz *f, int n)
{
	for (int w = 0; w < FZ_NWIN; w++)
		CHECK_MPI(MPI_Win_lock_all(0, f->win[w]));
	for (int i = 0; i < n; i++) {
		uint32_t k = fz_pick(f, 10);

		if (k < 5)
			fz_rma_one(f);
		else if (k < 6)
			fz_sync_one(f);
		else if (k < 8)
			fz_p2p_one(f);
		else
			fz_type_one(f);
	}
	if (f->selftest && f->rank == 0) {
		unsigned char poison[4] = { FZ_POISON, FZ_POISON, FZ_POISON, FZ_POISON };

		f->call = "selftest MPI_Put";
		f->defect = "(selftest)";
		if (f->selftest == 1)
			fz_outcome(f, MPI_Put(poison, 0, MPI_BYTE, 0, 0, 0, MPI_BYTE,
					      f->win[0]), 1);
		else
			CHECK_MPI(MPI_Put(poison, 4, MPI_BYTE, f->size - 1, 8, 4, MPI_BYTE,
					  f->win[0]));
	}
	for (int w = 0; w < FZ_NWIN; w++)
		CHECK_MPI(MPI_Win_unlock_all(f->win[w]));
}

#endif
