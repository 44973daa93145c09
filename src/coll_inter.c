/*
 * The collectives on intercommunicators, as MPI defines them: data flows
 * from one group to the other.  A root argument is MPI_ROOT at the root,
 * MPI_PROC_NULL at the other members of the root's group, and the root's
 * rank in the remote group at every member of the other group.
 *
 * Moving data between the groups is point-to-point on the communicator's
 * internal context, every transfer of a call started at once and waited
 * for together (inter_xfer), each purpose with its own tag: bcast, gather,
 * scatter, allgather and alltoall exchange directly with each remote
 * process.  Reductions reduce within the group first (the collectives of
 * the intracommunicator `local`), then the group's rank 0 (its leader)
 * trades the result with the remote leader.  The barrier: a barrier of
 * each group, the leaders trade an empty message, a second barrier.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "coll_inter.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "intercomm.h"
#include "p2p.h"
#include "request.h"

/* ---- moving data between the groups ------------------------------------- */

static MPI_Count xfer_count(const struct xfer *x, int m)
{
	return x->counts ? x->counts[m] : x->count;
}

static void *xfer_at(const struct xfer *x, int m)
{
	MPI_Aint at = x->whole ? 0 : x->displs ? x->displs[m] : (MPI_Aint)m * x->count;

	/* (a NULL buffer of no elements stays NULL) */
	return at ? (char *)x->buf + at * x->dt->extent : x->buf;
}

int inter_xfer(struct comm *c, enum call_id call, int tag, int lo, int hi,
	       const struct xfer *s, const struct xfer *r)
{
	struct request **reqs = calloc(2 * (size_t)(hi - lo) + 1, sizeof(*reqs));
	int rc = MPI_SUCCESS, k = 0;
	const struct xfer *sides[2] = { r, s };

	if (!reqs)
		return MPI_ERR_NO_MEM;
	/* the receives first, so nothing waits as unexpected longer than needed */
	for (int d = 0; d < 2; d++) {
		const struct xfer *x = sides[d];

		for (int m = lo; x && m < hi; m++)
			if (!(reqs[k] = p2p_internal_start(c, m, tag, xfer_at(x, m),
							   xfer_count(x, m), x->dt, d == 0)))
				rc = MPI_ERR_NO_MEM;
			else
				k++;
	}
	reqs[k] = NULL;
	p2p_internal_wait(c, reqs, call);
	free(reqs);
	return rc;
}

/* Leaders only: trade count elements of dt, mine out of `mine`, theirs
 * into `theirs`, with the remote leader. */
static int leader_swap(struct comm *c, enum call_id call, int tag, const void *mine,
		       void *theirs, MPI_Count count, struct datatype *dt)
{
	struct xfer s = { (void *)mine, dt, NULL, NULL, count, 1 };
	struct xfer r = { theirs, dt, NULL, NULL, count, 1 };

	return inter_xfer(c, call, tag, 0, 1, &s, &r);
}

void inter_barrier(struct comm *c, enum call_id call)
{
	char none = 0, got = 0;

	coll_barrier(c->local, call);
	if (c->rank == 0)
		leader_swap(c, call, INTER_TAG_BARRIER, &none, &got, 0, dt_get(MPI_BYTE));
	coll_barrier(c->local, call);
}

/* ---- checks ------------------------------------------------------------- */

int inter_check_root(const char *call, MPI_Comm comm, const struct comm *c, int root)
{
	if (root == MPI_ROOT || root == MPI_PROC_NULL ||
	    (root >= 0 && root < c->remote->size))
		return MPI_SUCCESS;
	return err_comm(comm, call, MPI_ERR_ROOT, "root",
			"%d is not MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group "
			"(size %d)", root, c->remote->size);
}

int inter_err_in_place(const char *call, MPI_Comm comm, const char *arg)
{
	return err_comm(comm, call, MPI_ERR_BUFFER, arg,
			"is MPI_IN_PLACE, which intercommunicators do not take");
}

/* One side of a data-moving call, where it is significant: its xfer. */
static int check_side(const char *call, MPI_Comm comm, const struct comm *c,
		      const struct coll_side *a, int send, struct xfer *x)
{
	const char *bufname = send ? "sendbuf" : "recvbuf";
	const char *countname = send ? "sendcount" : "recvcount";
	const char *countsname = send ? "sendcounts" : "recvcounts";
	struct coll_buf b;
	int rc;

	if (a->buf == MPI_IN_PLACE)
		return inter_err_in_place(call, comm, bufname);
	if (a->vector) {
		/* a v-variant: a count and displacement per remote process */
		if (!a->counts || !a->displs)
			return err_comm(comm, call, MPI_ERR_ARG, !a->counts ? countsname :
					"displs", "is NULL");
		for (int m = 0; m < c->remote->size; m++)
			if (a->counts[m] < 0)
				return err_comm(comm, call, MPI_ERR_COUNT, countsname,
						"element %d is negative (%lld)", m,
						(long long)a->counts[m]);
	}
	rc = coll_check_buf(call, comm, a->buf, a->vector ? 0 : a->count, a->type, bufname,
			    countname, &b);
	if (rc != MPI_SUCCESS)
		return rc;
	*x = (struct xfer){ (void *)a->buf, b.dt, a->counts, a->displs, a->count, 0 };
	return MPI_SUCCESS;
}

/* ---- the data-moving collectives ---------------------------------------- */

int inter_move(const char *call, enum call_id id, enum inter_kind kind, MPI_Comm comm,
	       struct comm *c, struct coll_side send, struct coll_side recv, int root)
{
	static const int tags[] = {
		[INTER_GATHER] = INTER_TAG_GATHER, [INTER_SCATTER] = INTER_TAG_SCATTER,
		[INTER_ALLGATHER] = INTER_TAG_ALLGATHER, [INTER_ALLTOALL] = INTER_TAG_ALLTOALL,
	};
	int rooted = kind == INTER_GATHER || kind == INTER_SCATTER;
	/* which sides matter here: the root's own, or the members' */
	int sends = !rooted || (kind == INTER_SCATTER) == (root == MPI_ROOT);
	int lo = 0, hi = c->remote->size, rc;
	struct xfer s, r;

	if (rooted && (rc = inter_check_root(call, comm, c, root)) != MPI_SUCCESS)
		return rc;
	if (root == MPI_PROC_NULL && rooted)
		return MPI_SUCCESS;
	if ((sends && (rc = check_side(call, comm, c, &send, 1, &s)) != MPI_SUCCESS) ||
	    ((!rooted || !sends) && (rc = check_side(call, comm, c, &recv, 0, &r)) !=
	     MPI_SUCCESS))
		return rc;
	if (rooted && root != MPI_ROOT) {
		/* a member of the other group: one whole buffer to or from root */
		lo = root;
		hi = root + 1;
		(sends ? &s : &r)->whole = 1;
	}
	if (kind == INTER_ALLGATHER)
		s.whole = 1;
	rc = inter_xfer(c, id, tags[kind], lo, hi, sends ? &s : NULL,
			!rooted || !sends ? &r : NULL);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the requests");
}

int inter_bcast(const char *call, MPI_Comm comm, struct comm *c, void *buffer,
		MPI_Count count, MPI_Datatype datatype, int root)
{
	struct coll_buf b;
	struct xfer x;
	int rc;

	if ((rc = inter_check_root(call, comm, c, root)) != MPI_SUCCESS ||
	    root == MPI_PROC_NULL)
		return rc;
	if (buffer == MPI_IN_PLACE)
		return inter_err_in_place(call, comm, "buffer");
	rc = coll_check_buf(call, comm, buffer, count, datatype, "buffer", "count", &b);
	if (rc != MPI_SUCCESS)
		return rc;
	/* the root sends the same buffer to everybody */
	x = (struct xfer){ buffer, b.dt, NULL, NULL, count, 1 };
	rc = root == MPI_ROOT ?
	     inter_xfer(c, CALL_BCAST, INTER_TAG_BCAST, 0, c->remote->size, &x, NULL) :
	     inter_xfer(c, CALL_BCAST, INTER_TAG_BCAST, root, root + 1, NULL, &x);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the requests");
}

/* ---- reductions --------------------------------------------------------- */

/* A buffer for count elements of dt (to free; *at: where element 0 goes). */
static char *elem_buf(const struct datatype *dt, MPI_Count count, void **at)
{
	MPI_Aint shift = dt->true_lb < 0 ? -dt->true_lb : 0;
	MPI_Aint span = count ? (MPI_Aint)(count - 1) * dt->extent + dt->true_lb +
			dt->true_extent : 0;
	char *b = malloc((size_t)(span + shift) + 1);

	*at = b ? b + shift : NULL;
	return b;
}

/*
 * The reduction over the local group of each member's sendbuf, at the
 * local leader in *tmp (to free; *at: where element 0 is), NULL elsewhere.
 * MPI error class.
 */
static int local_reduce(struct comm *c, const void *sendbuf, MPI_Count count,
			const struct datatype *dt, MPI_Datatype datatype, MPI_Op op,
			char **tmp, void **at)
{
	*tmp = NULL;
	*at = NULL;
	if (c->rank == 0 && !(*tmp = elem_buf(dt, count, at)))
		return MPI_ERR_NO_MEM;
	/* every member's arguments were checked on the intercommunicator */
	return PMPI_Reduce_c(sendbuf, *at, count, datatype, op, 0, c->local->handle);
}

/* The checks every intercommunicator reduction shares, the root aside. */
static int reduce_check(const char *call, MPI_Comm comm, const void *sendbuf,
			const void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
			int sends, int receives, struct datatype **dt)
{
	const struct op *o;
	int rc = coll_check_reduce(call, comm, count, datatype, op, dt, &o);

	if (rc != MPI_SUCCESS)
		return rc;
	if (sends && sendbuf == MPI_IN_PLACE)
		return inter_err_in_place(call, comm, "sendbuf");
	if (count > 0 && (*dt)->size > 0 && handle_is_builtin(datatype) &&
	    ((sends && !sendbuf) || (receives && !recvbuf)))
		return err_comm(comm, call, MPI_ERR_BUFFER, sends && !sendbuf ? "sendbuf" :
				"recvbuf", "is NULL");
	return MPI_SUCCESS;
}

int inter_reduce(const char *call, MPI_Comm comm, struct comm *c, const void *sendbuf,
		 void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
		 int root)
{
	struct datatype *dt;
	struct xfer x;
	char *tmp = NULL;
	void *at;
	int rc;

	if ((rc = inter_check_root(call, comm, c, root)) != MPI_SUCCESS ||
	    root == MPI_PROC_NULL)
		return rc;
	rc = reduce_check(call, comm, sendbuf, recvbuf, count, datatype, op,
			  root != MPI_ROOT, root == MPI_ROOT, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (root == MPI_ROOT) {
		/* the other group's result comes from its leader */
		x = (struct xfer){ recvbuf, dt, NULL, NULL, count, 1 };
		rc = inter_xfer(c, CALL_REDUCE, INTER_TAG_REDUCE, 0, 1, NULL, &x);
	} else {
		rc = local_reduce(c, sendbuf, count, dt, datatype, op, &tmp, &at);
		x = (struct xfer){ at, dt, NULL, NULL, count, 1 };
		if (c->rank == 0 && rc == MPI_SUCCESS)
			rc = inter_xfer(c, CALL_REDUCE, INTER_TAG_REDUCE, root, root + 1, &x,
					NULL);
	}
	free(tmp);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the reduction");
}

/*
 * Both groups reduce to their leader, the leaders trade the results (each
 * into its recvbuf, or into a buffer of the whole vector for reduce-scatter)
 * and hand them out: *got is where the remote group's result is, at the
 * local leader.
 */
static int reduce_trade(struct comm *c, enum call_id id, int tag, const void *sendbuf,
			MPI_Count count, struct datatype *dt, MPI_Datatype datatype, MPI_Op op,
			void *got)
{
	char *tmp;
	void *at;
	int rc = local_reduce(c, sendbuf, count, dt, datatype, op, &tmp, &at);

	if (c->rank == 0 && rc == MPI_SUCCESS)
		rc = leader_swap(c, id, tag, at, got, count, dt);
	free(tmp);
	return rc;
}

int inter_allreduce(const char *call, MPI_Comm comm, struct comm *c,
		    const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype datatype, MPI_Op op)
{
	struct datatype *dt;
	int rc = reduce_check(call, comm, sendbuf, recvbuf, count, datatype, op, 1, 1, &dt);

	if (rc != MPI_SUCCESS)
		return rc;
	rc = reduce_trade(c, CALL_ALLREDUCE, INTER_TAG_ALLREDUCE, sendbuf, count, dt,
			  datatype, op, recvbuf);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Bcast_c(recvbuf, count, datatype, 0, c->local->handle);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the reduction");
}

/* count is the sum of recvcounts (over the local group): the length of
 * both groups' vectors. */
int inter_reduce_scatter(const char *call, enum call_id id, MPI_Comm comm,
			 struct comm *c, const void *sendbuf, void *recvbuf,
			 const MPI_Count *recvcounts, MPI_Count count,
			 MPI_Datatype datatype, MPI_Op op)
{
	struct datatype *dt;
	MPI_Aint *displs = NULL;
	char *whole = NULL;
	void *at = NULL;
	int rc = reduce_check(call, comm, sendbuf, recvbuf, count, datatype, op, 1,
			      recvcounts[c->rank] > 0, &dt);

	if (rc != MPI_SUCCESS)
		return rc;
	/* the leader gets the remote group's whole vector, then scatters it */
	if (c->rank == 0) {
		MPI_Aint at_m = 0;

		displs = malloc(sizeof(*displs) * (size_t)c->size);
		whole = elem_buf(dt, count, &at);
		if (!displs || !whole) {
			free(displs);
			free(whole);
			return err_comm(comm, call, MPI_ERR_NO_MEM, NULL,
					"out of memory for the reduction");
		}
		for (int m = 0; m < c->size; at_m += recvcounts[m++])
			displs[m] = at_m;
	}
	rc = reduce_trade(c, id, INTER_TAG_REDUCE_SCATTER, sendbuf, count, dt, datatype,
			  op, at);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Scatterv_c(at, recvcounts, displs, datatype, recvbuf,
				   recvcounts[c->rank], datatype, 0, c->local->handle);
	free(whole);
	free(displs);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the reduction");
}
