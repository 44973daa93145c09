/*
 * Building a derived datatype's typemap from its constructor's arguments.
 *
 * Every constructor is a list of segments: n consecutive copies (stride =
 * the old type's extent) of an old type placed at a byte displacement.
 * contiguous is one segment; vector, hvector, the indexed family and struct
 * one per block; subarray one per row of its innermost dimension, darray
 * one per block of its innermost dimension; resized, dup and the Fortran 90
 * types one copy at 0.  Adding a segment
 *  - appends the old type's runs in typemap order, merging a run into the
 *    previous one when it continues it in memory with the same predefined
 *    type (so contiguous(n, MPI_INT) is one run; a run knows its type, for
 *    the conversions of MPI_Pack_external);
 *  - appends its reduction runs the same way while every basic element
 *    seen so far has the same predefined type;
 *  - widens the bounds to the copies' markers: n copies at disp cover
 *    [disp + lb + min(0, (n-1) extent), disp + ub + max(0, (n-1) extent)).
 * A segment with n = 0 is no part of the typemap: it adds nothing, not even
 * bounds.  Once all segments are in, a struct's extent is padded to the
 * alignment of its most strictly aligned member (as C pads a struct, and as
 * MPICH does) unless a member has explicit bounds; resized and subarray set
 * lb and extent outright.  The true bounds are those of the runs: exactly
 * the bytes the data occupies.
 *
 * Sizes and displacements are checked for MPI_Aint overflow; the first
 * error sticks in the builder and later steps do nothing.
 *
 * The builder reads a constructor's arguments in the layout of its int
 * form, widened (struct b_args): the int arguments as MPI_Count, the
 * addresses as MPI_Aint, wherever the contents keep them (in counts[] for
 * a large-count constructor), so both forms share every step below.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"

struct dt_build {
	struct datatype *dt;
	int bcap, rcap;		/* allocated blocks / rruns */
	MPI_Aint packed;	/* stream bytes of the runs so far */
	int any;		/* a segment with n > 0 was added */
	MPI_Aint lb, ub;
	MPI_Datatype basic;	/* of the data so far; 0 while there is none */
	MPI_Datatype first;	/* basic of the first old type, data or not */
	int mixed;
	int err;
};

/* A constructor's arguments as its int form lays them out, widened. */
struct b_args {
	MPI_Count *ints;	/* [ni] */
	MPI_Aint *aints;	/* [na] */
	int ni, na;
};

static void b_args_free(struct b_args *a)
{
	free(a->ints);
	free(a->aints);
}

/* The addresses of the int form, which a large-count form keeps at the
 * end of its counts. */
static int b_large_na(const struct dt_contents *c)
{
	switch (c->combiner) {
	case MPI_COMBINER_HVECTOR:
		return 1;
	case MPI_COMBINER_RESIZED:
		return 2;
	case MPI_COMBINER_HINDEXED:
	case MPI_COMBINER_HINDEXED_BLOCK:
	case MPI_COMBINER_STRUCT:
		return (int)c->counts[0];
	default:
		return 0;
	}
}

/* c's arguments in a: 0 or -ENOMEM. */
static int b_args_get(const struct dt_contents *c, struct b_args *a)
{
	const MPI_Count *cnt = c->counts;
	int nd, k;

	*a = (struct b_args){ 0 };
	if (!c->nc) {
		a->ni = c->ni;
		a->na = c->na;
	} else if (c->combiner == MPI_COMBINER_SUBARRAY) {
		a->ni = c->nc + 2;
	} else if (c->combiner == MPI_COMBINER_DARRAY) {
		a->ni = c->ni + c->nc;
	} else {
		a->na = b_large_na(c);
		a->ni = c->nc - a->na;
	}
	a->ints = malloc((size_t)(a->ni + 1) * sizeof(*a->ints));
	a->aints = malloc((size_t)(a->na + 1) * sizeof(*a->aints));
	if (!a->ints || !a->aints) {
		b_args_free(a);
		return -ENOMEM;
	}
	if (!c->nc) {
		for (k = 0; k < c->ni; k++)
			a->ints[k] = c->ints[k];
		for (k = 0; k < c->na; k++)
			a->aints[k] = c->aints[k];
	} else if (c->combiner == MPI_COMBINER_SUBARRAY) {
		/* ints: ndims, order; counts: sizes, subsizes, starts */
		a->ints[0] = c->ints[0];
		for (k = 0; k < c->nc; k++)
			a->ints[1 + k] = cnt[k];
		a->ints[1 + c->nc] = c->ints[1];
	} else if (c->combiner == MPI_COMBINER_DARRAY) {
		/* ints: size, rank, ndims, distribs, dargs, psizes, order;
		 * counts: gsizes, which come after ndims in the int form */
		nd = c->ints[2];
		for (k = 0; k < 3; k++)
			a->ints[k] = c->ints[k];
		for (k = 0; k < nd; k++)
			a->ints[3 + k] = cnt[k];
		for (k = 3; k < c->ni; k++)
			a->ints[nd + k] = c->ints[k];
	} else {
		for (k = 0; k < a->ni; k++)
			a->ints[k] = cnt[k];
		for (k = 0; k < a->na; k++)
			a->aints[k] = cnt[a->ni + k];
	}
	return 0;
}

static MPI_Aint b_mul(struct dt_build *b, MPI_Aint x, MPI_Aint y)
{
	MPI_Aint r;

	if (__builtin_mul_overflow(x, y, &r)) {
		b->err = -EOVERFLOW;
		return 0;
	}
	return r;
}

static MPI_Aint b_add(struct dt_build *b, MPI_Aint x, MPI_Aint y)
{
	MPI_Aint r;

	if (__builtin_add_overflow(x, y, &r)) {
		b->err = -EOVERFLOW;
		return 0;
	}
	return r;
}

/* Room for one more element in *arr (n used of *cap). */
static int b_grow(struct dt_build *b, void **arr, int *cap, int n, size_t elem)
{
	int ncap;
	void *p;

	if (n < *cap)
		return 0;
	if (n == INT_MAX) {
		b->err = -EOVERFLOW;
		return b->err;
	}
	ncap = *cap < 8 ? 8 : *cap > INT_MAX / 2 ? INT_MAX : 2 * *cap;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	*arr = p;
	*cap = ncap;
	return 0;
}

static void b_block(struct dt_build *b, MPI_Aint disp, MPI_Aint len, int basic_size,
		    MPI_Datatype type)
{
	struct datatype *dt = b->dt;
	struct dt_block *last = dt->nblocks ? &dt->blocks[dt->nblocks - 1] : NULL;
	MPI_Aint end;

	if (b->err)
		return;
	if (last && last->type == type &&
	    !__builtin_add_overflow(last->disp, last->len, &end) && end == disp) {
		last->len += len;
	} else {
		if (b_grow(b, (void **)&dt->blocks, &b->bcap, dt->nblocks,
			   sizeof(*dt->blocks)) < 0)
			return;
		dt->blocks[dt->nblocks++] = (struct dt_block){
			.disp = disp, .len = len, .pos = b->packed,
			.basic_size = basic_size, .type = type };
	}
	b->packed += len;
}

/* count basic elements of b->basic (extent bext) in C-array layout at disp */
static void b_rrun(struct dt_build *b, MPI_Aint disp, MPI_Aint count, MPI_Aint bext)
{
	struct datatype *dt = b->dt;
	struct dt_rrun *last = dt->nrruns ? &dt->rruns[dt->nrruns - 1] : NULL;
	MPI_Aint bytes, end;

	if (b->err)
		return;
	if (last && !__builtin_mul_overflow(last->count, bext, &bytes) &&
	    !__builtin_add_overflow(last->disp, bytes, &end) && end == disp) {
		last->count += count;
		return;
	}
	if (b_grow(b, (void **)&dt->rruns, &b->rcap, dt->nrruns, sizeof(*dt->rruns)) < 0)
		return;
	dt->rruns[dt->nrruns++] = (struct dt_rrun){ .disp = disp, .count = count };
}

/* The typemap and reduction runs of n copies of t at disp. */
static void b_data(struct dt_build *b, const struct datatype *t, MPI_Aint disp,
		   MPI_Aint n)
{
	const struct dt_block *tb = t->blocks;
	const struct dt_rrun *tr = t->rruns;
	MPI_Aint bext = 0;

	if (t->nblocks == 1 && tb[0].len == t->extent) {
		/* the copies are one gapless run */
		b_block(b, b_add(b, disp, tb[0].disp), b_mul(b, n, tb[0].len),
			tb[0].basic_size, tb[0].type);
	} else {
		for (MPI_Aint k = 0; k < n && !b->err; k++) {
			MPI_Aint base = b_add(b, disp, b_mul(b, k, t->extent));

			for (int i = 0; i < t->nblocks; i++)
				b_block(b, b_add(b, base, tb[i].disp), tb[i].len,
					tb[i].basic_size, tb[i].type);
		}
	}
	if (b->mixed)
		return;
	bext = dt_get(b->basic)->extent;
	if (t->nrruns == 1 && tr[0].count * bext == t->extent) {
		b_rrun(b, b_add(b, disp, tr[0].disp), b_mul(b, n, tr[0].count), bext);
		return;
	}
	for (MPI_Aint k = 0; k < n && !b->err; k++) {
		MPI_Aint base = b_add(b, disp, b_mul(b, k, t->extent));

		for (int i = 0; i < t->nrruns; i++)
			b_rrun(b, b_add(b, base, tr[i].disp), tr[i].count, bext);
	}
}

/* Add n consecutive copies of t at byte displacement disp. */
static void b_seg(struct dt_build *b, const struct datatype *t, MPI_Aint disp,
		  MPI_Aint n)
{
	struct datatype *dt = b->dt;
	MPI_Aint step, lo, hi;

	if (!b->first)
		b->first = t->basic;
	if (b->err || n == 0)
		return;
	step = b_mul(b, n - 1, t->extent);
	lo = b_add(b, b_add(b, disp, t->lb), step < 0 ? step : 0);
	hi = b_add(b, b_add(b, b_add(b, disp, t->lb), t->extent), step > 0 ? step : 0);
	dt->size = b_add(b, dt->size, b_mul(b, n, t->size));
	if (b->err)
		return;
	if (!b->any || lo < b->lb)
		b->lb = lo;
	if (!b->any || hi > b->ub)
		b->ub = hi;
	b->any = 1;
	if (t->align > dt->align)
		dt->align = t->align;
	dt->sticky |= t->sticky;
	if (t->size == 0)
		return;
	if (t->basic == MPI_DATATYPE_NULL || (b->basic && b->basic != t->basic))
		b->mixed = 1;
	b->basic = t->basic;
	b_data(b, t, disp, n);
}

/*
 * The rows of a subarray: an odometer over the outer dimensions (idx, by
 * speed, idx[0] unused), one segment per row of the fastest dimension.
 * stride[d] is dimension d's stride in bytes, dim[k] the k-th fastest.
 */
static void b_subarray_rows(struct dt_build *b, const struct dt_contents *c,
			    const struct b_args *a, const MPI_Aint *stride, MPI_Aint *idx,
			    const int *dim)
{
	const struct datatype *t = c->types[0];
	int nd = (int)a->ints[0];
	const MPI_Count *subsizes = a->ints + 1 + nd, *starts = a->ints + 1 + 2 * nd;
	MPI_Aint base = 0;
	int k;

	for (k = 0; k < nd; k++) {
		if (subsizes[k] == 0)
			return;		/* no data at all */
		base = b_add(b, base, b_mul(b, starts[k], stride[k]));
	}
	while (!b->err) {
		MPI_Aint disp = base;

		for (k = 1; k < nd; k++)
			disp = b_add(b, disp, b_mul(b, idx[k], stride[dim[k]]));
		b_seg(b, t, disp, subsizes[dim[0]]);
		for (k = 1; k < nd; k++) {
			if (++idx[k] < subsizes[dim[k]])
				break;
			idx[k] = 0;
		}
		if (k == nd)
			break;
	}
}

/* Subarray: the rows, then lb 0 and the whole array's extent (MPI-3.1 4.1.3). */
static void b_subarray(struct dt_build *b, const struct dt_contents *c,
		       const struct b_args *a)
{
	int nd = (int)a->ints[0];
	const MPI_Count *sizes = a->ints + 1;
	int fortran = a->ints[1 + 3 * nd] == MPI_ORDER_FORTRAN;
	MPI_Aint *stride = calloc((size_t)nd, sizeof(*stride));
	MPI_Aint *idx = calloc((size_t)nd, sizeof(*idx));
	int *dim = calloc((size_t)nd, sizeof(*dim));

	if (stride && idx && dim) {
		/* by speed: C's last index first, Fortran's first index first */
		for (int k = 0; k < nd; k++)
			dim[k] = fortran ? k : nd - 1 - k;
		stride[dim[0]] = c->types[0]->extent;
		for (int k = 1; k < nd; k++)
			stride[dim[k]] = b_mul(b, stride[dim[k - 1]], sizes[dim[k - 1]]);
		b_subarray_rows(b, c, a, stride, idx, dim);
		b->any = 1;
		b->lb = 0;
		b->ub = b_mul(b, stride[dim[nd - 1]], sizes[dim[nd - 1]]);
		b->dt->sticky = 1;
	} else {
		b->err = -ENOMEM;
	}
	free(dim);
	free(idx);
	free(stride);
}

/*
 * Darray (MPI 3.1, section 4.1.4), laid out as the standard builds it: per
 * dimension, from the fastest, the blocks this process owns -- block k at
 * global index (k * psize + coord) * darg, darg long or cut at the
 * dimension's end -- of the type of the faster dimensions, that type's
 * extent being the whole of those dimensions.  So the typemap lists the
 * slowest dimension's blocks first, each holding the faster dimensions'
 * blocks in order, and one segment per block of the fastest dimension;
 * lb is 0 and the extent the whole global array's (like subarray).
 */
struct b_darray_dim {
	MPI_Aint gsize, darg;
	int psize, coord;
	MPI_Aint stride;	/* bytes between two indices of this dimension */
};

/* The blocks of dimension dims[0] and, within each index, of the faster
 * ones (dims[1], ...), at byte displacement disp. */
static void b_darray_blocks(struct dt_build *b, const struct datatype *t,
			    const struct b_darray_dim *dims, int left, MPI_Aint disp)
{
	const struct b_darray_dim *d = &dims[0];
	MPI_Aint step = b_mul(b, d->darg, d->psize);

	for (MPI_Aint start = b_mul(b, d->coord, d->darg); start < d->gsize && !b->err;
	     start += step) {
		MPI_Aint len = d->gsize - start < d->darg ? d->gsize - start : d->darg;

		if (left == 1) {
			b_seg(b, t, b_add(b, disp, b_mul(b, start, d->stride)), len);
			continue;
		}
		for (MPI_Aint i = start; i < start + len && !b->err; i++)
			b_darray_blocks(b, t, dims + 1, left - 1,
					b_add(b, disp, b_mul(b, i, d->stride)));
	}
}

static void b_darray(struct dt_build *b, const struct dt_contents *c,
		     const struct b_args *a)
{
	const struct datatype *t = c->types[0];
	int nd = (int)a->ints[2], rank = (int)a->ints[1];
	const MPI_Count *gsizes = a->ints + 3, *distribs = a->ints + 3 + nd,
			*dargs = a->ints + 3 + 2 * nd, *psizes = a->ints + 3 + 3 * nd;
	int fortran = a->ints[3 + 4 * nd] == MPI_ORDER_FORTRAN;
	struct b_darray_dim *dims = calloc((size_t)nd, sizeof(*dims));
	MPI_Aint stride;

	if (!dims) {
		b->err = -ENOMEM;
		return;
	}
	/* the process grid is numbered in row-major order, whatever the
	 * array's order (4.1.4), so the last coordinate moves fastest */
	for (int i = nd - 1; i >= 0; i--) {
		struct b_darray_dim *d = &dims[fortran ? nd - 1 - i : i];

		d->gsize = gsizes[i];
		d->psize = (int)psizes[i];
		d->coord = rank % d->psize;
		rank /= d->psize;
		if (distribs[i] == MPI_DISTRIBUTE_NONE)
			d->darg = gsizes[i];
		else if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG)
			d->darg = dargs[i];
		else if (distribs[i] == MPI_DISTRIBUTE_CYCLIC)
			d->darg = 1;
		else
			d->darg = (gsizes[i] + psizes[i] - 1) / psizes[i];
	}
	/* dims[] is now slowest first; strides from the fastest */
	stride = t->extent;
	for (int k = nd - 1; k >= 0; k--) {
		dims[k].stride = stride;
		stride = b_mul(b, stride, dims[k].gsize);
	}
	b_darray_blocks(b, t, dims, nd, 0);
	b->any = 1;
	b->lb = 0;
	b->ub = stride;
	b->dt->sticky = 1;
	free(dims);
}

static void b_segments(struct dt_build *b, const struct dt_contents *c,
		       const struct b_args *a)
{
	struct datatype *t = c->nd ? c->types[0] : NULL;
	const MPI_Count *ints = a->ints;
	const MPI_Aint *aints = a->aints;
	MPI_Aint count = a->ni ? ints[0] : 0;

	switch (c->combiner) {
	case MPI_COMBINER_DUP:
	case MPI_COMBINER_RESIZED:
		b_seg(b, t, 0, 1);
		break;
	case MPI_COMBINER_CONTIGUOUS:
		b_seg(b, t, 0, count);
		break;
	case MPI_COMBINER_VECTOR:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, b_mul(b, b_mul(b, i, ints[2]), t->extent), ints[1]);
		break;
	case MPI_COMBINER_HVECTOR:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, b_mul(b, i, aints[0]), ints[1]);
		break;
	case MPI_COMBINER_INDEXED:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, b_mul(b, ints[1 + count + i], t->extent), ints[1 + i]);
		break;
	case MPI_COMBINER_HINDEXED:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, aints[i], ints[1 + i]);
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, b_mul(b, ints[2 + i], t->extent), ints[1]);
		break;
	case MPI_COMBINER_HINDEXED_BLOCK:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, t, aints[i], ints[1]);
		break;
	case MPI_COMBINER_STRUCT:
		for (MPI_Aint i = 0; i < count; i++)
			b_seg(b, c->types[i], aints[i], ints[1 + i]);
		break;
	case MPI_COMBINER_VALUE_INDEX:
		/* struct { value; index; } as C lays it out (MPI 4.1, 6.9.4) */
		b_seg(b, c->types[0], 0, 1);
		b_seg(b, c->types[1], (c->types[0]->extent + c->types[1]->align - 1) /
			  c->types[1]->align * c->types[1]->align, 1);
		break;
	case MPI_COMBINER_SUBARRAY:
		b_subarray(b, c, a);
		break;
	case MPI_COMBINER_DARRAY:
		b_darray(b, c, a);
		break;
	case MPI_COMBINER_F90_INTEGER:
	case MPI_COMBINER_F90_REAL:
	case MPI_COMBINER_F90_COMPLEX:
		/* laid out as the named type of its kind (dt_f90.c) */
		b_seg(b, dt_get(dt_f90_named(c)), 0, 1);
		break;
	default:
		b->err = -EINVAL;
		break;
	}
}

/* Bounds, padding, true bounds, basic type and contiguity once all is in. */
static void b_finish(struct dt_build *b, const struct dt_contents *c,
		     const struct b_args *a)
{
	struct datatype *dt = b->dt;
	MPI_Aint ext, true_ub = 0;

	if (!b->any)
		b->lb = b->ub = 0;
	ext = b->ub - b->lb;
	if ((c->combiner == MPI_COMBINER_STRUCT || c->combiner == MPI_COMBINER_VALUE_INDEX) &&
	    !dt->sticky && ext > 0 &&
	    ext % dt->align)
		b->ub = b_add(b, b->ub, dt->align - ext % dt->align);
	dt->lb = b->lb;
	dt->extent = b_add(b, b->ub, -b->lb);
	if (c->combiner == MPI_COMBINER_RESIZED) {
		dt->lb = a->aints[0];
		dt->extent = a->aints[1];
		dt->sticky = 1;
	}
	for (int i = 0; i < dt->nblocks; i++) {
		const struct dt_block *blk = &dt->blocks[i];
		MPI_Aint end = b_add(b, blk->disp, blk->len);

		if (i == 0 || blk->disp < dt->true_lb)
			dt->true_lb = blk->disp;
		if (i == 0 || end > true_ub)
			true_ub = end;
	}
	dt->true_extent = true_ub - dt->true_lb;
	if (b->mixed || !b->basic) {
		free(dt->rruns);
		dt->rruns = NULL;
		dt->nrruns = 0;
	}
	dt->basic = b->mixed ? MPI_DATATYPE_NULL : b->basic ? b->basic : b->first;
	if (!dt->basic)
		dt->basic = MPI_DATATYPE_NULL;
	dt->contig = dt->size > 0 && dt->size == dt->extent;
	for (int i = 1; i < dt->nblocks && dt->contig; i++)
		if (dt->blocks[i].disp != dt->blocks[i - 1].disp + dt->blocks[i - 1].len)
			dt->contig = 0;
}

static int contents_copy(struct dt_contents *to, const struct dt_contents *from)
{
	to->combiner = from->combiner;
	if (from->ni) {
		to->ints = malloc((size_t)from->ni * sizeof(*to->ints));
		if (!to->ints)
			return -ENOMEM;
		memcpy(to->ints, from->ints, (size_t)from->ni * sizeof(*to->ints));
		to->ni = from->ni;
	}
	if (from->na) {
		to->aints = malloc((size_t)from->na * sizeof(*to->aints));
		if (!to->aints)
			return -ENOMEM;
		memcpy(to->aints, from->aints, (size_t)from->na * sizeof(*to->aints));
		to->na = from->na;
	}
	if (from->nc) {
		to->counts = malloc((size_t)from->nc * sizeof(*to->counts));
		if (!to->counts)
			return -ENOMEM;
		memcpy(to->counts, from->counts, (size_t)from->nc * sizeof(*to->counts));
		to->nc = from->nc;
	}
	if (from->nd) {
		to->types = malloc((size_t)from->nd * sizeof(*to->types));
		if (!to->types)
			return -ENOMEM;
		for (int i = 0; i < from->nd; i++) {
			to->types[i] = from->types[i];
			dt_ref(to->types[i]);
		}
		to->nd = from->nd;
	}
	return 0;
}

int dt_create(const struct dt_contents *c, struct datatype **out)
{
	struct dt_build b = { 0 };
	struct b_args args;
	struct datatype *dt = calloc(1, sizeof(*dt));
	int rc;

	if (!dt)
		return -ENOMEM;
	dt->handle = MPI_DATATYPE_NULL;
	dt->refs = 1;
	dt->align = 1;
	rc = contents_copy(&dt->contents, c);
	if (rc < 0)
		goto err_unref;
	rc = b_args_get(&dt->contents, &args);
	if (rc < 0)
		goto err_unref;
	b.dt = dt;
	b_segments(&b, &dt->contents, &args);
	b_finish(&b, &dt->contents, &args);
	b_args_free(&args);
	rc = b.err;
	if (rc < 0)
		goto err_unref;
	/* give back what doubling over-allocated */
	if (b.bcap > dt->nblocks && dt->nblocks > 0) {
		struct dt_block *p = realloc(dt->blocks, (size_t)dt->nblocks *
					     sizeof(*dt->blocks));

		if (p)
			dt->blocks = p;
	}
	if (b.rcap > dt->nrruns && dt->nrruns > 0) {
		struct dt_rrun *p = realloc(dt->rruns, (size_t)dt->nrruns *
					    sizeof(*dt->rruns));

		if (p)
			dt->rruns = p;
	}
	*out = dt;
	return 0;

err_unref:
	dt_unref(dt);
	return rc;
}
