/*
 * Randomized passive-target locking: every rank runs a random legal
 * sequence of MPI_Win_lock, MPI_Win_lock_all, MPI_Win_unlock and
 * MPI_Win_unlock_all over random targets and modes, with puts and gets
 * inside, and checks exclusion as MPI 3.1, section 11.5.3 ("Lock") states
 * it: accesses under an exclusive lock are not concurrent at the window
 * site with any other lock-protected access, accesses under a shared lock
 * not with those under an exclusive one.
 *
 * Legal, and free of deadlock by the rules rma_lockorder.c tests: a rank
 * takes a lock only on a target above every target it holds (it may
 * release any of them at any time), takes MPI_Win_lock_all only when it
 * holds nothing on that window, and never holds two locks on one target.
 * So the job must end; shmrun's --timeout bounds it.
 *
 * The memory of each target: [OWNER] the owner word, [COUNT] a counter,
 * [SLOT + r] the slot of rank r.
 *  - An exclusive holder puts rank+1 into the owner word, flushes, and gets
 *    it back several times around other work, requiring its own value each
 *    time; now and then it adds one to the counter (get, then put, each
 *    flushed); and it puts 0 into the owner word before unlocking.
 *  - A shared holder gets the owner word and requires 0, on taking the
 *    lock, around its work and before unlocking; a lock_all holder gets the
 *    owner word of every target and requires 0.
 *  - Every holder puts into its own slot and gets it back.
 * At the end each target's counter must equal the number of additions made
 * to it (a lost addition shows a second writer).
 *
 * One window of each kind of winkind.h (or only KIND); each sequence works
 * on one window, chosen at random, and holds nothing when it ends.
 *
 *   lock_random SEED SECONDS [SEQUENCES [KIND [SELFTEST]]]
 *
 * SEED 0 draws a seed.  Rank 0 prints the seed first, and a summary at the
 * end.  Each rank runs sequences for SECONDS, or SEQUENCES of them when
 * that is above 0.  A failure names the seed (rerun with it: each rank
 * draws the same sequences; the interleaving differs) and exits 97.
 * SELFTEST 1: rank 0 takes MPI_LOCK_SHARED where it plays the exclusive
 * holder, to show that the checks catch broken exclusion.
 */
#include <sched.h>

#include "winkind.h"

enum { OWNER, COUNT, SLOT };
enum { MAX_STEPS = 24, MAX_WORK = 3 };

static int me, nranks, nwin, selftest;
static unsigned long long seed;
static uint64_t rng;
static struct wk_win wins[WK_NKINDS];
static long *added;		/* [w * nranks + t]: this rank's additions */
static int *held;		/* per target: 0, or the MPI_LOCK_* held */
static int slot_value;
static long stats[5];		/* exclusive, shared, lock_all, deepest, sequences */
enum { ST_EXCL, ST_SHARED, ST_ALL, ST_DEPTH, ST_SEQ };

#define FAIL(w, ...)                                                           \
	do {                                                                   \
		fprintf(stderr, "lock_random: seed %llu, rank %d, %s window: ", \
			seed, me, wk_names[(w)->kind]);                        \
		fprintf(stderr, __VA_ARGS__);                                  \
		fprintf(stderr, " (rerun with seed %llu on %d ranks)\n",     \
			seed, nranks);                                         \
		fflush(stderr);                                                \
		MPI_Abort(MPI_COMM_WORLD, 97);                                 \
	} while (0)

static uint32_t pick(uint32_t bound)
{
	return (uint32_t)(tu_splitmix(&rng) % bound);
}

/* Word i of target t, read in an epoch that holds t. */
static int get_word(struct wk_win *w, int t, int i)
{
	int v;

	CHECK_MPI(MPI_Get(&v, 1, MPI_INT, t, wk_at(w, t, i), 1, MPI_INT, w->win));
	CHECK_MPI(MPI_Win_flush(t, w->win));
	return v;
}

/* Put v into word i of target t; the buffer lives until the flush. */
static void put_word(struct wk_win *w, int t, int i, int v)
{
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, wk_at(w, t, i), 1, MPI_INT, w->win));
	CHECK_MPI(MPI_Win_flush(t, w->win));
}

/* The owner word of t must be `want` (this rank's rank+1, or 0). */
static void check_owner(struct wk_win *w, int t, int want, const char *when)
{
	int got = get_word(w, t, OWNER);

	if (got > 0 && got != want)
		FAIL(w, "%s on target %d: the owner word is %d, want %d (rank %d is inside "
		     "as an exclusive holder)", when, t, got, want, got - 1);
	if (got != want)
		FAIL(w, "%s on target %d: the owner word is %d, want %d (cleared by another "
		     "rank)", when, t, got, want);
}

/* A short pause now and then, so that other ranks' epochs overlap. */
static void maybe_pause(void)
{
	struct timespec ts = { 0, 50000 };

	switch (pick(8)) {
	case 0:
		sched_yield();
		break;
	case 1:
		nanosleep(&ts, NULL);
		break;
	default:
		break;
	}
}

/* Some work on target t, held in `mode`. */
static void work(struct wk_win *w, int t, int mode)
{
	int own = mode == MPI_LOCK_EXCLUSIVE ? me + 1 : 0;

	check_owner(w, t, own, mode == MPI_LOCK_EXCLUSIVE ? "exclusive" : "shared");
	if (mode == MPI_LOCK_EXCLUSIVE && pick(2)) {
		int c = get_word(w, t, COUNT);

		maybe_pause();
		put_word(w, t, COUNT, c + 1);
		added[(w - wins) * nranks + t]++;
		check_owner(w, t, own, "exclusive, after adding");
	}
	if (pick(2)) {
		int v = ++slot_value, got;

		put_word(w, t, SLOT + me, v);
		maybe_pause();
		got = get_word(w, t, SLOT + me);
		if (got != v)
			FAIL(w, "target %d: this rank's slot is %d, it put %d", t, got, v);
	}
	maybe_pause();
}

static void acquire(struct wk_win *w, int t, int mode)
{
	int as = selftest && me == 0 ? MPI_LOCK_SHARED : mode;

	CHECK_MPI(MPI_Win_lock(as, t, 0, w->win));
	held[t] = mode;
	if (mode == MPI_LOCK_EXCLUSIVE) {
		check_owner(w, t, 0, "exclusive, on taking the lock");
		put_word(w, t, OWNER, me + 1);
		stats[ST_EXCL]++;
	} else {
		stats[ST_SHARED]++;
	}
	work(w, t, mode);
}

static void release(struct wk_win *w, int t)
{
	int zero = 0;

	if (held[t] == MPI_LOCK_EXCLUSIVE) {
		check_owner(w, t, me + 1, "exclusive, before unlocking");
		CHECK_MPI(MPI_Put(&zero, 1, MPI_INT, t, wk_at(w, t, OWNER), 1, MPI_INT,
				  w->win));
	} else {
		check_owner(w, t, 0, "shared, before unlocking");
	}
	CHECK_MPI(MPI_Win_unlock(t, w->win));
	held[t] = 0;
}

/* A lock_all epoch: every owner word is 0, in a random order; then some
 * work on random targets. */
static void lock_all_epoch(struct wk_win *w)
{
	int first = (int)pick((uint32_t)nranks), n = (int)pick(MAX_WORK + 1);

	CHECK_MPI(MPI_Win_lock_all(0, w->win));
	stats[ST_ALL]++;
	for (int i = 0; i < nranks; i++)
		check_owner(w, (first + i) % nranks, 0, "lock_all");
	for (int i = 0; i < n; i++)
		work(w, (int)pick((uint32_t)nranks), MPI_LOCK_SHARED);
	CHECK_MPI(MPI_Win_unlock_all(w->win));
}

/* Locks nested in ascending order, released in any order. */
static void nested_epochs(struct wk_win *w)
{
	int steps = 1 + (int)pick(MAX_STEPS), depth = 0, top = -1;

	for (int s = 0; s < steps; s++) {
		int choice = (int)pick(8), t;

		if (choice < 3 && top < nranks - 1) {
			/* a target above every one held: half of the time one
			 * of the next two, for deeper nesting */
			int above = nranks - 1 - top;

			if (pick(2) && above > 2)
				above = 2;
			t = top + 1 + (int)pick((uint32_t)above);
			acquire(w, t, pick(2) ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED);
			top = t;
			if (++depth > stats[ST_DEPTH])
				stats[ST_DEPTH] = depth;
		} else if (top >= 0 && choice < 5) {
			do
				t = (int)pick((uint32_t)(top + 1));
			while (!held[t]);
			release(w, t);
			depth--;
			while (top >= 0 && !held[top])
				top--;
		} else if (top >= 0) {
			do
				t = (int)pick((uint32_t)(top + 1));
			while (!held[t]);
			work(w, t, held[t]);
		}
	}
	/* what is left, in a random order */
	while (top >= 0) {
		int t;

		do
			t = (int)pick((uint32_t)(top + 1));
		while (!held[t]);
		release(w, t);
		while (top >= 0 && !held[top])
			top--;
	}
}

/* Every target's counter against the additions the ranks made to it. */
static void check_counters(void)
{
	long *total = malloc(sizeof(long) * (size_t)(nwin * nranks));

	CHECK(total);
	CHECK_MPI(MPI_Allreduce(added, total, nwin * nranks, MPI_LONG, MPI_SUM,
				MPI_COMM_WORLD));
	for (int i = 0; i < nwin; i++) {
		struct wk_win *w = &wins[i];
		int c, o;

		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
		c = get_word(w, me, COUNT);
		o = get_word(w, me, OWNER);
		CHECK_MPI(MPI_Win_unlock(me, w->win));
		if (c != total[i * nranks + me])
			FAIL(w, "target %d: the counter is %d after %ld additions", me, c,
			     total[i * nranks + me]);
		if (o != 0)
			FAIL(w, "target %d: the owner word is %d at the end", me, o);
	}
	free(total);
}

int main(int argc, char **argv)
{
	double seconds, end;
	long sequences, sum[5], deepest;
	const char *kind;
	int k;

	tu_init(&argc, &argv);
	me = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
	seconds = argc > 2 ? atof(argv[2]) : 2;
	sequences = argc > 3 ? atol(argv[3]) : 0;
	kind = argc > 4 ? argv[4] : "all";
	selftest = argc > 5 ? atoi(argv[5]) : 0;
	k = wk_kind_of(kind);
	if (k < 0 && strcmp(kind, "all")) {
		if (me == 0)
			fprintf(stderr, "lock_random: %s is no window kind\n", kind);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (seed == 0 && me == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((unsigned long long)ts.tv_sec * 1000003u ^
			(unsigned long long)ts.tv_nsec) % 1000000000u + 1;
	}
	CHECK_MPI(MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD));
	if (me == 0) {
		printf("lock_random: seed %llu, %d ranks, %s windows\n", seed, nranks, kind);
		fflush(stdout);
	}
	rng = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(me + 1));
	nwin = k < 0 ? WK_NKINDS : 1;
	for (int i = 0; i < nwin; i++)
		wk_open(&wins[i], k < 0 ? (enum wk_kind)i : (enum wk_kind)k, SLOT + nranks, 0,
			MPI_COMM_WORLD);
	added = calloc((size_t)(nwin * nranks), sizeof(long));
	held = calloc((size_t)nranks, sizeof(int));
	CHECK(added && held);

	end = MPI_Wtime() + seconds;
	for (long s = 0; sequences ? s < sequences : MPI_Wtime() < end; s++) {
		struct wk_win *w = &wins[pick((uint32_t)nwin)];

		if (pick(4) == 0)
			lock_all_epoch(w);
		else
			nested_epochs(w);
		stats[ST_SEQ]++;
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_counters();
	CHECK_MPI(MPI_Reduce(stats, sum, 5, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Reduce(&stats[ST_DEPTH], &deepest, 1, MPI_LONG, MPI_MAX, 0,
			     MPI_COMM_WORLD));
	for (int i = nwin - 1; i >= 0; i--)
		wk_close(&wins[i]);
	if (me == 0)
		printf("lock_random: seed %llu, %d ranks, %ld sequences: %ld exclusive, %ld "
		       "shared, %ld lock_all epochs, nested %ld deep; exclusion held\n",
		       seed, nranks, sum[ST_SEQ], sum[ST_EXCL], sum[ST_SHARED], sum[ST_ALL],
		       deepest);
	free(held);
	free(added);
	MPI_Finalize();
	return 0;
}
