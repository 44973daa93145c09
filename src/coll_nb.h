/*
 * Schedules of nonblocking collectives (coll_nb.c, which also holds the
 * intracommunicator algorithms), for the files that build their own: the
 * intercommunicator forms (coll_inter_nb.c), whose schedules are built of
 * the same steps and run those algorithms over an intercommunicator's
 * local group, the neighbourhood collectives (coll_neighbor.c) and
 * MPI_Comm_idup (comm.c).
 *
 * A schedule is this rank's part of one collective: rounds of steps -
 * internal messages on a communicator's library context with the
 * collective's own tag, local copies and reductions, and calls of a
 * function - that the progress engine advances (coll_nb.c says how).  The
 * next round begins once every message of this one completed; the steps of
 * a round begin in the order they were added.
 *
 * The calls are described by struct nb_call: the communicator, the root
 * and op where the call has them, and one struct nb_side per buffer
 * argument.  nb_run() checks every argument (raising the error class
 * through the communicator's handler), builds the schedule with the
 * call's builder (on an intercommunicator, coll_inter_nb.c's) and starts
 * it: the user gets a request, or, for a blocking call, the schedule runs
 * to its end before nb_run returns; a persistent call's request is
 * inactive, and each MPI_Start runs the schedule (sched_start).
 */
#ifndef SRC_COLL_NB_H
#define SRC_COLL_NB_H

#include <mpi.h>
#include <stddef.h>

#include "comm.h"
#include "datatype.h"
#include "state.h"

struct op;
struct request;
struct sched;

/* ---- building a schedule ---------------------------------------------------- */

/*
 * The steps added next name ranks of c and travel on its library context:
 * the call's communicator (where a schedule starts), or the local group of
 * an intercommunicator (its private intracommunicator `local`), which the
 * call's communicator keeps alive.
 */
void sched_on(struct sched *s, struct comm *c);

/* A message of count elements of dt to or from member peer (buf and dt
 * must live until the schedule ends: see sched_hold). */
void sched_send(struct sched *s, int peer, const void *buf, MPI_Count count,
		const struct datatype *dt);
void sched_recv(struct sched *s, int peer, void *buf, MPI_Count count,
		const struct datatype *dt);

/* A local step: fn(s, arg) when its round begins (on whichever thread runs
 * the engine, under the engine's lock). */
typedef void (*sched_fn_t)(struct sched *s, void *arg);
void sched_call(struct sched *s, sched_fn_t fn, void *arg);

/* End the current round. */
void sched_round(struct sched *s);

/* Keep p until the schedule is freed, then release(p); p NULL marks the
 * schedule out of memory.  Returns p. */
void *sched_hold(struct sched *s, void *p, void (*release)(void *));

/* Keep dt referenced until the schedule is freed. */
void sched_hold_dt(struct sched *s, struct datatype *dt);

/* Scratch space for count elements of dt, kept as s's scratch buffer i
 * (0 to 2); the address of element 0, NULL when out of memory. */
char *nb_scratch(struct sched *s, int i, MPI_Count count, const struct datatype *dt);

/* From a step: the collective fails with MPI error class errclass (the
 * first such error is what the request reports). */
void sched_fail(struct sched *s, int errclass);

/* A new schedule on c, with the tag of c's next nonblocking collective;
 * NULL when out of memory. */
struct sched *sched_create(struct comm *c);

/* Drop a schedule that was never launched (NULL: nothing). */
void sched_destroy(struct sched *s);

/*
 * Hand s to the engine (it owns s from now on, also on failure).  With a
 * request, the user's request for it goes there; without, the call is
 * blocking: the schedule runs to its end first, in call id's name for the
 * watchdog.  Returns MPI_SUCCESS, MPI_ERR_NO_MEM (built out of memory or
 * no request), or a blocking schedule's error class.
 */
int sched_launch(struct sched *s, enum call_id id, MPI_Request *request);

/* Start the persistent collective of request r (inactive) once more. */
void sched_start(struct request *r);

/* The intracommunicator algorithms, over the communicator of sched_on: a
 * barrier; a broadcast from root; a reduction in rank order, whose result
 * is returned at member 0 (NULL elsewhere). */
void build_barrier(struct sched *s);
void build_bcast(struct sched *s, void *buf, MPI_Count count, const struct datatype *dt,
		 int root);
char *build_reduce_up(struct sched *s, const void *in, MPI_Count count,
		      const struct datatype *dt);

struct nb_side;

/* Member 0 holds acc, the blocks of receive side rs one after the other
 * (NULL at the others): member m gets block m in rs's buffer. */
void build_scatter_blocks(struct sched *s, const char *acc, const struct nb_side *rs);

/* ---- calls ---------------------------------------------------------------- */

/* Where an argument matters, or where a buffer may be MPI_IN_PLACE (on an
 * intracommunicator; coll_inter_nb.c says it for intercommunicators). */
enum nb_where { NB_NOWHERE, NB_EVERYWHERE, NB_AT_ROOT };

/*
 * The counts and displacements of a v- or w-variant as a call gives them:
 * MPI_Count and MPI_Aint (the large-count "_c" forms, MPI 4.1, section
 * 2.5.8), or int (the others, widened once the number of blocks is known).
 */
struct nb_vec {
	const MPI_Count *counts;
	const MPI_Aint *displs;
	const int *icounts, *idispls;
};

#define NB_VEC(cs, ds) ((struct nb_vec){ .icounts = (cs), .idispls = (ds) })
#define NB_VEC_C(cs, ds) ((struct nb_vec){ .counts = (cs), .displs = (ds) })

/* The n counts and displacements of v as MPI_Count and MPI_Aint (NULL
 * where v has none); what *wide points to (or NULL) is the caller's to
 * free.  0 or -ENOMEM. */
int nb_vec_widen(const struct nb_vec *v, int n, const MPI_Count **counts,
		 const MPI_Aint **displs, void **wide);

/*
 * One side (send or receive) of a call's arguments: (buf, count, type), or
 * counts and displacements (in elements of type) for the v-variants, or
 * counts, byte displacements and a type per block for the w-variants.
 * Block m is member m's (of the remote group on an intercommunicator, but
 * for reduce-scatter's of the local group), or neighbour m's for the
 * neighbourhood calls.
 */
struct nb_side {
	const void *buf;
	MPI_Count count;
	MPI_Datatype type;
	struct nb_vec vec;		/* the v- and w-variants, as given */
	const MPI_Count *counts;	/* checked: vec's, widened */
	const MPI_Aint *displs;
	void *wide;			/* the widened arrays (freed by nb_run) */
	const MPI_Datatype *types;	/* the w-variants: a type per block */
	enum nb_where used;		/* where the side's arguments matter */
	enum nb_where in_place;		/* where buf may be MPI_IN_PLACE */
	int vector;			/* counts (and displacements) are given */
	int typed;			/* types are given (the w-variants) */
	const char *const *names;	/* buffer, count, counts, displs, types */
	int n;				/* how many blocks */
	struct datatype *dt;		/* checked (not for the w-variants) */
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
	int neighborhood;	/* s.n and r.n are the degrees, set by the caller */
	void *topo;		/* the builder's (neighbourhood calls: the neighbours) */
	MPI_Request *request;
	int blocking;		/* no request: the call runs to its end */
	int persistent;		/* an init call (MPI 4.1, section 6.13): the
				 * request, inactive, runs the schedule at
				 * each start */
	MPI_Info info;		/* the init call's hints */
};

/* The forms of a call: blocking (the schedule runs to its end),
 * nonblocking (a request), persistent (an inactive request). */
#define BLOCKING_FORM(nm, i) \
	(struct nb_call){ .name = (nm), .id = (i), .blocking = 1 }
#define NB_FORM(nm, i, req) \
	(struct nb_call){ .name = (nm), .id = (i), .request = (req) }
#define INIT_FORM(nm, i, inf, req) \
	(struct nb_call){ .name = (nm), .id = (i), .request = (req), \
			  .persistent = 1, .info = (inf) }

/* The argument names of a side: buffer, count, counts, displacements,
 * types. */
extern const char *const nb_names_send[], *const nb_names_recv[];

/* Check a, build its schedule with build(s, a), start it (see above). */
int nb_run(struct nb_call *a, void (*build)(struct sched *, struct nb_call *));

/* Side sd of call a, not MPI_IN_PLACE, with sd->n blocks: counts (the v-
 * and w-variants), datatypes, buffer; sets sd->dt.  MPI_SUCCESS or the
 * class raised. */
int nb_check_args(struct nb_call *a, struct nb_side *sd);

/* The op of a reducing call, on the datatype of its checked side. */
int nb_check_op(struct nb_call *a);

/* Block m of a side: its address, count, type and packed size; the
 * counts of all sd->n blocks. */
char *blk_at(const struct nb_side *sd, int m);
MPI_Count blk_count(const struct nb_side *sd, int m);
const struct datatype *blk_dt(const struct nb_side *sd, int m);
size_t blk_bytes(const struct nb_side *sd, int m);
MPI_Count blk_total(const struct nb_side *sd);

/* ---- the intercommunicator forms (coll_inter_nb.c) -------------------------- */

/* Check call a on an intercommunicator (a->c, a->request resolved, a->s.n
 * and a->r.n the remote group's size): MPI_SUCCESS, or the class raised
 * (MPI_ERR_COMM for a call that MPI defines on intracommunicators only). */
int inter_nb_check(struct nb_call *a);

/* Build the schedule of checked call a on an intercommunicator. */
void inter_nb_build(struct sched *s, struct nb_call *a);

#endif
