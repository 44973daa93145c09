/*
 * Keyvals and attributes (see attr.h), the communicator attribute calls and
 * the predefined communicator attributes.
 *
 * A keyval lives while its handle does or any attribute uses it: freeing it
 * with attributes still attached only marks it.  User keyvals are numbered
 * from ATTR_FIRST_KEYVAL so they never collide with the predefined ones.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "attr.h"
#include "comm.h"
#include "errhandler.h"
#include "p2p.h"
#include "runtime.h"

#define ATTR_FIRST_KEYVAL 100

struct keyval {
	enum attr_kind kind;
	attr_copy_fn *copy;
	attr_delete_fn *del;
	void *extra;
	int refs;	/* the handle, plus each attribute using it */
	int freed;
};

static struct keyval **keyvals;
static int nkeyvals;

static struct keyval *keyval_get(enum attr_kind kind, int keyval)
{
	int i = keyval - ATTR_FIRST_KEYVAL;
	struct keyval *k;

	if (i < 0 || i >= nkeyvals || !(k = keyvals[i]) || k->kind != kind)
		return NULL;
	return k;
}

static void keyval_unref(int keyval)
{
	int i = keyval - ATTR_FIRST_KEYVAL;

	if (--keyvals[i]->refs == 0) {
		free(keyvals[i]);
		keyvals[i] = NULL;
	}
}

int attr_keyval_valid(enum attr_kind kind, int keyval)
{
	struct keyval *k = keyval_get(kind, keyval);

	return k && !k->freed;
}

int attr_keyval_create(enum attr_kind kind, attr_copy_fn *copy, attr_delete_fn *del,
		       void *extra, int *keyval)
{
	struct keyval *k = calloc(1, sizeof(*k));
	struct keyval **more;

	if (!k)
		return MPI_ERR_NO_MEM;
	more = realloc(keyvals, sizeof(*keyvals) * (size_t)(nkeyvals + 1));
	if (!more) {
		free(k);
		return MPI_ERR_NO_MEM;
	}
	keyvals = more;
	k->kind = kind;
	k->copy = copy;
	k->del = del;
	k->extra = extra;
	k->refs = 1;
	keyvals[nkeyvals] = k;
	*keyval = ATTR_FIRST_KEYVAL + nkeyvals++;
	return MPI_SUCCESS;
}

int attr_keyval_free(enum attr_kind kind, int *keyval)
{
	struct keyval *k = keyval_get(kind, *keyval);

	if (!k || k->freed)
		return MPI_ERR_KEYVAL;
	k->freed = 1;
	keyval_unref(*keyval);
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

static struct attr **attr_find(struct attr **list, int keyval)
{
	for (; *list; list = &(*list)->next)
		if ((*list)->keyval == keyval)
			return list;
	return NULL;
}

/* Run keyval's delete callback on a value (MPI error class). */
static int attr_run_delete(enum attr_kind kind, int obj, int keyval, void *value)
{
	struct keyval *k = keyval_get(kind, keyval);

	if (k && k->del)
		return k->del(obj, keyval, value, k->extra);
	return MPI_SUCCESS;
}

int attr_set(enum attr_kind kind, int obj, struct attr **list, int keyval, void *value)
{
	struct keyval *k = keyval_get(kind, keyval);
	struct attr **at, *a;
	int rc;

	if (!k || k->freed)
		return MPI_ERR_KEYVAL;
	at = attr_find(list, keyval);
	if (at) {
		rc = attr_run_delete(kind, obj, keyval, (*at)->value);
		if (rc != MPI_SUCCESS)
			return rc;
		(*at)->value = value;
		return MPI_SUCCESS;
	}
	a = malloc(sizeof(*a));
	if (!a)
		return MPI_ERR_NO_MEM;
	a->keyval = keyval;
	a->value = value;
	a->next = *list;
	*list = a;
	k->refs++;
	return MPI_SUCCESS;
}

int attr_get(const struct attr *list, int keyval, void **value, int *flag)
{
	for (; list; list = list->next)
		if (list->keyval == keyval) {
			*value = list->value;
			*flag = 1;
			return MPI_SUCCESS;
		}
	*flag = 0;
	return MPI_SUCCESS;
}

int attr_delete(enum attr_kind kind, int obj, struct attr **list, int keyval)
{
	struct attr **at = attr_find(list, keyval), *a;
	int rc;

	if (!keyval_get(kind, keyval))
		return MPI_ERR_KEYVAL;
	if (!at)
		return MPI_SUCCESS;
	rc = attr_run_delete(kind, obj, keyval, (*at)->value);
	if (rc != MPI_SUCCESS)
		return rc;
	a = *at;
	*at = a->next;
	free(a);
	keyval_unref(keyval);
	return MPI_SUCCESS;
}

int attr_copy_all(enum attr_kind kind, int old_obj, struct attr *src, int new_obj,
		  struct attr **dst)
{
	(void)new_obj;
	for (; src; src = src->next) {
		struct keyval *k = keyval_get(kind, src->keyval);
		void *out = NULL;
		int flag = 0, rc;

		if (!k || !k->copy)
			continue;
		rc = k->copy(old_obj, src->keyval, k->extra, src->value, &out, &flag);
		if (rc != MPI_SUCCESS)
			return rc;
		if (flag) {
			struct attr *a = malloc(sizeof(*a));

			if (!a)
				return MPI_ERR_NO_MEM;
			a->keyval = src->keyval;
			a->value = out;
			a->next = *dst;
			*dst = a;
			k->refs++;
		}
	}
	return MPI_SUCCESS;
}

void attr_delete_all(enum attr_kind kind, int obj, struct attr **list)
{
	while (*list) {
		struct attr *a = *list;

		attr_run_delete(kind, obj, a->keyval, a->value);
		*list = a->next;
		keyval_unref(a->keyval);
		free(a);
	}
}

void attr_fini(void)
{
	for (int i = 0; i < nkeyvals; i++)
		free(keyvals[i]);
	free(keyvals);
	keyvals = NULL;
	nkeyvals = 0;
}

/* ---- the predefined callbacks (functions of the standard) --------------- */

__attribute__((visibility("default")))
int MPI_COMM_NULL_COPY_FN(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
			  int *flag)
{
	(void)comm, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	return MPI_SUCCESS;
}

__attribute__((visibility("default")))
int MPI_COMM_DUP_FN(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
		    int *flag)
{
	(void)comm, (void)keyval, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

__attribute__((visibility("default")))
int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)comm, (void)keyval, (void)value, (void)extra;
	return MPI_SUCCESS;
}

/* ---- communicator attributes -------------------------------------------- */

static int attr_tag_ub = P2P_TAG_UB;
static int attr_host = MPI_PROC_NULL;
static int attr_io = MPI_ANY_SOURCE;
static int attr_wtime_is_global = 1;	/* CLOCK_MONOTONIC is node-wide */
static int attr_universe_size;
static int attr_appnum = 0;
static int attr_lastusedcode = MPI_ERR_LASTCODE;

/* The predefined attributes every communicator has. */
static int *attr_predefined(int keyval)
{
	attr_universe_size = rt.size;
	switch (keyval) {
	case MPI_TAG_UB: return &attr_tag_ub;
	case MPI_HOST: return &attr_host;
	case MPI_IO: return &attr_io;
	case MPI_WTIME_IS_GLOBAL: return &attr_wtime_is_global;
	case MPI_UNIVERSE_SIZE: return &attr_universe_size;
	case MPI_APPNUM: return &attr_appnum;
	case MPI_LASTUSEDCODE: return &attr_lastusedcode;
	default: return NULL;
	}
}

API(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			      MPI_Comm_delete_attr_function *comm_delete_attr_fn,
			      int *comm_keyval, void *extra_state))
{
	int rc;

	runtime_check("MPI_Comm_create_keyval");
	if (!comm_keyval)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_create_keyval", MPI_ERR_ARG,
				"comm_keyval", "is NULL");
	rc = attr_keyval_create(ATTR_COMM, (attr_copy_fn *)comm_copy_attr_fn,
				(attr_delete_fn *)comm_delete_attr_fn, extra_state,
				comm_keyval);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(MPI_COMM_WORLD, "MPI_Comm_create_keyval", rc, NULL,
			"out of memory");
}

API(int, Comm_free_keyval, (int *comm_keyval))
{
	runtime_check("MPI_Comm_free_keyval");
	if (!comm_keyval)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_free_keyval", MPI_ERR_ARG,
				"comm_keyval", "is NULL");
	if (attr_keyval_free(ATTR_COMM, comm_keyval) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_free_keyval", MPI_ERR_KEYVAL,
				"comm_keyval", "%d is not a communicator keyval",
				*comm_keyval);
	return MPI_SUCCESS;
}

API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_set_attr");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_set_attr");
	if (attr_predefined(comm_keyval))
		return err_comm(comm, "MPI_Comm_set_attr", MPI_ERR_KEYVAL, "comm_keyval",
				"%d is predefined and cannot be set", comm_keyval);
	rc = attr_set(ATTR_COMM, comm, &c->attrs, comm_keyval, attribute_val);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_set_attr", rc, "comm_keyval",
				rc == MPI_ERR_KEYVAL ? "%d is not a communicator keyval" :
				"keyval %d: the delete callback failed", comm_keyval);
	return MPI_SUCCESS;
}

API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
{
	struct comm *c;
	int *pre;

	runtime_check("MPI_Comm_get_attr");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_get_attr");
	if (!attribute_val || !flag)
		return err_comm(comm, "MPI_Comm_get_attr", MPI_ERR_ARG,
				!flag ? "flag" : "attribute_val", "is NULL");
	pre = attr_predefined(comm_keyval);
	if (pre) {
		*(int **)attribute_val = pre;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (!keyval_get(ATTR_COMM, comm_keyval))
		return err_comm(comm, "MPI_Comm_get_attr", MPI_ERR_KEYVAL, "comm_keyval",
				"%d is not a communicator keyval", comm_keyval);
	return attr_get(c->attrs, comm_keyval, (void **)attribute_val, flag);
}

API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_delete_attr");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_delete_attr");
	rc = attr_delete(ATTR_COMM, comm, &c->attrs, comm_keyval);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_delete_attr", rc, "comm_keyval",
				rc == MPI_ERR_KEYVAL ? "%d is not a communicator keyval" :
				"keyval %d: the delete callback failed", comm_keyval);
	return MPI_SUCCESS;
}
