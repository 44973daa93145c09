/*
 * Intercommunicators: creation (MPI_Intercomm_create, dup, split, create),
 * MPI_Intercomm_merge and the queries of the remote group.
 *
 * An intercommunicator joins two disjoint groups.  Each process keeps its
 * local group (with a private intracommunicator over it, `local`, for the
 * collectives) and the remote group, which point-to-point ranks name.  Both
 * groups use the same pair of context ids, which the two leaders (rank 0
 * of each group, or the leaders named to MPI_Intercomm_create) agree on:
 * the leader of lower job rank takes them from the job's counter and tells
 * the other, and each leader broadcasts what it learnt to its group
 * through `local` (or, at creation, through local_comm).  Messages sent on
 * the new context before the receiver has built its intercommunicator wait
 * as unexpected messages, so creation needs no synchronization between
 * the groups; a merge does, since the merged intracommunicator's
 * collective area is created by one process and mapped by the others.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "coll_nb.h"
#include "comm.h"
#include "errhandler.h"
#include "intercomm.h"
#include "p2p.h"
#include "runtime.h"

/* ---- building ----------------------------------------------------------- */

struct comm *inter_new(struct comm *local, struct group *remote, uint32_t ctx)
{
	struct comm *c = comm_new(local->group, ctx, -1, 0);

	if (!c) {
		comm_unref(local);
		return NULL;
	}
	c->local = local;
	c->remote = remote;
	group_ref(remote);
	c->world = remote->world;
	return c;
}

/* Whether this group's leader takes the context ids for both groups. */
static int takes_ids(const struct comm *c)
{
	return c->group->world[0] < c->remote->world[0];
}

uint32_t inter_take_ids(uint32_t n)
{
	/* relaxed: only the ids' value matters (as in comm.c) */
	return atomic_fetch_add_explicit(&rt.job->next_ctx, n, memory_order_relaxed);
}

struct agree {
	int32_t info;
	uint32_t ctx;
};

/*
 * Collective over intercommunicator c: the leaders trade `info` (the local
 * leader's counts) and agree on a block of nctx new context ids; every
 * process learns the remote leader's info and the block's first id.
 */
static void inter_agree(struct comm *c, enum call_id call, int info, uint32_t nctx,
			int *their_info, uint32_t *ctx)
{
	struct agree mine = { info, 0 }, theirs = { 0, 0 };

	if (c->rank == 0) {
		if (takes_ids(c))
			mine.ctx = inter_take_ids(nctx);
		inter_xfer(c, call, INTER_TAG_AGREE, 0, 1,
			   &(struct xfer){ &mine, dt_get(MPI_BYTE), NULL, NULL,
					   sizeof(mine), 1 },
			   &(struct xfer){ &theirs, dt_get(MPI_BYTE), NULL, NULL,
					   sizeof(theirs), 1 });
		if (takes_ids(c))
			theirs.ctx = mine.ctx;
	}
	coll_bcast_bytes(c->local, call, &theirs, sizeof(theirs), 0);
	*their_info = theirs.info;
	*ctx = theirs.ctx;
}

/* The context pair of a new intercommunicator, taken in a schedule step. */
static void take_pair(struct sched *s, void *ctx)
{
	(void)s;
	*(uint32_t *)ctx = inter_take_ids(2);
}

void inter_agree_build(struct sched *s, struct comm *p, uint32_t *ctx)
{
	const struct datatype *byte = dt_get(MPI_BYTE);

	if (p->rank == 0) {
		if (takes_ids(p)) {
			sched_call(s, take_pair, ctx);
			sched_send(s, 0, ctx, sizeof(*ctx), byte);
		} else {
			sched_recv(s, 0, ctx, sizeof(*ctx), byte);
		}
		sched_round(s);
	}
	sched_on(s, p->local);
	build_bcast(s, ctx, sizeof(*ctx), byte, 0);
	sched_on(s, p);
}

int inter_dup(struct comm *p, struct comm **out)
{
	struct comm *local;
	uint32_t ctx;
	int unused, rc;

	inter_agree(p, CALL_COMM_CREATE, 0, 2, &unused, &ctx);
	rc = comm_dup_internal(p->local, CALL_COMM_CREATE, &local);
	if (rc != MPI_SUCCESS)
		return rc;
	*out = inter_new(local, p->remote, ctx);
	return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

struct keyed {
	int key, rank;
};

static int keyed_order(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return x->key != y->key ? (x->key < y->key ? -1 : 1) : x->rank - y->rank;
}

/* Whether color appears among the n (color, key) pairs of cks. */
static int has_color(const int *cks, int n, int color)
{
	for (int i = 0; i < n; i++)
		if (cks[2 * i] == color)
			return 1;
	return 0;
}

/* How many colors of the n pairs of mine also appear in theirs; *index:
 * how many of them are below color, or -1 if color is not one of them. */
static int common_colors(const int *mine, int n, const int *theirs, int m, int color,
			 int *index)
{
	int count = 0, below = 0, found = 0;

	for (int i = 0; i < n; i++) {
		int c = mine[2 * i];

		/* each color once, at its first pair */
		if (c == MPI_UNDEFINED || has_color(mine, i, c) || !has_color(theirs, m, c))
			continue;
		count++;
		below += c < color;
		found |= c == color;
	}
	*index = found ? below : -1;
	return count;
}

/*
 * MPI_Comm_create on an intercommunicator (MPI 3.1, 6.4.2): every process
 * of a side must pass the same group.  Every process of the side checks
 * the claims of all (all[], by local rank) alike: MPI_SUCCESS, or
 * MPI_ERR_GROUP with *why.
 */
static int inter_create_verify(const struct comm *p, const struct comm_claim *all,
			       char *why, size_t whylen)
{
	for (int r = 1; r < p->size; r++)
		if (all[r].gsize != all[0].gsize || all[r].ghash != all[0].ghash) {
			snprintf(why, whylen, "local ranks 0 and %d passed different groups: on "
				 "an intercommunicator each side must pass one group", r);
			return MPI_ERR_GROUP;
		}
	return MPI_SUCCESS;
}

/*
 * Split: the groups trade every member's (color, key); the new
 * intercommunicator of a color joins the processes of that color on both
 * sides (ordered by key, then old rank), and exists only if both sides
 * have some.  Its local intracommunicator is a split of p's.  With g
 * (MPI_Comm_create), a side whose processes passed different groups
 * raises MPI_ERR_GROUP (*why) and shows the other side no color at all,
 * so that nobody gets a communicator.
 */
int inter_split(struct comm *p, int color, int key, const struct group *g,
		struct comm **out, char *why, size_t whylen)
{
	struct comm_claim mine = comm_claim_of(color, key, g), *claims;
	int rsize = p->remote->size, index, n = 0, unused;
	int *all = malloc(sizeof(int) * 2 * (size_t)p->size);
	int *theirs = malloc(sizeof(int) * 2 * (size_t)rsize);
	struct keyed *members = malloc(sizeof(*members) * (size_t)rsize);
	struct comm *local = NULL;
	int ncommon, both, verdict = MPI_SUCCESS, rc = MPI_SUCCESS;
	uint32_t base;

	*out = NULL;
	claims = (struct comm_claim *)coll_allgather_packed(p->local, CALL_COMM_CREATE, &mine,
							    sizeof(mine), dt_get(MPI_BYTE),
							    sizeof(mine));
	if (!claims || !all || !theirs || !members) {
		/* not recoverable this late: the others will wait for us */
		free(claims);
		free(all);
		free(theirs);
		free(members);
		return MPI_ERR_NO_MEM;
	}
	if (g)
		verdict = inter_create_verify(p, claims, why, whylen);
	if (verdict != MPI_SUCCESS)
		color = MPI_UNDEFINED;
	for (int r = 0; r < p->size; r++) {
		all[2 * r] = verdict == MPI_SUCCESS ? claims[r].color : MPI_UNDEFINED;
		all[2 * r + 1] = claims[r].key;
	}
	if (p->rank == 0)
		inter_xfer(p, CALL_COMM_CREATE, INTER_TAG_AGREE, 0, 1,
			   &(struct xfer){ all, dt_get(MPI_INT), NULL, NULL, 2 * p->size, 1 },
			   &(struct xfer){ theirs, dt_get(MPI_INT), NULL, NULL, 2 * rsize, 1 });
	coll_bcast_bytes(p->local, CALL_COMM_CREATE, theirs, sizeof(int) * 2 * (size_t)rsize,
			 0);
	ncommon = common_colors(all, p->size, theirs, rsize, color, &index);
	inter_agree(p, CALL_COMM_CREATE, 0, 2u * (uint32_t)ncommon, &unused, &base);
	both = index >= 0;
	rc = comm_split_internal(p->local, CALL_COMM_CREATE, both ? color : MPI_UNDEFINED,
				 key, &local);
	if (rc == MPI_SUCCESS && both) {
		struct group *rg;
		int *world = malloc(sizeof(int) * (size_t)rsize);

		for (int r = 0; r < rsize; r++)
			if (theirs[2 * r] == color)
				members[n++] = (struct keyed){ theirs[2 * r + 1], r };
		qsort(members, (size_t)n, sizeof(*members), keyed_order);
		for (int i = 0; world && i < n; i++)
			world[i] = p->remote->world[members[i].rank];
		rg = world ? group_new(world, n) : NULL;
		*out = rg ? inter_new(local, rg, base + 2u * (uint32_t)index) : NULL;
		if (!rg)
			comm_unref(local);
		if (!*out)
			rc = MPI_ERR_NO_MEM;
		group_unref(rg);
		free(world);
	}
	free(claims);
	free(all);
	free(theirs);
	free(members);
	return rc == MPI_SUCCESS ? verdict : rc;
}

int inter_compare(const struct comm *a, const struct comm *b, int *result)
{
	int local, remote;

	*result = MPI_UNEQUAL;
	if (!a->remote || !b->remote)
		return MPI_SUCCESS;
	PMPI_Group_compare(a->group->handle, b->group->handle, &local);
	PMPI_Group_compare(a->remote->handle, b->remote->handle, &remote);
	if (local == MPI_IDENT && remote == MPI_IDENT)
		*result = MPI_CONGRUENT;
	else if (local != MPI_UNEQUAL && remote != MPI_UNEQUAL)
		*result = MPI_SIMILAR;
	return MPI_SUCCESS;
}

/* ---- MPI_Intercomm_create ----------------------------------------------- */

/* What the local leader tells its group. */
struct meet {
	int32_t rc;	/* MPI_SUCCESS, or the class of the leader's error */
	int32_t size;	/* of the remote group */
	uint32_t ctx;
};

/*
 * The local leader: check the arguments only it uses, then trade group
 * sizes (and the context ids) and member lists with the remote leader
 * through peer_comm.  On an error, *arg and why say what is wrong.
 */
static struct meet leader_meet(struct comm *lc, MPI_Comm peer_comm, int remote_leader,
			       int tag, int *rworld, const char **arg, char *why,
			       size_t whylen)
{
	struct comm *pc = comm_get(peer_comm);
	struct meet mine = { MPI_SUCCESS, lc->size, 0 }, theirs = { MPI_SUCCESS, 0, 0 };
	int them;

	*arg = NULL;
	if (!pc) {
		*arg = "peer_comm";
		snprintf(why, whylen, "0x%x is not a valid communicator", (unsigned)peer_comm);
		return (struct meet){ MPI_ERR_COMM, 0, 0 };
	}
	if (remote_leader < 0 || remote_leader >= comm_peer_size(pc) ||
	    comm_world_rank(pc, remote_leader) == rt.rank) {
		*arg = "remote_leader";
		snprintf(why, whylen, "%d is not a rank of peer_comm other than the caller",
			 remote_leader);
		return (struct meet){ MPI_ERR_RANK, 0, 0 };
	}
	if (tag < 0 || tag > P2P_TAG_UB) {
		*arg = "tag";
		snprintf(why, whylen, "%d is not in [0, %d]", tag, P2P_TAG_UB);
		return (struct meet){ MPI_ERR_TAG, 0, 0 };
	}
	them = comm_world_rank(pc, remote_leader);
	if (rt.rank < them)
		mine.ctx = inter_take_ids(2);
	/* on peer_comm's internal context, with the user's tag */
	inter_xfer(pc, CALL_COMM_CREATE, tag, remote_leader, remote_leader + 1,
		   &(struct xfer){ &mine, dt_get(MPI_BYTE), NULL, NULL, sizeof(mine), 1 },
		   &(struct xfer){ &theirs, dt_get(MPI_BYTE), NULL, NULL, sizeof(theirs), 1 });
	if (theirs.size < 1 || theirs.size > rt.size) {
		*arg = "remote_leader";
		snprintf(why, whylen, "the remote leader sent a group of %d processes",
			 (int)theirs.size);
		return (struct meet){ MPI_ERR_INTERN, 0, 0 };
	}
	inter_xfer(pc, CALL_COMM_CREATE, tag, remote_leader, remote_leader + 1,
		   &(struct xfer){ lc->group->world, dt_get(MPI_INT), NULL, NULL, lc->size, 1 },
		   &(struct xfer){ rworld, dt_get(MPI_INT), NULL, NULL, theirs.size, 1 });
	return (struct meet){ MPI_SUCCESS, theirs.size, rt.rank < them ? mine.ctx : theirs.ctx };
}

API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
			    int remote_leader, int tag, MPI_Comm *newintercomm))
{
	const char *call = "MPI_Intercomm_create", *arg = NULL;
	struct comm *lc, *local = NULL, *c = NULL;
	struct group *rg = NULL;
	struct meet m = { MPI_SUCCESS, 0, 0 };
	char why[128] = "";
	int *rworld, rc;

	runtime_check(call);
	lc = comm_get(local_comm);
	if (!lc)
		return comm_err_invalid(local_comm, call);
	if (lc->remote)
		return comm_err_inter(local_comm, call, "local_comm");
	if (!newintercomm)
		return err_comm(local_comm, call, MPI_ERR_ARG, "newintercomm", "is NULL");
	if (local_leader < 0 || local_leader >= lc->size)
		return err_comm(local_comm, call, MPI_ERR_RANK, "local_leader",
				"%d is not a rank of %s (size %d)", local_leader, lc->name,
				lc->size);
	rworld = malloc(sizeof(int) * (size_t)rt.size);
	if (!rworld)
		return err_comm(local_comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	if (lc->rank == local_leader)
		m = leader_meet(lc, peer_comm, remote_leader, tag, rworld, &arg, why,
				sizeof(why));
	coll_bcast_bytes(lc, CALL_COMM_CREATE, &m, sizeof(m), local_leader);
	if (m.rc != MPI_SUCCESS) {
		free(rworld);
		if (lc->rank == local_leader)
			return err_comm(local_comm, call, m.rc, arg, "%s", why);
		return err_comm(local_comm, call, m.rc, NULL,
				"the local leader (rank %d) reported an error", local_leader);
	}
	coll_bcast_bytes(lc, CALL_COMM_CREATE, rworld, sizeof(int) * (size_t)m.size,
			 local_leader);
	/* the groups must be disjoint: both sides see the same overlap */
	for (int r = 0; r < m.size; r++)
		if (lc->group->index[rworld[r]] >= 0) {
			int shared = rworld[r];

			free(rworld);
			return err_comm(local_comm, call, MPI_ERR_GROUP, "peer_comm",
					"the remote group shares job rank %d with local_comm",
					shared);
		}
	rc = comm_dup_internal(lc, CALL_COMM_CREATE, &local);
	if (rc == MPI_SUCCESS) {
		rg = group_new(rworld, m.size);
		c = rg ? inter_new(local, rg, m.ctx) : NULL;
		if (!rg)
			comm_unref(local);
		group_unref(rg);
		rc = c ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	}
	free(rworld);
	if (rc != MPI_SUCCESS)
		return err_comm(local_comm, call, rc, NULL, "cannot create the communicator");
	return comm_out(lc, c, newintercomm, 0);
}

/* ---- MPI_Intercomm_merge ------------------------------------------------ */

/*
 * The group that passed high = false comes first (if both passed the same,
 * the group whose leader has the lower job rank); the leaders agree on the
 * context; the merged communicator's rank 0 creates its collective area,
 * and the others map it once it exists (a barrier over both groups), then
 * it loses its name once all have (another).
 */
API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
{
	const char *call = "MPI_Intercomm_merge";
	struct comm *c, *m = NULL;
	struct group *g = NULL;
	int their_high, first, n = 0, rc, *world;
	uint32_t ctx;

	runtime_check(call);
	c = comm_get(intercomm);
	if (!c)
		return comm_err_invalid(intercomm, call);
	if (!c->remote)
		return err_comm(intercomm, call, MPI_ERR_COMM, "intercomm",
				"is an intracommunicator");
	if (!newintracomm)
		return err_comm(intercomm, call, MPI_ERR_ARG, "newintracomm", "is NULL");
	high = high != 0;
	inter_agree(c, CALL_COMM_CREATE, high, 2, &their_high, &ctx);
	first = high != their_high ? !high : takes_ids(c);
	world = malloc(sizeof(int) * (size_t)(c->size + c->remote->size));
	if (world) {
		for (int pass = 0; pass < 2; pass++) {
			const struct group *part = (pass == 0) == first ? c->group : c->remote;

			memcpy(world + n, part->world, sizeof(int) * (size_t)part->size);
			n += part->size;
		}
		g = group_new(world, n);
	}
	m = g ? comm_new(g, ctx, -1, 0) : NULL;
	group_unref(g);
	free(world);
	/* every process takes part in the barriers, whatever happened */
	rc = comm_coll_setup(m, m ? MPI_SUCCESS : MPI_ERR_NO_MEM, inter_barrier, c,
			     CALL_COMM_CREATE);
	if (rc != MPI_SUCCESS) {
		comm_unref(m);
		return err_comm(intercomm, call, rc, NULL, "cannot create the communicator");
	}
	return comm_out(c, m, newintracomm, 0);
}

/* ---- queries ------------------------------------------------------------ */

/* The intercommunicator behind comm, or NULL after raising the error. */
static struct comm *inter_of(const char *call, MPI_Comm comm, const void *out,
			     const char *outname, int *rc)
{
	struct comm *c = comm_get(comm);

	*rc = MPI_SUCCESS;
	if (!c)
		*rc = comm_err_invalid(comm, call);
	else if (!c->remote)
		*rc = err_comm(comm, call, MPI_ERR_COMM, "comm", "is an intracommunicator");
	else if (!out)
		*rc = err_comm(comm, call, MPI_ERR_ARG, outname, "is NULL");
	return *rc == MPI_SUCCESS ? c : NULL;
}

API(int, Comm_remote_size, (MPI_Comm comm, int *size))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_remote_size");
	if ((c = inter_of("MPI_Comm_remote_size", comm, size, "size", &rc)))
		*size = c->remote->size;
	return rc;
}

API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_remote_group");
	if ((c = inter_of("MPI_Comm_remote_group", comm, group, "group", &rc))) {
		group_ref(c->remote);
		*group = c->remote->handle;
	}
	return rc;
}
