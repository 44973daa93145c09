/*
 * The kernels of the predefined ops and the one table that maps
 * (op, predefined basic type) to them.
 *
 * A kernel works on C arrays of one C type (see op.h).  Types of the same
 * representation share kernels: integer types by size and, for MAX and MIN
 * only, signedness (sums, products, logical and bitwise ops are computed on
 * the unsigned type of the same size: two's complement wraps instead of
 * overflowing), MPI_C_BOOL and MPI_BYTE use the 1-byte kernels, MPI_CHAR is
 * signed char arithmetic (as MPICH and Open MPI accept it), MPI_REPLACE
 * copies by size.  Which op applies to which type follows MPI-3.1 5.9.2:
 *   MAX, MIN          C integer, Fortran integer, floating point
 *   SUM, PROD         the same and complex
 *   LAND, LOR, LXOR   C integer, logical
 *   BAND, BOR, BXOR   C integer, Fortran integer, byte
 *   MAXLOC, MINLOC    the pair types
 *   REPLACE, NO_OP    every type
 * (Fortran integer counts MPI_AINT, MPI_OFFSET and MPI_COUNT in, as 5.9.2
 * does; the Fortran and C++ types usable from C are in the groups 5.9.2
 * puts them in, op_kernels_init_fortran.)
 *
 * Each element loop runs in fixed blocks of OP_BLOCK elements, then a
 * remainder: a fixed trip count is what GCC's -O2 cost model needs to
 * vectorise the block loop without versioning it.
 */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"
#include "op.h"

#define OP_BLOCK 16

/* Every kernel is built for the widest vectors the CPU has (OP_CLONES,
 * op.h).  The inner block is unrolled so that one pass of the loop moves
 * OP_BLOCK elements.  The elements are read and written through a type of
 * alignment 1 (name##_t): an accumulate may reach a target element at any
 * displacement (a window of disp_unit 1), and a buffer may be a packed
 * one. */
#define OP_KERNEL(name, T, F)                                                  \
	typedef T name##_t __attribute__((aligned(1)));                        \
	OP_CLONES static void name(const void *restrict in, void *restrict inout, \
			 MPI_Aint n)                                           \
	{                                                                      \
		const name##_t *restrict x = in;                               \
		name##_t *restrict y = inout;                                  \
		MPI_Aint i = 0;                                                \
                                                                               \
		for (; n - i >= OP_BLOCK; i += OP_BLOCK)                       \
			_Pragma("GCC unroll 16") for (int j = 0; j < OP_BLOCK; j++) \
				y[i + j] = F(x[i + j], y[i + j]);              \
		for (; i < n; i++)                                             \
			y[i] = F(x[i], y[i]);                                  \
	}

/* The element operations: a is the incoming element, b the one it folds into. */
#define E_MAX(a, b) ((a) > (b) ? (a) : (b))
#define E_MIN(a, b) ((a) < (b) ? (a) : (b))
#define E_SUM(a, b) ((a) + (b))
#define E_PROD(a, b) ((a) * (b))
#define E_UPROD(a, b) ((a) * 1u * (b))	/* no promotion to signed int */
#define E_LAND(a, b) (!!(a) & !!(b))
#define E_LOR(a, b) (!!(a) | !!(b))
#define E_LXOR(a, b) (!!(a) ^ !!(b))
#define E_BAND(a, b) ((a) & (b))
#define E_BOR(a, b) ((a) | (b))
#define E_BXOR(a, b) ((a) ^ (b))

/* integer kernels: MAX and MIN per signedness, the rest on unsigned */
#define OP_INT_KERNELS(bits, S, U)                                             \
	OP_KERNEL(k_max_i##bits, S, E_MAX)                                     \
	OP_KERNEL(k_min_i##bits, S, E_MIN)                                     \
	OP_KERNEL(k_max_u##bits, U, E_MAX)                                     \
	OP_KERNEL(k_min_u##bits, U, E_MIN)                                     \
	OP_KERNEL(k_sum_u##bits, U, E_SUM)                                     \
	OP_KERNEL(k_prod_u##bits, U, E_UPROD)                                  \
	OP_KERNEL(k_land_u##bits, U, E_LAND)                                   \
	OP_KERNEL(k_lor_u##bits, U, E_LOR)                                     \
	OP_KERNEL(k_lxor_u##bits, U, E_LXOR)                                   \
	OP_KERNEL(k_band_u##bits, U, E_BAND)                                   \
	OP_KERNEL(k_bor_u##bits, U, E_BOR)                                     \
	OP_KERNEL(k_bxor_u##bits, U, E_BXOR)

OP_INT_KERNELS(8, int8_t, uint8_t)
OP_INT_KERNELS(16, int16_t, uint16_t)
OP_INT_KERNELS(32, int32_t, uint32_t)
OP_INT_KERNELS(64, int64_t, uint64_t)
#ifdef DT_HAVE_INTEGER16
OP_INT_KERNELS(128, dt_integer16_t, unsigned __int128)
#endif

/* floating point and complex */
#define OP_FLOAT_KERNELS(sfx, T)                                               \
	OP_KERNEL(k_max_##sfx, T, E_MAX)                                       \
	OP_KERNEL(k_min_##sfx, T, E_MIN)                                       \
	OP_KERNEL(k_sum_##sfx, T, E_SUM)                                       \
	OP_KERNEL(k_prod_##sfx, T, E_PROD)

OP_FLOAT_KERNELS(f, float)
OP_FLOAT_KERNELS(d, double)
OP_FLOAT_KERNELS(ld, long double)

OP_KERNEL(k_sum_cf, float _Complex, E_SUM)
OP_KERNEL(k_prod_cf, float _Complex, E_PROD)
OP_KERNEL(k_sum_cd, double _Complex, E_SUM)
OP_KERNEL(k_prod_cd, double _Complex, E_PROD)
OP_KERNEL(k_sum_cld, long double _Complex, E_SUM)
OP_KERNEL(k_prod_cld, long double _Complex, E_PROD)
#ifdef DT_HAVE_REAL16
OP_FLOAT_KERNELS(q, dt_real16_t)
OP_KERNEL(k_sum_cq, dt_complex32_t, E_SUM)
OP_KERNEL(k_prod_cq, dt_complex32_t, E_PROD)
#endif

/* MPI_REPLACE: a copy, by element size */
#define OP_COPY_KERNEL(size)                                                   \
	static void k_copy_##size(const void *restrict in, void *restrict inout, \
				  MPI_Aint n)                                  \
	{                                                                      \
		memcpy(inout, in, (size_t)n * size);                           \
	}

OP_COPY_KERNEL(1)
OP_COPY_KERNEL(2)
OP_COPY_KERNEL(4)
OP_COPY_KERNEL(8)
OP_COPY_KERNEL(16)
OP_COPY_KERNEL(32)

static void k_no_op(const void *restrict in, void *restrict inout, MPI_Aint n)
{
	(void)in;
	(void)inout;
	(void)n;
}

/*
 * MAXLOC and MINLOC: the larger (smaller) value wins; on a tie, the smaller
 * index.  CMP is the strict comparison that makes the incoming pair win.
 */
#define OP_LOC_KERNEL(name, T, CMP)                                            \
	typedef T name##_t __attribute__((aligned(1)));	/* as OP_KERNEL's */   \
	static void name(const void *restrict in, void *restrict inout,        \
			 MPI_Aint n)                                           \
	{                                                                      \
		const name##_t *restrict x = in;                               \
		name##_t *restrict y = inout;                                  \
                                                                               \
		for (MPI_Aint i = 0; i < n; i++)                               \
			if (x[i].v CMP y[i].v ||                               \
			    (x[i].v == y[i].v && x[i].i < y[i].i))             \
				y[i] = x[i];                                   \
	}

#define OP_PAIR_KERNELS(sfx, T)                                                \
	OP_LOC_KERNEL(k_maxloc_##sfx, T, >)                                    \
	OP_LOC_KERNEL(k_minloc_##sfx, T, <)

OP_PAIR_KERNELS(float_int, struct dt_pair_float_int)
OP_PAIR_KERNELS(double_int, struct dt_pair_double_int)
OP_PAIR_KERNELS(long_int, struct dt_pair_long_int)
OP_PAIR_KERNELS(2int, struct dt_pair_2int)
OP_PAIR_KERNELS(short_int, struct dt_pair_short_int)
OP_PAIR_KERNELS(long_double_int, struct dt_pair_long_double_int)
OP_PAIR_KERNELS(2real, struct dt_pair_2real)
OP_PAIR_KERNELS(2double, struct dt_pair_2double)

/* ---- the table --------------------------------------------------------- */

static op_kernel_t op_table[OP_NBUILTIN][DT_NBUILTIN];

/* The integer kernels of one size. */
struct op_int_kernels {
	op_kernel_t max_s, min_s, max_u, min_u, sum, prod, land, lor, lxor,
		    band, bor, bxor;
};

#define OP_INT_ENTRY(bits)                                                     \
	{ k_max_i##bits, k_min_i##bits, k_max_u##bits, k_min_u##bits,          \
	  k_sum_u##bits, k_prod_u##bits, k_land_u##bits, k_lor_u##bits,        \
	  k_lxor_u##bits, k_band_u##bits, k_bor_u##bits, k_bxor_u##bits }

static const struct op_int_kernels op_ints[] = {
	OP_INT_ENTRY(8), OP_INT_ENTRY(16), OP_INT_ENTRY(32), OP_INT_ENTRY(64),
#ifdef DT_HAVE_INTEGER16
	OP_INT_ENTRY(128),
#endif
};

static const struct op_int_kernels *op_ints_of(size_t size)
{
	return &op_ints[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4];
}

static void set(enum op_kind op, MPI_Datatype h, op_kernel_t k)
{
	op_table[op][dt_builtin_index(h)] = k;
}

/* MPI_REPLACE and MPI_NO_OP, defined on every type. */
static void set_any(MPI_Datatype h, size_t size)
{
	op_kernel_t copy = size == 1 ? k_copy_1 : size == 2 ? k_copy_2 :
			   size == 4 ? k_copy_4 : size == 8 ? k_copy_8 :
			   size == 16 ? k_copy_16 : k_copy_32;

	set(OP_REPLACE, h, copy);
	set(OP_NO_OP, h, k_no_op);
}

enum op_sign { OP_UNSIGNED, OP_SIGNED };

enum op_int_class {
	OP_C_INTEGER,		/* every integer op, logical ones included */
	OP_F_INTEGER,		/* no logical ops */
	OP_LOGICAL,		/* the logical ops alone */
};

static void set_int(MPI_Datatype h, size_t size, enum op_sign sign,
		    enum op_int_class cls)
{
	const struct op_int_kernels *k = op_ints_of(size);

	if (cls == OP_LOGICAL) {
		set(OP_LAND, h, k->land);
		set(OP_LOR, h, k->lor);
		set(OP_LXOR, h, k->lxor);
		set_any(h, size);
		return;
	}
	set(OP_MAX, h, sign == OP_SIGNED ? k->max_s : k->max_u);
	set(OP_MIN, h, sign == OP_SIGNED ? k->min_s : k->min_u);
	set(OP_SUM, h, k->sum);
	set(OP_PROD, h, k->prod);
	if (cls == OP_C_INTEGER) {
		set(OP_LAND, h, k->land);
		set(OP_LOR, h, k->lor);
		set(OP_LXOR, h, k->lxor);
	}
	set(OP_BAND, h, k->band);
	set(OP_BOR, h, k->bor);
	set(OP_BXOR, h, k->bxor);
	set_any(h, size);
}


static void set_float(MPI_Datatype h, size_t size, op_kernel_t max, op_kernel_t min,
		      op_kernel_t sum, op_kernel_t prod)
{
	set(OP_MAX, h, max);
	set(OP_MIN, h, min);
	set(OP_SUM, h, sum);
	set(OP_PROD, h, prod);
	set_any(h, size);
}

static void set_complex(MPI_Datatype h, size_t size, op_kernel_t sum, op_kernel_t prod)
{
	set(OP_SUM, h, sum);
	set(OP_PROD, h, prod);
	set_any(h, size);
}

static void set_pair(MPI_Datatype h, size_t size, op_kernel_t maxloc,
		     op_kernel_t minloc)
{
	set(OP_MAXLOC, h, maxloc);
	set(OP_MINLOC, h, minloc);
	set_any(h, size);
}

#define SET_PAIR(h, sfx) set_pair(h, sizeof(struct dt_pair_##sfx), \
				  k_maxloc_##sfx, k_minloc_##sfx)

_Static_assert(sizeof(bool) == 1, "MPI_C_BOOL uses the 1-byte kernels");
_Static_assert(sizeof(long double) == 16 && sizeof(long double _Complex) == 32 &&
	       sizeof(struct dt_pair_long_double_int) == 32,
	       "the copy kernels of MPI_REPLACE go up to 32 bytes");

/* The Fortran and C++ types usable from C, in the groups of MPI 3.1 5.9.2
 * (MPI_LOGICAL1..8 with MPI_LOGICAL, as gfortran's LOGICAL kinds). */
static void op_kernels_init_fortran(void)
{
	static const struct { MPI_Datatype h; size_t size; } f_int[] = {
		{ MPI_INTEGER, 4 }, { MPI_INTEGER1, 1 }, { MPI_INTEGER2, 2 },
		{ MPI_INTEGER4, 4 }, { MPI_INTEGER8, 8 },
#ifdef DT_HAVE_INTEGER16
		{ MPI_INTEGER16, 16 },
#endif
	}, logical[] = {
		{ MPI_LOGICAL, 4 }, { MPI_LOGICAL1, 1 }, { MPI_LOGICAL2, 2 },
		{ MPI_LOGICAL4, 4 }, { MPI_LOGICAL8, 8 }, { MPI_CXX_BOOL, sizeof(bool) },
	};

	for (size_t i = 0; i < sizeof(f_int) / sizeof(f_int[0]); i++)
		set_int(f_int[i].h, f_int[i].size, OP_SIGNED, OP_F_INTEGER);
	for (size_t i = 0; i < sizeof(logical) / sizeof(logical[0]); i++)
		set_int(logical[i].h, logical[i].size, OP_UNSIGNED, OP_LOGICAL);
	/* floating point */
	set_float(MPI_REAL, sizeof(float), k_max_f, k_min_f, k_sum_f, k_prod_f);
	set_float(MPI_REAL4, sizeof(float), k_max_f, k_min_f, k_sum_f, k_prod_f);
	set_float(MPI_DOUBLE_PRECISION, sizeof(double), k_max_d, k_min_d, k_sum_d,
		  k_prod_d);
	set_float(MPI_REAL8, sizeof(double), k_max_d, k_min_d, k_sum_d, k_prod_d);
	/* complex */
	set_complex(MPI_COMPLEX, sizeof(float _Complex), k_sum_cf, k_prod_cf);
	set_complex(MPI_COMPLEX8, sizeof(float _Complex), k_sum_cf, k_prod_cf);
	set_complex(MPI_CXX_FLOAT_COMPLEX, sizeof(float _Complex), k_sum_cf, k_prod_cf);
	set_complex(MPI_DOUBLE_COMPLEX, sizeof(double _Complex), k_sum_cd, k_prod_cd);
	set_complex(MPI_COMPLEX16, sizeof(double _Complex), k_sum_cd, k_prod_cd);
	set_complex(MPI_CXX_DOUBLE_COMPLEX, sizeof(double _Complex), k_sum_cd,
		    k_prod_cd);
	set_complex(MPI_CXX_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex),
		    k_sum_cld, k_prod_cld);
#ifdef DT_HAVE_REAL16
	set_float(MPI_REAL16, sizeof(dt_real16_t), k_max_q, k_min_q, k_sum_q, k_prod_q);
	set_complex(MPI_COMPLEX32, sizeof(dt_complex32_t), k_sum_cq, k_prod_cq);
#endif
	/* the rest: only REPLACE and NO_OP */
	set_any(MPI_CHARACTER, 1);
	set_any(MPI_2COMPLEX, sizeof(struct dt_pair_2complex));
	set_any(MPI_2DOUBLE_COMPLEX, sizeof(struct dt_pair_2double_complex));
	/* pairs */
	SET_PAIR(MPI_2INTEGER, 2int);
	SET_PAIR(MPI_2REAL, 2real);
	SET_PAIR(MPI_2DOUBLE_PRECISION, 2double);
}

void op_kernels_init(void)
{
	memset(op_table, 0, sizeof(op_table));
	/* C integer; MPI_CHAR computes as signed char */
	set_int(MPI_CHAR, sizeof(signed char), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_SIGNED_CHAR, sizeof(signed char), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UNSIGNED_CHAR, sizeof(unsigned char), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_SHORT, sizeof(short), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UNSIGNED_SHORT, sizeof(unsigned short), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_INT, sizeof(int), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UNSIGNED, sizeof(unsigned), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_LONG, sizeof(long), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UNSIGNED_LONG, sizeof(unsigned long), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_LONG_LONG_INT, sizeof(long long), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_INT8_T, sizeof(int8_t), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_INT16_T, sizeof(int16_t), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_INT32_T, sizeof(int32_t), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_INT64_T, sizeof(int64_t), OP_SIGNED, OP_C_INTEGER);
	set_int(MPI_UINT8_T, sizeof(uint8_t), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_UINT16_T, sizeof(uint16_t), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_UINT32_T, sizeof(uint32_t), OP_UNSIGNED, OP_C_INTEGER);
	set_int(MPI_UINT64_T, sizeof(uint64_t), OP_UNSIGNED, OP_C_INTEGER);
	/* Fortran integer */
	set_int(MPI_AINT, sizeof(MPI_Aint), OP_SIGNED, OP_F_INTEGER);
	set_int(MPI_OFFSET, sizeof(MPI_Offset), OP_SIGNED, OP_F_INTEGER);
	set_int(MPI_COUNT, sizeof(MPI_Count), OP_SIGNED, OP_F_INTEGER);
	/* floating point */
	set_float(MPI_FLOAT, sizeof(float), k_max_f, k_min_f, k_sum_f, k_prod_f);
	set_float(MPI_DOUBLE, sizeof(double), k_max_d, k_min_d, k_sum_d, k_prod_d);
	set_float(MPI_LONG_DOUBLE, sizeof(long double), k_max_ld, k_min_ld, k_sum_ld,
		  k_prod_ld);
	/* complex */
	set_complex(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), k_sum_cf, k_prod_cf);
	set_complex(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), k_sum_cd, k_prod_cd);
	set_complex(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), k_sum_cld,
		    k_prod_cld);
	/* logical: the results are 1 and 0, gfortran's .TRUE. and .FALSE. too */
	set_int(MPI_C_BOOL, sizeof(bool), OP_UNSIGNED, OP_LOGICAL);
	/* byte */
	set(OP_BAND, MPI_BYTE, k_band_u8);
	set(OP_BOR, MPI_BYTE, k_bor_u8);
	set(OP_BXOR, MPI_BYTE, k_bxor_u8);
	set_any(MPI_BYTE, 1);
	/* the rest: only REPLACE and NO_OP */
	set_any(MPI_WCHAR, sizeof(wchar_t));
	set_any(MPI_PACKED, 1);
	/* pairs */
	SET_PAIR(MPI_FLOAT_INT, float_int);
	SET_PAIR(MPI_DOUBLE_INT, double_int);
	SET_PAIR(MPI_LONG_INT, long_int);
	SET_PAIR(MPI_2INT, 2int);
	SET_PAIR(MPI_SHORT_INT, short_int);
	SET_PAIR(MPI_LONG_DOUBLE_INT, long_double_int);
	op_kernels_init_fortran();
}

op_kernel_t op_kernel_of(enum op_kind op, MPI_Datatype basic)
{
	if (op <= OP_USER || op >= OP_NBUILTIN || !handle_is_builtin(basic) ||
	    dt_builtin_index(basic) >= DT_NBUILTIN)
		return NULL;
	return op_table[op][dt_builtin_index(basic)];
}
