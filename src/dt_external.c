/*
 * MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size with the
 * one data representation the standard defines for them, "external32"
 * (MPI 3.1, sections 4.2 and 13.5.2).
 *
 * external32 is big-endian, without gaps, each predefined type at the size
 * of table 13.2: integers in two's complement (MPI_LONG and
 * MPI_UNSIGNED_LONG in 4 bytes, MPI_AINT, MPI_COUNT and MPI_OFFSET in 8),
 * floating point in IEEE format (long double as the 16-byte "Double
 * Extended" format: binary128), complex numbers as two floating point
 * values, characters and booleans in one byte as they are.  An integer
 * packed into fewer bytes keeps its least significant ones (13.5.2: no
 * conversion error while the value fits), and is sign-extended (zero-
 * extended when unsigned) when it is unpacked into more.
 *
 * Packing walks the flattened typemap (datatype.h) element after element:
 * each run knows the predefined type of its basic elements, and each basic
 * element is converted on its own, component by component for complex
 * numbers.  The types of MPI_Type_create_f90_* are laid out as named types
 * of the sizes 13.5.2 gives them (dt_f90.c), so they need nothing more.
 */
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "api.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

enum x32_kind {
	X_NONE,		/* not a predefined type (unused index) */
	X_RAW,		/* one byte as it is */
	X_SIGNED,	/* two's complement integer */
	X_UNSIGNED,	/* unsigned integer; IEEE floating point of the same size */
	X_LDOUBLE,	/* C long double <-> binary128 */
};

struct x32 {
	uint8_t kind;
	uint8_t ncomp;		/* components: 2 for complex numbers */
	uint8_t nsize;		/* native bytes of a component */
	uint8_t xsize;		/* external32 bytes of a component */
};

#define X(h, k, T, xs) [(h) & 0xff] = { k, 1, sizeof(T), xs }
#define XC(h, k, T, xs) [(h) & 0xff] = { k, 2, sizeof(T), xs }

/* Table 13.2, by builtin index.  The pair types have no entry: their runs
 * are of their members' types. */
static const struct x32 x32_types[DT_NBUILTIN] = {
	X(MPI_CHAR, X_RAW, char, 1),
	X(MPI_SIGNED_CHAR, X_SIGNED, signed char, 1),
	X(MPI_UNSIGNED_CHAR, X_UNSIGNED, unsigned char, 1),
	X(MPI_BYTE, X_RAW, unsigned char, 1),
	X(MPI_WCHAR, X_SIGNED, wchar_t, 4),
	X(MPI_SHORT, X_SIGNED, short, 2),
	X(MPI_UNSIGNED_SHORT, X_UNSIGNED, unsigned short, 2),
	X(MPI_INT, X_SIGNED, int, 4),
	X(MPI_UNSIGNED, X_UNSIGNED, unsigned, 4),
	X(MPI_LONG, X_SIGNED, long, 4),
	X(MPI_UNSIGNED_LONG, X_UNSIGNED, unsigned long, 4),
	X(MPI_LONG_LONG_INT, X_SIGNED, long long, 8),
	X(MPI_UNSIGNED_LONG_LONG, X_UNSIGNED, unsigned long long, 8),
	X(MPI_FLOAT, X_UNSIGNED, float, 4),
	X(MPI_DOUBLE, X_UNSIGNED, double, 8),
	X(MPI_LONG_DOUBLE, X_LDOUBLE, long double, 16),
	X(MPI_C_BOOL, X_RAW, bool, 1),
	X(MPI_INT8_T, X_SIGNED, int8_t, 1),
	X(MPI_INT16_T, X_SIGNED, int16_t, 2),
	X(MPI_INT32_T, X_SIGNED, int32_t, 4),
	X(MPI_INT64_T, X_SIGNED, int64_t, 8),
	X(MPI_UINT8_T, X_UNSIGNED, uint8_t, 1),
	X(MPI_UINT16_T, X_UNSIGNED, uint16_t, 2),
	X(MPI_UINT32_T, X_UNSIGNED, uint32_t, 4),
	X(MPI_UINT64_T, X_UNSIGNED, uint64_t, 8),
	X(MPI_AINT, X_SIGNED, MPI_Aint, 8),
	X(MPI_COUNT, X_SIGNED, MPI_Count, 8),
	X(MPI_OFFSET, X_SIGNED, MPI_Offset, 8),
	XC(MPI_C_FLOAT_COMPLEX, X_UNSIGNED, float, 4),
	XC(MPI_C_DOUBLE_COMPLEX, X_UNSIGNED, double, 8),
	XC(MPI_C_LONG_DOUBLE_COMPLEX, X_LDOUBLE, long double, 16),
	X(MPI_PACKED, X_RAW, unsigned char, 1),
	X(MPI_CHARACTER, X_RAW, char, 1),
	X(MPI_LOGICAL, X_SIGNED, int32_t, 4),
	X(MPI_INTEGER, X_SIGNED, int32_t, 4),
	X(MPI_REAL, X_UNSIGNED, float, 4),
	X(MPI_DOUBLE_PRECISION, X_UNSIGNED, double, 8),
	XC(MPI_COMPLEX, X_UNSIGNED, float, 4),
	XC(MPI_DOUBLE_COMPLEX, X_UNSIGNED, double, 8),
	X(MPI_INTEGER1, X_SIGNED, int8_t, 1),
	X(MPI_INTEGER2, X_SIGNED, int16_t, 2),
	X(MPI_INTEGER4, X_SIGNED, int32_t, 4),
	X(MPI_INTEGER8, X_SIGNED, int64_t, 8),
#ifdef DT_HAVE_INTEGER16
	X(MPI_INTEGER16, X_SIGNED, dt_integer16_t, 16),
#endif
	X(MPI_REAL4, X_UNSIGNED, float, 4),
	X(MPI_REAL8, X_UNSIGNED, double, 8),
#ifdef DT_HAVE_REAL16
	X(MPI_REAL16, X_UNSIGNED, dt_real16_t, 16),
	XC(MPI_COMPLEX32, X_UNSIGNED, dt_real16_t, 16),
#endif
	XC(MPI_COMPLEX8, X_UNSIGNED, float, 4),
	XC(MPI_COMPLEX16, X_UNSIGNED, double, 8),
	X(MPI_LOGICAL1, X_SIGNED, int8_t, 1),
	X(MPI_LOGICAL2, X_SIGNED, int16_t, 2),
	X(MPI_LOGICAL4, X_SIGNED, int32_t, 4),
	X(MPI_LOGICAL8, X_SIGNED, int64_t, 8),
	X(MPI_CXX_BOOL, X_RAW, bool, 1),
	XC(MPI_CXX_FLOAT_COMPLEX, X_UNSIGNED, float, 4),
	XC(MPI_CXX_DOUBLE_COMPLEX, X_UNSIGNED, double, 8),
	XC(MPI_CXX_LONG_DOUBLE_COMPLEX, X_LDOUBLE, long double, 16),
};

#if LDBL_MANT_DIG == 113
typedef long double x32_quad_t;		/* long double is binary128 already */
#define X32_LD_CONVERT 0
#elif defined(__SIZEOF_FLOAT128__)
typedef __float128 x32_quad_t;		/* converted exactly, rounded back */
#define X32_LD_CONVERT 1
#else
#error "external32 needs binary128: a long double of that format, or __float128"
#endif
_Static_assert(sizeof(x32_quad_t) == 16, "binary128 takes 16 bytes");

static const struct x32 *x32_of(MPI_Datatype t)
{
	return &x32_types[dt_builtin_index(t)];
}

/* Byte i, from the least significant, of the n-byte native integer at p. */
static inline unsigned char x32_byte(const unsigned char *p, size_t n, size_t i)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)n;
	return p[i];
#else
	return p[n - 1 - i];
#endif
}

static inline unsigned char *x32_at(unsigned char *p, size_t n, size_t i)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)n;
	return p + i;
#else
	return p + n - 1 - i;
#endif
}

/* One component: native at nat, external32 at ext; to_ext says which way. */
static void x32_component(const struct x32 *x, unsigned char *nat, unsigned char *ext,
			  int to_ext)
{
	unsigned char fill = 0;

	if (x->kind == X_RAW) {
		if (to_ext)
			*ext = *nat;
		else
			*nat = *ext;
		return;
	}
	if (x->kind == X_LDOUBLE && X32_LD_CONVERT) {
		x32_quad_t q;
		long double ld;

		if (to_ext) {
			memcpy(&ld, nat, sizeof(ld));
			q = (x32_quad_t)ld;		/* exact: binary128 holds it */
			for (size_t i = 0; i < 16; i++)
				ext[15 - i] = x32_byte((const unsigned char *)&q, 16, i);
		} else {
			for (size_t i = 0; i < 16; i++)
				*x32_at((unsigned char *)&q, 16, i) = ext[15 - i];
			ld = (long double)q;		/* rounded to nearest */
			memcpy(nat, &ld, sizeof(ld));
		}
		return;
	}
	if (to_ext) {
		/* the low xsize bytes, most significant first */
		if (x->kind == X_SIGNED && (x32_byte(nat, x->nsize, x->nsize - 1u) & 0x80))
			fill = 0xff;
		for (size_t i = 0; i < x->xsize; i++)
			ext[x->xsize - 1 - i] = i < x->nsize ? x32_byte(nat, x->nsize, i) : fill;
	} else {
		if (x->kind == X_SIGNED && (ext[0] & 0x80))
			fill = 0xff;
		for (size_t i = 0; i < x->nsize; i++)
			*x32_at(nat, x->nsize, i) = i < x->xsize ? ext[x->xsize - 1 - i] : fill;
	}
}

/* external32 bytes of one element of dt. */
static MPI_Aint x32_elem_size(const struct datatype *dt)
{
	MPI_Aint bytes = 0;

	for (int b = 0; b < dt->nblocks; b++) {
		const struct dt_block *blk = &dt->blocks[b];
		const struct x32 *x = x32_of(blk->type);

		bytes += blk->len / blk->basic_size * x->ncomp * x->xsize;
	}
	return bytes;
}

/* Convert count elements of (user, dt) to or from the external32 bytes at
 * ext. */
static void x32_walk(const struct datatype *dt, char *user, MPI_Count count,
		     unsigned char *ext, int to_ext)
{
	for (MPI_Count e = 0; e < count; e++) {
		for (int b = 0; b < dt->nblocks; b++) {
			const struct dt_block *blk = &dt->blocks[b];
			const struct x32 *x = x32_of(blk->type);
			unsigned char *nat = (unsigned char *)((uintptr_t)user +
				(uintptr_t)(e * dt->extent + blk->disp));

			for (MPI_Aint k = 0; k < blk->len / blk->basic_size; k++) {
				for (int c = 0; c < x->ncomp; c++) {
					x32_component(x, nat, ext, to_ext);
					nat += x->nsize;
					ext += x->xsize;
				}
			}
		}
	}
}

/* The arguments the three calls share: the representation, a count and a
 * type, committed if `use` (a query takes any); *bytes is what (count,
 * type) packs to. */
static int x32_check(const char *call, const char *datarep, MPI_Count count,
		     const char *count_name, MPI_Datatype datatype, int use,
		     struct datatype **dt, MPI_Aint *bytes)
{
	int rc = MPI_SUCCESS;

	if (!datarep)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "datarep", "is NULL");
	if (strcmp(datarep, "external32") != 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "datarep",
				"\"%.64s\" is not \"external32\", the one representation "
				"these calls take (MPI 3.1, section 4.2)", datarep);
	if (count < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_COUNT, count_name,
				"%lld is negative", (long long)count);
	if (use)
		rc = dt_check_use(MPI_COMM_WORLD, call, datatype, dt);
	else if (!(*dt = dt_get(datatype)))
		rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_TYPE, "datatype",
			      datatype == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
			      "0x%x is not a valid datatype", (unsigned)datatype);
	if (rc != MPI_SUCCESS)
		return rc;
	if (__builtin_mul_overflow((MPI_Aint)count, x32_elem_size(*dt), bytes))
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_COUNT, count_name,
				"%lld elements of %s take more bytes than MPI_Aint holds",
				(long long)count, (*dt)->name[0] ? (*dt)->name :
				"the datatype");
	return MPI_SUCCESS;
}

/* The buffer of packed bytes: size, position and room for `bytes`. */
static int x32_check_buffer(const char *call, MPI_Aint size, const char *size_name,
			    const MPI_Aint *position, MPI_Aint bytes)
{
	if (size < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, size_name,
				"%ld is negative", (long)size);
	if (!position)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "position", "is NULL");
	if (*position < 0 || *position > size)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "position",
				"%ld is not in [0, %s = %ld]", (long)*position, size_name,
				(long)size);
	if (bytes > size - *position)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_TRUNCATE, size_name,
				"%ld bytes from position %ld hold less than the %ld "
				"external32 bytes of the data", (long)size, (long)*position,
				(long)bytes);
	return MPI_SUCCESS;
}

/* Pack (to_ext) or unpack count elements of (user, datatype) at
 * packed + *position, a buffer of size bytes; names[] names the arguments
 * count, size, user buffer and packed buffer in the call. */
static int x32_move(const char *call, const char *const names[4], const char *datarep,
		    void *user, MPI_Count count, MPI_Datatype datatype, void *packed,
		    MPI_Aint size, MPI_Aint *position, int to_ext)
{
	struct datatype *dt;
	MPI_Aint bytes;
	int rc;

	runtime_check(call);
	rc = x32_check(call, datarep, count, names[0], datatype, 1, &dt, &bytes);
	if (rc == MPI_SUCCESS)
		rc = x32_check_buffer(call, size, names[1], position, bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bytes > 0 && !packed)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_BUFFER, names[3], "is NULL");
	if (bytes > 0 && !user && handle_is_builtin(datatype))
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_BUFFER, names[2],
				"is NULL with %lld elements of %s", (long long)count,
				dt->name);
	x32_walk(dt, user, count, (unsigned char *)packed + *position, to_ext);
	*position += bytes;
	return MPI_SUCCESS;
}

API(int, Pack_external, (const char datarep[], const void *inbuf, int incount,
			 MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
			 MPI_Aint *position))
{
	static const char *const names[4] = { "incount", "outsize", "inbuf", "outbuf" };

	return x32_move("MPI_Pack_external", names, datarep, (void *)inbuf, incount,
			datatype, outbuf, outsize, position, 1);
}

/* The large-count forms (MPI 4.1, section 2.5.8): their position is a
 * MPI_Count, which goes in and out through the MPI_Aint of x32_move. */
static int x32_move_c(const char *call, const char *const names[4], const char *datarep,
		      void *user, MPI_Count count, MPI_Datatype datatype, void *packed,
		      MPI_Count size, MPI_Count *position, int to_ext)
{
	MPI_Aint pos = position ? (MPI_Aint)*position : 0;
	int rc = x32_move(call, names, datarep, user, count, datatype, packed,
			  (MPI_Aint)size, position ? &pos : NULL, to_ext);

	if (rc == MPI_SUCCESS)
		*position = pos;
	return rc;
}

API(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
			   MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
			   MPI_Count *position))
{
	static const char *const names[4] = { "incount", "outsize", "inbuf", "outbuf" };

	return x32_move_c("MPI_Pack_external_c", names, datarep, (void *)inbuf, incount,
			  datatype, outbuf, outsize, position, 1);
}

API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
			   MPI_Aint *position, void *outbuf, int outcount,
			   MPI_Datatype datatype))
{
	static const char *const names[4] = { "outcount", "insize", "outbuf", "inbuf" };

	return x32_move("MPI_Unpack_external", names, datarep, outbuf, outcount, datatype,
			(void *)inbuf, insize, position, 0);
}

API(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
			     MPI_Count *position, void *outbuf, MPI_Count outcount,
			     MPI_Datatype datatype))
{
	static const char *const names[4] = { "outcount", "insize", "outbuf", "inbuf" };

	return x32_move_c("MPI_Unpack_external_c", names, datarep, outbuf, outcount,
			  datatype, (void *)inbuf, insize, position, 0);
}

/* A query, not a use: the type need not be committed (as MPI_Pack_size). */
static int pack_external_size(const char *call, const char datarep[], MPI_Count incount,
			      MPI_Datatype datatype, const void *size, MPI_Aint *bytes)
{
	struct datatype *dt;
	int rc;

	runtime_check(call);
	rc = x32_check(call, datarep, incount, "incount", datatype, 0, &dt, bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!size)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "size", "is NULL");
	return MPI_SUCCESS;
}

API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
			      MPI_Aint *size))
{
	MPI_Aint bytes;
	int rc = pack_external_size("MPI_Pack_external_size", datarep, incount, datatype,
				    size, &bytes);

	if (rc == MPI_SUCCESS)
		*size = bytes;
	return rc;
}

API(int, Pack_external_size_c, (const char datarep[], MPI_Count incount,
				MPI_Datatype datatype, MPI_Count *size))
{
	MPI_Aint bytes;
	int rc = pack_external_size("MPI_Pack_external_size_c", datarep, incount,
				    datatype, size, &bytes);

	if (rc == MPI_SUCCESS)
		*size = bytes;
	return rc;
}
