/*
 * The Fortran 90 parameterized types and MPI_Type_match_size (MPI 3.1,
 * section 17.1.9), for C programs that exchange data with Fortran ones.
 *
 * MPI_Type_create_f90_integer(r), _real(p, r) and _complex(p, r) return the
 * type of a Fortran variable of kind SELECTED_INT_KIND(r) or
 * SELECTED_REAL_KIND(p, r), with the kinds gfortran has:
 *   INTEGER  r <= 2: 1 byte, <= 4: 2, <= 9: 4, <= 18: 8, <= 38: 16
 *   REAL     p <= 6 and r <= 37: REAL(4); p <= 15 and r <= 307: REAL(8);
 *            p <= 18 and r <= 4931: REAL(10), the x87 extended type (C's
 *            long double, 16 bytes); p <= 33 and r <= 4931: REAL(16)
 *   COMPLEX  a pair of the REAL of (p, r)
 * MPI_UNDEFINED stands for a p or r not given (at least one must be), and a
 * negative one asks for nothing, as in Fortran.  A kind the compiler lacks
 * is MPI_ERR_ARG (the standard makes it erroneous).
 *
 * Each type is laid out, and reduces, as the named type of its kind
 * (MPI_INTEGER1, MPI_REAL8, MPI_LONG_DOUBLE...); its envelope is
 * MPI_COMBINER_F90_INTEGER / _REAL / _COMPLEX and its contents the r, or
 * p and r, of the call.  It is predefined: it cannot be freed, and a call
 * with the same arguments returns the same handle (the standard asks
 * implementations to keep them, as the user may not free them).
 */
#include <stdlib.h>

#include "api.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

static int f90_arg(int v)
{
	return v == MPI_UNDEFINED || v < 0 ? 0 : v;
}

static MPI_Datatype f90_integer(int r)
{
	static const struct { int r; MPI_Datatype t; } kinds[] = {
		{ 2, MPI_INTEGER1 }, { 4, MPI_INTEGER2 }, { 9, MPI_INTEGER4 },
		{ 18, MPI_INTEGER8 }, { 38, MPI_INTEGER16 },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (r <= kinds[i].r)
			return kinds[i].t;
	return MPI_DATATYPE_NULL;
}

/* The REAL (complex: COMPLEX) kind of precision p and range r. */
static MPI_Datatype f90_real(int p, int r, int complex)
{
	static const struct { int p, r; MPI_Datatype real, complex; } kinds[] = {
		{ 6, 37, MPI_REAL4, MPI_COMPLEX8 },
		{ 15, 307, MPI_REAL8, MPI_COMPLEX16 },
		{ 18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX },
		{ 33, 4931, MPI_REAL16, MPI_COMPLEX32 },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (p <= kinds[i].p && r <= kinds[i].r)
			return complex ? kinds[i].complex : kinds[i].real;
	return MPI_DATATYPE_NULL;
}

MPI_Datatype dt_f90_named(const struct dt_contents *c)
{
	switch (c->combiner) {
	case MPI_COMBINER_F90_INTEGER:
		return f90_integer(f90_arg(c->ints[0]));
	case MPI_COMBINER_F90_REAL:
	case MPI_COMBINER_F90_COMPLEX:
		return f90_real(f90_arg(c->ints[0]), f90_arg(c->ints[1]),
				c->combiner == MPI_COMBINER_F90_COMPLEX);
	default:
		return MPI_DATATYPE_NULL;
	}
}

/* The types made so far, each kept with the reference of its handle. */
static struct datatype **f90_types;
static int f90_ntypes, f90_cap;

static int f90_type(const char *call, int combiner, int p, int r, MPI_Datatype *newtype)
{
	int ints[2] = { combiner == MPI_COMBINER_F90_INTEGER ? r : p, r };
	struct dt_contents c = { .combiner = combiner, .ints = ints,
				 .ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2 };
	struct datatype *dt;
	int rc;

	runtime_check(call);
	if (!newtype)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "newtype", "is NULL");
	if (c.ni == 2 && p == MPI_UNDEFINED && r == MPI_UNDEFINED)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "p",
				"and r are both MPI_UNDEFINED");
	if (dt_f90_named(&c) == MPI_DATATYPE_NULL)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG,
				c.ni == 1 ? "r" : "p",
				c.ni == 1 ? "%d: no integer kind has this range" :
				"%d (r %d): no real kind has this precision and range",
				ints[0], r);
	for (int i = 0; i < f90_ntypes; i++) {
		const struct dt_contents *k = &f90_types[i]->contents;

		if (k->combiner == combiner && k->ints[0] == ints[0] &&
		    (c.ni == 1 || k->ints[1] == ints[1])) {
			*newtype = f90_types[i]->handle;
			return MPI_SUCCESS;
		}
	}
	if (f90_ntypes == f90_cap) {
		int cap = f90_cap ? 2 * f90_cap : 8;
		struct datatype **t = realloc(f90_types, (size_t)cap * sizeof(*t));

		if (!t)
			return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL,
					"out of memory");
		f90_types = t;
		f90_cap = cap;
	}
	rc = dt_make(&c, 1, &dt);
	if (rc < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL,
				"out of memory");
	f90_types[f90_ntypes++] = dt;
	*newtype = dt->handle;
	return MPI_SUCCESS;
}

API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
{
	return f90_type("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, 0, r,
			newtype);
}

API(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
{
	return f90_type("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, newtype);
}

API(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
{
	return f90_type("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r,
			newtype);
}

/*
 * The named type of a class and size: the sized Fortran types
 * (MPI_INTEGER1...16, MPI_REAL4...16, MPI_COMPLEX8...32), which a size
 * names exactly, as MPICH answers.  A size no type of the class has is
 * MPI_ERR_ARG.
 */
API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
{
	static const char call[] = "MPI_Type_match_size";
	static const struct { int typeclass; MPI_Datatype t; } sized[] = {
		{ MPI_TYPECLASS_INTEGER, MPI_INTEGER1 }, { MPI_TYPECLASS_INTEGER, MPI_INTEGER2 },
		{ MPI_TYPECLASS_INTEGER, MPI_INTEGER4 }, { MPI_TYPECLASS_INTEGER, MPI_INTEGER8 },
		{ MPI_TYPECLASS_INTEGER, MPI_INTEGER16 },
		{ MPI_TYPECLASS_REAL, MPI_REAL4 }, { MPI_TYPECLASS_REAL, MPI_REAL8 },
		{ MPI_TYPECLASS_REAL, MPI_REAL16 },
		{ MPI_TYPECLASS_COMPLEX, MPI_COMPLEX8 }, { MPI_TYPECLASS_COMPLEX, MPI_COMPLEX16 },
		{ MPI_TYPECLASS_COMPLEX, MPI_COMPLEX32 },
	};

	runtime_check(call);
	if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
	    typeclass != MPI_TYPECLASS_COMPLEX)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "typeclass",
				"%d is none of MPI_TYPECLASS_INTEGER, _REAL and _COMPLEX",
				typeclass);
	if (!datatype)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "datatype", "is NULL");
	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
		/* an optional type the compiler lacks is MPI_DATATYPE_NULL */
		const struct datatype *dt = dt_get(sized[i].t);

		if (sized[i].typeclass == typeclass && dt && dt->size == size) {
			*datatype = sized[i].t;
			return MPI_SUCCESS;
		}
	}
	return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "size",
			"%d: no type of this class has this size", size);
}
