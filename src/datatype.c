/*
 * Datatype objects: the predefined ones, and the pack/unpack engine.
 */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "datatype.h"

/* The pair types of MAXLOC/MINLOC, laid out as C lays out these structs. */
struct pair_float_int { float v; int i; };
struct pair_double_int { double v; int i; };
struct pair_long_int { long v; int i; };
struct pair_2int { int v; int i; };
struct pair_short_int { short v; int i; };
struct pair_long_double_int { long double v; int i; };

#define DT_NBUILTIN 39

static struct datatype dt_builtins[DT_NBUILTIN];
static struct dt_block dt_builtin_blocks[DT_NBUILTIN][2];

static void dt_builtin(MPI_Datatype h, const char *name, MPI_Aint size)
{
	unsigned i = (unsigned)h & 0xff;
	struct datatype *dt = &dt_builtins[i];
	struct dt_block *b = dt_builtin_blocks[i];

	dt->handle = h;
	dt->refs = 1;
	dt->committed = 1;
	dt->size = dt->extent = dt->true_extent = size;
	dt->nblocks = 1;
	dt->blocks = b;
	b[0] = (struct dt_block){ .disp = 0, .len = size, .pos = 0,
				  .basic_size = (int)size };
	dt->contig = 1;
	snprintf(dt->name, sizeof(dt->name), "%s", name);
	handle_set_builtin(HANDLE_DATATYPE, i, dt);
}

/* A pair type: value of vsize at 0, an int at ioff, extent of the struct. */
static void dt_builtin_pair(MPI_Datatype h, const char *name, MPI_Aint vsize,
			    MPI_Aint ioff, MPI_Aint extent)
{
	unsigned i = (unsigned)h & 0xff;
	struct datatype *dt = &dt_builtins[i];
	struct dt_block *b = dt_builtin_blocks[i];

	dt_builtin(h, name, vsize);
	dt->size = vsize + (MPI_Aint)sizeof(int);
	dt->extent = extent;
	dt->true_extent = ioff + (MPI_Aint)sizeof(int);
	if (ioff == vsize && extent == dt->size && vsize == (MPI_Aint)sizeof(int)) {
		b[0].len = dt->size;	/* MPI_2INT: one run of ints */
		dt->nblocks = 1;
		dt->contig = 1;
		return;
	}
	b[1] = (struct dt_block){ .disp = ioff, .len = sizeof(int), .pos = vsize,
				  .basic_size = sizeof(int) };
	dt->nblocks = 2;
	dt->contig = 0;
}

#define PAIR(h, t) dt_builtin_pair(h, #h, sizeof(((struct t *)0)->v), \
				   offsetof(struct t, i), sizeof(struct t))

/* Needs no MPI_Init: the table only depends on the C ABI. */
void dt_init_builtins(void)
{
	dt_builtin(MPI_CHAR, "MPI_CHAR", sizeof(char));
	dt_builtin(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", sizeof(signed char));
	dt_builtin(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", sizeof(unsigned char));
	dt_builtin(MPI_BYTE, "MPI_BYTE", 1);
	dt_builtin(MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t));
	dt_builtin(MPI_SHORT, "MPI_SHORT", sizeof(short));
	dt_builtin(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(unsigned short));
	dt_builtin(MPI_INT, "MPI_INT", sizeof(int));
	dt_builtin(MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(unsigned));
	dt_builtin(MPI_LONG, "MPI_LONG", sizeof(long));
	dt_builtin(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(unsigned long));
	dt_builtin(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", sizeof(long long));
	dt_builtin(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG",
		   sizeof(unsigned long long));
	dt_builtin(MPI_FLOAT, "MPI_FLOAT", sizeof(float));
	dt_builtin(MPI_DOUBLE, "MPI_DOUBLE", sizeof(double));
	/* long double carries 10 bytes of data in 16 on x86-64; MPI moves all */
	dt_builtin(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double));
	dt_builtin(MPI_C_BOOL, "MPI_C_BOOL", sizeof(bool));
	dt_builtin(MPI_INT8_T, "MPI_INT8_T", 1);
	dt_builtin(MPI_INT16_T, "MPI_INT16_T", 2);
	dt_builtin(MPI_INT32_T, "MPI_INT32_T", 4);
	dt_builtin(MPI_INT64_T, "MPI_INT64_T", 8);
	dt_builtin(MPI_UINT8_T, "MPI_UINT8_T", 1);
	dt_builtin(MPI_UINT16_T, "MPI_UINT16_T", 2);
	dt_builtin(MPI_UINT32_T, "MPI_UINT32_T", 4);
	dt_builtin(MPI_UINT64_T, "MPI_UINT64_T", 8);
	dt_builtin(MPI_AINT, "MPI_AINT", sizeof(MPI_Aint));
	dt_builtin(MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count));
	dt_builtin(MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset));
	dt_builtin(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", sizeof(float _Complex));
	dt_builtin(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(double _Complex));
	dt_builtin(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX",
		   sizeof(long double _Complex));
	dt_builtin(MPI_PACKED, "MPI_PACKED", 1);
	PAIR(MPI_FLOAT_INT, pair_float_int);
	PAIR(MPI_DOUBLE_INT, pair_double_int);
	PAIR(MPI_LONG_INT, pair_long_int);
	PAIR(MPI_2INT, pair_2int);
	PAIR(MPI_SHORT_INT, pair_short_int);
	PAIR(MPI_LONG_DOUBLE_INT, pair_long_double_int);
}

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

/* Walk the runs covering stream bytes [off, off + len): for each piece,
 * copy between the user buffer and the packed bytes. */
static void dt_copy(const struct datatype *dt, char *user, size_t off, char *packed,
		    size_t len, int to_packed)
{
	size_t elem, done = 0;
	MPI_Aint within;
	int b;

	if (len == 0)
		return;
	if (dt->contig) {
		char *p = user + dt->blocks[0].disp + off;

		if (to_packed)
			memcpy(packed, p, len);
		else
			memcpy(p, packed, len);
		return;
	}
	elem = off / (size_t)dt->size;
	within = (MPI_Aint)(off % (size_t)dt->size);
	b = dt_block_at(dt, within);
	while (done < len) {
		const struct dt_block *blk = &dt->blocks[b];
		MPI_Aint skip = within - blk->pos;
		size_t n = (size_t)(blk->len - skip);
		char *p = user + (MPI_Aint)elem * dt->extent + blk->disp + skip;

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

void dt_pack(const struct datatype *dt, const void *buf, size_t off, void *out,
	     size_t len)
{
	dt_copy(dt, (char *)buf, off, out, len, 1);
}

void dt_unpack(const struct datatype *dt, void *buf, size_t off, const void *in,
	       size_t len)
{
	dt_copy(dt, buf, off, (char *)in, len, 0);
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
