#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "handle.h"

struct handle_table handle_tables[HANDLE_NKINDS];

void handle_set_builtin(enum handle_kind kind, unsigned index, void *obj)
{
	handle_tables[kind].builtin[index] = obj;
	handle_tables[kind].last = 0;
	handle_tables[kind].last_obj = NULL;
}

static int table_grow(struct handle_table *t)
{
	uint32_t cap = t->cap ? 2 * t->cap : 64;
	void **objs;
	uint8_t *gens;
	uint32_t *free_slots;

	if (cap > HANDLE_SLOT_MASK + 1)
		cap = HANDLE_SLOT_MASK + 1;
	if (cap <= t->cap)
		return -ENOMEM;
	objs = realloc(t->objs, cap * sizeof(*objs));
	if (!objs)
		return -ENOMEM;
	t->objs = objs;
	gens = realloc(t->gens, cap * sizeof(*gens));
	if (!gens)
		return -ENOMEM;
	t->gens = gens;
	/* the free ring is copied out in order: wrapping would break on resize */
	free_slots = malloc(cap * sizeof(*free_slots));
	if (!free_slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nfree; i++)
		free_slots[i] = t->free[(t->free_head + i) % t->cap];
	free(t->free);
	t->free = free_slots;
	t->free_head = 0;
	memset(t->gens + t->cap, 0, cap - t->cap);
	t->cap = cap;
	return 0;
}

int handle_alloc(enum handle_kind kind, void *obj, int *h)
{
	struct handle_table *t = &handle_tables[kind];
	uint32_t slot;

	if (t->nfree > HANDLE_REUSE_DELAY) {
		slot = t->free[t->free_head];
		t->free_head = (t->free_head + 1) % t->cap;
		t->nfree--;
	} else {
		if (t->next == 0)
			t->next = 1;	/* slot 0 is the null handle */
		if (t->next >= t->cap && table_grow(t) < 0)
			return -ENOMEM;
		slot = t->next++;
	}
	t->objs[slot] = obj;
	*h = (int)(((unsigned)kind << HANDLE_KIND_SHIFT) |
		   (unsigned)t->gens[slot] << HANDLE_GEN_SHIFT | slot);
	return 0;
}

void handle_release(int h)
{
	unsigned kind = (unsigned)h >> HANDLE_KIND_SHIFT & HANDLE_KIND_MASK;
	struct handle_table *t = &handle_tables[kind];
	uint32_t slot = (unsigned)h & HANDLE_SLOT_MASK;

	if (t->last == (unsigned)h) {
		t->last = 0;
		t->last_obj = NULL;
	}
	t->objs[slot] = NULL;
	t->gens[slot] = (uint8_t)((t->gens[slot] + 1) & HANDLE_GEN_MASK);
	t->free[(t->free_head + t->nfree) % t->cap] = slot;
	t->nfree++;
}

void handle_reset_all(void)
{
	for (int k = 0; k < HANDLE_NKINDS; k++) {
		/* info objects and error handlers outlive the library: the
		 * program may use and free them after MPI_Finalize (MPI 4.1,
		 * section 11.4.1) */
		if (k == HANDLE_INFO || k == HANDLE_ERRHANDLER)
			continue;
		free(handle_tables[k].objs);
		free(handle_tables[k].gens);
		free(handle_tables[k].free);
		memset(&handle_tables[k], 0, sizeof(handle_tables[k]));
	}
}
