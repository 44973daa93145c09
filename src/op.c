/*
 * Op objects (the predefined ops and user ops), applying an op to buffers
 * in a datatype's layout, and the calls MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative and MPI_Reduce_local.
 *
 * A predefined op reduces a datatype run by run: its reduction runs (C
 * arrays of its one basic type, struct dt_rrun) go to the kernel of
 * (op, basic type) from op_kernels.c, in a single call when the runs of
 * consecutive elements join up.  A user op gets the user's buffers, the
 * type's handle and the element count, in pieces of at most INT_MAX
 * elements for a function of MPI_Op_create (an int count), in one piece
 * for a large-count function of MPI_Op_create_c (MPI 4.1, section 6.9.5):
 * the op remembers which kind it has.  A user op lives while its handle or
 * a pending operation holds it (op_ref/op_unref), like a datatype.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "api.h"
#include "errhandler.h"
#include "op.h"
#include "runtime.h"

struct op {
	MPI_Op handle;
	enum op_kind kind;
	int commute;
	int refs;		/* user ops: the handle, and pending operations */
	MPI_User_function *fn;	/* user ops of MPI_Op_create, */
	MPI_User_function_c *fn_c;	/* or of MPI_Op_create_c */
};

_Static_assert((MPI_MAX & 0xff) == OP_MAX && (MPI_SUM & 0xff) == OP_SUM &&
	       (MPI_LXOR & 0xff) == OP_LXOR && (MPI_MINLOC & 0xff) == OP_MINLOC &&
	       (MPI_MAXLOC & 0xff) == OP_MAXLOC && (MPI_NO_OP & 0xff) == OP_NO_OP,
	       "enum op_kind follows the predefined op handles");

static struct op op_builtins[OP_NBUILTIN];

void op_init_builtins(void)
{
	for (int k = OP_MAX; k < OP_NBUILTIN; k++) {
		struct op *op = &op_builtins[k];

		op->handle = handle_builtin(HANDLE_OP, (unsigned)k);
		op->kind = (enum op_kind)k;
		/* x REPLACE y is x, x NO_OP y is y: neither commutes */
		op->commute = k != OP_REPLACE && k != OP_NO_OP;
		op->refs = 1;
		op->fn = NULL;
		handle_set_builtin(HANDLE_OP, (unsigned)k, op);
	}
	op_kernels_init();
}

void op_ref(struct op *op)
{
	if (op->kind == OP_USER)
		op->refs++;
}

void op_unref(struct op *op)
{
	if (!op || op->kind != OP_USER || --op->refs > 0)
		return;
	free(op);
}

int op_commutative(const struct op *op)
{
	return op->commute;
}

int op_is_builtin(const struct op *op)
{
	return op->kind != OP_USER;
}

enum op_kind op_kind(const struct op *op)
{
	return op->kind;
}

op_kernel_t op_kernel(const struct op *op, MPI_Datatype basic)
{
	return op_kernel_of(op->kind, basic);
}

int op_check(const struct op *op, const struct datatype *dt)
{
	if (op->kind == OP_USER)
		return MPI_SUCCESS;
	if (dt->basic == MPI_DATATYPE_NULL || !op_kernel(op, dt->basic))
		return MPI_ERR_OP;
	return MPI_SUCCESS;
}

/* buf + off on integers: buf may be MPI_BOTTOM with absolute displacements */
static inline char *op_at(const void *buf, MPI_Aint off)
{
	return (char *)((uintptr_t)buf + (uintptr_t)off);
}

void op_reduce(const struct op *op, const void *in, void *inout, MPI_Count count,
	       const struct datatype *dt)
{
	const struct dt_rrun *rr = dt->rruns;
	MPI_Datatype h = dt->handle;
	op_kernel_t k;
	MPI_Aint bext;

	if (op->kind == OP_USER && op->fn_c) {
		MPI_Count n = count;

		if (count > 0)
			op->fn_c((void *)in, inout, &n, &h);
		return;
	}
	if (op->kind == OP_USER) {
		while (count > 0) {
			int len = count > INT_MAX ? INT_MAX : (int)count, n = len;

			op->fn((void *)in, inout, &n, &h);
			in = op_at(in, (MPI_Aint)len * dt->extent);
			inout = op_at(inout, (MPI_Aint)len * dt->extent);
			count -= len;
		}
		return;
	}
	if (count <= 0 || dt->size == 0)
		return;
	k = op_kernel(op, dt->basic);
	bext = dt_get(dt->basic)->extent;
	if (dt->nrruns == 1 && rr[0].count * bext == dt->extent) {
		/* the elements' runs join up: one C array */
		k(op_at(in, rr[0].disp), op_at(inout, rr[0].disp), count * rr[0].count);
		return;
	}
	for (MPI_Count e = 0; e < count; e++) {
		MPI_Aint base = (MPI_Aint)e * dt->extent;

		for (int r = 0; r < dt->nrruns; r++)
			k(op_at(in, base + rr[r].disp), op_at(inout, base + rr[r].disp),
			  rr[r].count);
	}
}

/* ---- the calls --------------------------------------------------------- */

/* The live op behind h for `call`, or raise MPI_ERR_OP on MPI_COMM_WORLD. */
static int op_lookup(const char *call, MPI_Op h, struct op **out)
{
	*out = op_get(h);
	if (*out)
		return MPI_SUCCESS;
	return err_comm(MPI_COMM_WORLD, call, MPI_ERR_OP, "op",
			h == MPI_OP_NULL ? "is MPI_OP_NULL" : "0x%x is not a valid op",
			(unsigned)h);
}

/* One of fn and fn_c is the user's function. */
static int op_create(const char *call, MPI_User_function *fn, MPI_User_function_c *fn_c,
		     int commute, MPI_Op *op)
{
	struct op *o;

	runtime_check(call);
	if ((!fn && !fn_c) || !op)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG,
				!op ? "op" : "user_fn", "is NULL");
	o = calloc(1, sizeof(*o));
	if (!o || handle_alloc(HANDLE_OP, o, &o->handle) < 0) {
		free(o);
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL,
				"out of memory");
	}
	o->kind = OP_USER;
	o->commute = commute != 0;
	o->refs = 1;
	o->fn = fn;
	o->fn_c = fn_c;
	*op = o->handle;
	return MPI_SUCCESS;
}

API(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
{
	return op_create("MPI_Op_create", user_fn, NULL, commute, op);
}

API(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
{
	return op_create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

API(int, Op_free, (MPI_Op *op))
{
	struct op *o;
	int rc;

	runtime_check("MPI_Op_free");
	if (!op)
		return err_comm(MPI_COMM_WORLD, "MPI_Op_free", MPI_ERR_ARG, "op",
				"is NULL");
	rc = op_lookup("MPI_Op_free", *op, &o);
	if (rc != MPI_SUCCESS)
		return rc;
	if (o->kind != OP_USER)
		return err_comm(MPI_COMM_WORLD, "MPI_Op_free", MPI_ERR_OP, "op",
				"is predefined and cannot be freed");
	handle_release(*op);
	op_unref(o);
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

API(int, Op_commutative, (MPI_Op op, int *commute))
{
	struct op *o;
	int rc;

	runtime_check("MPI_Op_commutative");
	rc = op_lookup("MPI_Op_commutative", op, &o);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!commute)
		return err_comm(MPI_COMM_WORLD, "MPI_Op_commutative", MPI_ERR_ARG,
				"commute", "is NULL");
	*commute = o->commute;
	return MPI_SUCCESS;
}

static int reduce_local(const char *call, const void *inbuf, void *inoutbuf,
			MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
	struct datatype *dt;
	struct op *o;
	int rc;

	runtime_check(call);
	if (count < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_COUNT, "count",
				"%lld is negative", (long long)count);
	rc = dt_check_use(MPI_COMM_WORLD, call, datatype, &dt);
	if (rc == MPI_SUCCESS)
		rc = op_lookup(call, op, &o);
	if (rc != MPI_SUCCESS)
		return rc;
	if (op_check(o, dt) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_OP, "op",
				dt->basic == MPI_DATATYPE_NULL ?
				"a predefined op needs one basic type, and %s mixes "
				"several" : "is not defined on %s",
				dt->name[0] ? dt->name : "the derived datatype");
	if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_BUFFER,
				inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf",
				"is MPI_IN_PLACE");
	if (count > 0 && dt->size > 0 && handle_is_builtin(datatype) &&
	    (!inbuf || !inoutbuf))
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_BUFFER,
				!inbuf ? "inbuf" : "inoutbuf", "is NULL");
	if (count > 0 && dt->size > 0 && inbuf == inoutbuf)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_BUFFER, "inoutbuf",
				"is inbuf: the buffers must not alias");
	op_reduce(o, inbuf, inoutbuf, count, dt);
	return MPI_SUCCESS;
}

API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count,
			MPI_Datatype datatype, MPI_Op op))
{
	return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count,
			  MPI_Datatype datatype, MPI_Op op))
{
	return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
