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

static int dt_check_count(const char *call, int count)
{
	if (count < 0)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count", "%d is negative",
				count);
	return MPI_SUCCESS;
}

static int dt_check_blocklength(const char *call, int blocklength)
{
	if (blocklength < 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "blocklength",
				"%d is negative", blocklength);
	return MPI_SUCCESS;
}

/* An array argument of n elements: present when n > 0. */
static int dt_check_array(const char *call, const char *arg, int n, const void *a)
{
	if (n > 0 && !a)
		return dt_null_arg(call, arg);
	return MPI_SUCCESS;
}

static int dt_check_blocklengths(const char *call, int n, const int *bl)
{
	int rc = dt_check_array(call, "array_of_blocklengths", n, bl);

	for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
		if (bl[i] < 0)
			rc = err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_blocklengths",
				      "element %d is %d: negative", i, bl[i]);
	return rc;
}

/* The arguments every constructor has: count, a blocklength (0 when the
 * constructor has none), oldtype and newtype. */
static int dt_check_ctor(const char *call, int count, int blocklength,
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

API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_contiguous";
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_CONTIGUOUS, .ni = 1, .ints = &count,
		.nd = 1, .types = &old }, newtype);
}

API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
		       MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_vector";
	int ints[3] = { count, blocklength, stride };
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, blocklength, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_VECTOR, .ni = 3, .ints = ints,
		.nd = 1, .types = &old }, newtype);
}

API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
			       MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_hvector";
	int ints[2] = { count, blocklength };
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, blocklength, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_HVECTOR, .ni = 2, .ints = ints,
		.na = 1, .aints = &stride, .nd = 1, .types = &old }, newtype);
}

/*
 * The indexed family.  ints and aints are laid out as
 * MPI_Type_get_contents returns them:
 *   indexed          ints = count, blocklengths[count], displacements[count]
 *   hindexed         ints = count, blocklengths[count]; aints = displacements
 *   indexed_block    ints = count, blocklength, displacements[count]
 *   hindexed_block   ints = count, blocklength; aints = displacements
 */
static int dt_indexed(const char *call, int combiner, int count, int blocklength,
		      const int *blocklengths, const int *idisps, const MPI_Aint *adisps,
		      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int block = combiner == MPI_COMBINER_INDEXED_BLOCK ||
		    combiner == MPI_COMBINER_HINDEXED_BLOCK;
	struct dt_contents c = { .combiner = combiner, .nd = 1 };
	struct datatype *old;
	int *ints, rc;

	runtime_check(call);
	rc = dt_check_ctor(call, count, block ? blocklength : 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	if (count > (INT_MAX - 2) / 2)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count",
				"%d blocks are more than a type can describe", count);
	if (!block) {
		rc = dt_check_blocklengths(call, count, blocklengths);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	rc = dt_check_array(call, "array_of_displacements", count,
			    idisps ? (const void *)idisps : (const void *)adisps);
	if (rc != MPI_SUCCESS)
		return rc;

	c.ni = 1 + (block ? 1 : count) + (idisps ? count : 0);
	ints = malloc((size_t)c.ni * sizeof(*ints));
	if (!ints)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	ints[0] = count;
	if (block)
		ints[1] = blocklength;
	else if (count > 0)
		memcpy(ints + 1, blocklengths, (size_t)count * sizeof(*ints));
	if (idisps && count > 0)
		memcpy(ints + (block ? 2 : 1 + count), idisps, (size_t)count * sizeof(*ints));
	c.ints = ints;
	c.na = idisps ? 0 : count;
	c.aints = (MPI_Aint *)adisps;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	free(ints);
	return rc;
}

API(int, Type_indexed, (int count, const int array_of_blocklengths[],
			const int array_of_displacements[], MPI_Datatype oldtype,
			MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, 0,
			  array_of_blocklengths, array_of_displacements, NULL,
			  oldtype, newtype);
}

API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
				const MPI_Aint array_of_displacements[],
				MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count, 0,
			  array_of_blocklengths, NULL, array_of_displacements,
			  oldtype, newtype);
}

API(int, Type_create_indexed_block, (int count, int blocklength,
				     const int array_of_displacements[],
				     MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK,
			  count, blocklength, NULL, array_of_displacements, NULL,
			  oldtype, newtype);
}

API(int, Type_create_hindexed_block, (int count, int blocklength,
				      const MPI_Aint array_of_displacements[],
				      MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	return dt_indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK,
			  count, blocklength, NULL, NULL, array_of_displacements,
			  oldtype, newtype);
}

API(int, Type_create_struct, (int count, const int array_of_blocklengths[],
			      const MPI_Aint array_of_displacements[],
			      const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_struct";
	struct dt_contents c = { .combiner = MPI_COMBINER_STRUCT };
	struct datatype **types = NULL;
	int *ints = NULL, rc;

	runtime_check(call);
	rc = dt_check_count(call, count);
	if (rc != MPI_SUCCESS)
		return rc;
	if (count == INT_MAX)
		return err_comm(DT_COMM, call, MPI_ERR_COUNT, "count",
				"%d blocks are more than a type can describe", count);
	rc = dt_check_blocklengths(call, count, array_of_blocklengths);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_displacements", count,
				    array_of_displacements);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_types", count, array_of_types);
	if (rc != MPI_SUCCESS)
		return rc;
	for (int i = 0; i < count; i++)
		if (!dt_get(array_of_types[i]))
			return err_comm(DT_COMM, call, MPI_ERR_TYPE, "array_of_types",
					array_of_types[i] == MPI_DATATYPE_NULL ?
					"element %d is MPI_DATATYPE_NULL" :
					"element %d, 0x%x, is not a valid datatype", i,
					(unsigned)array_of_types[i]);
	if (!newtype)
		return dt_null_arg(call, "newtype");

	ints = malloc((size_t)(count + 1) * sizeof(*ints));
	types = malloc((size_t)(count ? count : 1) * sizeof(*types));
	if (!ints || !types) {
		rc = err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
		goto out_free;
	}
	ints[0] = count;
	for (int i = 0; i < count; i++) {
		ints[1 + i] = array_of_blocklengths[i];
		types[i] = dt_get(array_of_types[i]);
	}
	c.ni = count + 1;
	c.ints = ints;
	c.na = count;
	c.aints = (MPI_Aint *)array_of_displacements;
	c.nd = count;
	c.types = types;
	rc = dt_construct(call, &c, newtype);
out_free:
	free(types);
	free(ints);
	return rc;
}

API(int, Type_create_subarray, (int ndims, const int array_of_sizes[],
				const int array_of_subsizes[], const int array_of_starts[],
				int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_subarray";
	struct dt_contents c = { .combiner = MPI_COMBINER_SUBARRAY, .nd = 1 };
	struct datatype *old;
	int *ints, rc;

	runtime_check(call);
	if (ndims <= 0 || ndims > (INT_MAX - 2) / 3)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "ndims",
				"%d is not a positive number of dimensions", ndims);
	rc = dt_check_array(call, "array_of_sizes", ndims, array_of_sizes);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_subsizes", ndims, array_of_subsizes);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_starts", ndims, array_of_starts);
	if (rc != MPI_SUCCESS)
		return rc;
	for (int i = 0; i < ndims; i++) {
		int size = array_of_sizes[i], sub = array_of_subsizes[i];
		int start = array_of_starts[i];

		if (size <= 0)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_sizes",
					"element %d is %d: not positive", i, size);
		if (sub < 0 || sub > size)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_subsizes",
					"element %d is %d: not in [0, %d]", i, sub, size);
		if (start < 0 || start > size - sub)
			return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_starts",
					"element %d is %d: not in [0, %d]", i, start,
					size - sub);
	}
	rc = dt_check_array_ctor(call, order, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;

	c.ni = 3 * ndims + 2;
	ints = malloc((size_t)c.ni * sizeof(*ints));
	if (!ints)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	ints[0] = ndims;
	memcpy(ints + 1, array_of_sizes, (size_t)ndims * sizeof(*ints));
	memcpy(ints + 1 + ndims, array_of_subsizes, (size_t)ndims * sizeof(*ints));
	memcpy(ints + 1 + 2 * ndims, array_of_starts, (size_t)ndims * sizeof(*ints));
	ints[1 + 3 * ndims] = order;
	c.ints = ints;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	free(ints);
	return rc;
}

/* The arguments of one dimension of a darray (MPI 3.1, section 4.1.4). */
static int dt_check_darray_dim(const char *call, int i, int gsize, int distrib,
			       int darg, int psize)
{
	if (gsize <= 0)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_gsizes",
				"element %d is %d: not positive", i, gsize);
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
	    (MPI_Aint)darg * psize < gsize)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_dargs",
				"element %d is %d: %d blocks of it do not cover the %d "
				"elements of the dimension", i, darg, psize, gsize);
	return MPI_SUCCESS;
}

/*
 * The contents: size, rank, ndims, gsizes[ndims], distribs[ndims],
 * dargs[ndims], psizes[ndims], order (MPI 3.1, section 4.1.13); the
 * typemap comes from them (dt_build.c).
 */
API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
			      const int array_of_distribs[], const int array_of_dargs[],
			      const int array_of_psizes[], int order, MPI_Datatype oldtype,
			      MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_darray";
	struct dt_contents c = { .combiner = MPI_COMBINER_DARRAY, .nd = 1 };
	const int *arrays[4] = { array_of_gsizes, array_of_distribs, array_of_dargs,
				 array_of_psizes };
	static const char *const names[4] = { "array_of_gsizes", "array_of_distribs",
					       "array_of_dargs", "array_of_psizes" };
	struct datatype *old;
	MPI_Aint procs = 1;
	int *ints, rc = MPI_SUCCESS;

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
	for (int k = 0; k < 4 && rc == MPI_SUCCESS; k++)
		rc = dt_check_array(call, names[k], ndims, arrays[k]);
	for (int i = 0; i < ndims && rc == MPI_SUCCESS; i++) {
		rc = dt_check_darray_dim(call, i, array_of_gsizes[i], array_of_distribs[i],
					 array_of_dargs[i], array_of_psizes[i]);
		if (procs <= size)
			procs *= array_of_psizes[i];
	}
	if (rc != MPI_SUCCESS)
		return rc;
	if (procs != size)
		return err_comm(DT_COMM, call, MPI_ERR_ARG, "array_of_psizes",
				"the process grid does not have size (%d) processes", size);
	rc = dt_check_array_ctor(call, order, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;

	c.ni = 4 * ndims + 4;
	ints = malloc((size_t)c.ni * sizeof(*ints));
	if (!ints)
		return err_comm(DT_COMM, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	ints[0] = size;
	ints[1] = rank;
	ints[2] = ndims;
	for (int k = 0; k < 4; k++)
		memcpy(ints + 3 + k * ndims, arrays[k], (size_t)ndims * sizeof(*ints));
	ints[3 + 4 * ndims] = order;
	c.ints = ints;
	c.types = &old;
	rc = dt_construct(call, &c, newtype);
	free(ints);
	return rc;
}

API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
			       MPI_Datatype *newtype))
{
	static const char call[] = "MPI_Type_create_resized";
	MPI_Aint aints[2] = { lb, extent };
	struct datatype *old;
	int rc;

	runtime_check(call);
	rc = dt_check_ctor(call, 0, 0, oldtype, &old, newtype);
	if (rc != MPI_SUCCESS)
		return rc;
	return dt_construct(call, &(struct dt_contents){
		.combiner = MPI_COMBINER_RESIZED, .na = 2, .aints = aints,
		.nd = 1, .types = &old }, newtype);
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

/* ---- decoding ---------------------------------------------------------- */

API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers,
			     int *num_addresses, int *num_datatypes, int *combiner))
{
	static const char call[] = "MPI_Type_get_envelope";
	struct datatype *dt;
	int rc = dt_query(call, datatype, &dt, num_integers, "num_integers",
			  num_addresses, "num_addresses");

	if (rc != MPI_SUCCESS)
		return rc;
	if (!num_datatypes || !combiner)
		return dt_null_arg(call, !num_datatypes ? "num_datatypes" : "combiner");
	*num_integers = dt->contents.ni;
	*num_addresses = dt->contents.na;
	*num_datatypes = dt->contents.nd;
	*combiner = dt->contents.combiner;
	return MPI_SUCCESS;
}

/*
 * Predefined inner types (named ones and those of MPI_Type_create_f90_*)
 * are returned as themselves; a derived one as a new
 * type built from its contents, committed as it is: the caller frees it.
 */
API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers,
			     int max_addresses, int max_datatypes,
			     int array_of_integers[], MPI_Aint array_of_addresses[],
			     MPI_Datatype array_of_datatypes[]))
{
	static const char call[] = "MPI_Type_get_contents";
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
	if (max_integers < c->ni || max_addresses < c->na || max_datatypes < c->nd)
		return err_comm(DT_COMM, call, MPI_ERR_ARG,
				max_integers < c->ni ? "max_integers" :
				max_addresses < c->na ? "max_addresses" : "max_datatypes",
				"is less than MPI_Type_get_envelope's count "
				"(%d integers, %d addresses, %d datatypes)",
				c->ni, c->na, c->nd);
	rc = dt_check_array(call, "array_of_integers", c->ni, array_of_integers);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_addresses", c->na, array_of_addresses);
	if (rc == MPI_SUCCESS)
		rc = dt_check_array(call, "array_of_datatypes", c->nd, array_of_datatypes);
	if (rc != MPI_SUCCESS)
		return rc;
	for (made = 0; made < c->nd; made++) {
		struct datatype *in = c->types[made], *copy;

		if (dt_predefined(in)) {
			array_of_datatypes[made] = in->handle;
			continue;
		}
		rc = dt_make(&in->contents, in->committed, &copy);
		if (rc < 0)
			goto err_free_copies;
		array_of_datatypes[made] = copy->handle;
	}
	if (c->ni)
		memcpy(array_of_integers, c->ints, (size_t)c->ni * sizeof(*c->ints));
	if (c->na)
		memcpy(array_of_addresses, c->aints, (size_t)c->na * sizeof(*c->aints));
	return MPI_SUCCESS;

err_free_copies:
	while (made-- > 0) {
		if (!handle_is_builtin(array_of_datatypes[made])) {
			struct datatype *copy = dt_get(array_of_datatypes[made]);

			handle_release(array_of_datatypes[made]);
			dt_unref(copy);
		}
	}
	return dt_err_create(call, rc);
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
