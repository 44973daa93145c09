/*
 * The MPI_T events (MPI 4.1, section 15.3.8): event types, their one
 * source, registration handles, callbacks and the buffers behind them.
 *
 * Event types are described like variables (name, verbosity, the
 * datatype and displacement of each element of their data, an enumeration
 * for an element that takes named values, the object they are bound to,
 * a category).  Every event comes from one source, "clock": MPI_Wtime's
 * clock (CLOCK_MONOTONIC) in nanoseconds, ordered.
 *
 * Where an event is delivered.  A tool registers, per handle, at most one
 * callback per safety level; a callback registered at a level may run
 * wherever that level or a weaker one is required.  An event is raised in
 * the library, and what the place requires is:
 *   - the application thread inside an MPI call (the engine's lock or the
 *     call's own state held): MPI_T_CB_REQUIRE_MPI_RESTRICTED, the callback
 *     calls no MPI but the event-instance calls;
 *   - the progress thread of strong progress, which runs beside the
 *     application thread: MPI_T_CB_REQUIRE_THREAD_SAFE.
 * The handle's callback of the weakest level that the place allows runs at
 * once; when there is none, the instance goes into the handle's buffer
 * (EVENT_RING instances; past that each one is counted as dropped) and the
 * end of the application thread's outermost MPI call (runtime_leave_slow)
 * delivers it with the handle's weakest callback, as MPI_T_CB_REQUIRE_NONE,
 * then tells the dropped handler how many were lost.  A handle whose
 * buffer holds instances buffers the new ones too, so that a handle sees
 * its events in the order of their timestamps (the source is ordered).
 *
 * Locking.  One mutex, ev_lock, guards every handle (the list, the
 * callbacks, the buffers, the counts of dropped events) and the bits of
 * event_on; it is taken by the raise functions (inside the engine's lock
 * when the engine raises: the order is always the engine's lock, then
 * ev_lock; the MPI_T calls that look at handle tables hold the lock of
 * MPI_THREAD_MULTIPLE for it, never under ev_lock), by delivery and by
 * the MPI_T event calls.  A callback of the
 * library's places runs under ev_lock, so a handle cannot be freed while
 * one runs, and it may call only the event-instance calls, which take no
 * lock (MPI_T_event_read, _copy, _get_timestamp, _get_source, and
 * MPI_T_source_get_timestamp); the other event calls return
 * MPI_T_ERR_NOT_SUPPORTED there.  A callback delivered at the safe point
 * runs without the lock: it may free its own handle or call MPI, and
 * delivery looks the handles up again after each one.  Timestamps are read
 * under ev_lock, so the instances of a handle are stamped in the order in
 * which they enter it, from whichever thread.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "comm.h"
#include "event.h"
#include "info.h"
#include "mpit.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"
#include "win.h"

#define EVENT_RING 64		/* instances a handle buffers */
#define EVENT_MAGIC 0x65766e74u	/* "evnt" */
#define EVENT_LEVELS 4		/* MPI_T_cb_safety's values */
#define EVENT_MAX_ELEMS 4

_Atomic unsigned event_on;
_Atomic int event_pending;
int event_gated;

/* The data of the p2p events and of the lock events, as MPI_T_event_copy
 * lays it out (the displacements below). */
struct event_p2p {
	int source;		/* rank in the handle's communicator */
	int tag;
	MPI_Count bytes;	/* the message's size, as sent */
	int how;		/* p2p_rndv: enum event_rndv_how */
};

struct event_lock {
	int target;		/* rank in the window's group */
	int mode;		/* rma_lock_mode: enum shm_rank_lock */
	MPI_Count waited_ns;	/* rma_lock_wait_end: how long it waited */
};

struct MPI_T_event_instance_s {
	unsigned magic;
	enum event_type type;
	MPI_Count stamp;	/* the source's ticks (ns) */
	union {
		struct event_p2p p2p;
		struct event_lock lock;
	} d;
};

/* The enumerations of the events' elements. */
struct MPI_T_enum_s;
static const struct event_enum {
	const char *name;
	int n;
	const char *items[3];
} event_enums[] = {
	{ "p2p_rndv_how", 3, { "mapped", "cma", "pipeline" } },
	{ "rma_lock_mode", 3, { "shared", "exclusive", "lock_all" } },
};

static const struct event_info {
	const char *name;
	const char *desc;
	int bind;
	enum mpit_cat cat;
	int nelem;
	MPI_Datatype dt[EVENT_MAX_ELEMS];
	MPI_Aint disp[EVENT_MAX_ELEMS];
	int enum_index;		/* into event_enums, or -1 */
} event_infos[EVENT_COUNT] = {
	[EVENT_P2P_UNEXPECTED] = {
		"p2p_unexpected",
		"a message arrived before its receive and went on the unexpected queue: "
		"source (rank in the communicator), tag, bytes (MPI_COUNT)",
		MPI_T_BIND_MPI_COMM, MPIT_CAT_P2P, 3,
		{ MPI_INT, MPI_INT, MPI_COUNT },
		{ offsetof(struct event_p2p, source), offsetof(struct event_p2p, tag),
		  offsetof(struct event_p2p, bytes) }, -1 },
	[EVENT_P2P_RNDV] = {
		"p2p_rndv",
		"a rendezvous message matched to a receive of this rank had its data moved: "
		"source, tag, bytes (MPI_COUNT), how (p2p_rndv_how: mapped, cma, pipeline)",
		MPI_T_BIND_MPI_COMM, MPIT_CAT_P2P, 4,
		{ MPI_INT, MPI_INT, MPI_COUNT, MPI_INT },
		{ offsetof(struct event_p2p, source), offsetof(struct event_p2p, tag),
		  offsetof(struct event_p2p, bytes), offsetof(struct event_p2p, how) }, 0 },
	[EVENT_RMA_LOCK_WAIT_BEGIN] = {
		"rma_lock_wait_begin",
		"a passive-target lock was not granted at once and this rank waits: "
		"target, mode (rma_lock_mode: shared, exclusive, lock_all)",
		MPI_T_BIND_MPI_WIN, MPIT_CAT_RMA, 2,
		{ MPI_INT, MPI_INT },
		{ offsetof(struct event_lock, target), offsetof(struct event_lock, mode) }, 1 },
	[EVENT_RMA_LOCK_WAIT_END] = {
		"rma_lock_wait_end",
		"the lock waited for is granted: target, mode (rma_lock_mode), "
		"nanoseconds waited (MPI_COUNT)",
		MPI_T_BIND_MPI_WIN, MPIT_CAT_RMA, 3,
		{ MPI_INT, MPI_INT, MPI_COUNT },
		{ offsetof(struct event_lock, target), offsetof(struct event_lock, mode),
		  offsetof(struct event_lock, waited_ns) }, 1 },
};

struct event_cb {
	MPI_T_event_cb_function *fn;	/* NULL: none at this level */
	void *user;
};

struct MPI_T_event_registration_s {
	unsigned magic;
	enum event_type type;
	/* what the handle is bound to: a communicator's context id, with its
	 * ranks of each job rank (copied: the handle may outlive the
	 * communicator), or a window */
	uint32_t ctx;
	int *rank_of;		/* [job size] */
	const struct win *win;
	struct event_cb cb[EVENT_LEVELS];
	MPI_T_event_dropped_cb_function *dropped;
	MPI_Count ndropped;	/* not yet told to the dropped handler */
	unsigned head, count;	/* ring[head] is the oldest buffered */
	struct MPI_T_event_instance_s ring[EVENT_RING];
	struct MPI_T_event_registration_s *next;
};

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct MPI_T_event_registration_s *ev_handles;
/* set while this thread runs a callback under ev_lock */
static __thread int ev_in_callback;
/* set while this thread delivers: an MPI call of a callback does not
 * deliver again inside it (the loop goes on when the callback returns) */
static __thread int ev_delivering;

static MPI_Count event_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The weakest callback of h that may run where `need` is required, or -1. */
static int event_level(const struct MPI_T_event_registration_s *h, int need)
{
	for (int l = need; l < EVENT_LEVELS; l++)
		if (h->cb[l].fn)
			return l;
	return -1;
}

/* Under ev_lock: hand instance e (of a matching handle h) over, at once
 * when h has a callback for this place and nothing older waits, else into
 * h's buffer. */
static void event_offer(struct MPI_T_event_registration_s *h,
			struct MPI_T_event_instance_s *e)
{
	int need = progress_in_thread() ? MPI_T_CB_REQUIRE_THREAD_SAFE :
		   MPI_T_CB_REQUIRE_MPI_RESTRICTED;
	int l = event_level(h, need);

	if (event_level(h, MPI_T_CB_REQUIRE_NONE) < 0)
		return;		/* no callback: nobody to tell */
	if (l >= 0 && h->count == 0 && !h->ndropped) {
		ev_in_callback = 1;
		/* the callback learns what this place requires */
		h->cb[l].fn(e, h, (MPI_T_cb_safety)need, h->cb[l].user);
		ev_in_callback = 0;
		return;
	}
	if (h->count == EVENT_RING) {
		h->ndropped++;
	} else {
		h->ring[(h->head + h->count) % EVENT_RING] = *e;
		h->count++;
	}
	/* relaxed: the flag only sends the application thread to ev_lock,
	 * which orders the buffer for it */
	atomic_store_explicit(&event_pending, 1, memory_order_relaxed);
}

static void event_instance(struct MPI_T_event_instance_s *e, enum event_type t)
{
	e->magic = EVENT_MAGIC;
	e->type = t;
	e->stamp = event_now();
}

void event_p2p_unexpected(uint32_t ctx, int src_world, int tag, uint64_t bytes)
{
	struct MPI_T_event_instance_s e;

	pthread_mutex_lock(&ev_lock);
	event_instance(&e, EVENT_P2P_UNEXPECTED);
	for (struct MPI_T_event_registration_s *h = ev_handles; h; h = h->next) {
		if (h->type != EVENT_P2P_UNEXPECTED || h->ctx != ctx)
			continue;
		e.d.p2p = (struct event_p2p){ .source = h->rank_of[src_world], .tag = tag,
					      .bytes = (MPI_Count)bytes };
		event_offer(h, &e);
	}
	pthread_mutex_unlock(&ev_lock);
}

void event_p2p_rndv(const struct request *r, enum event_rndv_how how)
{
	struct MPI_T_event_instance_s e;

	pthread_mutex_lock(&ev_lock);
	event_instance(&e, EVENT_P2P_RNDV);
	e.d.p2p = (struct event_p2p){ .source = r->st_source, .tag = r->st_tag,
				      .bytes = (MPI_Count)r->msg_bytes, .how = (int)how };
	for (struct MPI_T_event_registration_s *h = ev_handles; h; h = h->next)
		if (h->type == EVENT_P2P_RNDV && h->ctx == r->ctx)
			event_offer(h, &e);
	pthread_mutex_unlock(&ev_lock);
}

void event_rma_lock(enum event_type t, const struct win *w, int target, int mode,
		    uint64_t waited_ns)
{
	struct MPI_T_event_instance_s e;

	pthread_mutex_lock(&ev_lock);
	event_instance(&e, t);
	e.d.lock = (struct event_lock){ .target = target, .mode = mode,
					.waited_ns = (MPI_Count)waited_ns };
	for (struct MPI_T_event_registration_s *h = ev_handles; h; h = h->next)
		if (h->type == t && h->win == w)
			event_offer(h, &e);
	pthread_mutex_unlock(&ev_lock);
}

void event_deliver(void)
{
	if (ev_delivering)
		return;
	ev_delivering = 1;
	for (;;) {
		struct MPI_T_event_registration_s *h;
		struct MPI_T_event_instance_s e;
		MPI_T_event_dropped_cb_function *dropped = NULL;
		MPI_Count lost = 0;
		struct event_cb cb;
		int l;

		pthread_mutex_lock(&ev_lock);
		for (h = ev_handles; h && !h->count && !h->ndropped; h = h->next)
			;
		if (!h) {
			atomic_store_explicit(&event_pending, 0, memory_order_relaxed);
			pthread_mutex_unlock(&ev_lock);
			break;
		}
		l = event_level(h, MPI_T_CB_REQUIRE_NONE);
		cb = h->cb[l < 0 ? 0 : l];
		if (h->count) {
			e = h->ring[h->head];
			h->head = (h->head + 1) % EVENT_RING;
			h->count--;
		} else {
			dropped = h->dropped;
			lost = h->ndropped;
			h->ndropped = 0;
		}
		pthread_mutex_unlock(&ev_lock);
		/* the safe point: no lock held, outside every MPI call */
		if (lost) {
			if (dropped)
				dropped(lost, h, 0, MPI_T_CB_REQUIRE_NONE, cb.user);
		} else if (cb.fn) {
			cb.fn(&e, h, MPI_T_CB_REQUIRE_NONE, cb.user);
		}
	}
	ev_delivering = 0;
}

/* ---- the calls -------------------------------------------------------------- */

/* The checks every event call begins with. */
static int event_check(void)
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (ev_in_callback)
		return MPI_T_ERR_NOT_SUPPORTED;
	return MPI_SUCCESS;
}

/* Under ev_lock: whether h is a live handle. */
static int event_handle_ok(const struct MPI_T_event_registration_s *h)
{
	for (const struct MPI_T_event_registration_s *p = ev_handles; p; p = p->next)
		if (p == h)
			return p->magic == EVENT_MAGIC;
	return 0;
}

/* Under ev_lock: event_on and the gate of runtime.h follow the handles. */
static void event_handles_changed(void)
{
	unsigned on = 0;

	for (const struct MPI_T_event_registration_s *h = ev_handles; h; h = h->next)
		on |= 1u << h->type;
	atomic_store_explicit(&event_on, on, memory_order_relaxed);
	event_gated = ev_handles != NULL;
	runtime_gate();
}

/* A new info object of the user's for a *_get_info call (none before
 * MPI_Init or after MPI_Finalize: MPI_INFO_NULL). */
static MPI_Info event_info_new(void)
{
	runtime_hold();		/* the handle tables: MPI_THREAD_MULTIPLE's lock */
	struct info *i = rt.phase == RUNTIME_ACTIVE ? info_alloc(1) : NULL;

	return i ? i->handle : MPI_INFO_NULL;
}

/* Whether info is MPI_INFO_NULL or an info object (no key is one of ours:
 * every hint is ignored). */
static int event_info_ok(MPI_Info info)
{
	runtime_hold();
	return info == MPI_INFO_NULL || (rt.phase == RUNTIME_ACTIVE && info_get(info));
}

/* The *_get_num calls: n into *num. */
static int event_num(int *num, int n)
{
	int rc = event_check();

	if (rc == MPI_SUCCESS && !num)
		rc = MPI_T_ERR_INVALID;
	if (rc == MPI_SUCCESS)
		*num = n;
	return rc;
}

API(int, T_source_get_num, (int *num_sources))
{
	return event_num(num_sources, 1);
}

API(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc,
			     int *desc_len, MPI_T_source_order *ordering,
			     MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info))
{
	int rc = event_check();

	if (rc != MPI_SUCCESS)
		return rc;
	if (source_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	mpit_string("clock", name, name_len);
	mpit_string("the process's clock, MPI_Wtime's (CLOCK_MONOTONIC), in nanoseconds; "
		    "every event of this process comes from it", desc, desc_len);
	if (ordering)
		*ordering = MPI_T_SOURCE_ORDERED;
	if (ticks_per_second)
		*ticks_per_second = 1000000000;
	if (max_ticks)
		*max_ticks = INT64_MAX;
	if (info)
		*info = event_info_new();
	return MPI_SUCCESS;
}

/* Callable in callbacks (an event-instance call). */
API(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (source_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	if (!timestamp)
		return MPI_T_ERR_INVALID;
	*timestamp = event_now();
	return MPI_SUCCESS;
}

API(int, T_event_get_num, (int *num_events))
{
	return event_num(num_events, EVENT_COUNT);
}

API(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity,
			    MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
			    int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
			    int *desc_len, int *bind))
{
	const struct event_info *ei;
	int rc = event_check();

	if (rc != MPI_SUCCESS)
		return rc;
	if (event_index < 0 || event_index >= EVENT_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	ei = &event_infos[event_index];
	if (num_elements) {
		/* the arrays hold *num_elements entries; fill what fits */
		for (int i = 0; i < ei->nelem && i < *num_elements; i++) {
			if (array_of_datatypes)
				array_of_datatypes[i] = ei->dt[i];
			if (array_of_displacements)
				array_of_displacements[i] = ei->disp[i];
		}
		*num_elements = ei->nelem;
	}
	mpit_string(ei->name, name, name_len);
	mpit_string(ei->desc, desc, desc_len);
	if (verbosity)
		*verbosity = MPI_T_VERBOSITY_TUNER_DETAIL;
	if (enumtype)
		*enumtype = ei->enum_index < 0 ? MPI_T_ENUM_NULL :
			    (MPI_T_enum)&event_enums[ei->enum_index];
	if (info)
		*info = event_info_new();
	if (bind)
		*bind = ei->bind;
	return MPI_SUCCESS;
}

API(int, T_event_get_index, (const char *name, int *event_index))
{
	int rc = event_check();

	if (rc != MPI_SUCCESS)
		return rc;
	if (!name || !event_index)
		return MPI_T_ERR_INVALID;
	for (int t = 0; t < EVENT_COUNT; t++)
		if (strcmp(event_infos[t].name, name) == 0) {
			*event_index = t;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_NAME;
}

/* The object obj_handle points at, checked against the bind of type t,
 * into h. */
static int event_bind(struct MPI_T_event_registration_s *h, enum event_type t,
		      void *obj_handle)
{
	runtime_hold();
	struct comm *c;

	if (!obj_handle || rt.phase != RUNTIME_ACTIVE)
		return MPI_T_ERR_INVALID_HANDLE;
	if (event_infos[t].bind == MPI_T_BIND_MPI_WIN) {
		h->win = win_get(*(MPI_Win *)obj_handle);
		return h->win ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
	}
	c = comm_get(*(MPI_Comm *)obj_handle);
	if (!c)
		return MPI_T_ERR_INVALID_HANDLE;
	h->rank_of = malloc((size_t)rt.size * sizeof(int));
	if (!h->rank_of)
		return MPI_T_ERR_MEMORY;
	for (int w = 0; w < rt.size; w++)
		h->rank_of[w] = comm_rank_of_world(c, w);
	h->ctx = c->ctx;
	return MPI_SUCCESS;
}

static void event_handle_destroy(struct MPI_T_event_registration_s *h)
{
	h->magic = 0;
	free(h->rank_of);
	free(h);
}

API(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info,
				MPI_T_event_registration *event_registration))
{
	struct MPI_T_event_registration_s *h;
	int rc = event_check();

	if (rc != MPI_SUCCESS)
		return rc;
	if (event_index < 0 || event_index >= EVENT_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	if (!event_registration || !event_info_ok(info))
		return MPI_T_ERR_INVALID;
	h = calloc(1, sizeof(*h));
	if (!h)
		return MPI_T_ERR_MEMORY;
	h->magic = EVENT_MAGIC;
	h->type = (enum event_type)event_index;
	rc = event_bind(h, h->type, obj_handle);
	if (rc != MPI_SUCCESS) {
		event_handle_destroy(h);
		return rc;
	}
	pthread_mutex_lock(&ev_lock);
	h->next = ev_handles;
	ev_handles = h;
	event_handles_changed();
	pthread_mutex_unlock(&ev_lock);
	*event_registration = h;
	return MPI_SUCCESS;
}

/* The checks of the calls on a handle, and ev_lock taken on success. */
static int event_handle_lock(MPI_T_event_registration h)
{
	int rc = event_check();

	if (rc != MPI_SUCCESS)
		return rc;
	pthread_mutex_lock(&ev_lock);
	if (!event_handle_ok(h)) {
		pthread_mutex_unlock(&ev_lock);
		return MPI_T_ERR_INVALID_HANDLE;
	}
	return MPI_SUCCESS;
}



static int event_safety_ok(MPI_T_cb_safety s)
{
	return (int)s >= MPI_T_CB_REQUIRE_NONE && (int)s < EVENT_LEVELS;
}

/* The hints of handle h (or of its callbacks, then arg_ok says whether the
 * level is one): set from info, or (get) a new info object into *out.  No hint is one of ours, so every info is empty. */
static int event_hints(MPI_T_event_registration h, int arg_ok, MPI_Info info, MPI_Info *out,
		       int get)
{
	int rc = event_handle_lock(h);

	if (rc != MPI_SUCCESS)
		return rc;
	pthread_mutex_unlock(&ev_lock);
	if (!arg_ok || (get ? !out : !event_info_ok(info)))
		return MPI_T_ERR_INVALID;
	if (get)
		*out = event_info_new();
	return MPI_SUCCESS;
}

API(int, T_event_handle_set_info, (MPI_T_event_registration event_registration,
				   MPI_Info info))
{
	return event_hints(event_registration, 1, info, NULL, 0);
}

API(int, T_event_handle_get_info, (MPI_T_event_registration event_registration,
				   MPI_Info *info_used))
{
	return event_hints(event_registration, 1, MPI_INFO_NULL, info_used, 1);
}

API(int, T_event_callback_set_info, (MPI_T_event_registration event_registration,
				     MPI_T_cb_safety cb_safety, MPI_Info info))
{
	return event_hints(event_registration, event_safety_ok(cb_safety), info, NULL, 0);
}

API(int, T_event_callback_get_info, (MPI_T_event_registration event_registration,
				     MPI_T_cb_safety cb_safety, MPI_Info *info_used))
{
	return event_hints(event_registration, event_safety_ok(cb_safety), MPI_INFO_NULL,
			   info_used, 1);
}

API(int, T_event_register_callback, (MPI_T_event_registration event_registration,
				     MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
				     MPI_T_event_cb_function event_cb_function))
{
	/* the info first: its check takes MPI_THREAD_MULTIPLE's lock, which
	 * comes before ev_lock */
	int info_ok = event_info_ok(info);
	int rc = event_handle_lock(event_registration);

	if (rc != MPI_SUCCESS)
		return rc;
	if (!event_safety_ok(cb_safety) || !info_ok) {
		rc = MPI_T_ERR_INVALID;
	} else {
		/* a NULL function takes the level's callback away */
		event_registration->cb[cb_safety].fn = event_cb_function;
		event_registration->cb[cb_safety].user = user_data;
	}
	pthread_mutex_unlock(&ev_lock);
	return rc;
}

API(int, T_event_set_dropped_handler, (MPI_T_event_registration event_registration,
				       MPI_T_event_dropped_cb_function dropped_cb_function))
{
	int rc = event_handle_lock(event_registration);

	if (rc != MPI_SUCCESS)
		return rc;
	event_registration->dropped = dropped_cb_function;
	pthread_mutex_unlock(&ev_lock);
	return MPI_SUCCESS;
}

/* The handle goes at once: no callback of the library's places runs
 * (they run under ev_lock), and what it had buffered is dropped with it;
 * free_cb_function then runs here, with user_data. */
API(int, T_event_handle_free, (MPI_T_event_registration event_registration,
			       void *user_data, MPI_T_event_free_cb_function free_cb_function))
{
	struct MPI_T_event_registration_s **pp;
	int rc = event_handle_lock(event_registration);

	if (rc != MPI_SUCCESS)
		return rc;
	for (pp = &ev_handles; *pp != event_registration; pp = &(*pp)->next)
		;
	*pp = event_registration->next;
	event_handles_changed();
	pthread_mutex_unlock(&ev_lock);
	if (free_cb_function)
		free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
	event_handle_destroy(event_registration);
	return MPI_SUCCESS;
}

/* ---- the event-instance calls (in callbacks) --------------------------------- */

/* The checks of the instance calls: a live instance (one handed to the
 * callback that runs) and somewhere to write. */
static int event_instance_ok(MPI_T_event_instance e, const void *out)
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!e || e->magic != EVENT_MAGIC)
		return MPI_T_ERR_INVALID_HANDLE;
	return out ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

/* Bytes of element i of an event of type t. */
static size_t event_elem_size(const struct event_info *ei, int i)
{
	return ei->dt[i] == MPI_COUNT ? sizeof(MPI_Count) : sizeof(int);
}

API(int, T_event_read, (MPI_T_event_instance event_instance, int element_index,
			void *buffer))
{
	const struct event_info *ei;
	int rc = event_instance_ok(event_instance, buffer);

	if (rc != MPI_SUCCESS)
		return rc;
	ei = &event_infos[event_instance->type];
	if (element_index < 0 || element_index >= ei->nelem)
		return MPI_T_ERR_INVALID_INDEX;
	memcpy(buffer, (const char *)&event_instance->d + ei->disp[element_index],
	       event_elem_size(ei, element_index));
	return MPI_SUCCESS;
}

API(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
{
	const struct event_info *ei;
	int rc = event_instance_ok(event_instance, buffer);

	if (rc != MPI_SUCCESS)
		return rc;
	ei = &event_infos[event_instance->type];
	/* up to the end of the last element */
	memcpy(buffer, &event_instance->d,
	       (size_t)ei->disp[ei->nelem - 1] + event_elem_size(ei, ei->nelem - 1));
	return MPI_SUCCESS;
}

API(int, T_event_get_timestamp, (MPI_T_event_instance event_instance,
				 MPI_Count *event_timestamp))
{
	int rc = event_instance_ok(event_instance, event_timestamp);

	if (rc == MPI_SUCCESS)
		*event_timestamp = event_instance->stamp;
	return rc;
}

API(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))
{
	int rc = event_instance_ok(event_instance, source_index);

	if (rc == MPI_SUCCESS)
		*source_index = 0;
	return rc;
}

/* ---- for mpit.c and mpit_cat.c --------------------------------------------- */

int mpit_event_count(void)
{
	return EVENT_COUNT;
}

enum mpit_cat mpit_event_cat(int i)
{
	return event_infos[i].cat;
}

int mpit_event_enum(MPI_T_enum e, const char **name, const char *const **items)
{
	for (size_t i = 0; i < sizeof(event_enums) / sizeof(event_enums[0]); i++)
		if ((const void *)e == (const void *)&event_enums[i]) {
			*name = event_enums[i].name;
			*items = event_enums[i].items;
			return event_enums[i].n;
		}
	return -1;
}

void mpit_event_fini(void)
{
	pthread_mutex_lock(&ev_lock);
	while (ev_handles) {
		struct MPI_T_event_registration_s *h = ev_handles;

		ev_handles = h->next;
		event_handle_destroy(h);
	}
	event_handles_changed();
	atomic_store_explicit(&event_pending, 0, memory_order_relaxed);
	pthread_mutex_unlock(&ev_lock);
}
