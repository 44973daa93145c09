/*
 * Shared-memory segments: POSIX shm objects created with O_EXCL and mode
 * 0600, their pages reserved up front with posix_fallocate (a full /dev/shm
 * is -ENOSPC here, never a SIGBUS later), mapped read-write and shared.
 * Opening checks that the object belongs to this user and nobody else may
 * read or write it.
 */
#ifndef SHM_SEG_H
#define SHM_SEG_H

#include <stddef.h>

#define SHM_NAME_MAX 96

struct shm_seg {
	void *base;
	size_t size;
	int fd;			/* open only with SHM_SEG_LOCKED, else -1 */
	char name[SHM_NAME_MAX];
};

/* Keep the object open and flock()ed exclusively until shm_seg_close: the
 * lock is taken before the object has a size, so whoever sees a sized object
 * unlocked knows its creator is gone. */
#define SHM_SEG_LOCKED 1

/* Create and map a new segment of `size` bytes (zero-filled). */
int shm_seg_create(struct shm_seg *seg, const char *name, size_t size, int flags);

/* Map an existing segment; its size is the object's size. */
int shm_seg_open(struct shm_seg *seg, const char *name);

/* Unmap and drop the lock if held (the name stays unless unlinked). */
void shm_seg_close(struct shm_seg *seg);

/* Remove the name; mappings stay valid.  -ENOENT when already gone. */
int shm_seg_unlink(const char *name);

#endif
