/*
 * Attribute keyvals and the attributes cached on objects.  One machinery for
 * every kind of object that carries attributes; the callbacks of all kinds
 * have the same shape (object handles are ints), so they are stored alike.
 */
#ifndef SRC_ATTR_H
#define SRC_ATTR_H

#include <mpi.h>

enum attr_kind {
	ATTR_COMM,
	ATTR_WIN,
	ATTR_TYPE,
};

typedef int attr_copy_fn(int obj, int keyval, void *extra, void *in, void *out,
			 int *flag);
typedef int attr_delete_fn(int obj, int keyval, void *value, void *extra);

struct attr {
	int keyval;
	void *value;
	struct attr *next;
};

/* Keyval calls shared by the kinds; return an MPI error class. */
int attr_keyval_create(enum attr_kind kind, attr_copy_fn *copy, attr_delete_fn *del,
		       void *extra, int *keyval);
int attr_keyval_free(enum attr_kind kind, int *keyval);

/* Whether keyval is a live user keyval of this kind. */
int attr_keyval_valid(enum attr_kind kind, int keyval);

/* Set, get, delete on one object's list; MPI error classes (no raising). */
int attr_set(enum attr_kind kind, int obj, struct attr **list, int keyval, void *value);
int attr_get(const struct attr *list, int keyval, void **value, int *flag);
int attr_delete(enum attr_kind kind, int obj, struct attr **list, int keyval);

/* Duplicating an object: run the copy callbacks into dst's list. */
int attr_copy_all(enum attr_kind kind, int old_obj, struct attr *src, int new_obj,
		  struct attr **dst);

/* Freeing an object: run the delete callbacks, empty the list. */
void attr_delete_all(enum attr_kind kind, int obj, struct attr **list);

void attr_fini(void);

#endif
