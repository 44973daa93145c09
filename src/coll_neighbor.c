/*
 * The neighbourhood collectives (MPI 3.1, 7.6): MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w), their nonblocking forms (7.7), their
 * persistent forms (MPI 4.1, 8.8) and the large-count forms of all three
 * (MPI 4.1, 2.5.8: MPI_Count counts, MPI_Aint displacements), on a
 * communicator with a Cartesian, graph or distributed graph topology (a
 * graph's adjacency must be symmetric, MPI_ERR_TOPOLOGY otherwise).
 *
 * Each is a schedule of the nonblocking collectives (coll_nb.h) of one
 * round: a receive from every in-neighbour into its block of recvbuf and
 * a send to every out-neighbour (its block of sendbuf, or for allgather
 * the one sendbuf), as the standard describes them with MPI_Irecv and
 * MPI_Isend; the blocking forms run the schedule to its end.  The
 * neighbours come from topo.c in the standard's order; MPI_PROC_NULL
 * neighbours (past the edge of a non-periodic grid) take part in nothing,
 * so their receive blocks stay as they were.  Messages between two
 * processes match in the order they are posted: the receives go out in
 * the order of their tags and the sends in the order of the tags they
 * carry (struct neighbors), so a neighbour that appears more than once
 * (a repeated graph edge, a periodic dimension of size 1 or 2) gets each
 * block where the standard says.  MPI_IN_PLACE has no meaning here.
 */
#include <errno.h>
#include <stdlib.h>

#include "api.h"
#include "coll_nb.h"
#include "comm.h"
#include "errhandler.h"
#include "runtime.h"
#include "topo.h"

static const char *const names_recvv[] = { "recvbuf", "recvcount", "recvcounts",
					   "displs", NULL };

/* The index of the neighbour whose tag is t (tags NULL: t itself). */
static int by_tag(const int *tags, int n, int t)
{
	if (!tags)
		return t;
	for (int k = 0; k < n; k++)
		if (tags[k] == t)
			return k;
	return t;
}

static void run_neighbor(struct sched *s, struct nb_call *a, int same)
{
	const struct neighbors *nb = a->topo;

	for (int t = 0; t < nb->nin; t++) {
		int k = by_tag(nb->recv_tag, nb->nin, t);
		const struct datatype *dt = blk_dt(&a->r, k);

		if (nb->in[k] != MPI_PROC_NULL && blk_count(&a->r, k) > 0 && dt->size > 0)
			sched_recv(s, nb->in[k], blk_at(&a->r, k), blk_count(&a->r, k), dt);
	}
	for (int t = 0; t < nb->nout; t++) {
		int k = by_tag(nb->send_tag, nb->nout, t);
		const struct datatype *dt = same ? a->s.dt : blk_dt(&a->s, k);
		MPI_Count count = same ? a->s.count : blk_count(&a->s, k);

		if (nb->out[k] != MPI_PROC_NULL && count > 0 && dt->size > 0)
			sched_send(s, nb->out[k], same ? a->s.buf : blk_at(&a->s, k), count,
				   dt);
	}
	sched_round(s);
}

static void run_allgather(struct sched *s, struct nb_call *a)
{
	run_neighbor(s, a, 1);
}

static void run_alltoall(struct sched *s, struct nb_call *a)
{
	run_neighbor(s, a, 0);
}

/* Check comm's topology, count the blocks of each side by its neighbours,
 * then check the rest and run the call (a is this call's own copy). */
static int neighbor_run(struct nb_call a, int same)
{
	struct neighbors nb;
	int rc;

	runtime_check(a.name);
	a.c = comm_get(a.comm);
	if (!a.c)
		return comm_err_invalid(a.comm, a.name);
	if (!a.c->topo)
		return err_comm(a.comm, a.name, MPI_ERR_TOPOLOGY, "comm", "has no topology");
	rc = neighbors_of(a.c, &nb);
	if (rc < 0) {
		neighbors_free(a.c, &nb);
		return rc == -EINVAL ?
		       err_comm(a.comm, a.name, MPI_ERR_TOPOLOGY, "comm",
				"has a graph topology whose adjacency is not symmetric") :
		       err_comm(a.comm, a.name, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	a.neighborhood = 1;
	a.s.n = same ? 1 : nb.nout;
	a.r.n = nb.nin;
	a.topo = &nb;
	rc = nb_run(&a, same ? run_allgather : run_alltoall);
	neighbors_free(a.c, &nb);
	return rc;
}

#define SIDE(nm, b, n, t) \
	(struct nb_side){ .names = (nm), .buf = (b), .count = (n), .type = (t), \
			  .used = NB_EVERYWHERE }
#define VSIDE(nm, b, v, t) \
	(struct nb_side){ .names = (nm), .buf = (b), .vec = (v), .type = (t), \
			  .used = NB_EVERYWHERE, .vector = 1 }
#define WSIDE(nm, b, v, ts) \
	(struct nb_side){ .names = (nm), .buf = (b), .vec = (v), .types = (ts), \
			  .type = MPI_DATATYPE_NULL, .used = NB_EVERYWHERE, .vector = 1, \
			  .typed = 1 }

/* MPI_Neighbor_alltoallw's: int counts, MPI_Aint byte displacements. */
#define NB_VEC_W(cs, ds) ((struct nb_vec){ .icounts = (cs), .displs = (ds) })

/* The calls by their arguments, each shared by its forms (a: blocking,
 * nonblocking or persistent, coll_nb.h). */
/* allgather (same: one block to every out-neighbour) and alltoall. */
static int fixed(struct nb_call a, int same, const void *sendbuf, MPI_Count sendcount,
		 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		 MPI_Datatype recvtype, MPI_Comm comm)
{
	a.comm = comm;
	a.s = SIDE(nb_names_send, sendbuf, sendcount, sendtype);
	a.r = SIDE(nb_names_recv, recvbuf, recvcount, recvtype);
	return neighbor_run(a, same);
}

static int allgatherv(struct nb_call a, const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf, struct nb_vec recvv,
		      MPI_Datatype recvtype, MPI_Comm comm)
{
	a.comm = comm;
	a.s = SIDE(nb_names_send, sendbuf, sendcount, sendtype);
	a.r = VSIDE(names_recvv, recvbuf, recvv, recvtype);
	return neighbor_run(a, 1);
}

static int alltoallv(struct nb_call a, const void *sendbuf, struct nb_vec sendv,
		     MPI_Datatype sendtype, void *recvbuf, struct nb_vec recvv,
		     MPI_Datatype recvtype, MPI_Comm comm)
{
	a.comm = comm;
	a.s = VSIDE(nb_names_send, sendbuf, sendv, sendtype);
	a.r = VSIDE(nb_names_recv, recvbuf, recvv, recvtype);
	return neighbor_run(a, 0);
}

static int alltoallw(struct nb_call a, const void *sendbuf, struct nb_vec sendv,
		     const MPI_Datatype sendtypes[], void *recvbuf, struct nb_vec recvv,
		     const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	a.comm = comm;
	a.s = WSIDE(nb_names_send, sendbuf, sendv, sendtypes);
	a.r = WSIDE(nb_names_recv, recvbuf, recvv, recvtypes);
	return neighbor_run(a, 0);
}

/* ---- the blocking calls (MPI 4.1, 8.6) ------------------------------------- */

API(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			      void *recvbuf, int recvcount, MPI_Datatype recvtype,
			      MPI_Comm comm))
{
	return fixed(BLOCKING_FORM("MPI_Neighbor_allgather", CALL_NEIGHBOR_ALLGATHER), 1,
		     sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

API(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
				MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
				MPI_Datatype recvtype, MPI_Comm comm))
{
	return fixed(BLOCKING_FORM("MPI_Neighbor_allgather_c", CALL_NEIGHBOR_ALLGATHER),
		     1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			       void *recvbuf, const int recvcounts[], const int displs[],
			       MPI_Datatype recvtype, MPI_Comm comm))
{
	return allgatherv(BLOCKING_FORM("MPI_Neighbor_allgatherv",
			  CALL_NEIGHBOR_ALLGATHERV), sendbuf, sendcount, sendtype,
			  recvbuf, NB_VEC(recvcounts, displs), recvtype, comm);
}

API(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 const MPI_Count recvcounts[], const MPI_Aint displs[],
				 MPI_Datatype recvtype, MPI_Comm comm))
{
	return allgatherv(BLOCKING_FORM("MPI_Neighbor_allgatherv_c",
			  CALL_NEIGHBOR_ALLGATHERV), sendbuf, sendcount, sendtype,
			  recvbuf, NB_VEC_C(recvcounts, displs), recvtype, comm);
}

API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			     void *recvbuf, int recvcount, MPI_Datatype recvtype,
			     MPI_Comm comm))
{
	return fixed(BLOCKING_FORM("MPI_Neighbor_alltoall", CALL_NEIGHBOR_ALLTOALL), 0,
		     sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

API(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
			       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			       MPI_Datatype recvtype, MPI_Comm comm))
{
	return fixed(BLOCKING_FORM("MPI_Neighbor_alltoall_c", CALL_NEIGHBOR_ALLTOALL), 0,
		     sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

API(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
			      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			      const int recvcounts[], const int rdispls[],
			      MPI_Datatype recvtype, MPI_Comm comm))
{
	return alltoallv(BLOCKING_FORM("MPI_Neighbor_alltoallv", CALL_NEIGHBOR_ALLTOALLV),
			 sendbuf, NB_VEC(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
				const MPI_Aint sdispls[], MPI_Datatype sendtype,
				void *recvbuf, const MPI_Count recvcounts[],
				const MPI_Aint rdispls[], MPI_Datatype recvtype,
				MPI_Comm comm))
{
	return alltoallv(BLOCKING_FORM("MPI_Neighbor_alltoallv_c",
			 CALL_NEIGHBOR_ALLTOALLV), sendbuf, NB_VEC_C(sendcounts, sdispls),
			 sendtype, recvbuf, NB_VEC_C(recvcounts, rdispls), recvtype,
			 comm);
}

API(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
			      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			      void *recvbuf, const int recvcounts[],
			      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
			      MPI_Comm comm))
{
	return alltoallw(BLOCKING_FORM("MPI_Neighbor_alltoallw", CALL_NEIGHBOR_ALLTOALLW),
			 sendbuf, NB_VEC_W(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC_W(recvcounts, rdispls), recvtypes, comm);
}

API(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
				const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				void *recvbuf, const MPI_Count recvcounts[],
				const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
				MPI_Comm comm))
{
	return alltoallw(BLOCKING_FORM("MPI_Neighbor_alltoallw_c",
			 CALL_NEIGHBOR_ALLTOALLW), sendbuf, NB_VEC_C(sendcounts, sdispls),
			 sendtypes, recvbuf, NB_VEC_C(recvcounts, rdispls), recvtypes,
			 comm);
}

/* ---- the nonblocking calls (MPI 4.1, 8.7) ---------------------------------- */

API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			       void *recvbuf, int recvcount, MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Request *request))
{
	return fixed(NB_FORM("MPI_Ineighbor_allgather", CALL_INEIGHBOR_ALLGATHER,
		     request), 1, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 MPI_Count recvcount, MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Request *request))
{
	return fixed(NB_FORM("MPI_Ineighbor_allgather_c", CALL_INEIGHBOR_ALLGATHER,
		     request), 1, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
				void *recvbuf, const int recvcounts[], const int displs[],
				MPI_Datatype recvtype, MPI_Comm comm,
				MPI_Request *request))
{
	return allgatherv(NB_FORM("MPI_Ineighbor_allgatherv", CALL_INEIGHBOR_ALLGATHERV,
			  request), sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC(recvcounts, displs), recvtype, comm);
}

API(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount,
				  MPI_Datatype sendtype, void *recvbuf,
				  const MPI_Count recvcounts[], const MPI_Aint displs[],
				  MPI_Datatype recvtype, MPI_Comm comm,
				  MPI_Request *request))
{
	return allgatherv(NB_FORM("MPI_Ineighbor_allgatherv_c", CALL_INEIGHBOR_ALLGATHERV,
			  request), sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC_C(recvcounts, displs), recvtype, comm);
}

API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			      void *recvbuf, int recvcount, MPI_Datatype recvtype,
			      MPI_Comm comm, MPI_Request *request))
{
	return fixed(NB_FORM("MPI_Ineighbor_alltoall", CALL_INEIGHBOR_ALLTOALL, request),
		     0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

API(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount,
				MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
				MPI_Datatype recvtype, MPI_Comm comm,
				MPI_Request *request))
{
	return fixed(NB_FORM("MPI_Ineighbor_alltoall_c", CALL_INEIGHBOR_ALLTOALL,
		     request), 0, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[],
			       const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			       const int recvcounts[], const int rdispls[],
			       MPI_Datatype recvtype, MPI_Comm comm,
			       MPI_Request *request))
{
	return alltoallv(NB_FORM("MPI_Ineighbor_alltoallv", CALL_INEIGHBOR_ALLTOALLV,
			 request), sendbuf, NB_VEC(sendcounts, sdispls), sendtype,
			 recvbuf, NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
				 const MPI_Aint sdispls[], MPI_Datatype sendtype,
				 void *recvbuf, const MPI_Count recvcounts[],
				 const MPI_Aint rdispls[], MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Request *request))
{
	return alltoallv(NB_FORM("MPI_Ineighbor_alltoallv_c", CALL_INEIGHBOR_ALLTOALLV,
			 request), sendbuf, NB_VEC_C(sendcounts, sdispls), sendtype,
			 recvbuf, NB_VEC_C(recvcounts, rdispls), recvtype, comm);
}

API(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
			       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			       void *recvbuf, const int recvcounts[],
			       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
			       MPI_Comm comm, MPI_Request *request))
{
	return alltoallw(NB_FORM("MPI_Ineighbor_alltoallw", CALL_INEIGHBOR_ALLTOALLW,
			 request), sendbuf, NB_VEC_W(sendcounts, sdispls), sendtypes,
			 recvbuf, NB_VEC_W(recvcounts, rdispls), recvtypes, comm);
}

API(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
				 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
				 void *recvbuf, const MPI_Count recvcounts[],
				 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
				 MPI_Comm comm, MPI_Request *request))
{
	return alltoallw(NB_FORM("MPI_Ineighbor_alltoallw_c", CALL_INEIGHBOR_ALLTOALLW,
			 request), sendbuf, NB_VEC_C(sendcounts, sdispls), sendtypes,
			 recvbuf, NB_VEC_C(recvcounts, rdispls), recvtypes, comm);
}

/* ---- the persistent calls (MPI 4.1, 8.8) ----------------------------------- */

API(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount,
				   MPI_Datatype sendtype, void *recvbuf, int recvcount,
				   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				   MPI_Request *request))
{
	return fixed(INIT_FORM("MPI_Neighbor_allgather_init", CALL_INEIGHBOR_ALLGATHER,
		     info, request), 1, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
				     MPI_Datatype sendtype, void *recvbuf,
				     MPI_Count recvcount, MPI_Datatype recvtype,
				     MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return fixed(INIT_FORM("MPI_Neighbor_allgather_init_c", CALL_INEIGHBOR_ALLGATHER,
		     info, request), 1, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount,
				    MPI_Datatype sendtype, void *recvbuf,
				    const int recvcounts[], const int displs[],
				    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request))
{
	return allgatherv(INIT_FORM("MPI_Neighbor_allgatherv_init",
			  CALL_INEIGHBOR_ALLGATHERV, info, request), sendbuf, sendcount,
			  sendtype, recvbuf, NB_VEC(recvcounts, displs), recvtype, comm);
}

API(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
				      MPI_Datatype sendtype, void *recvbuf,
				      const MPI_Count recvcounts[],
				      const MPI_Aint displs[], MPI_Datatype recvtype,
				      MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return allgatherv(INIT_FORM("MPI_Neighbor_allgatherv_init_c",
			  CALL_INEIGHBOR_ALLGATHERV, info, request), sendbuf, sendcount,
			  sendtype, recvbuf, NB_VEC_C(recvcounts, displs), recvtype,
			  comm);
}

API(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount,
				  MPI_Datatype sendtype, void *recvbuf, int recvcount,
				  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
				  MPI_Request *request))
{
	return fixed(INIT_FORM("MPI_Neighbor_alltoall_init", CALL_INEIGHBOR_ALLTOALL,
		     info, request), 0, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
				    MPI_Datatype sendtype, void *recvbuf,
				    MPI_Count recvcount, MPI_Datatype recvtype,
				    MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return fixed(INIT_FORM("MPI_Neighbor_alltoall_init_c", CALL_INEIGHBOR_ALLTOALL,
		     info, request), 0, sendbuf, sendcount, sendtype, recvbuf, recvcount,
		     recvtype, comm);
}

API(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[],
				   const int sdispls[], MPI_Datatype sendtype,
				   void *recvbuf, const int recvcounts[],
				   const int rdispls[], MPI_Datatype recvtype,
				   MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return alltoallv(INIT_FORM("MPI_Neighbor_alltoallv_init",
			 CALL_INEIGHBOR_ALLTOALLV, info, request), sendbuf,
			 NB_VEC(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
				     const MPI_Aint sdispls[], MPI_Datatype sendtype,
				     void *recvbuf, const MPI_Count recvcounts[],
				     const MPI_Aint rdispls[], MPI_Datatype recvtype,
				     MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return alltoallv(INIT_FORM("MPI_Neighbor_alltoallv_init_c",
			 CALL_INEIGHBOR_ALLTOALLV, info, request), sendbuf,
			 NB_VEC_C(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC_C(recvcounts, rdispls), recvtype, comm);
}

API(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[],
				   const MPI_Aint sdispls[],
				   const MPI_Datatype sendtypes[], void *recvbuf,
				   const int recvcounts[], const MPI_Aint rdispls[],
				   const MPI_Datatype recvtypes[], MPI_Comm comm,
				   MPI_Info info, MPI_Request *request))
{
	return alltoallw(INIT_FORM("MPI_Neighbor_alltoallw_init",
			 CALL_INEIGHBOR_ALLTOALLW, info, request), sendbuf,
			 NB_VEC_W(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC_W(recvcounts, rdispls), recvtypes, comm);
}

API(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
				     const MPI_Aint sdispls[],
				     const MPI_Datatype sendtypes[], void *recvbuf,
				     const MPI_Count recvcounts[],
				     const MPI_Aint rdispls[],
				     const MPI_Datatype recvtypes[], MPI_Comm comm,
				     MPI_Info info, MPI_Request *request))
{
	return alltoallw(INIT_FORM("MPI_Neighbor_alltoallw_init_c",
			 CALL_INEIGHBOR_ALLTOALLW, info, request), sendbuf,
			 NB_VEC_C(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC_C(recvcounts, rdispls), recvtypes, comm);
}
