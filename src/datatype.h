/*
 * Datatypes and the one pack/unpack engine.
 *
 * A datatype is kept as its flattened typemap: the runs of bytes one element
 * covers, in typemap order, each with its displacement, length, and the
 * predefined type and size of the basic elements it holds (adjacent runs of
 * the same type are merged).  Every data movement (messages, collectives, RMA) packs and
 * unpacks through dt_pack()/dt_unpack(), which address the packed stream of
 * (buf, count, type) by byte offset, so a message can move in chunks.  A
 * type whose elements are one gapless run is `contig`: count elements are
 * then a single memcpy.
 *
 * A derived type also keeps the arguments of the constructor that made it
 * (its contents: what MPI_Type_get_contents returns), holding a reference
 * on each type it was built from; the typemap is computed from the contents
 * once, at construction (dt_build.c), so a type never changes after it is
 * made.  Lifetime is by reference count: the handle holds one reference
 * (dropped by MPI_Type_free), every type built on this one holds one, and
 * every pending operation that keeps the struct pointer holds one
 * (dt_ref()/dt_unref()).  Predefined types are static and never counted.
 */
#ifndef SRC_DATATYPE_H
#define SRC_DATATYPE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "handle.h"

/* Predefined types are handle_builtin(HANDLE_DATATYPE, i), 1 <= i < this. */
#define DT_NBUILTIN 70

/* The representations of the optional Fortran types MPI_INTEGER16,
 * MPI_REAL16 and MPI_COMPLEX32 (gfortran's INTEGER(16), REAL(16) and
 * COMPLEX(16): IEEE binary128), where the compiler has them; mpi.h makes
 * the handles MPI_DATATYPE_NULL where it does not (MPI 3.1, 3.2.2). */
#if defined(__SIZEOF_INT128__)
#define DT_HAVE_INTEGER16 1
typedef __int128 dt_integer16_t;
#endif
#if defined(__SIZEOF_FLOAT128__)
#define DT_HAVE_REAL16 1
typedef __float128 dt_real16_t;
typedef _Complex float __attribute__((mode(TC))) dt_complex32_t;
#elif defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
#define DT_HAVE_REAL16 1
typedef long double dt_real16_t;
typedef long double _Complex dt_complex32_t;
#endif

/* The index of a predefined type's handle in the tables of predefined types. */
static inline unsigned dt_builtin_index(MPI_Datatype h)
{
	return (unsigned)h & 0xff;
}

/* The pair types of MAXLOC/MINLOC, laid out as C lays out these structs. */
struct dt_pair_float_int { float v; int i; };
struct dt_pair_double_int { double v; int i; };
struct dt_pair_long_int { long v; int i; };
struct dt_pair_2int { int v; int i; };
struct dt_pair_short_int { short v; int i; };
struct dt_pair_long_double_int { long double v; int i; };
/* MPI_2INTEGER is MPI_2INT's layout; the other Fortran pairs hold two
 * values of one type (MPI 3.1, section 5.9.4) */
struct dt_pair_2real { float v; float i; };
struct dt_pair_2double { double v; double i; };
struct dt_pair_2complex { float _Complex v; float _Complex i; };
struct dt_pair_2double_complex { double _Complex v; double _Complex i; };

struct dt_block {
	MPI_Aint disp;		/* from the element's origin */
	MPI_Aint len;		/* bytes */
	MPI_Aint pos;		/* where the run starts in the element's packed stream */
	int basic_size;		/* bytes of each basic element in the run */
	MPI_Datatype type;	/* the predefined type of those elements (runs
				 * of different types are never merged) */
};

/*
 * For reductions (collectives, and RMA accumulates later): the basic
 * elements of one element of the type, as runs laid out like C arrays of
 * the basic type (stride = the basic type's extent).  A pair type such as
 * MPI_DOUBLE_INT is itself basic here: its run is one whole struct.
 */
struct dt_rrun {
	MPI_Aint disp;		/* from the element's origin */
	MPI_Aint count;		/* basic elements, C-array layout */
};

/*
 * The arguments of the constructor call, as MPI_Type_get_contents(_c)
 * gives them.  A type made by a large-count constructor ("_c", MPI 4.1
 * section 5.1.13) has its counts, block lengths and displacements in
 * counts[] (nc > 0, and no addresses); the integers left (the subarray's
 * ndims and order, the darray's all but its global sizes) stay in ints.
 */
struct dt_contents {
	int combiner;			/* MPI_COMBINER_* */
	int ni, na, nc, nd;
	int *ints;
	MPI_Aint *aints;
	MPI_Count *counts;
	struct datatype **types;	/* each one referenced */
};

struct datatype {
	MPI_Datatype handle;	/* stale once MPI_Type_free released it */
	int refs;		/* see above; unused for predefined types */
	int committed;
	MPI_Aint size;		/* bytes of data in one element */
	MPI_Aint lb, extent;
	MPI_Aint true_lb, true_extent;
	int nblocks;
	struct dt_block *blocks;
	int contig;		/* count elements form one gapless run (so
				 * size == extent and the runs follow each other
				 * in memory from blocks[0].disp) */
	MPI_Datatype basic;	/* the one predefined type all basic elements
				 * share, or MPI_DATATYPE_NULL when mixed */
	int nrruns;
	struct dt_rrun *rruns;	/* valid when basic != MPI_DATATYPE_NULL */
	int align;		/* alignment of the most strictly aligned basic
				 * element: a struct type's extent is padded to it */
	int sticky;		/* lb/extent were set explicitly (resized,
				 * subarray): structs built on it are not padded */
	struct dt_contents contents;	/* MPI_COMBINER_NAMED for predefined types */
	char name[MPI_MAX_OBJECT_NAME];
	struct attr *attrs;	/* the handle's attributes (dt_attr.c) */
};

/* Register the predefined datatypes. */
void dt_init_builtins(void);

/* Delete the attributes of the predefined datatypes (MPI_Finalize). */
void dt_attr_fini(void);

/* By builtin index: the size of a predefined type that is one basic
 * element (none is above 32 bytes), 0 for the others (the pair types of
 * MAXLOC/MINLOC, unused indices). */
extern uint8_t dt_contig_sizes[HANDLE_MAX_BUILTIN];

/* h's size if h is a predefined type of one basic element, else 0: in
 * two instructions what dt_get() and a look at basic and size tell. */
static inline size_t dt_contig_size(MPI_Datatype h)
{
	unsigned i = (unsigned)h - (unsigned)handle_builtin(HANDLE_DATATYPE, 0);

	return i < HANDLE_MAX_BUILTIN ? dt_contig_sizes[i] : 0;
}

static inline struct datatype *dt_get(MPI_Datatype h)
{
	return handle_get(h, HANDLE_DATATYPE);
}

/* Whether dt is predefined: a named type, or one that
 * MPI_Type_create_f90_integer / _real / _complex returned (MPI 3.1, section
 * 17.1.9; dt_f90.c): the user may not free it, and MPI_Type_get_contents
 * hands it out as itself. */
static inline int dt_predefined(const struct datatype *dt)
{
	return handle_is_builtin(dt->handle) ||
	       dt->contents.combiner == MPI_COMBINER_F90_INTEGER ||
	       dt->contents.combiner == MPI_COMBINER_F90_REAL ||
	       dt->contents.combiner == MPI_COMBINER_F90_COMPLEX;
}

/* Keep dt alive while an operation uses it; no-op for predefined types. */
void dt_ref(struct datatype *dt);

/* Drop a reference (NULL and predefined types: no-op); the last one frees
 * the type and drops its references on the types it was built from. */
void dt_unref(struct datatype *dt);

/*
 * The type behind h for use in communication by `call`: a live handle of a
 * committed type.  Returns MPI_SUCCESS and sets *out, or raises
 * MPI_ERR_TYPE on comm (naming argument "datatype") and returns it.
 */
int dt_check_use(MPI_Comm comm, const char *call, MPI_Datatype h,
		 struct datatype **out);

/*
 * The bytes that (count, dt) touches, relative to the buffer address:
 * [*lo, *hi), empty (0, 0) when there is no data.  0, or -EOVERFLOW when
 * the span does not fit in MPI_Aint.  For RMA range checks.
 */
int dt_span(const struct datatype *dt, MPI_Count count, MPI_Aint *lo, MPI_Aint *hi);

/*
 * Make a datatype from constructor arguments (dt_build.c): c is copied
 * (types referenced), the typemap computed.  The caller has validated the
 * arguments.  The new type has refs = 1, no handle, is not committed.
 * 0, -ENOMEM, or -EOVERFLOW when a size or displacement does not fit.
 */
int dt_create(const struct dt_contents *c, struct datatype **out);

/*
 * dt_create() from checked contents, and a handle for the new type, which
 * is committed if `committed` (dt_type.c).  0, or a negative errno.
 */
int dt_make(const struct dt_contents *c, int committed, struct datatype **out);

/*
 * The named type whose layout and arithmetic a type of
 * MPI_Type_create_f90_integer / _real / _complex has, from the contents
 * (combiner, p and r) of that call (dt_f90.c); MPI_DATATYPE_NULL when the
 * compiler has no such kind.
 */
MPI_Datatype dt_f90_named(const struct dt_contents *c);

/* The typemap walk of dt_pack and dt_unpack, for the types that are not
 * contig (datatype.c). */
void dt_walk_pack(const struct datatype *dt, const void *buf, size_t off, void *out,
		  size_t len);
void dt_walk_unpack(const struct datatype *dt, void *buf, size_t off, const void *in,
		    size_t len);

/* Where stream offset off of (buf, ., dt) lies, dt contig: buf may be
 * MPI_BOTTOM (NULL) with an absolute displacement, so the sum is taken on
 * integers. */
static inline char *dt_contig_at(const struct datatype *dt, const void *buf, size_t off)
{
	return (char *)((uintptr_t)buf + (uintptr_t)(dt->blocks[0].disp + (MPI_Aint)off));
}

/*
 * Copy len bytes of the packed stream of (buf, ., dt), starting at stream
 * offset off, to out.  The caller keeps off + len within count * dt->size.
 * A contig type is one memcpy, inline: the messages of contiguous data
 * (every predefined type) never enter the typemap walk.
 */
static inline void dt_pack(const struct datatype *dt, const void *buf, size_t off,
			   void *out, size_t len)
{
	if (!dt->contig)
		dt_walk_pack(dt, buf, off, out, len);
	else if (len)
		memcpy(out, dt_contig_at(dt, buf, off), len);
}

/* The reverse: len bytes from in into (buf, ., dt) at stream offset off. */
static inline void dt_unpack(const struct datatype *dt, void *buf, size_t off,
			     const void *in, size_t len)
{
	if (!dt->contig)
		dt_walk_unpack(dt, buf, off, in, len);
	else if (len)
		memcpy(dt_contig_at(dt, buf, off), in, len);
}

/* Copy `bytes` of packed data from (sbuf, sdt) to (rbuf, rdt), in this
 * process (the type signatures match). */
void dt_copy(const void *sbuf, const struct datatype *sdt, void *rbuf,
	     const struct datatype *rdt, size_t bytes);

/* Basic elements (dt->basic) per element of dt (dt->basic is not NULL). */
MPI_Aint dt_basic_per_elem(const struct datatype *dt);

/*
 * Copy basic elements [first, first + n) of (user buffer, ., dt) into
 * (to_array) or out of a C array of dt's basic type bt; user_in is read,
 * user_out written.  For reductions and accumulates.
 */
void dt_basic_copy(const struct datatype *dt, const struct datatype *bt,
		   const char *user_in, char *user_out, size_t first, size_t n,
		   char *array, int to_array);

/* Basic elements in the first `bytes` bytes of a packed stream of dt, or
 * MPI_UNDEFINED when bytes ends inside a basic element. */
MPI_Count dt_count_basic(const struct datatype *dt, MPI_Count bytes);

/* The reverse: the bytes of the first n basic elements of a packed stream
 * of dt (0 for a type without basic elements). */
MPI_Count dt_bytes_of_basic(const struct datatype *dt, MPI_Count n);

#endif
