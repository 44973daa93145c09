/*
 * The MPI_T performance variables (MPI 3.1, section 14.3.7), their
 * sessions and handles, over the counts of pvar.h.  The README lists the
 * variables.
 *
 * A counter or a timer counts, per handle, from the handle's start: the
 * handle keeps what it counted while started before (and what was written
 * to it), and the count when it started (mark); its value is the first
 * plus what the count gained since the mark.  Reading costs nothing to the
 * paths, which only ever add to their counts.  The level (the unexpected
 * queue's length) is the count itself, at any time: continuous and read
 * only.  The high-water mark is continuous too, and each handle's is the
 * largest level since the handle came or was reset: the engine keeps one
 * running maximum, which every MPI_T call that touches such a handle first
 * folds into every such handle before lowering it to the level of now
 * (hwm_fold), so that no handle loses a peak the others have seen.
 *
 * Every variable is per process (MPI_T_BIND_NO_OBJECT: it counts what this
 * rank did over every window and communicator), can be read and reset
 * atomically (reads and resets happen under the engine's lock, which every
 * engine-side count is changed under), and all but the level may be
 * written and reset.  Sessions and handles live until they are freed or the
 * last MPI_T_finalize.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../shm/futex.h"
#include "api.h"
#include "mpit.h"
#include "progress.h"
#include "pvar.h"

#define PVAR_MAGIC 0x70766172u		/* "pvar" */
#define SESSION_MAGIC 0x70736573u	/* "pses" */

/* Where a variable's count comes from. */
enum pvar_src {
	SRC_FIELD,		/* the uint64_t of pvar_c at off */
	SRC_FUTEX_SLEEPS,	/* shm/futex.h's counts */
	SRC_FUTEX_WAKES,
};

struct pvar_def {
	const char *name;
	const char *desc;
	int cls;		/* MPI_T_PVAR_CLASS_* */
	int verbosity;
	enum mpit_cat cat;
	enum pvar_src src;
	size_t off;		/* SRC_FIELD: its offset in struct pvar_counts */
	size_t level_off;	/* a high-water mark: the level's field */
};

#define OFF(f) offsetof(struct pvar_counts, f)
#define COUNTER(name, verbosity, cat, field, desc) \
	{ name, desc, MPI_T_PVAR_CLASS_COUNTER, MPI_T_VERBOSITY_##verbosity, MPIT_CAT_##cat, \
	  SRC_FIELD, OFF(field), 0 }
#define RMA_PATH(name, calls, kind, path, pathname, where) \
	COUNTER("rma_" name "_" pathname, USER_BASIC, RMA, rma[kind][path].ops, \
		calls " that this rank issued to targets " where), \
	COUNTER("rma_" name "_" pathname "_bytes", USER_BASIC, RMA, rma[kind][path].bytes, \
		"bytes of target memory that the " calls " to targets " where " reached")
#define RMA(name, calls, kind) \
	RMA_PATH(name, calls, kind, PVAR_PATH_DIRECT, "direct", \
		 "of the direct path (memory mapped here) touched"), \
	RMA_PATH(name, calls, kind, PVAR_PATH_PRIVATE, "private", \
		 "of the private path (packets the target's engine applies)")
#define WAIT(name, kind, what) \
	COUNTER("wait_" name, TUNER_DETAIL, PROGRESS, waits[kind], \
		"blocking waits in MPI calls for " what ", as the watchdog sees them")

static const struct pvar_def pvars[] = {
	RMA("put", "MPI_Put and MPI_Rput operations", PVAR_RMA_PUT),
	RMA("get", "MPI_Get and MPI_Rget operations", PVAR_RMA_GET),
	RMA("accumulate", "MPI_Accumulate and MPI_Raccumulate operations", PVAR_RMA_ACC),
	RMA("get_accumulate", "MPI_Get_accumulate and MPI_Rget_accumulate operations",
	    PVAR_RMA_GET_ACC),
	RMA("fetch_and_op", "MPI_Fetch_and_op operations", PVAR_RMA_FOP),
	RMA("compare_and_swap", "MPI_Compare_and_swap operations", PVAR_RMA_CAS),
	COUNTER("rma_lock_direct", USER_DETAIL, RMA, locks_direct,
		"passive-target locks granted to this rank at targets of the direct "
		"path (MPI_Win_lock: one; MPI_Win_lock_all: one per target; none "
		"under MPI_MODE_NOCHECK)"),
	COUNTER("rma_lock_private", USER_DETAIL, RMA, locks_private,
		"passive-target locks granted to this rank by targets of the "
		"private path (a lock that travels with the epoch's one operation "
		"counts as it leaves)"),
	COUNTER("rma_lock_waits", USER_DETAIL, RMA, lock_waits,
		"passive-target locks this rank waited for, not granted at once"),
	{ "rma_lock_wait_time", "seconds this rank waited for passive-target locks "
	  "not granted at once (MPI_DOUBLE)", MPI_T_PVAR_CLASS_TIMER,
	  MPI_T_VERBOSITY_USER_DETAIL, MPIT_CAT_RMA, SRC_FIELD, OFF(lock_wait_ns), 0 },
	COUNTER("rma_flushes", USER_DETAIL, RMA, flushes,
		"MPI_Win_flush, MPI_Win_flush_local, MPI_Win_flush_all and "
		"MPI_Win_flush_local_all calls (MPI_PROC_NULL aside)"),
	COUNTER("p2p_sent", USER_BASIC, P2P, sent,
		"point-to-point messages this rank sent (every mode, blocking or not; "
		"not the library's own messages, nor MPI_PROC_NULL)"),
	COUNTER("p2p_sent_bytes", USER_BASIC, P2P, sent_bytes,
		"bytes of the point-to-point messages this rank sent"),
	COUNTER("p2p_received", USER_BASIC, P2P, received,
		"point-to-point messages matched to receives of this rank"),
	COUNTER("p2p_received_bytes", USER_BASIC, P2P, received_bytes,
		"bytes of the messages matched to receives of this rank, as sent"),
	COUNTER("p2p_rndv_cma", USER_DETAIL, P2P, rndv_cma,
		"rendezvous messages matched to receives of this rank whose data it "
		"copied once from the sender's memory with process_vm_readv"),
	COUNTER("p2p_rndv_shared", USER_DETAIL, P2P, rndv_shared,
		"of the messages of p2p_rndv_cma, those whose sender was asked to "
		"write part of the data itself (SHMPI_SINGLE_COPY_SHARE)"),
	COUNTER("p2p_rndv_pushed_bytes", USER_DETAIL, P2P, rndv_pushed_bytes,
		"bytes this rank wrote with process_vm_writev into the receive buffers "
		"of its messages, helping their receivers copy them"),
	COUNTER("p2p_rndv_mapped", USER_DETAIL, P2P, rndv_mapped,
		"rendezvous messages matched to receives of this rank whose data it "
		"copied once from memory mapped here (MPI_Alloc_mem or window memory, "
		"or a message to itself)"),
	COUNTER("p2p_rndv_pipeline", USER_DETAIL, P2P, rndv_pipeline,
		"rendezvous messages matched to receives of this rank whose data came "
		"through the channels, copied by the sender and again by this rank"),
	{ "p2p_unexpected", "messages in this rank's unexpected queue (arrived before "
	  "a matching receive) now", MPI_T_PVAR_CLASS_LEVEL, MPI_T_VERBOSITY_USER_DETAIL,
	  MPIT_CAT_P2P, SRC_FIELD, OFF(unexpected), 0 },
	{ "p2p_unexpected_max", "the most messages this rank's unexpected queue held "
	  "at once since the handle was allocated or reset",
	  MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_VERBOSITY_USER_DETAIL, MPIT_CAT_P2P,
	  SRC_FIELD, OFF(unexpected_max), OFF(unexpected) },
	COUNTER("progress_polls", TUNER_DETAIL, PROGRESS, polls,
		"passes of this rank's progress engine (in MPI calls, and in the "
		"progress thread under strong progress)"),
	{ "futex_sleeps", "times a thread of this rank slept on a futex (blocked "
	  "waits that spun without success)", MPI_T_PVAR_CLASS_COUNTER,
	  MPI_T_VERBOSITY_TUNER_DETAIL, MPIT_CAT_PROGRESS, SRC_FUTEX_SLEEPS, 0, 0 },
	{ "futex_wakes", "futex wake-ups this rank made to wake sleeping ranks",
	  MPI_T_PVAR_CLASS_COUNTER, MPI_T_VERBOSITY_TUNER_DETAIL, MPIT_CAT_PROGRESS,
	  SRC_FUTEX_WAKES, 0, 0 },
	WAIT("recv", WAIT_RECV, "a message"),
	WAIT("recv_data", WAIT_RECV_DATA, "the rest of a matched message"),
	WAIT("send", WAIT_SEND, "a send to complete"),
	WAIT("send_data", WAIT_SEND_DATA, "room to send the rest of a matched message"),
	WAIT("requests", WAIT_REQUESTS, "some of several requests"),
	WAIT("probe", WAIT_PROBE, "a message to probe"),
	WAIT("bsend_drain", WAIT_BSEND_DRAIN, "buffered messages to leave"),
	WAIT("barrier", WAIT_BARRIER, "the other members at a barrier"),
	WAIT("coll_data", WAIT_COLL_DATA, "a member's contribution to a collective"),
	WAIT("coll_ack", WAIT_COLL_ACK, "members to read this rank's contribution"),
	WAIT("win_post", WAIT_WIN_POST, "an MPI_Win_post (MPI_Win_start)"),
	WAIT("win_complete", WAIT_WIN_COMPLETE, "the MPI_Win_complete calls (MPI_Win_wait)"),
	WAIT("win_lock", WAIT_WIN_LOCK, "a passive-target lock"),
	WAIT("rma_target", WAIT_RMA_TARGET, "operations on private memory to be applied"),
};

#define NPVARS ((int)(sizeof(pvars) / sizeof(pvars[0])))

_Static_assert(NPVARS == 4 * PVAR_RMA_KINDS + 19 + WAIT_KIND_COUNT - 1,
	       "a variable for every count");

struct MPI_T_pvar_session_s {
	unsigned magic;
	struct MPI_T_pvar_handle_s *handles;
	struct MPI_T_pvar_session_s *next;	/* every live session */
};

struct MPI_T_pvar_handle_s {
	unsigned magic;
	int index;
	struct MPI_T_pvar_session_s *session;
	struct MPI_T_pvar_handle_s *next;	/* in its session */
	int started;
	uint64_t value;		/* counted while started before, or written; the
				 * high-water mark's own maximum */
	uint64_t mark;		/* the count when it started (or was reset) */
};

static struct MPI_T_pvar_session_s *sessions;

int mpit_pvar_count(void)
{
	return NPVARS;
}

enum mpit_cat mpit_pvar_cat(int i)
{
	return pvars[i].cat;
}

/* ---- values (under the engine's lock) ---------------------------------- */

static int pvar_readonly(const struct pvar_def *d)
{
	return d->cls == MPI_T_PVAR_CLASS_LEVEL;
}

static int pvar_continuous(const struct pvar_def *d)
{
	return d->cls == MPI_T_PVAR_CLASS_LEVEL || d->cls == MPI_T_PVAR_CLASS_HIGHWATERMARK;
}

static uint64_t *pvar_field(size_t off)
{
	return (uint64_t *)(void *)((char *)&pvar_c + off);
}

/* The variable's count now. */
static uint64_t pvar_raw(const struct pvar_def *d)
{
	struct shm_futex_counts f;

	switch (d->src) {
	case SRC_FUTEX_SLEEPS:
		shm_futex_counts_read(&f);
		return f.sleeps;
	case SRC_FUTEX_WAKES:
		shm_futex_counts_read(&f);
		return f.wakes;
	case SRC_FIELD:
		break;
	}
	return *pvar_field(d->off);
}

/* Every high-water-mark handle takes in the running maximum of its
 * variable, which then restarts from the level of now (see the top). */
static void hwm_fold(const struct pvar_def *d)
{
	uint64_t *max = pvar_field(d->off);

	for (struct MPI_T_pvar_session_s *s = sessions; s; s = s->next)
		for (struct MPI_T_pvar_handle_s *h = s->handles; h; h = h->next)
			if (&pvars[h->index] == d && *max > h->value)
				h->value = *max;
	*max = *pvar_field(d->level_off);
}

static uint64_t handle_value(struct MPI_T_pvar_handle_s *h)
{
	const struct pvar_def *d = &pvars[h->index];

	switch (d->cls) {
	case MPI_T_PVAR_CLASS_LEVEL:
		return pvar_raw(d);
	case MPI_T_PVAR_CLASS_HIGHWATERMARK:
		hwm_fold(d);
		return h->value;
	default:
		return h->started ? h->value + (pvar_raw(d) - h->mark) : h->value;
	}
}

/* Set h's value to v (its starting value, for a reset). */
static void handle_set(struct MPI_T_pvar_handle_s *h, uint64_t v)
{
	const struct pvar_def *d = &pvars[h->index];

	if (d->cls == MPI_T_PVAR_CLASS_HIGHWATERMARK)
		hwm_fold(d);
	h->value = v;
	h->mark = pvar_raw(d);
}

/* A reset: counters and timers start again from 0, a high-water mark from
 * the level of now (section 14.3.7). */
static void handle_reset(struct MPI_T_pvar_handle_s *h)
{
	const struct pvar_def *d = &pvars[h->index];

	handle_set(h, d->cls == MPI_T_PVAR_CLASS_HIGHWATERMARK ? *pvar_field(d->level_off) : 0);
}

static void handle_start(struct MPI_T_pvar_handle_s *h)
{
	if (h->started)
		return;
	h->mark = pvar_raw(&pvars[h->index]);
	h->started = 1;
}

static void handle_stop(struct MPI_T_pvar_handle_s *h)
{
	if (!h->started)
		return;
	h->value += pvar_raw(&pvars[h->index]) - h->mark;
	h->started = 0;
}

/* The value to the user's buffer: seconds for the timer, else the count. */
static void value_out(const struct pvar_def *d, uint64_t v, void *buf)
{
	if (d->cls == MPI_T_PVAR_CLASS_TIMER)
		*(double *)buf = (double)v / 1e9;
	else
		*(unsigned long long *)buf = v;
}

/* The user's value in, or -1 when it is out of range (a negative time). */
static int value_in(const struct pvar_def *d, const void *buf, uint64_t *v)
{
	if (d->cls != MPI_T_PVAR_CLASS_TIMER) {
		*v = *(const unsigned long long *)buf;
		return 0;
	}
	if (!(*(const double *)buf >= 0 && *(const double *)buf < 1.8e10))
		return -1;
	*v = (uint64_t)(*(const double *)buf * 1e9);
	return 0;
}

/* ---- the variables ------------------------------------------------------ */

API(int, T_pvar_get_num, (int *num_pvar))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!num_pvar)
		return MPI_T_ERR_INVALID;
	*num_pvar = NPVARS;
	return MPI_SUCCESS;
}

API(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity,
			   int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
			   char *desc, int *desc_len, int *bind, int *readonly,
			   int *continuous, int *atomic))
{
	const struct pvar_def *d;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (pvar_index < 0 || pvar_index >= NPVARS)
		return MPI_T_ERR_INVALID_INDEX;
	d = &pvars[pvar_index];
	mpit_string(d->name, name, name_len);
	mpit_string(d->desc, desc, desc_len);
	if (verbosity)
		*verbosity = d->verbosity;
	if (var_class)
		*var_class = d->cls;
	if (datatype)
		*datatype = d->cls == MPI_T_PVAR_CLASS_TIMER ? MPI_DOUBLE :
			    MPI_UNSIGNED_LONG_LONG;
	if (enumtype)
		*enumtype = MPI_T_ENUM_NULL;
	if (bind)
		*bind = MPI_T_BIND_NO_OBJECT;
	if (readonly)
		*readonly = pvar_readonly(d);
	if (continuous)
		*continuous = pvar_continuous(d);
	if (atomic)
		*atomic = 1;
	return MPI_SUCCESS;
}

API(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!name || !pvar_index)
		return MPI_T_ERR_INVALID;
	for (int i = 0; i < NPVARS; i++)
		if (pvars[i].cls == var_class && strcmp(pvars[i].name, name) == 0) {
			*pvar_index = i;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_NAME;
}

/* ---- sessions and handles ------------------------------------------------- */

static int session_ok(const struct MPI_T_pvar_session_s *session)
{
	for (const struct MPI_T_pvar_session_s *s = sessions; s; s = s->next)
		if (s == session)
			return s->magic == SESSION_MAGIC;
	return 0;
}

/* Whether h is a live handle of session s (checked). */
static int handle_ok(const struct MPI_T_pvar_session_s *s,
		     const struct MPI_T_pvar_handle_s *h)
{
	for (const struct MPI_T_pvar_handle_s *p = s->handles; p; p = p->next)
		if (p == h)
			return p->magic == PVAR_MAGIC;
	return 0;
}

static void session_free_handles(struct MPI_T_pvar_session_s *s)
{
	while (s->handles) {
		struct MPI_T_pvar_handle_s *h = s->handles;

		s->handles = h->next;
		h->magic = 0;
		free(h);
	}
}

API(int, T_pvar_session_create, (MPI_T_pvar_session *session))
{
	struct MPI_T_pvar_session_s *s;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session)
		return MPI_T_ERR_INVALID;
	s = calloc(1, sizeof(*s));
	if (!s)
		return MPI_T_ERR_OUT_OF_SESSIONS;
	s->magic = SESSION_MAGIC;
	s->next = sessions;
	sessions = s;
	*session = s;
	return MPI_SUCCESS;
}

API(int, T_pvar_session_free, (MPI_T_pvar_session *session))
{
	struct MPI_T_pvar_session_s **pp;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session || !session_ok(*session))
		return MPI_T_ERR_INVALID_SESSION;
	for (pp = &sessions; *pp != *session; pp = &(*pp)->next)
		;
	*pp = (*session)->next;
	session_free_handles(*session);
	(*session)->magic = 0;
	free(*session);
	*session = MPI_T_PVAR_SESSION_NULL;
	return MPI_SUCCESS;
}

void mpit_pvar_fini(void)
{
	while (sessions) {
		struct MPI_T_pvar_session_s *s = sessions;

		sessions = s->next;
		session_free_handles(s);
		s->magic = 0;
		free(s);
	}
}

API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index,
			       void *obj_handle, MPI_T_pvar_handle *handle, int *count))
{
	struct MPI_T_pvar_handle_s *h;

	(void)obj_handle;	/* no variable is bound to an object */
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session_ok(session))
		return MPI_T_ERR_INVALID_SESSION;
	if (pvar_index < 0 || pvar_index >= NPVARS)
		return MPI_T_ERR_INVALID_INDEX;
	if (!handle || !count)
		return MPI_T_ERR_INVALID;
	h = calloc(1, sizeof(*h));
	if (!h)
		return MPI_T_ERR_OUT_OF_HANDLES;
	h->magic = PVAR_MAGIC;
	h->index = pvar_index;
	h->session = session;
	/* a continuous variable counts from now on; the others once started */
	progress_lock();
	if (pvar_continuous(&pvars[pvar_index])) {
		handle_reset(h);
		h->started = 1;
	}
	h->next = session->handles;
	session->handles = h;
	progress_unlock();
	*handle = h;
	*count = 1;
	return MPI_SUCCESS;
}

API(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
{
	struct MPI_T_pvar_handle_s **pp;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session_ok(session))
		return MPI_T_ERR_INVALID_SESSION;
	if (!handle || !handle_ok(session, *handle))
		return MPI_T_ERR_INVALID_HANDLE;
	for (pp = &session->handles; *pp != *handle; pp = &(*pp)->next)
		;
	*pp = (*handle)->next;
	(*handle)->magic = 0;
	free(*handle);
	*handle = MPI_T_PVAR_HANDLE_NULL;
	return MPI_SUCCESS;
}

/* What start, stop and reset do to one handle, or to every handle of the
 * session for MPI_T_PVAR_ALL_HANDLES, which passes over the continuous
 * variables (start, stop) and the read-only ones (reset): section 14.3.7. */
enum pvar_action { ACT_START, ACT_STOP, ACT_RESET };

static int handle_act(struct MPI_T_pvar_handle_s *h, enum pvar_action act)
{
	const struct pvar_def *d = &pvars[h->index];

	if (act == ACT_RESET && pvar_readonly(d))
		return MPI_T_ERR_PVAR_NO_WRITE;
	if (act != ACT_RESET && pvar_continuous(d))
		return MPI_T_ERR_PVAR_NO_STARTSTOP;
	if (act == ACT_START)
		handle_start(h);
	else if (act == ACT_STOP)
		handle_stop(h);
	else
		handle_reset(h);
	return MPI_SUCCESS;
}

static int pvar_act(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
		    enum pvar_action act)
{
	int rc = MPI_SUCCESS;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session_ok(session))
		return MPI_T_ERR_INVALID_SESSION;
	if (handle != MPI_T_PVAR_ALL_HANDLES && !handle_ok(session, handle))
		return MPI_T_ERR_INVALID_HANDLE;
	progress_lock();
	if (handle != MPI_T_PVAR_ALL_HANDLES)
		rc = handle_act(handle, act);
	else	/* passing over the handles it refuses */
		for (struct MPI_T_pvar_handle_s *h = session->handles; h; h = h->next)
			(void)handle_act(h, act);
	progress_unlock();
	return rc;
}

API(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
{
	return pvar_act(session, handle, ACT_START);
}

API(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
{
	return pvar_act(session, handle, ACT_STOP);
}

API(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
{
	return pvar_act(session, handle, ACT_RESET);
}

/* The checks of read, write and readreset, which take one handle (not
 * MPI_T_PVAR_ALL_HANDLES) and a buffer. */
static int pvar_one(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!session_ok(session))
		return MPI_T_ERR_INVALID_SESSION;
	if (!handle_ok(session, handle))
		return MPI_T_ERR_INVALID_HANDLE;
	if (!buf)
		return MPI_T_ERR_INVALID;
	return MPI_SUCCESS;
}

API(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
{
	int rc = pvar_one(session, handle, buf);

	if (rc != MPI_SUCCESS)
		return rc;
	progress_lock();
	value_out(&pvars[handle->index], handle_value(handle), buf);
	progress_unlock();
	return MPI_SUCCESS;
}

API(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
			const void *buf))
{
	int rc = pvar_one(session, handle, buf);
	uint64_t v;

	if (rc != MPI_SUCCESS)
		return rc;
	if (pvar_readonly(&pvars[handle->index]))
		return MPI_T_ERR_PVAR_NO_WRITE;
	if (value_in(&pvars[handle->index], buf, &v) < 0)
		return MPI_T_ERR_INVALID;
	progress_lock();
	handle_set(handle, v);
	progress_unlock();
	return MPI_SUCCESS;
}

API(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle,
			    void *buf))
{
	int rc = pvar_one(session, handle, buf);

	if (rc != MPI_SUCCESS)
		return rc;
	if (pvar_readonly(&pvars[handle->index]))
		return MPI_T_ERR_PVAR_NO_WRITE;
	/* under the engine's lock: nothing counts between the two */
	progress_lock();
	value_out(&pvars[handle->index], handle_value(handle), buf);
	handle_reset(handle);
	progress_unlock();
	return MPI_SUCCESS;
}
