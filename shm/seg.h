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
	int fd;			/* open only with SHM_SEG_LOCKED or SHM_SEG_KEEP_FD, else -1 */
	char name[SHM_NAME_MAX];
};

/* Keep the object open and flock()ed exclusively until shm_seg_close: the
 * lock is taken before the object has a size, so whoever sees a sized object
 * unlocked knows its creator is gone. */
#define SHM_SEG_LOCKED 1

/* Reserve no page at creation: the creator reserves what must never be
 * missing with shm_seg_reserve, and the rest is backed as it is written
 * (a page that finds /dev/shm full then raises SIGBUS: reserve a range
 * before writing it where that can happen). */
#define SHM_SEG_SPARSE 2

/* Open with shm_seg_open: keep the object open for shm_seg_reserve. */
#define SHM_SEG_KEEP_FD 4

/* Create and map a new segment of `size` bytes (zero-filled); every page
 * is reserved at once unless SHM_SEG_SPARSE (a full /dev/shm fails here,
 * not later as SIGBUS). */
int shm_seg_create(struct shm_seg *seg, const char *name, size_t size, int flags);

/* Map an existing segment; its size is the object's size.  flags: 0 or
 * SHM_SEG_KEEP_FD. */
int shm_seg_open(struct shm_seg *seg, const char *name, int flags);

/* Back bytes [off, off + len) of a segment created or opened with its
 * object kept open (SHM_SEG_LOCKED, SHM_SEG_KEEP_FD) with memory now;
 * -ENOSPC when /dev/shm is full, and nothing of the range is then
 * reserved that was not before. */
int shm_seg_reserve(const struct shm_seg *seg, size_t off, size_t len);

/* Unmap and drop the lock if held (the name stays unless unlinked). */
void shm_seg_close(struct shm_seg *seg);

/* Remove the name; mappings stay valid.  -ENOENT when already gone. */
int shm_seg_unlink(const char *name);

#endif
