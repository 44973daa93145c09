#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "knob.h"
#include "seg.h"

/* Inboxes start on pages of their own (the page of shared memory). */
#define JOB_PAGE 4096u
#define JOB_CHAN_MAX (256u << 10)
#define JOB_CHAN_MIN (16u << 10)
#define JOB_CHAN_FIXED_MIN (4u << 10)	/* SHMPI_CHANNEL_BYTES=4k */
#define JOB_INBOX_MAX (1u << 20)	/* per rank */
#define JOB_INBOX_MIN (64u << 10)
#define JOB_CHAN_TOTAL (256u << 20)	/* the whole job, from 256 ranks up */

/*
 * Each rank's inbox may take B = 256 MiB / n, between 64 KiB and 1 MiB
 * (what the pages that carry records can add up to, if every pool ring of
 * every rank is used).  Rings are as large as B allows a ring for every
 * sender, up to 256 KiB (256 KiB at 2 and 3 ranks, 64 KiB at 8, 16 KiB at
 * 64), but not below 16 KiB: then there are fewer pool rings than senders
 * (63 at 256 ranks, 15 at 1024, 3 at 4096) and the other senders share the
 * inbox's shared ring.  Large rings pay at small jobs: a stream of 64
 * messages of 1 KiB between two ranks here moved 2.6 GB/s through rings
 * of 64 KiB or 128 KiB and 7.9 GB/s through rings of 256 KiB (8 KiB: 8.3
 * and 16.2 GB/s), larger ones adding nothing.
 */
void shm_job_chan_geometry(uint32_t nranks, uint64_t *cap_out, uint32_t *rings_out)
{
	uint64_t budget = JOB_CHAN_TOTAL / nranks, cap = JOB_CHAN_MAX;
	long fixed;

	if (budget > JOB_INBOX_MAX)
		budget = JOB_INBOX_MAX;
	if (budget < JOB_INBOX_MIN)
		budget = JOB_INBOX_MIN;
	/* SHMPI_CHANNEL_BYTES (shm/knob.c): auto, then 4k doubling up */
	if (shm_knob_get(SHM_KNOB_CHANNEL, &fixed) == 0 && fixed > 0)
		cap = (uint64_t)JOB_CHAN_FIXED_MIN << (fixed - 1);
	else
		while (cap > JOB_CHAN_MIN && cap * (nranks + 1) > budget)
			cap /= 2;
	*cap_out = cap;
	*rings_out = budget / cap > nranks ? nranks :
		     budget / cap > 1 ? (uint32_t)(budget / cap) - 1 : 1;
	/* SHMPI_CHANNEL_RINGS: auto, then 0, 1, 2, 4, ... */
	if (shm_knob_get(SHM_KNOB_CHANNEL_RINGS, &fixed) == 0 && fixed > 0)
		*rings_out = fixed == 1 ? 0 : 1u << (fixed - 2);
}

static size_t job_ranks_off(void)
{
	return (sizeof(struct shm_job_hdr) + SHM_CACHE_LINE - 1) &
	       ~(size_t)(SHM_CACHE_LINE - 1);
}

static size_t job_coll_off(uint32_t nranks)
{
	return job_ranks_off() + (size_t)nranks * sizeof(struct shm_rank_ctl);
}

static size_t job_inbox_off(uint32_t nranks)
{
	size_t end = job_coll_off(nranks) + shm_coll_size(nranks);

	return (end + JOB_PAGE - 1) & ~(size_t)(JOB_PAGE - 1);
}

static size_t job_inbox_stride(uint32_t nranks)
{
	uint64_t cap;
	uint32_t rings;

	shm_job_chan_geometry(nranks, &cap, &rings);
	return (shm_inbox_size(nranks, rings, cap) + JOB_PAGE - 1) & ~(size_t)(JOB_PAGE - 1);
}

size_t shm_job_size(uint32_t nranks)
{
	return job_inbox_off(nranks) + (size_t)nranks * job_inbox_stride(nranks);
}

int shm_job_reserve(const struct shm_seg *seg, uint32_t nranks)
{
	size_t off = job_inbox_off(nranks), stride = job_inbox_stride(nranks), fixed;
	uint64_t cap;
	uint32_t rings;
	int rc;

	/* the header, the rank blocks, the collective area */
	rc = shm_seg_reserve(seg, 0, off);
	/* each inbox's lines and its shared ring */
	shm_job_chan_geometry(nranks, &cap, &rings);
	fixed = shm_inbox_size(nranks, rings, cap) - (size_t)rings * shm_ring_size(cap);
	for (uint32_t r = 0; rc == 0 && r < nranks; r++)
		rc = shm_seg_reserve(seg, off + r * stride, fixed);
	return rc;
}

void shm_job_init(struct shm_job_hdr *hdr, uint32_t nranks)
{
	hdr->magic = SHM_JOB_MAGIC;
	hdr->version = SHM_JOB_VERSION;
	hdr->nranks = nranks;
	hdr->size = shm_job_size(nranks);
	hdr->ranks_off = job_ranks_off();
	hdr->inbox_off = job_inbox_off(nranks);
	hdr->inbox_stride = job_inbox_stride(nranks);
	shm_job_chan_geometry(nranks, &hdr->chan_cap, &hdr->chan_rings);
	hdr->coll_off = job_coll_off(nranks);
	/* context ids 0-3 belong to MPI_COMM_WORLD and MPI_COMM_SELF, 4-5 to
	 * the library's communicator for sessions (src/comm.h) */
	atomic_store_explicit(&hdr->next_ctx, 6, memory_order_relaxed);
	shm_coll_init(shm_job_coll(hdr), nranks);
	atomic_store_explicit(&hdr->abort_rank, -1, memory_order_relaxed);
	atomic_store_explicit(&hdr->abort_code, 0, memory_order_relaxed);
	for (uint32_t r = 0; r < nranks; r++) {
		struct shm_rank_ctl *ctl = shm_job_rank(hdr, (int)r);

		memset(ctl, 0, sizeof(*ctl));
		atomic_store_explicit(&ctl->phase, SHM_RANK_STARTED,
				      memory_order_relaxed);
		shm_inbox_init(shm_job_inbox(hdr, (int)r), nranks, hdr->chan_rings,
			       hdr->chan_cap);
	}
}

int shm_job_check(const struct shm_job_hdr *hdr, size_t mapped, uint32_t nranks)
{
	uint64_t cap;
	uint32_t rings;

	if (mapped < sizeof(*hdr) || hdr->magic != SHM_JOB_MAGIC ||
	    hdr->version != SHM_JOB_VERSION)
		return -EPROTO;
	if (hdr->nranks != nranks || hdr->size != shm_job_size(nranks) ||
	    hdr->size > mapped || hdr->ranks_off != job_ranks_off() ||
	    hdr->inbox_off != job_inbox_off(nranks) ||
	    hdr->inbox_stride != job_inbox_stride(nranks) ||
	    hdr->coll_off != job_coll_off(nranks))
		return -EINVAL;
	shm_job_chan_geometry(nranks, &cap, &rings);
	if (hdr->chan_cap != cap || hdr->chan_rings != rings)
		return -EINVAL;
	return 0;
}

/* n random bytes: getrandom (Linux 3.17), else, where the kernel lacks it
 * or a seccomp filter refuses it, /dev/urandom. */
static int job_random(unsigned char *buf, size_t n)
{
	ssize_t got = getrandom(buf, n, 0);
	int fd, rc;

	if (got == (ssize_t)n)
		return 0;
	if (got >= 0 || (errno != ENOSYS && errno != EPERM))
		return got < 0 ? -errno : -EIO;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, n);
	rc = got == (ssize_t)n ? 0 : got < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

int shm_job_id_new(char id[SHM_JOB_ID_LEN + 1])
{
	unsigned char raw[SHM_JOB_ID_LEN / 2];
	int rc = job_random(raw, sizeof(raw));

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(id + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

int shm_job_id_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	}
	return i == SHM_JOB_ID_LEN;
}

int shm_job_name(char *buf, size_t len, uid_t uid, const char *id, const char *what)
{
	int n = snprintf(buf, len, "/" SHM_JOB_NAME_PREFIX "%u-%s-%s",
			 (unsigned)uid, id, what);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Whether an object whose status changed at `ctime` is younger than the grace
 * period.  time(2) reads the clock as of the last tick, while tmpfs may stamp
 * a file from the fine-grained clock (multigrain timestamps, Linux 6.13), so
 * a new file can look up to a tick in the future: `now` is the fine clock,
 * and a grace of 0 means none at all.
 */
static int job_young(time_t now, time_t ctime, int grace_s)
{
	return grace_s > 0 && now - ctime < grace_s;
}

/*
 * What cleanup makes of a job id: alive (leave it), dead (remove all of it),
 * or without control segment (remove only objects past the grace period:
 * a job's objects may exist briefly before its control segment is sized).
 */
enum job_fate { JOB_ALIVE, JOB_DEAD, JOB_NO_CTL };

static enum job_fate job_judge(uid_t uid, const char *id, time_t now, int grace_s)
{
	char name[128];
	struct stat st;
	enum job_fate fate;
	int fd;

	if (shm_job_name(name, sizeof(name), uid, id, "ctl") < 0)
		return JOB_ALIVE;
	fd = shm_open(name, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno == ENOENT ? JOB_NO_CTL : JOB_ALIVE;
	if (fstat(fd, &st) < 0 || st.st_uid != uid)
		fate = JOB_ALIVE;	/* not ours to judge */
	else if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		fate = JOB_ALIVE;	/* its launcher holds the lock */
	else if (st.st_size == 0 && job_young(now, st.st_ctime, grace_s))
		fate = JOB_ALIVE;	/* still being created */
	else
		fate = JOB_DEAD;
	close(fd);
	return fate;
}

/* The job id inside a /dev/shm entry name of uid, or 0 if it is none. */
static int job_id_of(const char *entry, const char *prefix, size_t plen,
		     char id[SHM_JOB_ID_LEN + 1])
{
	const char *rest = entry + plen;

	if (strncmp(entry, prefix, plen) != 0 || strlen(rest) <= SHM_JOB_ID_LEN ||
	    rest[SHM_JOB_ID_LEN] != '-')
		return 0;
	memcpy(id, rest, SHM_JOB_ID_LEN);
	id[SHM_JOB_ID_LEN] = '\0';
	return shm_job_id_valid(id);
}

int shm_job_cleanup_dead(uid_t uid, int grace_s)
{
	struct judged {
		char id[SHM_JOB_ID_LEN + 1];
		enum job_fate fate;
	} *jobs = NULL;
	char prefix[64], id[SHM_JOB_ID_LEN + 1];
	size_t njobs = 0, cap = 0, plen;
	struct timespec clock_now;
	struct dirent *de;
	int removed = 0;
	time_t now;
	DIR *dir;

	clock_gettime(CLOCK_REALTIME, &clock_now);
	now = clock_now.tv_sec;
	snprintf(prefix, sizeof(prefix), SHM_JOB_NAME_PREFIX "%u-", (unsigned)uid);
	plen = strlen(prefix);
	dir = opendir("/dev/shm");
	if (!dir)
		return -errno;
	/* judge every job before removing anything: removal changes the view */
	while ((de = readdir(dir)) != NULL) {
		size_t j;

		if (!job_id_of(de->d_name, prefix, plen, id))
			continue;
		for (j = 0; j < njobs && strcmp(jobs[j].id, id) != 0; j++)
			;
		if (j < njobs)
			continue;
		if (njobs == cap) {
			struct judged *more;

			cap = cap ? 2 * cap : 16;
			more = realloc(jobs, cap * sizeof(*jobs));
			if (!more) {
				removed = -ENOMEM;
				goto out;
			}
			jobs = more;
		}
		memcpy(jobs[njobs].id, id, sizeof(id));
		jobs[njobs].fate = job_judge(uid, id, now, grace_s);
		njobs++;
	}
	rewinddir(dir);
	while ((de = readdir(dir)) != NULL) {
		struct stat st;
		size_t j;

		if (!job_id_of(de->d_name, prefix, plen, id))
			continue;
		for (j = 0; j < njobs && strcmp(jobs[j].id, id) != 0; j++)
			;
		if (j == njobs || jobs[j].fate == JOB_ALIVE)
			continue;
		if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    st.st_uid != uid)
			continue;
		if (jobs[j].fate == JOB_NO_CTL && job_young(now, st.st_ctime, grace_s))
			continue;
		if (unlinkat(dirfd(dir), de->d_name, 0) == 0)
			removed++;
	}
out:
	free(jobs);
	closedir(dir);
	return removed;
}
