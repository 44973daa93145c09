/*
 * Check tests of shm/rwlock.c across processes: the locks, the waiter nodes
 * and the doorbells live in MAP_SHARED memory and the contenders are forked
 * children, which report what they saw through counters in the same memory
 * and their exit status.  The hammers check exclusion and exact counts (a
 * plain counter updated in a read-modify-write spread over a delay tears
 * under a broken lock); the ordering tests record arrival and grant order.
 *
 * Sleepers wait the way rwlock.h describes: one look at the ticket, then
 * shm_rwlock_enlist and a sleep on the id's own doorbell, which only an
 * unlocker rings, for the ids shm_rwlock_granted() gave it; the sleeper
 * wakes when its node is off the list, never because it looked at the
 * ticket again.  A wake-up the lock loses shows as a sleeper that is
 * granted, still listed, while nobody is between a departure and its
 * wake-ups (`leaving`): the sleeper counts it and goes on, so the test
 * fails instead of hanging.  A race test puts a departure and an enlisting
 * at the same moment, over and over, and checks that one of them saw the
 * other.
 *
 * Every wait is bounded: a contender's wait for a grant (WAIT_LIMIT_S), a
 * test's wait for its children (REAP_LIMIT_S), Check's timeout for a lock
 * that spins forever inside.  A broken lock fails a test, it does not hang
 * it.  The hammers stop after HAMMER_S on a loaded machine.
 */
#include <check.h>
#include <signal.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "barrier.h"
#include "rwlock.h"
#include "wait.h"

#define SEQ_MASK 0x7fffffffu	/* the lock's counts are modulo 2^31 */
#define HIGH_GUARD 0x80000000u	/* the guard bit of a count */
#define IDS 16			/* waiter ids: one per contender */
#define NODE_STRIDE 72		/* nodes spaced out, not packed: the stride counts */
#define LOCKS 3
#define NAP_MS 20		/* how often a sleeper looks why nobody woke it */
#define WAIT_LIMIT_S 5		/* the longest a contender waits for a grant */
#define REAP_LIMIT_S 20		/* the longest a test waits for its children */
#define HAMMER_S 2		/* a hammer stops after its rounds or this, if sooner */
#define EXIT_STUCK 3		/* the exit status of a contender that waited longer */
#define RACE_LAG_MAX 128	/* pauses a racer waits at most */
#define BIT(id) (1u << (id))

/* How a contender waits for a ticket not granted at once. */
enum how {
	POLL,	/* ready in a loop that yields the CPU */
	SPIN,	/* ready in a loop of pauses, yielding now and then */
	SLEEP,	/* enlist and sleep on the id's doorbell, every time */
};

/* What a test counts as wrong; contenders add up, the test process checks. */
enum err {
	ERR_EXCLUSION,	/* a writer inside with anybody else */
	ERR_TORN,	/* half of a writer's update seen */
	ERR_HOLDER,	/* holder not the writer inside, or not 0 */
	ERR_READY,	/* ready said no to a holder */
	ERR_WOKEN,	/* taken off the list, but not granted */
	ERR_ORDER,	/* granted out of arrival order */
	ERR_STARVED,	/* a stream never let the other kind in */
	ERR_KINDS
};

static const char *const err_names[ERR_KINDS] = {
	"exclusion", "torn update", "holder", "ready went back to no",
	"woken but not granted", "arrival order", "starvation",
};

/* The data one lock guards. */
struct guarded {
	uint64_t x;			/* plain words, touched under the lock only */
	uint64_t y;
	shm_atomic_u32 readers_in;
	shm_atomic_u32 writers_in;
	shm_atomic_u32 reads;		/* critical sections, by kind */
	shm_atomic_u32 writes;
	uint32_t start_readers;		/* the counts the lock started from */
	uint32_t start_writers;
};

struct arena {
	struct shm_rwlock lock[LOCKS];
	struct shm_barrier start;	/* every contender starts at once */
	struct shm_waitword bell[IDS];	/* id's doorbell */
	char nodes[IDS * NODE_STRIDE] __attribute__((aligned(SHM_CACHE_LINE)));
	struct shm_rwlock_nodes where;
	struct guarded g[LOCKS];
	enum how how;
	uint32_t n;			/* contenders, ids 0..n-1 */
	int locks;			/* locks in use */
	int rounds;
	int writers;			/* contenders 0..writers-1 write; -1: each round draws */
	double stop_at;			/* when the test process stops the hammer */
	shm_atomic_u32 stop;
	shm_atomic_u32 took[2];		/* rounds the contenders made, by kind (1: writers) */
	shm_atomic_u32 leaving;		/* between a departure and its wake-ups */
	shm_atomic_u32 lost;		/* sleepers granted that nobody woke */
	shm_atomic_u32 slept;		/* waits that enlisted and slept */
	shm_atomic_u32 early;		/* enlists that found the ticket granted */
	shm_atomic_u32 woken;		/* ids shm_rwlock_granted() returned */
	shm_atomic_u32 errors[ERR_KINDS];
	shm_atomic_u32 failed;		/* an error or a lost wake-up: the hammers stop */
	/* what the list monitor compares the lists with: odd while id's node
	 * may be on the list of lock on[id] */
	shm_atomic_u32 episode[IDS];
	shm_atomic_u32 on[IDS];
	/* streams, order and meeting */
	int stream_writes;		/* the stream's kind (the lone one is the other) */
	shm_atomic_u32 entries[2];	/* critical sections, by kind (1: writers) */
	shm_atomic_u32 before;		/* stream entries before the lone one was done */
	shm_atomic_u32 lone_done;
	char kinds[IDS + 1];		/* 'W' or 'R', by arrival */
	shm_atomic_u32 grant[IDS];	/* grant sequence + 1 */
	shm_atomic_u32 grants;
	shm_atomic_u32 left;
	shm_atomic_u32 inside;
	shm_atomic_u32 met;
	/* the race: the round each side has reached, and what granted() gave */
	shm_atomic_u32 armed;
	shm_atomic_u32 ticketed;
	shm_atomic_u32 departed;
	shm_atomic_u32 finished;
	shm_atomic_u32 granted_then;
};

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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `seconds` from now, stretched like Check's timeouts (for runs under
 * valgrind). */
static double deadline_in(double seconds)
{
	const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
	double f = m ? atof(m) : 1.0;

	return now_s() + seconds * (f > 1.0 ? f : 1.0);
}

static pid_t children[IDS + 1];
static int nchildren;

/* Fork a child that runs fn(arg, i) and exits with its result; it dies
 * with the test process. */
static void spawn(int (*fn)(void *, int), void *arg, int i)
{
	pid_t parent = getpid();
	pid_t pid;

	ck_assert_int_lt(nchildren, IDS + 1);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(EXIT_STUCK);
		_exit(fn(arg, i));
	}
	children[nchildren++] = pid;
}

static void kill_children(void)
{
	for (int i = 0; i < nchildren; i++)
		if (kill(children[i], SIGKILL) == 0)
			waitpid(children[i], NULL, 0);
	nchildren = 0;
}

/*
 * Wait for every child, each of which must exit 0, calling watch(arg)
 * meanwhile (if not NULL) and adding up what it returns.  Children still
 * running after REAP_LIMIT_S (a lock that spins forever inside) are killed
 * and the test fails.
 */
static int reap_watching(int (*watch)(void *), void *arg)
{
	double deadline = deadline_in(REAP_LIMIT_S);
	int sum = 0;

	while (nchildren > 0) {
		int status, i = 0;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			if (now_s() > deadline) {
				kill_children();
				ck_abort_msg("children still running after %d s", REAP_LIMIT_S);
			}
			sum += watch ? watch(arg) : 0;
			usleep(500);
			continue;
		}
		while (children[i] != pid)
			i++;
		children[i] = children[--nchildren];
		if (WIFSIGNALED(status) || WEXITSTATUS(status) != 0)
			kill_children();
		ck_assert_msg(!WIFSIGNALED(status), "child killed by signal %d",
			      WTERMSIG(status));
		ck_assert_msg(WEXITSTATUS(status) != EXIT_STUCK,
			      "a child waited for a grant longer than %d s", WAIT_LIMIT_S);
		ck_assert_msg(WEXITSTATUS(status) == 0, "child exited with %d",
			      WEXITSTATUS(status));
	}
	return sum;
}

static void reap(void)
{
	reap_watching(NULL, NULL);
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
	if (round % 16 == 0)
		sched_yield();
}

/* Poll cond(arg) for up to 5 s: the bounded wait of a test process. */
static int eventually(int (*cond)(void *), void *arg)
{
	for (int i = 0; i < 50000; i++) {
		if (cond(arg))
			return 1;
		usleep(100);
	}
	return 0;
}

/* Tell the contenders to stop once a->stop_at has come. */
static int stop_when_due(void *arg)
{
	struct arena *a = arg;

	if (now_s() > a->stop_at)
		atomic_store(&a->stop, 1);
	return 0;
}

static void note(struct arena *a, enum err e)
{
	atomic_fetch_add(&a->errors[e], 1);
	atomic_store(&a->failed, 1);
}

static void expect_no_errors(struct arena *a)
{
	for (int e = 0; e < ERR_KINDS; e++)
		ck_assert_msg(ld(&a->errors[e]) == 0, "%s: %u times", err_names[e],
			      ld(&a->errors[e]));
	ck_assert_msg(ld(&a->lost) == 0, "lost wake-ups: %u", ld(&a->lost));
}

static struct shm_rwlock_node *node(struct arena *a, uint32_t id)
{
	return shm_rwlock_node(&a->where, id);
}

/* Whether id's node is on a list (the field the list's owners keep). */
static uint32_t listed(struct arena *a, uint32_t id)
{
	return atomic_load_explicit(&node(a, id)->listed, memory_order_acquire);
}

static struct arena *arena_new(enum how how, uint32_t n)
{
	struct arena *a = shared_alloc(sizeof(*a));

	ck_assert_uint_le(n, IDS);
	for (int k = 0; k < LOCKS; k++)
		shm_rwlock_init(&a->lock[k]);
	shm_barrier_init(&a->start);
	a->where = (struct shm_rwlock_nodes){ a->nodes, NODE_STRIDE };
	for (uint32_t id = 0; id < IDS; id++)
		shm_rwlock_node_init(node(a, id));
	a->how = how;
	a->n = n;
	a->locks = 1;
	return a;
}

/* As if `readers` readers and `writers` writers had come and gone, each
 * count's high guard bit set or not (it is after an odd number of wraps). */
static void lock_start(struct shm_rwlock *l, uint32_t readers, uint32_t writers,
		       int high_guards)
{
	uint64_t high = (uint64_t)(writers | (high_guards ? HIGH_GUARD : 0)) << 32;

	ck_assert_uint_le(readers, SEQ_MASK);
	ck_assert_uint_le(writers, SEQ_MASK);
	atomic_store(&l->issued, readers | high);
	atomic_store(&l->done, ((readers + writers) & SEQ_MASK) | high);
}

static void arena_start(struct arena *a, int k, uint32_t readers, uint32_t writers,
			int high_guards)
{
	lock_start(&a->lock[k], readers, writers, high_guards);
	a->g[k].start_readers = readers;
	a->g[k].start_writers = writers;
}

static void expect_state(struct shm_rwlock *l, uint32_t readers, uint32_t writers,
			 uint32_t holder, uint32_t departed)
{
	struct shm_rwlock_snapshot st;

	shm_rwlock_state(l, &st);
	ck_assert_uint_eq(st.readers, readers);
	ck_assert_uint_eq(st.writers, writers);
	ck_assert_uint_eq(st.holder, holder);
	ck_assert_uint_eq(st.departed, departed & SEQ_MASK);
}

/*
 * Everybody has left, after `readers` readers and `writers` writers ever
 * (modulo 2^31): the counts in both words, the low guard bits taken back,
 * nobody holding, an empty list.
 */
static void expect_counts(struct shm_rwlock *l, uint32_t readers, uint32_t writers)
{
	uint64_t issued = ld64(&l->issued), done = ld64(&l->done);

	readers &= SEQ_MASK;
	writers &= SEQ_MASK;
	ck_assert_uint_eq((uint32_t)issued, readers);
	ck_assert_uint_eq((uint32_t)(issued >> 32) & SEQ_MASK, writers);
	ck_assert_uint_eq((uint32_t)done, (readers + writers) & SEQ_MASK);
	ck_assert_uint_eq((uint32_t)(done >> 32) & SEQ_MASK, writers);
	expect_state(l, 0, 0, 0, readers + writers);
	ck_assert_uint_eq(ld(&l->waiters), 0);
	ck_assert(!shm_rwlock_has_waiters(l));
}

/* The ids as a set; each at most once. */
static uint32_t id_set(const uint32_t *ids, unsigned n)
{
	uint32_t set = 0;

	for (unsigned i = 0; i < n; i++) {
		ck_assert_uint_lt(ids[i], IDS);
		ck_assert_msg(!(set & BIT(ids[i])), "id %u twice", ids[i]);
		set |= BIT(ids[i]);
	}
	return set;
}

/* Lock k's list holds exactly the nodes of `set`, and the nodes that say
 * they are listed are those on some lock's list (single-process tests:
 * nobody changes them meanwhile). */
static void expect_listed(struct arena *a, int k, uint32_t set)
{
	uint32_t ids[IDS + 1], all = 0;

	for (int j = 0; j < LOCKS; j++) {
		uint32_t on = id_set(ids, shm_rwlock_list(&a->lock[j], &a->where, ids,
							  IDS + 1));

		if (j == k)
			ck_assert_uint_eq(on, set);
		ck_assert_uint_eq(all & on, 0);
		all |= on;
	}
	for (uint32_t id = 0; id < IDS; id++)
		ck_assert_uint_eq(listed(a, id), (all & BIT(id)) != 0);
	ck_assert_int_eq(shm_rwlock_has_waiters(&a->lock[k]), set != 0);
}

/* ------------------------------------------------------------------ */
/* taking and leaving, the way rwlock.h says                            */

static int unlisted(void *arg)
{
	/* acquire: pairs with the release in shm_rwlock_granted() that took
	 * the node off, after its look at the departures */
	return !atomic_load_explicit(&((struct shm_rwlock_node *)arg)->listed,
				     memory_order_acquire);
}

static void wait_polling(struct arena *a, struct shm_rwlock *l,
			 const struct shm_rwlock_ticket *t)
{
	double deadline = deadline_in(WAIT_LIMIT_S);

	for (unsigned i = 1; !shm_rwlock_ready(l, t); i++) {
		if (a->how == POLL || i % 128 == 0)
			sched_yield();
		else
			shm_cpu_relax();
		if (i % 1024 == 0 && now_s() > deadline)
			_exit(EXIT_STUCK);
	}
}

/*
 * Enlist and sleep on our doorbell until an unlocker has taken our node
 * off (then our ticket must be granted); then delist.  Every NAP_MS we
 * look whether we were forgotten: granted, still listed, and nobody
 * between a departure and its wake-ups (the departure that granted us
 * counted itself in `leaving` before it was made, so we see it there until
 * it has woken whom it found).
 */
static void wait_sleeping(struct arena *a, int k, uint32_t id,
			  const struct shm_rwlock_ticket *t, int round)
{
	static const struct timespec nap = { 0, NAP_MS * 1000000L };
	struct shm_rwlock *l = &a->lock[k];
	struct shm_rwlock_node *n = node(a, id);
	double deadline = deadline_in(WAIT_LIMIT_S);

	/* release: pairs with the monitor's acquire (list_check) */
	atomic_store_explicit(&a->on[id], (uint32_t)k, memory_order_release);
	atomic_fetch_add(&a->episode[id], 1);
	/* every other time, let the unlockers run between our look at the
	 * ticket and the enlisting: the window a lost wake-up hides in */
	if (round % 2 == 0)
		sched_yield();
	if (shm_rwlock_enlist(l, &a->where, id, t)) {
		atomic_fetch_add(&a->early, 1);
	} else {
		atomic_fetch_add(&a->slept, 1);
		while (!unlisted(n)) {
			shm_waitword_sleep_unless(&a->bell[id], unlisted, n, &nap);
			if (unlisted(n))
				break;
			if (shm_rwlock_ready(l, t) && atomic_load(&a->leaving) == 0 &&
			    !unlisted(n)) {
				atomic_fetch_add(&a->lost, 1);
				atomic_store(&a->failed, 1);
				break;
			}
			if (now_s() > deadline)
				_exit(EXIT_STUCK);
		}
		if (!shm_rwlock_ready(l, t))
			note(a, ERR_WOKEN);
	}
	shm_rwlock_delist(l, &a->where, id);
	atomic_fetch_add(&a->episode[id], 1);
}

/* Take lock k as contender id; a writer says who it is. */
static struct shm_rwlock_ticket take(struct arena *a, int k, uint32_t id, int writer,
				     int round)
{
	struct shm_rwlock *l = &a->lock[k];
	struct shm_rwlock_ticket t = writer ? shm_rwlock_write_begin(l) :
					      shm_rwlock_read_begin(l);
	struct shm_rwlock_snapshot st;

	if (!shm_rwlock_ready(l, &t)) {
		if (a->how == SLEEP)
			wait_sleeping(a, k, id, &t, round);
		else
			wait_polling(a, l, &t);
	}
	/* ready keeps saying yes while we hold it */
	if (!shm_rwlock_ready(l, &t))
		note(a, ERR_READY);
	/* no writer but us says it is inside */
	shm_rwlock_state(l, &st);
	if (st.holder != 0)
		note(a, ERR_HOLDER);
	if (writer)
		shm_rwlock_set_holder(l, id + 1);
	return t;
}

/* Leave lock k and wake whom that granted; their ids in ids[] (if not
 * NULL), returns how many. */
static unsigned give(struct arena *a, int k, int writer, uint32_t *ids)
{
	struct shm_rwlock *l = &a->lock[k];
	uint32_t mine[IDS];
	unsigned n = 0;

	if (!ids)
		ids = mine;
	/* before the departure: a sleeper that it grants sees us leaving */
	atomic_fetch_add(&a->leaving, 1);
	if (writer) {
		shm_rwlock_set_holder(l, 0);
		shm_rwlock_write_leave(l);
	} else {
		shm_rwlock_read_leave(l);
	}
	if (shm_rwlock_has_waiters(l)) {
		n = shm_rwlock_granted(l, &a->where, ids, IDS);
		for (unsigned i = 0; i < n; i++)
			shm_waitword_ring(&a->bell[ids[i]]);
		atomic_fetch_add(&a->woken, n);
	}
	atomic_fetch_sub(&a->leaving, 1);
	return n;
}

/* Inside for `usec`, checking exclusion on lock k's data. */
static void hold(struct arena *a, int k, int writer, unsigned usec)
{
	struct guarded *g = &a->g[k];

	if (writer) {
		if (atomic_fetch_add(&g->writers_in, 1) != 0 || ld(&g->readers_in) != 0)
			note(a, ERR_EXCLUSION);
	} else {
		atomic_fetch_add(&g->readers_in, 1);
		if (ld(&g->writers_in) != 0)
			note(a, ERR_EXCLUSION);
	}
	usleep(usec);
	atomic_fetch_sub(writer ? &g->writers_in : &g->readers_in, 1);
}

/* ------------------------------------------------------------------ */
/* hammers                                                              */

static void write_section(struct arena *a, int k, int round)
{
	struct guarded *g = &a->g[k];
	uint64_t v;

	if (atomic_fetch_add_explicit(&g->writers_in, 1, memory_order_relaxed) != 0 ||
	    atomic_load_explicit(&g->readers_in, memory_order_relaxed) != 0)
		note(a, ERR_EXCLUSION);
	/* a two-word update spread over a delay: x first, y last */
	v = g->x;
	delay(50);
	g->x = v + 1;
	maybe_yield(round);
	delay(50);
	if (g->y != v)
		note(a, ERR_TORN);
	g->y = v + 1;
	atomic_fetch_add_explicit(&g->writes, 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&g->writers_in, 1, memory_order_relaxed);
}

static void read_section(struct arena *a, int k, int round)
{
	struct guarded *g = &a->g[k];
	uint64_t x, y;

	atomic_fetch_add_explicit(&g->readers_in, 1, memory_order_relaxed);
	if (atomic_load_explicit(&g->writers_in, memory_order_relaxed) != 0)
		note(a, ERR_EXCLUSION);
	/* never half of a writer's update */
	x = g->x;
	delay(50);
	maybe_yield(round);
	y = g->y;
	if (x != y)
		note(a, ERR_TORN);
	atomic_fetch_add_explicit(&g->reads, 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&g->readers_in, 1, memory_order_relaxed);
}

static int hammer_child(void *arg, int i)
{
	struct arena *a = arg;
	uint32_t rnd = 2654435761u * (uint32_t)(i + 1);

	uint32_t took[2] = { 0, 0 };

	shm_barrier_wait(&a->start, a->n, 0);
	for (int r = 0; r < a->rounds && !ld(&a->failed) && !ld(&a->stop); r++) {
		int k = 0, writer = i < a->writers;

		rnd = rnd * 1103515245u + 12345u;
		if (a->locks > 1)
			k = (int)((rnd >> 16) % (uint32_t)a->locks);
		if (a->writers < 0)
			writer = (rnd >> 24) % 3 == 0;
		take(a, k, (uint32_t)i, writer, r);
		if (writer)
			write_section(a, k, r);
		else
			read_section(a, k, r);
		give(a, k, writer, NULL);
		took[writer]++;
	}
	atomic_fetch_add(&a->took[0], took[0]);
	atomic_fetch_add(&a->took[1], took[1]);
	return 0;
}

/*
 * The list monitor: lock k's list holds valid ids, each once, each of a
 * contender waiting on lock k (unless it came or went while we looked).
 * Returns whether the list was empty.
 */
static int list_check(struct arena *a, int k)
{
	uint32_t before[IDS], ids[IDS + 1];
	unsigned n;

	for (uint32_t id = 0; id < IDS; id++)
		before[id] = ld(&a->episode[id]);
	n = shm_rwlock_list(&a->lock[k], &a->where, ids, IDS + 1);
	ck_assert_uint_le(n, a->n);
	id_set(ids, n);
	for (unsigned i = 0; i < n; i++) {
		uint32_t id = ids[i], on, after;

		ck_assert_uint_lt(id, a->n);
		/* acquire: pairs with the release in wait_sleeping(); a newer
		 * `on` comes with a newer episode */
		on = atomic_load_explicit(&a->on[id], memory_order_acquire);
		after = ld(&a->episode[id]);
		if (after != before[id])
			continue;
		ck_assert_msg(after & 1, "id %u on the list of lock %d, not waiting", id, k);
		ck_assert_msg(on == (uint32_t)k,
			      "id %u on the list of lock %d, waiting on lock %u", id, k, on);
	}
	return n == 0;
}

/* While a hammer runs: stop it when its time is up; check the lists of
 * every lock in use; returns how many had waiters. */
static int hammer_watch(void *arg)
{
	struct arena *a = arg;
	int listed = stop_when_due(a);

	for (int k = 0; k < a->locks; k++)
		listed += !list_check(a, k);
	return listed;
}

/*
 * n contenders, `rounds` rounds each (or fewer, when a loaded machine
 * makes them take longer than HAMMER_S); the test process watches the
 * lists until all are done, then checks the data, the counts and the list.
 * Returns how many times it saw waiters listed.
 */
static int hammer_run(struct arena *a, int rounds, int writers)
{
	uint32_t reads = 0, writes = 0;
	int watched;

	a->rounds = rounds;
	a->writers = writers;
	a->stop_at = now_s() + HAMMER_S;
	for (int i = 0; i < (int)a->n; i++)
		spawn(hammer_child, a, i);
	watched = reap_watching(hammer_watch, a);
	expect_no_errors(a);
	for (int k = 0; k < a->locks; k++) {
		struct guarded *g = &a->g[k];

		ck_assert_uint_eq(g->x, ld(&g->writes));
		ck_assert_uint_eq(g->y, ld(&g->writes));
		/* every ticket was granted and left, none is left behind */
		expect_counts(&a->lock[k], g->start_readers + ld(&g->reads),
			      g->start_writers + ld(&g->writes));
		reads += ld(&g->reads);
		writes += ld(&g->writes);
	}
	/* the critical sections are the rounds made, by kind */
	ck_assert_uint_eq(reads, ld(&a->took[0]));
	ck_assert_uint_eq(writes, ld(&a->took[1]));
	ck_assert_uint_le(reads + writes, a->n * (uint32_t)rounds);
	if (writers == 0 || writers == (int)a->n)
		ck_assert_uint_eq(writers ? reads : writes, 0);
	for (uint32_t id = 0; id < IDS; id++) {
		ck_assert_uint_eq(listed(a, id), 0);
		ck_assert_uint_eq(ld(&a->bell[id].sleepers), 0);
	}
	/* every sleeper was taken off by an unlocker; an early grant's node
	 * by an unlocker or by its own delist */
	ck_assert_uint_ge(ld(&a->woken), ld(&a->slept));
	ck_assert_uint_le(ld(&a->woken), ld(&a->slept) + ld(&a->early));
	if (a->how == SLEEP)
		ck_assert_uint_gt(ld(&a->slept), 0);
	return watched;
}

START_TEST(writers_exclude_polling)
{
	hammer_run(arena_new(POLL, 8), 10000, 8);
}
END_TEST

START_TEST(writers_exclude_spinning)
{
	hammer_run(arena_new(SPIN, 2), 20000, 2);
}
END_TEST

START_TEST(writers_exclude_readers_polling)
{
	hammer_run(arena_new(POLL, 8), 10000, 2);
}
END_TEST

/* More sleepers than cores: every wait enlists and sleeps, woken by the
 * unlocker alone; it must finish with exact counts, no wake-up lost. */
START_TEST(sleeping_writers_hammer)
{
	hammer_run(arena_new(SLEEP, 12), 4000, 12);
}
END_TEST

START_TEST(sleeping_readers_and_writers_hammer)
{
	hammer_run(arena_new(SLEEP, 12), 4000, 3);
}
END_TEST

/* Nodes move between the lists of three locks (kinds and locks drawn each
 * round) while the test process keeps checking the lists. */
START_TEST(waiter_lists_consistent_under_contention)
{
	struct arena *a = arena_new(SLEEP, 10);

	a->locks = LOCKS;
	/* and the monitor saw waiters listed */
	ck_assert_int_gt(hammer_run(a, 5000, -1), 0);
}
END_TEST

/* Lock k's four counts went past 2^31 in the hammer. */
static void expect_wrapped(struct arena *a, int k)
{
	struct guarded *g = &a->g[k];
	uint64_t r = (uint64_t)g->start_readers + ld(&g->reads);
	uint64_t w = (uint64_t)g->start_writers + ld(&g->writes);

	ck_assert_uint_gt(r, SEQ_MASK);
	ck_assert_uint_gt(w, SEQ_MASK);
	ck_assert_uint_gt(((g->start_readers + g->start_writers) & SEQ_MASK) +
			  (uint64_t)ld(&g->reads) + ld(&g->writes), SEQ_MASK);
}

/* The counts wrap in the middle of the hammers: the reader and writer
 * arrivals, the departures and the writer departures, the low halves
 * carrying into their guard bits (taken back), the high halves' guard bits
 * set and carried out of the word. */
START_TEST(counters_wrap_around)
{
	struct arena *a = arena_new(POLL, 4);

	arena_start(a, 0, 0x7fffff00u, 0x7fffff80u, 0);
	hammer_run(a, 1000, 2);
	expect_wrapped(a, 0);
	a = arena_new(SLEEP, 6);
	arena_start(a, 0, 0x7fffffc0u, 0x7fffff00u, 1);
	hammer_run(a, 1000, 2);
	expect_wrapped(a, 0);
	a = arena_new(SLEEP, 6);
	a->locks = 2;
	arena_start(a, 0, 0x7ffffff0u, 0x7ffffff8u, 1);
	arena_start(a, 1, 0x7fffff90u, 0x7fffffe0u, 0);
	hammer_run(a, 1000, -1);
	expect_wrapped(a, 0);
	expect_wrapped(a, 1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* tickets, holder and snapshot, one process                            */

/* Grants follow arrivals: a writer queued behind a reader holds back the
 * readers that come after it; once it has left they all share, each
 * granted by that departure alone. */
START_TEST(grants_in_arrival_order)
{
	struct shm_rwlock l;
	struct shm_rwlock_ticket r1, w, r2, r3;

	shm_rwlock_init(&l);
	r1 = shm_rwlock_read_begin(&l);
	ck_assert(shm_rwlock_ready(&l, &r1));
	w = shm_rwlock_write_begin(&l);
	r2 = shm_rwlock_read_begin(&l);
	ck_assert(!shm_rwlock_ready(&l, &w));
	ck_assert(!shm_rwlock_ready(&l, &r2));
	/* the tickets: arrivals before each, and what grants them */
	ck_assert_uint_eq(r1.pos, 0);
	ck_assert_uint_eq(w.pos, 1);
	ck_assert_uint_eq(w.want, 1);
	ck_assert_uint_eq(r2.pos, 2);
	ck_assert_uint_eq(r2.want, 1);
	ck_assert(w.writer && !r1.writer && !r2.writer);

	shm_rwlock_read_leave(&l);
	ck_assert(shm_rwlock_ready(&l, &w));
	ck_assert(shm_rwlock_ready(&l, &w));
	ck_assert(!shm_rwlock_ready(&l, &r2));

	shm_rwlock_write_leave(&l);
	r3 = shm_rwlock_read_begin(&l);
	ck_assert(shm_rwlock_ready(&l, &r3));
	ck_assert(shm_rwlock_ready(&l, &r2));
	ck_assert(!shm_rwlock_has_waiters(&l));
	shm_rwlock_read_leave(&l);
	ck_assert(shm_rwlock_ready(&l, &r3));
	shm_rwlock_read_leave(&l);
	expect_counts(&l, 3, 1);
}
END_TEST

/* The snapshot in simple situations, from zero and across the wrap. */
static void snapshot_steps(uint32_t readers, uint32_t writers, int high_guards)
{
	struct shm_rwlock l;
	struct shm_rwlock_ticket r1, w, r2;
	uint32_t d = readers + writers;

	shm_rwlock_init(&l);
	lock_start(&l, readers, writers, high_guards);
	expect_state(&l, 0, 0, 0, d);
	r1 = shm_rwlock_read_begin(&l);
	ck_assert(shm_rwlock_ready(&l, &r1));
	expect_state(&l, 1, 0, 0, d);
	w = shm_rwlock_write_begin(&l);
	expect_state(&l, 1, 1, 0, d);
	r2 = shm_rwlock_read_begin(&l);
	expect_state(&l, 2, 1, 0, d);
	shm_rwlock_read_leave(&l);
	expect_state(&l, 1, 1, 0, d + 1);
	ck_assert(shm_rwlock_ready(&l, &w));
	shm_rwlock_set_holder(&l, 7 + 1);
	expect_state(&l, 1, 1, 8, d + 1);
	ck_assert(!shm_rwlock_ready(&l, &r2));
	shm_rwlock_set_holder(&l, 0);
	expect_state(&l, 1, 1, 0, d + 1);
	shm_rwlock_write_leave(&l);
	expect_state(&l, 1, 0, 0, d + 2);
	ck_assert(shm_rwlock_ready(&l, &r2));
	shm_rwlock_read_leave(&l);
	expect_counts(&l, readers + 2, writers + 1);
}

START_TEST(holder_and_snapshot)
{
	snapshot_steps(0, 0, 0);
	snapshot_steps(SEQ_MASK, SEQ_MASK, 0);
	snapshot_steps(SEQ_MASK - 1, SEQ_MASK, 1);
	snapshot_steps(5, SEQ_MASK, 1);
}
END_TEST

/* Step by step over the wraps: each low half carries into its guard bit
 * (an arrival's and a writer departure's) and takes it back, the high
 * guards come and go, and the grants stay right. */
START_TEST(counters_carry_into_guard_bits)
{
	struct shm_rwlock l;
	struct shm_rwlock_ticket r1, w1, r2, w2;

	shm_rwlock_init(&l);
	lock_start(&l, SEQ_MASK, SEQ_MASK, 0);
	ck_assert_uint_eq(ld64(&l.done), SEQ_MASK - 1 + ((uint64_t)SEQ_MASK << 32));
	r1 = shm_rwlock_read_begin(&l);		/* the reader count wraps */
	ck_assert_uint_eq(ld64(&l.issued), (uint64_t)SEQ_MASK << 32);
	ck_assert_uint_eq(r1.want, SEQ_MASK);
	ck_assert_uint_eq(r1.pos, SEQ_MASK - 1);
	ck_assert(shm_rwlock_ready(&l, &r1));
	w1 = shm_rwlock_write_begin(&l);	/* the writer count sets its guard */
	ck_assert_uint_eq(ld64(&l.issued), (uint64_t)HIGH_GUARD << 32);
	ck_assert_uint_eq(w1.want, SEQ_MASK);
	ck_assert(!shm_rwlock_ready(&l, &w1));
	r2 = shm_rwlock_read_begin(&l);
	ck_assert_uint_eq(r2.want, 0);
	ck_assert_uint_eq(r2.pos, 0);
	ck_assert(!shm_rwlock_ready(&l, &r2));
	expect_state(&l, 2, 1, 0, SEQ_MASK - 1);

	shm_rwlock_read_leave(&l);
	ck_assert_uint_eq(ld64(&l.done), SEQ_MASK + ((uint64_t)SEQ_MASK << 32));
	ck_assert(shm_rwlock_ready(&l, &w1));
	ck_assert(!shm_rwlock_ready(&l, &r2));
	/* one departure carries the low count into its guard and the
	 * writers' count into its own */
	shm_rwlock_write_leave(&l);
	ck_assert_uint_eq(ld64(&l.done), (uint64_t)HIGH_GUARD << 32);
	ck_assert(shm_rwlock_ready(&l, &r2));
	w2 = shm_rwlock_write_begin(&l);
	ck_assert_uint_eq(w2.want, 1);
	ck_assert(!shm_rwlock_ready(&l, &w2));
	expect_state(&l, 1, 1, 0, 0);
	shm_rwlock_read_leave(&l);
	ck_assert(shm_rwlock_ready(&l, &w2));
	shm_rwlock_write_leave(&l);
	expect_counts(&l, 1, 1);

	/* the writer counts, guard set, carry out of the word */
	shm_rwlock_init(&l);
	lock_start(&l, 5, SEQ_MASK, 1);
	w1 = shm_rwlock_write_begin(&l);
	ck_assert_uint_eq(ld64(&l.issued), 5);
	ck_assert_uint_eq(w1.want, 4);
	ck_assert(shm_rwlock_ready(&l, &w1));
	r1 = shm_rwlock_read_begin(&l);
	ck_assert_uint_eq(r1.want, 0);
	ck_assert(!shm_rwlock_ready(&l, &r1));
	shm_rwlock_write_leave(&l);
	ck_assert_uint_eq(ld64(&l.done), 5);
	ck_assert(shm_rwlock_ready(&l, &r1));
	shm_rwlock_read_leave(&l);
	expect_counts(&l, 6, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* the waiter list, one process                                         */

/*
 * One departure grants the batch of readers behind a writer and no one
 * after them; granted() returns exactly those and takes them off; delist
 * afterwards changes nothing; each later departure grants the next.
 */
START_TEST(granted_returns_exactly_those_granted)
{
	struct arena *a = arena_new(SLEEP, IDS);
	struct shm_rwlock *l = &a->lock[0];
	struct shm_rwlock_ticket w0, r5, r9, w2, r12;
	uint32_t ids[IDS];

	w0 = shm_rwlock_write_begin(l);
	ck_assert(shm_rwlock_ready(l, &w0));
	shm_rwlock_set_holder(l, 14 + 1);
	r5 = shm_rwlock_read_begin(l);
	r9 = shm_rwlock_read_begin(l);
	w2 = shm_rwlock_write_begin(l);
	r12 = shm_rwlock_read_begin(l);
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 5, &r5), 0);
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 12, &r12), 0);
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 2, &w2), 0);
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 9, &r9), 0);
	expect_listed(a, 0, BIT(5) | BIT(9) | BIT(2) | BIT(12));
	/* the nodes carry their tickets (diagnosis) */
	ck_assert_uint_eq(ld(&node(a, 12)->pos), r12.pos);
	ck_assert_uint_eq(ld(&node(a, 2)->writer), 1);
	expect_state(l, 3, 2, 15, 0);

	ck_assert_uint_eq(id_set(ids, give(a, 0, 1, ids)), BIT(5) | BIT(9));
	expect_listed(a, 0, BIT(2) | BIT(12));
	ck_assert(shm_rwlock_ready(l, &r5) && shm_rwlock_ready(l, &r9));
	ck_assert(!shm_rwlock_ready(l, &w2) && !shm_rwlock_ready(l, &r12));
	shm_rwlock_delist(l, &a->where, 9);
	shm_rwlock_delist(l, &a->where, 5);
	expect_listed(a, 0, BIT(2) | BIT(12));

	/* the first reader out grants nobody; the last grants the writer */
	ck_assert_uint_eq(give(a, 0, 0, ids), 0);
	expect_listed(a, 0, BIT(2) | BIT(12));
	ck_assert_uint_eq(id_set(ids, give(a, 0, 0, ids)), BIT(2));
	shm_rwlock_delist(l, &a->where, 2);
	expect_listed(a, 0, BIT(12));
	shm_rwlock_set_holder(l, 2 + 1);
	expect_state(l, 1, 1, 3, 3);
	ck_assert_uint_eq(id_set(ids, give(a, 0, 1, ids)), BIT(12));
	shm_rwlock_delist(l, &a->where, 12);
	expect_listed(a, 0, 0);
	ck_assert_uint_eq(give(a, 0, 0, ids), 0);
	expect_counts(l, 3, 2);
}
END_TEST

/*
 * enlist looks at the ticket again after publishing the node: a departure
 * that came between the waiter's look and its enlisting (and so found no
 * waiter) must not leave it asleep.
 */
START_TEST(enlist_sees_a_grant_that_came_before)
{
	struct arena *a = arena_new(SLEEP, IDS);
	struct shm_rwlock *l = &a->lock[0];
	struct shm_rwlock_ticket w, r, w2;
	uint32_t ids[IDS];

	w = shm_rwlock_write_begin(l);
	ck_assert(shm_rwlock_ready(l, &w));
	r = shm_rwlock_read_begin(l);
	ck_assert(!shm_rwlock_ready(l, &r));
	ck_assert_uint_eq(give(a, 0, 1, ids), 0);	/* nobody listed yet */
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 3, &r), 1);
	shm_rwlock_delist(l, &a->where, 3);
	expect_listed(a, 0, 0);

	/* and says no when it is not granted */
	w2 = shm_rwlock_write_begin(l);
	ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, 3, &w2), 0);
	expect_listed(a, 0, BIT(3));
	ck_assert_uint_eq(id_set(ids, give(a, 0, 0, ids)), BIT(3));
	shm_rwlock_delist(l, &a->where, 3);
	ck_assert(shm_rwlock_ready(l, &w2));
	give(a, 0, 1, ids);
	expect_counts(l, 1, 2);
}
END_TEST

/*
 * delist after an unlocker took the node off is a no-op (it leaves the
 * others listed), and the node serves another lock at once.
 */
START_TEST(delist_after_unlocker_and_node_reuse)
{
	struct arena *a = arena_new(SLEEP, IDS);
	struct shm_rwlock_ticket h0, h1, r, w, r1;
	uint32_t ids[IDS];

	h0 = shm_rwlock_write_begin(&a->lock[0]);
	h1 = shm_rwlock_write_begin(&a->lock[1]);
	ck_assert(shm_rwlock_ready(&a->lock[0], &h0) && shm_rwlock_ready(&a->lock[1], &h1));
	r = shm_rwlock_read_begin(&a->lock[0]);
	w = shm_rwlock_write_begin(&a->lock[0]);
	ck_assert_int_eq(shm_rwlock_enlist(&a->lock[0], &a->where, 3, &r), 0);
	ck_assert_int_eq(shm_rwlock_enlist(&a->lock[0], &a->where, 4, &w), 0);
	ck_assert_uint_eq(id_set(ids, give(a, 0, 1, ids)), BIT(3));
	ck_assert_uint_eq(listed(a, 3), 0);
	shm_rwlock_delist(&a->lock[0], &a->where, 3);
	expect_listed(a, 0, BIT(4));

	/* node 3, just off lock 0's list, waits on lock 1 */
	r1 = shm_rwlock_read_begin(&a->lock[1]);
	ck_assert_int_eq(shm_rwlock_enlist(&a->lock[1], &a->where, 3, &r1), 0);
	expect_listed(a, 1, BIT(3));
	ck_assert_uint_eq(ld(&node(a, 3)->want), r1.want);
	expect_listed(a, 0, BIT(4));
	ck_assert_uint_eq(id_set(ids, give(a, 1, 1, ids)), BIT(3));
	shm_rwlock_delist(&a->lock[1], &a->where, 3);
	expect_listed(a, 1, 0);
	ck_assert_uint_eq(id_set(ids, give(a, 0, 0, ids)), BIT(4));
	shm_rwlock_delist(&a->lock[0], &a->where, 4);
	expect_listed(a, 0, 0);
	give(a, 0, 1, ids);
	give(a, 1, 0, ids);
	expect_counts(&a->lock[0], 1, 2);
	expect_counts(&a->lock[1], 1, 1);
}
END_TEST

/*
 * A waiter granted by a departure whose wake-ups have not come yet delists
 * itself from the head, the middle or the tail of the list; the others
 * stay listed, and the late wake-ups find nobody granted.
 */
START_TEST(delist_at_every_place)
{
	for (int place = 0; place < 3; place++) {
		struct arena *a = arena_new(SLEEP, IDS);
		struct shm_rwlock *l = &a->lock[0];
		struct shm_rwlock_ticket t[4];
		uint32_t ids[IDS];

		t[0] = shm_rwlock_write_begin(l);
		t[1] = shm_rwlock_read_begin(l);
		t[2] = shm_rwlock_write_begin(l);
		t[3] = shm_rwlock_write_begin(l);
		/* 1 enlists at `place`, the writers 2 and 3 around it */
		for (uint32_t i = 0, w = 2; i < 3; i++) {
			uint32_t id = (int)i == place ? 1 : w++;

			ck_assert_int_eq(shm_rwlock_enlist(l, &a->where, id, &t[id]), 0);
		}
		shm_rwlock_write_leave(l);	/* its wake-ups later */
		ck_assert(shm_rwlock_ready(l, &t[1]));
		shm_rwlock_delist(l, &a->where, 1);
		expect_listed(a, 0, BIT(2) | BIT(3));
		ck_assert_uint_eq(shm_rwlock_granted(l, &a->where, ids, IDS), 0);
		ck_assert_uint_eq(id_set(ids, give(a, 0, 0, ids)), BIT(2));
		shm_rwlock_delist(l, &a->where, 2);
		ck_assert_uint_eq(id_set(ids, give(a, 0, 1, ids)), BIT(3));
		shm_rwlock_delist(l, &a->where, 3);
		give(a, 0, 1, ids);
		expect_listed(a, 0, 0);
		expect_counts(l, 1, 3);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* a departure and an enlisting at the same moment                      */

#define RACE_OVER UINT32_MAX	/* `armed` when the unlocker has stopped */

/* Spin until *p is v or RACE_OVER (yielding now and then, for a shared
 * core), and return it; a wait past WAIT_LIMIT_S ends the child. */
static uint32_t spin_until(shm_atomic_u32 *p, uint32_t v)
{
	double deadline = 0;
	uint32_t now;

	for (unsigned i = 1; (now = ld(p)) != v && now != RACE_OVER; i++) {
		shm_cpu_relax();
		if (i % 256 == 0)
			sched_yield();
		if (i % 4096 == 0) {
			if (deadline == 0)
				deadline = deadline_in(WAIT_LIMIT_S);
			else if (now_s() > deadline)
				_exit(EXIT_STUCK);
		}
	}
	return now;
}

/* The unlocker: holds the lock, and leaves once the waiter has its ticket,
 * after a pause that varies from round to round; it decides when to stop. */
static int race_unlocker(void *arg, int i)
{
	struct arena *a = arg;
	uint32_t rnd = 12345, ids[IDS];

	(void)i;
	for (uint32_t r = 1; r <= (uint32_t)a->rounds && !ld(&a->stop); r++) {
		struct shm_rwlock_ticket t = shm_rwlock_write_begin(&a->lock[0]);

		if (!shm_rwlock_ready(&a->lock[0], &t))
			note(a, ERR_READY);
		atomic_store(&a->armed, r);
		spin_until(&a->ticketed, r);
		rnd = rnd * 1103515245u + 12345u;
		delay((rnd >> 16) % 8);
		atomic_store(&a->granted_then, give(a, 0, 1, ids));
		atomic_store(&a->departed, r);
		spin_until(&a->finished, r);
		if (ld(&a->failed))
			break;
	}
	atomic_store(&a->armed, RACE_OVER);
	return 0;
}

/* The waiter: takes a ticket behind the unlocker and enlists, after a
 * pause of its own; either enlist saw the grant or the departure found the
 * node and took it off. */
static int race_waiter(void *arg, int i)
{
	struct arena *a = arg;
	uint32_t rnd = 67890, lag = 0;

	(void)i;
	for (uint32_t r = 1; spin_until(&a->armed, r) == r; r++) {
		struct shm_rwlock_ticket t;
		int early;

		t = shm_rwlock_read_begin(&a->lock[0]);
		if (shm_rwlock_ready(&a->lock[0], &t))
			note(a, ERR_ORDER);
		atomic_store(&a->ticketed, r);
		rnd = rnd * 1103515245u + 12345u;
		delay(lag + (rnd >> 16) % 8);
		early = shm_rwlock_enlist(&a->lock[0], &a->where, 0, &t);
		/* steer towards the moment of the departure: later when we
		 * came first, sooner when it did */
		if (!early && lag < RACE_LAG_MAX)
			lag++;
		else if (early && lag > 0)
			lag--;
		spin_until(&a->departed, r);
		if (!shm_rwlock_ready(&a->lock[0], &t))
			note(a, ERR_READY);
		if (!early && ld(&a->granted_then) == 0) {
			atomic_fetch_add(&a->lost, 1);
			atomic_store(&a->failed, 1);
		}
		atomic_fetch_add(early ? &a->early : &a->slept, 1);
		shm_rwlock_delist(&a->lock[0], &a->where, 0);
		if (give(a, 0, 0, NULL) != 0)
			note(a, ERR_WOKEN);
		atomic_store(&a->finished, r);
	}
	return 0;
}

START_TEST(departure_and_enlisting_race)
{
	struct arena *a = arena_new(SLEEP, 1);
	uint32_t rounds;

	a->rounds = 100000;
	a->stop_at = now_s() + HAMMER_S;
	spawn(race_unlocker, a, 0);
	spawn(race_waiter, a, 1);
	reap_watching(stop_when_due, a);
	expect_no_errors(a);
	/* every node the departures found was one that enlist said was not
	 * granted, or one granted meanwhile */
	ck_assert_uint_ge(ld(&a->woken), ld(&a->slept));
	ck_assert_uint_le(ld(&a->woken), ld(&a->slept) + ld(&a->early));
	rounds = ld(&a->slept) + ld(&a->early);
	ck_assert_uint_le(rounds, (uint32_t)a->rounds);
	expect_counts(&a->lock[0], rounds, rounds);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sharing, order and starvation across processes                       */

static int both_inside(void *arg)
{
	return ld(&((struct arena *)arg)->inside) == 2;
}

/* A reader that, holding the lock, waits (bounded) for the other inside. */
static int meet_child(void *arg, int i)
{
	struct arena *a = arg;

	take(a, 0, (uint32_t)i, 0, 1);
	atomic_fetch_add(&a->inside, 1);
	if (eventually(both_inside, a))
		atomic_fetch_add(&a->met, 1);
	give(a, 0, 0, NULL);
	return 0;
}

static int both_asleep(void *arg)
{
	return ld(&((struct arena *)arg)->slept) == 2;
}

/* Two readers sleep behind a writer; its departure grants both, which
 * wakes them and only them, and they meet inside. */
START_TEST(readers_inside_together_across_processes)
{
	struct arena *a = arena_new(SLEEP, 2);
	struct shm_rwlock_ticket w = shm_rwlock_write_begin(&a->lock[0]);
	uint32_t ids[IDS];

	ck_assert(shm_rwlock_ready(&a->lock[0], &w));
	spawn(meet_child, a, 0);
	spawn(meet_child, a, 1);
	ck_assert(eventually(both_asleep, a));
	ck_assert_uint_eq(id_set(ids, shm_rwlock_list(&a->lock[0], &a->where, ids, IDS)),
			  BIT(0) | BIT(1));
	ck_assert_uint_eq(id_set(ids, give(a, 0, 1, ids)), BIT(0) | BIT(1));
	reap();
	ck_assert_uint_eq(ld(&a->met), 2);
	expect_no_errors(a);
	expect_counts(&a->lock[0], 2, 1);
}
END_TEST

static int order_child(void *arg, int i)
{
	struct arena *a = arg;
	int writer = a->kinds[i] == 'W';
	uint32_t g;

	take(a, 0, (uint32_t)i, writer, 1);
	g = atomic_fetch_add(&a->grants, 1);
	atomic_store(&a->grant[i], g + 1);
	hold(a, 0, writer, 2000);
	give(a, 0, writer, NULL);
	atomic_fetch_add(&a->left, 1);
	return 0;
}

static uint32_t count_of(const char *s, char c)
{
	uint32_t n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static uint32_t arrivals(struct shm_rwlock *l)
{
	uint64_t v = ld64(&l->issued);

	return ((uint32_t)v + (uint32_t)(v >> 32)) & SEQ_MASK;
}

/*
 * The test process holds the lock; children queue one after the other
 * (each forked once the previous one has its ticket) and sleep, except
 * the readers that share with a reading parent.  The list holds those that
 * sleep; the parent's departure wakes the first group behind it; then,
 * whenever a writer is involved, the earlier arrival is granted first.
 */
static void order_run(const char *kinds, int parent_writes)
{
	int n = (int)strlen(kinds);
	struct arena *a = arena_new(SLEEP, (uint32_t)n);
	int lead = parent_writes ? 0 : (int)strspn(kinds, "R");
	uint32_t sleeping = 0, first = 0, ids[IDS];

	ck_assert_int_le(n, IDS);
	memcpy(a->kinds, kinds, (size_t)n);
	take(a, 0, IDS - 1, parent_writes, 1);
	for (int i = 0; i < n; i++) {
		spawn(order_child, a, i);
		for (int w = 0; arrivals(&a->lock[0]) != (uint32_t)(i + 2); w++) {
			ck_assert_int_lt(w, 50000);
			usleep(100);
		}
		if (i >= lead)
			sleeping |= BIT(i);
	}
	/* the first group behind us: one writer, or the readers in a row */
	for (int i = lead; i < n && (i == lead || (kinds[i] == 'R' && kinds[lead] == 'R')); i++)
		first |= BIT(i);
	/* all queued, and the readers that shared with us gone */
	for (int w = 0; ld(&a->slept) != (uint32_t)(n - lead) || ld(&a->left) != (uint32_t)lead;
	     w++) {
		ck_assert_int_lt(w, 50000);
		usleep(100);
	}
	ck_assert_uint_eq(ld(&a->grants), (uint32_t)lead);
	ck_assert_uint_eq(id_set(ids, shm_rwlock_list(&a->lock[0], &a->where, ids, IDS)),
			  sleeping);
	ck_assert_uint_eq(id_set(ids, give(a, 0, parent_writes, ids)), first);
	reap();
	expect_no_errors(a);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (kinds[i] == 'W' || kinds[j] == 'W')
				ck_assert_msg(ld(&a->grant[i]) < ld(&a->grant[j]),
					      "%c%d granted after %c%d",
					      kinds[i], i, kinds[j], j);
	expect_counts(&a->lock[0], count_of(kinds, 'R') + !parent_writes,
		      count_of(kinds, 'W') + (uint32_t)parent_writes);
}

START_TEST(fifo_between_readers_and_writers)
{
	order_run("WRRWRWWRRW", 1);
	order_run("RRWRRRWWR", 0);
	order_run("RRRWR", 1);
}
END_TEST

/*
 * Neither kind starves: a stream of one kind takes the lock over and over
 * (readers overlapping, writers queueing behind each other), and one of the
 * other kind arrives in the middle.  When it gets in, exactly the stream
 * entries that arrived before it have been in (its ticket counts them): no
 * later one overtook it, and it was not kept waiting for them.
 */
static int stream_flowing(void *arg)
{
	return ld(&((struct arena *)arg)->entries[((struct arena *)arg)->stream_writes]) >= 40;
}

static int stream_member(void *arg, int i)
{
	struct arena *a = arg;
	int writer = a->stream_writes;

	for (int r = 0; r < 1000; r++) {
		take(a, 0, (uint32_t)i, writer, r);
		atomic_fetch_add(&a->entries[writer], 1);
		/* acquire: pairs with the lone one's store in its critical section */
		if (atomic_load_explicit(&a->lone_done, memory_order_acquire)) {
			give(a, 0, writer, NULL);
			return 0;
		}
		atomic_fetch_add(&a->before, 1);
		hold(a, 0, writer, 300);
		give(a, 0, writer, NULL);
	}
	note(a, ERR_STARVED);
	return 0;
}

static int stream_lone(void *arg, int i)
{
	struct arena *a = arg;
	int writer = !a->stream_writes;
	struct shm_rwlock_ticket t;

	if (!eventually(stream_flowing, a))
		return 1;
	t = take(a, 0, (uint32_t)i, writer, 0);
	atomic_fetch_add(&a->entries[writer], 1);
	/* the stream's arrivals before us: readers (we write, no writer came
	 * before) or writers (we read) */
	if (ld(&a->entries[!writer]) != t.want)
		note(a, ERR_ORDER);
	hold(a, 0, writer, 300);
	/* release: read by the stream entries that come in after us */
	atomic_store_explicit(&a->lone_done, 1, memory_order_release);
	give(a, 0, writer, NULL);
	return 0;
}

static void stream_run(enum how how, int stream_writes)
{
	const int members = 4;
	struct arena *a = arena_new(how, members + 1);

	a->stream_writes = stream_writes;
	for (int i = 0; i < members; i++)
		spawn(stream_member, a, i);
	spawn(stream_lone, a, members);
	reap();
	expect_no_errors(a);
	/* the lone one did queue behind a flowing stream */
	ck_assert_uint_ge(ld(&a->before), 40);
	ck_assert_uint_eq(ld(&a->entries[!stream_writes]), 1);
	expect_counts(&a->lock[0], ld(&a->entries[0]), ld(&a->entries[1]));
}

START_TEST(writer_not_starved_by_readers)
{
	stream_run(POLL, 0);
	stream_run(SLEEP, 0);
}
END_TEST

START_TEST(reader_not_starved_by_writers)
{
	stream_run(POLL, 1);
	stream_run(SLEEP, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_rwlock");
	TCase *one = tcase_create("one process");
	TCase *many = tcase_create("processes");
	SRunner *sr;
	int failed;

	tcase_add_test(one, grants_in_arrival_order);
	tcase_add_test(one, holder_and_snapshot);
	tcase_add_test(one, counters_carry_into_guard_bits);
	tcase_add_test(one, granted_returns_exactly_those_granted);
	tcase_add_test(one, enlist_sees_a_grant_that_came_before);
	tcase_add_test(one, delist_after_unlocker_and_node_reuse);
	tcase_add_test(one, delist_at_every_place);
	suite_add_tcase(s, one);

	tcase_set_timeout(many, 30);
	tcase_add_test(many, writers_exclude_polling);
	tcase_add_test(many, writers_exclude_spinning);
	tcase_add_test(many, writers_exclude_readers_polling);
	tcase_add_test(many, sleeping_writers_hammer);
	tcase_add_test(many, sleeping_readers_and_writers_hammer);
	tcase_add_test(many, waiter_lists_consistent_under_contention);
	tcase_add_test(many, counters_wrap_around);
	tcase_add_test(many, departure_and_enlisting_race);
	tcase_add_test(many, readers_inside_together_across_processes);
	tcase_add_test(many, fifo_between_readers_and_writers);
	tcase_add_test(many, writer_not_starved_by_readers);
	tcase_add_test(many, reader_not_starved_by_writers);
	suite_add_tcase(s, many);

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
