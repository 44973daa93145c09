/*
 * The nonblocking collectives: the checked arguments of a call and the
 * building of its schedule (coll_nb.c, which also holds the
 * intracommunicator algorithms), shared with the intercommunicator forms
 * (coll_inter_nb.c), whose schedules are built of the same steps and run
 * those algorithms over an intercommunicator's local group.
 */
#ifndef SRC_COLL_NB_H
#define SRC_COLL_NB_H

#include <mpi.h>
#include <stddef.h>

#include "comm.h"
#include "datatype.h"
#include "state.h"

struct op;
struct sched;

/* Where an argument matters, or where a buffer may be MPI_IN_PLACE (on an
 * intracommunicator; coll_inter_nb.c says it for intercommunicators). */
enum nb_where { NB_NOWHERE, NB_EVERYWHERE, NB_AT_ROOT };

/* One side (send or receive) of a call's arguments. */
struct nb_side {
	const void *buf;
	int count;
	MPI_Datatype type;
	const int *counts, *displs;	/* the v-variants; NULL otherwise */
	enum nb_where used;		/* where the side's arguments matter */
	enum nb_where in_place;		/* where buf may be MPI_IN_PLACE */
	int vector;			/* counts and displs are given */
	const char *const *names;	/* buffer, count, counts, displs */
	struct datatype *dt;		/* checked */
};

struct nb_call {
	const char *name;
	enum call_id id;	/* for the watchdog */
	MPI_Comm comm;
	struct comm *c;
	int rooted;		/* the call has a root argument */
	int root;
	int reducing;		/* the call has an op argument */
	MPI_Op op;
	struct op *o;
	struct nb_side s, r;
	MPI_Request *request;
};

/* ---- checks (coll_nb.c) ----------------------------------------------------- */

/* Side sd of call a, not MPI_IN_PLACE, with counts (the v-variants) for
 * `members` processes: counts, datatype, buffer; sets sd->dt.  MPI_SUCCESS
 * or the class raised. */
int nb_check_args(struct nb_call *a, struct nb_side *sd, int members);

/* The op of a reducing call, on the datatype of its checked side. */
int nb_check_op(struct nb_call *a);

/* ---- building a schedule (coll_nb.c) ---------------------------------------- */

/*
 * The steps added next name ranks of c and travel on its library context:
 * the call's communicator (where a schedule starts), or the local group of
 * an intercommunicator (its private intracommunicator `local`), which the
 * call's communicator keeps alive.
 */
void sched_on(struct sched *s, struct comm *c);

/* A message of count elements of dt to or from member peer. */
void sched_send(struct sched *s, int peer, const void *buf, MPI_Count count,
		const struct datatype *dt);
void sched_recv(struct sched *s, int peer, void *buf, MPI_Count count,
		const struct datatype *dt);

/* The end of a round: what follows starts once its messages completed. */
void sched_round(struct sched *s);

/* Scratch space for count elements of dt, kept as s's scratch buffer i
 * (0 to 2); the address of element 0, NULL when out of memory. */
char *nb_scratch(struct sched *s, int i, MPI_Count count, const struct datatype *dt);

/* Member m's block of a side (m times count elements, or displs[m]): its
 * address, count and packed size. */
char *blk_at(const struct nb_side *sd, int m);
int blk_count(const struct nb_side *sd, int m);
size_t blk_bytes(const struct nb_side *sd, int m);

/* The intracommunicator algorithms, over the communicator of sched_on: a
 * barrier; a broadcast from root; a reduction in rank order, whose result
 * is returned at member 0 (NULL elsewhere). */
void build_barrier(struct sched *s);
void build_bcast(struct sched *s, void *buf, MPI_Count count, const struct datatype *dt,
		 int root);
char *build_reduce_up(struct sched *s, const void *in, MPI_Count count,
		      const struct datatype *dt);

/* ---- the intercommunicator forms (coll_inter_nb.c) -------------------------- */

/* Check call a on an intercommunicator (a->c, a->request resolved):
 * MPI_SUCCESS, or the class raised (MPI_ERR_COMM for a call that MPI
 * defines on intracommunicators only). */
int inter_nb_check(struct nb_call *a);

/* Build the schedule of checked call a on an intercommunicator. */
void inter_nb_build(struct sched *s, struct nb_call *a);

#endif
