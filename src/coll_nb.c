/*
 * The nonblocking collectives: MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce,
 * MPI_Iallreduce, MPI_Igather(v), MPI_Iscatter(v), MPI_Iallgather(v),
 * MPI_Ialltoall(v,w), MPI_Iscan, MPI_Iexscan, MPI_Ireduce_scatter(_block);
 * their persistent forms (MPI 4.1, section 6.13: MPI_Bcast_init and co),
 * whose request runs the schedule built at init each time it is started;
 * and the blocking MPI_Alltoallw, which runs the schedule of
 * MPI_Ialltoallw to its end.  Each also has its large-count form (MPI 4.1,
 * section 2.5.8: MPI_Ibcast_c... MPI_Alltoallw_c), the same call with
 * MPI_Count counts and MPI_Aint displacements, which is what the schedules
 * take: the int forms' arrays are widened first (struct nb_vec).  On an
 * intercommunicator the checks and the schedule are those of
 * coll_inter_nb.c.  The schedules themselves (coll_nb.h) also serve the
 * neighbourhood collectives (coll_neighbor.c) and MPI_Comm_idup (comm.c).
 *
 * Each call checks its arguments, then builds this rank's schedule (as
 * libNBC does): a list of rounds, each a few steps - internal messages
 * (on the communicator's library context, ctx + 1, with datatypes, straight
 * from and into the user's buffers), local copies and local reductions.
 * A round's local steps run and its messages start when the round begins;
 * the next round begins once every message of this one completed.  The
 * progress engine advances every schedule on each of its passes (a hook,
 * progress_hook_add), so the collectives follow the progress mode: under
 * weak progress they move while some MPI call of this rank runs the engine,
 * under strong progress the progress thread moves them.  The user's request
 * (REQ_COLL) completes when the last round did; it owns the schedule.
 * Local steps run wherever the engine runs: under strong progress a user
 * op may be called on the progress thread (while the application thread
 * computes), so it must not rely on being called from the application's.
 *
 * Tags: the standard has every member start the collectives of a
 * communicator in the same order, so the n-th nonblocking collective of a
 * communicator is the n-th on every member, and its messages carry tag
 * -2 - (n mod 2^29).  The blocking calls that run a schedule
 * (MPI_Alltoallw, the neighbourhood collectives) count in the same
 * sequence, which stays the same on every member since those are
 * collectives too.  The library's other messages on ctx + 1 use tags >= 0
 * and the other blocking collectives use the shared collective area, so
 * none of them ever match ours, and several nonblocking collectives may be
 * outstanding at once, completing in any order.  Within one schedule,
 * messages between the same two members are matched in the order they are
 * sent, since receives are posted round by round (non-overtaking).  The counter n lives
 * in an attribute the library caches on the communicator (not copied by
 * MPI_Comm_dup, freed with the communicator).
 *
 * Algorithms (a node has few cores: latency and few rounds first):
 * barrier by dissemination (ceil(log2 p) rounds), broadcast down a binomial
 * tree, reduce up a binomial tree over ranks in order (member r combines
 * the range [r, r + 2^k) as (its range) op (the next), so the result is
 * x0 op x1 op ... op xp-1 for any associative op, commutative or not) and
 * then to the root, allreduce as that reduce plus a broadcast; gather(v),
 * scatter(v), allgather(v) and alltoall(v,w) post every message at once.
 * Scan and exscan by recursive doubling (ceil(log2 p) rounds): in round k
 * member r sends what it has of [r - 2^k + 1, r] to r + 2^k and puts what
 * r - 2^k sends, the range just below, on the left of its own, so the
 * order of the ranks holds for any associative op.  Reduce-scatter is the
 * reduce up the tree to member 0, which then sends each member its block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "attr.h"
#include "coll_nb.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "info.h"
#include "op.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"
#include "state.h"

#define NB_TAG_MASK 0x1fffffffu

/* ---- schedules ------------------------------------------------------------ */

enum step_kind {
	STEP_SEND,
	STEP_RECV,
	STEP_COPY,	/* bytes of packed data from (src, sdt) to (dst, dt) */
	STEP_REDUCE,	/* dst = src op dst, count elements of dt */
	STEP_CALL,	/* fn(s, arg) */
	STEP_ROUND,	/* the end of a round */
};

struct step {
	enum step_kind kind;
	struct request req;	/* send, recv: the message (no references held),
				 * made anew each time the step begins */
	struct comm *c;		/* send, recv: whose member peer is */
	int peer;
	const void *src;	/* send: the data */
	void *dst;		/* recv: the buffer */
	const struct datatype *sdt, *dt;
	MPI_Count count;
	size_t bytes;
	sched_fn_t fn;
	void *arg;
};

/* What a schedule keeps until it is freed. */
struct held {
	void *p;
	void (*release)(void *);
};

struct sched {
	struct request *req;	/* the user's request (owns the schedule) */
	struct comm *comm;	/* the call's communicator (referenced) */
	struct comm *c;		/* whose ranks the steps added next name (sched_on) */
	int tag;
	struct step *steps;
	int nsteps, cap;
	int nomem;		/* building ran out of memory */
	int at;			/* the first step of the current round */
	int round_end;		/* the step ending it, -1 before it began */
	struct op *op;		/* referenced */
	struct datatype *dts[2];	/* referenced */
	void *tmp[3];		/* scratch buffers (malloc'd) */
	struct held *held;	/* sched_hold */
	int nheld, held_cap;
	int error;		/* sched_fail: the first error class */
	struct sched *next, *prev;	/* the active list */
};

/* Schedules under way; the engine's lock guards the list. */
static struct sched *active;

static void sched_free(void *arg)
{
	struct sched *s = arg;

	if (!s)
		return;
	for (int i = s->nheld - 1; i >= 0; i--)
		s->held[i].release(s->held[i].p);
	free(s->held);
	for (int i = 0; i < 3; i++)
		free(s->tmp[i]);
	for (int i = 0; i < 2; i++)
		dt_unref(s->dts[i]);
	op_unref(s->op);
	comm_unref(s->comm);
	free(s->steps);
	free(s);
}

void sched_destroy(struct sched *s)
{
	sched_free(s);
}

static struct step *sched_add(struct sched *s, enum step_kind kind)
{
	struct step *st;

	if (s->nsteps == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct step *more = realloc(s->steps, sizeof(*more) * (size_t)cap);

		if (!more) {
			s->nomem = 1;
			return NULL;
		}
		s->steps = more;
		s->cap = cap;
	}
	st = &s->steps[s->nsteps++];
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	return st;
}

void sched_on(struct sched *s, struct comm *c)
{
	s->c = c;
}

/* A message of count elements of dt to or from member peer. */
static void sched_msg(struct sched *s, enum step_kind kind, int peer, const void *buf,
		      MPI_Count count, const struct datatype *dt)
{
	struct step *st = sched_add(s, kind);

	if (!st)
		return;
	st->c = s->c;
	st->peer = peer;
	st->src = buf;
	st->dst = (void *)buf;
	st->dt = dt;
	st->count = count;
}

/* The request of message step st, as it is before the message begins. */
static void step_msg_prepare(const struct sched *s, struct step *st)
{
	struct request *r = &st->req;

	memset(r, 0, sizeof(*r));
	r->kind = st->kind == STEP_SEND ? REQ_SEND : REQ_RECV;
	r->handle = MPI_REQUEST_NULL;
	r->comm = st->c;
	r->ctx = st->c->ctx + 1;
	r->dt = (struct datatype *)st->dt;
	r->peer = st->peer;
	r->tag = s->tag;
	r->count = st->count;
	r->bytes = (size_t)st->count * (size_t)st->dt->size;
	if (st->kind == STEP_SEND) {
		r->sbuf = st->src;
		r->peer_world = comm_world_rank(st->c, st->peer);
		r->mode = SEND_STANDARD;
	} else {
		r->rbuf = st->dst;
	}
}

void sched_send(struct sched *s, int peer, const void *buf, MPI_Count count,
		const struct datatype *dt)
{
	sched_msg(s, STEP_SEND, peer, buf, count, dt);
}

void sched_recv(struct sched *s, int peer, void *buf, MPI_Count count,
		const struct datatype *dt)
{
	sched_msg(s, STEP_RECV, peer, buf, count, dt);
}

static void sched_local(struct sched *s, enum step_kind kind, const void *src,
			const struct datatype *sdt, void *dst, const struct datatype *dt,
			MPI_Count count)
{
	struct step *st = sched_add(s, kind);

	if (!st)
		return;
	st->src = src;
	st->sdt = sdt;
	st->dst = dst;
	st->dt = dt;
	st->count = count;
	st->bytes = (size_t)count * (size_t)sdt->size;
}

void sched_call(struct sched *s, sched_fn_t fn, void *arg)
{
	struct step *st = sched_add(s, STEP_CALL);

	if (!st)
		return;
	st->fn = fn;
	st->arg = arg;
}

void sched_round(struct sched *s)
{
	if (s->nsteps && s->steps[s->nsteps - 1].kind != STEP_ROUND)
		sched_add(s, STEP_ROUND);
}

void *sched_hold(struct sched *s, void *p, void (*release)(void *))
{
	if (p && s->nheld == s->held_cap) {
		int cap = s->held_cap ? 2 * s->held_cap : 8;
		struct held *more = realloc(s->held, sizeof(*more) * (size_t)cap);

		if (!more) {
			release(p);
			p = NULL;
		} else {
			s->held = more;
			s->held_cap = cap;
		}
	}
	if (!p) {
		s->nomem = 1;
		return NULL;
	}
	s->held[s->nheld++] = (struct held){ p, release };
	return p;
}

static void hold_dt_release(void *p)
{
	dt_unref(p);
}

void sched_hold_dt(struct sched *s, struct datatype *dt)
{
	if (!dt || handle_is_builtin(dt->handle))
		return;
	dt_ref(dt);
	sched_hold(s, dt, hold_dt_release);
}

void sched_fail(struct sched *s, int errclass)
{
	if (s->error == MPI_SUCCESS)
		s->error = errclass;
}

static void step_begin(struct sched *s, struct step *st)
{
	switch (st->kind) {
	case STEP_SEND:
		step_msg_prepare(s, st);
		progress_send_start(&st->req);
		break;
	case STEP_RECV:
		step_msg_prepare(s, st);
		progress_recv_post(&st->req);
		break;
	case STEP_COPY:
		dt_copy(st->src, st->sdt, st->dst, st->dt, st->bytes);
		break;
	case STEP_REDUCE:
		op_reduce(s->op, st->src, st->dst, st->count, st->dt);
		break;
	case STEP_CALL:
		st->fn(s, st->arg);
		break;
	case STEP_ROUND:
		break;
	}
}

/* Whether the messages of the current round completed; the first error
 * (a truncated receive) goes to the user's request. */
static int round_done(struct sched *s)
{
	for (int i = s->at; i < s->round_end; i++) {
		struct step *st = &s->steps[i];

		if (st->kind != STEP_SEND && st->kind != STEP_RECV)
			continue;
		if (!req_is_complete(&st->req))
			return 0;
		if (st->req.st_error != MPI_SUCCESS && s->req->st_error == MPI_SUCCESS)
			s->req->st_error = st->req.st_error;
	}
	return 1;
}

/*
 * Take s as far as it goes now (under the engine's lock); returns nonzero
 * when something moved.  The user's request completes last: from then on
 * the application thread may release it, and the schedule with it.
 */
static int sched_advance(struct sched *s)
{
	int moved = 0, i;

	for (;;) {
		if (s->round_end >= 0) {
			if (!round_done(s))
				return moved;
			s->at = s->round_end + 1;
			s->round_end = -1;
		}
		if (s->at >= s->nsteps)
			break;
		for (i = s->at; i < s->nsteps && s->steps[i].kind != STEP_ROUND; i++)
			step_begin(s, &s->steps[i]);
		s->round_end = i;
		moved = 1;
	}
	if (s->prev)
		s->prev->next = s->next;
	else
		active = s->next;
	if (s->next)
		s->next->prev = s->prev;
	if (s->error != MPI_SUCCESS && s->req->st_error == MPI_SUCCESS)
		s->req->st_error = s->error;
	req_complete(s->req);
	return 1;
}

/* The engine's hook: every schedule under way, as far as it goes. */
static int nb_progress(void)
{
	int moved = 0;

	for (struct sched *s = active, *next; s; s = next) {
		next = s->next;
		moved += sched_advance(s);
	}
	return moved;
}

/* ---- the per-communicator sequence ---------------------------------------- */

static int nb_keyval = MPI_KEYVAL_INVALID;

static int nb_seq_delete(int obj, int keyval, void *value, void *extra)
{
	(void)obj;
	(void)keyval;
	(void)extra;
	free(value);
	return MPI_SUCCESS;
}

/* The tag of c's next nonblocking collective; 0 or -ENOMEM. */
static int nb_next_tag(struct comm *c, int *tag)
{
	uint32_t *seq;
	void *value;
	int flag = 0;

	if (nb_keyval == MPI_KEYVAL_INVALID &&
	    attr_keyval_create(ATTR_COMM, NULL, nb_seq_delete, NULL, &nb_keyval) !=
	    MPI_SUCCESS)
		return -ENOMEM;
	attr_get(c->attrs, nb_keyval, &value, &flag);
	seq = flag ? value : NULL;
	if (!seq) {
		seq = calloc(1, sizeof(*seq));
		if (!seq)
			return -ENOMEM;
		if (attr_set(ATTR_COMM, c->handle, &c->attrs, nb_keyval, seq) !=
		    MPI_SUCCESS) {
			free(seq);
			return -ENOMEM;
		}
	}
	*tag = -2 - (int)(*seq & NB_TAG_MASK);
	++*seq;
	return 0;
}

/* ---- arguments ------------------------------------------------------------ */

/* The argument names of a side: buffer, count, counts, displacements,
 * types. */
const char *const nb_names_send[] = { "sendbuf", "sendcount", "sendcounts", "sdispls",
				      "sendtypes" };
const char *const nb_names_recv[] = { "recvbuf", "recvcount", "recvcounts", "rdispls",
				      "recvtypes" };
static const char *const names_recvv[] = { "recvbuf", "recvcount", "recvcounts",
					   "displs", NULL };
static const char *const names_sendv[] = { "sendbuf", "sendcount", "sendcounts",
					   "displs", NULL };
static const char *const names_bcast[] = { "buffer", "count", NULL, NULL, NULL };
static const char *const names_rsend[] = { "sendbuf", "count", NULL, NULL, NULL };
static const char *const names_rrecv[] = { "recvbuf", "count", NULL, NULL, NULL };
/* reduce-scatter: counts, no displacements (blocks follow each other) */
static const char *const names_rscounts[] = { "recvbuf", NULL, "recvcounts", NULL, NULL };
static const char *const names_rssend[] = { "sendbuf", "recvcount", NULL, NULL, NULL };
static const char *const names_rsrecv[] = { "recvbuf", "recvcount", NULL, NULL, NULL };

static int nb_where_here(enum nb_where w, const struct nb_call *a)
{
	int root = !a->rooted || a->c->rank == a->root;

	return w == NB_EVERYWHERE || (w == NB_AT_ROOT && root);
}

/* The w-variants: every block's type, a committed one. */
static int nb_check_types(struct nb_call *a, const struct nb_side *sd)
{
	for (int m = 0; m < sd->n; m++) {
		const struct datatype *dt = dt_get(sd->types[m]);

		if (!dt || !dt->committed)
			return err_comm(a->comm, a->name, MPI_ERR_TYPE, sd->names[4],
					"element %d %s", m,
					sd->types[m] == MPI_DATATYPE_NULL ?
					"is MPI_DATATYPE_NULL" : !dt ?
					"is not a valid datatype" : "is not committed");
	}
	return MPI_SUCCESS;
}

static int nb_check_side(struct nb_call *a, struct nb_side *sd)
{
	if (!nb_where_here(sd->used, a))
		return MPI_SUCCESS;
	if (sd->buf == MPI_IN_PLACE) {
		if (!nb_where_here(sd->in_place, a))
			return err_comm(a->comm, a->name, MPI_ERR_BUFFER, sd->names[0],
					sd->in_place == NB_AT_ROOT ?
					"MPI_IN_PLACE is for the root only" :
					"may not be MPI_IN_PLACE");
		return MPI_SUCCESS;
	}
	return nb_check_args(a, sd);
}

int nb_vec_widen(const struct nb_vec *v, int n, const MPI_Count **counts,
		 const MPI_Aint **displs, void **wide)
{
	MPI_Count *c;
	MPI_Aint *d;

	*counts = v->counts;
	*displs = v->displs;
	*wide = NULL;
	if (!v->icounts && !v->idispls)
		return 0;
	*wide = malloc((sizeof(*c) + sizeof(*d)) * (size_t)(n > 0 ? n : 1));
	if (!*wide)
		return -ENOMEM;
	c = *wide;
	d = (MPI_Aint *)(c + (n > 0 ? n : 1));
	for (int m = 0; m < n; m++) {
		if (v->icounts)
			c[m] = v->icounts[m];
		if (v->idispls)
			d[m] = v->idispls[m];
	}
	if (v->icounts)
		*counts = c;
	if (v->idispls)
		*displs = d;
	return 0;
}

int nb_check_args(struct nb_call *a, struct nb_side *sd)
{
	const char *const *n = sd->names;

	if (sd->vector) {
		int no_displs;

		if (nb_vec_widen(&sd->vec, sd->n, &sd->counts, &sd->displs, &sd->wide) < 0)
			return err_comm(a->comm, a->name, MPI_ERR_NO_MEM, NULL, "out of memory");
		no_displs = n[3] && !sd->displs;
		if (!sd->counts || no_displs || (sd->typed && !sd->types))
			return err_comm(a->comm, a->name, MPI_ERR_ARG,
					!sd->counts ? n[2] : no_displs ? n[3] : n[4],
					"is NULL");
		for (int m = 0; m < sd->n; m++)
			if (sd->counts[m] < 0)
				return err_comm(a->comm, a->name, MPI_ERR_COUNT, n[2],
						"element %d is negative (%lld)", m,
						(long long)sd->counts[m]);
	} else if (sd->count < 0) {
		return err_comm(a->comm, a->name, MPI_ERR_COUNT, n[1], "%lld is negative",
				(long long)sd->count);
	}
	if (sd->typed)
		return nb_check_types(a, sd);
	if (dt_check_use(a->comm, a->name, sd->type, &sd->dt) != MPI_SUCCESS)
		return MPI_ERR_TYPE;
	if (!sd->buf && !sd->vector && sd->count > 0 && sd->dt->size > 0 &&
	    handle_is_builtin(sd->type))
		return err_comm(a->comm, a->name, MPI_ERR_BUFFER, n[0], "is NULL");
	return MPI_SUCCESS;
}

int nb_check_op(struct nb_call *a)
{
	const struct datatype *dt = a->s.dt ? a->s.dt : a->r.dt;

	a->o = op_get(a->op);
	if (!a->o)
		return err_comm(a->comm, a->name, MPI_ERR_OP, "op",
				a->op == MPI_OP_NULL ? "is MPI_OP_NULL" :
				"0x%x is not a valid op", (unsigned)a->op);
	if (op_kind(a->o) == OP_REPLACE || op_kind(a->o) == OP_NO_OP)
		return err_comm(a->comm, a->name, MPI_ERR_OP, "op",
				"MPI_REPLACE and MPI_NO_OP are for RMA only");
	if (dt && op_check(a->o, dt) != MPI_SUCCESS)
		return err_comm(a->comm, a->name, MPI_ERR_OP, "op",
				"is not defined on %s", dt->name);
	return MPI_SUCCESS;
}

/* Check every argument of call a; MPI_SUCCESS or the class raised. */
static int nb_check(struct nb_call *a)
{
	int rc;

	a->c = comm_get(a->comm);
	if (!a->c)
		return comm_err_invalid(a->comm, a->name);
	if (!a->request && !a->blocking)
		return err_comm(a->comm, a->name, MPI_ERR_ARG, "request", "is NULL");
	if (a->persistent && a->info != MPI_INFO_NULL && !info_get(a->info))
		return err_comm(a->comm, a->name, MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)a->info);
	if (!a->neighborhood)
		a->s.n = a->r.n = comm_peer_size(a->c);
	if (a->c->remote)
		return inter_nb_check(a);
	if (a->rooted && (a->root < 0 || a->root >= a->c->size))
		return err_comm(a->comm, a->name, MPI_ERR_ROOT, "root",
				"%d is not a rank of %s (size %d)", a->root, a->c->name,
				a->c->size);
	if ((rc = nb_check_side(a, &a->s)) != MPI_SUCCESS ||
	    (rc = nb_check_side(a, &a->r)) != MPI_SUCCESS)
		return rc;
	if (a->reducing && (rc = nb_check_op(a)) != MPI_SUCCESS)
		return rc;
	/* MPI_IN_PLACE stands for (part of) the other side's buffer */
	if (a->s.buf == MPI_IN_PLACE)
		a->s.dt = a->r.dt;
	if (a->r.buf == MPI_IN_PLACE)
		a->r.dt = a->s.dt;
	return MPI_SUCCESS;
}

/* ---- building blocks ------------------------------------------------------- */

struct sched *sched_create(struct comm *c)
{
	struct sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->comm = s->c = c;
	comm_ref(c);
	s->round_end = -1;
	if (nb_next_tag(c, &s->tag) < 0) {
		sched_free(s);
		return NULL;
	}
	return s;
}

/* A schedule for call a, holding its datatypes and op; NULL when out of
 * memory. */
static struct sched *nb_sched_new(struct nb_call *a)
{
	struct sched *s = sched_create(a->c);

	if (!s)
		return NULL;
	s->dts[0] = a->s.dt;
	s->dts[1] = a->r.dt != a->s.dt ? a->r.dt : NULL;
	for (int i = 0; i < 2; i++)
		if (s->dts[i])
			dt_ref(s->dts[i]);
	/* the w-variants: the type of every block that is used */
	for (int m = 0; a->s.types && a->s.buf != MPI_IN_PLACE && m < a->s.n; m++)
		sched_hold_dt(s, dt_get(a->s.types[m]));
	for (int m = 0; a->r.types && m < a->r.n; m++)
		sched_hold_dt(s, dt_get(a->r.types[m]));
	s->op = a->o;
	if (s->op)
		op_ref(s->op);
	return s;
}

/* Scratch space for count elements of dt, kept as s->tmp[i]; returns the
 * address of element 0 (NULL when out of memory). */
char *nb_scratch(struct sched *s, int i, MPI_Count count, const struct datatype *dt)
{
	MPI_Aint lo = 0, hi = 0;

	if (dt_span(dt, count, &lo, &hi) < 0) {
		s->nomem = 1;
		return NULL;
	}
	s->tmp[i] = malloc((size_t)(hi - lo) + 1);
	if (!s->tmp[i]) {
		s->nomem = 1;
		return NULL;
	}
	return (char *)s->tmp[i] - lo;
}

static int sched_req_done(void *arg)
{
	return req_is_complete(arg);
}

/* The user's request r for schedule s, which owns it. */
static void sched_bind(struct sched *s, struct request *r)
{
	r->comm = s->comm;
	comm_ref(s->comm);
	r->peer = MPI_PROC_NULL;
	r->peer_world = -1;
	r->tag = s->tag;
	r->owner = s;
	r->owner_free = sched_free;
	s->req = r;
}

/* Run s from its first step: on the active list, as far as it goes now. */
static void sched_go(struct sched *s)
{
	progress_hook_add(nb_progress);
	progress_lock();
	s->at = 0;
	s->round_end = -1;
	s->error = MPI_SUCCESS;
	s->prev = NULL;
	s->next = active;
	if (active)
		active->prev = s;
	active = s;
	sched_advance(s);
	progress_unlock();
}

int sched_launch(struct sched *s, enum call_id id, MPI_Request *request)
{
	struct request *r = s && !s->nomem ? req_new(REQ_COLL, request != NULL) : NULL;
	int rc = MPI_SUCCESS;

	if (!r) {
		sched_free(s);
		return MPI_ERR_NO_MEM;
	}
	sched_bind(s, r);
	sched_go(s);
	if (request) {
		/* the engine has work of ours left: the watchdog names this call */
		if (!req_is_complete(r))
			state_left(id);
		*request = r->handle;
		return MPI_SUCCESS;
	}
	if (!req_is_complete(r)) {
		state_block(id, WAIT_COLL_DATA, -1, s->tag, s->comm->ctx);
		progress_wait(sched_req_done, r);
		state_unblock(id);
	}
	rc = r->st_error;
	req_release(r);
	return rc;
}

/*
 * Persistent collectives (MPI 4.1, section 6.13).  The init call builds
 * the schedule once, with its tag: init calls are collective and ordered
 * like the other collectives of the communicator, so the n-th tag of the
 * communicator's sequence names the same request on every member, and no
 * other collective, nonblocking or persistent, shares it.  Every start
 * runs the same steps again from the first (each message step makes its
 * request anew).  Two runs of one request never overlap on a member (a
 * start needs the request inactive), and a member's messages of one run
 * are all sent before any of its next run: since messages with the same
 * tag between two members match in the order they are sent (MPI 4.1,
 * section 3.5), a member that is a run ahead cannot take the place of the
 * run before.  The schedule's input copies are steps of its first round,
 * so each run reads the buffers as they are when it starts.
 */
static int sched_persist(struct sched *s, MPI_Request *request)
{
	struct request *r = s && !s->nomem ? req_new(REQ_COLL, 1) : NULL;

	if (!r) {
		sched_free(s);
		return MPI_ERR_NO_MEM;
	}
	sched_bind(s, r);
	r->persistent = 1;
	*request = r->handle;
	return MPI_SUCCESS;
}

void sched_start(struct request *r)
{
	/* relaxed: the engine has not seen the request since its last run
	 * ended; handing the schedule over (under the engine's lock) orders
	 * this */
	atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
	r->active = 1;
	r->st_error = MPI_SUCCESS;
	sched_go(r->owner);
	if (!req_is_complete(r))
		state_left(CALL_START);
}

/* Hand the built schedule to the engine and, unless blocking, the request
 * to the user. */
static int nb_start(struct nb_call *a, struct sched *s)
{
	int rc = a->persistent ? sched_persist(s, a->request) :
		 sched_launch(s, a->id, a->blocking ? NULL : a->request);

	if (rc == MPI_ERR_NO_MEM)
		return err_comm(a->comm, a->name, rc, NULL, "out of memory");
	if (rc != MPI_SUCCESS)
		return err_comm(a->comm, a->name, rc, NULL, rc == MPI_ERR_TRUNCATE ?
				"a message is longer than its receive buffer" :
				"the collective failed");
	return MPI_SUCCESS;
}

/* Block m of a side: its address, count and type. */
const struct datatype *blk_dt(const struct nb_side *sd, int m)
{
	return sd->types ? dt_get(sd->types[m]) : sd->dt;
}

char *blk_at(const struct nb_side *sd, int m)
{
	if (sd->types)
		return (char *)sd->buf + sd->displs[m];
	return (char *)sd->buf +
	       (sd->displs ? sd->displs[m] : (MPI_Aint)m * sd->count) * sd->dt->extent;
}

MPI_Count blk_count(const struct nb_side *sd, int m)
{
	return sd->counts ? sd->counts[m] : sd->count;
}

size_t blk_bytes(const struct nb_side *sd, int m)
{
	return (size_t)blk_count(sd, m) * (size_t)blk_dt(sd, m)->size;
}

/* ---- the algorithms -------------------------------------------------------- */

void build_barrier(struct sched *s)
{
	static char none;
	int p = s->c->size, r = s->c->rank;

	for (int k = 1; k < p; k <<= 1) {
		sched_send(s, (r + k) % p, &none, 0, dt_get(MPI_BYTE));
		sched_recv(s, (r - k + p) % p, &none, 0, dt_get(MPI_BYTE));
		sched_round(s);
	}
}

/* Binomial tree from root: receive from the parent, then send on. */
void build_bcast(struct sched *s, void *buf, MPI_Count count, const struct datatype *dt,
		 int root)
{
	int p = s->c->size, v = (s->c->rank - root + p) % p, mask = 1;

	if (count == 0 || dt->size == 0)
		return;
	for (; mask < p; mask <<= 1)
		if (v & mask) {
			sched_recv(s, (v - mask + root) % p, buf, count, dt);
			sched_round(s);
			break;
		}
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v + mask < p)
			sched_send(s, (v + mask + root) % p, buf, count, dt);
	sched_round(s);
}

/*
 * Reduce in rank order up a binomial tree to member 0: member r holds the
 * result of [r, r + mask) and combines it with [r + mask, r + 2 mask) from
 * member r + mask as (its own) op (the received).  Returns the buffer
 * holding the result at member 0 (NULL elsewhere).
 */
char *build_reduce_up(struct sched *s, const void *in, MPI_Count count,
		      const struct datatype *dt)
{
	int p = s->c->size, r = s->c->rank;
	char *acc = nb_scratch(s, 0, count, dt), *other = NULL;

	if (!acc)
		return NULL;
	/* the input as it is when the schedule (re)starts */
	sched_local(s, STEP_COPY, in, dt, acc, dt, count);
	for (int mask = 1; mask < p; mask <<= 1) {
		char *t;

		if (r & mask) {
			sched_send(s, r - mask, acc, count, dt);
			sched_round(s);
			return NULL;
		}
		if (r + mask >= p)
			continue;
		if (!other && !(other = nb_scratch(s, 1, count, dt)))
			return NULL;
		sched_recv(s, r + mask, other, count, dt);
		sched_round(s);
		sched_local(s, STEP_REDUCE, acc, dt, other, dt, count);
		t = acc;
		acc = other;
		other = t;
	}
	return acc;
}

static void build_reduce(struct sched *s, const void *in, void *out, MPI_Count count,
			 const struct datatype *dt, int root)
{
	int r = s->c->rank;
	char *acc;

	if (count == 0 || dt->size == 0)
		return;
	acc = build_reduce_up(s, in, count, dt);
	if (r == 0 && acc && root == 0)
		sched_local(s, STEP_COPY, acc, dt, out, dt, count);
	else if (r == 0 && acc)
		sched_send(s, root, acc, count, dt);
	else if (r == root)
		sched_recv(s, 0, out, count, dt);
	sched_round(s);
}

static void build_allreduce(struct sched *s, const void *in, void *out,
			    MPI_Count count, const struct datatype *dt)
{
	char *acc;

	if (count == 0 || dt->size == 0)
		return;
	acc = build_reduce_up(s, in, count, dt);
	if (acc) {
		sched_local(s, STEP_COPY, acc, dt, out, dt, count);
		sched_round(s);
	}
	build_bcast(s, out, count, dt, 0);
}

/* Rooted gather (gather: to root) or scatter (from root): the root's side
 * is `many` (a block per member), every member's is `one`. */
static void build_rooted(struct sched *s, const struct nb_side *many,
			 const struct nb_side *one, int root, int gather)
{
	int p = s->c->size, r = s->c->rank;

	if (r != root) {
		if (one->count > 0 && one->dt->size > 0) {
			if (gather)
				sched_send(s, root, one->buf, one->count, one->dt);
			else
				sched_recv(s, root, (void *)one->buf, one->count, one->dt);
		}
		sched_round(s);
		return;
	}
	for (int k = 1; k < p; k++) {
		int m = (r + k) % p;

		if (!blk_bytes(many, m))
			continue;
		if (gather)
			sched_recv(s, m, blk_at(many, m), blk_count(many, m), many->dt);
		else
			sched_send(s, m, blk_at(many, m), blk_count(many, m), many->dt);
	}
	/* the root's own block, unless MPI_IN_PLACE says it is there */
	if (one->buf != MPI_IN_PLACE && gather)
		sched_local(s, STEP_COPY, one->buf, one->dt, blk_at(many, r), many->dt,
			    one->count);
	else if (one->buf != MPI_IN_PLACE)
		sched_local(s, STEP_COPY, blk_at(many, r), many->dt, (void *)one->buf,
			    one->dt, blk_count(many, r));
	sched_round(s);
}

/*
 * Every member sends block m of `snd` to member m and receives member m's
 * into block m of `rcv`, all at once; `same` sends the one block of snd to
 * everybody (allgather).  The own block is copied locally unless in place.
 */
static void build_exchange(struct sched *s, const struct nb_side *snd,
			   const struct nb_side *rcv, int same, int in_place)
{
	int p = s->c->size, r = s->c->rank;

	for (int k = 1; k < p; k++) {
		int to = (r + k) % p, from = (r - k + p) % p;

		if (blk_bytes(rcv, from))
			sched_recv(s, from, blk_at(rcv, from), blk_count(rcv, from),
				   blk_dt(rcv, from));
		if (same && snd->count > 0 && snd->dt->size > 0)
			sched_send(s, to, snd->buf, snd->count, snd->dt);
		else if (!same && blk_bytes(snd, to))
			sched_send(s, to, blk_at(snd, to), blk_count(snd, to), blk_dt(snd, to));
	}
	if (!in_place)
		sched_local(s, STEP_COPY, same ? snd->buf : blk_at(snd, r),
			    same ? snd->dt : blk_dt(snd, r), blk_at(rcv, r), blk_dt(rcv, r),
			    same ? snd->count : blk_count(snd, r));
	sched_round(s);
}

/* MPI_IN_PLACE in alltoall(v): what to send is what recvbuf holds when
 * the schedule starts, so a copy of it becomes the send side (kept as
 * s->tmp[2]). */
static int snapshot_recv_side(struct sched *s, struct nb_side *snd,
			      const struct nb_side *rcv)
{
	MPI_Aint lo = 0, hi = 0;
	int any = 0;

	for (int m = 0; m < rcv->n; m++) {
		MPI_Aint blo, bhi, at = (blk_at(rcv, m) - (const char *)rcv->buf);

		if (!blk_bytes(rcv, m) ||
		    dt_span(blk_dt(rcv, m), blk_count(rcv, m), &blo, &bhi) < 0)
			continue;
		if (!any || at + blo < lo)
			lo = at + blo;
		if (!any || at + bhi > hi)
			hi = at + bhi;
		any = 1;
	}
	s->tmp[2] = malloc((size_t)(hi - lo) + 1);
	if (!s->tmp[2])
		return -ENOMEM;
	/* the first step: before any receive lands in recvbuf */
	sched_local(s, STEP_COPY, (const char *)rcv->buf + lo, dt_get(MPI_BYTE), s->tmp[2],
		    dt_get(MPI_BYTE), hi - lo);
	*snd = *rcv;
	snd->buf = (char *)s->tmp[2] - lo;
	return 0;
}

/* ---- the calls ------------------------------------------------------------- */

int nb_run(struct nb_call *a, void (*build)(struct sched *, struct nb_call *))
{
	struct sched *s;
	int rc = nb_check(a);

	if (rc == MPI_SUCCESS) {
		s = nb_sched_new(a);
		if (s)
			(a->c->remote ? inter_nb_build : build)(s, a);
		rc = nb_start(a, s);
	}
	/* building read the counts and displacements: they go */
	free(a->s.wide);
	free(a->r.wide);
	return rc;
}

static void run_barrier(struct sched *s, struct nb_call *a)
{
	(void)a;
	build_barrier(s);
}

static void run_bcast(struct sched *s, struct nb_call *a)
{
	build_bcast(s, (void *)a->s.buf, a->s.count, a->s.dt, a->root);
}

static void run_reduce(struct sched *s, struct nb_call *a)
{
	const void *in = a->s.buf == MPI_IN_PLACE ? a->r.buf : a->s.buf;

	build_reduce(s, in, (void *)a->r.buf, a->s.count, a->s.dt, a->root);
}

static void run_allreduce(struct sched *s, struct nb_call *a)
{
	const void *in = a->s.buf == MPI_IN_PLACE ? a->r.buf : a->s.buf;

	build_allreduce(s, in, (void *)a->r.buf, a->r.count, a->r.dt);
}

static void run_gather(struct sched *s, struct nb_call *a)
{
	build_rooted(s, &a->r, &a->s, a->root, 1);
}

static void run_scatter(struct sched *s, struct nb_call *a)
{
	build_rooted(s, &a->s, &a->r, a->root, 0);
}

static void run_allgather(struct sched *s, struct nb_call *a)
{
	struct nb_side own = a->s;

	/* in place, our block of recvbuf is what we send */
	if (a->s.buf == MPI_IN_PLACE) {
		own.buf = blk_at(&a->r, a->c->rank);
		own.count = blk_count(&a->r, a->c->rank);
	}
	build_exchange(s, &own, &a->r, 1, a->s.buf == MPI_IN_PLACE);
}

static void run_alltoall(struct sched *s, struct nb_call *a)
{
	struct nb_side snd = a->s;

	if (a->s.buf == MPI_IN_PLACE && snapshot_recv_side(s, &snd, &a->r) < 0) {
		s->nomem = 1;
		return;
	}
	build_exchange(s, &snd, &a->r, 0, a->s.buf == MPI_IN_PLACE);
}

/*
 * Inclusive (scan) or exclusive (exscan) prefix reduction by recursive
 * doubling: after round k, acc holds [r - 2^(k+1) + 1, r] and excl the
 * same without r itself (ranks below 0 left out); what member r - 2^k
 * sends goes on the left.  Member 0 gets no exscan result.
 */
static void build_scan(struct sched *s, const void *in, void *out, MPI_Count count,
		       const struct datatype *dt, int exclusive)
{
	int p = s->c->size, r = s->c->rank, got = 0;
	char *acc, *tmp, *excl = NULL;

	if (count == 0 || dt->size == 0)
		return;
	acc = nb_scratch(s, 0, count, dt);
	tmp = nb_scratch(s, 1, count, dt);
	if (exclusive)
		excl = nb_scratch(s, 2, count, dt);
	if (!acc || !tmp || (exclusive && !excl))
		return;
	sched_local(s, STEP_COPY, in, dt, acc, dt, count);
	for (int dist = 1; dist < p; dist <<= 1) {
		if (r + dist < p)
			sched_send(s, r + dist, acc, count, dt);
		if (r - dist < 0) {
			sched_round(s);
			continue;
		}
		sched_recv(s, r - dist, tmp, count, dt);
		sched_round(s);
		if (exclusive)
			sched_local(s, got ? STEP_REDUCE : STEP_COPY, tmp, dt, excl, dt, count);
		sched_local(s, STEP_REDUCE, tmp, dt, acc, dt, count);
		got = 1;
	}
	if (!exclusive || got)
		sched_local(s, STEP_COPY, exclusive ? excl : acc, dt, out, dt, count);
	sched_round(s);
}

static void run_scan(struct sched *s, struct nb_call *a)
{
	const void *in = a->s.buf == MPI_IN_PLACE ? a->r.buf : a->s.buf;

	build_scan(s, in, (void *)a->r.buf, a->r.count, a->r.dt, 0);
}

static void run_exscan(struct sched *s, struct nb_call *a)
{
	const void *in = a->s.buf == MPI_IN_PLACE ? a->r.buf : a->s.buf;

	build_scan(s, in, (void *)a->r.buf, a->r.count, a->r.dt, 1);
}

MPI_Count blk_total(const struct nb_side *sd)
{
	MPI_Count total = 0;

	for (int m = 0; m < sd->n; m++)
		total += blk_count(sd, m);
	return total;
}

void build_scatter_blocks(struct sched *s, const char *acc, const struct nb_side *rs)
{
	const struct datatype *dt = rs->dt;
	int p = s->c->size, r = s->c->rank;
	MPI_Count at = 0;

	for (int m = 0; acc && m < p; at += blk_count(rs, m), m++) {
		if (!blk_count(rs, m))
			continue;
		if (m == r)
			sched_local(s, STEP_COPY, acc + at * dt->extent, dt, (void *)rs->buf, dt,
				    blk_count(rs, m));
		else
			sched_send(s, m, acc + at * dt->extent, blk_count(rs, m), dt);
	}
	if (r != 0 && blk_count(rs, r))
		sched_recv(s, 0, (void *)rs->buf, blk_count(rs, r), dt);
	sched_round(s);
}

/* Reduce-scatter: the whole vector reduced up the tree to member 0, which
 * scatters its blocks. */
static void run_reduce_scatter(struct sched *s, struct nb_call *a)
{
	const void *in = a->s.buf == MPI_IN_PLACE ? a->r.buf : a->s.buf;
	MPI_Count total = blk_total(&a->r);

	if (total == 0 || a->r.dt->size == 0)
		return;
	/* in place, recvbuf is read here, before any result lands in it */
	build_scatter_blocks(s, build_reduce_up(s, in, total, a->r.dt), &a->r);
}

/*
 * The arguments of the calls: a side (buffer, count or counts and
 * displacements, datatype) with where it matters and where its buffer may
 * be MPI_IN_PLACE.  A side that no member uses has used = NB_NOWHERE (0).
 */
#define SIDE(nm, b, n, t, u, ip) \
	(struct nb_side){ .names = (nm), .buf = (b), .count = (n), .type = (t), \
			  .used = (u), .in_place = (ip) }
#define VSIDE(nm, b, v, t, u, ip) \
	(struct nb_side){ .names = (nm), .buf = (b), .vec = (v), .type = (t), \
			  .used = (u), .in_place = (ip), .vector = 1 }
#define WSIDE(nm, b, v, ts, ip) \
	(struct nb_side){ .names = (nm), .buf = (b), .vec = (v), .types = (ts), \
			  .type = MPI_DATATYPE_NULL, .used = NB_EVERYWHERE, \
			  .in_place = (ip), .vector = 1, .typed = 1 }

/*
 * Each call below is one function of its arguments that the API calls of
 * its forms share: `a` comes filled in with the form (NB_FORM, INIT_FORM,
 * or blocking), the function adds the communicator and the sides.
 */
static int nb_call_run(struct nb_call *a, MPI_Comm comm,
		       void (*build)(struct sched *, struct nb_call *))
{
	runtime_check(a->name);
	a->comm = comm;
	return nb_run(a, build);
}

static int barrier(struct nb_call a, MPI_Comm comm)
{
	return nb_call_run(&a, comm, run_barrier);
}

static int bcast(struct nb_call a, void *buffer, MPI_Count count, MPI_Datatype datatype,
		 int root, MPI_Comm comm)
{
	a.rooted = 1;
	a.root = root;
	a.s = SIDE(names_bcast, buffer, count, datatype, NB_EVERYWHERE, NB_NOWHERE);
	return nb_call_run(&a, comm, run_bcast);
}

static int reduce(struct nb_call a, const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	a.rooted = 1;
	a.root = root;
	a.reducing = 1;
	a.op = op;
	a.s = SIDE(names_rsend, sendbuf, count, datatype, NB_EVERYWHERE, NB_AT_ROOT);
	a.r = SIDE(names_rrecv, recvbuf, count, datatype, NB_AT_ROOT, NB_NOWHERE);
	return nb_call_run(&a, comm, run_reduce);
}

/* Allreduce, scan and exscan (MPI 3.1, 5.9.6, 5.11, 5.12.11 and 5.12.12):
 * a reduction whose result every member gets. */
static int reduce_all(struct nb_call a, void (*build)(struct sched *, struct nb_call *),
		      const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
		      MPI_Op op, MPI_Comm comm)
{
	a.reducing = 1;
	a.op = op;
	a.s = SIDE(names_rsend, sendbuf, count, datatype, NB_EVERYWHERE, NB_EVERYWHERE);
	a.r = SIDE(names_rrecv, recvbuf, count, datatype, NB_EVERYWHERE, NB_NOWHERE);
	return nb_call_run(&a, comm, build);
}

/* The calls with a (buffer, count, type) on each side: where each side
 * matters and may be in place. */
struct pairwise {
	void (*build)(struct sched *, struct nb_call *);
	int rooted;
	enum nb_where s_used, s_in_place, r_used, r_in_place;
};

static const struct pairwise gather_args = {
	run_gather, 1, NB_EVERYWHERE, NB_AT_ROOT, NB_AT_ROOT, NB_NOWHERE
};
static const struct pairwise scatter_args = {
	run_scatter, 1, NB_AT_ROOT, NB_NOWHERE, NB_EVERYWHERE, NB_AT_ROOT
};
static const struct pairwise allgather_args = {
	run_allgather, 0, NB_EVERYWHERE, NB_EVERYWHERE, NB_EVERYWHERE, NB_NOWHERE
};
static const struct pairwise alltoall_args = {
	run_alltoall, 0, NB_EVERYWHERE, NB_EVERYWHERE, NB_EVERYWHERE, NB_NOWHERE
};

static int pairwise(struct nb_call a, const struct pairwise *k, const void *sendbuf,
		    MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	a.rooted = k->rooted;
	a.root = root;
	a.s = SIDE(nb_names_send, sendbuf, sendcount, sendtype, k->s_used, k->s_in_place);
	a.r = SIDE(nb_names_recv, recvbuf, recvcount, recvtype, k->r_used, k->r_in_place);
	return nb_call_run(&a, comm, k->build);
}

static int gatherv(struct nb_call a, const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, struct nb_vec recvv,
		   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	a.rooted = 1;
	a.root = root;
	a.s = SIDE(nb_names_send, sendbuf, sendcount, sendtype, NB_EVERYWHERE, NB_AT_ROOT);
	a.r = VSIDE(names_recvv, recvbuf, recvv, recvtype, NB_AT_ROOT,
		    NB_NOWHERE);
	return nb_call_run(&a, comm, run_gather);
}

static int scatterv(struct nb_call a, const void *sendbuf, struct nb_vec sendv,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	a.rooted = 1;
	a.root = root;
	a.s = VSIDE(names_sendv, sendbuf, sendv, sendtype, NB_AT_ROOT,
		    NB_NOWHERE);
	a.r = SIDE(nb_names_recv, recvbuf, recvcount, recvtype, NB_EVERYWHERE, NB_AT_ROOT);
	return nb_call_run(&a, comm, run_scatter);
}

static int allgatherv(struct nb_call a, const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf, struct nb_vec recvv,
		      MPI_Datatype recvtype, MPI_Comm comm)
{
	a.s = SIDE(nb_names_send, sendbuf, sendcount, sendtype, NB_EVERYWHERE,
		   NB_EVERYWHERE);
	a.r = VSIDE(names_recvv, recvbuf, recvv, recvtype, NB_EVERYWHERE,
		    NB_NOWHERE);
	return nb_call_run(&a, comm, run_allgather);
}

static int alltoallv(struct nb_call a, const void *sendbuf, struct nb_vec sendv,
		     MPI_Datatype sendtype, void *recvbuf, struct nb_vec recvv,
		     MPI_Datatype recvtype, MPI_Comm comm)
{
	a.s = VSIDE(nb_names_send, sendbuf, sendv, sendtype, NB_EVERYWHERE,
		    NB_EVERYWHERE);
	a.r = VSIDE(nb_names_recv, recvbuf, recvv, recvtype, NB_EVERYWHERE,
		    NB_NOWHERE);
	return nb_call_run(&a, comm, run_alltoall);
}

/*
 * The alltoallw calls (MPI 3.1, 5.8 and 5.12.6): a type per block and
 * displacements in bytes; MPI_IN_PLACE takes the data from recvbuf
 * (intracommunicators only).  On an intercommunicator block m goes to and
 * comes from member m of the remote group.
 */
static int alltoallw(struct nb_call a, const void *sendbuf, struct nb_vec sendv,
		     const MPI_Datatype sendtypes[], void *recvbuf, struct nb_vec recvv,
		     const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	a.s = WSIDE(nb_names_send, sendbuf, sendv, sendtypes, NB_EVERYWHERE);
	a.r = WSIDE(nb_names_recv, recvbuf, recvv, recvtypes, NB_NOWHERE);
	return nb_call_run(&a, comm, run_alltoall);
}

/* MPI 3.1, 5.10.2 and 5.12.10: in place, the input is recvbuf (every
 * block of it). */
static int reduce_scatter(struct nb_call a, const void *sendbuf, void *recvbuf,
			  struct nb_vec recvv, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	a.reducing = 1;
	a.op = op;
	a.s = SIDE(names_rssend, sendbuf, 0, datatype, NB_EVERYWHERE, NB_EVERYWHERE);
	a.r = VSIDE(names_rscounts, recvbuf, recvv, datatype, NB_EVERYWHERE,
		    NB_NOWHERE);
	return nb_call_run(&a, comm, run_reduce_scatter);
}

static int reduce_scatter_block(struct nb_call a, const void *sendbuf, void *recvbuf,
				MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
				MPI_Comm comm)
{
	a.reducing = 1;
	a.op = op;
	a.s = SIDE(names_rssend, sendbuf, recvcount, datatype, NB_EVERYWHERE,
		   NB_EVERYWHERE);
	a.r = SIDE(names_rsrecv, recvbuf, recvcount, datatype, NB_EVERYWHERE, NB_NOWHERE);
	return nb_call_run(&a, comm, run_reduce_scatter);
}

/* ---- the blocking calls that run a schedule (MPI 3.1, 5.8) ------------------ */

API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
		     const MPI_Datatype sendtypes[], void *recvbuf,
		     const int recvcounts[], const int rdispls[],
		     const MPI_Datatype recvtypes[], MPI_Comm comm))
{
	return alltoallw(BLOCKING_FORM("MPI_Alltoallw", CALL_ALLTOALLW), sendbuf,
			 NB_VEC(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtypes, comm);
}

API(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
		       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
		       void *recvbuf, const MPI_Count recvcounts[],
		       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		       MPI_Comm comm))
{
	return alltoallw(BLOCKING_FORM("MPI_Alltoallw_c", CALL_ALLTOALLW), sendbuf,
			 NB_VEC_C(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC_C(recvcounts, rdispls), recvtypes, comm);
}

/* ---- the nonblocking calls (MPI 4.1, 6.12) ---------------------------------- */

API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
{
	return barrier(NB_FORM("MPI_Ibarrier", CALL_IBARRIER, request), comm);
}

API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		  MPI_Request *request))
{
	return bcast(NB_FORM("MPI_Ibcast", CALL_IBCAST, request), buffer, count, datatype,
		     root, comm);
}

API(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
		    MPI_Comm comm, MPI_Request *request))
{
	return bcast(NB_FORM("MPI_Ibcast_c", CALL_IBCAST, request), buffer, count,
		     datatype, root, comm);
}

API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
{
	return reduce(NB_FORM("MPI_Ireduce", CALL_IREDUCE, request), sendbuf, recvbuf,
		      count, datatype, op, root, comm);
}

API(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
		     MPI_Request *request))
{
	return reduce(NB_FORM("MPI_Ireduce_c", CALL_IREDUCE, request), sendbuf, recvbuf,
		      count, datatype, op, root, comm);
}

API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count,
		      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		      MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iallreduce", CALL_IALLREDUCE, request),
			  run_allreduce, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iallreduce_c", CALL_IALLREDUCE, request),
			  run_allreduce, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		   MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Igather", CALL_IGATHER, request), &gather_args,
			sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
			comm);
}

API(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		     MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Igather_c", CALL_IGATHER, request), &gather_args,
			sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
			comm);
}

API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		    MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Iscatter", CALL_ISCATTER, request), &scatter_args,
			sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
			comm);
}

API(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Iscatter_c", CALL_ISCATTER, request), &scatter_args,
			sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
			comm);
}

API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Iallgather", CALL_IALLGATHER, request),
			&allgather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Iallgather_c", CALL_IALLGATHER, request),
			&allgather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		     MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Ialltoall", CALL_IALLTOALL, request), &alltoall_args,
			sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
			comm);
}

API(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Request *request))
{
	return pairwise(NB_FORM("MPI_Ialltoall_c", CALL_IALLTOALL, request),
			&alltoall_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
{
	return gatherv(NB_FORM("MPI_Igatherv", CALL_IGATHERV, request), sendbuf,
		       sendcount, sendtype, recvbuf, NB_VEC(recvcounts, displs), recvtype,
		       root, comm);
}

API(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint displs[], MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Request *request))
{
	return gatherv(NB_FORM("MPI_Igatherv_c", CALL_IGATHERV, request), sendbuf,
		       sendcount, sendtype, recvbuf, NB_VEC_C(recvcounts, displs),
		       recvtype, root, comm);
}

API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
		     MPI_Datatype sendtype, void *recvbuf, int recvcount,
		     MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Request *request))
{
	return scatterv(NB_FORM("MPI_Iscatterv", CALL_ISCATTERV, request), sendbuf,
			NB_VEC(sendcounts, displs), sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[],
		       const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
		       MPI_Count recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Request *request))
{
	return scatterv(NB_FORM("MPI_Iscatterv_c", CALL_ISCATTERV, request), sendbuf,
			NB_VEC_C(sendcounts, displs), sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		       void *recvbuf, const int recvcounts[], const int displs[],
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
{
	return allgatherv(NB_FORM("MPI_Iallgatherv", CALL_IALLGATHERV, request), sendbuf,
			  sendcount, sendtype, recvbuf, NB_VEC(recvcounts, displs),
			  recvtype, comm);
}

API(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			 void *recvbuf, const MPI_Count recvcounts[],
			 const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
			 MPI_Request *request))
{
	return allgatherv(NB_FORM("MPI_Iallgatherv_c", CALL_IALLGATHERV, request),
			  sendbuf, sendcount, sendtype, recvbuf, NB_VEC_C(recvcounts,
			  displs), recvtype, comm);
}

API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
		      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request))
{
	return alltoallv(NB_FORM("MPI_Ialltoallv", CALL_IALLTOALLV, request), sendbuf,
			 NB_VEC(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
			const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
			const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
{
	return alltoallv(NB_FORM("MPI_Ialltoallv_c", CALL_IALLTOALLV, request), sendbuf,
			 NB_VEC_C(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC_C(recvcounts, rdispls), recvtype, comm);
}

API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
		      const MPI_Datatype sendtypes[], void *recvbuf,
		      const int recvcounts[], const int rdispls[],
		      const MPI_Datatype recvtypes[], MPI_Comm comm,
		      MPI_Request *request))
{
	return alltoallw(NB_FORM("MPI_Ialltoallw", CALL_IALLTOALLW, request), sendbuf,
			 NB_VEC(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtypes, comm);
}

API(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
			const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			void *recvbuf, const MPI_Count recvcounts[],
			const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
			MPI_Comm comm, MPI_Request *request))
{
	return alltoallw(NB_FORM("MPI_Ialltoallw_c", CALL_IALLTOALLW, request), sendbuf,
			 NB_VEC_C(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC_C(recvcounts, rdispls), recvtypes, comm);
}

API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		 MPI_Op op, MPI_Comm comm, MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iscan", CALL_ISCAN, request), run_scan, sendbuf,
			  recvbuf, count, datatype, op, comm);
}

API(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iscan_c", CALL_ISCAN, request), run_scan, sendbuf,
			  recvbuf, count, datatype, op, comm);
}

API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		   MPI_Op op, MPI_Comm comm, MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iexscan", CALL_IEXSCAN, request), run_exscan,
			  sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		     MPI_Request *request))
{
	return reduce_all(NB_FORM("MPI_Iexscan_c", CALL_IEXSCAN, request), run_exscan,
			  sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
			   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			   MPI_Request *request))
{
	return reduce_scatter(NB_FORM("MPI_Ireduce_scatter", CALL_IREDUCE_SCATTER,
			      request), sendbuf, recvbuf, NB_VEC(recvcounts, NULL),
			      datatype, op, comm);
}

API(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf,
			     const MPI_Count recvcounts[], MPI_Datatype datatype,
			     MPI_Op op, MPI_Comm comm, MPI_Request *request))
{
	return reduce_scatter(NB_FORM("MPI_Ireduce_scatter_c", CALL_IREDUCE_SCATTER,
			      request), sendbuf, recvbuf, NB_VEC_C(recvcounts, NULL),
			      datatype, op, comm);
}

API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
				 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				 MPI_Request *request))
{
	return reduce_scatter_block(NB_FORM("MPI_Ireduce_scatter_block",
				    CALL_IREDUCE_SCATTER_BLOCK, request), sendbuf,
				    recvbuf, recvcount, datatype, op, comm);
}

API(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf,
				   MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
				   MPI_Comm comm, MPI_Request *request))
{
	return reduce_scatter_block(NB_FORM("MPI_Ireduce_scatter_block_c",
				    CALL_IREDUCE_SCATTER_BLOCK, request), sendbuf,
				    recvbuf, recvcount, datatype, op, comm);
}

/* ---- the persistent calls (MPI 4.1, 6.13) ----------------------------------- */

API(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return barrier(INIT_FORM("MPI_Barrier_init", CALL_IBARRIER, info, request), comm);
}

API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return bcast(INIT_FORM("MPI_Bcast_init", CALL_IBCAST, info, request), buffer,
		     count, datatype, root, comm);
}

API(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return bcast(INIT_FORM("MPI_Bcast_init_c", CALL_IBCAST, info, request), buffer,
		     count, datatype, root, comm);
}

API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request))
{
	return reduce(INIT_FORM("MPI_Reduce_init", CALL_IREDUCE, info, request), sendbuf,
		      recvbuf, count, datatype, op, root, comm);
}

API(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
			 MPI_Info info, MPI_Request *request))
{
	return reduce(INIT_FORM("MPI_Reduce_init_c", CALL_IREDUCE, info, request),
		      sendbuf, recvbuf, count, datatype, op, root, comm);
}

API(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count,
			  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			  MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Allreduce_init", CALL_IALLREDUCE, info, request),
			  run_allreduce, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			    MPI_Info info, MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Allreduce_init_c", CALL_IALLREDUCE, info,
			  request), run_allreduce, sendbuf, recvbuf, count, datatype, op,
			  comm);
}

API(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Gather_init", CALL_IGATHER, info, request),
			&gather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			 int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Gather_init_c", CALL_IGATHER, info, request),
			&gather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Scatter_init", CALL_ISCATTER, info, request),
			&scatter_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
			  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Scatter_init_c", CALL_ISCATTER, info, request),
			&scatter_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype,
			  MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Allgather_init", CALL_IALLGATHER, info, request),
			&allgather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount,
			    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			    MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Allgather_init_c", CALL_IALLGATHER, info, request),
			&allgather_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			 void *recvbuf, int recvcount, MPI_Datatype recvtype,
			 MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Alltoall_init", CALL_IALLTOALL, info, request),
			&alltoall_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount,
			   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			   MPI_Request *request))
{
	return pairwise(INIT_FORM("MPI_Alltoall_init_c", CALL_IALLTOALL, info, request),
			&alltoall_args, sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, 0, comm);
}

API(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			MPI_Request *request))
{
	return gatherv(INIT_FORM("MPI_Gatherv_init", CALL_IGATHERV, info, request),
		       sendbuf, sendcount, sendtype, recvbuf, NB_VEC(recvcounts, displs),
		       recvtype, root, comm);
}

API(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			  void *recvbuf, const MPI_Count recvcounts[],
			  const MPI_Aint displs[], MPI_Datatype recvtype, int root,
			  MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return gatherv(INIT_FORM("MPI_Gatherv_init_c", CALL_IGATHERV, info, request),
		       sendbuf, sendcount, sendtype, recvbuf, NB_VEC_C(recvcounts,
		       displs), recvtype, root, comm);
}

API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
			 MPI_Datatype sendtype, void *recvbuf, int recvcount,
			 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			 MPI_Request *request))
{
	return scatterv(INIT_FORM("MPI_Scatterv_init", CALL_ISCATTERV, info, request),
			sendbuf, NB_VEC(sendcounts, displs), sendtype, recvbuf, recvcount,
			recvtype, root, comm);
}

API(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
			   const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
			   MPI_Count recvcount, MPI_Datatype recvtype, int root,
			   MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return scatterv(INIT_FORM("MPI_Scatterv_init_c", CALL_ISCATTERV, info, request),
			sendbuf, NB_VEC_C(sendcounts, displs), sendtype, recvbuf,
			recvcount, recvtype, root, comm);
}

API(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[], const int displs[],
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			   MPI_Request *request))
{
	return allgatherv(INIT_FORM("MPI_Allgatherv_init", CALL_IALLGATHERV, info,
			  request), sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC(recvcounts, displs), recvtype, comm);
}

API(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     const MPI_Count recvcounts[], const MPI_Aint displs[],
			     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			     MPI_Request *request))
{
	return allgatherv(INIT_FORM("MPI_Allgatherv_init_c", CALL_IALLGATHERV, info,
			  request), sendbuf, sendcount, sendtype, recvbuf,
			  NB_VEC_C(recvcounts, displs), recvtype, comm);
}

API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[],
			  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
			  const int recvcounts[], const int rdispls[],
			  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			  MPI_Request *request))
{
	return alltoallv(INIT_FORM("MPI_Alltoallv_init", CALL_IALLTOALLV, info, request),
			 sendbuf, NB_VEC(sendcounts, sdispls), sendtype, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtype, comm);
}

API(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
			    const MPI_Aint sdispls[], MPI_Datatype sendtype,
			    void *recvbuf, const MPI_Count recvcounts[],
			    const MPI_Aint rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return alltoallv(INIT_FORM("MPI_Alltoallv_init_c", CALL_IALLTOALLV, info,
			 request), sendbuf, NB_VEC_C(sendcounts, sdispls), sendtype,
			 recvbuf, NB_VEC_C(recvcounts, rdispls), recvtype, comm);
}

API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[],
			  const int sdispls[], const MPI_Datatype sendtypes[],
			  void *recvbuf, const int recvcounts[], const int rdispls[],
			  const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
			  MPI_Request *request))
{
	return alltoallw(INIT_FORM("MPI_Alltoallw_init", CALL_IALLTOALLW, info, request),
			 sendbuf, NB_VEC(sendcounts, sdispls), sendtypes, recvbuf,
			 NB_VEC(recvcounts, rdispls), recvtypes, comm);
}

API(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
			    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
			    void *recvbuf, const MPI_Count recvcounts[],
			    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
			    MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return alltoallw(INIT_FORM("MPI_Alltoallw_init_c", CALL_IALLTOALLW, info,
			 request), sendbuf, NB_VEC_C(sendcounts, sdispls), sendtypes,
			 recvbuf, NB_VEC_C(recvcounts, rdispls), recvtypes, comm);
}

API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Scan_init", CALL_ISCAN, info, request), run_scan,
			  sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Scan_init_c", CALL_ISCAN, info, request),
			  run_scan, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Exscan_init", CALL_IEXSCAN, info, request),
			  run_exscan, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
			 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
			 MPI_Request *request))
{
	return reduce_all(INIT_FORM("MPI_Exscan_init_c", CALL_IEXSCAN, info, request),
			  run_exscan, sendbuf, recvbuf, count, datatype, op, comm);
}

API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
			       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
			       MPI_Info info, MPI_Request *request))
{
	return reduce_scatter(INIT_FORM("MPI_Reduce_scatter_init", CALL_IREDUCE_SCATTER,
			      info, request), sendbuf, recvbuf, NB_VEC(recvcounts, NULL),
			      datatype, op, comm);
}

API(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf,
				 const MPI_Count recvcounts[], MPI_Datatype datatype,
				 MPI_Op op, MPI_Comm comm, MPI_Info info,
				 MPI_Request *request))
{
	return reduce_scatter(INIT_FORM("MPI_Reduce_scatter_init_c", CALL_IREDUCE_SCATTER,
			      info, request), sendbuf, recvbuf, NB_VEC_C(recvcounts,
			      NULL), datatype, op, comm);
}

API(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
				     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
				     MPI_Info info, MPI_Request *request))
{
	return reduce_scatter_block(INIT_FORM("MPI_Reduce_scatter_block_init",
				    CALL_IREDUCE_SCATTER_BLOCK, info, request), sendbuf,
				    recvbuf, recvcount, datatype, op, comm);
}

API(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf,
				       MPI_Count recvcount, MPI_Datatype datatype,
				       MPI_Op op, MPI_Comm comm, MPI_Info info,
				       MPI_Request *request))
{
	return reduce_scatter_block(INIT_FORM("MPI_Reduce_scatter_block_init_c",
				    CALL_IREDUCE_SCATTER_BLOCK, info, request), sendbuf,
				    recvbuf, recvcount, datatype, op, comm);
}
