/* Check tests of shm/inbox.c: pool rings claimed once each, the shared ring
 * with its lock and tags, the waiting bits, and three producer processes
 * hammering one shared ring. */
#include <check.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inbox.h"

static struct shm_inbox *inbox_new(uint32_t nranks, uint32_t nrings, uint64_t cap)
{
	size_t size = shm_inbox_size(nranks, nrings, cap);
	struct shm_inbox *ib = mmap(NULL, size, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(ib, MAP_FAILED);
	shm_inbox_init(ib, nranks, nrings, cap);
	return ib;
}

/* What a sender does: claim, then publish. */
static struct shm_ring *claim(struct shm_inbox *ib, uint32_t from)
{
	int i = shm_inbox_claim(ib);

	return i < 0 ? NULL : shm_inbox_publish(ib, (uint32_t)i, from);
}

START_TEST(pool_rings_claimed_once_each)
{
	struct shm_inbox *ib = inbox_new(4, 3, 256);
	struct shm_ring *a, *b;

	ck_assert_uint_eq(shm_inbox_claimed(ib), 0);
	ck_assert_int_eq(shm_inbox_owner(ib, 0), -1);
	a = claim(ib, 3);
	b = claim(ib, 1);
	ck_assert_ptr_eq(a, shm_inbox_ring(ib, 0));
	ck_assert_ptr_eq(b, shm_inbox_ring(ib, 1));
	ck_assert_uint_eq(a->cap, 256);
	ck_assert_uint_eq(b->pcap, 256);
	ck_assert_int_eq(shm_inbox_owner(ib, 0), 3);
	ck_assert_int_eq(shm_inbox_owner(ib, 1), 1);
	/* a ring whose pages could not be backed is abandoned: the receiver
	 * passes it over */
	ck_assert_int_eq(shm_inbox_claim(ib), 2);
	ck_assert_int_eq(shm_inbox_owner(ib, 2), -1);
	shm_inbox_abandon(ib, 2);
	ck_assert_int_eq(shm_inbox_owner(ib, 2), SHM_INBOX_ABANDONED);
	/* used up: the next sender gets none, and the count stays at 3 */
	ck_assert_ptr_null(claim(ib, 2));
	ck_assert_uint_eq(shm_inbox_claimed(ib), 3);
	/* the rings do not overlap each other or the shared ring */
	ck_assert((char *)shm_inbox_shared(ib) + shm_ring_size(256) <= (char *)a);
	ck_assert((char *)a + shm_ring_size(256) <= (char *)b);
	ck_assert_uint_eq(shm_inbox_ring_off(ib, 1), (size_t)((char *)b - (char *)ib));
	ck_assert((char *)shm_inbox_ring(ib, 2) + shm_ring_size(256) <=
		  (char *)ib + shm_inbox_size(4, 3, 256));
}
END_TEST

static void put_tagged(struct shm_inbox *ib, uint32_t from, const char *s)
{
	struct shm_ring *r = shm_inbox_shared(ib);
	char *p;

	shm_inbox_lock(ib);
	p = shm_ring_reserve(r, (uint32_t)strlen(s));
	ck_assert_ptr_nonnull(p);
	memcpy(p, s, strlen(s));
	shm_ring_set_tag(r, from + 1);
	shm_ring_commit(r, p);
	shm_inbox_unlock(ib);
}

START_TEST(shared_ring_records_carry_their_sender)
{
	struct shm_inbox *ib = inbox_new(8, 0, 256);
	struct shm_ring *r = shm_inbox_shared(ib);
	uint32_t len;
	char *p;

	ck_assert_int_eq(shm_inbox_claim(ib), -1);	/* no pool at all */
	put_tagged(ib, 5, "five");
	put_tagged(ib, 0, "zero");
	ck_assert(shm_inbox_unread_from(ib, 5));
	ck_assert(shm_inbox_unread_from(ib, 0));
	ck_assert(!shm_inbox_unread_from(ib, 3));
	p = shm_ring_peek(r, &len);
	ck_assert_ptr_nonnull(p);
	ck_assert(len == 4 && memcmp(p, "five", 4) == 0);
	ck_assert_uint_eq(shm_ring_peek_tag(r), 6);
	shm_ring_release(r);
	ck_assert(!shm_inbox_unread_from(ib, 5));
	p = shm_ring_peek(r, &len);
	ck_assert(len == 4 && memcmp(p, "zero", 4) == 0);
	ck_assert_uint_eq(shm_ring_peek_tag(r), 1);
	shm_ring_release(r);
	ck_assert(!shm_inbox_unread_from(ib, 0));
}
END_TEST

static int woken[200], nwoken;

static void wake(int rank)
{
	woken[nwoken++] = rank;
}

START_TEST(waiting_producers_are_woken_once)
{
	struct shm_inbox *ib = inbox_new(130, 1, 256);

	ck_assert_int_eq(shm_inbox_wake_waiting(ib, wake), 0);
	shm_inbox_want_room(ib, 5);
	shm_inbox_want_room(ib, 129);
	shm_inbox_want_room(ib, 64);
	shm_inbox_want_room(ib, 5);
	nwoken = 0;
	ck_assert_int_eq(shm_inbox_wake_waiting(ib, wake), 3);
	ck_assert_int_eq(woken[0], 5);
	ck_assert_int_eq(woken[1], 64);
	ck_assert_int_eq(woken[2], 129);
	/* taken: nobody waits any more */
	ck_assert_int_eq(shm_inbox_wake_waiting(ib, wake), 0);
	ck_assert_int_eq(nwoken, 3);
	/* a pool ring of the same inbox keeps its own flag */
	shm_ring_set_waiting(claim(ib, 7));
	ck_assert_int_eq(shm_inbox_wake_waiting(ib, wake), 0);
}
END_TEST

/*
 * Three producer processes write numbered records of pseudo-random sizes
 * into one small shared ring, under its lock; the consumer checks that
 * each producer's records arrive complete and in order.
 */
#define HAMMER_PRODUCERS 3
#define HAMMER_RECORDS 20000

static void hammer_produce(struct shm_inbox *ib, uint32_t me)
{
	struct shm_ring *r = shm_inbox_shared(ib);
	unsigned seed = me + 1;

	for (uint32_t i = 0; i < HAMMER_RECORDS; i++) {
		uint32_t len = 8 + (uint32_t)rand_r(&seed) % 300;
		unsigned char *p;

		for (unsigned spin = 0;; spin++) {
			shm_inbox_lock(ib);
			if ((p = shm_ring_reserve(r, len)))
				break;
			shm_inbox_unlock(ib);
			if (spin % 64 == 63)
				sched_yield();	/* the consumer may need our core */
			else
				shm_cpu_relax();
		}
		memcpy(p, &i, 4);
		memcpy(p + 4, &me, 4);
		for (uint32_t k = 8; k < len; k++)
			p[k] = (unsigned char)(i * 7 + k + me);
		if (i % 16 == 0)
			sched_yield();	/* as a holder the scheduler preempts */
		shm_ring_set_tag(r, me + 1);
		shm_ring_commit(r, p);
		shm_inbox_unlock(ib);
	}
}

START_TEST(three_producers_hammer_the_shared_ring)
{
	struct shm_inbox *ib = inbox_new(HAMMER_PRODUCERS, 0, 1024);
	struct shm_ring *r = shm_inbox_shared(ib);
	uint32_t next[HAMMER_PRODUCERS] = { 0 }, bad = 0;
	pid_t pid[HAMMER_PRODUCERS];

	for (uint32_t p = 0; p < HAMMER_PRODUCERS; p++) {
		pid[p] = fork();
		ck_assert_int_ge(pid[p], 0);
		if (pid[p] == 0) {
			hammer_produce(ib, p);
			_exit(0);
		}
	}
	for (uint32_t got = 0; got < HAMMER_PRODUCERS * HAMMER_RECORDS; got++) {
		uint32_t len, seq, who, tag;
		unsigned char *p;

		for (unsigned spin = 0; !(p = shm_ring_peek(r, &len)); spin++)
			if (spin % 1024 == 1023)
				sched_yield();	/* a producer may need our core */
			else
				shm_cpu_relax();
		memcpy(&seq, p, 4);
		memcpy(&who, p + 4, 4);
		tag = shm_ring_peek_tag(r);
		if (who >= HAMMER_PRODUCERS || tag != who + 1 || seq != next[who]) {
			bad++;
		} else {
			for (uint32_t k = 8; k < len; k++)
				bad += p[k] != (unsigned char)(seq * 7 + k + who);
			next[who]++;
		}
		shm_ring_release(r);
	}
	for (uint32_t p = 0; p < HAMMER_PRODUCERS; p++) {
		int status;

		ck_assert_int_eq(waitpid(pid[p], &status, 0), pid[p]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		ck_assert_uint_eq(next[p], HAMMER_RECORDS);
	}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_inbox");
	TCase *tc = tcase_create("inbox");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pool_rings_claimed_once_each);
	tcase_add_test(tc, shared_ring_records_carry_their_sender);
	tcase_add_test(tc, waiting_producers_are_woken_once);
	tcase_add_test(tc, three_producers_hammer_the_shared_ring);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
