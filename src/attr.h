/*
 * Attribute keyvals and the attributes cached on objects.  One machinery for
 * every kind of object that carries attributes; the callbacks of all kinds
 * have the same shape (object handles are ints), so they are stored alike.
 */
#ifndef SRC_ATTR_H
#define SRC_ATTR_H

#include <mpi.h>
#include <stddef.h>

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

/*
 * The keyval calls of a kind (MPI_Comm_create_keyval and the like): check
 * the out-argument (named arg), create or free, raise any error on
 * MPI_COMM_WORLD naming call.
 */
int attr_keyval_create_call(const char *call, enum attr_kind kind, const char *arg,
			    attr_copy_fn *copy, attr_delete_fn *del, int *keyval,
			    void *extra);
int attr_keyval_free_call(const char *call, enum attr_kind kind, const char *arg,
			  int *keyval);

/* What an error class from attr_set or attr_delete on keyval means, written
 * to buf for the error message; returns buf. */
const char *attr_err_detail(enum attr_kind kind, int rc, int keyval, char *buf,
			    size_t len);

/* Whether keyval is a live user keyval of this kind. */
int attr_keyval_valid(enum attr_kind kind, int keyval);

/* The same, or one freed while attributes still use it: those may still be
 * read and deleted (MPI-3.1 section 6.7.2, MPI_COMM_FREE_KEYVAL). */
int attr_keyval_known(enum attr_kind kind, int keyval);

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
