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
#include <sys/mman.h>
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
	int adopted;		/* the user's own pages (mem_adopt), not MPI_Alloc_mem's */
	unsigned refs;		/* adopted: the windows on them */
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

/* Take b out of the list the engine reads. */
static void mem_unlink(struct mem_block *b)
{
	for (struct mem_block **link = &mem_blocks; *link; link = &(*link)->next)
		if (*link == b) {
			progress_lock();
			*link = b->next;
			progress_unlock();
			return;
		}
}

static void mem_release(struct mem_block *b)
{
	shm_seg_unlink(b->seg.name);
	shm_seg_close(&b->seg);
	free(b);
}

/* ---- private memory made shared (MPI_Win_create, MPI_Win_attach) --------- */

/*
 * A window created with MPI_Win_create on whole pages of this process's
 * private anonymous memory (malloc's mappings, the heap, the program's
 * zero-filled data), or such a region attached to a dynamic window, turns
 * those pages into shared memory for the life of the window (while the
 * region stays attached), so that the other ranks reach them with loads
 * and stores as they reach MPI_Alloc_mem memory, instead of through the
 * kernel or the target's engine (README, "What is implemented": windows
 * on private memory made shared).
 *
 * Adopting: a new segment of the same size is created and mapped, the
 * pages' contents copied into it, and the mapping moved over the pages
 * with mremap(MREMAP_FIXED), which replaces them in one step: the address
 * range is never unmapped.  Giving back, when the last window on the pages
 * is freed (or at MPI_Finalize): fresh private memory takes the contents
 * and is moved back over the range the same way, and the segment's name
 * goes.  Either way a store that another thread of this process makes to
 * the pages between the copy and the move is lost: the memory a window
 * is being created or freed on is not written meanwhile.
 *
 * Only whole pages, so that no byte outside the window changes its
 * backing: the other bytes of a shared page may be anybody's (another
 * thread's malloc writing its bookkeeping next to the buffer, say).  Only
 * anonymous private memory ("rw-p", no file, or the heap), never a file's
 * mapping, the stack or memory that is shared already.
 */

/*
 * Whether /proc/self/maps (sorted by address) covers [base, base + size)
 * without a gap, with mappings that are all either private anonymous
 * memory that may be read and written (path NULL), or the shared mapping
 * of the file at path.
 */
static int mem_maps_cover(const void *base, size_t size, const char *path_want)
{
	uintptr_t at = (uintptr_t)base, end = at + size;
	FILE *f = fopen("/proc/self/maps", "re");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return 0;
	while (at < end && getline(&line, &cap, f) > 0) {
		unsigned long lo, hi, off, inode;
		char perms[8], *path;
		int n = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %*x:%*x %lu %n", &lo, &hi, perms, &off,
			   &inode, &n) < 5 || n == 0)
			break;
		if (hi <= at)
			continue;
		path = line + n;
		path[strcspn(path, "\n")] = '\0';
		if (lo > at)
			break;
		if (!path_want && (strcmp(perms, "rw-p") != 0 || inode != 0 ||
				   (path[0] && strcmp(path, "[heap]") != 0)))
			break;
		if (path_want && (strcmp(perms, "rw-s") != 0 || strcmp(path, path_want) != 0))
			break;
		at = hi;
	}
	free(line);
	fclose(f);
	return at >= end;
}

/* The adopted block holding base, or NULL. */
static struct mem_block *mem_adopted_at(const void *base)
{
	for (struct mem_block *b = mem_blocks; b; b = b->next)
		if (b->adopted && (const char *)base >= (char *)b->seg.base &&
		    (const char *)base < (char *)b->seg.base + b->seg.size)
			return b;
	return NULL;
}

int mem_adopt(void *base, size_t size, size_t max)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char name[SHM_NAME_MAX], what[48];
	struct mem_block *b = mem_adopted_at(base);
	void *to;

	if (b && (char *)base + size <= (char *)b->seg.base + b->seg.size) {
		b->refs++;	/* another window on the same pages */
		return 1;
	}
	if (b || size == 0 || size > max || (uintptr_t)base % page || size % page ||
	    mem_find(base, size, name, &(size_t){ 0 }) == 0 || !mem_maps_cover(base, size, NULL))
		return 0;
	b = calloc(1, sizeof(*b));
	if (!b)
		return 0;
	snprintf(what, sizeof(what), "m%d.%u", rt.rank, mem_counter++);
	shm_job_name(name, sizeof(name), geteuid(), rt.job_id, what);
	if (shm_seg_create(&b->seg, name, size, 0) < 0) {
		free(b);
		return 0;
	}
	/* the pages mapped in one call, not a fault each (kernels from 5.14;
	 * elsewhere the copy faults them in) */
	(void)madvise(b->seg.base, size, MADV_POPULATE_WRITE);
	memcpy(b->seg.base, base, size);
	to = mremap(b->seg.base, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, base);
	if (to != base) {
		shm_seg_unlink(b->seg.name);
		shm_seg_close(&b->seg);
		free(b);
		return 0;
	}
	b->seg.base = base;
	b->size = size;
	b->adopted = 1;
	b->refs = 1;
	/* for shmrun --verbose (shm/job.h) */
	atomic_fetch_or_explicit(&rt.job->single_copy, SHM_JOB_COPY_WIN_SHARED,
				 memory_order_relaxed);
	progress_lock();
	b->next = mem_blocks;
	mem_blocks = b;
	progress_unlock();
	return 1;
}

/*
 * Give an adopted block's pages back as private memory.  Only when the
 * range is still the segment's mapping (/proc/self/maps names it): a
 * program that unmapped the memory before freeing its window must not
 * have whatever took its place overwritten.  Where no private memory is to
 * be had, the pages stay shared, and correct.
 */
static void mem_give_back(struct mem_block *b)
{
	size_t size = b->seg.size;
	void *fresh = MAP_FAILED;
	char path[SHM_NAME_MAX + 16];

	snprintf(path, sizeof(path), "/dev/shm%s", b->seg.name);
	if (mem_maps_cover(b->seg.base, size, path))
		fresh = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (fresh != MAP_FAILED) {
		memcpy(fresh, b->seg.base, size);
		if (mremap(fresh, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, b->seg.base) !=
		    b->seg.base)
			munmap(fresh, size);
	}
	shm_seg_unlink(b->seg.name);
	free(b);
}

void mem_adopt_drop(void *base)
{
	struct mem_block *b = mem_adopted_at(base);

	if (!b || --b->refs > 0)
		return;
	mem_unlink(b);
	mem_give_back(b);
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
		if (b->adopted)
			mem_give_back(b);	/* the program keeps its memory */
		else
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
	struct mem_block *b;

	runtime_check("MPI_Free_mem");
	for (b = mem_blocks; b; b = b->next)
		if (b->seg.base == base && !b->adopted) {
			mem_unlink(b);
			mem_release(b);
			return MPI_SUCCESS;
		}
	return err_comm(MPI_COMM_WORLD, "MPI_Free_mem", MPI_ERR_BASE, "base",
			"%p was not returned by MPI_Alloc_mem", base);
}
