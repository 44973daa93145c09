/*
 * Attributes on datatypes (MPI-3.1 section 6.7.4): the keyval calls and
 * set, get and delete, through the machinery every kind shares (attr.h).
 * Predefined types carry attributes too; theirs are deleted, callbacks
 * run, at MPI_Finalize.  MPI_Type_dup copies a type's attributes and
 * MPI_Type_free deletes them (dt_type.c).  Datatypes have no predefined
 * keyvals, and their calls raise errors on MPI_COMM_WORLD.
 */
#include <stdio.h>

#include "api.h"
#include "attr.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

/* The live type behind h, or raise MPI_ERR_TYPE naming call. */
static struct datatype *dt_attr_type(const char *call, MPI_Datatype h, int *rc)
{
	struct datatype *dt = dt_get(h);

	*rc = MPI_SUCCESS;
	if (!dt)
		*rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_TYPE, "datatype",
			       h == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
			       "0x%x is not a valid datatype", (unsigned)h);
	return dt;
}

/* Raise an error class of attr_set or attr_delete. */
static int dt_attr_err(const char *call, int rc, int keyval)
{
	char detail[64];

	return err_comm(MPI_COMM_WORLD, call, rc, "type_keyval", "%s",
			attr_err_detail(ATTR_TYPE, rc, keyval, detail, sizeof(detail)));
}

API(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
			      MPI_Type_delete_attr_function *type_delete_attr_fn,
			      int *type_keyval, void *extra_state))
{
	return attr_keyval_create_call("MPI_Type_create_keyval", ATTR_TYPE, "type_keyval",
				       (attr_copy_fn *)type_copy_attr_fn,
				       (attr_delete_fn *)type_delete_attr_fn, type_keyval,
				       extra_state);
}

API(int, Type_free_keyval, (int *type_keyval))
{
	return attr_keyval_free_call("MPI_Type_free_keyval", ATTR_TYPE, "type_keyval",
				     type_keyval);
}

API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_set_attr");
	if (!(dt = dt_attr_type("MPI_Type_set_attr", datatype, &rc)))
		return rc;
	rc = attr_set(ATTR_TYPE, datatype, &dt->attrs, type_keyval, attribute_val);
	return rc == MPI_SUCCESS ? rc : dt_attr_err("MPI_Type_set_attr", rc, type_keyval);
}

API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val,
			 int *flag))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_get_attr");
	if (!(dt = dt_attr_type("MPI_Type_get_attr", datatype, &rc)))
		return rc;
	if (!attribute_val || !flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Type_get_attr", MPI_ERR_ARG,
				!flag ? "flag" : "attribute_val", "is NULL");
	if (!attr_keyval_known(ATTR_TYPE, type_keyval))
		return dt_attr_err("MPI_Type_get_attr", MPI_ERR_KEYVAL, type_keyval);
	return attr_get(dt->attrs, type_keyval, (void **)attribute_val, flag);
}

API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
{
	struct datatype *dt;
	int rc;

	runtime_check("MPI_Type_delete_attr");
	if (!(dt = dt_attr_type("MPI_Type_delete_attr", datatype, &rc)))
		return rc;
	rc = attr_delete(ATTR_TYPE, datatype, &dt->attrs, type_keyval);
	return rc == MPI_SUCCESS ? rc :
	       dt_attr_err("MPI_Type_delete_attr", rc, type_keyval);
}

void dt_attr_fini(void)
{
	for (unsigned i = 1; i < DT_NBUILTIN; i++) {
		MPI_Datatype h = handle_builtin(HANDLE_DATATYPE, i);
		struct datatype *dt = dt_get(h);

		if (dt)
			attr_delete_all(ATTR_TYPE, h, &dt->attrs);
	}
}
