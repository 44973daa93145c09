/*
 * Keyvals and attributes (see attr.h), the predefined attribute callbacks,
 * the communicator attribute calls (under their MPI-3.1 names and the
 * deprecated ones of chapter 15) and the predefined communicator
 * attributes.
 *
 * A keyval lives while its handle does or any attribute uses it: freeing it
 * with attributes still attached only marks it.  User keyvals are numbered
 * from ATTR_FIRST_KEYVAL so they never collide with the predefined ones.
 */
#include <stdio.h>
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

/* For error messages: "%d is not a communicator keyval". */
static const char *const attr_kind_names[] = {
	[ATTR_COMM] = "communicator",
	[ATTR_WIN] = "window",
	[ATTR_TYPE] = "datatype",
};

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

int attr_keyval_known(enum attr_kind kind, int keyval)
{
	return keyval_get(kind, keyval) != NULL;
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

/* The keyval calls of every kind raise on MPI_COMM_WORLD: a keyval belongs
 * to no object. */
int attr_keyval_create_call(const char *call, enum attr_kind kind, const char *arg,
			    attr_copy_fn *copy, attr_delete_fn *del, int *keyval,
			    void *extra)
{
	runtime_check(call);
	if (!keyval)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, arg, "is NULL");
	if (attr_keyval_create(kind, copy, del, extra, keyval) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	return MPI_SUCCESS;
}

int attr_keyval_free_call(const char *call, enum attr_kind kind, const char *arg,
			  int *keyval)
{
	runtime_check(call);
	if (!keyval)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, arg, "is NULL");
	if (attr_keyval_free(kind, keyval) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_KEYVAL, arg,
				"%d is not a %s keyval", *keyval, attr_kind_names[kind]);
	return MPI_SUCCESS;
}

const char *attr_err_detail(enum attr_kind kind, int rc, int keyval, char *buf,
			    size_t len)
{
	if (rc == MPI_ERR_KEYVAL)
		snprintf(buf, len, "%d is not a %s keyval", keyval, attr_kind_names[kind]);
	else if (rc == MPI_ERR_NO_MEM)
		snprintf(buf, len, "out of memory");
	else
		snprintf(buf, len, "keyval %d: the delete callback failed", keyval);
	return buf;
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

/* ---- the predefined callbacks ------------------------------------------- */

/*
 * MPI-3.1 names them for each kind of object (sections 6.7.2, 6.7.3 and
 * 6.7.4, and the deprecated ones of section 15.1, which are the
 * communicator's); every handle is an int here, so one function serves
 * all the names of each behaviour.
 */
static int attr_null_copy_fn(int obj, int keyval, void *extra, void *in, void *out,
			     int *flag)
{
	(void)obj, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	return MPI_SUCCESS;
}

static int attr_dup_fn(int obj, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)obj, (void)keyval, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

static int attr_null_delete_fn(int obj, int keyval, void *value, void *extra)
{
	(void)obj, (void)keyval, (void)value, (void)extra;
	return MPI_SUCCESS;
}

#define ATTR_CALLBACK(name, impl)                                              \
	__typeof__(impl) name __attribute__((alias(#impl), visibility("default")))

ATTR_CALLBACK(MPI_COMM_NULL_COPY_FN, attr_null_copy_fn);
ATTR_CALLBACK(MPI_WIN_NULL_COPY_FN, attr_null_copy_fn);
ATTR_CALLBACK(MPI_TYPE_NULL_COPY_FN, attr_null_copy_fn);
ATTR_CALLBACK(MPI_NULL_COPY_FN, attr_null_copy_fn);
ATTR_CALLBACK(MPI_COMM_DUP_FN, attr_dup_fn);
ATTR_CALLBACK(MPI_WIN_DUP_FN, attr_dup_fn);
ATTR_CALLBACK(MPI_TYPE_DUP_FN, attr_dup_fn);
ATTR_CALLBACK(MPI_DUP_FN, attr_dup_fn);
ATTR_CALLBACK(MPI_COMM_NULL_DELETE_FN, attr_null_delete_fn);
ATTR_CALLBACK(MPI_WIN_NULL_DELETE_FN, attr_null_delete_fn);
ATTR_CALLBACK(MPI_TYPE_NULL_DELETE_FN, attr_null_delete_fn);
ATTR_CALLBACK(MPI_NULL_DELETE_FN, attr_null_delete_fn);

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
	attr_lastusedcode = err_last_used();
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

/*
 * The communicator attribute calls.  MPI-3.1 section 15.1 keeps the MPI-1
 * names as deprecated synonyms, identical in C: each pair shares one body,
 * which names the call the program made in its errors.
 */
static int comm_attr_set(const char *call, const char *arg, MPI_Comm comm, int keyval,
			 void *value)
{
	char detail[64];
	struct comm *c;
	int rc;

	runtime_check(call);
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, call);
	if (attr_predefined(keyval))
		return err_comm(comm, call, MPI_ERR_KEYVAL, arg,
				"%d is predefined and cannot be set", keyval);
	rc = attr_set(ATTR_COMM, comm, &c->attrs, keyval, value);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, arg, "%s",
				attr_err_detail(ATTR_COMM, rc, keyval, detail,
						sizeof(detail)));
	return MPI_SUCCESS;
}

static int comm_attr_get(const char *call, const char *arg, MPI_Comm comm, int keyval,
			 void *value, int *flag)
{
	char detail[64];
	struct comm *c;
	int *pre;

	runtime_check(call);
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, call);
	if (!value || !flag)
		return err_comm(comm, call, MPI_ERR_ARG, !flag ? "flag" : "attribute_val",
				"is NULL");
	pre = attr_predefined(keyval);
	if (pre) {
		*(int **)value = pre;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (!attr_keyval_known(ATTR_COMM, keyval))
		return err_comm(comm, call, MPI_ERR_KEYVAL, arg, "%s",
				attr_err_detail(ATTR_COMM, MPI_ERR_KEYVAL, keyval, detail,
						sizeof(detail)));
	return attr_get(c->attrs, keyval, (void **)value, flag);
}

static int comm_attr_delete(const char *call, const char *arg, MPI_Comm comm, int keyval)
{
	char detail[64];
	struct comm *c;
	int rc;

	runtime_check(call);
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, call);
	rc = attr_delete(ATTR_COMM, comm, &c->attrs, keyval);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, arg, "%s",
				attr_err_detail(ATTR_COMM, rc, keyval, detail,
						sizeof(detail)));
	return MPI_SUCCESS;
}

API(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			      MPI_Comm_delete_attr_function *comm_delete_attr_fn,
			      int *comm_keyval, void *extra_state))
{
	return attr_keyval_create_call("MPI_Comm_create_keyval", ATTR_COMM, "comm_keyval",
				       (attr_copy_fn *)comm_copy_attr_fn,
				       (attr_delete_fn *)comm_delete_attr_fn, comm_keyval,
				       extra_state);
}

API(int, Comm_free_keyval, (int *comm_keyval))
{
	return attr_keyval_free_call("MPI_Comm_free_keyval", ATTR_COMM, "comm_keyval",
				     comm_keyval);
}

API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
{
	return comm_attr_set("MPI_Comm_set_attr", "comm_keyval", comm, comm_keyval,
			     attribute_val);
}

API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
{
	return comm_attr_get("MPI_Comm_get_attr", "comm_keyval", comm, comm_keyval,
			     attribute_val, flag);
}

API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
{
	return comm_attr_delete("MPI_Comm_delete_attr", "comm_keyval", comm, comm_keyval);
}

/* ---- the deprecated names (MPI-3.1 section 15.1) ------------------------- */

API(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
			 int *keyval, void *extra_state))
{
	return attr_keyval_create_call("MPI_Keyval_create", ATTR_COMM, "keyval",
				       (attr_copy_fn *)copy_fn, (attr_delete_fn *)delete_fn,
				       keyval, extra_state);
}

API(int, Keyval_free, (int *keyval))
{
	return attr_keyval_free_call("MPI_Keyval_free", ATTR_COMM, "keyval", keyval);
}

API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
{
	return comm_attr_set("MPI_Attr_put", "keyval", comm, keyval, attribute_val);
}

API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
{
	return comm_attr_get("MPI_Attr_get", "keyval", comm, keyval, attribute_val, flag);
}

API(int, Attr_delete, (MPI_Comm comm, int keyval))
{
	return comm_attr_delete("MPI_Attr_delete", "keyval", comm, keyval);
}
