/*
 * The RMA conformance matrix: every communication call (put, get,
 * accumulate, get_accumulate, fetch_and_op, compare_and_swap, rput, rget,
 * raccumulate, rget_accumulate) with every predefined op, on every
 * predefined C datatype of MPI 3.1, on every window flavour, under every
 * synchronization, under MPI_ERRORS_RETURN.
 *
 *   rma_matrix [-r] [-p] [-d] [-S SEED] [-f FLAVOURS] [-s SYNCS] [-c CALLS] [-o OPS]
 *              [-t TYPES]
 *
 * Each (flavour, synchronization, type) is one epoch in which every rank
 * issues one call per slot of its target's window (the target is rank +
 * k for a k that changes with the type, the rank itself included): put,
 * get and their request forms, each accumulate call with each op, and
 * compare-and-swap with a compare value that matches and one that does
 * not.  Window contents and origin data are drawn from SEED, so every rank
 * knows what every other rank sends.  Each call's return is checked
 * against what the standard defines for it:
 *  - defined (MPI 3.1 5.9.2 for which op applies to which type; 11.3.4
 *    for the calls): it must succeed, its fetched values be the target's
 *    values before the epoch, and the target element be the op's result,
 *    computed here by a sequential model (compared on the bytes that hold
 *    the values: not the gaps of pair types, nor a long double's padding);
 *  - erroneous: it must be refused with the error class of that case
 *    (MPI_ERR_OP for an op the type or the call does not take,
 *    MPI_ERR_TYPE for compare-and-swap on a type outside its categories,
 *    MPI_ERR_RMA_SYNC for a request-based call outside a passive-target
 *    epoch, 11.3.5), writing nothing, at the target or in its buffers;
 *  - unless shmpi documents an extension that accepts it (README, "Types
 *    and ops in RMA"): MPI_CHAR taking the C integer ops, compare-and-swap
 *    on every predefined type of 1, 2, 4, 8 or 16 bytes without gaps; then
 *    it must succeed with the extension's result.
 * Synchronizations: fence, post/start/complete/wait, lock shared, lock
 * exclusive, lock_all, and in passive-target epochs the fetched values
 * checked after MPI_Win_flush, MPI_Win_flush_local, MPI_Win_flush_all,
 * MPI_Win_flush_local_all or (request-based calls) MPI_Waitall, before the
 * unlock.  Flavours: MPI_Win_allocate, MPI_Win_allocate_shared,
 * MPI_Win_create on MPI_Alloc_mem and on malloc memory, dynamic windows
 * with malloc and with MPI_Alloc_mem memory attached.
 *
 * -r runs the reduced matrix of make check: every flavour, synchronization
 * and type, but each (flavour, synchronization) pair on a third of the
 * types, chosen from SEED.  -p (a peer MPI): expect the standard alone and
 * report each disagreement on a line of its own ("peer: ..."), and where
 * each epoch begins (a peer may crash), without failing; -d leaves out the
 * calls whose op the type does not take (tools/matrix-peers).  The lists
 * pick by name (comma separated, as printed).  Prints what it covered;
 * exits 1 on a disagreement with shmpi's documented behaviour.  Builds
 * with any MPI (mpicc.mpich, mpicc.openmpi).
 */
#include <complex.h>
#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "testutil.h"

/* ---- types -------------------------------------------------------------- */

/* The representations the model computes on. */
enum rep { R_I8, R_U8, R_I16, R_U16, R_I32, R_U32, R_I64, R_U64, R_F, R_D, R_LD,
	   R_CF, R_CD, R_CLD, R_FI, R_DI, R_LI, R_2I, R_SI, R_LDI };

/* The categories of MPI 3.1 5.9.2 (and what falls outside them). */
enum cat { C_INT, F_INT, FLOATING, COMPLEX, LOGICAL, BYTE, PAIR,
	   CHAR,	/* MPI_CHAR: no category (a shmpi extension takes it as C integer) */
	   OTHER };	/* MPI_WCHAR, MPI_PACKED */

struct fi { float v; int i; };
struct di { double v; int i; };
struct li { long v; int i; };
struct ii { int v; int i; };
struct si { short v; int i; };
struct ldi { long double v; int i; };

struct mtype {
	MPI_Datatype t;
	const char *name;
	enum cat cat;
	enum rep rep;
	size_t ext;	/* C size, the type's extent */
};

/* An integer type's representation: its size, and S whether it is signed. */
#define IREP(T, S) (sizeof(T) == 1 ? (S ? R_I8 : R_U8) :                       \
		    sizeof(T) == 2 ? (S ? R_I16 : R_U16) :                      \
		    sizeof(T) == 4 ? (S ? R_I32 : R_U32) : (S ? R_I64 : R_U64))
#define TY(h, c, T) { h, #h, c, IREP(T, 1), sizeof(T) }
#define TU(h, c, T) { h, #h, c, IREP(T, 0), sizeof(T) }
#define TR(h, c, r, T) { h, #h, c, r, sizeof(T) }

static struct mtype types[] = {
	TY(MPI_CHAR, CHAR, signed char),
	TY(MPI_SIGNED_CHAR, C_INT, signed char),
	TU(MPI_UNSIGNED_CHAR, C_INT, unsigned char),
	TY(MPI_SHORT, C_INT, short),
	TU(MPI_UNSIGNED_SHORT, C_INT, unsigned short),
	TY(MPI_INT, C_INT, int),
	TU(MPI_UNSIGNED, C_INT, unsigned),
	TY(MPI_LONG, C_INT, long),
	TU(MPI_UNSIGNED_LONG, C_INT, unsigned long),
	TY(MPI_LONG_LONG_INT, C_INT, long long),
	TY(MPI_LONG_LONG, C_INT, long long),
	TU(MPI_UNSIGNED_LONG_LONG, C_INT, unsigned long long),
	TY(MPI_INT8_T, C_INT, int8_t),
	TY(MPI_INT16_T, C_INT, int16_t),
	TY(MPI_INT32_T, C_INT, int32_t),
	TY(MPI_INT64_T, C_INT, int64_t),
	TU(MPI_UINT8_T, C_INT, uint8_t),
	TU(MPI_UINT16_T, C_INT, uint16_t),
	TU(MPI_UINT32_T, C_INT, uint32_t),
	TU(MPI_UINT64_T, C_INT, uint64_t),
	TY(MPI_AINT, F_INT, MPI_Aint),
	TY(MPI_OFFSET, F_INT, MPI_Offset),
	TY(MPI_COUNT, F_INT, MPI_Count),
	TR(MPI_FLOAT, FLOATING, R_F, float),
	TR(MPI_DOUBLE, FLOATING, R_D, double),
	TR(MPI_LONG_DOUBLE, FLOATING, R_LD, long double),
	TR(MPI_C_COMPLEX, COMPLEX, R_CF, float _Complex),
	TR(MPI_C_FLOAT_COMPLEX, COMPLEX, R_CF, float _Complex),
	TR(MPI_C_DOUBLE_COMPLEX, COMPLEX, R_CD, double _Complex),
	TR(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, R_CLD, long double _Complex),
	TR(MPI_C_BOOL, LOGICAL, R_U8, bool),
	TR(MPI_BYTE, BYTE, R_U8, unsigned char),
	TY(MPI_WCHAR, OTHER, wchar_t),
	TR(MPI_PACKED, OTHER, R_U8, unsigned char),
	TR(MPI_FLOAT_INT, PAIR, R_FI, struct fi),
	TR(MPI_DOUBLE_INT, PAIR, R_DI, struct di),
	TR(MPI_LONG_INT, PAIR, R_LI, struct li),
	TR(MPI_2INT, PAIR, R_2I, struct ii),
	TR(MPI_SHORT_INT, PAIR, R_SI, struct si),
	TR(MPI_LONG_DOUBLE_INT, PAIR, R_LDI, struct ldi),
};
enum { NTYPES = sizeof(types) / sizeof(types[0]) };

/* The bytes of a long double that hold its value (x87: 10 of 16). */
#if LDBL_MANT_DIG == 64
#define LDB 10
#else
#define LDB sizeof(long double)
#endif

/* Whether byte b of an element of rep r holds data (not a gap or padding). */
static int sig_byte(enum rep r, size_t b)
{
	switch (r) {
	case R_LD: return b < LDB;
	case R_CLD: return b < LDB || (b >= sizeof(long double) &&
				       b < sizeof(long double) + LDB);
	case R_FI: return b < sizeof(struct fi);	/* no gap */
	case R_DI: return b < sizeof(double) ||
			  (b >= offsetof(struct di, i) && b < offsetof(struct di, i) + 4);
	case R_LI: return b < sizeof(long) ||
			  (b >= offsetof(struct li, i) && b < offsetof(struct li, i) + 4);
	case R_SI: return b < sizeof(short) ||
			  (b >= offsetof(struct si, i) && b < offsetof(struct si, i) + 4);
	case R_LDI: return b < LDB ||
			   (b >= offsetof(struct ldi, i) && b < offsetof(struct ldi, i) + 4);
	default: return 1;
	}
}

/* ---- ops, calls, synchronizations, flavours ------------------------------ */

enum op { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR,
	  O_MAXLOC, O_MINLOC, O_REPLACE, O_NO_OP, NOPS };
static const char *const op_name[] = {
	"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND", "MPI_LOR",
	"MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE",
	"MPI_NO_OP" };
static MPI_Op op_handle[NOPS];

enum call { K_PUT, K_GET, K_RPUT, K_RGET, K_ACC, K_RACC, K_GACC, K_RGACC, K_FOP, K_CAS,
	    NCALLS };
static const char *const call_name[] = {
	"put", "get", "rput", "rget", "accumulate", "raccumulate", "get_accumulate",
	"rget_accumulate", "fetch_and_op", "compare_and_swap" };

enum sync { S_FENCE, S_PSCW, S_SHARED, S_EXCL, S_LOCKALL, S_SHARED_FLUSH,
	    S_SHARED_FLUSH_LOCAL, S_SHARED_WAIT, S_EXCL_FLUSH, S_EXCL_FLUSH_LOCAL,
	    S_EXCL_FLUSH_ALL, S_EXCL_WAIT, S_LOCKALL_FLUSH, S_LOCKALL_FLUSH_LOCAL,
	    S_LOCKALL_FLUSH_ALL, S_LOCKALL_FLUSH_LOCAL_ALL, S_LOCKALL_WAIT, NSYNCS };
static const char *const sync_name[] = {
	"fence", "pscw", "lock_shared", "lock_exclusive", "lock_all",
	"lock_shared+flush", "lock_shared+flush_local", "lock_shared+wait",
	"lock_exclusive+flush", "lock_exclusive+flush_local", "lock_exclusive+flush_all",
	"lock_exclusive+wait", "lock_all+flush", "lock_all+flush_local",
	"lock_all+flush_all", "lock_all+flush_local_all", "lock_all+wait" };

enum flavour { F_ALLOCATE, F_SHARED, F_ALLOC_MEM, F_MALLOC, F_DYNAMIC, F_DYNAMIC_AM,
	       NFLAVOURS };
static const char *const flavour_name[] = {
	"allocate", "allocate_shared", "create_alloc_mem", "create_malloc",
	"dynamic_malloc", "dynamic_alloc_mem" };

static int passive(enum sync s) { return s >= S_SHARED; }
static int is_request(enum call c)
{
	return c == K_RPUT || c == K_RGET || c == K_RACC || c == K_RGACC;
}
static int has_op(enum call c) { return c >= K_ACC && c <= K_FOP; }
static int fetches(enum call c)
{
	return c == K_GET || c == K_RGET || c == K_GACC || c == K_RGACC || c == K_FOP ||
	       c == K_CAS;
}

/* ---- what the standard and shmpi say ------------------------------------ */

/* Whether op is defined on category c (MPI 3.1 5.9.2; REPLACE, NO_OP: 11.3.4). */
static int op_defined(enum op o, enum cat c)
{
	switch (o) {
	case O_MAX: case O_MIN: return c == C_INT || c == F_INT || c == FLOATING;
	case O_SUM: case O_PROD:
		return c == C_INT || c == F_INT || c == FLOATING || c == COMPLEX;
	case O_LAND: case O_LOR: case O_LXOR: return c == C_INT || c == LOGICAL;
	case O_BAND: case O_BOR: case O_BXOR: return c == C_INT || c == F_INT || c == BYTE;
	case O_MAXLOC: case O_MINLOC: return c == PAIR;
	default: return 1;
	}
}

/* The error classes the standard gives a case (0: the call is defined). */
enum { E_OP = 1, E_TYPE = 2, E_SYNC = 4 };

static int std_errors(enum call c, enum op o, const struct mtype *t, enum sync s)
{
	int e = 0;

	if (is_request(c) && !passive(s))
		e |= E_SYNC;	/* 11.3.5: passive-target epochs only */
	if ((c == K_ACC || c == K_RACC) && o == O_NO_OP)
		e |= E_OP;	/* 11.3.4: MPI_NO_OP only in the fetching calls */
	if (has_op(c) && !op_defined(o, t->cat))
		e |= E_OP;
	if (c == K_CAS && t->cat != C_INT && t->cat != F_INT && t->cat != LOGICAL &&
	    t->cat != BYTE)
		e |= E_TYPE;	/* 11.3.4 */
	return e;
}

/* What shmpi documents beyond the standard (README, "Types and ops in RMA"):
 * the errors it leaves, given the standard's. */
static int shmpi_errors(enum call c, enum op o, const struct mtype *t, enum sync s,
			int e)
{
	if (has_op(c) && t->cat == CHAR && o != O_MAXLOC && o != O_MINLOC &&
	    !((c == K_ACC || c == K_RACC) && o == O_NO_OP))
		e &= ~E_OP;	/* MPI_CHAR takes the C integer ops */
	if (c == K_CAS && t->rep != R_DI && t->rep != R_LI && t->rep != R_SI &&
	    t->rep != R_LDI && t->rep != R_CLD)
		e &= ~E_TYPE;	/* every type of 1..16 bytes without gaps */
	(void)s;
	return e;
}

static int class_of(int e)
{
	return e & E_SYNC ? MPI_ERR_RMA_SYNC : e & E_OP ? MPI_ERR_OP : MPI_ERR_TYPE;
}

/* Whether class cls is one the standard gives for errors e. */
static int class_ok(int cls, int e)
{
	return ((e & E_SYNC) && cls == MPI_ERR_RMA_SYNC) || ((e & E_OP) && cls == MPI_ERR_OP) ||
	       ((e & E_TYPE) && cls == MPI_ERR_TYPE);
}

/* ---- values and the model ------------------------------------------------ */

static unsigned long long seed = 1;

static uint64_t mix(uint64_t z)
{
	z += 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t hash(int a, int b, int c, int d, int e, int f)
{
	uint64_t h = mix(seed);

	h = mix(h ^ (uint64_t)a);
	h = mix(h ^ (uint64_t)b << 8);
	h = mix(h ^ (uint64_t)c << 16);
	h = mix(h ^ (uint64_t)d << 24);
	h = mix(h ^ (uint64_t)e << 32);
	return mix(h ^ (uint64_t)f << 40);
}

static int is_signed(enum rep r)
{
	return r == R_I8 || r == R_I16 || r == R_I32 || r == R_I64;
}

static size_t isize(enum rep r)
{
	return r <= R_U8 ? 1 : r <= R_U16 ? 2 : r <= R_U32 ? 4 : 8;
}

static int64_t iget(enum rep r, const void *p)
{
	int8_t a; uint8_t b; int16_t c; uint16_t d; int32_t e; uint32_t f; int64_t g;

	switch (r) {
	case R_I8: memcpy(&a, p, 1); return a;
	case R_U8: memcpy(&b, p, 1); return b;
	case R_I16: memcpy(&c, p, 2); return c;
	case R_U16: memcpy(&d, p, 2); return d;
	case R_I32: memcpy(&e, p, 4); return e;
	case R_U32: memcpy(&f, p, 4); return f;
	default: memcpy(&g, p, 8); return g;
	}
}

static void iset(enum rep r, void *p, int64_t v)
{
	/* little or big endian alike: through the C type of that width */
	int8_t a = (int8_t)v; int16_t c = (int16_t)v; int32_t e = (int32_t)v;

	switch (isize(r)) {
	case 1: memcpy(p, &a, 1); break;
	case 2: memcpy(p, &c, 2); break;
	case 4: memcpy(p, &e, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

/* A floating or complex element (or a pair's value) as long doubles. */
static void fget(enum rep r, const void *p, long double *re, long double *im)
{
	float f; double d; long double l;
	float _Complex cf; double _Complex cd; long double _Complex cl;

	*im = 0;
	switch (r) {
	case R_F: case R_FI: memcpy(&f, p, sizeof(f)); *re = f; break;
	case R_D: case R_DI: memcpy(&d, p, sizeof(d)); *re = d; break;
	case R_LD: case R_LDI: memcpy(&l, p, sizeof(l)); *re = l; break;
	case R_CF: memcpy(&cf, p, sizeof(cf)); *re = crealf(cf); *im = cimagf(cf); break;
	case R_CD: memcpy(&cd, p, sizeof(cd)); *re = creal(cd); *im = cimag(cd); break;
	default: memcpy(&cl, p, sizeof(cl)); *re = creall(cl); *im = cimagl(cl); break;
	}
}

static void fset(enum rep r, void *p, long double re, long double im)
{
	float f = (float)re; double d = (double)re; long double l = re;
	/* CMPLX, not re + im * I, which loses the sign of a zero real part */
	float _Complex cf = CMPLXF((float)re, (float)im);
	double _Complex cd = CMPLX((double)re, (double)im);
	long double _Complex cl = CMPLXL(re, im);

	switch (r) {
	case R_F: case R_FI: memcpy(p, &f, sizeof(f)); break;
	case R_D: case R_DI: memcpy(p, &d, sizeof(d)); break;
	case R_LD: case R_LDI: memcpy(p, &l, sizeof(l)); break;
	case R_CF: memcpy(p, &cf, sizeof(cf)); break;
	case R_CD: memcpy(p, &cd, sizeof(cd)); break;
	default: memcpy(p, &cl, sizeof(cl)); break;
	}
}

static int is_float(enum rep r) { return r >= R_F && r <= R_CLD; }
static int is_pair(enum rep r) { return r >= R_FI; }

/* A pair's value representation and its index's offset. */
static enum rep pair_value(enum rep r, size_t *ioff)
{
	switch (r) {
	case R_FI: *ioff = offsetof(struct fi, i); return R_FI;
	case R_DI: *ioff = offsetof(struct di, i); return R_DI;
	case R_LI: *ioff = offsetof(struct li, i); return sizeof(long) == 8 ? R_I64 : R_I32;
	case R_2I: *ioff = offsetof(struct ii, i); return R_I32;
	case R_SI: *ioff = offsetof(struct si, i); return R_I16;
	default: *ioff = offsetof(struct ldi, i); return R_LDI;
	}
}

/* Element k of the values drawn from h: small, so that every op is exact
 * and nothing overflows.  Gaps and padding get garbage. */
static void gen(const struct mtype *t, void *p, uint64_t h)
{
	enum rep r = t->rep;
	unsigned char *b = p;

	for (size_t i = 0; i < t->ext; i++)
		b[i] = (unsigned char)(mix(h + i) >> 13);
	if (t->cat == BYTE || t->cat == OTHER) {
		if (r == R_U8)
			return;		/* any bits */
		iset(r, p, (int64_t)(h % 1000));
		return;
	}
	if (t->cat == LOGICAL) {
		b[0] = (unsigned char)(h & 1);
		return;
	}
	if (is_float(r)) {
		fset(r, p, (long double)((int)(h % 41) - 20),
		     (long double)((int)((h >> 8) % 41) - 20));
		return;
	}
	if (is_pair(r)) {
		size_t ioff;
		enum rep v = pair_value(r, &ioff);
		int idx = (int)((h >> 16) % 20);

		if (is_float(v) || v == R_FI || v == R_DI || v == R_LDI)
			fset(v, p, (long double)((int)(h % 7) - 3), 0);
		else
			iset(v, p, (int64_t)(h % 7) - 3);
		memcpy(b + ioff, &idx, sizeof(idx));
		return;
	}
	if (isize(r) == 1)
		iset(r, p, is_signed(r) ? (int64_t)(h % 21) - 10 : (int64_t)(h % 16));
	else
		iset(r, p, is_signed(r) ? (int64_t)(h % 201) - 100 : (int64_t)(h % 200));
}

/* inout = in op inout for one element (the op is defined on the type, or
 * is the extension's).  */
static void apply(enum op o, const struct mtype *t, const void *in, void *inout)
{
	enum rep r = t->rep;

	if (o == O_NO_OP)
		return;
	if (o == O_REPLACE) {
		memcpy(inout, in, t->ext);
		return;
	}
	if (is_pair(r)) {
		size_t ioff;
		enum rep v = pair_value(r, &ioff);
		long double a, b, im;
		int ia, ib, win;

		if (v == R_FI || v == R_DI || v == R_LDI) {
			fget(v, in, &a, &im);
			fget(v, inout, &b, &im);
		} else {
			a = (long double)iget(v, in);
			b = (long double)iget(v, inout);
		}
		memcpy(&ia, (const char *)in + ioff, sizeof(int));
		memcpy(&ib, (char *)inout + ioff, sizeof(int));
		/* (u,i) o (v,j): the larger (smaller) value; on a tie, the smaller index */
		win = o == O_MAXLOC ? a > b : a < b;
		if (win)
			memcpy(inout, in, t->ext);
		else if (a == b && ia < ib)
			memcpy((char *)inout + ioff, &ia, sizeof(int));
		return;
	}
	if (is_float(r)) {
		long double ar, ai, br, bi;

		fget(r, in, &ar, &ai);
		fget(r, inout, &br, &bi);
		switch (o) {
		case O_MAX: br = ar > br ? ar : br; break;
		case O_MIN: br = ar < br ? ar : br; break;
		case O_SUM: br += ar; bi += ai; break;
		default: {	/* O_PROD */
			long double re = ar * br - ai * bi, im = ar * bi + ai * br;

			br = re;
			bi = im;
		}
		}
		fset(r, inout, br, bi);
		return;
	}
	{
		int64_t a = iget(r, in), b = iget(r, inout), v;
		uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

		switch (o) {
		case O_MAX: v = a > b ? a : b; break;
		case O_MIN: v = a < b ? a : b; break;
		case O_SUM: v = (int64_t)(ua + ub); break;
		case O_PROD: v = (int64_t)(ua * ub); break;
		case O_LAND: v = a && b; break;
		case O_LOR: v = a || b; break;
		case O_LXOR: v = !a != !b; break;
		case O_BAND: v = a & b; break;
		case O_BOR: v = a | b; break;
		default: v = a ^ b; break;
		}
		iset(r, inout, v);
	}
}

/* Whether the data bytes of n elements of t agree. */
static int same(const struct mtype *t, const void *a, const void *b, int n)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < t->ext * (size_t)n; i++)
		if (sig_byte(t->rep, i % t->ext) && x[i] != y[i])
			return 0;
	return 1;
}

/* ---- the plan of one epoch ------------------------------------------------ */

enum { COUNT = 2, SLOT = 64, MAXSLOTS = 4 + 5 * NOPS + 2, POISON = 0xa5 };

struct slot {
	enum call call;
	enum op op;
	int match;	/* compare-and-swap: the compare value is the target's */
	int count;
};

static struct slot plan[MAXSLOTS];
static int nslots;

static void make_plan(int calls, long ops)
{
	nslots = 0;
	for (int c = 0; c < NCALLS; c++) {
		if (!(calls & 1 << c))
			continue;
		if (has_op((enum call)c)) {
			for (int o = 0; o < NOPS; o++)
				if (ops & 1L << o)
					plan[nslots++] = (struct slot){ (enum call)c, (enum op)o, 0,
								c == K_FOP ? 1 : COUNT };
		} else if (c == K_CAS) {
			plan[nslots++] = (struct slot){ K_CAS, O_REPLACE, 1, 1 };
			plan[nslots++] = (struct slot){ K_CAS, O_REPLACE, 0, 1 };
		} else {
			plan[nslots++] = (struct slot){ (enum call)c, O_REPLACE, 0, COUNT };
		}
	}
}

/* ---- the run ------------------------------------------------------------- */

static int rank, size, peer_mode, defined_only;
static long n_calls, n_defined, n_refused, n_extension, n_epochs, n_bad;
static long n_peer_diff;
static MPI_Win win;
static unsigned char *mem;		/* this rank's window memory */
static MPI_Aint *dyn_addr;		/* dynamic windows: each rank's memory */
static enum flavour cur_f;
static enum sync cur_s;

/* The window's initial element e of slot s at rank who, and origin data. */
static uint64_t h_init(int t, int who, int s, int e)
{
	return hash(1, (int)cur_f * 64 + (int)cur_s, t, who, s, e);
}

static uint64_t h_origin(int t, int who, int s, int e)
{
	return hash(2, (int)cur_f * 64 + (int)cur_s, t, who, s, e);
}

static void disagree(const struct mtype *t, const struct slot *sl, const char *fmt,
		     const char *what)
{
	if (peer_mode) {
		printf("peer: %s %s %s %s %s: %s\n", flavour_name[cur_f], sync_name[cur_s],
		       call_name[sl->call], has_op(sl->call) ? op_name[sl->op] :
		       sl->call == K_CAS ? (sl->match ? "match" : "no-match") : "-",
		       t->name, what);
		n_peer_diff++;
		return;
	}
	if (n_bad++ < 20)
		fprintf(stderr, "rma_matrix: rank %d seed %llu: %s %s %s %s %s: %s (%s)\n",
			rank, seed, flavour_name[cur_f], sync_name[cur_s],
			call_name[sl->call], has_op(sl->call) ? op_name[sl->op] : "-",
			t->name, what, fmt);
}

static MPI_Aint disp_of(int target, int s)
{
	MPI_Aint d = (MPI_Aint)s * SLOT;

	return cur_f == F_DYNAMIC || cur_f == F_DYNAMIC_AM ? dyn_addr[target] + d : d;
}

static int issue(const struct mtype *t, const struct slot *sl, int target, MPI_Aint disp,
		 const void *obuf, const void *cmp, void *rbuf, MPI_Request *rq)
{
	MPI_Datatype d = t->t;
	MPI_Op op = op_handle[sl->op];
	int n = sl->count;

	switch (sl->call) {
	case K_PUT: return MPI_Put(obuf, n, d, target, disp, n, d, win);
	case K_GET: return MPI_Get(rbuf, n, d, target, disp, n, d, win);
	case K_RPUT: return MPI_Rput(obuf, n, d, target, disp, n, d, win, rq);
	case K_RGET: return MPI_Rget(rbuf, n, d, target, disp, n, d, win, rq);
	case K_ACC: return MPI_Accumulate(obuf, n, d, target, disp, n, d, op, win);
	case K_RACC: return MPI_Raccumulate(obuf, n, d, target, disp, n, d, op, win, rq);
	case K_GACC: return MPI_Get_accumulate(obuf, n, d, rbuf, n, d, target, disp, n, d,
					       op, win);
	case K_RGACC: return MPI_Rget_accumulate(obuf, n, d, rbuf, n, d, target, disp, n,
						 d, op, win, rq);
	case K_FOP: return MPI_Fetch_and_op(obuf, rbuf, d, target, disp, op, win);
	default: return MPI_Compare_and_swap(obuf, cmp, rbuf, d, target, disp, win);
	}
}

/* -d: calls with an op the type does not take are left out (a peer may
 * hang or crash on them); SKIPPED stands for their return. */
enum { SKIPPED = -1 };

static int err_class(int rc)
{
	int c = rc;

	if (rc != MPI_SUCCESS && rc != SKIPPED)
		MPI_Error_class(rc, &c);
	return c;
}

/* Per slot, at the origin: its buffers and what came back. */
static unsigned char obuf[MAXSLOTS][SLOT], cbuf[MAXSLOTS][SLOT], rbuf[MAXSLOTS][SLOT];
static int rcs[MAXSLOTS], rcs_in[MAXSLOTS];
static MPI_Request reqs[MAXSLOTS];

static int skipped(const struct mtype *t, const struct slot *sl)
{
	return defined_only && has_op(sl->call) && !op_defined(sl->op, t->cat);
}

/* The errors shmpi (or, with -p, the standard) expects of slot sl. */
static int expected(const struct mtype *t, const struct slot *sl, int *std)
{
	*std = std_errors(sl->call, sl->op, t, cur_s);
	return peer_mode ? *std : shmpi_errors(sl->call, sl->op, t, cur_s, *std);
}

/* The model: the target's slot s (count elements) after slot sl of the
 * origin `from` applied, when it was accepted. */
static void model_target(const struct mtype *t, const struct slot *sl, int ti, int who,
			 int from, int s, unsigned char *out)
{
	unsigned char in[SLOT];

	for (int e = 0; e < sl->count; e++) {
		gen(t, out + e * t->ext, h_init(ti, who, s, e));
		gen(t, in + e * t->ext, h_origin(ti, from, s, e));
	}
	if (sl->call == K_GET || sl->call == K_RGET)
		return;
	if (sl->call == K_PUT || sl->call == K_RPUT) {
		memcpy(out, in, t->ext * (size_t)sl->count);
		return;
	}
	if (sl->call == K_CAS) {
		if (sl->match)
			memcpy(out, in, t->ext);
		return;
	}
	for (int e = 0; e < sl->count; e++)
		apply(sl->op, t, in + e * t->ext, out + e * t->ext);
}

/* The origin's checks of slot s once its results are in. */
static void check_origin(const struct mtype *t, int ti, int s, int target)
{
	const struct slot *sl = &plan[s];
	int std, want = expected(t, sl, &std), cls = err_class(rcs[s]);
	unsigned char o[SLOT], poison[SLOT];
	char what[160];

	if (rcs[s] == SKIPPED)
		return;
	memset(poison, POISON, sizeof(poison));
	n_calls++;
	if (want) {
		if (cls == MPI_SUCCESS) {
			disagree(t, sl, "accepted an erroneous call", std & E_SYNC ?
				 "accepts (outside a passive-target epoch)" :
				 "accepts (erroneous)");
		} else if (!class_ok(cls, want)) {
			snprintf(what, sizeof(what), "class %d, want %d", cls, class_of(want));
			disagree(t, sl, "refused with another class", what);
		} else {
			n_refused++;
		}
		if (cls != MPI_SUCCESS && fetches(sl->call) &&
		    memcmp(rbuf[s], poison, SLOT) != 0)
			disagree(t, sl, "a refused call wrote its result buffer", "wrote");
	} else if (cls != MPI_SUCCESS) {
		snprintf(what, sizeof(what), "refuses (class %d)", cls);
		disagree(t, sl, "refused a defined call", what);
	} else {
		if (std)
			n_extension++;
		else
			n_defined++;
	}
	/* the origin buffer stays as it was */
	for (int e = 0; e < sl->count; e++)
		gen(t, o + e * t->ext, h_origin(ti, rank, s, e));
	if (!same(t, o, obuf[s], sl->count))
		disagree(t, sl, "the origin buffer changed", "origin buffer changed");
	if (cls == MPI_SUCCESS && fetches(sl->call)) {
		unsigned char w[SLOT];

		for (int e = 0; e < sl->count; e++)
			gen(t, w + e * t->ext, h_init(ti, target, s, e));
		if (!same(t, w, rbuf[s], sl->count))
			disagree(t, sl, "fetched values are not the target's", "wrong fetched values");
	}
}

/* The target's check of slot s (issued by `from`, with its return rc). */
static void check_target(const struct mtype *t, int ti, int s, int from, int rc)
{
	const struct slot *sl = &plan[s];
	unsigned char w[SLOT];

	if (rc == MPI_SUCCESS) {
		model_target(t, sl, ti, rank, from, s, w);
	} else {
		for (int e = 0; e < sl->count; e++)
			gen(t, w + e * t->ext, h_init(ti, rank, s, e));
	}
	if (!same(t, w, mem + (size_t)s * SLOT, sl->count))
		disagree(t, sl, rc == MPI_SUCCESS ? "the target is not the op's result" :
			 "a refused call changed the target", rc == MPI_SUCCESS ?
			 "wrong result at the target" : "refused but wrote the target");
}

static int lock_all_sync(enum sync s)
{
	return s == S_LOCKALL || (s >= S_LOCKALL_FLUSH && s <= S_LOCKALL_WAIT);
}

static void lock_open(int target)
{
	if (lock_all_sync(cur_s))
		CHECK_MPI(MPI_Win_lock_all(0, win));
	else
		CHECK_MPI(MPI_Win_lock(cur_s == S_SHARED || (cur_s >= S_SHARED_FLUSH &&
							     cur_s <= S_SHARED_WAIT) ?
				       MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, target, 0, win));
}

/* The completion inside a passive-target epoch; 1 when the results are in. */
static int complete_inside(int target)
{
	switch (cur_s) {
	case S_SHARED_FLUSH: case S_EXCL_FLUSH: case S_LOCKALL_FLUSH:
		CHECK_MPI(MPI_Win_flush(target, win));
		return 1;
	case S_SHARED_FLUSH_LOCAL: case S_EXCL_FLUSH_LOCAL: case S_LOCKALL_FLUSH_LOCAL:
		CHECK_MPI(MPI_Win_flush_local(target, win));
		return 1;
	case S_EXCL_FLUSH_ALL: case S_LOCKALL_FLUSH_ALL:
		CHECK_MPI(MPI_Win_flush_all(win));
		return 1;
	case S_LOCKALL_FLUSH_LOCAL_ALL:
		CHECK_MPI(MPI_Win_flush_local_all(win));
		return 1;
	default:
		return 0;
	}
}

static void lock_close(int target)
{
	if (lock_all_sync(cur_s))
		CHECK_MPI(MPI_Win_unlock_all(win));
	else
		CHECK_MPI(MPI_Win_unlock(target, win));
}

/* One epoch: every slot of type ti, to target, from origin `from`. */
static void epoch(int ti, int target, int from)
{
	const struct mtype *t = &types[ti];
	MPI_Group gto = MPI_GROUP_NULL, gfrom = MPI_GROUP_NULL;
	int in = 0;

	/* a peer may crash or hang: say where it was */
	if (peer_mode && rank == 0)
		printf("peer: begin %s %s %s\n", flavour_name[cur_f], sync_name[cur_s], t->name);

	/* the window's initial contents, stored in an epoch of its own */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	memset(mem, POISON, (size_t)MAXSLOTS * SLOT);
	for (int s = 0; s < nslots; s++)
		for (int e = 0; e < plan[s].count; e++)
			gen(t, mem + (size_t)s * SLOT + e * t->ext, h_init(ti, rank, s, e));
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	for (int s = 0; s < nslots; s++) {
		memset(obuf[s], POISON, SLOT);
		memset(rbuf[s], POISON, SLOT);
		for (int e = 0; e < plan[s].count; e++) {
			gen(t, obuf[s] + e * t->ext, h_origin(ti, rank, s, e));
			gen(t, cbuf[s] + e * t->ext, h_init(ti, target, s, e));
		}
		if (plan[s].call == K_CAS && !plan[s].match)
			cbuf[s][0] ^= 1;	/* a value bit of every type */
		reqs[s] = MPI_REQUEST_NULL;
	}
	if (cur_s == S_FENCE) {
		CHECK_MPI(MPI_Win_fence(0, win));
	} else if (cur_s == S_PSCW) {
		gto = tu_group_of(target);
		gfrom = tu_group_of(from);
		CHECK_MPI(MPI_Win_post(gfrom, 0, win));
		CHECK_MPI(MPI_Win_start(gto, 0, win));
	} else {
		lock_open(target);
	}
	for (int s = 0; s < nslots; s++)
		rcs[s] = skipped(t, &plan[s]) ? SKIPPED :
			 issue(t, &plan[s], target, disp_of(target, s), obuf[s], cbuf[s],
			       rbuf[s], &reqs[s]);
	if (passive(cur_s)) {
		if (cur_s == S_SHARED_WAIT || cur_s == S_EXCL_WAIT || cur_s == S_LOCKALL_WAIT) {
			CHECK_MPI(MPI_Waitall(nslots, reqs, MPI_STATUSES_IGNORE));
			/* the request forms' results are in; check them now */
			for (int s = 0; s < nslots; s++)
				if (is_request(plan[s].call))
					check_origin(t, ti, s, target);
			in = 2;
		} else {
			in = complete_inside(target);
			if (in)
				for (int s = 0; s < nslots; s++)
					check_origin(t, ti, s, target);
		}
		lock_close(target);
	} else if (cur_s == S_FENCE) {
		CHECK_MPI(MPI_Win_fence(0, win));
	} else {
		CHECK_MPI(MPI_Win_complete(win));
		CHECK_MPI(MPI_Win_wait(win));
		CHECK_MPI(MPI_Group_free(&gto));
		CHECK_MPI(MPI_Group_free(&gfrom));
	}
	/* every request is completed (and freed) once, also those of the
	 * passive epochs that a flush or the unlock completed */
	if (in != 2)
		CHECK_MPI(MPI_Waitall(nslots, reqs, MPI_STATUSES_IGNORE));
	for (int s = 0; s < nslots; s++)
		if (!in || (in == 2 && !is_request(plan[s].call)))
			check_origin(t, ti, s, target);
	for (int s = 0; s < nslots; s++)
		rcs[s] = err_class(rcs[s]);
	/* each origin tells its target which calls were accepted */
	CHECK_MPI(MPI_Sendrecv(rcs, nslots, MPI_INT, target, 7, rcs_in, nslots, MPI_INT,
			       from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (int s = 0; s < nslots; s++)
		check_target(t, ti, s, from, rcs_in[s]);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	n_epochs++;
}

static void window_open(enum flavour f, MPI_Aint bytes)
{
	MPI_Aint a;

	dyn_addr = NULL;
	switch (f) {
	case F_ALLOCATE:
		CHECK_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
		break;
	case F_SHARED:
		CHECK_MPI(MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
						  &win));
		break;
	case F_ALLOC_MEM:
	case F_MALLOC:
		if (f == F_ALLOC_MEM)
			CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem));
		else
			CHECK((mem = malloc((size_t)bytes)) != NULL);
		CHECK_MPI(MPI_Win_create(mem, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
		break;
	default:
		if (f == F_DYNAMIC_AM)
			CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem));
		else
			CHECK((mem = malloc((size_t)bytes)) != NULL);
		CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
		CHECK_MPI(MPI_Win_attach(win, mem, bytes));
		CHECK((dyn_addr = malloc(sizeof(MPI_Aint) * (size_t)size)) != NULL);
		CHECK_MPI(MPI_Get_address(mem, &a));
		CHECK_MPI(MPI_Allgather(&a, 1, MPI_AINT, dyn_addr, 1, MPI_AINT, MPI_COMM_WORLD));
		break;
	}
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
}

static void window_close(enum flavour f)
{
	if (f == F_DYNAMIC || f == F_DYNAMIC_AM)
		CHECK_MPI(MPI_Win_detach(win, mem));
	CHECK_MPI(MPI_Win_free(&win));
	if (f == F_ALLOC_MEM || f == F_DYNAMIC_AM)
		CHECK_MPI(MPI_Free_mem(mem));
	else if (f == F_MALLOC || f == F_DYNAMIC)
		free(mem);
	free(dyn_addr);
}

/* The bits of the names of list (comma separated) in names[0..n); all if NULL. */
static long pick(const char *list, const char *const *names, int n, const char *what)
{
	long bits = 0;

	if (!list)
		return (1L << n) - 1;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		int found = 0;

		for (int i = 0; i < n; i++)
			if (strlen(names[i]) == len && !strncmp(names[i], p, len)) {
				bits |= 1L << i;
				found = 1;
			}
		if (!found) {
			fprintf(stderr, "rma_matrix: no %s named %.*s\n", what, (int)len, p);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		p += len + (p[len] == ',');
	}
	return bits;
}

int main(int argc, char **argv)
{
	const char *fl = NULL, *sl = NULL, *cl = NULL, *ol = NULL, *tl = NULL;
	const char *tnames[NTYPES];
	long fbits, sbits, cbits, tbits, sum[7], tot[7];
	int reduced = 0;
	double t0;

	tu_init(&argc, &argv);
	rank = tu_rank;
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r"))
			reduced = 1;
		else if (!strcmp(argv[i], "-p"))
			peer_mode = 1;
		else if (!strcmp(argv[i], "-d"))
			defined_only = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "-S"))
			seed = strtoull(argv[++i], NULL, 0);
		else if (i + 1 < argc && !strcmp(argv[i], "-f"))
			fl = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "-s"))
			sl = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "-c"))
			cl = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "-o"))
			ol = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "-t"))
			tl = argv[++i];
		else {
			if (rank == 0)
				fprintf(stderr, "usage: rma_matrix [-r] [-p] [-d] [-S SEED] [-f FLAVOURS] "
					"[-s SYNCS] [-c CALLS] [-o OPS] [-t TYPES]\n");
			MPI_Finalize();
			return 2;
		}
	}
	for (int i = 0; i < NTYPES; i++)
		tnames[i] = types[i].name;
	fbits = pick(fl, flavour_name, NFLAVOURS, "flavour");
	sbits = pick(sl, sync_name, NSYNCS, "synchronization");
	cbits = pick(cl, call_name, NCALLS, "call");
	tbits = pick(tl, tnames, NTYPES, "type");
	{
		const MPI_Op ops[NOPS] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
					   MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
					   MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP };

		memcpy(op_handle, ops, sizeof(ops));
	}
	/* the table's sizes are the MPI library's extents */
	for (int i = 0; i < NTYPES; i++) {
		MPI_Aint lb, ext;

		CHECK_MPI(MPI_Type_get_extent(types[i].t, &lb, &ext));
		if ((size_t)ext != types[i].ext) {
			fprintf(stderr, "rma_matrix: %s has extent %ld, C says %zu\n",
				types[i].name, (long)ext, types[i].ext);
			CHECK((size_t)ext == types[i].ext);
		}
	}
	make_plan((int)cbits, pick(ol, op_name, NOPS, "op"));
	if (peer_mode)
		setvbuf(stdout, NULL, _IOLBF, 0);
	t0 = MPI_Wtime();
	for (int f = 0; f < NFLAVOURS; f++) {
		if (!(fbits & 1L << f))
			continue;
		cur_f = (enum flavour)f;
		window_open(cur_f, (MPI_Aint)MAXSLOTS * SLOT);
		for (int s = 0; s < NSYNCS; s++) {
			if (!(sbits & 1L << s))
				continue;
			cur_s = (enum sync)s;
			for (int ti = 0; ti < NTYPES; ti++) {
				int k = (ti + f + s) % size;

				if (!(tbits & 1L << ti) ||
				    (reduced && mix(seed ^ (uint64_t)(f * 4096 + s * 64 + ti)) % 3))
					continue;
				epoch(ti, (rank + k) % size, (rank + size - k) % size);
			}
		}
		window_close(cur_f);
	}
	sum[0] = n_calls; sum[1] = n_defined; sum[2] = n_refused; sum[3] = n_extension;
	sum[4] = n_bad; sum[5] = n_peer_diff; sum[6] = n_epochs;
	CHECK_MPI(MPI_Reduce(sum, tot, 7, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		printf("rma_matrix: seed %llu, %d ranks, %s: %d flavours x %d synchronizations x "
		       "%d types x %d calls (%d call/op pairs), %ld epochs: %ld calls, %ld "
		       "defined and checked, %ld refused as the standard requires, %ld "
		       "extensions checked, %ld %s, %.2f s\n", seed, size,
		       reduced ? "reduced" : "full", __builtin_popcountl(fbits),
		       __builtin_popcountl(sbits), __builtin_popcountl(tbits),
		       __builtin_popcountl(cbits), nslots, tot[6] / size, tot[0], tot[1],
		       tot[2], tot[3], peer_mode ? tot[5] : tot[4],
		       peer_mode ? "disagreements with the standard" : "disagreements",
		       MPI_Wtime() - t0);
		fflush(stdout);
	}
	MPI_Finalize();
	return !peer_mode && tot[4] && rank == 0 ? 1 : 0;
}
