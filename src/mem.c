/*
 * MPI_Alloc_mem and MPI_Free_mem.  Every allocation is a shared-memory
 * segment of its own, named after the job, the rank and a counter, mapped
 * here and kept linked until MPI_Free_mem: a window created on the memory
 * later lets the other ranks map it by that name.  shmrun removes whatever
 * a job leaves behind.
 *
 * The progress engine looks these lists up too (a large message's sender
 * says where its buffer is, its receiver finds a window's segment:
 * p2p_copy.c), from the progress thread under strong progress: they change
 * under the engine's lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "errhandler.h"
#include "info.h"
#include "mem.h"
#include "place.h"
#include "progress.h"
#include "runtime.h"

struct mem_block {
	struct shm_seg seg;
	size_t size;		/* what the user asked for */
	struct mem_block *next;
};

/* Windows' segments mapped here, under a key every member knows. */
struct mem_shared {
	char key[SHM_NAME_MAX];
	char *base;
	size_t size;
	struct mem_shared *next;
};

static struct mem_block *mem_blocks;
static struct mem_shared *mem_shared;
static unsigned mem_counter;

int mem_find(const void *addr, size_t len, char name[SHM_NAME_MAX], size_t *offset)
{
	const char *a = addr;

	for (struct mem_block *b = mem_blocks; b; b = b->next) {
		const char *base = b->seg.base;

		if (a >= base && a + len <= base + b->seg.size) {
			snprintf(name, SHM_NAME_MAX, "%s", b->seg.name);
			*offset = (size_t)(a - base);
			return 0;
		}
	}
	for (struct mem_shared *s = mem_shared; s; s = s->next)
		if (a >= s->base && a + len <= s->base + s->size) {
			snprintf(name, SHM_NAME_MAX, "%s", s->key);
			*offset = (size_t)(a - s->base);
			return 0;
		}
	return -ENOENT;
}

int mem_share(const char *key, void *base, size_t size)
{
	struct mem_shared *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->base = base;
	s->size = size;
	progress_lock();
	s->next = mem_shared;
	mem_shared = s;
	progress_unlock();
	return 0;
}

void mem_unshare(const char *key)
{
	for (struct mem_shared **link = &mem_shared; *link; link = &(*link)->next)
		if (!strcmp((*link)->key, key)) {
			struct mem_shared *s = *link;

			progress_lock();
			*link = s->next;
			progress_unlock();
			free(s);
			return;
		}
}

void *mem_shared_base(const char *key)
{
	for (struct mem_shared *s = mem_shared; s; s = s->next)
		if (!strcmp(s->key, key))
			return s->base;
	return NULL;
}

static void mem_release(struct mem_block *b)
{
	shm_seg_unlink(b->seg.name);
	shm_seg_close(&b->seg);
	free(b);
}

void mem_fini(void)
{
	while (mem_shared) {
		struct mem_shared *s = mem_shared;

		mem_shared = s->next;
		free(s);
	}
	while (mem_blocks) {
		struct mem_block *b = mem_blocks;

		mem_blocks = b->next;
		mem_release(b);
	}
}

API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
{
	long page = sysconf(_SC_PAGESIZE);
	char name[SHM_NAME_MAX], what[48];
	struct mem_block *b;
	size_t bytes;
	int rc;

	runtime_check("MPI_Alloc_mem");
	if (size < 0)
		return err_comm(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_SIZE, "size",
				"%ld is negative", (long)size);
	if (info != MPI_INFO_NULL && !info_get(info))
		return err_comm(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	if (!baseptr)
		return err_comm(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_ARG, "baseptr",
				"is NULL");
	/* whole pages (a size of 0 still gets a distinct address) */
	bytes = ((size_t)size + (size_t)page - 1) & ~((size_t)page - 1);
	if (bytes == 0)
		bytes = (size_t)page;
	b = calloc(1, sizeof(*b));
	if (!b)
		return err_comm(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_NO_MEM, NULL,
				"out of memory");
	snprintf(what, sizeof(what), "m%d.%u", rt.rank, mem_counter++);
	shm_job_name(name, sizeof(name), geteuid(), rt.job_id, what);
	rc = shm_seg_create(&b->seg, name, bytes, 0);
	if (rc < 0) {
		free(b);
		return err_comm(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_NO_MEM, "size",
				"%ld bytes of shared memory: %s", (long)size, strerror(-rc));
	}
	place_portion(b->seg.base, bytes, info_get(info));	/* this rank's NUMA node */
	b->size = (size_t)size;
	progress_lock();
	b->next = mem_blocks;
	mem_blocks = b;
	progress_unlock();
	*(void **)baseptr = b->seg.base;
	return MPI_SUCCESS;
}

API(int, Free_mem, (void *base))
{
	struct mem_block **link;

	runtime_check("MPI_Free_mem");
	for (link = &mem_blocks; *link; link = &(*link)->next)
		if ((*link)->seg.base == base) {
			struct mem_block *b = *link;

			progress_lock();
			*link = b->next;
			progress_unlock();
			mem_release(b);
			return MPI_SUCCESS;
		}
	return err_comm(MPI_COMM_WORLD, "MPI_Free_mem", MPI_ERR_BASE, "base",
			"%p was not returned by MPI_Alloc_mem", base);
}
