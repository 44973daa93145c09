#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seg.h"

static int seg_map(struct shm_seg *seg, const char *name, int fd, size_t size)
{
	void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (base == MAP_FAILED)
		return -errno;
	seg->base = base;
	seg->size = size;
	seg->fd = -1;
	snprintf(seg->name, sizeof(seg->name), "%s", name);
	return 0;
}

int shm_seg_create(struct shm_seg *seg, const char *name, size_t size, int flags)
{
	int fd, rc;

	if (size == 0 || strlen(name) >= SHM_NAME_MAX)
		return -EINVAL;
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if ((flags & SHM_SEG_LOCKED) && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -errno;
		goto err_unlink;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		rc = -errno;
		goto err_unlink;
	}
	/* reserve every page now: a full /dev/shm fails here, not as SIGBUS */
	if (!(flags & SHM_SEG_SPARSE)) {
		rc = -posix_fallocate(fd, 0, (off_t)size);
		if (rc < 0)
			goto err_unlink;
	}
	rc = seg_map(seg, name, fd, size);
	if (rc < 0)
		goto err_unlink;
	if (flags & SHM_SEG_LOCKED)
		seg->fd = fd;
	else
		close(fd);
	return 0;

err_unlink:
	shm_unlink(name);
	close(fd);
	return rc;
}

int shm_seg_open(struct shm_seg *seg, const char *name, int flags)
{
	struct stat st;
	int fd, rc;

	if (strlen(name) >= SHM_NAME_MAX)
		return -EINVAL;
	fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out_close;
	}
	/* only our own, private objects: anything else is not ours to map */
	if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		rc = -EPERM;
		goto out_close;
	}
	if (st.st_size <= 0) {
		rc = -EINVAL;
		goto out_close;
	}
	rc = seg_map(seg, name, fd, (size_t)st.st_size);
	if (rc == 0 && (flags & SHM_SEG_KEEP_FD)) {
		seg->fd = fd;
		return 0;
	}
out_close:
	close(fd);
	return rc;
}

int shm_seg_reserve(const struct shm_seg *seg, size_t off, size_t len)
{
	if (seg->fd < 0 || off > seg->size || len > seg->size - off)
		return -EINVAL;
	return -posix_fallocate(seg->fd, (off_t)off, (off_t)len);
}

void shm_seg_close(struct shm_seg *seg)
{
	if (seg->base)
		munmap(seg->base, seg->size);
	if (seg->fd >= 0)
		close(seg->fd);
	seg->base = NULL;
	seg->size = 0;
	seg->fd = -1;
}

int shm_seg_unlink(const char *name)
{
	return shm_unlink(name) < 0 ? -errno : 0;
}
