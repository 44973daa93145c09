/*
 * The Sessions Model (MPI 4.1, chapter 11, section 11.3): sessions, their
 * process sets, the groups of those and the communicators made from the
 * groups.
 *
 * A session is a local object.  The first session of a process that has
 * not called MPI_Init brings the library up, and the last one, once the
 * World model is done or was never used, takes it down (runtime.c).  The
 * process sets are the two that section 11.3.2 gives every
 * implementation: "mpi://WORLD", every process of the job, and
 * "mpi://SELF".
 *
 * MPI_Comm_create_from_group (MPI 4.1, section 7.4.2) has no parent
 * communicator: its members trade the new context id by messages on the
 * library's communicator over the whole job (comm_sessions(), comm.h), as
 * MPI_Comm_create_group does on its parent, with a tag made from the
 * string tag, so that calls with the same group and string tag match and
 * calls with another string tag do not.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "bsend.h"
#include "coll.h"
#include "comm.h"
#include "errhandler.h"
#include "group.h"
#include "handle.h"
#include "info.h"
#include "intercomm.h"
#include "memkinds.h"
#include "p2p.h"
#include "runtime.h"
#include "session.h"
#include "state.h"

struct session {
	MPI_Session handle;
	struct errhandler *errh;
	int thread_level;	/* what it asked for, or what the library has */
	struct bsend_pool *bsend;	/* its buffer for buffered sends */
	unsigned memkinds;	/* the memory allocation kinds it asked for */
};

static const char *const session_psets[] = { "mpi://WORLD", "mpi://SELF" };
#define SESSION_NPSETS ((int)(sizeof(session_psets) / sizeof(session_psets[0])))

static const char *const thread_level_names[] = {
	[MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE",
	[MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
	[MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED",
	[MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE",
};

static struct session *session_get(MPI_Session h)
{
	return handle_get(h, HANDLE_SESSION);
}

/* An invalid session has no handler of its own: MPI_COMM_WORLD's (the
 * library's default when the World model is not in use). */
static int session_err_invalid(MPI_Session session, const char *call)
{
	return err_comm(MPI_COMM_WORLD, call, MPI_ERR_SESSION, "session",
			"0x%x is not a valid session", (unsigned)session);
}

/* The thread level the info's "thread_level" key asks for (MPI 4.1,
 * section 11.3.1), MPI_THREAD_SINGLE without one, -1 for a value that
 * names no level. */
static int session_thread_level(const struct info *i)
{
	const char *v = i ? info_lookup(i, "thread_level") : NULL;

	if (!v)
		return MPI_THREAD_SINGLE;
	for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++)
		if (strcasecmp(v, thread_level_names[l]) == 0)
			return l;
	return -1;
}

/*
 * Errors of MPI_Session_init go to the errhandler argument when it is a
 * handler (MPI 4.1, section 11.3.1), else to the library's default.
 */
static int session_init_err(struct errhandler *eh, int errclass, const char *arg,
			    const char *what)
{
	return err_obj(eh, MPI_SESSION_NULL, "MPI_Session_init", errclass, arg,
		       "%s", what);
}

API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
{
	struct errhandler *eh;
	struct session *s;
	struct info *i = NULL;
	int level;

	runtime_hold();
	/* the predefined handlers exist while the library is down too */
	if (rt.phase != RUNTIME_ACTIVE)
		errh_init_builtins();
	eh = errh_get(errhandler);
	if (!eh)
		return session_init_err(NULL, MPI_ERR_ARG, "errhandler",
					"is not a valid error handler");
	if (eh->kind != ERRH_ANY && eh->kind != ERRH_SESSION)
		return session_init_err(eh, MPI_ERR_ARG, "errhandler",
					"was not created for sessions");
	if (!session)
		return session_init_err(eh, MPI_ERR_ARG, "session", "is NULL");
	if (rt.phase == RUNTIME_FINALIZED)
		return session_init_err(eh, MPI_ERR_OTHER, NULL,
					"the library does not start again once it has "
					"been finalized");
	if (info != MPI_INFO_NULL && !(i = info_get(info)))
		return session_init_err(eh, MPI_ERR_INFO, "info", "is not a valid info");
	level = session_thread_level(i);
	if (level < 0)
		return session_init_err(eh, MPI_ERR_INFO_VALUE, "info",
					"thread_level names no thread level");
	s = calloc(1, sizeof(*s));
	if (!s)
		return session_init_err(eh, MPI_ERR_NO_MEM, NULL, "out of memory");
	if (rt.phase == RUNTIME_BEFORE_INIT)
		runtime_up("MPI_Session_init", level, NULL, NULL);
	else if (rt.parked)
		runtime_unpark();
	s->bsend = bsend_pool_new();
	if (!s->bsend || handle_alloc(HANDLE_SESSION, s, &s->handle) < 0) {
		bsend_pool_unref(s->bsend);
		free(s);
		return session_init_err(eh, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	/* the library has one level for all: what it provides when less
	 * than asked (MPI 4.1, section 11.3.1) */
	s->thread_level = level < rt.thread_level ? level : rt.thread_level;
	/* the kinds asked for that shmpi supports (MPI 4.1, section 11.4.3) */
	if (i && info_lookup(i, "mpi_memory_alloc_kinds"))
		s->memkinds = memkinds_parse(info_lookup(i, "mpi_memory_alloc_kinds")) |
			      MEMKIND_GIVEN;
	errh_ref(eh);
	s->errh = eh;
	rt.sessions++;
	*session = s->handle;
	return MPI_SUCCESS;
}

/*
 * Objects derived from the session stay as they are (the program frees
 * them).  The messages in the session's buffer leave first, as
 * MPI_Session_detach_buffer would wait for them.  The last session of a
 * process that never called MPI_Init leaves the library up: the Sessions
 * Model lets a process initialize MPI again (MPI 4.1, section 11.3), so a
 * later MPI_Session_init finds it there, and the process takes it down as
 * it exits (runtime.c).  After MPI_Finalize the last session takes it down.
 */
API(int, Session_finalize, (MPI_Session *session))
{
	struct session *s;

	runtime_check("MPI_Session_finalize");
	if (!session)
		return err_comm(MPI_COMM_WORLD, "MPI_Session_finalize", MPI_ERR_ARG,
				"session", "is NULL");
	s = session_get(*session);
	if (!s)
		return session_err_invalid(*session, "MPI_Session_finalize");
	bsend_pool_drain(s->bsend, CALL_SESSION_DETACH_BUFFER);
	bsend_pool_unref(s->bsend);
	handle_release(s->handle);
	errh_unref(s->errh);
	free(s);
	*session = MPI_SESSION_NULL;
	if (--rt.sessions == 0 && rt.world == RUNTIME_FINALIZED)
		runtime_down();
	else if (!rt.sessions && rt.world == RUNTIME_BEFORE_INIT)
		runtime_park();
	return MPI_SUCCESS;
}

/* The session behind handle h for `call`, or NULL after raising the error
 * (into *rc). */
static struct session *session_check(MPI_Session h, const char *call, int *rc)
{
	struct session *s = session_get(h);

	*rc = s ? MPI_SUCCESS : session_err_invalid(h, call);
	return s;
}

struct bsend_pool *session_bsend(MPI_Session h, const char *call,
				 struct errhandler **eh, int *rc)
{
	struct session *s = session_check(h, call, rc);

	if (!s)
		return NULL;
	*eh = s->errh;
	return s->bsend;
}

/* A new info object for the program, into *out: key and value, and key2
 * and value2 unless key2 is NULL. */
static int session_info_out(struct session *s, const char *call, const char *key,
			    const char *value, const char *key2, const char *value2,
			    MPI_Info *out)
{
	struct info *i = info_alloc(1);

	if (!i || info_put(i, key, value) < 0 ||
	    (key2 && value2 && info_put(i, key2, value2) < 0)) {
		info_unref(i);
		return err_obj(s->errh, s->handle, call, MPI_ERR_NO_MEM, NULL,
			       "out of memory");
	}
	*out = i->handle;
	return MPI_SUCCESS;
}

/* thread_level, the key of MPI_Session_init (MPI 4.1, section 11.3.1), and
 * the memory allocation kinds it provides (section 11.4.3). */
API(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
{
	char kinds[MEMKINDS_MAX];
	struct session *s;
	int rc;

	runtime_check("MPI_Session_get_info");
	if (!(s = session_check(session, "MPI_Session_get_info", &rc)))
		return rc;
	if (!info_used)
		return err_obj(s->errh, session, "MPI_Session_get_info", MPI_ERR_ARG,
			       "info_used", "is NULL");
	memkinds_format(memkinds_of(s->memkinds), kinds, sizeof(kinds));
	return session_info_out(s, "MPI_Session_get_info", "thread_level",
				thread_level_names[s->thread_level], "mpi_memory_alloc_kinds",
				kinds, info_used);
}

API(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
{
	struct session *s;
	int rc;

	runtime_check("MPI_Session_get_num_psets");
	if (!(s = session_check(session, "MPI_Session_get_num_psets", &rc)))
		return rc;
	if (info != MPI_INFO_NULL && !info_get(info))
		return err_obj(s->errh, session, "MPI_Session_get_num_psets",
			       MPI_ERR_INFO, "info", "is not a valid info");
	if (!npset_names)
		return err_obj(s->errh, session, "MPI_Session_get_num_psets",
			       MPI_ERR_ARG, "npset_names", "is NULL");
	*npset_names = SESSION_NPSETS;
	return MPI_SUCCESS;
}

/*
 * pset_len 0 asks for the length the name needs, its terminating null
 * included; otherwise the name is copied, cut to pset_len - 1 characters
 * if longer (MPI 4.1, section 11.3.3).
 */
API(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len,
				char *pset_name))
{
	const char *name;
	struct session *s;
	size_t need;
	int rc;

	runtime_check("MPI_Session_get_nth_pset");
	if (!(s = session_check(session, "MPI_Session_get_nth_pset", &rc)))
		return rc;
	if (info != MPI_INFO_NULL && !info_get(info))
		return err_obj(s->errh, session, "MPI_Session_get_nth_pset",
			       MPI_ERR_INFO, "info", "is not a valid info");
	if (n < 0 || n >= SESSION_NPSETS)
		return err_obj(s->errh, session, "MPI_Session_get_nth_pset",
			       MPI_ERR_ARG, "n", "%d is not in [0, %d)", n,
			       SESSION_NPSETS);
	if (!pset_len || *pset_len < 0)
		return err_obj(s->errh, session, "MPI_Session_get_nth_pset",
			       MPI_ERR_ARG, "pset_len", pset_len ? "is negative" :
			       "is NULL");
	name = session_psets[n];
	need = strlen(name) + 1;
	if (*pset_len == 0) {
		*pset_len = (int)need;
		return MPI_SUCCESS;
	}
	if (!pset_name)
		return err_obj(s->errh, session, "MPI_Session_get_nth_pset",
			       MPI_ERR_ARG, "pset_name", "is NULL");
	snprintf(pset_name, (size_t)*pset_len, "%s", name);
	return MPI_SUCCESS;
}

/* The index of a process set's name, or -1 for none of ours. */
static int session_pset_index(const char *name)
{
	for (int p = 0; p < SESSION_NPSETS; p++)
		if (strcmp(name, session_psets[p]) == 0)
			return p;
	return -1;
}

/* The members of process set p: every job rank, or this one. */
static struct group *session_pset_group(int p)
{
	struct group *g;
	int *all;

	if (p == 1)
		return group_new(&rt.rank, 1);
	all = malloc(sizeof(int) * (size_t)rt.size);
	if (!all)
		return NULL;
	for (int r = 0; r < rt.size; r++)
		all[r] = r;
	g = group_new(all, rt.size);
	free(all);
	return g;
}

/* The process set named by pset_name for `call`, or -1 after raising the
 * error (into *rc). */
static int session_pset_check(struct session *s, const char *call, const char *pset_name,
			      int *rc)
{
	int p;

	if (!pset_name) {
		*rc = err_obj(s->errh, s->handle, call, MPI_ERR_ARG, "pset_name",
			      "is NULL");
		return -1;
	}
	p = session_pset_index(pset_name);
	*rc = p >= 0 ? MPI_SUCCESS :
	      err_obj(s->errh, s->handle, call, MPI_ERR_ARG, "pset_name",
		      "\"%.64s\" names no process set", pset_name);
	return p;
}

/* mpi_size, the one key MPI 4.1 defines for every process set (section
 * 11.3.3). */
API(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
{
	struct session *s;
	char size[16];
	int rc, p;

	runtime_check("MPI_Session_get_pset_info");
	if (!(s = session_check(session, "MPI_Session_get_pset_info", &rc)))
		return rc;
	if ((p = session_pset_check(s, "MPI_Session_get_pset_info", pset_name, &rc)) < 0)
		return rc;
	if (!info)
		return err_obj(s->errh, session, "MPI_Session_get_pset_info",
			       MPI_ERR_ARG, "info", "is NULL");
	snprintf(size, sizeof(size), "%d", p == 1 ? 1 : rt.size);
	return session_info_out(s, "MPI_Session_get_pset_info", "mpi_size", size, NULL, NULL,
				info);
}

API(int, Group_from_session_pset, (MPI_Session session, const char *pset_name,
				   MPI_Group *newgroup))
{
	struct session *s;
	struct group *g;
	int rc, p;

	runtime_check("MPI_Group_from_session_pset");
	if (!(s = session_check(session, "MPI_Group_from_session_pset", &rc)))
		return rc;
	if ((p = session_pset_check(s, "MPI_Group_from_session_pset", pset_name, &rc)) < 0)
		return rc;
	if (!newgroup)
		return err_obj(s->errh, session, "MPI_Group_from_session_pset",
			       MPI_ERR_ARG, "newgroup", "is NULL");
	g = session_pset_group(p);
	if (!g)
		return err_obj(s->errh, session, "MPI_Group_from_session_pset",
			       MPI_ERR_NO_MEM, NULL, "out of memory");
	/* its communicators send buffered through the session's buffer */
	bsend_pool_ref(s->bsend);
	g->bsend_session = s->bsend;
	g->memkinds = s->memkinds;
	*newgroup = g->handle;
	return MPI_SUCCESS;
}

/* The tag of a string tag: FNV-1a, folded to a valid tag. */
static int session_tag(const char *stringtag)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (int)((h ^ h >> 32) & P2P_TAG_UB);
}

/* Errors of MPI_Comm_create_from_group: on the errhandler argument once
 * it is known to be one, before that the library's default. */
static int create_from_group_err(struct errhandler *eh, int errclass, const char *arg,
				 const char *what)
{
	if (!eh)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_create_from_group", errclass,
				arg, "%s", what);
	return err_obj(eh, MPI_SESSION_NULL, "MPI_Comm_create_from_group",
		       errclass, arg, "%s", what);
}

/*
 * Collective over the group's members (MPI 4.1, section 7.4.2): they all
 * pass the same group and string tag.  A process outside the group (or
 * with MPI_GROUP_EMPTY) gets MPI_COMM_NULL without communicating.  The
 * new communicator has the errhandler argument as its error handler.
 */
API(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
				  MPI_Errhandler errhandler, MPI_Comm *newcomm))
{
	struct errhandler *eh;
	struct group *g;
	struct comm *c;
	char why[160] = "";
	int rc;

	runtime_check("MPI_Comm_create_from_group");
	eh = errh_get(errhandler);
	if (!eh)
		return create_from_group_err(NULL, MPI_ERR_ARG, "errhandler",
					     "is not a valid error handler");
	if (eh->kind != ERRH_ANY && eh->kind != ERRH_COMM)
		return create_from_group_err(NULL, MPI_ERR_ARG, "errhandler",
					     "was not created for communicators");
	if (!(g = group_get(group)))
		return create_from_group_err(eh, MPI_ERR_GROUP, "group",
					     "is not a valid group");
	if (!stringtag)
		return create_from_group_err(eh, MPI_ERR_ARG, "stringtag", "is NULL");
	if (strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
		return create_from_group_err(eh, MPI_ERR_ARG, "stringtag",
					     "is longer than MPI_MAX_STRINGTAG_LEN - 1");
	if (info != MPI_INFO_NULL && !info_get(info))
		return create_from_group_err(eh, MPI_ERR_INFO, "info",
					     "is not a valid info");
	if (!newcomm)
		return create_from_group_err(eh, MPI_ERR_ARG, "newcomm", "is NULL");
	if (g->rank == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	c = comm_new(g, 0, -1, 0);
	if (!c)
		return create_from_group_err(eh, MPI_ERR_NO_MEM, NULL, "out of memory");
	rc = comm_create_in_group(comm_sessions(), c, g, session_tag(stringtag), why,
				  sizeof(why));
	if (rc != MPI_SUCCESS) {
		comm_unref(c);
		return create_from_group_err(eh, rc, rc == MPI_ERR_GROUP ? "group" : NULL,
					     why[0] ? why :
					     "cannot create the communicator");
	}
	errh_ref(eh);
	errh_unref(c->errh);
	c->errh = eh;
	*newcomm = c->handle;
	return MPI_SUCCESS;
}

/*
 * The context pair of a new intercommunicator (MPI 4.1, section 7.6.2):
 * the leader of lower job rank takes it and tells the other leader on the
 * library's communicator over the job; each leader broadcasts it in its
 * group over local.  An MPI error class.
 */
static int session_inter_ctx(struct comm *local, int local_leader, int lw, int rw,
			     int tag, uint32_t *ctx)
{
	int rc = MPI_SUCCESS;

	if (local->rank == local_leader) {
		if (lw < rw) {
			*ctx = inter_take_ids(2);
			rc = p2p_internal_send(comm_sessions(), rw, tag, ctx, sizeof(*ctx),
					       CALL_COMM_CREATE);
		} else {
			rc = p2p_internal_recv(comm_sessions(), rw, tag, ctx, sizeof(*ctx),
					       CALL_COMM_CREATE);
		}
	}
	coll_bcast_bytes(local, CALL_COMM_CREATE, ctx, sizeof(*ctx), local_leader);
	return rc;
}

/* Errors of MPI_Intercomm_create_from_groups, as those of
 * MPI_Comm_create_from_group. */
static int inter_from_groups_err(struct errhandler *eh, int errclass, const char *arg,
				 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int inter_from_groups_err(struct errhandler *eh, int errclass, const char *arg,
				 const char *fmt, ...)
{
	static const char call[] = "MPI_Intercomm_create_from_groups";
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!eh)
		return err_comm(MPI_COMM_WORLD, call, errclass, arg, "%s", what);
	return err_obj(eh, MPI_SESSION_NULL, call, errclass, arg, "%s", what);
}

/*
 * Collective over the members of both groups (MPI 4.1, section 7.6.2):
 * each passes its own group as local_group, the other as remote_group,
 * and the same string tag.  The local groups' communicators come as in
 * MPI_Comm_create_from_group (on a tag of their own), then the leaders
 * agree on the context.  The new intercommunicator has the errhandler
 * argument as its error handler.
 */
API(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader,
					MPI_Group remote_group, int remote_leader,
					const char *stringtag, MPI_Info info,
					MPI_Errhandler errhandler, MPI_Comm *newintercomm))
{
	struct comm *local, *c;
	struct group *lg, *rg;
	struct errhandler *eh;
	char why[160] = "";
	uint32_t ctx = 0;
	int tag, rc;

	runtime_check("MPI_Intercomm_create_from_groups");
	eh = errh_get(errhandler);
	if (!eh || (eh->kind != ERRH_ANY && eh->kind != ERRH_COMM))
		return inter_from_groups_err(NULL, MPI_ERR_ARG, "errhandler", "%s",
					     !eh ? "is not a valid error handler" :
					     "was not created for communicators");
	if (!(lg = group_get(local_group)) || !(rg = group_get(remote_group)))
		return inter_from_groups_err(eh, MPI_ERR_GROUP,
					     !lg ? "local_group" : "remote_group",
					     "is not a valid group");
	if (lg->rank == MPI_UNDEFINED)
		return inter_from_groups_err(eh, MPI_ERR_GROUP, "local_group",
					     "does not hold the calling process");
	for (int r = 0; r < rg->size; r++)
		if (lg->index[rg->world[r]] >= 0)
			return inter_from_groups_err(eh, MPI_ERR_GROUP, "remote_group",
						     "shares job rank %d with local_group",
						     rg->world[r]);
	if (local_leader < 0 || local_leader >= lg->size)
		return inter_from_groups_err(eh, MPI_ERR_RANK, "local_leader",
					     "%d is not a rank of local_group (size %d)",
					     local_leader, lg->size);
	if (remote_leader < 0 || remote_leader >= rg->size)
		return inter_from_groups_err(eh, MPI_ERR_RANK, "remote_leader",
					     "%d is not a rank of remote_group (size %d)",
					     remote_leader, rg->size);
	if (!stringtag || strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
		return inter_from_groups_err(eh, MPI_ERR_ARG, "stringtag", "%s",
					     !stringtag ? "is NULL" :
					     "is longer than MPI_MAX_STRINGTAG_LEN - 1");
	if (info != MPI_INFO_NULL && !info_get(info))
		return inter_from_groups_err(eh, MPI_ERR_INFO, "info", "is not a valid info");
	if (!newintercomm)
		return inter_from_groups_err(eh, MPI_ERR_ARG, "newintercomm", "is NULL");
	/* not the tag of MPI_Comm_create_from_group with the same string */
	tag = session_tag(stringtag) ^ 1;
	local = comm_new(lg, 0, -1, 0);
	if (!local)
		return inter_from_groups_err(eh, MPI_ERR_NO_MEM, NULL, "out of memory");
	rc = comm_create_in_group(comm_sessions(), local, lg, tag, why, sizeof(why));
	if (rc == MPI_SUCCESS)
		rc = session_inter_ctx(local, local_leader, lg->world[local_leader],
				       rg->world[remote_leader], tag, &ctx);
	if (rc != MPI_SUCCESS) {
		comm_unref(local);
		return inter_from_groups_err(eh, rc, rc == MPI_ERR_GROUP ? "local_group" : NULL,
					     "%s", why[0] ? why :
					     "cannot create the communicator");
	}
	c = inter_new(local, rg, ctx);
	if (!c)
		return inter_from_groups_err(eh, MPI_ERR_NO_MEM, NULL, "out of memory");
	errh_ref(eh);
	errh_unref(c->errh);
	c->errh = eh;
	*newintercomm = c->handle;
	return MPI_SUCCESS;
}

/* ---- error handlers (MPI 4.1, section 9.3.4) ------------------------------ */

/* Callable at any time, so that MPI_Session_init can be given one. */
API(int, Session_create_errhandler, (MPI_Session_errhandler_function *fn,
				     MPI_Errhandler *errhandler))
{
	runtime_hold();
	if (!fn || !errhandler)
		return rt.phase != RUNTIME_ACTIVE ? MPI_ERR_ARG :
		       err_comm(MPI_COMM_WORLD, "MPI_Session_create_errhandler",
				MPI_ERR_ARG, fn ? "errhandler" : "session_errhandler_fn",
				"is NULL");
	if (errh_create(ERRH_SESSION, (errh_fn *)fn, errhandler) != MPI_SUCCESS)
		return rt.phase != RUNTIME_ACTIVE ? MPI_ERR_NO_MEM :
		       err_comm(MPI_COMM_WORLD, "MPI_Session_create_errhandler",
				MPI_ERR_NO_MEM, NULL, "out of memory");
	return MPI_SUCCESS;
}

API(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
{
	struct errhandler *eh;
	struct session *s;
	int rc;

	runtime_check("MPI_Session_set_errhandler");
	if (!(s = session_check(session, "MPI_Session_set_errhandler", &rc)))
		return rc;
	eh = errh_get(errhandler);
	if (!eh)
		return err_obj(s->errh, session, "MPI_Session_set_errhandler",
			       MPI_ERR_ARG, "errhandler",
			       "0x%x is not a valid error handler", (unsigned)errhandler);
	if (eh->kind != ERRH_ANY && eh->kind != ERRH_SESSION)
		return err_obj(s->errh, session, "MPI_Session_set_errhandler",
			       MPI_ERR_ARG, "errhandler", "was not created for sessions");
	errh_ref(eh);
	errh_unref(s->errh);
	s->errh = eh;
	return MPI_SUCCESS;
}

API(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
{
	struct session *s;
	int rc;

	runtime_check("MPI_Session_get_errhandler");
	if (!(s = session_check(session, "MPI_Session_get_errhandler", &rc)))
		return rc;
	if (!errhandler)
		return err_obj(s->errh, session, "MPI_Session_get_errhandler",
			       MPI_ERR_ARG, "errhandler", "is NULL");
	/* a new reference, for MPI_Errhandler_free */
	errh_ref(s->errh);
	*errhandler = s->errh->handle;
	return MPI_SUCCESS;
}

API(int, Session_call_errhandler, (MPI_Session session, int errorcode))
{
	struct session *s;
	int rc;

	runtime_check("MPI_Session_call_errhandler");
	if (!(s = session_check(session, "MPI_Session_call_errhandler", &rc)))
		return rc;
	if (!err_class_name(errorcode) || errorcode == MPI_SUCCESS)
		return err_obj(s->errh, session, "MPI_Session_call_errhandler",
			       MPI_ERR_ARG, "errorcode", "%d is not an error code",
			       errorcode);
	err_obj(s->errh, session, "MPI_Session_call_errhandler", errorcode, NULL,
		"raised by the program");
	/* the call itself succeeded when the handler returned */
	return MPI_SUCCESS;
}
