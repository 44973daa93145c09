/* Check tests of shm/job.c: control segment layout, names, dead-job cleanup. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.h"
#include "seg.h"

/* The channel geometry: the ring size and the pool rings per inbox, and
 * what all inboxes may take at most if every pool ring is used. */
static void geometry(uint32_t n, uint64_t want_cap, uint32_t want_rings)
{
	uint64_t cap;
	uint32_t rings;

	shm_job_chan_geometry(n, &cap, &rings);
	ck_assert_uint_eq(cap, want_cap);
	ck_assert_uint_eq(rings, want_rings);
	ck_assert_uint_le((uint64_t)n * (rings + 1) * cap, n <= 256 ? (uint64_t)n << 20 : 256u << 20);
}

START_TEST(channel_geometry)
{
	/* a ring for every sender while 1 MiB per rank (256 MiB per job)
	 * allows rings of 16 KiB (and at most 256 KiB); then fewer, shared
	 * ring for the rest */
	geometry(2, 256 << 10, 2);
	geometry(3, 256 << 10, 3);
	geometry(4, 128 << 10, 4);
	geometry(8, 64 << 10, 8);
	geometry(16, 32 << 10, 16);
	geometry(64, 16 << 10, 63);
	geometry(256, 16 << 10, 63);
	geometry(1024, 16 << 10, 15);
	geometry(4096, 16 << 10, 3);
	/* the channels are O(n): at 4096 ranks they reserve under 300 MiB
	 * of the segment (the collective area grows with the square: an
	 * alltoall's data does; only what is written is backed by memory) */
	ck_assert_uint_lt(shm_job_size(8), 16 << 20);
	ck_assert_uint_lt(shm_job_size(4096) - shm_coll_size(4096), 300u << 20);
}
END_TEST

START_TEST(layout_and_check)
{
	size_t size = shm_job_size(8);
	struct shm_job_hdr *h = aligned_alloc(SHM_CACHE_LINE, size);

	ck_assert_uint_eq(size % SHM_CACHE_LINE, 0);
	memset(h, 0, size);
	shm_job_init(h, 8);
	ck_assert_int_eq(shm_job_check(h, size, 8), 0);
	ck_assert_int_eq(shm_job_check(h, size, 7), -EINVAL);
	ck_assert_int_eq(shm_job_check(h, size - 1, 8), -EINVAL);
	ck_assert_int_eq(atomic_load(&h->abort_rank), -1);
	for (int r = 0; r < 8; r++) {
		struct shm_rank_ctl *c = shm_job_rank(h, r);
		struct shm_inbox *ib = shm_job_inbox(h, r);
		struct shm_ring *last = shm_inbox_ring(ib, h->chan_rings - 1);

		ck_assert_uint_eq(((uintptr_t)c) % SHM_CACHE_LINE, 0);
		ck_assert((char *)(c + 1) <= (char *)h + size);
		ck_assert_uint_eq(atomic_load(&c->phase), SHM_RANK_STARTED);
		/* inboxes on pages of their own, after the collective area,
		 * the shared ring laid out, the pool not yet */
		ck_assert_uint_eq(((uintptr_t)ib - (uintptr_t)h) % 4096, 0);
		ck_assert((char *)ib >= (char *)shm_job_coll(h) + shm_coll_size(8));
		ck_assert_uint_eq(shm_inbox_shared(ib)->cap, h->chan_cap);
		ck_assert_uint_eq(shm_inbox_ring(ib, 0)->cap, 0);
		ck_assert_uint_eq(shm_inbox_claimed(ib), 0);
		ck_assert((char *)last + shm_ring_size(h->chan_cap) <=
			  (r == 7 ? (char *)h + size : (char *)shm_job_inbox(h, r + 1)));
		ck_assert_uint_eq((uintptr_t)last % SHM_CACHE_LINE, 0);
	}
	h->version++;
	ck_assert_int_eq(shm_job_check(h, size, 8), -EPROTO);
	h->version--;
	h->magic ^= 1;
	ck_assert_int_eq(shm_job_check(h, size, 8), -EPROTO);
	free(h);
}
END_TEST

START_TEST(job_ids_and_names)
{
	char a[SHM_JOB_ID_LEN + 1], b[SHM_JOB_ID_LEN + 1], name[64];

	ck_assert_int_eq(shm_job_id_new(a), 0);
	ck_assert_int_eq(shm_job_id_new(b), 0);
	ck_assert_uint_eq(strlen(a), SHM_JOB_ID_LEN);
	ck_assert_str_ne(a, b);
	ck_assert(shm_job_id_valid(a));
	ck_assert(!shm_job_id_valid(""));
	ck_assert(!shm_job_id_valid("0123456789abcde"));	/* 15 */
	ck_assert(!shm_job_id_valid("0123456789abcdef0"));	/* 17 */
	ck_assert(!shm_job_id_valid("0123456789ABCDEF"));
	ck_assert(!shm_job_id_valid("../../etc/passwd"));
	ck_assert(shm_job_id_valid("0123456789abcdef"));
	ck_assert_int_eq(shm_job_name(name, sizeof(name), 1000, "0123456789abcdef", "ctl"), 0);
	ck_assert_str_eq(name, "/shmpi-1000-0123456789abcdef-ctl");
	ck_assert_int_eq(shm_job_name(name, 10, 1000, "0123456789abcdef", "ctl"),
			 -ENAMETOOLONG);
}
END_TEST

/* Make an object of job id with suffix `what`; returns its segment. */
static void make_obj(struct shm_seg *seg, const char *id, const char *what, int flags)
{
	char name[SHM_NAME_MAX];

	ck_assert_int_eq(shm_job_name(name, sizeof(name), geteuid(), id, what), 0);
	ck_assert_int_eq(shm_seg_create(seg, name, 4096, flags), 0);
}

static int exists(const char *id, const char *what)
{
	char name[SHM_NAME_MAX], path[SHM_NAME_MAX + 16];

	shm_job_name(name, sizeof(name), geteuid(), id, what);
	snprintf(path, sizeof(path), "/dev/shm%s", name);
	return access(path, F_OK) == 0;
}

START_TEST(cleanup_removes_dead_jobs_only)
{
	char live[SHM_JOB_ID_LEN + 1], dead[SHM_JOB_ID_LEN + 1];
	char orphan[SHM_JOB_ID_LEN + 1], young[SHM_JOB_ID_LEN + 1];
	struct shm_seg lc, lw, dc, dw, ow, yw;
	char name[SHM_NAME_MAX];

	shm_job_id_new(live);
	shm_job_id_new(dead);
	shm_job_id_new(orphan);
	shm_job_id_new(young);
	make_obj(&lc, live, "ctl", SHM_SEG_LOCKED);	/* its launcher runs */
	make_obj(&lw, live, "win-1", 0);
	make_obj(&dc, dead, "ctl", 0);			/* nobody holds it */
	make_obj(&dw, dead, "win-1", 0);
	make_obj(&ow, orphan, "win-3", 0);		/* no control segment */

	/* counts are lower bounds: leftovers of other dead jobs may go too */
	/* with a long grace period the orphan may still be starting up */
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 2);
	ck_assert(exists(live, "ctl") && exists(live, "win-1"));
	ck_assert(!exists(dead, "ctl") && !exists(dead, "win-1"));
	ck_assert(exists(orphan, "win-3"));
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 0), 1);
	ck_assert(!exists(orphan, "win-3"));
	ck_assert(exists(live, "ctl") && exists(live, "win-1"));

	/* a control segment being created (no size yet) is left alone */
	shm_job_name(name, sizeof(name), geteuid(), young, "ctl");
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	make_obj(&yw, young, "win-0", 0);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 0);
	ck_assert(exists(young, "ctl") && exists(young, "win-0"));
	close(fd);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 0), 2);
	ck_assert(!exists(young, "ctl") && !exists(young, "win-0"));

	/* once its launcher is gone, the live job is dead too */
	shm_seg_close(&lc);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 2);
	ck_assert(!exists(live, "ctl") && !exists(live, "win-1"));
	shm_seg_close(&lw);
	shm_seg_close(&dc);
	shm_seg_close(&dw);
	shm_seg_close(&ow);
	shm_seg_close(&yw);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_job");
	TCase *tc = tcase_create("job");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, channel_geometry);
	tcase_add_test(tc, layout_and_check);
	tcase_add_test(tc, job_ids_and_names);
	tcase_add_test(tc, cleanup_removes_dead_jobs_only);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
