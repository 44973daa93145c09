/*
 * Communicator objects, their creation (dup, split, create) and the calls
 * that ask a communicator about itself.
 *
 * Creating communicators out of a parent is collective: the members trade
 * (color, key) (for MPI_Comm_create also the group each passed, which all
 * check), parent rank 0 takes a block of context ids, a pair per color,
 * from the job's counter and broadcasts it, the rank 0 of each new
 * communicator creates its collective area, and after a barrier everybody
 * maps the area of its new communicator; after a second barrier the
 * creators unlink the names (every member has mapped them).
 * MPI_Comm_create_group involves only the group's members, so it trades
 * the same facts by point-to-point messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api.h"
#include "attr.h"
#include "bsend.h"
#include "coll.h"
#include "coll_nb.h"
#include "comm.h"
#include "comm_hw.h"
#include "info.h"
#include "intercomm.h"
#include "memkinds.h"
#include "p2p.h"
#include "progress.h"
#include "runtime.h"
#include "topo.h"

static struct comm comm_world, comm_self;
static struct comm *comm_sess;

/* ---- objects ------------------------------------------------------------ */

/* A communicator of group g (a new reference is taken) with context ctx. */
struct comm *comm_new(struct group *g, uint32_t ctx, int builtin_index,
		      MPI_Comm builtin_handle)
{
	struct comm *c = builtin_index >= 0 ?
			 (builtin_index == 0 ? &comm_world : &comm_self) :
			 calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (builtin_index >= 0) {
		memset(c, 0, sizeof(*c));
		c->handle = builtin_handle;
		handle_set_builtin(HANDLE_COMM, (unsigned)builtin_handle & 0xff, c);
	} else if (handle_alloc(HANDLE_COMM, c, &c->handle) < 0) {
		free(c);
		return NULL;
	}
	c->refs = 1;
	c->group = g;
	group_ref(g);
	c->rank = g->rank;
	c->size = g->size;
	c->world = g->world;
	c->ctx = ctx;
	c->coll_seg.fd = -1;
	c->errh = errh_get(MPI_ERRORS_ARE_FATAL);
	errh_ref(c->errh);
	return c;
}

static void comm_destroy(struct comm *c)
{
	if (c->coll_seg.base)
		shm_seg_close(&c->coll_seg);
	else if (c->coll && c != &comm_world)
		munmap(c->coll, shm_coll_size(1));
	attr_delete_all(ATTR_COMM, c->handle, &c->attrs);
	info_unref(c->info);
	bsend_pool_unref(c->bsend);
	topo_free(c->topo);
	errh_unref(c->errh);
	group_unref(c->remote);
	comm_unref(c->local);
	group_unref(c->group);
	if (!handle_is_builtin(c->handle)) {
		handle_release(c->handle);
		free(c);
	}
}

void comm_ref(struct comm *c)
{
	c->refs++;
}

void comm_unref(struct comm *c)
{
	if (c && --c->refs == 0)
		comm_destroy(c);
}

/* A collective area in process memory, for a communicator of one member:
 * anonymous pages, zero until touched (calloc would clear, and fault in, all
 * of the data slot in every MPI_Init for MPI_COMM_SELF). */
static int comm_coll_private(struct comm *c)
{
	void *area = mmap(NULL, shm_coll_size(1), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (area == MAP_FAILED)
		return -ENOMEM;
	c->coll = area;
	shm_coll_init(c->coll, 1);
	return 0;
}

int comm_init_builtins(void)
{
	struct group *self;
	int me = rt.rank;

	if (!comm_new(group_world(), 0, 0, MPI_COMM_WORLD))
		return -ENOMEM;
	comm_world.world = NULL;	/* job rank == rank: skip the table */
	comm_world.coll = shm_job_coll(rt.job);
	snprintf(comm_world.name, sizeof(comm_world.name), "MPI_COMM_WORLD");
	self = group_new(&me, 1);
	if (!self || !comm_new(self, 2, 1, MPI_COMM_SELF))
		return -ENOMEM;
	group_unref(self);
	snprintf(comm_self.name, sizeof(comm_self.name), "MPI_COMM_SELF");
	/* context ids 4 and 5 (shm/job.c hands out from 6) */
	comm_sess = comm_new(group_world(), 4, -1, 0);
	if (!comm_sess)
		return -ENOMEM;
	return comm_coll_private(&comm_self);
}

struct comm *comm_sessions(void)
{
	return comm_sess;
}

void comm_fini_builtins(void)
{
	comm_unref(comm_sess);
	comm_sess = NULL;
	comm_destroy(&comm_self);
	comm_destroy(&comm_world);
}

int comm_err_invalid(MPI_Comm comm, const char *call)
{
	return err_comm(comm, call, MPI_ERR_COMM, "comm",
			comm == MPI_COMM_NULL ? "is MPI_COMM_NULL" :
			"0x%x is not a valid communicator", (unsigned)comm);
}

int comm_err_inter(MPI_Comm comm, const char *call, const char *arg)
{
	return err_comm(comm, call, MPI_ERR_COMM, arg,
			"is an intercommunicator; %s needs an intracommunicator", call);
}

/* ---- creation ----------------------------------------------------------- */

static int coll_name(char *buf, size_t len, uint32_t ctx)
{
	char what[32];

	snprintf(what, sizeof(what), "c%u", ctx);
	return shm_job_name(buf, len, geteuid(), rt.job_id, what);
}

/* The new communicator's rank 0: create its collective area. */
static int comm_coll_create(struct comm *c)
{
	char name[SHM_NAME_MAX];
	int rc;

	if (c->size == 1)
		return comm_coll_private(c);
	coll_name(name, sizeof(name), c->ctx);
	rc = shm_seg_create(&c->coll_seg, name, shm_coll_size((uint32_t)c->size), 0);
	if (rc < 0)
		return rc;
	c->coll = c->coll_seg.base;
	shm_coll_init(c->coll, (uint32_t)c->size);
	return 0;
}

/* Any other member: map the area its rank 0 created. */
static int comm_coll_open(struct comm *c)
{
	char name[SHM_NAME_MAX];
	int rc;

	if (c->size == 1)
		return comm_coll_private(c);
	coll_name(name, sizeof(name), c->ctx);
	rc = shm_seg_open(&c->coll_seg, name, 0);
	if (rc < 0)
		return rc;
	c->coll = c->coll_seg.base;
	rc = shm_coll_check(c->coll, c->coll_seg.size, (uint32_t)c->size);
	if (rc < 0) {
		shm_seg_close(&c->coll_seg);
		c->coll = NULL;
	}
	return rc;
}

static void comm_coll_unlink(struct comm *c)
{
	char name[SHM_NAME_MAX];

	if (c->size > 1) {
		coll_name(name, sizeof(name), c->ctx);
		shm_seg_unlink(name);
	}
}

int comm_coll_setup(struct comm *c, int rc, void (*sync)(struct comm *, enum call_id),
		    struct comm *over, enum call_id call)
{
	if (c && rc == MPI_SUCCESS && c->rank == 0 && comm_coll_create(c) < 0)
		rc = MPI_ERR_NO_MEM;
	sync(over, call);
	if (c && c->rank != 0 && rc == MPI_SUCCESS && comm_coll_open(c) < 0)
		rc = MPI_ERR_INTERN;
	sync(over, call);
	if (c && c->rank == 0 && c->coll)
		comm_coll_unlink(c);
	return rc;
}

struct comm_claim comm_claim_of(int color, int key, const struct group *g)
{
	struct comm_claim cl = { color, key, 0, -1, 0 };

	if (g && g->size > 0) {
		cl.gsize = g->size;
		cl.gfirst = g->world[0];
		cl.ghash = group_hash(g);
	}
	return cl;
}

struct member {
	int color, key, rank;
};

static int member_order(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->color != y->color)
		return x->color < y->color ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->rank - y->rank;
}

/* Where the members of color begin in m[] (n of them, sorted), or -1. */
static int color_start(const struct member *m, int n, int color)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m[mid].color < color)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && m[lo].color == color ? lo : -1;
}

/*
 * MPI_Comm_create on an intracommunicator (MPI 3.1, 6.4.2): the processes
 * may pass different groups, but every process of a non-empty group passed
 * must pass that same group (the same processes in the same order), so the
 * groups are disjoint.  A member of its group claims the group's first
 * process (its job rank) as color and its rank in the group as key, so the
 * members of one group sort together in m[] (every claim, by color, key,
 * parent rank).  They are exactly that group when every claim among them
 * names the same group and their keys count 0, 1, ... up to its size; a
 * process outside the group it passed needs that group's members to have
 * passed it.  Every process checks every claim alike and so reaches the
 * same verdict; g, the caller's group, only makes the message more
 * precise.  MPI_SUCCESS, or MPI_ERR_GROUP with *why naming ranks of parent.
 */
static int create_verify(const struct comm *parent, const struct comm_claim *all,
			 const struct member *m, const struct group *g, char *why,
			 size_t whylen)
{
	const struct comm_claim *mine = &all[parent->rank];
	int n = parent->size;

	for (int i = 0, end; i < n; i = end) {
		const struct comm_claim *f = &all[m[i].rank];
		int k = 0;

		for (end = i + 1; end < n && m[end].color == m[i].color; end++)
			;
		if (m[i].color == MPI_UNDEFINED)
			continue;
		for (int j = i + 1; j < end; j++)
			if (all[m[j].rank].gsize != f->gsize || all[m[j].rank].ghash != f->ghash) {
				snprintf(why, whylen, "ranks %d and %d passed different groups that "
					 "share rank %d: groups must be the same or disjoint",
					 m[i].rank, m[j].rank,
					 comm_rank_of_world(parent, m[i].color));
				return MPI_ERR_GROUP;
			}
		while (i + k < end && m[i + k].key == k)
			k++;
		if (k == end - i && k == f->gsize)
			continue;
		/* key k of the group is missing: its process passed another */
		if (mine->gsize == f->gsize && mine->ghash == f->ghash && k < g->size)
			snprintf(why, whylen, "rank %d is in the group that rank %d passed but "
				 "passed another group", comm_rank_of_world(parent, g->world[k]),
				 m[i].rank);
		else
			snprintf(why, whylen, "processes in the group that rank %d passed "
				 "passed other groups", m[i].rank);
		return MPI_ERR_GROUP;
	}
	for (int r = 0; r < n; r++) {
		const struct comm_claim *x = &all[r];
		int s;

		/* outside the (non-empty) group it passed */
		if (x->color != MPI_UNDEFINED || x->gsize == 0)
			continue;
		s = color_start(m, n, x->gfirst);
		if (s < 0 || all[m[s].rank].gsize != x->gsize || all[m[s].rank].ghash != x->ghash) {
			snprintf(why, whylen, "rank %d passed a group whose first process, rank "
				 "%d, passed another group", r, comm_rank_of_world(parent, x->gfirst));
			return MPI_ERR_GROUP;
		}
	}
	return MPI_SUCCESS;
}

/*
 * Collective over parent: each member joins the new communicator of its
 * color (ordered by key, then parent rank), or none for MPI_UNDEFINED.
 * With g (MPI_Comm_create, which passes the color and key create_verify
 * describes), the groups are checked first: if they are wrong, nobody
 * gets a communicator and it returns MPI_ERR_GROUP with *why.  *out is the
 * new communicator or NULL.  Returns an MPI error class.
 */
static int comm_split_do(struct comm *parent, enum call_id call, int color, int key,
			 const struct group *g, struct comm **out, char *why, size_t whylen)
{
	struct comm_claim mine = comm_claim_of(color, key, g), *all;
	int ncolors = 0, my_index = -1, n = 0, rc = MPI_SUCCESS;
	struct member *m = NULL;
	struct comm *c = NULL;
	uint32_t base = 0;
	int *world = NULL;

	*out = NULL;
	if (parent->remote)
		return MPI_ERR_COMM;	/* intercomm.c splits intercommunicators */
	all = (struct comm_claim *)coll_allgather_packed(parent, call, &mine, sizeof(mine),
							 dt_get(MPI_BYTE), sizeof(mine));
	m = malloc(sizeof(*m) * (size_t)parent->size);
	world = malloc(sizeof(int) * (size_t)parent->size);
	if (!all || !m || !world) {
		/* every member must still take part in the steps below */
		rc = MPI_ERR_NO_MEM;
	}
	if (rc == MPI_SUCCESS) {
		for (int r = 0; r < parent->size; r++)
			m[r] = (struct member){ all[r].color, all[r].key, r };
		qsort(m, (size_t)parent->size, sizeof(*m), member_order);
		if (g)
			rc = create_verify(parent, all, m, g, why, whylen);
	}
	for (int i = 0; rc == MPI_SUCCESS && i < parent->size; i++) {
		if (m[i].color == MPI_UNDEFINED)
			continue;
		if (i == 0 || m[i].color != m[i - 1].color)
			ncolors++;
		if (m[i].color == color) {
			if (my_index < 0)
				my_index = ncolors - 1;
			world[n++] = comm_world_rank(parent, m[i].rank);
		}
	}
	/* out of memory, rank 0 cannot count the colors: as many as members
	 * (relaxed: a fetch_add hands out distinct ids whatever the order;
	 * the ids travel in messages, which order what goes with them) */
	if (parent->rank == 0)
		base = atomic_fetch_add_explicit(&rt.job->next_ctx, 2u * (uint32_t)
						 (rc == MPI_ERR_NO_MEM ? parent->size : ncolors),
						 memory_order_relaxed);
	coll_bcast_bytes(parent, call, &base, sizeof(base), 0);
	if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
		struct group *ng = group_new(world, n);

		/* derived from the same session, if any (bsend.c) */
		if (ng && parent->group->bsend_session) {
			ng->bsend_session = parent->group->bsend_session;
			bsend_pool_ref(ng->bsend_session);
		}
		if (ng)
			ng->memkinds = parent->group->memkinds;
		c = ng ? comm_new(ng, base + 2u * (uint32_t)my_index, -1, 0) : NULL;
		if (ng)
			group_unref(ng);
		if (!c)
			rc = MPI_ERR_NO_MEM;
	}
	rc = comm_coll_setup(c, rc, coll_barrier, parent, call);
	free(all);
	free(m);
	free(world);
	if (rc != MPI_SUCCESS) {
		if (c)
			comm_unref(c);
		return rc;
	}
	*out = c;
	return MPI_SUCCESS;
}

int comm_dup_internal(struct comm *parent, enum call_id call, struct comm **out)
{
	return comm_split_do(parent, call, 0, parent->rank, NULL, out, NULL, 0);
}

int comm_split_internal(struct comm *parent, enum call_id call, int color, int key,
			struct comm **out)
{
	return comm_split_do(parent, call, color, key, NULL, out, NULL, 0);
}

/* Hand a new communicator (or none) to the caller; inherit from parent. */
int comm_out(struct comm *parent, struct comm *c, MPI_Comm *newcomm, int dup)
{
	if (!c) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	/* the error handler is inherited (MPI 3.1, 6.4.2 and 8.3) */
	errh_ref(parent->errh);
	errh_unref(c->errh);
	c->errh = parent->errh;
	if (dup) {
		int rc;

		/* a duplicate keeps the topology (MPI 3.1, section 6.4.2) */
		if (parent->topo && !(c->topo = topo_dup(parent->topo))) {
			comm_unref(c);
			return MPI_ERR_NO_MEM;
		}
		rc = attr_copy_all(ATTR_COMM, parent->handle, parent->attrs, c->handle,
				   &c->attrs);
		if (rc != MPI_SUCCESS) {
			comm_unref(c);
			return rc;
		}
	}
	*newcomm = c->handle;
	return MPI_SUCCESS;
}

static int comm_check(const char *call, MPI_Comm comm, struct comm **c, const void *out,
		      const char *outname)
{
	*c = comm_get(comm);
	if (!*c)
		return comm_err_invalid(comm, call);
	if (!out)
		return err_comm(comm, call, MPI_ERR_ARG, outname, "is NULL");
	return MPI_SUCCESS;
}

/*
 * The new communicator's hints: those of the parent after MPI_Comm_dup and
 * MPI_Comm_idup, those of info after the _with_info calls (MPI 4.1, section
 * 7.4.2: not the parent's; MPI_INFO_NULL gives none).
 */
static void comm_dup_hints(struct comm *c, const struct comm *p, int with_info,
			   const struct info *info)
{
	const struct info *from = with_info ? info : p->info;

	if (from)
		c->info = info_dup_internal(from);
}

static int comm_dup_common(const char *call, MPI_Comm comm, int with_info,
			   struct info *info, MPI_Comm *newcomm)
{
	struct comm *p, *c;
	int rc;

	if ((rc = comm_check(call, comm, &p, newcomm, "newcomm")) != MPI_SUCCESS)
		return rc;
	rc = p->remote ? inter_dup(p, &c) : comm_dup_internal(p, CALL_COMM_CREATE, &c);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, NULL, "cannot create the communicator");
	rc = comm_out(p, c, newcomm, 1);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, NULL, rc == MPI_ERR_NO_MEM ?
				"out of memory copying the topology" :
				"an attribute copy callback failed");
	comm_dup_hints(c, p, with_info, info);
	return MPI_SUCCESS;
}

API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
{
	runtime_check("MPI_Comm_dup");
	return comm_dup_common("MPI_Comm_dup", comm, 0, NULL, newcomm);
}

API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
{
	struct info *i = NULL;

	runtime_check("MPI_Comm_dup_with_info");
	if (info != MPI_INFO_NULL && !(i = info_get(info)))
		return err_comm(comm, "MPI_Comm_dup_with_info", MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	return comm_dup_common("MPI_Comm_dup_with_info", comm, 1, i, newcomm);
}

/* ---- MPI_Comm_idup -------------------------------------------------------- */

/*
 * MPI 3.1, 6.4.2: the new communicator's handle, error handler, info and
 * attributes (copied at the call, as MPI_Comm_dup does) are there at once;
 * its context and collective area come from a schedule of the nonblocking
 * collectives (coll_nb.h) on the parent, so it is usable once the request
 * completes, and any number may be outstanding next to the parent's other
 * nonblocking collectives.  As in a split, parent rank 0 takes a context
 * pair and creates the area, then tells every member, which maps the area
 * and answers; once all have, rank 0 unlinks the name.  A failure fails
 * the request of the member where it happens and of rank 0 (a failure of
 * rank 0's: of every member).  On an intercommunicator, as in inter_dup,
 * the leaders first agree on the new context (inter_agree_build); then
 * the steps above, over the parent's local group, make the new local
 * intracommunicator.
 */
struct idup {
	struct comm *c;		/* the one whose context and area come here:
				 * the new communicator, or the new
				 * intercommunicator's local one (referenced) */
	struct comm *inter;	/* the new intercommunicator (referenced), or NULL */
	uint32_t told;		/* rank 0 to the members: the context, or
				 * UINT32_MAX: no area */
	int answer;		/* a member to rank 0: its MPI error class */
	int *answers;		/* rank 0: every member's */
};

static void idup_free(void *arg)
{
	struct idup *d = arg;

	comm_unref(d->c);
	comm_unref(d->inter);
	free(d->answers);
	free(d);
}

/* Rank 0: the context and the area. */
static void idup_create(struct sched *s, void *arg)
{
	struct idup *d = arg;

	/* relaxed: only the id's value matters (as in comm_split) */
	d->c->ctx = atomic_fetch_add_explicit(&rt.job->next_ctx, 2, memory_order_relaxed);
	d->told = d->c->ctx;
	if (comm_coll_create(d->c) < 0) {
		d->told = UINT32_MAX;
		sched_fail(s, MPI_ERR_NO_MEM);
	}
}

/* Any other member: what rank 0 told, the area mapped, the answer. */
static void idup_open(struct sched *s, void *arg)
{
	struct idup *d = arg;

	d->c->ctx = d->told;
	d->answer = d->told == UINT32_MAX ? MPI_ERR_NO_MEM :
		    comm_coll_open(d->c) < 0 ? MPI_ERR_INTERN : MPI_SUCCESS;
	if (d->answer != MPI_SUCCESS)
		sched_fail(s, d->answer);
}

/* Rank 0, once every member answered: the name goes. */
static void idup_finish(struct sched *s, void *arg)
{
	struct idup *d = arg;

	if (d->c->coll)
		comm_coll_unlink(d->c);
	for (int m = 1; m < d->c->size; m++)
		if (d->answers[m] != MPI_SUCCESS)
			sched_fail(s, d->answers[m]);
}

static void idup_build(struct sched *s, struct idup *d)
{
	const struct datatype *byte = dt_get(MPI_BYTE);
	int p = d->c->size;

	if (d->c->rank != 0) {
		sched_recv(s, 0, &d->told, sizeof(d->told), byte);
		sched_round(s);
		sched_call(s, idup_open, d);
		sched_send(s, 0, &d->answer, sizeof(d->answer), byte);
		sched_round(s);
		return;
	}
	sched_call(s, idup_create, d);
	for (int m = 1; m < p; m++) {
		sched_send(s, m, &d->told, sizeof(d->told), byte);
		sched_recv(s, m, &d->answers[m], sizeof(d->answers[m]), byte);
	}
	sched_round(s);
	sched_call(s, idup_finish, d);
	sched_round(s);
}

/* A new communicator like p, without context and area yet: an
 * intercommunicator over a new local intracommunicator when p is one; NULL
 * when out of memory. */
static struct comm *idup_new(struct comm *p)
{
	struct comm *local;

	if (!p->remote)
		return comm_new(p->group, 0, -1, 0);
	local = comm_new(p->local->group, 0, -1, 0);
	return local ? inter_new(local, p->remote, 0) : NULL;
}

/* MPI_Comm_idup and MPI_Comm_idup_with_info (hints: comm_dup_hints). */
static int comm_idup_common(const char *call, MPI_Comm comm, int with_info,
			    struct info *info, MPI_Comm *newcomm, MPI_Request *request)
{
	struct comm *p, *c;
	struct sched *s;
	struct idup *d;
	int rc;

	if ((rc = comm_check(call, comm, &p, newcomm, "newcomm")) != MPI_SUCCESS)
		return rc;
	if (!request)
		return err_comm(comm, call, MPI_ERR_ARG, "request", "is NULL");
	c = idup_new(p);
	d = calloc(1, sizeof(*d));
	s = c && d ? sched_create(p) : NULL;
	if (d && c && p->rank == 0)
		d->answers = calloc((size_t)p->size, sizeof(int));
	if (!s || (p->rank == 0 && !d->answers)) {
		free(d ? d->answers : NULL);
		free(d);
		comm_unref(c);
		sched_destroy(s);
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	d->c = p->remote ? c->local : c;
	comm_ref(d->c);
	sched_hold(s, d, idup_free);
	if (p->remote) {
		d->inter = c;
		comm_ref(c);
		inter_agree_build(s, p, &c->ctx);
		sched_on(s, p->local);
	}
	idup_build(s, d);
	sched_on(s, p);
	rc = sched_launch(s, CALL_COMM_IDUP, request);
	if (rc != MPI_SUCCESS) {
		comm_unref(c);
		return err_comm(comm, call, rc, NULL, "out of memory");
	}
	/* the handle's reference now goes to the user, with what dup copies */
	rc = comm_out(p, c, newcomm, 1);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, NULL,
				"an attribute copy callback failed");
	comm_dup_hints(c, p, with_info, info);
	return MPI_SUCCESS;
}

API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
{
	runtime_check("MPI_Comm_idup");
	return comm_idup_common("MPI_Comm_idup", comm, 0, NULL, newcomm, request);
}

API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			       MPI_Request *request))
{
	struct info *i = NULL;

	runtime_check("MPI_Comm_idup_with_info");
	if (info != MPI_INFO_NULL && !(i = info_get(info)))
		return err_comm(comm, "MPI_Comm_idup_with_info", MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	return comm_idup_common("MPI_Comm_idup_with_info", comm, 1, i, newcomm,
				request);
}

API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
{
	struct comm *p, *c;
	int rc;

	runtime_check("MPI_Comm_split");
	if ((rc = comm_check("MPI_Comm_split", comm, &p, newcomm, "newcomm")) != MPI_SUCCESS)
		return rc;
	if (color < 0 && color != MPI_UNDEFINED)
		return err_comm(comm, "MPI_Comm_split", MPI_ERR_ARG, "color",
				"%d is negative and not MPI_UNDEFINED", color);
	rc = p->remote ? inter_split(p, color, key, NULL, &c, NULL, 0) :
	     comm_split_internal(p, CALL_COMM_CREATE, color, key, &c);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_split", rc, NULL,
				"cannot create the communicator");
	return comm_out(p, c, newcomm, 0);
}

/* Every rank of the job shares memory: MPI_COMM_TYPE_SHARED is one color. */
API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info,
			   MPI_Comm *newcomm))
{
	struct comm *p, *c;
	int rc;

	runtime_check("MPI_Comm_split_type");
	if ((rc = comm_check("MPI_Comm_split_type", comm, &p, newcomm, "newcomm")) !=
	    MPI_SUCCESS)
		return rc;
	if (p->remote)
		return comm_err_inter(comm, "MPI_Comm_split_type", "comm");
	if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED &&
	    split_type != MPI_COMM_TYPE_HW_GUIDED && split_type != MPI_COMM_TYPE_HW_UNGUIDED &&
	    split_type != MPI_COMM_TYPE_RESOURCE_GUIDED)
		return err_comm(comm, "MPI_Comm_split_type", MPI_ERR_ARG, "split_type",
				"%d is not a split type", split_type);
	if (info != MPI_INFO_NULL && !info_get(info))
		return err_comm(comm, "MPI_Comm_split_type", MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	/* the hardware split types: comm_hw.c */
	if (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_HW_UNGUIDED ||
	    split_type == MPI_COMM_TYPE_RESOURCE_GUIDED)
		return comm_hw_split_type(comm, p, split_type, key, info_get(info), newcomm);
	rc = comm_split_internal(p, CALL_COMM_CREATE, split_type == MPI_UNDEFINED ?
				 MPI_UNDEFINED : 0, key, &c);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_split_type", rc, NULL,
				"cannot create the communicator");
	return comm_out(p, c, newcomm, 0);
}

/* Whether g's members are all members of comm c. */
static int group_within(const struct group *g, const struct comm *c)
{
	for (int r = 0; r < g->size; r++)
		if (comm_rank_of_world(c, g->world[r]) == MPI_UNDEFINED)
			return 0;
	return 1;
}

/*
 * On an intracommunicator, MPI_Comm_create is a split (MPI 3.1, 6.4.2): a
 * member's color numbers its group, which is disjoint from the other
 * groups passed, by the job rank of its first process; its key is its rank
 * in the group, so the new ranks follow the group's order.  A process
 * outside the group it passed (MPI_GROUP_EMPTY, say) gets MPI_COMM_NULL.
 * On an intercommunicator every process of a side passes the same group
 * of its local processes (intercomm.c).
 */
API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
{
	struct comm *p, *c;
	struct group *g;
	char why[200] = "";
	int rc;

	runtime_check("MPI_Comm_create");
	if ((rc = comm_check("MPI_Comm_create", comm, &p, newcomm, "newcomm")) != MPI_SUCCESS)
		return rc;
	g = group_get(group);
	if (!g)
		return err_comm(comm, "MPI_Comm_create", MPI_ERR_GROUP, "group",
				"0x%x is not a valid group", (unsigned)group);
	if (p->remote ? !group_within(g, p->local) : !group_within(g, p))
		return err_comm(comm, "MPI_Comm_create", MPI_ERR_GROUP, "group",
				"is not a subgroup of the communicator's %sgroup",
				p->remote ? "local " : "");
	if (p->remote)
		rc = inter_split(p, g->rank == MPI_UNDEFINED ? MPI_UNDEFINED : 0, g->rank, g,
				 &c, why, sizeof(why));
	else
		rc = comm_split_do(p, CALL_COMM_CREATE, g->rank == MPI_UNDEFINED ?
				   MPI_UNDEFINED : g->world[0], g->rank, g, &c, why,
				   sizeof(why));
	if (rc == MPI_ERR_GROUP)
		return err_comm(comm, "MPI_Comm_create", rc, "group", "%s", why);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_create", rc, NULL,
				"cannot create the communicator");
	return comm_out(p, c, newcomm, 0);
}

/* What the first process of an MPI_Comm_create_group tells the others:
 * the context (UINT32_MAX: it failed) and which group it passed. */
struct create_told {
	uint32_t ctx;
	uint32_t pad_;
	uint64_t ghash;
};

/*
 * The group's first process: take a context id, create the area and tell
 * every other member; collect their answers (an MPI error class each),
 * then unlink the area's name.  MPI error class; *why when it is not
 * MPI_ERR_NO_MEM.
 */
static int create_group_first(struct comm *p, struct comm *c, const struct group *g,
			      int tag, char *why, size_t whylen)
{
	struct create_told told = { UINT32_MAX, 0, group_hash(g) };
	int rc;

	/* relaxed: only the id's value matters (as in comm_split) */
	c->ctx = atomic_fetch_add_explicit(&rt.job->next_ctx, 2, memory_order_relaxed);
	rc = comm_coll_create(c) < 0 ? MPI_ERR_NO_MEM : MPI_SUCCESS;
	if (rc == MPI_SUCCESS)
		told.ctx = c->ctx;
	for (int r = 1; r < g->size; r++)
		p2p_internal_send(p, comm_rank_of_world(p, g->world[r]), tag, &told,
				  sizeof(told), CALL_COMM_CREATE);
	for (int r = 1; r < g->size; r++) {
		int got = MPI_SUCCESS, from = comm_rank_of_world(p, g->world[r]);

		p2p_internal_recv(p, from, tag, &got, sizeof(got), CALL_COMM_CREATE);
		if (got == MPI_SUCCESS || rc != MPI_SUCCESS)
			continue;
		rc = got == MPI_ERR_GROUP ? MPI_ERR_GROUP : MPI_ERR_INTERN;
		snprintf(why, whylen, got == MPI_ERR_GROUP ?
			 "rank %d passed another group that begins with this process" :
			 "rank %d could not map the communicator", from);
	}
	if (c->coll)
		comm_coll_unlink(c);
	return rc;
}

/* Any other member: learn the context, map the area, answer. */
static int create_group_other(struct comm *p, struct comm *c, const struct group *g,
			      int tag, char *why, size_t whylen)
{
	int first = comm_rank_of_world(p, g->world[0]), rc;
	struct create_told told;

	p2p_internal_recv(p, first, tag, &told, sizeof(told), CALL_COMM_CREATE);
	c->ctx = told.ctx;
	if (told.ghash != group_hash(g)) {
		rc = MPI_ERR_GROUP;
		snprintf(why, whylen, "its first process, rank %d, passed another group",
			 first);
	} else if (told.ctx == UINT32_MAX) {
		rc = MPI_ERR_NO_MEM;
	} else if (comm_coll_open(c) < 0) {
		rc = MPI_ERR_INTERN;
		snprintf(why, whylen, "cannot map the communicator");
	} else {
		rc = MPI_SUCCESS;
	}
	p2p_internal_send(p, first, tag, &rc, sizeof(rc), CALL_COMM_CREATE);
	return rc;
}

int comm_create_in_group(struct comm *over, struct comm *c, const struct group *g,
			 int tag, char *why, size_t whylen)
{
	return g->rank == 0 ? create_group_first(over, c, g, tag, why, whylen) :
	       create_group_other(over, c, g, tag, why, whylen);
}

/*
 * Only the group's members call it (MPI 3.1, 6.4.2; for a process outside
 * its group the call is local and gives MPI_COMM_NULL): the group's first
 * process takes a context id, creates the area and tells each member by
 * message (on the parent's internal context, with the user's tag), with a
 * hash of the group it passed; each member checks that it passed the same
 * group, maps the area and answers; then the name goes.  Groups passed at
 * once by other processes are disjoint, or the same, so their messages
 * never meet.
 */
API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
{
	struct comm *p, *c;
	struct group *g;
	char why[160] = "";
	int rc;

	runtime_check("MPI_Comm_create_group");
	if ((rc = comm_check("MPI_Comm_create_group", comm, &p, newcomm, "newcomm")) !=
	    MPI_SUCCESS)
		return rc;
	if (p->remote)
		return comm_err_inter(comm, "MPI_Comm_create_group", "comm");
	g = group_get(group);
	if (!g)
		return err_comm(comm, "MPI_Comm_create_group", MPI_ERR_GROUP, "group",
				"0x%x is not a valid group", (unsigned)group);
	if (!group_within(g, p))
		return err_comm(comm, "MPI_Comm_create_group", MPI_ERR_GROUP, "group",
				"is not a subgroup of the communicator's group");
	if (tag < 0 || tag > P2P_TAG_UB)
		return err_comm(comm, "MPI_Comm_create_group", MPI_ERR_TAG, "tag",
				"%d is not a valid tag", tag);
	if (g->rank == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	c = comm_new(g, 0, -1, 0);
	if (!c)
		return err_comm(comm, "MPI_Comm_create_group", MPI_ERR_NO_MEM, NULL,
				"out of memory");
	rc = comm_create_in_group(p, c, g, tag, why, sizeof(why));
	if (rc != MPI_SUCCESS) {
		comm_unref(c);
		return err_comm(comm, "MPI_Comm_create_group", rc,
				rc == MPI_ERR_GROUP ? "group" : NULL, "%s",
				why[0] ? why : "cannot create the communicator");
	}
	return comm_out(p, c, newcomm, 0);
}

API(int, Comm_free, (MPI_Comm *comm))
{
	struct comm *c;

	runtime_check("MPI_Comm_free");
	if (!comm)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_free", MPI_ERR_ARG, "comm",
				"is NULL");
	c = comm_get(*comm);
	if (!c)
		return comm_err_invalid(*comm, "MPI_Comm_free");
	if (handle_is_builtin(*comm))
		return err_comm(*comm, "MPI_Comm_free", MPI_ERR_COMM, "comm",
				"%s cannot be freed", c->name);
	/* the delete callbacks run now; the object goes once no operation
	 * uses it any more */
	attr_delete_all(ATTR_COMM, c->handle, &c->attrs);
	comm_unref(c);
	*comm = MPI_COMM_NULL;
	return MPI_SUCCESS;
}

/* ---- queries ------------------------------------------------------------ */

API(int, Comm_rank, (MPI_Comm comm, int *rank))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_rank");
	if ((rc = comm_check("MPI_Comm_rank", comm, &c, rank, "rank")) != MPI_SUCCESS)
		return rc;
	*rank = c->rank;
	return MPI_SUCCESS;
}

API(int, Comm_size, (MPI_Comm comm, int *size))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_size");
	if ((rc = comm_check("MPI_Comm_size", comm, &c, size, "size")) != MPI_SUCCESS)
		return rc;
	*size = c->size;
	return MPI_SUCCESS;
}

API(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_group");
	if ((rc = comm_check("MPI_Comm_group", comm, &c, group, "group")) != MPI_SUCCESS)
		return rc;
	group_ref(c->group);
	*group = c->group->handle;
	return MPI_SUCCESS;
}

API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
{
	struct comm *a, *b;
	int rc;

	runtime_check("MPI_Comm_compare");
	if ((rc = comm_check("MPI_Comm_compare", comm1, &a, result, "result")) !=
	    MPI_SUCCESS)
		return rc;
	b = comm_get(comm2);
	if (!b)
		return comm_err_invalid(comm2, "MPI_Comm_compare");
	if (a == b) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (a->remote || b->remote)
		return inter_compare(a, b, result);
	rc = PMPI_Group_compare(a->group->handle, b->group->handle, result);
	/* the same group in the same order, but another context */
	if (rc == MPI_SUCCESS && *result == MPI_IDENT)
		*result = MPI_CONGRUENT;
	return rc;
}

API(int, Comm_test_inter, (MPI_Comm comm, int *flag))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_test_inter");
	if ((rc = comm_check("MPI_Comm_test_inter", comm, &c, flag, "flag")) != MPI_SUCCESS)
		return rc;
	*flag = c->remote != NULL;
	return MPI_SUCCESS;
}

API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_set_name");
	if ((rc = comm_check("MPI_Comm_set_name", comm, &c, comm_name, "comm_name")) !=
	    MPI_SUCCESS)
		return rc;
	snprintf(c->name, sizeof(c->name), "%s", comm_name);
	return MPI_SUCCESS;
}

API(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
{
	struct comm *c;
	int rc;

	runtime_check("MPI_Comm_get_name");
	if ((rc = comm_check("MPI_Comm_get_name", comm, &c, comm_name, "comm_name")) !=
	    MPI_SUCCESS)
		return rc;
	if (!resultlen)
		return err_comm(comm, "MPI_Comm_get_name", MPI_ERR_ARG, "resultlen",
				"is NULL");
	snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", c->name);
	*resultlen = (int)strlen(comm_name);
	return MPI_SUCCESS;
}

/* The hints in force: the ones set on the communicator, and shmpi_progress
 * (weak or strong: which progress this job runs under). */
API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
{
	char kinds[MEMKINDS_MAX];
	struct comm *c;
	struct info *copy;
	MPI_Info h;
	int rc;

	runtime_check("MPI_Comm_get_info");
	if ((rc = comm_check("MPI_Comm_get_info", comm, &c, info_used, "info_used")) !=
	    MPI_SUCCESS)
		return rc;
	rc = PMPI_Info_create(&h);
	if (rc != MPI_SUCCESS)
		return rc;
	copy = info_get(h);
	for (struct info_entry *e = c->info ? c->info->head : NULL; e; e = e->next)
		if (info_put(copy, e->key, e->value) < 0)
			goto err_free;
	if (info_put(copy, "shmpi_progress", progress_is_strong() ? "strong" : "weak") < 0)
		goto err_free;
	/* the kinds of its session, or the World model's (MPI 4.1, section
	 * 11.4.3) */
	memkinds_format(memkinds_of(c->group->memkinds), kinds, sizeof(kinds));
	if (info_put(copy, "mpi_memory_alloc_kinds", kinds) < 0)
		goto err_free;
	*info_used = h;
	return MPI_SUCCESS;

err_free:
	PMPI_Info_free(&h);
	return err_comm(comm, "MPI_Comm_get_info", MPI_ERR_NO_MEM, NULL, "out of memory");
}

/* Hints only: none changes what a communicator does, so they are kept. */
API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
{
	struct comm *c;
	struct info *i;

	runtime_check("MPI_Comm_set_info");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_set_info");
	if (!(i = info_get(info)))
		return err_comm(comm, "MPI_Comm_set_info", MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	if (!c->info && !(c->info = info_dup_internal(&(struct info){ 0 })))
		return err_comm(comm, "MPI_Comm_set_info", MPI_ERR_NO_MEM, NULL,
				"out of memory");
	for (struct info_entry *e = i->head; e; e = e->next)
		if (strcmp(e->key, "shmpi_progress") != 0 &&
		    info_put(c->info, e->key, e->value) < 0)
			return err_comm(comm, "MPI_Comm_set_info", MPI_ERR_NO_MEM, NULL,
					"out of memory");
	return MPI_SUCCESS;
}
