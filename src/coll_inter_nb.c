/*
 * The nonblocking collectives on intercommunicators (MPI 3.1, section
 * 5.12; what each means on an intercommunicator is section 5.2.2 and the
 * call's own section): MPI_Ibarrier, MPI_Ibcast, MPI_Igather(v),
 * MPI_Iscatter(v), MPI_Iallgather(v), MPI_Ialltoall(v,w), MPI_Ireduce,
 * MPI_Iallreduce, MPI_Ireduce_scatter(_block), and the blocking
 * MPI_Alltoallw.  The calls of coll_nb.c hand their arguments here when
 * comm is an intercommunicator; the schedules are built of coll_nb.c's
 * steps and advanced by the progress engine like every other, in either
 * progress mode.
 *
 * Data flows from one group to the other.  A root argument is MPI_ROOT at
 * the root, MPI_PROC_NULL at the other members of the root's group (for
 * whom the call moves nothing: their request completes at once), and the
 * root's rank in the remote group at every member of the other group;
 * MPI_IN_PLACE does not apply to intercommunicators (section 5.2.3).
 *
 * Messages between the groups name remote ranks on the intercommunicator's
 * library context.  The phases within one group (the reductions and the
 * barrier) are coll_nb.c's intracommunicator algorithms over the local
 * group's private intracommunicator, `local` (sched_on), on its library
 * context.  Both carry the call's tag: every process of both groups starts
 * the collectives of an intercommunicator in the same order (section 5.12),
 * so the n-th is the n-th everywhere, and nothing else sends nonblocking
 * collective tags on `local`, which only the library sees.
 *
 * Algorithms, as in the blocking forms (coll_inter.c): bcast, gather(v),
 * scatter(v), allgather(v) and alltoall(v,w) post their messages with every
 * remote process at once.  A reduction reduces within each group first, up
 * a binomial tree in rank order (so non-commutative ops come out right),
 * then the group's rank 0 (its leader) sends the result across: to the
 * root (reduce), or to the other leader, which broadcasts it in its group
 * (allreduce) or scatters its blocks there (reduce-scatter).  The barrier:
 * a barrier of each group, the leaders trade an empty message, a second
 * barrier of each group.
 *
 * Each call is a line of `calls`: its builder, which of its buffer
 * arguments matter at the root and at the others, and which have blocks
 * over the local group rather than the remote one.  A nonblocking
 * collective without a line raises MPI_ERR_COMM, as those that MPI
 * defines on intracommunicators only (MPI_Iscan, MPI_Iexscan) must.
 */
#include <stddef.h>

#include "coll_inter.h"
#include "coll_nb.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"

/* ---- building blocks ------------------------------------------------------- */

/*
 * Post side sd's messages with each remote process m in [lo, hi): sending
 * or receiving block m of sd (its own type in the w-variants), or all of
 * sd when `whole` (the one buffer of a non-root, or the same data for
 * every process).  Empty messages are left out: the type signatures of
 * both ends agree, so both leave them.
 */
static void post_side(struct sched *s, const struct nb_side *sd, int send, int whole,
		      int lo, int hi)
{
	for (int m = lo; m < hi; m++) {
		void *buf = whole ? (void *)sd->buf : blk_at(sd, m);
		MPI_Count count = whole ? sd->count : blk_count(sd, m);
		const struct datatype *dt = whole ? sd->dt : blk_dt(sd, m);

		if ((size_t)count * (size_t)dt->size == 0)
			continue;
		if (send)
			sched_send(s, m, buf, count, dt);
		else
			sched_recv(s, m, buf, count, dt);
	}
}

/* The reduction of the local group's `in` (count elements of dt) in rank
 * order: at the leader its buffer, NULL at the others. */
static char *group_reduce(struct sched *s, struct nb_call *a, const void *in,
			  MPI_Count count, const struct datatype *dt)
{
	char *acc;

	sched_on(s, a->c->local);
	acc = build_reduce_up(s, in, count, dt);
	sched_on(s, a->c);
	return acc;
}

/* ---- the calls ------------------------------------------------------------- */

static void build_inter_barrier(struct sched *s, struct nb_call *a)
{
	static char none;

	sched_on(s, a->c->local);
	build_barrier(s);
	sched_on(s, a->c);
	if (a->c->rank == 0) {
		sched_recv(s, 0, &none, 0, dt_get(MPI_BYTE));
		sched_send(s, 0, &none, 0, dt_get(MPI_BYTE));
		sched_round(s);
	}
	sched_on(s, a->c->local);
	build_barrier(s);
	sched_on(s, a->c);
}

static void build_inter_bcast(struct sched *s, struct nb_call *a)
{
	if (a->root == MPI_ROOT)
		post_side(s, &a->s, 1, 1, 0, a->c->remote->size);
	else
		post_side(s, &a->s, 0, 1, a->root, a->root + 1);
	sched_round(s);
}

/* Gather (the root receives a block from each remote process) or scatter
 * (it sends one to each); the others send or receive one buffer. */
static void build_inter_rooted(struct sched *s, struct nb_call *a, int gather)
{
	if (a->root == MPI_ROOT)
		post_side(s, gather ? &a->r : &a->s, !gather, 0, 0, a->c->remote->size);
	else
		post_side(s, gather ? &a->s : &a->r, gather, 1, a->root, a->root + 1);
	sched_round(s);
}

static void build_inter_gather(struct sched *s, struct nb_call *a)
{
	build_inter_rooted(s, a, 1);
}

static void build_inter_scatter(struct sched *s, struct nb_call *a)
{
	build_inter_rooted(s, a, 0);
}

/* A block of recvbuf from every remote process; to each, a block of
 * sendbuf (alltoall) or all of it (allgather, `same`). */
static void build_inter_exchange(struct sched *s, struct nb_call *a, int same)
{
	int q = a->c->remote->size;

	post_side(s, &a->r, 0, 0, 0, q);
	post_side(s, &a->s, 1, same, 0, q);
	sched_round(s);
}

static void build_inter_allgather(struct sched *s, struct nb_call *a)
{
	build_inter_exchange(s, a, 1);
}

static void build_inter_alltoall(struct sched *s, struct nb_call *a)
{
	build_inter_exchange(s, a, 0);
}

/* The root receives the other group's result from its leader (remote rank
 * 0); that group reduces, and its leader sends. */
static void build_inter_reduce(struct sched *s, struct nb_call *a)
{
	char *acc;

	if (a->root == MPI_ROOT) {
		post_side(s, &a->r, 0, 1, 0, 1);
		sched_round(s);
		return;
	}
	if (a->s.count == 0 || a->s.dt->size == 0)
		return;
	acc = group_reduce(s, a, a->s.buf, a->s.count, a->s.dt);
	if (acc) {
		sched_send(s, a->root, acc, a->s.count, a->s.dt);
		sched_round(s);
	}
}

/* Each group reduces; the leaders trade the results, each into its
 * recvbuf, and broadcast them in their groups. */
static void build_inter_allreduce(struct sched *s, struct nb_call *a)
{
	MPI_Count count = a->s.count;
	char *acc;

	if (count == 0 || a->s.dt->size == 0)
		return;
	acc = group_reduce(s, a, a->s.buf, count, a->s.dt);
	if (acc) {
		sched_recv(s, 0, (void *)a->r.buf, count, a->r.dt);
		sched_send(s, 0, acc, count, a->s.dt);
		sched_round(s);
	}
	sched_on(s, a->c->local);
	build_bcast(s, (void *)a->r.buf, count, a->r.dt, 0);
	sched_on(s, a->c);
}

/* Each group reduces its whole vector (recvcounts, over the local group,
 * add up to its length); the leaders trade the results, each into
 * scratch, and scatter the blocks of the other group's result in their
 * groups (MPI 3.1, section 5.10.1). */
static void build_inter_reduce_scatter(struct sched *s, struct nb_call *a)
{
	MPI_Count total = blk_total(&a->r);
	char *acc, *theirs = NULL;

	if (total == 0 || a->r.dt->size == 0)
		return;
	acc = group_reduce(s, a, a->s.buf, total, a->r.dt);
	if (acc && (theirs = nb_scratch(s, 2, total, a->r.dt))) {
		sched_recv(s, 0, theirs, total, a->r.dt);
		sched_send(s, 0, acc, total, a->r.dt);
		sched_round(s);
	}
	sched_on(s, a->c->local);
	build_scatter_blocks(s, theirs, &a->r);
	sched_on(s, a->c);
}

/* ---- the table ------------------------------------------------------------- */

/* Which of a call's buffer arguments (sides) are significant. */
enum { SIDE_SEND = 1, SIDE_RECV = 2 };

static const struct inter_call {
	enum call_id id;
	void (*build)(struct sched *, struct nb_call *);
	unsigned at_root;	/* at MPI_ROOT (calls with a root) */
	unsigned others;	/* at the other group's processes, or everywhere */
	unsigned local;		/* sides whose blocks are the local group's */
} calls[] = {
	{ CALL_IBARRIER, build_inter_barrier, 0, 0, 0 },
	{ CALL_IBCAST, build_inter_bcast, SIDE_SEND, SIDE_SEND, 0 },
	{ CALL_IGATHER, build_inter_gather, SIDE_RECV, SIDE_SEND, 0 },
	{ CALL_IGATHERV, build_inter_gather, SIDE_RECV, SIDE_SEND, 0 },
	{ CALL_ISCATTER, build_inter_scatter, SIDE_SEND, SIDE_RECV, 0 },
	{ CALL_ISCATTERV, build_inter_scatter, SIDE_SEND, SIDE_RECV, 0 },
	{ CALL_IALLGATHER, build_inter_allgather, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IALLGATHERV, build_inter_allgather, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IALLTOALL, build_inter_alltoall, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IALLTOALLV, build_inter_alltoall, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IALLTOALLW, build_inter_alltoall, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_ALLTOALLW, build_inter_alltoall, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IREDUCE, build_inter_reduce, SIDE_RECV, SIDE_SEND, 0 },
	{ CALL_IALLREDUCE, build_inter_allreduce, 0, SIDE_SEND | SIDE_RECV, 0 },
	{ CALL_IREDUCE_SCATTER, build_inter_reduce_scatter, 0, SIDE_SEND | SIDE_RECV,
	  SIDE_RECV },
	{ CALL_IREDUCE_SCATTER_BLOCK, build_inter_reduce_scatter, 0,
	  SIDE_SEND | SIDE_RECV, SIDE_RECV },
};

static const struct inter_call *call_of(enum call_id id)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].id == id)
			return &calls[i];
	return NULL;
}

/* Side sd where it is significant: counts (a v- or w-variant's, one per
 * block), datatypes, buffer. */
static int check_side(struct nb_call *a, struct nb_side *sd, unsigned significant)
{
	if (!significant)
		return MPI_SUCCESS;
	if (sd->buf == MPI_IN_PLACE)
		return inter_err_in_place(a->name, a->comm, sd->names[0]);
	return nb_check_args(a, sd);
}

int inter_nb_check(struct nb_call *a)
{
	const struct inter_call *k = call_of(a->id);
	unsigned sides;
	int rc;

	if (!k)
		return comm_err_inter(a->comm, a->name, "comm");
	if (a->rooted) {
		rc = inter_check_root(a->name, a->comm, a->c, a->root);
		/* MPI_PROC_NULL: no other argument is significant */
		if (rc != MPI_SUCCESS || a->root == MPI_PROC_NULL)
			return rc;
	}
	sides = a->rooted && a->root == MPI_ROOT ? k->at_root : k->others;
	if (k->local & SIDE_RECV)
		a->r.n = a->c->size;
	if ((rc = check_side(a, &a->s, sides & SIDE_SEND)) != MPI_SUCCESS ||
	    (rc = check_side(a, &a->r, sides & SIDE_RECV)) != MPI_SUCCESS)
		return rc;
	return a->reducing ? nb_check_op(a) : MPI_SUCCESS;
}

void inter_nb_build(struct sched *s, struct nb_call *a)
{
	/* an empty schedule: the request completes at once */
	if (a->rooted && a->root == MPI_PROC_NULL)
		return;
	call_of(a->id)->build(s, a);
}
