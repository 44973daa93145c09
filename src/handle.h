/*
 * Handles: the ints that mpi.h hands out for MPI objects.
 *
 *   bits 26-29  kind (enum handle_kind)
 *   bit  30     predefined object: bits 0-7 index the kind's builtin table
 *   otherwise   bits 20-25 generation, bits 0-19 slot in the kind's table
 *
 * The null handle of a kind is the kind alone (slot 0, generation 0, never
 * allocated).  A slot's generation changes when its object is released, so a
 * stale handle no longer resolves: handle_get() returns NULL and the caller
 * reports the kind's error class.  Released slots are reused oldest first and
 * only once HANDLE_REUSE_DELAY of them wait, so a stale handle keeps failing
 * for a long while (generations wrap after 64 reuses of one slot).
 */
#ifndef SRC_HANDLE_H
#define SRC_HANDLE_H

#include <stdint.h>

enum handle_kind {
	HANDLE_COMM = 1,
	HANDLE_GROUP,
	HANDLE_DATATYPE,
	HANDLE_OP,
	HANDLE_REQUEST,
	HANDLE_WIN,
	HANDLE_INFO,
	HANDLE_ERRHANDLER,
	HANDLE_MESSAGE,
	HANDLE_SESSION,
	HANDLE_NKINDS
};

#define HANDLE_KIND_SHIFT 26
#define HANDLE_KIND_MASK 0xfu
#define HANDLE_BUILTIN (1u << 30)
#define HANDLE_GEN_SHIFT 20
#define HANDLE_GEN_MASK 0x3fu
#define HANDLE_SLOT_MASK 0xfffffu
#define HANDLE_MAX_BUILTIN 256
#define HANDLE_REUSE_DELAY 64

struct handle_table {
	void *builtin[HANDLE_MAX_BUILTIN];
	void **objs;
	uint8_t *gens;
	uint32_t cap;		/* slots in objs/gens */
	uint32_t next;		/* first never-used slot */
	uint32_t *free;		/* ring of released slots, oldest first */
	uint32_t free_head;
	uint32_t nfree;
	uint32_t last;		/* handle_get_last: the handle it resolved last */
	void *last_obj;		/* and its object (0 and NULL: none) */
};

extern struct handle_table handle_tables[HANDLE_NKINDS];

static inline int handle_null(enum handle_kind kind)
{
	return (int)((unsigned)kind << HANDLE_KIND_SHIFT);
}

static inline int handle_builtin(enum handle_kind kind, unsigned index)
{
	return (int)(((unsigned)kind << HANDLE_KIND_SHIFT) | HANDLE_BUILTIN | index);
}

static inline int handle_is_builtin(int h)
{
	return ((unsigned)h & HANDLE_BUILTIN) != 0;
}

/* The object behind h if h is a live handle of this kind, else NULL. */
static inline void *handle_get(int h, enum handle_kind kind)
{
	unsigned u = (unsigned)h;
	struct handle_table *t = &handle_tables[kind];
	uint32_t slot;

	if ((u >> HANDLE_KIND_SHIFT & HANDLE_KIND_MASK) != kind || (u >> 31))
		return NULL;
	if (u & HANDLE_BUILTIN) {
		slot = u & ~(HANDLE_KIND_MASK << HANDLE_KIND_SHIFT | HANDLE_BUILTIN);
		return slot < HANDLE_MAX_BUILTIN ? t->builtin[slot] : NULL;
	}
	slot = u & HANDLE_SLOT_MASK;
	if (slot == 0 || slot >= t->next ||
	    t->gens[slot] != (u >> HANDLE_GEN_SHIFT & HANDLE_GEN_MASK))
		return NULL;
	return t->objs[slot];
}

/*
 * handle_get with a one-entry memory per kind, for the hot calls that pass
 * the same handle again and again (RMA on one window).  handle_release and
 * handle_set_builtin forget it.  Application thread only: the progress
 * thread must not resolve handles through it.
 */
static inline void *handle_get_last(int h, enum handle_kind kind)
{
	struct handle_table *t = &handle_tables[kind];
	void *obj;

	if ((unsigned)h == t->last)
		return t->last_obj;
	obj = handle_get(h, kind);
	if (obj) {
		t->last = (unsigned)h;
		t->last_obj = obj;
	}
	return obj;
}

/* Register a predefined object under handle_builtin(kind, index). */
void handle_set_builtin(enum handle_kind kind, unsigned index, void *obj);

/* A new handle for obj; -ENOMEM when the table cannot grow. */
int handle_alloc(enum handle_kind kind, void *obj, int *h);

/* Forget h (a live dynamic handle): it resolves to nothing from now on. */
void handle_release(int h);

/* Forget every handle (MPI_Finalize); builtins are registered again by init. */
void handle_reset_all(void);

#endif
