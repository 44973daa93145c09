/*
 * Check tests of shm/futex.c, shm/wait.c and shm/barrier.c, across processes:
 * the words live in MAP_SHARED memory and the waiters are forked children.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "barrier.h"
#include "futex.h"
#include "membarrier.h"
#include "wait.h"

static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/* Wait for every child; each must exit 0. */
static void reap(int n)
{
	for (int i = 0; i < n; i++) {
		int status;

		ck_assert_int_gt(wait(&status), 0);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "child ended with status 0x%x", status);
	}
}

START_TEST(wait_on_changed_word_returns_eagain)
{
	shm_atomic_u32 w = 5;

	ck_assert_int_eq(shm_futex_wait(&w, 4, NULL), -EAGAIN);
}
END_TEST

START_TEST(wait_times_out)
{
	shm_atomic_u32 w = 0;
	struct timespec t = { 0, 20 * 1000 * 1000 };

	ck_assert_int_eq(shm_futex_wait(&w, 0, &t), -ETIMEDOUT);
}
END_TEST

START_TEST(wake_without_sleepers_wakes_none)
{
	shm_atomic_u32 w = 0;

	ck_assert_int_eq(shm_futex_wake(&w, INT_MAX), 0);
}
END_TEST

/* A child sleeps on a shared word; the parent changes it and wakes it. */
START_TEST(wake_across_processes)
{
	struct shm_waitword *w = shared_alloc(sizeof(*w));
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(shm_waitword_wait(w, 0, 0) == 1 ? 0 : 1);
	/* let the child get to sleep (not required for correctness) */
	while (atomic_load(&w->sleepers) == 0)
		usleep(100);
	shm_waitword_bump(w, 1);
	reap(1);
	ck_assert_uint_eq(atomic_load(&w->sleepers), 0);
}
END_TEST

/* Many sleepers, one bump: every one of them returns. */
START_TEST(bump_wakes_every_sleeper)
{
	struct shm_waitword *w = shared_alloc(sizeof(*w));
	const int n = 6;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			_exit(shm_waitword_wait(w, 0, 10) != 0 ? 0 : 1);
	}
	while (atomic_load(&w->sleepers) < (uint32_t)n)
		usleep(100);
	shm_waitword_bump(w, 1);
	reap(n);
}
END_TEST

/*
 * Hammer the barrier: in every round each process adds one to a shared
 * counter, passes the barrier, checks that all n additions of the round are
 * there, and passes a second barrier before the next round.  A barrier that
 * lets anyone through early makes the count come out short.
 */
static void barrier_hammer(int n, int rounds, unsigned spins)
{
	struct {
		struct shm_barrier b;
		shm_atomic_u32 count;
		shm_atomic_u32 errors;
	} *s = shared_alloc(sizeof(*s));

	shm_barrier_init(&s->b);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		ck_assert_int_ge(pid, 0);
		if (pid != 0)
			continue;
		for (int r = 0; r < rounds; r++) {
			atomic_fetch_add(&s->count, 1);
			shm_barrier_wait(&s->b, (uint32_t)n, spins);
			if (atomic_load(&s->count) != (uint32_t)(n * (r + 1)))
				atomic_fetch_add(&s->errors, 1);
			shm_barrier_wait(&s->b, (uint32_t)n, spins);
		}
		_exit(0);
	}
	reap(n);
	ck_assert_uint_eq(atomic_load(&s->errors), 0);
	ck_assert_uint_eq(atomic_load(&s->count), (uint32_t)(n * rounds));
	ck_assert_uint_eq(atomic_load(&s->b.arrived), 0);
	ck_assert_uint_eq(atomic_load(&s->b.generation.value), (uint32_t)(2 * rounds));
}

START_TEST(barrier_two_processes_spinning)
{
	barrier_hammer(2, 20000, 4000);
}
END_TEST

START_TEST(barrier_eight_processes_sleeping)
{
	barrier_hammer(8, 2000, 0);
}
END_TEST

START_TEST(barrier_eight_processes_mixed)
{
	barrier_hammer(8, 2000, 50);
}
END_TEST

START_TEST(barrier_of_one)
{
	struct shm_barrier b;

	shm_barrier_init(&b);
	for (int i = 0; i < 10; i++)
		shm_barrier_wait(&b, 1, 0);
	ck_assert_uint_eq(atomic_load(&b.generation.value), 10);
}
END_TEST

/*
 * Doorbell ping-pong: two processes hand a token back and forth 20000 times,
 * each sleeping on its own doorbell until the token is its own, or one of
 * them spinning, so that it rings just as the other goes to sleep (after a
 * delay that varies from round to round).  A lost wake-up hangs the test
 * (and the timeout fails it): the asymmetric way without its membarrier(2)
 * hangs within a few runs.
 */
struct pingpong {
	shm_atomic_u32 token;		/* whose turn: 0 or 1 */
	struct shm_waitword bell[2];
};

struct turn {
	struct pingpong *pp;
	uint32_t me;
};

static int my_turn(void *arg)
{
	struct turn *t = arg;

	return atomic_load_explicit(&t->pp->token, memory_order_acquire) == t->me;
}

/* asym: both sides the asymmetric way (wait.h), registered for membarrier;
 * spin: this side never sleeps, so that it rings right when the other one
 * is about to sleep */
static void play(struct pingpong *pp, uint32_t me, int rounds, int asym, int spin)
{
	static const struct timespec never = { 3600, 0 };
	struct turn t = { pp, me };

	for (int i = 0; i < rounds; i++) {
		/* a sleeper facing a spinner sleeps after a varying delay, so
		 * that its announcement meets the other side's ring */
		for (int k = spin ? 0 : i % 97; k > 0 && !my_turn(&t); k--)
			shm_cpu_relax();
		while (!my_turn(&t)) {
			if (spin)
				shm_cpu_relax();
			else if (asym)
				ck_assert_int_eq(shm_waitword_sleep_unless_asym(
						 &pp->bell[me], my_turn, &t, &never, NULL), 0);
			else
				shm_waitword_sleep_unless(&pp->bell[me], my_turn, &t, NULL);
		}
		atomic_store_explicit(&pp->token, 1 - me, memory_order_release);
		if (asym)
			shm_waitword_ring_asym(&pp->bell[1 - me]);
		else
			shm_waitword_ring(&pp->bell[1 - me]);
	}
}

static void ping_pong(int asym, int spin)
{
	struct pingpong *pp = shared_alloc(sizeof(*pp));
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (asym)
			ck_assert_int_eq(shm_membarrier_register(), 0);
		play(pp, 1, 20000, asym, spin);
		_exit(0);
	}
	play(pp, 0, 20000, asym, 0);
	reap(1);
	ck_assert_uint_eq(atomic_load(&pp->token), 0);
}

START_TEST(doorbell_ping_pong_loses_no_wakeup)
{
	ping_pong(0, 0);
	ping_pong(0, 1);
}
END_TEST

/* The same with fence-free rings: the sleepers' membarrier(2) stands in. */
START_TEST(asymmetric_doorbell_ping_pong_loses_no_wakeup)
{
	if (shm_membarrier_register() < 0)
		return;	/* no membarrier here: nothing uses the asymmetric way */
	ping_pong(1, 0);
	ping_pong(1, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_futex");
	TCase *tc = tcase_create("futex");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, wait_on_changed_word_returns_eagain);
	tcase_add_test(tc, wait_times_out);
	tcase_add_test(tc, wake_without_sleepers_wakes_none);
	tcase_add_test(tc, wake_across_processes);
	tcase_add_test(tc, bump_wakes_every_sleeper);
	tcase_add_test(tc, barrier_two_processes_spinning);
	tcase_add_test(tc, barrier_eight_processes_sleeping);
	tcase_add_test(tc, barrier_eight_processes_mixed);
	tcase_add_test(tc, barrier_of_one);
	tcase_add_test(tc, doorbell_ping_pong_loses_no_wakeup);
	tcase_add_test(tc, asymmetric_doorbell_ping_pong_loses_no_wakeup);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
