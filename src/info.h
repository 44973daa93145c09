/*
 * Info objects: ordered (key, value) string pairs.
 */
#ifndef SRC_INFO_H
#define SRC_INFO_H

#include <mpi.h>

#include "handle.h"

struct info_entry {
	char *key;
	char *value;
	struct info_entry *next;
};

struct info {
	MPI_Info handle;
	int refs;
	int nkeys;
	struct info_entry *head;
};

static inline struct info *info_get(MPI_Info h)
{
	return handle_get(h, HANDLE_INFO);
}

/* MPI_INFO_ENV (MPI_Init) and its end. */
void info_init_builtins(int argc, char **argv);
void info_fini_builtins(void);

/* A new empty info object, with a user handle when with_handle; NULL
 * when out of memory. */
struct info *info_alloc(int with_handle);

/* A copy without a user handle, for an object's hints; NULL if none. */
struct info *info_dup_internal(const struct info *src);

void info_unref(struct info *i);

/* The value of key, or NULL. */
const char *info_lookup(const struct info *i, const char *key);

/* Set key to value; 0 or -ENOMEM. */
int info_put(struct info *i, const char *key, const char *value);

#endif
