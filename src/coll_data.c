/*
 * The data-moving collectives: MPI_Bcast, MPI_Gather(v), MPI_Scatter(v),
 * MPI_Allgather(v), MPI_Alltoall(v), through the communicator's collective
 * area in shared memory (coll.h): a writer packs a chunk into its slot, the
 * readers unpack it straight into their buffers.  Scatter and alltoall cut
 * the slot into one region per member.  Each call is one function taking
 * MPI_Count counts and MPI_Aint displacements, for its int form and its
 * large-count form (MPI 4.1, section 2.5.8: MPI_Bcast_c...); the sizes in
 * bytes are size_t throughout.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "coll_inter.h"
#include "coll_nb.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

static int coll_check_comm(const char *call, MPI_Comm comm, struct comm **c)
{
	*c = comm_get(comm);
	return *c ? MPI_SUCCESS : comm_err_invalid(comm, call);
}

static int coll_check_root(const char *call, MPI_Comm comm, const struct comm *c,
			   int root)
{
	if (root < 0 || root >= c->size)
		return err_comm(comm, call, MPI_ERR_ROOT, "root",
				"%d is not a rank of %s (size %d)", root, c->name, c->size);
	return MPI_SUCCESS;
}

/* Check one (buf, count, datatype) triple; names the arguments as given. */
int coll_check_buf(const char *call, MPI_Comm comm, const void *buf, MPI_Count count,
		   MPI_Datatype datatype, const char *bufname, const char *countname,
		   struct coll_buf *out)
{
	int rc;

	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, countname, "%lld is negative",
				(long long)count);
	rc = dt_check_use(comm, call, datatype, &out->dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!buf && count > 0 && out->dt->size > 0 && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, bufname, "is NULL");
	out->buf = buf;
	out->count = count;
	return MPI_SUCCESS;
}

/* Check a counts array (and displacements) of a v-variant. */
static int coll_check_counts(const char *call, MPI_Comm comm, const struct comm *c,
			     const MPI_Count *counts, const MPI_Aint *displs,
			     const char *name)
{
	if (!counts || !displs)
		return err_comm(comm, call, MPI_ERR_ARG, !counts ? name : "displs",
				"is NULL");
	for (int m = 0; m < c->size; m++)
		if (counts[m] < 0)
			return err_comm(comm, call, MPI_ERR_COUNT, name,
					"element %d is negative (%lld)", m,
					(long long)counts[m]);
	return MPI_SUCCESS;
}

static inline size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The address of element `index` of a buffer of type dt. */
static inline char *elem_at(const void *buf, const struct datatype *dt, MPI_Aint index)
{
	return (char *)buf + index * dt->extent;
}

/* The bytes of a slot region per member (scatter, alltoall). */
static size_t region_bytes(const struct comm *c)
{
	return (coll_slot_bytes(c) / (size_t)c->size) & ~(size_t)7;
}

/* ---- broadcast ---------------------------------------------------------- */

static int bcast(const char *call, void *buffer, MPI_Count count, MPI_Datatype datatype,
		 int root, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf b;
	size_t bytes, chunk;
	uint64_t base;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_bcast(call, comm, c, buffer, count, datatype, root);
	if ((rc = coll_check_comm(call, comm, &c)) != MPI_SUCCESS ||
	    (rc = coll_check_buf(call, comm, buffer, count, datatype, "buffer",
				 "count", &b)) != MPI_SUCCESS ||
	    (rc = coll_check_root(call, comm, c, root)) != MPI_SUCCESS)
		return rc;
	if (c->size == 1)
		return MPI_SUCCESS;
	bytes = (size_t)count * (size_t)b.dt->size;
	chunk = coll_slot_bytes(c);
	base = coll_begin(c);
	for (size_t off = 0, k = 0; off < bytes; off += chunk, k++) {
		size_t n = min_size(bytes - off, chunk);

		if (c->rank == root) {
			dt_pack(b.dt, buffer, off, coll_slot_acquire(c, CALL_BCAST), n);
			coll_slot_publish(c, base + k + 1, c->size - 1);
		} else {
			dt_unpack(b.dt, buffer, off,
				  coll_slot_read(c, root, base + k + 1, CALL_BCAST), n);
			coll_slot_release(c, root);
		}
	}
	return MPI_SUCCESS;
}

/* ---- gather ------------------------------------------------------------- */

/*
 * Gather with per-member sizes: member m sends `mine` packed bytes; the
 * root takes member m's bytes into (recvbuf at displ[m] elements, rdt).
 */
static void gather_run(struct comm *c, enum call_id call, const struct coll_buf *s,
		       void *recvbuf, const struct datatype *rdt, const MPI_Count *rcounts,
		       const MPI_Aint *displs, MPI_Count rcount, int root)
{
	size_t chunk = coll_slot_bytes(c);
	uint64_t base = coll_begin(c);

	if (c->rank != root) {
		size_t bytes = (size_t)s->count * (size_t)s->dt->size;

		for (size_t off = 0, k = 0; off < bytes; off += chunk, k++) {
			size_t n = min_size(bytes - off, chunk);

			dt_pack(s->dt, s->buf, off, coll_slot_acquire(c, call), n);
			coll_slot_publish(c, base + k + 1, 1);
		}
		return;
	}
	/* the root's own part, unless it is already in place */
	if (s->buf != MPI_IN_PLACE) {
		MPI_Aint at = displs ? displs[root] : (MPI_Aint)root * rcount;

		dt_copy(s->buf, s->dt, elem_at(recvbuf, rdt, at), rdt,
			   (size_t)s->count * (size_t)s->dt->size);
	}
	for (size_t k = 0;; k++) {
		int more = 0;

		for (int m = 0; m < c->size; m++) {
			size_t bytes = (size_t)(rcounts ? rcounts[m] : rcount) *
				       (size_t)rdt->size, off = k * chunk;
			MPI_Aint at = displs ? displs[m] : (MPI_Aint)m * rcount;

			if (m == root || off >= bytes)
				continue;
			more = 1;
			dt_unpack(rdt, elem_at(recvbuf, rdt, at), off,
				  coll_slot_read(c, m, base + k + 1, call),
				  min_size(bytes - off, chunk));
			coll_slot_release(c, m);
		}
		if (!more)
			break;
	}
}

/* One (buf, count, datatype) argument triple and its names. */
struct coll_arg {
	const void *buf;
	MPI_Count count;
	MPI_Datatype type;
	const char *bufname, *countname;
};

/*
 * The rooted collectives: the root's buffer (recvbuf of gather, sendbuf of
 * scatter) matters at the root only; the other buffer matters everywhere,
 * and may be MPI_IN_PLACE at the root, where it stands for the root's own
 * part of the root's buffer.
 */
static int rooted_check(const char *call, MPI_Comm comm, int root, struct comm **c,
			const struct coll_arg *at_root, struct coll_buf *rb,
			const struct coll_arg *each, struct coll_buf *eb)
{
	int rc;

	if ((rc = coll_check_comm(call, comm, c)) != MPI_SUCCESS ||
	    (rc = coll_check_root(call, comm, *c, root)) != MPI_SUCCESS)
		return rc;
	rb->dt = NULL;
	if ((*c)->rank == root &&
	    (rc = coll_check_buf(call, comm, at_root->buf, at_root->count, at_root->type,
				 at_root->bufname, at_root->countname, rb)) != MPI_SUCCESS)
		return rc;
	if (each->buf == MPI_IN_PLACE) {
		if ((*c)->rank != root)
			return err_comm(comm, call, MPI_ERR_BUFFER, each->bufname,
					"MPI_IN_PLACE is for the root only");
		eb->buf = MPI_IN_PLACE;
		eb->dt = rb->dt;
		eb->count = 0;
		return MPI_SUCCESS;
	}
	return coll_check_buf(call, comm, each->buf, each->count, each->type,
			      each->bufname, each->countname, eb);
}

static int gather_check(const char *call, const void *sendbuf, MPI_Count sendcount,
			MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm, struct comm **c,
			struct coll_buf *s, struct coll_buf *r)
{
	struct coll_arg recv = { recvbuf, recvcount, recvtype, "recvbuf", "recvcount" };
	struct coll_arg send = { sendbuf, sendcount, sendtype, "sendbuf", "sendcount" };

	return rooted_check(call, comm, root, c, &recv, r, &send, s);
}

static int gather(const char *call, const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_GATHER, INTER_GATHER, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_fixed(recvbuf, recvcount, recvtype),
				  root);
	rc = gather_check(call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			  recvtype, root, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	gather_run(c, CALL_GATHER, &s, recvbuf, r.dt, NULL, NULL, recvcount, root);
	return MPI_SUCCESS;
}

static int gatherv_do(const char *call, const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint displs[], MPI_Datatype recvtype, int root,
		      MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_GATHERV, INTER_GATHER, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_vector(recvbuf, recvcounts, displs, recvtype),
				  root);
	rc = gather_check(call, sendbuf, sendcount, sendtype, recvbuf, 0,
			  recvtype, root, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	if (c->rank == root &&
	    (rc = coll_check_counts(call, comm, c, recvcounts, displs,
				    "recvcounts")) != MPI_SUCCESS)
		return rc;
	gather_run(c, CALL_GATHERV, &s, recvbuf, r.dt, recvcounts, displs, 0, root);
	return MPI_SUCCESS;
}

/* ---- scatter ------------------------------------------------------------ */

static void scatter_run(struct comm *c, enum call_id call, const void *sendbuf,
			const struct datatype *sdt, const MPI_Count *scounts,
			const MPI_Aint *displs, MPI_Count scount, const struct coll_buf *r,
			int root)
{
	size_t region = region_bytes(c);
	uint64_t base = coll_begin(c);

	if (c->rank != root) {
		size_t bytes = (size_t)r->count * (size_t)r->dt->size;

		for (size_t off = 0, k = 0; off < bytes; off += region, k++) {
			const char *p = coll_slot_read(c, root, base + k + 1, call);

			dt_unpack(r->dt, (void *)r->buf, off, p + region * (size_t)c->rank,
				  min_size(bytes - off, region));
			coll_slot_release(c, root);
		}
		return;
	}
	if (r->buf != MPI_IN_PLACE) {
		MPI_Aint at = displs ? displs[root] : (MPI_Aint)root * scount;

		dt_copy(elem_at(sendbuf, sdt, at), sdt, (void *)r->buf, r->dt,
			   (size_t)(scounts ? scounts[root] : scount) * (size_t)sdt->size);
	}
	for (size_t k = 0;; k++) {
		size_t off = k * region;
		int readers = 0;
		char *p = NULL;

		for (int m = 0; m < c->size; m++) {
			size_t bytes = (size_t)(scounts ? scounts[m] : scount) *
				       (size_t)sdt->size;
			MPI_Aint at = displs ? displs[m] : (MPI_Aint)m * scount;

			if (m == root || off >= bytes)
				continue;
			if (!p)
				p = coll_slot_acquire(c, call);
			dt_pack(sdt, elem_at(sendbuf, sdt, at), off, p + region * (size_t)m,
				min_size(bytes - off, region));
			readers++;
		}
		if (!readers)
			break;
		coll_slot_publish(c, base + k + 1, readers);
	}
}

static int scatter_check(const char *call, const void *sendbuf, MPI_Count sendcount,
			 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			 MPI_Datatype recvtype, int root, MPI_Comm comm, struct comm **c,
			 struct coll_buf *s, struct coll_buf *r)
{
	struct coll_arg send = { sendbuf, sendcount, sendtype, "sendbuf", "sendcount" };
	struct coll_arg recv = { recvbuf, recvcount, recvtype, "recvbuf", "recvcount" };

	return rooted_check(call, comm, root, c, &send, s, &recv, r);
}

static int scatter(const char *call, const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_SCATTER, INTER_SCATTER, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_fixed(recvbuf, recvcount, recvtype),
				  root);
	rc = scatter_check(call, sendbuf, sendcount, sendtype, recvbuf,
			   recvcount, recvtype, root, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	scatter_run(c, CALL_SCATTER, sendbuf, s.dt, NULL, NULL, sendcount, &r, root);
	return MPI_SUCCESS;
}

static int scatterv_do(const char *call, const void *sendbuf,
		       const MPI_Count sendcounts[], const MPI_Aint displs[],
		       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_SCATTERV, INTER_SCATTER, comm, c,
				  coll_vector(sendbuf, sendcounts, displs, sendtype),
				  coll_fixed(recvbuf, recvcount, recvtype),
				  root);
	rc = scatter_check(call, sendbuf, 0, sendtype, recvbuf, recvcount,
			   recvtype, root, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	if (c->rank == root &&
	    (rc = coll_check_counts(call, comm, c, sendcounts, displs,
				    "sendcounts")) != MPI_SUCCESS)
		return rc;
	scatter_run(c, CALL_SCATTERV, sendbuf, s.dt, sendcounts, displs, 0, &r, root);
	return MPI_SUCCESS;
}

/* ---- allgather ---------------------------------------------------------- */

/* Every member publishes its part; every member reads every other part. */
static void allgather_run(struct comm *c, enum call_id call, const struct coll_buf *s,
			  void *recvbuf, const struct datatype *rdt,
			  const MPI_Count *rcounts, const MPI_Aint *displs,
			  MPI_Count rcount)
{
	size_t chunk = coll_slot_bytes(c);
	uint64_t base = coll_begin(c);
	MPI_Aint my_at = displs ? displs[c->rank] : (MPI_Aint)c->rank * rcount;
	size_t my_bytes = (size_t)(rcounts ? rcounts[c->rank] : rcount) * (size_t)rdt->size;

	if (s->buf != MPI_IN_PLACE)
		dt_copy(s->buf, s->dt, elem_at(recvbuf, rdt, my_at), rdt, my_bytes);
	for (size_t k = 0;; k++) {
		size_t off = k * chunk;
		int more = 0;

		/* ours from recvbuf: it holds our part already, in any case */
		if (off < my_bytes) {
			dt_pack(rdt, elem_at(recvbuf, rdt, my_at), off,
				coll_slot_acquire(c, call), min_size(my_bytes - off, chunk));
			coll_slot_publish(c, base + k + 1, c->size - 1);
			more = 1;
		}
		for (int m = 0; m < c->size; m++) {
			size_t bytes = (size_t)(rcounts ? rcounts[m] : rcount) *
				       (size_t)rdt->size;
			MPI_Aint at = displs ? displs[m] : (MPI_Aint)m * rcount;

			if (m == c->rank || off >= bytes)
				continue;
			more = 1;
			dt_unpack(rdt, elem_at(recvbuf, rdt, at), off,
				  coll_slot_read(c, m, base + k + 1, call),
				  min_size(bytes - off, chunk));
			coll_slot_release(c, m);
		}
		if (!more)
			break;
	}
}

static int allgather_check(const char *call, const void *sendbuf, MPI_Count sendcount,
			   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm, struct comm **c,
			   struct coll_buf *s, struct coll_buf *r)
{
	int rc;

	if ((rc = coll_check_comm(call, comm, c)) != MPI_SUCCESS ||
	    (rc = coll_check_buf(call, comm, recvbuf, recvcount, recvtype, "recvbuf",
				 "recvcount", r)) != MPI_SUCCESS)
		return rc;
	if (sendbuf == MPI_IN_PLACE) {
		s->buf = MPI_IN_PLACE;
		s->dt = r->dt;
		s->count = 0;
		return MPI_SUCCESS;
	}
	return coll_check_buf(call, comm, sendbuf, sendcount, sendtype, "sendbuf",
			      "sendcount", s);
}

static int allgather(const char *call, const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		     MPI_Datatype recvtype, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_ALLGATHER, INTER_ALLGATHER, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_fixed(recvbuf, recvcount, recvtype),
				  0);
	rc = allgather_check(call, sendbuf, sendcount, sendtype, recvbuf,
			     recvcount, recvtype, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	allgather_run(c, CALL_ALLGATHER, &s, recvbuf, r.dt, NULL, NULL, recvcount);
	return MPI_SUCCESS;
}

static int allgatherv_do(const char *call, const void *sendbuf, MPI_Count sendcount,
			 MPI_Datatype sendtype, void *recvbuf,
			 const MPI_Count recvcounts[], const MPI_Aint displs[],
			 MPI_Datatype recvtype, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf s, r;
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_ALLGATHERV, INTER_ALLGATHER, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_vector(recvbuf, recvcounts, displs, recvtype),
				  0);
	rc = allgather_check(call, sendbuf, sendcount, sendtype, recvbuf, 0,
			     recvtype, comm, &c, &s, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	if ((rc = coll_check_counts(call, comm, c, recvcounts, displs,
				    "recvcounts")) != MPI_SUCCESS)
		return rc;
	allgather_run(c, CALL_ALLGATHERV, &s, recvbuf, r.dt, recvcounts, displs, 0);
	return MPI_SUCCESS;
}

/* ---- alltoall ----------------------------------------------------------- */

struct a2a {
	const void *buf;
	const struct datatype *dt;
	const MPI_Count *counts;	/* NULL: count each, at m * count */
	const MPI_Aint *displs;
	MPI_Count count;
};

static size_t a2a_bytes(const struct a2a *a, int m)
{
	return (size_t)(a->counts ? a->counts[m] : a->count) * (size_t)a->dt->size;
}

static char *a2a_at(const struct a2a *a, int m)
{
	return elem_at(a->buf, a->dt, a->displs ? a->displs[m] : (MPI_Aint)m * a->count);
}

static void alltoall_run(struct comm *c, enum call_id call, const struct a2a *s,
			 const struct a2a *r)
{
	size_t region = region_bytes(c);
	uint64_t base = coll_begin(c);

	dt_copy(a2a_at(s, c->rank), s->dt, a2a_at(r, c->rank), r->dt,
		   a2a_bytes(r, c->rank));
	for (size_t k = 0;; k++) {
		size_t off = k * region;
		int readers = 0, more = 0;
		char *p = NULL;

		for (int m = 0; m < c->size; m++) {
			size_t bytes = a2a_bytes(s, m);

			if (m == c->rank || off >= bytes)
				continue;
			if (!p)
				p = coll_slot_acquire(c, call);
			dt_pack(s->dt, a2a_at(s, m), off, p + region * (size_t)m,
				min_size(bytes - off, region));
			readers++;
		}
		if (readers) {
			coll_slot_publish(c, base + k + 1, readers);
			more = 1;
		}
		for (int m = 0; m < c->size; m++) {
			size_t bytes = a2a_bytes(r, m);
			const char *q;

			if (m == c->rank || off >= bytes)
				continue;
			more = 1;
			q = coll_slot_read(c, m, base + k + 1, call);
			dt_unpack(r->dt, a2a_at(r, m), off, q + region * (size_t)c->rank,
				  min_size(bytes - off, region));
			coll_slot_release(c, m);
		}
		if (!more)
			break;
	}
}

/* MPI_IN_PLACE: the data to send is what recvbuf holds now. */
static int a2a_in_place(struct comm *c, struct a2a *s, const struct a2a *r, char **copy)
{
	MPI_Aint lo = 0, hi = 0;

	for (int m = 0; m < c->size; m++) {
		MPI_Aint at = (r->displs ? r->displs[m] : (MPI_Aint)m * r->count) *
			      r->dt->extent, n = r->counts ? r->counts[m] : r->count;
		MPI_Aint end = at + (n ? (n - 1) * r->dt->extent + r->dt->true_lb +
				     r->dt->true_extent : 0);

		if (n && at + r->dt->true_lb < lo)
			lo = at + r->dt->true_lb;
		if (end > hi)
			hi = end;
	}
	*copy = malloc((size_t)(hi - lo) + 1);
	if (!*copy)
		return -1;
	memcpy(*copy, (const char *)r->buf + lo, (size_t)(hi - lo));
	*s = *r;
	s->buf = *copy - lo;
	return 0;
}

static int alltoall_do(const char *call, enum call_id id, MPI_Comm comm, struct comm *c,
		       struct a2a *s, struct a2a *r, int in_place)
{
	char *copy = NULL;

	if (in_place && a2a_in_place(c, s, r, &copy) < 0)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	alltoall_run(c, id, s, r);
	free(copy);
	return MPI_SUCCESS;
}

static int alltoall(const char *call, const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf sb, rb;
	struct a2a s = { 0 }, r = { 0 };
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_ALLTOALL, INTER_ALLTOALL, comm, c,
				  coll_fixed(sendbuf, sendcount, sendtype),
				  coll_fixed(recvbuf, recvcount, recvtype),
				  0);
	rc = allgather_check(call, sendbuf, sendcount, sendtype, recvbuf,
			     recvcount, recvtype, comm, &c, &sb, &rb);
	if (rc != MPI_SUCCESS)
		return rc;
	r = (struct a2a){ recvbuf, rb.dt, NULL, NULL, recvcount };
	s = (struct a2a){ sendbuf, sb.dt, NULL, NULL, sendcount };
	return alltoall_do(call, CALL_ALLTOALL, comm, c, &s, &r,
			   sendbuf == MPI_IN_PLACE);
}

static int alltoallv_do(const char *call, const void *sendbuf,
			const MPI_Count sendcounts[], const MPI_Aint sdispls[],
			MPI_Datatype sendtype, void *recvbuf,
			const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			MPI_Datatype recvtype, MPI_Comm comm)
{
	struct comm *c;
	struct coll_buf sb, rb;
	struct a2a s = { 0 }, r = { 0 };
	int rc;

	runtime_check(call);
	if ((c = comm_get(comm)) && c->remote)
		return inter_move(call, CALL_ALLTOALLV, INTER_ALLTOALL, comm, c,
				  coll_vector(sendbuf, sendcounts, sdispls, sendtype),
				  coll_vector(recvbuf, recvcounts, rdispls, recvtype),
				  0);
	rc = allgather_check(call, sendbuf, 0, sendtype, recvbuf, 0,
			     recvtype, comm, &c, &sb, &rb);
	if (rc != MPI_SUCCESS)
		return rc;
	if ((rc = coll_check_counts(call, comm, c, recvcounts, rdispls,
				    "recvcounts")) != MPI_SUCCESS)
		return rc;
	if (sendbuf != MPI_IN_PLACE &&
	    (rc = coll_check_counts(call, comm, c, sendcounts, sdispls,
				    "sendcounts")) != MPI_SUCCESS)
		return rc;
	r = (struct a2a){ recvbuf, rb.dt, recvcounts, rdispls, 0 };
	s = (struct a2a){ sendbuf, sb.dt, sendcounts, sdispls, 0 };
	return alltoall_do(call, CALL_ALLTOALLV, comm, c, &s, &r,
			   sendbuf == MPI_IN_PLACE);
}
/*
 * The v-variants' counts and displacements, widened for their _do
 * functions (the int forms; the large-count forms pass theirs through).
 * Only where they are significant: at the root (gatherv, scatterv), and
 * not the send side of an alltoallv in place.
 */
static int vec_blocks(MPI_Comm comm, int rooted, int root)
{
	struct comm *c = comm_get(comm);

	if (!c)
		return 0;
	if (rooted && (c->remote ? root != MPI_ROOT : root != c->rank))
		return 0;
	return comm_peer_size(c);
}

static int err_widen(const char *call, MPI_Comm comm)
{
	return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
}

static int gatherv(const char *call, const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, struct nb_vec rv,
		   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	const MPI_Count *counts;
	const MPI_Aint *displs;
	void *wide;
	int rc;

	runtime_check(call);
	if (nb_vec_widen(&rv, vec_blocks(comm, 1, root), &counts, &displs, &wide) < 0)
		return err_widen(call, comm);
	rc = gatherv_do(call, sendbuf, sendcount, sendtype, recvbuf, counts, displs,
			recvtype, root, comm);
	free(wide);
	return rc;
}

static int scatterv(const char *call, const void *sendbuf, struct nb_vec sv,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	const MPI_Count *counts;
	const MPI_Aint *displs;
	void *wide;
	int rc;

	runtime_check(call);
	if (nb_vec_widen(&sv, vec_blocks(comm, 1, root), &counts, &displs, &wide) < 0)
		return err_widen(call, comm);
	rc = scatterv_do(call, sendbuf, counts, displs, sendtype, recvbuf, recvcount,
			 recvtype, root, comm);
	free(wide);
	return rc;
}

static int allgatherv(const char *call, const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf, struct nb_vec rv,
		      MPI_Datatype recvtype, MPI_Comm comm)
{
	const MPI_Count *counts;
	const MPI_Aint *displs;
	void *wide;
	int rc;

	runtime_check(call);
	if (nb_vec_widen(&rv, vec_blocks(comm, 0, 0), &counts, &displs, &wide) < 0)
		return err_widen(call, comm);
	rc = allgatherv_do(call, sendbuf, sendcount, sendtype, recvbuf, counts, displs,
			   recvtype, comm);
	free(wide);
	return rc;
}

static int alltoallv(const char *call, const void *sendbuf, struct nb_vec sv,
		     MPI_Datatype sendtype, void *recvbuf, struct nb_vec rv,
		     MPI_Datatype recvtype, MPI_Comm comm)
{
	int n = vec_blocks(comm, 0, 0), rc = MPI_SUCCESS;
	const MPI_Count *scounts, *rcounts;
	const MPI_Aint *sdispls, *rdispls;
	void *swide = NULL, *rwide;

	runtime_check(call);
	if (nb_vec_widen(&rv, n, &rcounts, &rdispls, &rwide) < 0 ||
	    nb_vec_widen(&sv, sendbuf == MPI_IN_PLACE ? 0 : n, &scounts, &sdispls,
			 &swide) < 0)
		rc = err_widen(call, comm);
	else
		rc = alltoallv_do(call, sendbuf, scounts, sdispls, sendtype, recvbuf,
				  rcounts, rdispls, recvtype, comm);
	free(swide);
	free(rwide);
	return rc;
}

/* ---- the calls: the int forms and the large-count forms (MPI 4.1, 2.5.8) -- */

API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
{
	return bcast("MPI_Bcast", buffer, count, datatype, root, comm);
}

API(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
		   MPI_Comm comm))
{
	return bcast("MPI_Bcast_c", buffer, count, datatype, root, comm);
}

API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm))
{
	return gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
		      recvtype, root, comm);
}

API(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		    MPI_Comm comm))
{
	return gather("MPI_Gather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
		      recvtype, root, comm);
}

API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, int root, MPI_Comm comm))
{
	return gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf,
		       NB_VEC(recvcounts, displs), recvtype, root, comm);
}

API(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		     MPI_Datatype recvtype, int root, MPI_Comm comm))
{
	return gatherv("MPI_Gatherv_c", sendbuf, sendcount, sendtype, recvbuf,
		       NB_VEC_C(recvcounts, displs), recvtype, root, comm);
}

API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		   MPI_Comm comm))
{
	return scatter("MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount,
		       recvtype, root, comm);
}

API(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		     MPI_Comm comm))
{
	return scatter("MPI_Scatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
		       recvtype, root, comm);
}

API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
		    MPI_Datatype sendtype, void *recvbuf, int recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm))
{
	return scatterv("MPI_Scatterv", sendbuf, NB_VEC(sendcounts, displs), sendtype,
			recvbuf, recvcount, recvtype, root, comm);
}

API(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
		      const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
		      MPI_Count recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm))
{
	return scatterv("MPI_Scatterv_c", sendbuf, NB_VEC_C(sendcounts, displs), sendtype,
			recvbuf, recvcount, recvtype, root, comm);
}

API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
{
	return allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, recvtype, comm);
}

API(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		       MPI_Comm comm))
{
	return allgather("MPI_Allgather_c", sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, recvtype, comm);
}

API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, const int recvcounts[], const int displs[],
		      MPI_Datatype recvtype, MPI_Comm comm))
{
	return allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC(recvcounts, displs), recvtype, comm);
}

API(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, const MPI_Count recvcounts[],
			const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
{
	return allgatherv("MPI_Allgatherv_c", sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC_C(recvcounts, displs), recvtype, comm);
}

API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
{
	return alltoall("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, comm);
}

API(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		      MPI_Comm comm))
{
	return alltoall("MPI_Alltoall_c", sendbuf, sendcount, sendtype, recvbuf,
			recvcount, recvtype, comm);
}

API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
		     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
{
	return alltoallv("MPI_Alltoallv", sendbuf, NB_VEC(sendcounts, sdispls), sendtype,
			 recvbuf, NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
		       const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
		       const MPI_Count recvcounts[], const MPI_Aint rdispls[],
		       MPI_Datatype recvtype, MPI_Comm comm))
{
	return alltoallv("MPI_Alltoallv_c", sendbuf, NB_VEC_C(sendcounts, sdispls),
			 sendtype, recvbuf, NB_VEC_C(recvcounts, rdispls), recvtype,
			 comm);
}
