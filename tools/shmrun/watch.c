/*
 * The watchdog: on every tick of the loop, a look at what each rank
 * publishes (shm/rankstate.h) to tell a deadlock and a weak-progress stall
 * apart from slow work, and to say who waits for whom.
 *
 * Movement.  A rank moved when its progress counter or its published state
 * (call, wait kind, peer, since) changed since the last tick; a rank
 * suspected of stalling others also moved when the rings it produces into
 * or consumes from changed (its engine pushed or drained inside a
 * non-blocking call).  A tick that comes late (shmrun was stopped, or not
 * scheduled) counts as movement everywhere: the job is not judged on time
 * it did not run.
 *
 * Deadlock: every live rank is blocked in MPI (call != 0) and no rank moved
 * for --deadlock-timeout seconds.  Each rank then waits for a call of
 * another rank, which is itself blocked: the job is ended (exit status
 * RUN_EXIT_WATCHDOG).  While every rank is blocked, data moves only through
 * engine passes, which bump the counters, so the rings need not be read.
 *
 * Weak-progress stall: rank A is blocked on work that only rank X's engine
 * can do, no progress thread runs X's engine (strong == 0), and X has been
 * outside MPI with its engine idle for the timeout while A waited.  A's
 * wait depends on X's engine when
 *   - A waits for the rest of a matched message from X (WAIT_RECV_DATA);
 *   - A waits for X to apply RMA operations on X's private memory
 *     (WAIT_RMA_TARGET: only X's engine performs them);
 *   - A waits for room to send the rest of a matched message to X
 *     (WAIT_SEND_DATA) and X has not read what A sent;
 *   - A waits for a message from X, or for a send to X, and X's engine owes
 *     records that its next pass would push (owes != 0).
 * A wait for a call X has yet to make (a receive not yet matched, a
 * barrier, a collective, a window's post, complete or lock, which live in
 * shared memory and need no engine) is not: a rank outside MPI that others
 * wait for that way is computing, and may take its time.  A stall is
 * reported once; the job is ended when --stall-action says kill, or (auto)
 * when nothing else can move: every live rank is blocked or is a stalled X,
 * and nothing moved for the timeout (when only the quiet is missing, the
 * report waits for it, so that it says whether anything else can move).
 *
 * Reading: relaxed loads of words the ranks store relaxed.  A snapshot may
 * mix old and new fields of a rank; every verdict needs its condition to
 * hold over the whole timeout, which a torn look cannot fake.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../shm/rankstate.h"
#include "shmrun.h"

#define WATCH_GAP_NS	(10 * RUN_TICK_MS * RUN_NS_PER_MS)	/* a late tick */
#define WATCH_LINE	1000	/* fits run_msg's line with its prefix */
#define WATCH_LIST_MAX	4	/* ranks named in "records from ranks 1, 2" */

struct watch_rank {
	/* this look (watch_read) */
	bool live;		/* spawned and not reaped */
	uint32_t phase, call, kind, last_call, ctx, owes, strong;
	bool threads;		/* MPI_THREAD_MULTIPLE: its record is one thread's */
	int32_t peer, tag, holder;
	uint32_t blocker;	/* WAIT_WIN_LOCK: SHM_BLOCKER(how, count) */
	uint64_t since_ns, progress;
	/* what the watchdog remembers */
	uint64_t seen_progress, seen_since, rings;
	uint32_t seen_call, seen_kind;
	int32_t seen_peer;
	bool rings_seen;	/* `rings` holds the signature of the last tick */
	bool suspect;		/* this tick: some rank's wait needs its engine */
	uint64_t moved_at;	/* when anything of it last changed */
	uint64_t engine_at;	/* when its counter or rings last changed */
	int needs;		/* the rank whose engine it is stalled on, or -1 */
	bool stalls;		/* some rank is stalled on its engine */
};

struct run_watch {
	int n;
	uint64_t last_tick;
	uint64_t moved_at;	/* when any rank last moved */
	bool stall_reported;	/* the stall going on was reported */
	bool fired;		/* the job was ended */
	int *stamp;		/* per rank: the walk that last visited it */
	struct watch_rank r[];
};

enum watch_verdict { VERDICT_DEADLOCK, VERDICT_STALL, VERDICT_NONE };

/* A line being built, written with run_msg once whole. */
struct watch_line {
	char buf[WATCH_LINE];
	size_t len;
};

static void __attribute__((format(printf, 2, 3))) line_add(struct watch_line *l,
							    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n :
			  sizeof(l->buf) - l->len - 1;
}

static double watch_secs(uint64_t now, uint64_t then)
{
	return now > then ? (double)(now - then) / (double)RUN_NS_PER_S : 0.0;
}

/* ---- looking at the ranks ---- */

static void watch_read(struct run_job *job, int r)
{
	struct watch_rank *w = &job->watch->r[r];
	struct shm_rank_ctl *ctl = shm_job_rank(job->hdr, r);
	struct shm_rank_state *s = &ctl->state;

	w->live = r < job->nspawned && !job->ranks[r].reaped;
	/* relaxed, all of them: the rank stores them relaxed (src/state.h)
	 * and the watchdog judges only what holds over many looks */
	w->phase = atomic_load_explicit(&ctl->phase, memory_order_relaxed);
	w->progress = atomic_load_explicit(&ctl->progress, memory_order_relaxed);
	w->call = atomic_load_explicit(&s->call, memory_order_relaxed);
	w->kind = atomic_load_explicit(&s->wait_kind, memory_order_relaxed);
	w->peer = atomic_load_explicit(&s->peer, memory_order_relaxed);
	w->tag = atomic_load_explicit(&s->tag, memory_order_relaxed);
	w->ctx = atomic_load_explicit(&s->ctx, memory_order_relaxed);
	w->last_call = atomic_load_explicit(&s->last_call, memory_order_relaxed);
	w->since_ns = atomic_load_explicit(&s->since_ns, memory_order_relaxed);
	w->owes = atomic_load_explicit(&s->owes, memory_order_relaxed);
	w->strong = atomic_load_explicit(&s->strong, memory_order_relaxed);
	w->threads = (w->strong & SHM_RANK_THREADS) != 0;
	w->strong &= SHM_RANK_STRONG;
	w->holder = atomic_load_explicit(&s->holder, memory_order_relaxed);
	w->blocker = atomic_load_explicit(&s->blocker, memory_order_relaxed);
}

/* A rank of several threads in MPI (MPI_THREAD_MULTIPLE) is neither
 * blocked nor outside: its record tells what one thread does, while
 * another may compute or run the engine; no verdict rests on it. */
static bool watch_blocked(const struct watch_rank *w)
{
	return w->live && w->phase == SHM_RANK_INITIALIZED && !w->threads &&
	       w->call != CALL_NONE;
}

static bool watch_outside(const struct watch_rank *w)
{
	return w->live && w->phase == SHM_RANK_INITIALIZED && !w->threads &&
	       w->call == CALL_NONE;
}

static bool ring_unread(struct run_job *job, int src, int dst)
{
	return shm_inbox_unread_from(shm_job_inbox(job->hdr, dst), (uint32_t)src);
}

/* What rank x's engine did to its channels: the sum of what it ever
 * consumed from its rings and pushed into its own rings in other ranks'
 * pools, which grows whenever it moves anything. */
static uint64_t ring_signature(struct run_job *job, int x)
{
	struct shm_inbox *ib = shm_job_inbox(job->hdr, x);
	uint32_t n = shm_inbox_claimed(ib);
	uint64_t sum;
	int shared;

	/* relaxed: only compared with the last tick's sum */
	sum = atomic_load_explicit(&shm_inbox_shared(ib)->head, memory_order_relaxed);
	for (uint32_t i = 0; i < n; i++)
		if (shm_inbox_owner(ib, i) >= 0)
			sum += atomic_load_explicit(&shm_inbox_ring(ib, i)->head,
						    memory_order_relaxed);
	for (int p = 0; p < job->nranks; p++) {
		struct shm_ring *r = shm_inbox_ring_of(shm_job_inbox(job->hdr, p),
						       (uint32_t)x, &shared);

		if (!shared)
			sum += atomic_load_explicit(&r->tail, memory_order_relaxed);
	}
	return sum;
}

/* Note what changed since the last tick. */
static void watch_note(struct run_watch *wd, struct watch_rank *w, uint64_t now)
{
	bool engine = w->progress != w->seen_progress;

	if (engine || w->call != w->seen_call || w->kind != w->seen_kind ||
	    w->peer != w->seen_peer || w->since_ns != w->seen_since) {
		w->moved_at = now;
		wd->moved_at = now;
	}
	if (engine)
		w->engine_at = now;
	w->seen_progress = w->progress;
	w->seen_call = w->call;
	w->seen_kind = w->kind;
	w->seen_peer = w->peer;
	w->seen_since = w->since_ns;
}

/* Whether blocked rank a's wait needs rank x's engine (see the top). */
static bool watch_needs_engine(struct run_job *job, int a, int x)
{
	const struct watch_rank *wa = &job->watch->r[a], *wx = &job->watch->r[x];

	switch (wa->kind) {
	case WAIT_RECV_DATA:
	case WAIT_RMA_TARGET:
		return true;
	case WAIT_SEND_DATA:
		return ring_unread(job, a, x);
	case WAIT_RECV:
	case WAIT_PROBE:
	case WAIT_SEND:
		return wx->owes != 0;
	default:
		return false;
	}
}

/* The rank blocked rank a waits for, or -1 (nobody in particular). */
static int watch_peer(const struct run_watch *wd, int a)
{
	const struct watch_rank *w = &wd->r[a];

	/* a lock: whoever keeps it from the waiter, as the lock's records
	 * say (never the target by default: it need not be involved) */
	if (watch_blocked(w) && w->kind == WAIT_WIN_LOCK)
		return w->holder >= 0 && w->holder < wd->n && w->holder != a ? w->holder : -1;
	if (!watch_blocked(w) || w->peer < 0 || w->peer >= wd->n || w->peer == a)
		return -1;
	return w->peer;
}

/* Since when x has been outside MPI: its last blocking call (or buffered
 * send), or its engine's last move (the job's start at the earliest),
 * whichever came later. */
static uint64_t watch_outside_since(const struct watch_rank *w)
{
	return w->since_ns > w->engine_at ? w->since_ns : w->engine_at;
}

static double watch_outside_secs(const struct watch_rank *w, uint64_t now)
{
	return watch_secs(now, watch_outside_since(w));
}

/* ---- the report ---- */

/* ", held shared by rank 2 and 3 more": who keeps a lock from w. */
static void watch_add_blocker(struct watch_line *l, const struct watch_rank *w)
{
	uint32_t count = SHM_BLOCKER_COUNT(w->blocker);

	switch (SHM_BLOCKER_HOW(w->blocker)) {
	case SHM_BLOCK_EXCLUSIVE:
		if (w->holder != w->peer)
			line_add(l, ", held by rank %d", w->holder);
		break;
	case SHM_BLOCK_SHARED:
		line_add(l, ", held shared by rank %d", w->holder);
		if (count > 1)
			line_add(l, " and %u more", count - 1);
		break;
	case SHM_BLOCK_QUEUED:
		line_add(l, ", queued behind rank %d", w->holder);
		break;
	case SHM_BLOCK_AHEAD:
		line_add(l, ", behind %u earlier request%s (ranks not named)", count,
			 count > 1 ? "s" : "");
		break;
	default:
		break;
	}
}

/* "the post of rank 1 (window of context 4)": what blocked w waits for. */
static void watch_add_wait(struct watch_line *l, const struct watch_rank *w)
{
	const char *prep = shm_rank_wait_prep(w->kind);

	if (w->kind == WAIT_WIN_LOCK)
		line_add(l, "%s", shm_rank_lock_name(w->tag));
	else if (w->kind == WAIT_REQUESTS && w->tag > 1)
		line_add(l, "%d %s", w->tag, shm_rank_wait_what(w->kind));
	else
		line_add(l, "%s", shm_rank_wait_what(w->kind));
	if (prep && w->peer >= 0)
		line_add(l, " %s rank %d", prep, w->peer);
	else if (prep && (w->kind == WAIT_RECV || w->kind == WAIT_PROBE))
		line_add(l, " from any rank");
	if (w->kind == WAIT_WIN_LOCK)
		watch_add_blocker(l, w);
}

static void watch_add_details(struct watch_line *l, const struct watch_rank *w)
{
	switch (w->kind) {
	case WAIT_RECV:
	case WAIT_RECV_DATA:
	case WAIT_SEND:
	case WAIT_SEND_DATA:
	case WAIT_PROBE:
		if (w->tag < 0)
			line_add(l, " (any tag, context %u)", w->ctx);
		else
			line_add(l, " (tag %d, context %u)", w->tag, w->ctx);
		break;
	case WAIT_BSEND_DRAIN:
		if (w->peer >= 0)
			line_add(l, " (the first: tag %d, context %u)", w->tag, w->ctx);
		break;
	case WAIT_BARRIER:
	case WAIT_COLL_DATA:
	case WAIT_COLL_ACK:
		line_add(l, " (context %u)", w->ctx);
		break;
	case WAIT_WIN_POST:
	case WAIT_WIN_COMPLETE:
	case WAIT_WIN_LOCK:
		line_add(l, " (window of context %u)", w->ctx);
		break;
	default:
		break;
	}
}

/* "; records from ranks 1, 2 unread": the ranks whose records x has not
 * read yet. */
static void watch_add_unread(struct watch_line *l, struct run_job *job, int x)
{
	int from[WATCH_LIST_MAX], count = 0;

	for (int s = 0; s < job->nranks; s++) {
		if (s == x || !ring_unread(job, s, x))
			continue;
		if (count < WATCH_LIST_MAX)
			from[count] = s;
		count++;
	}
	if (count == 0)
		return;
	line_add(l, "; records from rank%s", count > 1 ? "s" : "");
	for (int i = 0; i < count && i < WATCH_LIST_MAX; i++)
		line_add(l, "%s %d", i ? "," : "", from[i]);
	if (count > WATCH_LIST_MAX)
		line_add(l, " and %d more", count - WATCH_LIST_MAX);
	line_add(l, " unread");
}

/* Where a rank that is not blocked stands: " outside MPI for 5.0 s ..." in
 * its own line, "has been outside MPI for 5.0 s ..." in a chain. */
static void watch_add_elsewhere(struct watch_line *l, struct run_job *job, int r,
				uint64_t now, bool chain)
{
	const struct watch_rank *w = &job->watch->r[r];

	if (!w->live) {
		line_add(l, "%s", chain ? "has exited" : " exited");
		return;
	}
	switch (w->phase) {
	case SHM_RANK_STARTED:
		line_add(l, "%s", chain ? "has not called MPI_Init yet" :
			 " not in MPI yet (before MPI_Init)");
		return;
	case SHM_RANK_FINALIZED:
		line_add(l, "%s done with MPI (after MPI_Finalize)", chain ? "is" : "");
		return;
	case SHM_RANK_ABORTED:
		line_add(l, "%s", chain ? "has aborted" : " aborted");
		return;
	default:
		break;
	}
	line_add(l, "%s outside MPI for %.1f s", chain ? "has been" : "",
		 watch_outside_secs(w, now));
	if (w->last_call != CALL_NONE)
		line_add(l, " since %s", shm_rank_call_name(w->last_call));
	else
		line_add(l, " (no blocking call yet)");
}

static void watch_rank_line(struct run_job *job, int r, uint64_t now)
{
	const struct watch_rank *w = &job->watch->r[r];
	struct watch_line l = { .len = 0 };

	line_add(&l, "rank %d:", r);
	if (watch_blocked(w)) {
		line_add(&l, " in %s for %.1f s, waiting for ", shm_rank_call_name(w->call),
			 watch_secs(now, w->since_ns));
		watch_add_wait(&l, w);
		watch_add_details(&l, w);
	} else {
		watch_add_elsewhere(&l, job, r, now, false);
		if (watch_outside(w)) {
			if (w->owes)
				line_add(&l, "; its engine owes records to %u rank%s", w->owes,
					 w->owes > 1 ? "s" : "");
			watch_add_unread(&l, job, r);
		}
	}
	run_msg("%s", l.buf);
}

/* Walk from rank `start` along whom each blocked rank waits for: returns
 * the ranks visited, sets *end to the last one and *cycle_at to the rank
 * where the walk met itself, or -1. */
static int watch_walk(struct run_watch *wd, int start, int mark, int *end, int *cycle_at)
{
	int links = 0, r = start;

	*cycle_at = -1;
	while (r >= 0) {
		if (wd->stamp[r] == mark) {
			*cycle_at = r;
			break;
		}
		wd->stamp[r] = mark;
		links++;
		*end = r;
		r = watch_peer(wd, r);
	}
	return links;
}

/*
 * The wait-for line: for a stall, the longest chain that ends in a stalling
 * rank; otherwise a cycle if there is one, else the longest chain.  Returns
 * the last rank of the chain, or -1.
 */
static int watch_chain_line(struct run_job *job, enum watch_verdict verdict, uint64_t now,
			    bool *cycled)
{
	struct run_watch *wd = job->watch;
	struct watch_line l = { .len = 0 };
	int best = -1, best_links = 0, cycle = -1, r, end = -1;

	for (int s = 0; s < wd->n; s++)
		wd->stamp[s] = -1;
	for (int s = 0; s < wd->n && cycle < 0; s++) {
		int links, last = s, at;

		if (!watch_blocked(&wd->r[s]))
			continue;
		links = watch_walk(wd, s, s, &last, &at);
		if (verdict == VERDICT_STALL) {
			if (at < 0 && wd->r[last].stalls && links > best_links) {
				best = s;
				best_links = links;
			}
		} else if (at >= 0) {
			cycle = at;
		} else if (links > best_links) {
			best = s;
			best_links = links;
		}
	}
	*cycled = cycle >= 0;
	if (cycle < 0 && best < 0)
		return -1;
	line_add(&l, cycle >= 0 ? "wait-for cycle: " : "wait-for chain: ");
	r = cycle >= 0 ? cycle : best;
	for (int i = 0; r >= 0; i++) {
		const struct watch_rank *w = &wd->r[r];
		int next = watch_peer(wd, r);

		if (l.len > sizeof(l.buf) - 160) {
			line_add(&l, "; ...");
			break;
		}
		if (i > 0)
			line_add(&l, "; ");
		end = r;
		if (!watch_blocked(w)) {
			line_add(&l, "rank %d ", r);
			watch_add_elsewhere(&l, job, r, now, true);
			break;
		}
		line_add(&l, "rank %d waits in %s for ", r, shm_rank_call_name(w->call));
		watch_add_wait(&l, w);
		if (next == cycle && cycle >= 0) {
			line_add(&l, " (a cycle)");
			break;
		}
		r = next;
	}
	run_msg("%s", l.buf);
	return end;
}

/* A rank blocked on a lock that, by the lock's records, nobody keeps from
 * it: a fault of the library, never of the program.  Returns it, or -1. */
static int watch_lock_orphan(const struct run_watch *wd)
{
	for (int r = 0; r < wd->n; r++) {
		const struct watch_rank *w = &wd->r[r];

		if (watch_blocked(w) && w->kind == WAIT_WIN_LOCK && w->holder < 0 &&
		    SHM_BLOCKER_HOW(w->blocker) == SHM_BLOCK_UNKNOWN)
			return r;
	}
	return -1;
}

static void watch_report(struct run_job *job, enum watch_verdict verdict,
			 const char *action, uint64_t now)
{
	struct run_watch *wd = job->watch;
	int x, a = -1, orphan;
	bool cycled = false;

	for (int r = 0; r < wd->n; r++)
		watch_rank_line(job, r, now);
	x = watch_chain_line(job, verdict, now, &cycled);
	if (verdict == VERDICT_DEADLOCK && !cycled && (orphan = watch_lock_orphan(wd)) >= 0) {
		run_msg("no progress: every rank still running is blocked in MPI and nothing "
			"has moved for %.1f s; %s", job->opts->deadlock_s, action);
		run_msg("hint: no rank holds the lock that rank %d waits for, nor waits for it "
			"ahead of it: this is a fault of shmpi, not of the program; please "
			"report it with this output", orphan);
		return;
	}
	if (verdict == VERDICT_DEADLOCK) {
		run_msg("deadlock: every rank still running is blocked in MPI and nothing "
			"has moved for %.1f s; %s", job->opts->deadlock_s, action);
		run_msg("hint: each rank waits for a call that a blocked rank would make "
			"only later; the order of the calls must change (strong progress "
			"cannot help)");
		return;
	}
	if (verdict != VERDICT_STALL)
		return;
	/* the stalled pair: at the chain's end, else the first one */
	for (int r = 0; r < wd->n && a < 0; r++)
		if (wd->r[r].needs >= 0 && (x < 0 || !wd->r[x].stalls || wd->r[r].needs == x))
			a = r;
	if (a < 0)
		return;
	x = wd->r[a].needs;
	run_msg("weak-progress stall: rank %d waits for work that only the MPI engine of "
		"rank %d can do, and rank %d has been outside MPI for %.1f s; %s", a, x, x,
		watch_outside_secs(&wd->r[x], now), action);
	run_msg("hint: under weak progress MPI moves data only inside MPI calls, so rank "
		"%d must call MPI (MPI_Test will do) for it to move; shmrun "
		"--progress=strong removes the stall", x);
}

void run_watch_report(struct run_job *job)
{
	uint64_t now = run_now();

	if (!job->watch)
		return;
	for (int r = 0; r < job->watch->n; r++)
		watch_read(job, r);
	watch_report(job, VERDICT_NONE, NULL, now);
}

/* ---- the verdicts ---- */

static bool watch_deadlocked(struct run_job *job, uint64_t now, uint64_t timeout)
{
	struct run_watch *wd = job->watch;
	int live = 0;

	for (int r = 0; r < wd->n; r++) {
		if (!wd->r[r].live)
			continue;
		if (!watch_blocked(&wd->r[r]))
			return false;
		live++;
	}
	return live > 0 && now - wd->moved_at >= timeout;
}

/* Mark who is stalled on whose engine; returns how many ranks are. */
static int watch_stalls(struct run_job *job, uint64_t now, uint64_t timeout)
{
	struct run_watch *wd = job->watch;
	int stalled = 0;

	for (int r = 0; r < wd->n; r++) {
		wd->r[r].suspect = false;
		wd->r[r].needs = -1;
		wd->r[r].stalls = false;
	}
	for (int a = 0; a < wd->n; a++) {
		int x = watch_peer(wd, a);

		if (!watch_blocked(&wd->r[a]) || x < 0 || !watch_outside(&wd->r[x]) ||
		    wd->r[x].strong || !watch_needs_engine(job, a, x))
			continue;
		wd->r[x].suspect = true;
	}
	for (int x = 0; x < wd->n; x++) {
		struct watch_rank *w = &wd->r[x];
		uint64_t sig;

		if (!w->suspect) {
			w->rings_seen = false;
			continue;
		}
		sig = ring_signature(job, x);
		if (w->rings_seen && sig != w->rings) {
			w->moved_at = w->engine_at = now;
			wd->moved_at = now;
		}
		w->rings = sig;
		w->rings_seen = true;
	}
	for (int a = 0; a < wd->n; a++) {
		struct watch_rank *w = &wd->r[a];
		int x = watch_peer(wd, a);

		if (!watch_blocked(w) || x < 0 || !wd->r[x].suspect ||
		    !watch_needs_engine(job, a, x))
			continue;
		/* a waited the timeout, and x was idle outside MPI as long */
		if (now < w->since_ns || now - w->since_ns < timeout ||
		    now < watch_outside_since(&wd->r[x]) ||
		    now - watch_outside_since(&wd->r[x]) < timeout)
			continue;
		w->needs = x;
		wd->r[x].stalls = true;
		stalled++;
	}
	return stalled;
}

/* Whether nothing but the stalled engines could move anything: every live
 * rank is blocked in MPI or is a stalled engine. */
static bool watch_stuck(struct run_job *job)
{
	struct run_watch *wd = job->watch;

	for (int r = 0; r < wd->n; r++) {
		const struct watch_rank *w = &wd->r[r];

		if (w->live && !watch_blocked(w) && !w->stalls)
			return false;
	}
	return true;
}

void run_watch_tick(struct run_job *job, uint64_t now)
{
	struct run_watch *wd = job->watch;
	enum run_stall_action act = job->opts->stall_action;
	char ending[64];
	uint64_t timeout;
	bool stuck, kill;

	if (!wd || wd->fired || job->end != RUN_END_NONE)
		return;
	if (wd->last_tick && now - wd->last_tick > WATCH_GAP_NS) {
		for (int r = 0; r < wd->n; r++)
			wd->r[r].moved_at = wd->r[r].engine_at = now;
		wd->moved_at = now;
	}
	wd->last_tick = now;
	for (int r = 0; r < wd->n; r++) {
		watch_read(job, r);
		if (wd->r[r].live)
			watch_note(wd, &wd->r[r], now);
	}
	timeout = (uint64_t)(job->opts->deadlock_s * (double)RUN_NS_PER_S);
	if (timeout == 0)
		return;
	snprintf(ending, sizeof(ending), "ending the job (exit status %d)", RUN_EXIT_WATCHDOG);
	if (watch_deadlocked(job, now, timeout)) {
		wd->fired = true;
		watch_report(job, VERDICT_DEADLOCK, ending, now);
		run_fate_watchdog(job);
		return;
	}
	if (watch_stalls(job, now, timeout) == 0) {
		wd->stall_reported = false;
		return;
	}
	stuck = watch_stuck(job);
	/* stuck, but something moved lately (the wait that stalls began a
	 * moment ago): judge once it is quiet, or no longer stuck */
	if (stuck && now - wd->moved_at < timeout && !wd->stall_reported &&
	    act != RUN_STALL_KILL)
		return;
	stuck = stuck && now - wd->moved_at >= timeout;
	kill = act == RUN_STALL_KILL || (act == RUN_STALL_AUTO && stuck);
	if (!wd->stall_reported) {
		char action[128];

		snprintf(action, sizeof(action), "%s%s",
			 stuck ? "nothing else can move: " : act == RUN_STALL_AUTO ?
			 "other ranks can still move, so the job goes on" : "",
			 kill ? ending : act == RUN_STALL_REPORT ?
			 "the job goes on (--stall-action=report)" : "");
		watch_report(job, VERDICT_STALL, action, now);
	} else if (kill) {
		run_msg("the weak-progress stall goes on and nothing else can move; %s",
			ending);
	}
	wd->stall_reported = true;
	if (kill) {
		wd->fired = true;
		run_fate_watchdog(job);
	}
}

/* ---- life ---- */

int run_watch_start(struct run_job *job)
{
	struct run_watch *wd;

	wd = calloc(1, sizeof(*wd) + (size_t)job->nranks * sizeof(wd->r[0]));
	if (!wd)
		return -ENOMEM;
	wd->stamp = calloc((size_t)job->nranks, sizeof(*wd->stamp));
	if (!wd->stamp) {
		free(wd);
		return -ENOMEM;
	}
	wd->n = job->nranks;
	wd->moved_at = job->start;
	for (int r = 0; r < wd->n; r++) {
		wd->r[r].moved_at = wd->r[r].engine_at = job->start;
		wd->r[r].needs = -1;
	}
	job->watch = wd;
	return 0;
}

void run_watch_stop(struct run_job *job)
{
	if (!job->watch)
		return;
	free(job->watch->stamp);
	free(job->watch);
	job->watch = NULL;
}
