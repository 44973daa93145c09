/*
 * Active-target synchronization: MPI_Win_fence, and MPI_Win_post,
 * MPI_Win_start, MPI_Win_complete, MPI_Win_wait, MPI_Win_test.
 *
 * Fence is a barrier of the window's communicator, whose release and
 * acquire order the window's memory.
 * PSCW counts in the window segment: post[o][t] is how often target t has
 * posted an exposure epoch to origin o (origin o's start waits until it
 * exceeds the posts it has used), and compl[o][t] how many access epochs
 * origin o has completed to t (t's wait returns once, for every origin of
 * its post group, it reaches the number of t's posts naming o).  A waiter
 * publishes the first member it still waits for, and updates it as the
 * others arrive, so the watchdog names who is missing.  Every count only
 * grows, so no reset can race with a late reader; each has one writer,
 * which stores it without reading it back (win_pscw_raise) and rings the
 * doorbell of the rank that may wait for it.  Operations on private
 * memory (rma_pkt.h) are sent and applied before fence's barrier and before
 * complete raises the counts.
 */
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "api.h"
#include "coll.h"
#include "errhandler.h"
#include "group.h"
#include "progress.h"
#include "rma.h"
#include "rma_pkt.h"
#include "state.h"
#include "win.h"

#define FENCE_ASSERTS (MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | \
		       MPI_MODE_NOSUCCEED)
#define POST_ASSERTS (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)

/* An open fence epoch without operations ends quietly when another kind of
 * epoch begins; one with operations makes that erroneous. */
static int win_leave_fence(struct win *w)
{
	if (w->fence_on && w->fence_used)
		return -1;
	w->fence_on = 0;
	return 0;
}

API(int, Win_fence, (int assert, MPI_Win win))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_fence");
	if (!(w = win_arg("MPI_Win_fence", win, &rc)))
		return rc;
	if (assert & ~FENCE_ASSERTS)
		return win_err(w, "MPI_Win_fence", MPI_ERR_ASSERT, "assert",
			       "0x%x is not a combination of fence assertions", assert);
	if (w->start_group || w->post_group || w->nlocked || w->lock_all)
		return win_err(w, "MPI_Win_fence", MPI_ERR_RMA_SYNC, "win",
			       "a PSCW or passive-target epoch is open");
	/* operations on private memory applied, ours and others' (the barrier
	 * serves theirs) */
	rma_pkt_complete(w, CALL_WIN_FENCE, NULL, 0);
	/* Our stores before everybody's accesses after the fence, theirs before
	 * ours: the barrier's release and acquire order the ordinary ones, an
	 * sfence the program's own non-temporal stores into the window.  A
	 * full fence here would wait for the barrier's line to come back. */
	shm_nt_fence();
	/* with neither a preceding nor a succeeding epoch, nothing to order */
	if ((assert & (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) !=
	    (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED))
		coll_barrier(w->comm, CALL_WIN_FENCE);
	w->fence_on = !(assert & MPI_MODE_NOSUCCEED);
	w->fence_used = 0;
	return MPI_SUCCESS;
}

/* The group's members as ranks of the window; -1 if one is no member. */
static int win_group_ranks(const struct win *w, const struct group *g, int *out)
{
	for (int i = 0; i < g->size; i++) {
		out[i] = comm_rank_of_world(w->comm, g->world[i]);
		if (out[i] == MPI_UNDEFINED)
			return -1;
	}
	return 0;
}

/*
 * The group of `call` (post: 0, start: 1) and its members as ranks of the
 * window, in *ranks, which the window keeps for the next call of the same
 * kind with the same group (a PSCW loop passes one group again and again;
 * the kept reference stops its address from being reused meanwhile).
 */
static int win_group_arg(struct win *w, const char *call, int which, MPI_Group h,
			 struct group **g, const int **ranks)
{
	struct win_group_cache *c = &w->groups[which];
	int *r;

	*g = group_get(h);
	if (!*g)
		return win_err(w, call, MPI_ERR_GROUP, "group",
			       "0x%x is not a valid group", (unsigned)h);
	if (*g != c->g) {
		r = malloc(sizeof(int) * (size_t)((*g)->size + 1));
		if (!r)
			return win_err(w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
		if (win_group_ranks(w, *g, r) < 0) {
			free(r);
			return win_err(w, call, MPI_ERR_GROUP, "group",
				       "holds a process that is not in the window");
		}
		if (c->g)
			group_unref(c->g);
		free(c->ranks);
		group_ref(*g);
		c->g = *g;
		c->ranks = r;
	}
	*ranks = c->ranks;
	return MPI_SUCCESS;
}

API(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
{
	const int *ranks;
	struct group *g;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_post");
	if (!(w = win_arg("MPI_Win_post", win, &rc)))
		return rc;
	if (assert & ~POST_ASSERTS)
		return win_err(w, "MPI_Win_post", MPI_ERR_ASSERT, "assert",
			       "0x%x is not a combination of post assertions", assert);
	if (w->post_group || win_leave_fence(w) < 0)
		return win_err(w, "MPI_Win_post", MPI_ERR_RMA_SYNC, "win",
			       w->post_group ? "an exposure epoch is already open" :
			       "a fence epoch with operations is open");
	if ((rc = win_group_arg(w, "MPI_Win_post", 0, group, &g, &ranks)) != MPI_SUCCESS)
		return rc;
	group_ref(g);
	w->post_group = g;
	for (int i = 0; i < g->size; i++)
		w->completes_expected[ranks[i]]++;
	/* our local stores are seen by origins that see the post: each
	 * raise is a release store (the sfence: non-temporal ones too) */
	shm_nt_fence();
	if (!(assert & MPI_MODE_NOCHECK))
		for (int i = 0; i < g->size; i++) {
			win_pscw_raise(w, (size_t)ranks[i]);
			progress_wake_rank(comm_world_rank(w->comm, ranks[i]));
		}
	return MPI_SUCCESS;
}

struct start_wait {
	struct win *w;
	const int *ranks;
	int n;
	int missing;	/* the member published as awaited, or -1 */
};

/* While waiting in a PSCW call: publish (again) the member awaited now. */
static void publish_missing(struct win *w, int *missing, int r, enum wait_kind kind)
{
	if (*missing != r) {
		*missing = r;
		state_wait_refine(kind, comm_world_rank(w->comm, r));
	}
}

static int all_posted(void *arg)
{
	struct start_wait *s = arg;

	for (int i = 0; i < s->n; i++)
		/* acquire: pairs with the target's release increment in post */
		if (atomic_load_explicit(win_shm_post(s->w, s->w->rank, s->ranks[i]),
					 memory_order_acquire) ==
		    s->w->posts_seen[s->ranks[i]]) {
			if (s->missing >= 0)
				publish_missing(s->w, &s->missing, s->ranks[i],
						WAIT_WIN_POST);
			return 0;
		}
	return 1;
}

/* Start waits for the targets' posts (the standard allows it to). */
/* Wait until every target in ranks posted, and take those posts. */
static void win_wait_posts(struct win *w, enum call_id call, const int *ranks, int n)
{
	struct start_wait s = { w, ranks, n, -1 };

	if (!all_posted(&s)) {
		state_block(call, WAIT_WIN_POST, -1, 0, w->comm->ctx);
		s.missing = w->size;	/* from now on, publish */
		progress_wait(all_posted, &s);
		state_unblock(call);
	}
	for (int i = 0; i < n; i++)
		w->posts_seen[ranks[i]]++;
}

API(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
{
	const int *ranks;
	struct group *g;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_start");
	if (!(w = win_arg("MPI_Win_start", win, &rc)))
		return rc;
	if (assert & ~MPI_MODE_NOCHECK)
		return win_err(w, "MPI_Win_start", MPI_ERR_ASSERT, "assert",
			       "0x%x: only MPI_MODE_NOCHECK applies to start", assert);
	if (w->start_group || w->nlocked || w->lock_all || win_leave_fence(w) < 0)
		return win_err(w, "MPI_Win_start", MPI_ERR_RMA_SYNC, "win",
			       "another access epoch is open");
	if ((rc = win_group_arg(w, "MPI_Win_start", 1, group, &g, &ranks)) != MPI_SUCCESS)
		return rc;
	/* the adversarial mode: return before the posts when every operation
	 * waits for complete anyway; complete then waits for them */
	if (!(assert & MPI_MODE_NOCHECK) && adv_on() && w->npriv == w->size) {
		if (!(w->start_ranks = malloc(sizeof(int) * (size_t)(g->size + 1))))
			return win_err(w, "MPI_Win_start", MPI_ERR_NO_MEM, NULL,
				       "out of memory");
		memcpy(w->start_ranks, ranks, sizeof(int) * (size_t)g->size);
	} else if (!(assert & MPI_MODE_NOCHECK)) {
		win_wait_posts(w, CALL_WIN_START, ranks, g->size);
	}
	group_ref(g);
	w->start_group = g;
	return MPI_SUCCESS;
}

API(int, Win_complete, (MPI_Win win))
{
	struct group *g;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_complete");
	if (!(w = win_arg("MPI_Win_complete", win, &rc)))
		return rc;
	if (!(g = w->start_group))
		return win_err(w, "MPI_Win_complete", MPI_ERR_RMA_SYNC, "win",
			       "no access epoch was started (MPI_Win_start)");
	if (w->start_ranks) {
		win_wait_posts(w, CALL_WIN_COMPLETE, w->start_ranks, g->size);
		free(w->start_ranks);
		w->start_ranks = NULL;
	}
	/* operations on private memory are applied before the targets learn */
	rma_pkt_complete(w, CALL_WIN_COMPLETE, NULL, 0);
	/* the program's own non-temporal stores into the window too */
	shm_nt_fence();
	for (int i = 0; i < g->size; i++) {
		int t = comm_rank_of_world(w->comm, g->world[i]);

		/* release: our operations are seen by the target's wait */
		win_pscw_raise(w, (size_t)w->size + (size_t)t);
		progress_wake_rank(g->world[i]);
	}
	w->start_group = NULL;
	group_unref(g);
	return MPI_SUCCESS;
}

struct wait_wait {
	struct win *w;
	int missing;	/* as in struct start_wait */
};

static int all_completed(void *arg)
{
	struct wait_wait *c = arg;
	struct win *w = c->w;
	const struct group *g = w->post_group;

	for (int i = 0; i < g->size; i++) {
		int o = comm_rank_of_world(w->comm, g->world[i]);

		/* acquire: pairs with the origins' release increments in complete */
		if (atomic_load_explicit(win_shm_compl(w, o, w->rank), memory_order_acquire) -
		    w->completes_expected[o] >= 0x80000000u) {
			if (c->missing >= 0)
				publish_missing(w, &c->missing, o, WAIT_WIN_COMPLETE);
			return 0;
		}
	}
	return 1;
}

static void win_end_exposure(struct win *w)
{
	group_unref(w->post_group);
	w->post_group = NULL;
}

API(int, Win_wait, (MPI_Win win))
{
	struct wait_wait c;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_wait");
	if (!(w = win_arg("MPI_Win_wait", win, &rc)))
		return rc;
	if (!w->post_group)
		return win_err(w, "MPI_Win_wait", MPI_ERR_RMA_SYNC, "win",
			       "no exposure epoch was posted (MPI_Win_post)");
	c = (struct wait_wait){ w, -1 };
	if (!all_completed(&c)) {
		state_block(CALL_WIN_WAIT, WAIT_WIN_COMPLETE, -1, 0, w->comm->ctx);
		c.missing = w->size;	/* from now on, publish */
		progress_wait(all_completed, &c);
		state_unblock(CALL_WIN_WAIT);
	}
	win_end_exposure(w);
	return MPI_SUCCESS;
}

/* A test procedure (MPI 4.1, section 2.9): it drives the engine each time it is called. */
API(int, Win_test, (MPI_Win win, int *flag))
{
	struct wait_wait c;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_test");
	if (!(w = win_arg("MPI_Win_test", win, &rc)))
		return rc;
	if (!flag)
		return win_err(w, "MPI_Win_test", MPI_ERR_ARG, "flag", "is NULL");
	if (!w->post_group)
		return win_err(w, "MPI_Win_test", MPI_ERR_RMA_SYNC, "win",
			       "no exposure epoch was posted (MPI_Win_post)");
	progress_poll();
	c = (struct wait_wait){ w, -1 };
	*flag = all_completed(&c);
	if (*flag)
		win_end_exposure(w);
	return MPI_SUCCESS;
}
