/*
 * Check tests of shm/rwlock.c across processes: the locks live in
 * MAP_SHARED memory and the contenders are forked children, which report
 * what they saw through counters in the same memory and their exit status.
 * The hammers check exclusion and exact counts (a plain counter updated in a
 * read-modify-write spread over a delay tears under a broken lock), the
 * ordering tests record arrival and grant order.
 */
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "barrier.h"
#include "rwlock.h"

/* spin budgets (a pause is some 10 to 140 ns) */
#define SPIN_NONE	0u		/* always the sleeping path */
#define SPIN_SOME	200u		/* a few microseconds */
#define SPIN_LOTS	(1u << 12)	/* the next in line mostly spins */
#define SPIN_ALL	(1u << 14)	/* two processes, two cores: hardly sleep */

static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/* Loads for the checks (their text shows in failure messages). */
static uint32_t ld(shm_atomic_u32 *p)
{
	return atomic_load(p);
}

static uint64_t ld64(shm_atomic_u64 *p)
{
	return atomic_load(p);
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

/* Fork a child that runs fn(arg, i) and exits with its result. */
static void spawn(int (*fn)(void *, int), void *arg, int i)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fn(arg, i));
}

/* Burn some time inside a critical section; the compiler keeps every memory
 * access around it where the code puts it. */
static void delay(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		shm_cpu_relax();
		__asm__ __volatile__("" ::: "memory");
	}
}

/* Now and then give the CPU away inside a critical section, so that the
 * others find the lock taken even when they all share one core. */
static void maybe_yield(int round)
{
	if (round % 64 == 0)
		sched_yield();
}

/* Poll cond(arg) for up to 5 s: the bounded wait of a test that must not
 * hang when the lock is broken. */
static int eventually(int (*cond)(void *), void *arg)
{
	for (int i = 0; i < 50000; i++) {
		if (cond(arg))
			return 1;
		usleep(100);
	}
	return 0;
}

/* The snapshot: readers and writers holding or waiting, and whether a
 * writer holds. */
static void expect_state(struct shm_rwlock *l, uint32_t readers,
			 uint32_t writers, uint32_t writer)
{
	struct shm_rwlock_snapshot st;

	shm_rwlock_state(l, &st);
	ck_assert_uint_eq(st.readers, readers);
	ck_assert_uint_eq(st.writers, writers);
	ck_assert_uint_eq(st.writer, writer);
}

/* Arrivals of either kind, ever (modulo 2^31): one per ticket. */
static uint32_t arrivals(struct shm_rwlock *l)
{
	uint64_t v = atomic_load(&l->issued);

	return ((uint32_t)v + (uint32_t)(v >> 32)) & 0x7fffffffu;
}

static void expect_group_state(struct shm_grouplock *g, uint32_t a, uint32_t b)
{
	struct shm_grouplock_snapshot st;

	shm_grouplock_state(g, &st);
	ck_assert_uint_eq(st.pending[SHM_GROUP_A], a);
	ck_assert_uint_eq(st.pending[SHM_GROUP_B], b);
}

/* ------------------------------------------------------------------ */
/* exclusive and shared hammers                                         */

/*
 * How a contender takes the lock: blocking, or begin + polling ready (as
 * the MPI progress engine does).
 */
/* BLOCKING: lock/unlock; POLLING: begin + ready; ENTER: the inline forms
 * (read_enter or enter_a, then ready while not granted; read_leave or
 * leave_a) for the readers or kind A, the split forms for the others. */
enum how { BLOCKING, POLLING, ENTER };

struct hammer {
	struct shm_rwlock lock;
	struct shm_barrier start;	/* everybody hammers at once */
	uint32_t n;
	unsigned spins;
	enum how how;
	int rounds;
	int writers;			/* children 0..writers-1 write, the rest read */
	/* the data: plain words, touched only under the lock */
	uint64_t x;
	uint64_t y;
	shm_atomic_u32 readers_in;
	shm_atomic_u32 writers_in;
	shm_atomic_u32 errors;
	shm_atomic_u32 polls;
};

static void hammer_write_lock(struct hammer *h)
{
	uint32_t t;

	if (h->how == BLOCKING) {
		shm_rwlock_write_lock(&h->lock, h->spins);
		return;
	}
	t = shm_rwlock_write_begin(&h->lock);
	while (!shm_rwlock_write_ready(&h->lock, t)) {
		atomic_fetch_add_explicit(&h->polls, 1, memory_order_relaxed);
		sched_yield();
	}
	/* ready keeps saying yes while we hold it */
	if (!shm_rwlock_write_ready(&h->lock, t))
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
}

static void hammer_read_lock(struct hammer *h)
{
	uint32_t t;

	if (h->how == BLOCKING) {
		shm_rwlock_read_lock(&h->lock, h->spins);
		return;
	}
	if (h->how == ENTER && shm_rwlock_read_enter(&h->lock, &t))
		return;
	if (h->how != ENTER)
		t = shm_rwlock_read_begin(&h->lock);
	while (!shm_rwlock_read_ready(&h->lock, t)) {
		atomic_fetch_add_explicit(&h->polls, 1, memory_order_relaxed);
		sched_yield();
	}
	if (!shm_rwlock_read_ready(&h->lock, t))
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
}

static void hammer_write(struct hammer *h, int round)
{
	uint64_t v;

	hammer_write_lock(h);
	if (atomic_fetch_add_explicit(&h->writers_in, 1, memory_order_relaxed) != 0 ||
	    atomic_load_explicit(&h->readers_in, memory_order_relaxed) != 0)
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
	/* a two-word update spread over a delay: x first, y last */
	v = h->x;
	delay(50);
	h->x = v + 1;
	maybe_yield(round);
	delay(50);
	if (h->y != v)
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
	h->y = v + 1;
	atomic_fetch_sub_explicit(&h->writers_in, 1, memory_order_relaxed);
	shm_rwlock_write_unlock(&h->lock);
}

static void hammer_read(struct hammer *h, int round)
{
	uint64_t x, y;

	hammer_read_lock(h);
	atomic_fetch_add_explicit(&h->readers_in, 1, memory_order_relaxed);
	if (atomic_load_explicit(&h->writers_in, memory_order_relaxed) != 0)
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
	/* never half of a writer's update */
	x = h->x;
	delay(50);
	maybe_yield(round);
	y = h->y;
	if (x != y)
		atomic_fetch_add_explicit(&h->errors, 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&h->readers_in, 1, memory_order_relaxed);
	if (h->how == ENTER)
		shm_rwlock_read_leave(&h->lock);
	else
		shm_rwlock_read_unlock(&h->lock);
}

static int hammer_child(void *arg, int i)
{
	struct hammer *h = arg;

	shm_barrier_wait(&h->start, h->n, SPIN_NONE);
	for (int r = 0; r < h->rounds; r++) {
		if (i < h->writers)
			hammer_write(h, r);
		else
			hammer_read(h, r);
	}
	return 0;
}

/*
 * n processes, the first `writers` of them writers; start the lock's
 * counters at `start` to cross a wrap-around.
 */
static struct hammer *hammer_run(int n, int writers, int rounds, unsigned spins,
				 enum how how, uint32_t start)
{
	struct hammer *h = shared_alloc(sizeof(*h));
	uint64_t issued;

	ck_assert_uint_le(start, 0x7fffffffu);
	shm_rwlock_init(&h->lock);
	shm_barrier_init(&h->start);
	h->n = (uint32_t)n;
	/* as if start readers and start writers had come and gone */
	atomic_store(&h->lock.issued, start | (uint64_t)start << 32);
	atomic_store(&h->lock.writers_done.value, 2 * start);
	atomic_store(&h->lock.all_done.value, 2 * start);
	h->spins = spins;
	h->how = how;
	h->rounds = rounds;
	h->writers = writers;
	for (int i = 0; i < n; i++)
		spawn(hammer_child, h, i);
	reap(n);
	ck_assert_uint_eq(ld(&h->errors), 0);
	ck_assert_uint_eq(h->x, (uint64_t)writers * rounds);
	ck_assert_uint_eq(h->y, (uint64_t)writers * rounds);
	/* every ticket was granted and left, none is left behind */
	issued = ld64(&h->lock.issued);
	ck_assert_uint_eq((uint32_t)issued,
			  (start + (uint32_t)((n - writers) * rounds)) & 0x7fffffffu);
	ck_assert_uint_eq((uint32_t)(issued >> 32),
			  (start + (uint32_t)(writers * rounds)) & 0x7fffffffu);
	ck_assert_uint_eq(ld(&h->lock.writers_done.value) - 2 * start,
			  (uint32_t)(2 * writers * rounds));
	ck_assert_uint_eq(ld(&h->lock.all_done.value) - 2 * start,
			  (uint32_t)(n * rounds));
	ck_assert_uint_eq(ld(&h->lock.writers_done.sleepers), 0);
	ck_assert_uint_eq(ld(&h->lock.all_done.sleepers), 0);
	expect_state(&h->lock, 0, 0, 0);
	return h;
}

START_TEST(write_lock_excludes_sleeping)
{
	hammer_run(8, 8, 1000, SPIN_NONE, BLOCKING, 0);
}
END_TEST

START_TEST(write_lock_excludes_mixed)
{
	hammer_run(8, 8, 2000, SPIN_SOME, BLOCKING, 0);
}
END_TEST

START_TEST(write_lock_excludes_spinning)
{
	hammer_run(8, 8, 500, SPIN_LOTS, BLOCKING, 0);
	hammer_run(2, 2, 2000, SPIN_ALL, BLOCKING, 0);
}
END_TEST

START_TEST(writers_exclude_readers)
{
	hammer_run(8, 2, 1000, SPIN_SOME, BLOCKING, 0);
}
END_TEST

START_TEST(writers_exclude_readers_sleeping)
{
	hammer_run(6, 2, 1000, SPIN_NONE, BLOCKING, 0);
}
END_TEST

/* The counters wrap in the middle of the hammer: the 31-bit arrival counts
 * (their guard bits come and go) and the departure counters at 2^32, or the
 * departure counters at 2^31. */
START_TEST(counters_wrap_around)
{
	hammer_run(4, 2, 200, SPIN_SOME, BLOCKING, 0x7fffff00u);
	hammer_run(4, 2, 200, SPIN_SOME, BLOCKING, 0x3fffff00u);
}
END_TEST

/* The inline forms of the MPI library's hot path, across a wrap-around of
 * the reader count (read_enter takes the guard bit back) and without. */
START_TEST(enter_forms)
{
	hammer_run(6, 2, 500, 0, ENTER, 0);
	hammer_run(4, 1, 200, 0, ENTER, 0x7fffff00u);
}
END_TEST

/* begin + ready in a polling loop, the way the MPI library waits. */
START_TEST(split_forms_polling)
{
	struct hammer *h = hammer_run(6, 3, 500, 0, POLLING, 0);

	/* contention made some of them poll more than once */
	ck_assert_uint_gt(ld(&h->polls), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sharing                                                              */

START_TEST(readers_share_in_one_process)
{
	struct shm_rwlock l;

	shm_rwlock_init(&l);
	shm_rwlock_read_lock(&l, 0);
	shm_rwlock_read_lock(&l, 0);	/* would hang if readers did not share */
	ck_assert_int_eq(shm_rwlock_try_read(&l), 0);
	expect_state(&l, 3, 0, 0);
	ck_assert_int_eq(shm_rwlock_try_write(&l), -EBUSY);
	for (int i = 0; i < 3; i++)
		shm_rwlock_read_unlock(&l);
	expect_state(&l, 0, 0, 0);
	shm_rwlock_write_lock(&l, 0);
	expect_state(&l, 0, 1, 1);
	shm_rwlock_write_unlock(&l);
	expect_state(&l, 0, 0, 0);
}
END_TEST

struct meet {
	struct shm_rwlock lock;
	shm_atomic_u32 inside;
	shm_atomic_u32 met;
};

static int both_inside(void *arg)
{
	struct meet *m = arg;

	return atomic_load(&m->inside) == 2;
}

/* Each of two readers, holding the lock, waits (bounded) for the other to
 * be inside too. */
static int meet_child(void *arg, int i)
{
	struct meet *m = arg;

	(void)i;
	shm_rwlock_read_lock(&m->lock, SPIN_NONE);
	atomic_fetch_add(&m->inside, 1);
	if (eventually(both_inside, m))
		atomic_fetch_add(&m->met, 1);
	shm_rwlock_read_unlock(&m->lock);
	return 0;
}

START_TEST(readers_inside_together_across_processes)
{
	struct meet *m = shared_alloc(sizeof(*m));

	shm_rwlock_init(&m->lock);
	spawn(meet_child, m, 0);
	spawn(meet_child, m, 1);
	reap(2);
	ck_assert_uint_eq(ld(&m->met), 2);
	expect_state(&m->lock, 0, 0, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* fairness and order                                                   */

/* Grants follow arrivals: a writer queued behind a reader holds back the
 * readers that come after it; once it has left they all share, each
 * granted by that unlock alone (none waits for another to see its grant). */
START_TEST(grants_in_arrival_order)
{
	struct shm_rwlock l;
	uint32_t r1, w, r2, r3;

	shm_rwlock_init(&l);
	r1 = shm_rwlock_read_begin(&l);
	ck_assert(shm_rwlock_read_ready(&l, r1));
	w = shm_rwlock_write_begin(&l);
	r2 = shm_rwlock_read_begin(&l);
	ck_assert(!shm_rwlock_write_ready(&l, w));
	ck_assert(!shm_rwlock_read_ready(&l, r2));
	ck_assert_int_eq(shm_rwlock_try_read(&l), -EBUSY);
	ck_assert_int_eq(shm_rwlock_try_write(&l), -EBUSY);
	expect_state(&l, 2, 1, 0);

	shm_rwlock_read_unlock(&l);
	ck_assert(!shm_rwlock_read_ready(&l, r2));
	ck_assert(shm_rwlock_write_ready(&l, w));
	ck_assert(shm_rwlock_write_ready(&l, w));
	ck_assert(!shm_rwlock_read_ready(&l, r2));
	expect_state(&l, 1, 1, 1);

	shm_rwlock_write_unlock(&l);
	r3 = shm_rwlock_read_begin(&l);
	ck_assert(shm_rwlock_read_ready(&l, r3));
	ck_assert(shm_rwlock_read_ready(&l, r2));
	ck_assert(shm_rwlock_read_ready(&l, r3));
	expect_state(&l, 2, 0, 0);
	shm_rwlock_read_unlock(&l);
	shm_rwlock_read_unlock(&l);
	expect_state(&l, 0, 0, 0);
	ck_assert_uint_eq(arrivals(&l), 4);
}
END_TEST

/*
 * The MPI library's way of waiting: a process polls ready and sleeps on its
 * own doorbell, which only unlockers ring.  Two readers queued behind a
 * writer must both get in on the writer's unlock and ring alone, and meet
 * inside (bounded wait), without either one's grant waiting for the other.
 */
struct bell_meet {
	struct shm_rwlock lock;
	struct shm_waitword bell;
	shm_atomic_u32 inside;
	shm_atomic_u32 met;
};

struct bell_wait {
	struct bell_meet *m;
	uint32_t ticket;
};

static int bell_granted(void *arg)
{
	struct bell_wait *bw = arg;

	return shm_rwlock_read_ready(&bw->m->lock, bw->ticket);
}

static int bell_both_inside(void *arg)
{
	struct bell_meet *m = arg;

	return atomic_load(&m->inside) == 2;
}

static int bell_reader(void *arg, int i)
{
	struct bell_wait bw = { arg, 0 };

	(void)i;
	bw.ticket = shm_rwlock_read_begin(&bw.m->lock);
	while (!bell_granted(&bw))
		shm_waitword_sleep_unless(&bw.m->bell, bell_granted, &bw);
	atomic_fetch_add(&bw.m->inside, 1);
	if (eventually(bell_both_inside, bw.m))
		atomic_fetch_add(&bw.m->met, 1);
	shm_rwlock_read_unlock(&bw.m->lock);
	shm_waitword_ring(&bw.m->bell);
	return 0;
}

START_TEST(readers_granted_by_unlock_alone)
{
	struct bell_meet *m = shared_alloc(sizeof(*m));

	shm_rwlock_init(&m->lock);
	shm_rwlock_write_lock(&m->lock, 0);
	spawn(bell_reader, m, 0);
	spawn(bell_reader, m, 1);
	while (arrivals(&m->lock) != 3 || atomic_load(&m->bell.sleepers) != 2)
		usleep(100);
	shm_rwlock_write_unlock(&m->lock);
	shm_waitword_ring(&m->bell);
	reap(2);
	ck_assert_uint_eq(ld(&m->met), 2);
	expect_state(&m->lock, 0, 0, 0);
}
END_TEST

#define ORDER_N 10

struct order {
	struct shm_rwlock lock;
	char kinds[ORDER_N + 1];	/* 'W' or 'R', by arrival */
	shm_atomic_u32 queued[ORDER_N];	/* 1 once it has its ticket */
	shm_atomic_u32 grant[ORDER_N];	/* grant sequence + 1 */
	shm_atomic_u32 grants;
	shm_atomic_u32 readers_in;
	shm_atomic_u32 writers_in;
	shm_atomic_u32 errors;
};

static int order_child(void *arg, int i)
{
	struct order *o = arg;
	int writer = o->kinds[i] == 'W';
	uint32_t t = writer ? shm_rwlock_write_begin(&o->lock) :
			      shm_rwlock_read_begin(&o->lock);
	uint32_t g;

	atomic_store(&o->queued[i], 1);
	if (writer)
		shm_rwlock_write_wait(&o->lock, t, SPIN_NONE);
	else
		shm_rwlock_read_wait(&o->lock, t, SPIN_NONE);
	g = atomic_fetch_add(&o->grants, 1);
	atomic_store(&o->grant[i], g + 1);
	if (writer) {
		if (atomic_fetch_add(&o->writers_in, 1) != 0 ||
		    atomic_load(&o->readers_in) != 0)
			atomic_fetch_add(&o->errors, 1);
		usleep(2000);
		atomic_fetch_sub(&o->writers_in, 1);
		shm_rwlock_write_unlock(&o->lock);
	} else {
		atomic_fetch_add(&o->readers_in, 1);
		if (atomic_load(&o->writers_in) != 0)
			atomic_fetch_add(&o->errors, 1);
		usleep(2000);
		atomic_fetch_sub(&o->readers_in, 1);
		shm_rwlock_read_unlock(&o->lock);
	}
	return 0;
}

/*
 * The parent holds the lock; children queue one after the other (each
 * forked once the previous one has its ticket), sleeping.  Then the parent
 * lets go: whenever a writer is involved, the earlier arrival is granted
 * first; readers in a row may come in any order among themselves.
 */
static void order_run(const char *kinds, int parent_writes)
{
	struct order *o = shared_alloc(sizeof(*o));
	int n = (int)strlen(kinds);

	ck_assert_int_le(n, ORDER_N);
	shm_rwlock_init(&o->lock);
	memcpy(o->kinds, kinds, (size_t)n);
	if (parent_writes)
		shm_rwlock_write_lock(&o->lock, 0);
	else
		shm_rwlock_read_lock(&o->lock, 0);
	for (int i = 0; i < n; i++) {
		spawn(order_child, o, i);
		while (atomic_load(&o->queued[i]) == 0)
			usleep(100);
		ck_assert_uint_eq(arrivals(&o->lock), (uint32_t)(i + 2));
	}
	/* nobody got in while we hold it, unless a reader may share with us */
	if (parent_writes || kinds[0] == 'W')
		ck_assert_uint_eq(ld(&o->grants), 0);
	if (parent_writes)
		shm_rwlock_write_unlock(&o->lock);
	else
		shm_rwlock_read_unlock(&o->lock);
	reap(n);
	ck_assert_uint_eq(ld(&o->errors), 0);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (kinds[i] == 'W' || kinds[j] == 'W')
				ck_assert_msg(ld(&o->grant[i]) <
					      ld(&o->grant[j]),
					      "%c%d granted after %c%d",
					      kinds[i], i, kinds[j], j);
	expect_state(&o->lock, 0, 0, 0);
}

START_TEST(fifo_between_readers_and_writers)
{
	order_run("WRRWRWWRRW", 1);
	order_run("RRWRRRWWR", 0);
}
END_TEST

/*
 * A writer is not starved by a stream of readers: several readers take the
 * lock over and over, holding it so that they overlap (with a reader
 * preference lock the writer would never get in), and the writer queues in
 * the middle.  Every reader that got in before the writer was done must have
 * come before it: its ticket (the writers before it) is 0.
 */
struct stream {
	struct shm_rwlock lock;
	shm_atomic_u32 entered;
	shm_atomic_u32 before;		/* readers in before the writer was done */
	shm_atomic_u32 writer_done;
	shm_atomic_u32 errors;
};

static int stream_reader(void *arg, int i)
{
	struct stream *s = arg;

	(void)i;
	for (int r = 0; r < 500; r++) {
		uint32_t t = shm_rwlock_read_begin(&s->lock);

		shm_rwlock_read_wait(&s->lock, t, SPIN_SOME);
		atomic_fetch_add(&s->entered, 1);
		/* acquire: pairs with the writer's store in its critical section */
		if (atomic_load_explicit(&s->writer_done, memory_order_acquire)) {
			shm_rwlock_read_unlock(&s->lock);
			return 0;
		}
		if (t != 0)
			atomic_fetch_add(&s->errors, 1);	/* overtook the writer */
		atomic_fetch_add(&s->before, 1);
		usleep(300);
		shm_rwlock_read_unlock(&s->lock);
	}
	atomic_fetch_add(&s->errors, 1);	/* the writer never got in */
	return 0;
}

static int readers_streaming(void *arg)
{
	struct stream *s = arg;

	return atomic_load(&s->entered) >= 40;
}

static int stream_writer(void *arg, int i)
{
	struct stream *s = arg;

	(void)i;
	if (!eventually(readers_streaming, s))
		return 1;
	shm_rwlock_write_lock(&s->lock, SPIN_SOME);
	/* release: read by the readers that come in after us */
	atomic_store_explicit(&s->writer_done, 1, memory_order_release);
	shm_rwlock_write_unlock(&s->lock);
	return 0;
}

START_TEST(writer_not_starved_by_readers)
{
	struct stream *s = shared_alloc(sizeof(*s));
	const int readers = 4;

	shm_rwlock_init(&s->lock);
	for (int i = 0; i < readers; i++)
		spawn(stream_reader, s, i);
	spawn(stream_writer, s, readers);
	reap(readers + 1);
	ck_assert_uint_eq(ld(&s->errors), 0);
	/* the writer did queue behind readers that held the lock */
	ck_assert_uint_ge(ld(&s->before), 40);
	expect_state(&s->lock, 0, 0, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* try forms                                                            */

START_TEST(try_semantics)
{
	struct shm_rwlock l;

	shm_rwlock_init(&l);
	ck_assert_int_eq(shm_rwlock_try_write(&l), 0);
	expect_state(&l, 0, 1, 1);
	ck_assert_int_eq(shm_rwlock_try_write(&l), -EBUSY);
	ck_assert_int_eq(shm_rwlock_try_read(&l), -EBUSY);
	shm_rwlock_write_unlock(&l);
	ck_assert_int_eq(shm_rwlock_try_read(&l), 0);
	ck_assert_int_eq(shm_rwlock_try_read(&l), 0);
	ck_assert_int_eq(shm_rwlock_try_write(&l), -EBUSY);
	expect_state(&l, 2, 0, 0);
	shm_rwlock_read_unlock(&l);
	ck_assert_int_eq(shm_rwlock_try_write(&l), -EBUSY);
	shm_rwlock_read_unlock(&l);
	/* three tickets taken, one per success, none by the failures */
	ck_assert_uint_eq(arrivals(&l), 3);
	ck_assert_int_eq(shm_rwlock_try_write(&l), 0);
	shm_rwlock_write_unlock(&l);
	ck_assert_uint_eq(arrivals(&l), 4);
	expect_state(&l, 0, 0, 0);
	shm_rwlock_write_lock(&l, 0);
	shm_rwlock_write_unlock(&l);
	shm_rwlock_read_lock(&l, 0);
	shm_rwlock_read_unlock(&l);
	expect_state(&l, 0, 0, 0);
}
END_TEST

struct queued {
	struct shm_rwlock lock;
	shm_atomic_u32 queued;
	shm_atomic_u32 got_in;
};

static int queued_writer(void *arg, int i)
{
	struct queued *q = arg;
	uint32_t t = shm_rwlock_write_begin(&q->lock);

	(void)i;
	atomic_store(&q->queued, 1);
	shm_rwlock_write_wait(&q->lock, t, SPIN_NONE);
	atomic_store(&q->got_in, 1);
	shm_rwlock_write_unlock(&q->lock);
	return 0;
}

/* A reader holds the lock and a writer sleeps behind it: tries fail (a try
 * must not pass a queued writer either), and leave the writer its turn. */
START_TEST(failed_tries_leave_lock_usable)
{
	struct queued *q = shared_alloc(sizeof(*q));

	shm_rwlock_init(&q->lock);
	shm_rwlock_read_lock(&q->lock, 0);
	spawn(queued_writer, q, 0);
	while (!atomic_load(&q->queued))
		usleep(100);
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(shm_rwlock_try_read(&q->lock), -EBUSY);
		ck_assert_int_eq(shm_rwlock_try_write(&q->lock), -EBUSY);
	}
	ck_assert_uint_eq(arrivals(&q->lock), 2);
	ck_assert_uint_eq(ld(&q->got_in), 0);
	shm_rwlock_read_unlock(&q->lock);
	reap(1);
	ck_assert_uint_eq(ld(&q->got_in), 1);
	expect_state(&q->lock, 0, 0, 0);
	ck_assert_int_eq(shm_rwlock_try_write(&q->lock), 0);
	shm_rwlock_write_unlock(&q->lock);
}
END_TEST

/* Processes that only ever try: successes exclude each other properly and
 * account for every ticket. */
struct tries {
	struct hammer h;
	shm_atomic_u32 successes;
	shm_atomic_u32 failures;
	shm_atomic_u32 reads;
};

static int try_child(void *arg, int i)
{
	struct tries *t = arg;
	struct hammer *h = &t->h;
	uint64_t v;

	for (int r = 0; r < 3000; r++) {
		if ((r + i) % 3 == 0) {
			if (shm_rwlock_try_read(&h->lock) != 0) {
				atomic_fetch_add(&t->failures, 1);
				continue;
			}
			atomic_fetch_add(&h->readers_in, 1);
			if (atomic_load(&h->writers_in) != 0 || h->x != h->y)
				atomic_fetch_add(&h->errors, 1);
			delay(20);
			atomic_fetch_sub(&h->readers_in, 1);
			shm_rwlock_read_unlock(&h->lock);
			atomic_fetch_add(&t->reads, 1);
		} else {
			if (shm_rwlock_try_write(&h->lock) != 0) {
				atomic_fetch_add(&t->failures, 1);
				continue;
			}
			if (atomic_fetch_add(&h->writers_in, 1) != 0 ||
			    atomic_load(&h->readers_in) != 0)
				atomic_fetch_add(&h->errors, 1);
			v = h->x;
			h->x = v + 1;
			delay(20);
			h->y = v + 1;
			atomic_fetch_sub(&h->writers_in, 1);
			shm_rwlock_write_unlock(&h->lock);
		}
		atomic_fetch_add(&t->successes, 1);
	}
	return 0;
}

START_TEST(try_hammer)
{
	struct tries *t = shared_alloc(sizeof(*t));
	const int n = 4;

	shm_rwlock_init(&t->h.lock);
	for (int i = 0; i < n; i++)
		spawn(try_child, t, i);
	reap(n);
	ck_assert_uint_eq(ld(&t->h.errors), 0);
	ck_assert_uint_eq(ld(&t->successes) + ld(&t->failures),
			  (uint32_t)(n * 3000));
	ck_assert_uint_eq(arrivals(&t->h.lock), ld(&t->successes));
	ck_assert_uint_eq(t->h.x, ld(&t->successes) - ld(&t->reads));
	ck_assert_uint_eq(t->h.x, t->h.y);
	expect_state(&t->h.lock, 0, 0, 0);
	shm_rwlock_write_lock(&t->h.lock, 0);
	shm_rwlock_write_unlock(&t->h.lock);
}
END_TEST

/* ------------------------------------------------------------------ */
/* group lock                                                           */

START_TEST(group_kinds_share_and_exclude)
{
	struct shm_grouplock g;
	uint32_t b, a2;

	shm_grouplock_init(&g);
	shm_grouplock_lock(&g, SHM_GROUP_A, 0);
	shm_grouplock_lock(&g, SHM_GROUP_A, 0);	/* A's share */
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_A), 0);
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_B), -EBUSY);
	b = shm_grouplock_begin(&g, SHM_GROUP_B);
	ck_assert(!shm_grouplock_ready(&g, SHM_GROUP_B, b));
	/* an A arriving after a waiting B waits for it: no overtaking */
	a2 = shm_grouplock_begin(&g, SHM_GROUP_A);
	ck_assert(!shm_grouplock_ready(&g, SHM_GROUP_A, a2));
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_A), -EBUSY);
	expect_group_state(&g, 4, 1);
	for (int i = 0; i < 3; i++) {
		ck_assert(!shm_grouplock_ready(&g, SHM_GROUP_B, b));
		shm_grouplock_unlock(&g, SHM_GROUP_A);
	}
	ck_assert(shm_grouplock_ready(&g, SHM_GROUP_B, b));
	ck_assert(shm_grouplock_ready(&g, SHM_GROUP_B, b));
	ck_assert(!shm_grouplock_ready(&g, SHM_GROUP_A, a2));
	/* B's share too */
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_B), -EBUSY);	/* a2 waits */
	shm_grouplock_unlock(&g, SHM_GROUP_B);
	ck_assert(shm_grouplock_ready(&g, SHM_GROUP_A, a2));
	shm_grouplock_unlock(&g, SHM_GROUP_A);
	expect_group_state(&g, 0, 0);
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_B), 0);
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_B), 0);
	shm_grouplock_lock(&g, SHM_GROUP_B, 0);
	ck_assert_int_eq(shm_grouplock_try(&g, SHM_GROUP_A), -EBUSY);
	expect_group_state(&g, 0, 3);
	for (int i = 0; i < 3; i++)
		shm_grouplock_unlock(&g, SHM_GROUP_B);
	expect_group_state(&g, 0, 0);
	shm_grouplock_lock(&g, SHM_GROUP_A, 0);
	shm_grouplock_unlock(&g, SHM_GROUP_A);
	/* 5 A arrivals, 4 B: failed tries took nothing */
	ck_assert_uint_eq(ld64(&g.issued), 5 + (4ull << 32));
}
END_TEST

/* Two holders of one kind, in two processes, wait (bounded) for each other
 * inside: the kind is shared across processes. */
struct gmeet {
	struct shm_grouplock lock;
	enum shm_group_kind kind;
	shm_atomic_u32 inside;
	shm_atomic_u32 met;
};

static int gmeet_both_inside(void *arg)
{
	struct gmeet *m = arg;

	return atomic_load(&m->inside) == 2;
}

static int gmeet_child(void *arg, int i)
{
	struct gmeet *m = arg;

	(void)i;
	shm_grouplock_lock(&m->lock, m->kind, SPIN_NONE);
	atomic_fetch_add(&m->inside, 1);
	if (eventually(gmeet_both_inside, m))
		atomic_fetch_add(&m->met, 1);
	shm_grouplock_unlock(&m->lock, m->kind);
	return 0;
}

START_TEST(group_kind_inside_together_across_processes)
{
	struct gmeet *m = shared_alloc(sizeof(*m));

	for (int k = SHM_GROUP_A; k <= SHM_GROUP_B; k++) {
		shm_grouplock_init(&m->lock);
		m->kind = (enum shm_group_kind)k;
		atomic_store(&m->inside, 0);
		atomic_store(&m->met, 0);
		spawn(gmeet_child, m, 0);
		spawn(gmeet_child, m, 1);
		reap(2);
		ck_assert_uint_eq(ld(&m->met), 2);
		expect_group_state(&m->lock, 0, 0);
	}
}
END_TEST

struct ghammer {
	struct shm_grouplock lock;
	struct shm_barrier start;	/* everybody hammers at once */
	uint32_t n;
	unsigned spins;
	enum how how;
	int rounds;
	shm_atomic_u32 in[2];
	shm_atomic_u32 entries[2];
	shm_atomic_u32 errors;
	/* a plain counter per kind, which only the holders of that kind touch,
	 * through atomics since they share; the other kind's must stand still */
	shm_atomic_u64 work[2];
};

static void ghammer_lock(struct ghammer *h, enum shm_group_kind k)
{
	uint32_t t;

	if (h->how == BLOCKING) {
		shm_grouplock_lock(&h->lock, k, h->spins);
		return;
	}
	if (h->how == ENTER && k == SHM_GROUP_A) {
		if (shm_grouplock_enter_a(&h->lock, &t))
			return;
	} else {
		t = shm_grouplock_begin(&h->lock, k);
	}
	while (!shm_grouplock_ready(&h->lock, k, t))
		sched_yield();
	/* ready keeps saying yes while we hold it */
	if (!shm_grouplock_ready(&h->lock, k, t))
		atomic_fetch_add(&h->errors, 1);
}

static int ghammer_child(void *arg, int i)
{
	struct ghammer *h = arg;
	uint32_t rnd = 2654435761u * (uint32_t)(i + 1);

	shm_barrier_wait(&h->start, h->n, SPIN_NONE);
	for (int r = 0; r < h->rounds; r++) {
		enum shm_group_kind k, o;
		uint64_t other;

		rnd = rnd * 1103515245u + 12345u;
		k = (rnd >> 16) & 1 ? SHM_GROUP_B : SHM_GROUP_A;
		o = k == SHM_GROUP_A ? SHM_GROUP_B : SHM_GROUP_A;
		ghammer_lock(h, k);
		atomic_fetch_add(&h->in[k], 1);
		other = atomic_load(&h->work[o]);
		if (atomic_load(&h->in[o]) != 0)
			atomic_fetch_add(&h->errors, 1);
		atomic_fetch_add(&h->work[k], 1);
		delay(100);
		maybe_yield(r);
		if (atomic_load(&h->in[o]) != 0 || atomic_load(&h->work[o]) != other)
			atomic_fetch_add(&h->errors, 1);
		atomic_fetch_add(&h->entries[k], 1);
		atomic_fetch_sub(&h->in[k], 1);
		if (h->how == ENTER && k == SHM_GROUP_A)
			shm_grouplock_leave_a(&h->lock);
		else
			shm_grouplock_unlock(&h->lock, k);
	}
	return 0;
}

static void ghammer_run(int n, int rounds, unsigned spins, enum how how,
			uint32_t start)
{
	struct ghammer *h = shared_alloc(sizeof(*h));
	uint32_t ea, eb;
	uint64_t issued;

	shm_grouplock_init(&h->lock);
	shm_barrier_init(&h->start);
	h->n = (uint32_t)n;
	atomic_store(&h->lock.issued, start | ((uint64_t)start << 32));
	atomic_store(&h->lock.done[SHM_GROUP_A].value, start);
	atomic_store(&h->lock.done[SHM_GROUP_B].value, start);
	h->spins = spins;
	h->how = how;
	h->rounds = rounds;
	for (int i = 0; i < n; i++)
		spawn(ghammer_child, h, i);
	reap(n);
	ck_assert_uint_eq(ld(&h->errors), 0);
	ea = atomic_load(&h->entries[SHM_GROUP_A]);
	eb = atomic_load(&h->entries[SHM_GROUP_B]);
	ck_assert_uint_eq(ea + eb, (uint32_t)(n * rounds));
	ck_assert_uint_eq(ld64(&h->work[SHM_GROUP_A]), ea);
	ck_assert_uint_eq(ld64(&h->work[SHM_GROUP_B]), eb);
	ck_assert_uint_eq(ld(&h->lock.done[SHM_GROUP_A].value) - start, ea);
	ck_assert_uint_eq(ld(&h->lock.done[SHM_GROUP_B].value) - start, eb);
	issued = atomic_load(&h->lock.issued);
	/* counts modulo 2^31, guard bits taken back */
	ck_assert_uint_eq((uint32_t)issued, (start + ea) & 0x7fffffffu);
	ck_assert_uint_eq((uint32_t)(issued >> 32), (start + eb) & 0x7fffffffu);
	ck_assert_uint_eq(ld(&h->lock.done[0].sleepers), 0);
	ck_assert_uint_eq(ld(&h->lock.done[1].sleepers), 0);
	expect_group_state(&h->lock, 0, 0);
}

START_TEST(group_hammer_sleeping)
{
	ghammer_run(8, 1000, SPIN_NONE, BLOCKING, 0);
}
END_TEST

START_TEST(group_hammer_mixed)
{
	ghammer_run(8, 2000, SPIN_SOME, BLOCKING, 0);
}
END_TEST

START_TEST(group_hammer_polling)
{
	ghammer_run(6, 1000, 0, POLLING, 0);
}
END_TEST

/* Both 31-bit counters wrap (and their guard bits come and go) mid-hammer. */
START_TEST(group_counters_wrap_around)
{
	ghammer_run(4, 300, SPIN_SOME, BLOCKING, 0x7fffff80u);
}
END_TEST

/* Kind A through the inline forms, across a wrap-around and without. */
START_TEST(group_enter_forms)
{
	ghammer_run(6, 1000, 0, ENTER, 0);
	ghammer_run(4, 300, 0, ENTER, 0x7fffff80u);
}
END_TEST

/*
 * Neither kind starves the other: a stream of `kind` holders that overlap,
 * and one holder of the other kind arriving in the middle.  Every holder of
 * the stream that got in before that one was done must have arrived before
 * it, that is, seen no arrival of the other kind (ticket 0).
 */
struct gstream {
	struct shm_grouplock lock;
	enum shm_group_kind kind;
	shm_atomic_u32 entered;
	shm_atomic_u32 before;
	shm_atomic_u32 other_done;
	shm_atomic_u32 errors;
};

static int gstream_member(void *arg, int i)
{
	struct gstream *s = arg;

	(void)i;
	for (int r = 0; r < 500; r++) {
		uint32_t t = shm_grouplock_begin(&s->lock, s->kind);

		shm_grouplock_wait(&s->lock, s->kind, t, SPIN_SOME);
		atomic_fetch_add(&s->entered, 1);
		/* acquire: pairs with the other's store in its critical section */
		if (atomic_load_explicit(&s->other_done, memory_order_acquire)) {
			shm_grouplock_unlock(&s->lock, s->kind);
			return 0;
		}
		if (t != 0)
			atomic_fetch_add(&s->errors, 1);
		atomic_fetch_add(&s->before, 1);
		usleep(300);
		shm_grouplock_unlock(&s->lock, s->kind);
	}
	atomic_fetch_add(&s->errors, 1);	/* the other kind never got in */
	return 0;
}

static int stream_flowing(void *arg)
{
	struct gstream *s = arg;

	return atomic_load(&s->entered) >= 40;
}

static int gstream_other(void *arg, int i)
{
	struct gstream *s = arg;
	enum shm_group_kind other = s->kind == SHM_GROUP_A ? SHM_GROUP_B : SHM_GROUP_A;

	(void)i;
	if (!eventually(stream_flowing, s))
		return 1;
	shm_grouplock_lock(&s->lock, other, SPIN_SOME);
	/* release: read by the stream members that come in after us */
	atomic_store_explicit(&s->other_done, 1, memory_order_release);
	shm_grouplock_unlock(&s->lock, other);
	return 0;
}

static void gstream_run(enum shm_group_kind kind)
{
	struct gstream *s = shared_alloc(sizeof(*s));
	const int members = 4;

	shm_grouplock_init(&s->lock);
	s->kind = kind;
	for (int i = 0; i < members; i++)
		spawn(gstream_member, s, i);
	spawn(gstream_other, s, members);
	reap(members + 1);
	ck_assert_uint_eq(ld(&s->errors), 0);
	ck_assert_uint_ge(ld(&s->before), 40);
	expect_group_state(&s->lock, 0, 0);
}

START_TEST(group_neither_kind_starves)
{
	gstream_run(SHM_GROUP_A);
	gstream_run(SHM_GROUP_B);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_rwlock");
	TCase *rw = tcase_create("rwlock");
	TCase *gl = tcase_create("grouplock");
	SRunner *sr;
	int failed;

	tcase_set_timeout(rw, 60);
	tcase_add_test(rw, write_lock_excludes_sleeping);
	tcase_add_test(rw, write_lock_excludes_mixed);
	tcase_add_test(rw, write_lock_excludes_spinning);
	tcase_add_test(rw, writers_exclude_readers);
	tcase_add_test(rw, writers_exclude_readers_sleeping);
	tcase_add_test(rw, counters_wrap_around);
	tcase_add_test(rw, enter_forms);
	tcase_add_test(rw, split_forms_polling);
	tcase_add_test(rw, readers_share_in_one_process);
	tcase_add_test(rw, readers_inside_together_across_processes);
	tcase_add_test(rw, grants_in_arrival_order);
	tcase_add_test(rw, readers_granted_by_unlock_alone);
	tcase_add_test(rw, fifo_between_readers_and_writers);
	tcase_add_test(rw, writer_not_starved_by_readers);
	tcase_add_test(rw, try_semantics);
	tcase_add_test(rw, failed_tries_leave_lock_usable);
	tcase_add_test(rw, try_hammer);
	suite_add_tcase(s, rw);

	tcase_set_timeout(gl, 60);
	tcase_add_test(gl, group_kinds_share_and_exclude);
	tcase_add_test(gl, group_kind_inside_together_across_processes);
	tcase_add_test(gl, group_hammer_sleeping);
	tcase_add_test(gl, group_hammer_mixed);
	tcase_add_test(gl, group_hammer_polling);
	tcase_add_test(gl, group_counters_wrap_around);
	tcase_add_test(gl, group_enter_forms);
	tcase_add_test(gl, group_neither_kind_starves);
	suite_add_tcase(s, gl);

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
