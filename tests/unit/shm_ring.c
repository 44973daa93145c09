/* Check tests of shm/ring.c: records in order, wrapping, full and empty,
 * and a producer/consumer pair of processes hammering one ring. */
#include <check.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ring.h"

static struct shm_ring *ring_new(uint64_t cap)
{
	struct shm_ring *r = mmap(NULL, shm_ring_size(cap), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(r, MAP_FAILED);
	shm_ring_init(r, cap);
	return r;
}

static void put(struct shm_ring *r, const char *s)
{
	char *p = shm_ring_reserve(r, (uint32_t)strlen(s));

	ck_assert_ptr_nonnull(p);
	memcpy(p, s, strlen(s));
	shm_ring_commit(r, p);
}

static void get(struct shm_ring *r, const char *want)
{
	uint32_t len;
	char *p = shm_ring_peek(r, &len);

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert(memcmp(p, want, len) == 0);
	shm_ring_release(r);
}

START_TEST(records_in_order)
{
	struct shm_ring *r = ring_new(256);
	uint32_t len;

	ck_assert_ptr_null(shm_ring_peek(r, &len));
	put(r, "one");
	put(r, "");
	put(r, "three33");
	/* each record a line of its own: header and payload, padded */
	ck_assert_uint_eq(shm_ring_used(r), 3 * SHM_CACHE_LINE);
	get(r, "one");
	get(r, "");
	get(r, "three33");
	ck_assert_ptr_null(shm_ring_peek(r, &len));
	ck_assert_uint_eq(shm_ring_used(r), 0);
}
END_TEST

START_TEST(records_start_lines)
{
	struct shm_ring *r = ring_new(1024);

	/* lengths that cross a line anywhere: every record still starts one,
	 * its 8-byte header first, and a short one stays in that line */
	for (uint32_t len = 0; len < 200; len += 7) {
		char *p = shm_ring_reserve(r, len);
		uint32_t got;

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(((uintptr_t)p - 8) % SHM_CACHE_LINE, 0);
		memset(p, 'a', len);
		shm_ring_commit(r, p);
		ck_assert_ptr_eq(shm_ring_peek(r, &got), p);
		ck_assert_uint_eq(got, len);
		shm_ring_release(r);
	}
}
END_TEST

START_TEST(uncommitted_record_is_invisible)
{
	struct shm_ring *r = ring_new(256);
	uint32_t len;
	char *p = shm_ring_reserve(r, 4);

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(shm_ring_peek(r, &len));
	shm_ring_commit(r, p);
	ck_assert_ptr_nonnull(shm_ring_peek(r, &len));
}
END_TEST

START_TEST(full_ring_refuses_then_accepts)
{
	struct shm_ring *r = ring_new(256);
	int n = 0;

	ck_assert_uint_eq(shm_ring_max_record(r), 120);
	ck_assert_ptr_null(shm_ring_reserve(r, 121));
	while (shm_ring_reserve(r, 40)) {
		shm_ring_commit(r, shm_ring_reserve(r, 40));
		n++;
	}
	/* three lines used; a fourth record needs its line and the 8 bytes
	 * of the next header, 72 of the 64 left: even an empty one */
	ck_assert_int_eq(n, 3);
	ck_assert(!shm_ring_fits(r, 0));
	ck_assert_ptr_null(shm_ring_reserve(r, 0));
	{
		uint32_t len;

		/* one released: a record of one line fits at the end, its next
		 * header at 0 (released); a longer one would need a pad of 64,
		 * its 128 and 8, more than the 128 free */
		ck_assert_ptr_nonnull(shm_ring_peek(r, &len));
		shm_ring_release(r);
		ck_assert(shm_ring_fits(r, 56));
		ck_assert(!shm_ring_fits(r, 57));
		ck_assert_ptr_null(shm_ring_reserve(r, 57));
		shm_ring_commit(r, shm_ring_reserve(r, 56));
		ck_assert_ptr_nonnull(shm_ring_peek(r, &len));
		shm_ring_release(r);
	}
	ck_assert_ptr_nonnull(shm_ring_reserve(r, 40));
}
END_TEST

START_TEST(wrapping_pads_to_the_end)
{
	struct shm_ring *r = ring_new(256);
	char s[130];

	/* three records of a line each, read as they come: the fourth, of two
	 * lines, does not fit before the end (192 + 128 > 256) */
	memset(s, 'a', 40);
	s[40] = '\0';
	for (int i = 0; i < 3; i++) {
		put(r, s);
		get(r, s);
	}
	memset(s, 'b', 100);
	s[100] = '\0';
	ck_assert(shm_ring_fits(r, 100));
	put(r, s);		/* needs a pad of 64 at 192, lands at 0 */
	ck_assert_uint_eq(atomic_load(&r->tail), 192 + 64 + 128);
	get(r, s);
	ck_assert_uint_eq(shm_ring_used(r), 0);
	/* the largest record fits in any position once the ring is empty */
	for (int i = 0; i < 10; i++) {
		char m[121];

		memset(m, 'c' + i, 120);
		m[120] = '\0';
		put(r, m);
		get(r, m);
		put(r, "z");
		get(r, "z");
	}
}
END_TEST

/*
 * Two processes: the producer writes records of pseudo-random sizes, each
 * filled with bytes derived from its sequence number; the consumer checks
 * every byte and the order.  The ring is small, so it wraps and fills
 * thousands of times.
 */
START_TEST(two_process_hammer)
{
	const uint32_t records = 50000;
	struct shm_ring *r = ring_new(1024);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		unsigned seed = 1;

		for (uint32_t i = 0; i < records; i++) {
			uint32_t len = 4 + (uint32_t)rand_r(&seed) % 500;
			unsigned char *p;

			for (unsigned spin = 0; !(p = shm_ring_reserve(r, len)); spin++)
				if (spin % 1024 == 1023)
					sched_yield();	/* the consumer may need our core */
				else
					shm_cpu_relax();
			memcpy(p, &i, 4);
			for (uint32_t k = 4; k < len; k++)
				p[k] = (unsigned char)(i + k);
			shm_ring_commit(r, p);
		}
		_exit(0);
	}
	unsigned seed = 1, bad = 0;

	for (uint32_t i = 0; i < records; i++) {
		uint32_t want = 4 + (uint32_t)rand_r(&seed) % 500, len, seq;
		unsigned char *p;

		for (unsigned spin = 0; !(p = shm_ring_peek(r, &len)); spin++)
			if (spin % 1024 == 1023)
				sched_yield();	/* the producer may need our core */
			else
				shm_cpu_relax();
		memcpy(&seq, p, 4);
		if (len != want || seq != i)
			bad++;
		for (uint32_t k = 4; k < len; k++)
			bad += p[k] != (unsigned char)(i + k);
		shm_ring_release(r);
	}
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(shm_ring_used(r), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_ring");
	TCase *tc = tcase_create("ring");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, records_in_order);
	tcase_add_test(tc, records_start_lines);
	tcase_add_test(tc, uncommitted_record_is_invisible);
	tcase_add_test(tc, full_ring_refuses_then_accepts);
	tcase_add_test(tc, wrapping_pads_to_the_end);
	tcase_add_test(tc, two_process_hammer);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
