/*
 * The datatype calls: constructors, commit and free, the size and extent
 * queries, decoding (envelope and contents) and names.
 *
 * Each constructor checks its arguments, lays them out as
 * MPI_Type_get_contents will return them, and hands them to dt_create(),
 * which computes the typemap (dt_build.c); the contents are the one record
 * of how a type was made.  Types handed out by MPI_Type_get_contents for
 * derived inner types are new objects built from the inner type's contents
 * (the standard has the user free them), so every object keeps exactly one
 * handle.  Calls without a communicator raise errors on MPI_COMM_WORLD.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "attr.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

#define DT_COMM MPI_COMM_WORLD

/* The live type behind h (committed or not), or raise MPI_ERR_TYPE. */
static int dt_lookup(const char *call, const char *arg, MPI_Datatype h,
		     struct datatype **out)
{
	*out = dt_get(h);
	if (*out)
		return MPI_SUCCESS;
	return err_comm(DT_COMM, call, MPI_ERR_TYPE, arg,
			h == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
			"0x%x is not a valid datatype", (unsigned)h);
}

static int dt_null_arg(const char *call, const char *arg)
{
	return err_comm(DT_COMM, call, MPI_ERR_ARG, arg, "is NULL");
}

static int dt_check_count(const char *call, MPI_Count count)
{
	if (count < 0)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count", "%lld is negative",
				(long long)count);
	return MPI_SUCCESS;
}

static int dt_check_blocklength(const char *call, MPI_Count blocklength)
{
	if (blocklength < 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "blocklength",
				"%lld is negative", (long long)blocklength);
	return MPI_SUCCESS;
}

/* An array argument of n elements: present when n > 0. */
static int dt_check_array(const char *call, const char *arg, MPI_Count n, const void *a)
{
	if (n > 0 && !a)
		return dt_null_arg(call, arg);
	return MPI_SUCCESS;
}

static int dt_check_blocklengths(const char *call, MPI_Count n, const MPI_Count *bl)
{
	int rc = dt_check_array(call, "array_of_blocklengths", n, bl);

	for (MPI_Count i = 0; rc == MPI_SUCCESS && i < n; i++)
		if (bl[i] < 0)
			rc = err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_blocklengths",
				      "element %lld is %lld: negative", (long long)i,
				      (long long)bl[i]);
	return rc;
}

/*
 * The int forms' arrays, widened for the one implementation of each
 * constructor: ia[n] or aa[n] as MPI_Count in *out, NULL when both are
 * NULL or n is not positive (the implementation checks).  MPI_SUCCESS, or
 * MPI_ERR_NO_MEM after raising it; the caller frees *out.
 */
static int dt_widen(const char *call, const int *ia, const MPI_Aint *aa, MPI_Count n,
		    MPI_Count **out)
{
	*out = NULL;
	if (n <= 0 || (!ia && !aa))
		return MPI_SUCCESS;
	*out = malloc((size_t)n * sizeof(**out));
	if (!*out)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (MPI_Count i = 0; i < n; i++)
		(*out)[i] = ia ? ia[i] : aa[i];
	return MPI_SUCCESS;
}

/* The arguments every constructor has: count, a blocklength (0 when the
 * constructor has none), oldtype and newtype. */
static int dt_check_ctor(const char *call, MPI_Count count, MPI_Count blocklength,
			 MPI_Datatype oldtype, struct datatype **old,
			 const MPI_Datatype *newtype)
{
	int rc = dt_check_count(call, count);

	if (rc == MPI_SUCCESS)
		rc = dt_check_blocklength(call, blocklength);
	if (rc == MPI_SUCCESS)
		rc = dt_lookup(call, "oldtype", oldtype, old);
	if (rc == MPI_SUCCESS && !newtype)
		rc = dt_null_arg(call, "newtype");
	return rc;
}

/* The last arguments of the array constructors (subarray, darray): the
 * order, oldtype and newtype. */
static int dt_check_array_ctor(const char *call, int order, MPI_Datatype oldtype,
			       struct datatype **old, const MPI_Datatype *newtype)
{
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "order",
				"%d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
	return dt_check_ctor(call, 0, 0, oldtype, old, newtype);
}

/* Raise the error of a failed dt_create(). */
static int dt_err_create(const char *call, int err)
{
	if (err == -ENOMEM)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	return err_comm(DT_COMM, call, MPI_ERR_ARG, NULL,
			"the type's size or displacements overflow MPI_Aint");
}

int dt_make(const struct dt_contents *c, int committed, struct datatype **out)
{
	struct datatype *dt;
	int rc = dt_create(c, &dt);

	if (rc < 0)
		return rc;
	if (handle_alloc(HANDLE_DATATYPE, dt, &dt->handle) < 0) {
		dt->handle = MPI_DATATYPE_NULL;
		dt_unref(dt);
		return -ENOMEM;
	}
	dt->committed = committed;
	*out = dt;
	return 0;
}

/* Make the type of a constructor call and hand out its handle. */
static int dt_construct(const char *call, const struct dt_contents *c,
			MPI_Datatype *newtype)
{
	struct datatype *dt;
	int rc = dt_make(c, 0, &dt);

	if (rc < 0)
		return dt_err_create(call, rc);
	*newtype = dt->handle;
	return MPI_SUCCESS;
}

/* ---- constructors ------------------------------------------------------ */

/*
 * Each constructor has one implementation, on MPI_Count arguments, which
 * both forms call: the int form with its arrays widened (dt_widen), the
 * large-count form ("_c", MPI 4.1 section 2.5.8) with `large` set.  The
 * contents keep the arguments as the call had them (struct dt_contents):
 * ints and addresses for the int form, counts for the large one.
 */

static int dt_contiguous(const char *call, int large, MPI_Count count,
			 MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct datatype *old;
	int icount = (int)count;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_CONTIGUOUS, .ni = !large, .ints = &icount,
		.nc = large, .counts = &count, .nd = 1, .types = &old }, newtype);
}

API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_contiguous("MPI_Type_contiguous", 0, count, oldtype, newtype);
}

API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype,
			     MPI_Datatype *newtype))
{
	return dt_contiguous("MPI_Type_contiguous_c", 1, count, oldtype, newtype);
}

/*
 * Vector and hvector: the int forms' contents are ints = count,
 * blocklength, stride (vector) or ints = count, blocklength and aints =
 * stride (hvector); the large forms' counts = count, blocklength, stride.
 */
static int dt_vector(const char *call, int combiner, int large, MPI_Count count,
		     MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
		     MPI_Datatype *newtype)
{
	int h = combiner == MPI_COMBINER_HVECTOR;
	MPI_Count counts[3] = { count, blocklength, stride };
	int ints[3] = { (int)count, (int)blocklength, (int)stride };
	MPI_Aint astride = stride;
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, blocklength, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = combiner, .ni = large ? 0 : h ? 2 : 3, .ints = ints,
		.na = !large && h, .aints = &astride, .nc = large ? 3 : 0,
		.counts = counts, .nd = 1, .types = &old }, newtype);
}

API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
		       MPI_Datatype *newtype))
{
	return dt_vector("MPI_Type_vector", MPI_COMBINER_VECTOR, 0, count, blocklength,
			 stride, oldtype, newtype);
}

API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
			 MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_vector("MPI_Type_vector_c", MPI_COMBINER_VECTOR, 1, count, blocklength,
			 stride, oldtype, newtype);
}

API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
			       MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_vector("MPI_Type_create_hvector", MPI_COMBINER_HVECTOR, 0, count,
			 blocklength, stride, oldtype, newtype);
}

API(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength,
				 MPI_Count stride, MPI_Datatype oldtype,
				 MPI_Datatype *newtype))
{
	return dt_vector("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR, 1, count,
			 blocklength, stride, oldtype, newtype);
}

/*
 * The indexed family and struct.  The int forms' contents are
 *   indexed          ints = count, blocklengths[count], displacements[count]
 *   hindexed         ints = count, blocklengths[count]; aints = displacements
 *   indexed_block    ints = count, blocklength, displacements[count]
 *   hindexed_block   ints = count, blocklength; aints = displacements
 *   struct           ints = count, blocklengths[count]; aints = displacements;
 *                    types[count]
 * and the large forms' counts the same integers and displacements in that
 * order (MPI 4.1, section 5.1.13).
 */
struct dt_blocks {
	int combiner, large;
	MPI_Count count, blocklength;	/* blocklength: the _block forms' */
	const MPI_Count *blocklengths, *displacements;
};

/* The contents of x (types set by the caller) in *c, from arrays it
 * allocates: MPI_SUCCESS, or MPI_ERR_NO_MEM after raising it. */
static int dt_blocks_contents(const char *call, const struct dt_blocks *x,
			      struct dt_contents *c)
{
	int block = x->combiner == MPI_COMBINER_INDEXED_BLOCK ||
		    x->combiner == MPI_COMBINER_HINDEXED_BLOCK;
	int in_ints = x->combiner == MPI_COMBINER_INDEXED ||
		      x->combiner == MPI_COMBINER_INDEXED_BLOCK;
	int n = (int)x->count, nint = 1 + (block ? 1 : n) + n, k = 0;
	MPI_Count *all = malloc((size_t)nint * sizeof(*all));

	if (!all)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	all[k++] = x->count;
	if (block)
		all[k++] = x->blocklength;
	for (int i = 0; !block && i < n; i++)
		all[k++] = x->blocklengths[i];
	for (int i = 0; i < n; i++)
		all[k++] = x->displacements[i];
	c->combiner = x->combiner;
	if (x->large) {
		c->nc = nint;
		c->counts = all;
		return MPI_SUCCESS;
	}
	/* the int form: the displacements are ints or addresses */
	c->ni = in_ints ? nint : nint - n;
	c->na = in_ints ? 0 : n;
	c->ints = malloc((size_t)c->ni * sizeof(*c->ints));
	c->aints = malloc((size_t)(c->na + 1) * sizeof(*c->aints));
	if (!c->ints || !c->aints) {
		free(all);
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	for (k = 0; k < c->ni; k++)
		c->ints[k] = (int)all[k];
	for (int i = 0; i < c->na; i++)
		c->aints[i] = all[c->ni + i];
	free(all);
	return MPI_SUCCESS;
}

static void dt_contents_free(struct dt_contents *c)
{
	free(c->ints);
	free(c->aints);
	free(c->counts);
}

static int dt_indexed(const char *call, const struct dt_blocks *x, MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	int block = x->combiner == MPI_COMBINER_INDEXED_BLOCK ||
		    x->combiner == MPI_COMBINER_HINDEXED_BLOCK;
	struct dt_contents c = { 0 };
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, x->count, block ? x->blocklength : 0, oldtype, &old,
			   newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	if (x->count > (INT_MAX - 2) / 2)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count",
				"%lld blocks are more than a type can describe",
				(long long)x->count);
	if (!block) {
		rc = dt_check_blocklengths(call, x->count, x->blocklengths);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	rc = dt_check_array(call, "array_of_displacements", x->count, x->displacements);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = dt_blocks_contents(call, x, &c);
	if (rc != MPI_SUCCESS)
		return rc;
	c.nd = 1;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	dt_contents_free(&c);
	return rc;
}

/* The int forms of the indexed family: the arrays widened. */
static int dt_indexed_int(const char *call, int combiner, int count, int blocklength,
			  const int *blocklengths, const int *idisps,
			  const MPI_Aint *adisps, MPI_Datatype oldtype,
			  MPI_Datatype *newtype)
{
	struct dt_blocks x = { .combiner = combiner, .count = count,
			       .blocklength = blocklength };
	MPI_Count *bl = NULL, *disps = NULL;
	int rc = MPI_SUCCESS;

	runtime_check(call);
	/* a count that dt_indexed refuses needs no arrays */
	if (count <= (INT_MAX - 2) / 2)
		rc = dt_widen(call, blocklengths, NULL, count, &bl);
	if (rc == MPI_SUCCESS && count <= (INT_MAX - 2) / 2)
		rc = dt_widen(call, idisps, adisps, count, &disps);
	if (rc == MPI_SUCCESS) {
		x.blocklengths = bl;
		x.displacements = disps;
		rc = dt_indexed(call, &x, oldtype, newtype);
	}
	free(disps);
	free(bl);
	return rc;
}

API(int, Type_indexed, (int count, const int array_of_blocklengths[],
			const int array_of_displacements[], MPI_Datatype oldtype,
			MPI_Datatype *newtype))
{
	return dt_indexed_int("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, 0,
			      array_of_blocklengths, array_of_displacements, NULL,
			      oldtype, newtype);
}

API(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
			  const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
			  MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_indexed_c", &(struct dt_blocks){
		MPI_COMBINER_INDEXED, 1, count, 0, array_of_blocklengths,
		array_of_displacements }, oldtype, newtype);
}

API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
				const MPI_Aint array_of_displacements[],
				MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed_int("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count,
			      0, array_of_blocklengths, NULL, array_of_displacements,
			      oldtype, newtype);
}

API(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
				  const MPI_Count array_of_displacements[],
				  MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_hindexed_c", &(struct dt_blocks){
		MPI_COMBINER_HINDEXED, 1, count, 0, array_of_blocklengths,
		array_of_displacements }, oldtype, newtype);
}

API(int, Type_create_indexed_block, (int count, int blocklength,
				     const int array_of_displacements[],
				     MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed_int("MPI_Type_create_indexed_block",
			      MPI_COMBINER_INDEXED_BLOCK, count, blocklength, NULL,
			      array_of_displacements, NULL, oldtype, newtype);
}

API(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
				       const MPI_Count array_of_displacements[],
				       MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_indexed_block_c", &(struct dt_blocks){
		MPI_COMBINER_INDEXED_BLOCK, 1, count, blocklength, NULL,
		array_of_displacements }, oldtype, newtype);
}

API(int, Type_create_hindexed_block, (int count, int blocklength,
				      const MPI_Aint array_of_displacements[],
				      MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed_int("MPI_Type_create_hindexed_block",
			      MPI_COMBINER_HINDEXED_BLOCK, count, blocklength, NULL, NULL,
			      array_of_displacements, oldtype, newtype);
}

API(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
					const MPI_Count array_of_displacements[],
					MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_hindexed_block_c", &(struct dt_blocks){
		MPI_COMBINER_HINDEXED_BLOCK, 1, count, blocklength, NULL,
		array_of_displacements }, oldtype, newtype);
}

static int dt_struct(const char *call, const struct dt_blocks *x,
		     const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
	struct dt_contents c = { 0 };
	struct datatype **types = NULL;
	int rc;

	runtime_check(call);
	rc = dt_check_count(call, x->count);
	if (rc != MPI_SUCCESS)
		return rc;
	if (x->count > (INT_MAX - 2) / 2)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count",
				"%lld blocks are more than a type can describe",
				(long long)x->count);
	rc = dt_check_blocklengths(call, x->count, x->blocklengths);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_displacements", x->count,
				    x->displacements);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_types", x->count, array_of_types);
	if (rc != MPI_SUCCESS)
		return rc;
	for (int i = 0; i < x->count; i++)
		if (!dt_get(array_of_types[i]))
			return err_comm(DT_COMM, call, MPI_ERR_TYPE, "array_of_types",
					array_of_types[i] == MPI_DATATYPE_NULL ?
					"element %d is MPI_DATATYPE_NULL" :
					"element %d, 0x%x, is not a valid datatype", i,
					(unsigned)array_of_types[i]);
	if (!newtype)
		return dt_null_arg(call, "newtype");

	types = malloc((size_t)(x->count ? x->count : 1) * sizeof(*types));
	if (!types)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int i = 0; i < x->count; i++)
		types[i] = dt_get(array_of_types[i]);
	rc = dt_blocks_contents(call, x, &c);
	if (rc == MPI_SUCCESS) {
		c.nd = (int)x->count;
		c.types = types;
		rc = dt_construct(call, &c, newtype);
		dt_contents_free(&c);
	}
	free(types);
	return rc;
}

API(int, Type_create_struct, (int count, const int array_of_blocklengths[],
			      const MPI_Aint array_of_displacements[],
			      const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_struct";
	MPI_Count *bl = NULL, *disps = NULL;
	int rc = MPI_SUCCESS;

	runtime_check(call);
	/* a count that dt_struct refuses needs no arrays */
	if (count <= (INT_MAX - 2) / 2)
		rc = dt_widen(call, array_of_blocklengths, NULL, count, &bl);
	if (rc == MPI_SUCCESS && count <= (INT_MAX - 2) / 2)
		rc = dt_widen(call, NULL, array_of_displacements, count, &disps);
	if (rc == MPI_SUCCESS)
		rc = dt_struct(call, &(struct dt_blocks){ MPI_COMBINER_STRUCT, 0, count, 0,
							  bl, disps }, array_of_types,
			       newtype);
	free(disps);
	free(bl);
	return rc;
}

API(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
				const MPI_Count array_of_displacements[],
				const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
{
	return dt_struct("MPI_Type_create_struct_c", &(struct dt_blocks){
		MPI_COMBINER_STRUCT, 1, count, 0, array_of_blocklengths,
		array_of_displacements }, array_of_types, newtype);
}

/*
 * Subarray: the int form's contents are ints = ndims, sizes[ndims],
 * subsizes[ndims], starts[ndims], order; the large form's ints = ndims,
 * order and counts = sizes, subsizes, starts.  dims[] holds the three
 * arrays one after the other.
 */
static int dt_subarray(const char *call, int large, int ndims, const MPI_Count *dims,
		       int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct dt_contents c = { .combiner = MPI_COMBINER_SUBARRAY, .nd = 1 };
	static const char *const names[3] = { "array_of_sizes", "array_of_subsizes",
					       "array_of_starts" };
	struct datatype *old;
	int *ints, rc;

	for (int i = 0; i < ndims; i++) {
		MPI_Count size = dims[i], sub = dims[ndims + i], start = dims[2 * ndims + i];

		if (size <= 0)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, names[0],
					"element %d is %lld: not positive", i,
					(long long)size);
		if (sub < 0 || sub > size)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, names[1],
					"element %d is %lld: not in [0, %lld]", i,
					(long long)sub, (long long)size);
		if (start < 0 || start > size - sub)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, names[2],
					"element %d is %lld: not in [0, %lld]", i,
					(long long)start, (long long)(size - sub));
	}
	rc = dt_check_array_ctor(call, order, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;

	c.ni = large ? 2 : 3 * ndims + 2;
	ints = malloc((size_t)c.ni * sizeof(*ints));
	if (!ints)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	ints[0] = ndims;
	for (int k = 0; !large && k < 3 * ndims; k++)
		ints[1 + k] = (int)dims[k];
	ints[c.ni - 1] = order;
	c.ints = ints;
	c.nc = large ? 3 * ndims : 0;
	c.counts = (MPI_Count *)dims;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	free(ints);
	return rc;
}

/* The three arrays of a subarray, checked and laid out for dt_subarray
 * (from the int or the large form): MPI_SUCCESS, or the error raised. */
static int dt_subarray_dims(const char *call, int ndims, const int *const iarr[3],
			    const MPI_Count *const carr[3], MPI_Count **dims)
{
	static const char *const names[3] = { "array_of_sizes", "array_of_subsizes",
					       "array_of_starts" };
	int rc = MPI_SUCCESS;

	*dims = NULL;
	if (ndims <= 0 || ndims > (INT_MAX - 2) / 3)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "ndims",
				"%d is not a positive number of dimensions", ndims);
	for (int k = 0; k < 3 && rc == MPI_SUCCESS; k++)
		rc = dt_check_array(call, names[k], ndims,
				    iarr ? (const void *)iarr[k] : (const void *)carr[k]);
	if (rc != MPI_SUCCESS)
		return rc;
	*dims = malloc(3 * (size_t)ndims * sizeof(**dims));
	if (!*dims)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < ndims; i++)
			(*dims)[k * ndims + i] = iarr ? iarr[k][i] : carr[k][i];
	return MPI_SUCCESS;
}

API(int, Type_create_subarray, (int ndims, const int array_of_sizes[],
				const int array_of_subsizes[], const int array_of_starts[],
				int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_subarray";
	const int *arrays[3] = { array_of_sizes, array_of_subsizes, array_of_starts };
	MPI_Count *dims;
	int rc;

	runtime_check(call);
	rc = dt_subarray_dims(call, ndims, arrays, NULL, &dims);
	if (rc == MPI_SUCCESS)
		rc = dt_subarray(call, 0, ndims, dims, order, oldtype, newtype);
	free(dims);
	return rc;
}

API(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[],
				  const MPI_Count array_of_subsizes[],
				  const MPI_Count array_of_starts[], int order,
				  MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_subarray_c";
	const MPI_Count *arrays[3] = { array_of_sizes, array_of_subsizes,
				       array_of_starts };
	MPI_Count *dims;
	int rc;

	runtime_check(call);
	rc = dt_subarray_dims(call, ndims, NULL, arrays, &dims);
	if (rc == MPI_SUCCESS)
		rc = dt_subarray(call, 1, ndims, dims, order, oldtype, newtype);
	free(dims);
	return rc;
}

/* The arguments of one dimension of a darray (MPI 3.1, section 4.1.4). */
static int dt_check_darray_dim(const char *call, int i, MPI_Count gsize, int distrib,
			       int darg, int psize)
{
	if (gsize <= 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_gsizes",
				"element %d is %lld: not positive", i, (long long)gsize);
	if (psize <= 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_psizes",
				"element %d is %d: not positive", i, psize);
	if (distrib != MPI_DISTRIBUTE_BLOCK && distrib != MPI_DISTRIBUTE_CYCLIC &&
	    distrib != MPI_DISTRIBUTE_NONE)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_distribs",
				"element %d is %d: none of MPI_DISTRIBUTE_BLOCK, _CYCLIC "
				"and _NONE", i, distrib);
	if (distrib == MPI_DISTRIBUTE_NONE && psize != 1)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_psizes",
				"element %d is %d: a dimension of MPI_DISTRIBUTE_NONE "
				"is not distributed, its grid size must be 1", i, psize);
	if (distrib != MPI_DISTRIBUTE_NONE && darg != MPI_DISTRIBUTE_DFLT_DARG &&
	    darg <= 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_dargs",
				"element %d is %d: neither positive nor "
				"MPI_DISTRIBUTE_DFLT_DARG", i, darg);
	if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
	    (MPI_Count)darg * psize < gsize)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_dargs",
				"element %d is %d: %d blocks of it do not cover the %lld "
				"elements of the dimension", i, darg, psize,
				(long long)gsize);
	return MPI_SUCCESS;
}

/*
 * The contents of the int form: size, rank, ndims, gsizes[ndims],
 * distribs[ndims], dargs[ndims], psizes[ndims], order (MPI 3.1, section
 * 4.1.13); of the large form the same ints but gsizes, which are its
 * counts.  The typemap comes from them (dt_build.c).  One of igsizes and
 * cgsizes is given.
 */
static int dt_darray(const char *call, int size, int rank, int ndims,
		     const int *igsizes, const MPI_Count *cgsizes, const int *distribs,
		     const int *dargs, const int *psizes, int order, MPI_Datatype oldtype,
		     MPI_Datatype *newtype)
{
	struct dt_contents c = { .combiner = MPI_COMBINER_DARRAY, .nd = 1 };
	const int *arrays[3] = { distribs, dargs, psizes };
	static const char *const names[3] = { "array_of_distribs", "array_of_dargs",
					       "array_of_psizes" };
	int large = cgsizes != NULL;
	MPI_Count *gsizes = NULL;
	struct datatype *old;
	MPI_Aint procs = 1;
	int *ints, rc = MPI_SUCCESS, at;

	runtime_check(call);
	if (size <= 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "size", "%d is not positive",
				size);
	if (rank < 0 || rank >= size)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "rank", "%d is not in [0, %d)",
				rank, size);
	if (ndims <= 0 || ndims > (INT_MAX - 4) / 4)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "ndims",
				"%d is not a positive number of dimensions", ndims);
	rc = dt_check_array(call, "array_of_gsizes", ndims,
			    large ? (const void *)cgsizes : (const void *)igsizes);
	for (int k = 0; k < 3 && rc == MPI_SUCCESS; k++)
		rc = dt_check_array(call, names[k], ndims, arrays[k]);
	if (rc == MPI_SUCCESS)
		rc = dt_widen(call, igsizes, NULL, ndims, &gsizes);
	for (int i = 0; i < ndims && rc == MPI_SUCCESS; i++) {
		rc = dt_check_darray_dim(call, i, large ? cgsizes[i] : gsizes[i],
					 distribs[i], dargs[i], psizes[i]);
		if (procs <= size)
			procs *= psizes[i];
	}
	if (rc == MPI_SUCCESS && procs != size)
		rc = err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_psizes",
			      "the process grid does not have size (%d) processes", size);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array_ctor(call, order, oldtype, &old, newtype);
	free(gsizes);
	if (rc != MPI_SUCCESS)
		return rc;

	c.ni = (large ? 3 : 4) * ndims + 4;
	ints = malloc((size_t)c.ni * sizeof(*ints));
	if (!ints)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	ints[0] = size;
	ints[1] = rank;
	ints[2] = ndims;
	at = 3;
	if (!large) {
		memcpy(ints + at, igsizes, (size_t)ndims * sizeof(*ints));
		at += ndims;
	}
	for (int k = 0; k < 3; k++, at += ndims)
		memcpy(ints + at, arrays[k], (size_t)ndims * sizeof(*ints));
	ints[at] = order;
	c.ints = ints;
	c.nc = large ? ndims : 0;
	c.counts = (MPI_Count *)cgsizes;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	free(ints);
	return rc;
}

API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
			      const int array_of_distribs[], const int array_of_dargs[],
			      const int array_of_psizes[], int order, MPI_Datatype oldtype,
			      MPI_Datatype *newtype))
{
	return dt_darray("MPI_Type_create_darray", size, rank, ndims, array_of_gsizes,
			 NULL, array_of_distribs, array_of_dargs, array_of_psizes, order,
			 oldtype, newtype);
}

API(int, Type_create_darray_c, (int size, int rank, int ndims,
				const MPI_Count array_of_gsizes[],
				const int array_of_distribs[], const int array_of_dargs[],
				const int array_of_psizes[], int order,
				MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_darray("MPI_Type_create_darray_c", size, rank, ndims, NULL,
			 array_of_gsizes, array_of_distribs, array_of_dargs,
			 array_of_psizes, order, oldtype, newtype);
}

/* Resized: the int form's contents are aints = lb, extent, the large
 * form's counts = lb, extent. */
static int dt_resized(const char *call, int large, MPI_Datatype oldtype, MPI_Count lb,
		      MPI_Count extent, MPI_Datatype *newtype)
{
	MPI_Aint aints[2] = { lb, extent };
	MPI_Count counts[2] = { lb, extent };
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, 0, 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_RESIZED, .na = large ? 0 : 2, .aints = aints,
		.nc = large ? 2 : 0, .counts = counts, .nd = 1, .types = &old }, newtype);
}

API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
			       MPI_Datatype *newtype))
{
	return dt_resized("MPI_Type_create_resized", 0, oldtype, lb, extent, newtype);
}

API(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
				 MPI_Datatype *newtype))
{
	return dt_resized("MPI_Type_create_resized_c", 1, oldtype, lb, extent, newtype);
}

/*
 * The type of a (value, index) pair for MPI_MINLOC and MPI_MAXLOC (MPI 4.1,
 * section 6.9.4), of two predefined types: the predefined pair type where
 * there is one (MPI_FLOAT and MPI_INT give MPI_FLOAT_INT), else a new
 * committed type, struct { value; index; } as C lays it out, of combiner
 * MPI_COMBINER_VALUE_INDEX, which the program frees.
 */
API(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type,
				MPI_Datatype *pair_type))
{
	static const char call[] = "MPI_Type_get_value_index";
	static const MPI_Datatype named[][3] = {
		{ MPI_FLOAT, MPI_INT, MPI_FLOAT_INT },
		{ MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT },
		{ MPI_LONG, MPI_INT, MPI_LONG_INT },
		{ MPI_INT, MPI_INT, MPI_2INT },
		{ MPI_SHORT, MPI_INT, MPI_SHORT_INT },
		{ MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT },
		{ MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER },
		{ MPI_REAL, MPI_REAL, MPI_2REAL },
		{ MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION },
	};
	struct datatype *types[2];
	struct datatype *dt;
	int rc;

	runtime_check(call);
	rc = dt_lookup(call, "value_type", value_type, &types[0]);
	if (rc == MPI_SUCCESS)
		rc = dt_lookup(call, "index_type", index_type, &types[1]);
	if (rc != MPI_SUCCESS)
		return rc;
	for (int k = 0; k < 2; k++)
		if (types[k]->contents.combiner != MPI_COMBINER_NAMED)
			return err_comm(DT_COMM, call, MPI_ERR_TYPE,
					k ? "index_type" : "value_type",
					"is not a predefined datatype");
	if (!pair_type)
		return dt_null_arg(call, "pair_type");
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		if (named[k][0] == value_type && named[k][1] == index_type) {
			*pair_type = named[k][2];
			return MPI_SUCCESS;
		}
	rc = dt_make(&(struct dt_contents){ .combiner = MPI_COMBINER_VALUE_INDEX, .nd = 2,
					    .types = types }, 1, &dt);
	if (rc < 0)
		return dt_err_create(call, rc);
	*pair_type = dt->handle;
	return MPI_SUCCESS;
}

/* A duplicate keeps the committed state of its original (MPI-3.1 4.1.10)
 * and gets copies of its attributes as their copy callbacks say (6.7.4). */
API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_dup";
	struct datatype *old, *dt;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, 0, 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = dt_make(&(struct dt_contents){ .combiner = MPI_COMBINER_DUP, .nd = 1,
					    .types = &old }, old->committed, &dt);
	if (rc < 0)
		return dt_err_create(call, rc);
	rc = attr_copy_all(ATTR_TYPE, oldtype, old->attrs, dt->handle, &dt->attrs);
	if (rc != MPI_SUCCESS) {
		/* no new type: the copies made so far are deleted again */
		attr_delete_all(ATTR_TYPE, dt->handle, &dt->attrs);
		handle_release(dt->handle);
		dt_unref(dt);
		return err_comm(DT_COMM, call, rc, "oldtype",
				"an attribute copy callback failed");
	}
	*newtype = dt->handle;
	return MPI_SUCCESS;
}

/* ---- commit and free --------------------------------------------------- */

API(int, Type_commit, (MPI_Datatype *datatype))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_commit");
	if (!datatype)
		return dt_null_arg("MPI_Type_commit", "datatype");
	rc = dt_lookup("MPI_Type_commit", "datatype", *datatype, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	/* the typemap was flattened at construction: nothing more to do */
	dt->committed = 1;
	return MPI_SUCCESS;
}

/* The handle goes now; the object stays while a type built on it or a
 * pending operation holds a reference. */
API(int, Type_free, (MPI_Datatype *datatype))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_free");
	if (!datatype)
		return dt_null_arg("MPI_Type_free", "datatype");
	rc = dt_lookup("MPI_Type_free", "datatype", *datatype, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (dt_predefined(dt))
		return err_comm(DT_COMM, "MPI_Type_free", MPI_ERR_TYPE, "datatype",
				"%s is predefined and cannot be freed",
				dt->name[0] ? dt->name : "the MPI_Type_create_f90_* type");
	/* the attributes go with the handle (MPI-3.1 section 6.7.4) */
	attr_delete_all(ATTR_TYPE, *datatype, &dt->attrs);
	handle_release(*datatype);
	dt_unref(dt);
	*datatype = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

/* ---- size and extent --------------------------------------------------- */

/* The type behind h and the output pointers, all checked. */
static int dt_query(const char *call, MPI_Datatype h, struct datatype **dt,
		    const void *out1, const char *name1, const void *out2,
		    const char *name2)
{
	int rc;

	runtime_check(call);
	rc = dt_lookup(call, "datatype", h, dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!out1)
		return dt_null_arg(call, name1);
	if (name2 && !out2)
		return dt_null_arg(call, name2);
	return MPI_SUCCESS;
}

API(int, Type_size, (MPI_Datatype datatype, int *size))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_size", datatype, &dt, size, "size", NULL, NULL);

	if (rc != MPI_SUCCESS)
		return rc;
	*size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
	return MPI_SUCCESS;
}

API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_size_x", datatype, &dt, size, "size", NULL, NULL);

	if (rc != MPI_SUCCESS)
		return rc;
	*size = dt->size;
	return MPI_SUCCESS;
}

API(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_size_c", datatype, &dt, size, "size", NULL, NULL);

	if (rc != MPI_SUCCESS)
		return rc;
	*size = dt->size;
	return MPI_SUCCESS;
}

API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_extent", datatype, &dt, lb, "lb", extent,
			  "extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*lb = dt->lb;
	*extent = dt->extent;
	return MPI_SUCCESS;
}

API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_extent_x", datatype, &dt, lb, "lb", extent,
			  "extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*lb = dt->lb;
	*extent = dt->extent;
	return MPI_SUCCESS;
}

API(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_extent_c", datatype, &dt, lb, "lb", extent,
			  "extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*lb = dt->lb;
	*extent = dt->extent;
	return MPI_SUCCESS;
}

API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb,
				MPI_Aint *true_extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_true_extent", datatype, &dt, true_lb,
			  "true_lb", true_extent, "true_extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*true_lb = dt->true_lb;
	*true_extent = dt->true_extent;
	return MPI_SUCCESS;
}

API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb,
				  MPI_Count *true_extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_true_extent_x", datatype, &dt, true_lb,
			  "true_lb", true_extent, "true_extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*true_lb = dt->true_lb;
	*true_extent = dt->true_extent;
	return MPI_SUCCESS;
}

API(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb,
				  MPI_Count *true_extent))
{
	struct datatype *dt;
	int rc = dt_query("MPI_Type_get_true_extent_c", datatype, &dt, true_lb,
			  "true_lb", true_extent, "true_extent");

	if (rc != MPI_SUCCESS)
		return rc;
	*true_lb = dt->true_lb;
	*true_extent = dt->true_extent;
	return MPI_SUCCESS;
}

/* ---- decoding ---------------------------------------------------------- */

/*
 * The envelope, as MPI 4.1 section 5.1.13 gives it: the large form
 * counts the large counts too.  A type made by a large-count constructor
 * has arguments the int forms cannot return: they raise MPI_ERR_TYPE.
 */
static int dt_envelope(const char *call, MPI_Datatype datatype, int large,
		       const void *ni, const void *na, const void *nc, const void *nd,
		       const int *combiner, struct datatype **dt)
{
	int rc = dt_query(call, datatype, dt, ni, "num_integers", na, "num_addresses");

	if (rc != MPI_SUCCESS)
		return rc;
	if (large && !nc)
		return dt_null_arg(call, "num_large_counts");
	if (!nd || !combiner)
		return dt_null_arg(call, !nd ? "num_datatypes" : "combiner");
	if (!large && (*dt)->contents.nc)
		return err_comm(DT_COMM, call, MPI_ERR_TYPE, "datatype",
				"was made by a large-count constructor: its %d large "
				"counts need %s_c", (*dt)->contents.nc, call);
	return MPI_SUCCESS;
}

API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers,
			     int *num_addresses, int *num_datatypes, int *combiner))
{
	struct datatype *dt;
	int rc = dt_envelope("MPI_Type_get_envelope", datatype, 0, num_integers,
			     num_addresses, NULL, num_datatypes, combiner, &dt);

	if (rc != MPI_SUCCESS)
		return rc;
	*num_integers = dt->contents.ni;
	*num_addresses = dt->contents.na;
	*num_datatypes = dt->contents.nd;
	*combiner = dt->contents.combiner;
	return MPI_SUCCESS;
}

API(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers,
			       MPI_Count *num_addresses, MPI_Count *num_large_counts,
			       MPI_Count *num_datatypes, int *combiner))
{
	struct datatype *dt;
	int rc = dt_envelope("MPI_Type_get_envelope_c", datatype, 1, num_integers,
			     num_addresses, num_large_counts, num_datatypes, combiner, &dt);

	if (rc != MPI_SUCCESS)
		return rc;
	*num_integers = dt->contents.ni;
	*num_addresses = dt->contents.na;
	*num_large_counts = dt->contents.nc;
	*num_datatypes = dt->contents.nd;
	*combiner = dt->contents.combiner;
	return MPI_SUCCESS;
}

/* What MPI_Type_get_contents(_c) are given: the room of each array, and
 * the arrays (counts: NULL for the int form, which has none). */
struct dt_contents_out {
	MPI_Count max_integers, max_addresses, max_large_counts, max_datatypes;
	int *integers;
	MPI_Aint *addresses;
	MPI_Count *large_counts;
	MPI_Datatype *datatypes;
};

/*
 * Predefined inner types (named ones and those of MPI_Type_create_f90_*)
 * are returned as themselves; a derived one as a new
 * type built from its contents, committed as it is: the caller frees it.
 */
static int dt_get_contents(const char *call, MPI_Datatype datatype, int large,
			   const struct dt_contents_out *o)
{
	const struct dt_contents *c;
	struct datatype *dt;
	int rc, made;

	runtime_check(call);
	rc = dt_lookup(call, "datatype", datatype, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	c = &dt->contents;
	if (c->combiner == MPI_COMBINER_NAMED)
		return err_comm(DT_COMM, call, MPI_ERR_TYPE, "datatype",
				"%s is predefined (MPI_COMBINER_NAMED): it has no "
				"contents", dt->name);
	if (!large && c->nc)
		return err_comm(DT_COMM, call, MPI_ERR_TYPE, "datatype",
				"was made by a large-count constructor: its %d large "
				"counts need %s_c", c->nc, call);
	if (o->max_integers < c->ni || o->max_addresses < c->na ||
	    o->max_large_counts < c->nc || o->max_datatypes < c->nd)
		return err_comm(DT_COMM, call, MPI_ERR_ARG,
				o->max_integers < c->ni ? "max_integers" :
				o->max_addresses < c->na ? "max_addresses" :
				o->max_large_counts < c->nc ? "max_large_counts" :
				"max_datatypes",
				"is less than the envelope's count (%d integers, %d "
				"addresses, %d large counts, %d datatypes)", c->ni, c->na,
				c->nc, c->nd);
	rc = dt_check_array(call, "array_of_integers", c->ni, o->integers);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_addresses", c->na, o->addresses);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_large_counts", c->nc, o->large_counts);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_datatypes", c->nd, o->datatypes);
	if (rc != MPI_SUCCESS)
		return rc;
	for (made = 0; made < c->nd; made++) {
		struct datatype *in = c->types[made], *copy;

		if (dt_predefined(in)) {
			o->datatypes[made] = in->handle;
			continue;
		}
		rc = dt_make(&in->contents, in->committed, &copy);
		if (rc < 0)
			goto err_free_copies;
		o->datatypes[made] = copy->handle;
	}
	if (c->ni)
		memcpy(o->integers, c->ints, (size_t)c->ni * sizeof(*c->ints));
	if (c->na)
		memcpy(o->addresses, c->aints, (size_t)c->na * sizeof(*c->aints));
	if (c->nc)
		memcpy(o->large_counts, c->counts, (size_t)c->nc * sizeof(*c->counts));
	return MPI_SUCCESS;

err_free_copies:
	while (made-- > 0) {
		if (!handle_is_builtin(o->datatypes[made])) {
			struct datatype *copy = dt_get(o->datatypes[made]);

			handle_release(o->datatypes[made]);
			dt_unref(copy);
		}
	}
	return dt_err_create(call, rc);
}

API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers,
			     int max_addresses, int max_datatypes,
			     int array_of_integers[], MPI_Aint array_of_addresses[],
			     MPI_Datatype array_of_datatypes[]))
{
	return dt_get_contents("MPI_Type_get_contents", datatype, 0,
			       &(struct dt_contents_out){
				       max_integers, max_addresses, 0, max_datatypes,
				       array_of_integers, array_of_addresses, NULL,
				       array_of_datatypes });
}

API(int, Type_get_contents_c, (MPI_Datatype datatype, MPI_Count max_integers,
			       MPI_Count max_addresses, MPI_Count max_large_counts,
			       MPI_Count max_datatypes, int array_of_integers[],
			       MPI_Aint array_of_addresses[],
			       MPI_Count array_of_large_counts[],
			       MPI_Datatype array_of_datatypes[]))
{
	return dt_get_contents("MPI_Type_get_contents_c", datatype, 1,
			       &(struct dt_contents_out){
				       max_integers, max_addresses, max_large_counts,
				       max_datatypes, array_of_integers, array_of_addresses,
				       array_of_large_counts, array_of_datatypes });
}

/* ---- names ------------------------------------------------------------- */

API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_set_name");
	rc = dt_lookup("MPI_Type_set_name", "datatype", datatype, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!type_name)
		return dt_null_arg("MPI_Type_set_name", "type_name");
	/* longer names are truncated (MPI-3.1 6.8) */
	snprintf(dt->name, sizeof(dt->name), "%s", type_name);
	return MPI_SUCCESS;
}

API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
{
	struct datatype *dt;
	int rc;

	/* the name may change (MPI_Type_set_name): read it under the call's
	 * lock (MPI_THREAD_MULTIPLE), not only the lookup */
	runtime_check("MPI_Type_get_name");
	rc = dt_query("MPI_Type_get_name", datatype, &dt, type_name, "type_name",
		      resultlen, "resultlen");

	if (rc != MPI_SUCCESS)
		return rc;
	*resultlen = snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", dt->name);
	return MPI_SUCCESS;
}
