/*
 * Datatype objects: the predefined ones, reference counting, the checks
 * other layers use, and the pack/unpack engine.
 *
 * Packing walks the flattened typemap: stream offset off is element
 * off / size, byte off % size of it, found in the runs by binary search on
 * their stream positions; from there the runs are copied in order, element
 * after element, so a chunk of a message may start and end anywhere.
 */
#include <complex.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "datatype.h"
#include "errhandler.h"

static struct datatype dt_builtins[DT_NBUILTIN];
static struct dt_block dt_builtin_blocks[DT_NBUILTIN][2];
static struct dt_rrun dt_builtin_rruns[DT_NBUILTIN];

uint8_t dt_contig_sizes[HANDLE_MAX_BUILTIN];

static void dt_builtin(MPI_Datatype h, const char *name, MPI_Aint size, int align)
{
	unsigned i = dt_builtin_index(h);
	struct datatype *dt = &dt_builtins[i];
	struct dt_block *b = dt_builtin_blocks[i];

	dt->handle = h;
	dt->refs = 1;
	dt->committed = 1;
	dt->size = dt->extent = dt->true_extent = size;
	dt->lb = dt->true_lb = 0;
	dt->nblocks = 1;
	dt->blocks = b;
	b[0] = (struct dt_block){ .disp = 0, .len = size, .pos = 0,
				  .basic_size = (int)size, .type = h };
	dt->contig = 1;
	dt->basic = h;
	dt->nrruns = 1;
	dt->rruns = &dt_builtin_rruns[i];
	dt->rruns[0] = (struct dt_rrun){ .disp = 0, .count = 1 };
	dt->align = align;
	dt->sticky = 0;
	dt->contents = (struct dt_contents){ .combiner = MPI_COMBINER_NAMED };
	snprintf(dt->name, sizeof(dt->name), "%s", name);
	handle_set_builtin(HANDLE_DATATYPE, i, dt);
	dt_contig_sizes[i] = (uint8_t)size;
}

/*
 * A pair type of MAXLOC/MINLOC: a value of type vt (vsize bytes) at 0, an
 * index of type it (isize bytes) at ioff, the extent of the C struct.
 * Basic for reductions (one whole pair), two basic elements for
 * MPI_Get_elements.
 */
static void dt_builtin_pair(MPI_Datatype h, const char *name, MPI_Datatype vt,
			    MPI_Aint vsize, MPI_Datatype it, MPI_Aint isize,
			    MPI_Aint ioff, MPI_Aint extent, int align)
{
	unsigned i = dt_builtin_index(h);
	struct datatype *dt = &dt_builtins[i];
	struct dt_block *b = dt_builtin_blocks[i];

	dt_builtin(h, name, vsize, align);
	dt_contig_sizes[i] = 0;		/* two basic elements: not a fast-path type */
	dt->size = vsize + isize;
	dt->extent = extent;
	dt->true_extent = ioff + isize;
	b[0].type = vt;
	if (vt == it && ioff == vsize && extent == dt->size) {
		b[0].len = dt->size;	/* MPI_2INT, MPI_2REAL...: one run */
		dt->nblocks = 1;
		dt->contig = 1;
		return;
	}
	b[1] = (struct dt_block){ .disp = ioff, .len = isize, .pos = vsize,
				  .basic_size = (int)isize, .type = it };
	dt->nblocks = 2;
	/* MPI_FLOAT_INT: two runs of two types, but no gap */
	dt->contig = ioff == vsize && extent == dt->size;
}

#define BASIC(h, t) dt_builtin(h, #h, sizeof(t), _Alignof(t))
#define PAIR(h, vt, it, t) dt_builtin_pair(h, #h, vt, sizeof(((struct t *)0)->v), \
					   it, sizeof(((struct t *)0)->i),      \
					   offsetof(struct t, i), sizeof(struct t), \
					   _Alignof(struct t))

/* Needs no MPI_Init: the table only depends on the C ABI. */
void dt_init_builtins(void)
{
	BASIC(MPI_CHAR, char);
	BASIC(MPI_SIGNED_CHAR, signed char);
	BASIC(MPI_UNSIGNED_CHAR, unsigned char);
	BASIC(MPI_BYTE, unsigned char);
	BASIC(MPI_WCHAR, wchar_t);
	BASIC(MPI_SHORT, short);
	BASIC(MPI_UNSIGNED_SHORT, unsigned short);
	BASIC(MPI_INT, int);
	BASIC(MPI_UNSIGNED, unsigned);
	BASIC(MPI_LONG, long);
	BASIC(MPI_UNSIGNED_LONG, unsigned long);
	BASIC(MPI_LONG_LONG_INT, long long);
	BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long);
	BASIC(MPI_FLOAT, float);
	BASIC(MPI_DOUBLE, double);
	/* long double carries 10 bytes of data in 16 on x86-64; MPI moves all */
	BASIC(MPI_LONG_DOUBLE, long double);
	BASIC(MPI_C_BOOL, bool);
	BASIC(MPI_INT8_T, int8_t);
	BASIC(MPI_INT16_T, int16_t);
	BASIC(MPI_INT32_T, int32_t);
	BASIC(MPI_INT64_T, int64_t);
	BASIC(MPI_UINT8_T, uint8_t);
	BASIC(MPI_UINT16_T, uint16_t);
	BASIC(MPI_UINT32_T, uint32_t);
	BASIC(MPI_UINT64_T, uint64_t);
	BASIC(MPI_AINT, MPI_Aint);
	BASIC(MPI_COUNT, MPI_Count);
	BASIC(MPI_OFFSET, MPI_Offset);
	BASIC(MPI_C_FLOAT_COMPLEX, float _Complex);
	BASIC(MPI_C_DOUBLE_COMPLEX, double _Complex);
	BASIC(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex);
	BASIC(MPI_PACKED, unsigned char);
	PAIR(MPI_FLOAT_INT, MPI_FLOAT, MPI_INT, dt_pair_float_int);
	PAIR(MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT, dt_pair_double_int);
	PAIR(MPI_LONG_INT, MPI_LONG, MPI_INT, dt_pair_long_int);
	PAIR(MPI_2INT, MPI_INT, MPI_INT, dt_pair_2int);
	PAIR(MPI_SHORT_INT, MPI_SHORT, MPI_INT, dt_pair_short_int);
	PAIR(MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT, dt_pair_long_double_int);
	/*
	 * Fortran (MPI 3.1, 3.2.2 and Annex A.1.1) as gfortran lays it out:
	 * default INTEGER, REAL and LOGICAL take 4 bytes, DOUBLE PRECISION 8,
	 * COMPLEX two REALs; a LOGICAL is 1 for .TRUE. and 0 for .FALSE.
	 */
	BASIC(MPI_CHARACTER, char);
	BASIC(MPI_LOGICAL, int32_t);
	BASIC(MPI_INTEGER, int32_t);
	BASIC(MPI_REAL, float);
	BASIC(MPI_DOUBLE_PRECISION, double);
	BASIC(MPI_COMPLEX, float _Complex);
	BASIC(MPI_DOUBLE_COMPLEX, double _Complex);
	BASIC(MPI_INTEGER1, int8_t);
	BASIC(MPI_INTEGER2, int16_t);
	BASIC(MPI_INTEGER4, int32_t);
	BASIC(MPI_INTEGER8, int64_t);
#ifdef DT_HAVE_INTEGER16
	BASIC(MPI_INTEGER16, dt_integer16_t);
#endif
	BASIC(MPI_REAL4, float);
	BASIC(MPI_REAL8, double);
	BASIC(MPI_COMPLEX8, float _Complex);
	BASIC(MPI_COMPLEX16, double _Complex);
#ifdef DT_HAVE_REAL16
	BASIC(MPI_REAL16, dt_real16_t);
	BASIC(MPI_COMPLEX32, dt_complex32_t);
#endif
	BASIC(MPI_LOGICAL1, int8_t);
	BASIC(MPI_LOGICAL2, int16_t);
	BASIC(MPI_LOGICAL4, int32_t);
	BASIC(MPI_LOGICAL8, int64_t);
	PAIR(MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER, dt_pair_2int);
	PAIR(MPI_2REAL, MPI_REAL, MPI_REAL, dt_pair_2real);
	PAIR(MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION,
	     dt_pair_2double);
	/* pairs of complex values: no MINLOC/MAXLOC (complex numbers are not
	 * ordered), only data movement, MPI_REPLACE and MPI_NO_OP */
	PAIR(MPI_2COMPLEX, MPI_COMPLEX, MPI_COMPLEX, dt_pair_2complex);
	PAIR(MPI_2DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX,
	     dt_pair_2double_complex);
	/* C++ (MPI 3.1, Annex A.1.1) as g++ lays it out: bool is one byte,
	 * std::complex<T> is laid out as T _Complex */
	BASIC(MPI_CXX_BOOL, bool);
	BASIC(MPI_CXX_FLOAT_COMPLEX, float _Complex);
	BASIC(MPI_CXX_DOUBLE_COMPLEX, double _Complex);
	BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex);
}

/* ---- lifetime ---------------------------------------------------------- */

void dt_ref(struct datatype *dt)
{
	if (!handle_is_builtin(dt->handle))
		dt->refs++;
}

void dt_unref(struct datatype *dt)
{
	if (!dt || handle_is_builtin(dt->handle) || --dt->refs > 0)
		return;
	for (int i = 0; i < dt->contents.nd; i++)
		dt_unref(dt->contents.types[i]);
	free(dt->contents.types);
	free(dt->contents.counts);
	free(dt->contents.aints);
	free(dt->contents.ints);
	free(dt->rruns);
	free(dt->blocks);
	free(dt);
}

/* ---- checks for other layers ------------------------------------------- */

int dt_check_use(MPI_Comm comm, const char *call, MPI_Datatype h,
		 struct datatype **out)
{
	struct datatype *dt = dt_get(h);

	if (!dt)
		return err_comm(comm, call, MPI_ERR_TYPE, "datatype",
				h == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
				"0x%x is not a valid datatype", (unsigned)h);
	if (!dt->committed)
		return err_comm(comm, call, MPI_ERR_TYPE, "datatype",
				"%s is not committed", dt->name[0] ? dt->name :
				"the derived datatype");
	*out = dt;
	return MPI_SUCCESS;
}

int dt_span(const struct datatype *dt, MPI_Count count, MPI_Aint *lo, MPI_Aint *hi)
{
	MPI_Aint step, l, h;

	if (count <= 0 || dt->size == 0) {
		*lo = *hi = 0;
		return 0;
	}
	/* element i covers [i * extent + true_lb, ... + true_extent) */
	if (__builtin_mul_overflow(count - 1, dt->extent, &step))
		return -EOVERFLOW;
	if (__builtin_add_overflow(dt->true_lb, step < 0 ? step : 0, &l) ||
	    __builtin_add_overflow(dt->true_lb + dt->true_extent, step > 0 ? step : 0,
				   &h))
		return -EOVERFLOW;
	*lo = l;
	*hi = h;
	return 0;
}

/* ---- the pack/unpack engine ------------------------------------------- */

/* The run of an element that holds stream byte `within` (< dt->size). */
static int dt_block_at(const struct datatype *dt, MPI_Aint within)
{
	int lo = 0, hi = dt->nblocks - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (dt->blocks[mid].pos <= within)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* user + disp, computed on integers: user may be MPI_BOTTOM (NULL) with
 * absolute displacements, and disp may be negative. */
static inline char *dt_at(char *user, MPI_Aint disp)
{
	return (char *)((uintptr_t)user + (uintptr_t)disp);
}

/* Walk the runs covering stream bytes [off, off + len): for each piece,
 * copy between the user buffer and the packed bytes (the contig types are
 * one memcpy, in dt_pack and dt_unpack themselves). */
static void dt_walk(const struct datatype *dt, char *user, size_t off, char *packed,
		    size_t len, int to_packed)
{
	size_t elem, done = 0;
	MPI_Aint within;
	int b;

	if (len == 0)
		return;
	elem = off / (size_t)dt->size;
	within = (MPI_Aint)(off % (size_t)dt->size);
	b = dt_block_at(dt, within);
	while (done < len) {
		const struct dt_block *blk = &dt->blocks[b];
		MPI_Aint skip = within - blk->pos;
		size_t n = (size_t)(blk->len - skip);
		char *p = dt_at(user, (MPI_Aint)elem * dt->extent + blk->disp + skip);

		if (n > len - done)
			n = len - done;
		if (to_packed)
			memcpy(packed + done, p, n);
		else
			memcpy(p, packed + done, n);
		done += n;
		within = 0;
		if (++b == dt->nblocks) {
			b = 0;
			elem++;
		} else {
			within = dt->blocks[b].pos;
		}
	}
}

void dt_walk_pack(const struct datatype *dt, const void *buf, size_t off, void *out,
		  size_t len)
{
	dt_walk(dt, (char *)buf, off, out, len, 1);
}

void dt_walk_unpack(const struct datatype *dt, void *buf, size_t off, const void *in,
		    size_t len)
{
	dt_walk(dt, buf, off, (char *)in, len, 0);
}

MPI_Count dt_count_basic(const struct datatype *dt, MPI_Count bytes)
{
	MPI_Count per_elem = 0, count, rest;

	if (dt->size == 0)
		return 0;
	for (int b = 0; b < dt->nblocks; b++)
		per_elem += dt->blocks[b].len / dt->blocks[b].basic_size;
	count = bytes / dt->size * per_elem;
	rest = bytes % dt->size;
	for (int b = 0; b < dt->nblocks && rest > 0; b++) {
		const struct dt_block *blk = &dt->blocks[b];
		MPI_Count take = rest < blk->len ? rest : blk->len;

		if (take % blk->basic_size)
			return MPI_UNDEFINED;
		count += take / blk->basic_size;
		rest -= take;
	}
	return count;
}

MPI_Count dt_bytes_of_basic(const struct datatype *dt, MPI_Count n)
{
	MPI_Count per_elem = 0, bytes;

	for (int b = 0; b < dt->nblocks; b++)
		per_elem += dt->blocks[b].len / dt->blocks[b].basic_size;
	if (per_elem == 0)
		return 0;
	bytes = n / per_elem * dt->size;
	n %= per_elem;
	for (int b = 0; b < dt->nblocks && n > 0; b++) {
		const struct dt_block *blk = &dt->blocks[b];
		MPI_Count in_run = blk->len / blk->basic_size;
		MPI_Count take = n < in_run ? n : in_run;

		bytes += take * blk->basic_size;
		n -= take;
	}
	return bytes;
}

void dt_copy(const void *sbuf, const struct datatype *sdt, void *rbuf,
	     const struct datatype *rdt, size_t bytes)
{
	char tmp[4096];

	if (sdt->contig && rdt->contig) {
		memmove((char *)rbuf + rdt->blocks[0].disp,
			(const char *)sbuf + sdt->blocks[0].disp, bytes);
		return;
	}
	for (size_t off = 0; off < bytes; off += sizeof(tmp)) {
		size_t n = bytes - off < sizeof(tmp) ? bytes - off : sizeof(tmp);

		dt_pack(sdt, sbuf, off, tmp, n);
		dt_unpack(rdt, rbuf, off, tmp, n);
	}
}

MPI_Aint dt_basic_per_elem(const struct datatype *dt)
{
	MPI_Aint n = 0;

	for (int i = 0; i < dt->nrruns; i++)
		n += dt->rruns[i].count;
	return n;
}

void dt_basic_copy(const struct datatype *dt, const struct datatype *bt,
		   const char *user_in, char *user_out, size_t first, size_t n,
		   char *array, int to_array)
{
	MPI_Aint per = dt_basic_per_elem(dt), e, within, o;
	int r = 0;

	if (n == 0 || per == 0)		/* a type without basic elements moves nothing */
		return;
	e = (MPI_Aint)first / per;
	within = (MPI_Aint)first % per;
	if (dt->contig && dt->nrruns == 1) {
		size_t at = (size_t)dt->rruns[0].disp + first * (size_t)bt->extent;

		if (to_array)
			memcpy(array, user_in + at, n * (size_t)bt->extent);
		else
			memcpy(user_out + at, array, n * (size_t)bt->extent);
		return;
	}
	while (within >= dt->rruns[r].count)
		within -= dt->rruns[r++].count;
	o = within;
	while (n > 0) {
		const struct dt_rrun *run = &dt->rruns[r];
		size_t m = (size_t)(run->count - o) < n ? (size_t)(run->count - o) : n;
		size_t at = (size_t)(e * dt->extent + run->disp + o * bt->extent);

		if (to_array)
			memcpy(array, user_in + at, m * (size_t)bt->extent);
		else
			memcpy(user_out + at, array, m * (size_t)bt->extent);
		array += m * (size_t)bt->extent;
		n -= m;
		o = 0;
		if (++r == dt->nrruns) {
			r = 0;
			e++;
		}
	}
}
