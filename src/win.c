/*
 * Window lifecycle: MPI_Win_create, MPI_Win_allocate,
 * MPI_Win_allocate_shared, MPI_Win_create_dynamic (its MPI_Win_attach and
 * MPI_Win_detach are win_dyn.c's), MPI_Win_shared_query, MPI_Win_free.
 *
 * Creation is collective over a private duplicate of the user's
 * communicator: the ranks trade what each brings (size, displacement unit,
 * where its memory lives), rank 0 creates the window's segment, everybody
 * maps it (and the MPI_Alloc_mem segments of MPI_Win_create), and once all
 * have, rank 0 removes the name.
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "attr.h"
#include "coll.h"
#include "comm.h"
#include "errhandler.h"
#include "group.h"
#include "info.h"
#include "knobs.h"
#include "mem.h"
#include "place.h"
#include "rma_pkt.h"
#include "adversary.h"
#include "runtime.h"
#include "win.h"
#include "win_dyn.h"

/* What each rank brings to a new window. */
struct win_rank_info {
	int64_t size;
	int32_t disp_unit;
	int32_t direct;		/* its memory can be mapped by the others */
	uint64_t offset;	/* of its base in seg */
	uint64_t addr;		/* its base in its own process (MPI_Win_create) */
	uint64_t align;		/* alignment it asks for its portion */
	char seg[SHM_NAME_MAX];	/* MPI_Alloc_mem segment (MPI_Win_create) */
};

struct win *win_arg(const char *call, MPI_Win h, int *rc)
{
	struct win *w = win_get(h);

	*rc = MPI_SUCCESS;
	if (!w)
		*rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_WIN, "win",
			       h == MPI_WIN_NULL ? "is MPI_WIN_NULL" :
			       "0x%x is not a valid window", (unsigned)h);
	return w;
}

static size_t align_up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

/* Where everything lives in the window segment of n ranks. */
static void win_layout(struct win_shm *s, uint32_t n)
{
	size_t at = align_up(sizeof(*s), SHM_CACHE_LINE);

	s->tgt_off = at;
	at = align_up(at + n * sizeof(struct win_shm_target), SHM_CACHE_LINE);
	s->rank_off = at;
	at = align_up(at + n * sizeof(struct win_shm_rank), SHM_CACHE_LINE);
	s->acc_off = at;
	at = align_up(at + n * sizeof(struct win_shm_acc), SHM_CACHE_LINE);
	s->pscw_off = at;
	s->pscw_stride = align_up(2 * (size_t)n * sizeof(shm_atomic_u32), SHM_CACHE_LINE);
	at += n * s->pscw_stride;
	s->ack_off = at;
	s->ack_stride = align_up((size_t)n * sizeof(shm_atomic_u32), SHM_CACHE_LINE);
	at += n * s->ack_stride;
	s->dyn_off = at;
	at = align_up(at + n * sizeof(struct win_dyn_ctl), 4096);
	s->data_off = at;
}

/* The offsets of every rank's portion in the data area, and its size. */
static size_t win_portions(const struct win_rank_info *info, int n, int noncontig,
			   size_t *off)
{
	size_t at = 0;

	for (int r = 0; r < n; r++) {
		size_t a = info[r].align > SHM_CACHE_LINE ? info[r].align : SHM_CACHE_LINE;

		if (noncontig && a < 4096)
			a = 4096;
		at = align_up(at, a);
		off[r] = at;
		at += (size_t)info[r].size;
	}
	return at;
}

static int win_seg_name(const struct win *w, char *name)
{
	char what[32];

	snprintf(what, sizeof(what), "w%u", w->comm->ctx);
	return shm_job_name(name, SHM_NAME_MAX, geteuid(), rt.job_id, what);
}

/* Map another rank's memory: an MPI_Alloc_mem segment (once per name), or
 * another window's segment that this process has mapped already. */
static char *win_map(struct win *w, const char *name)
{
	struct win_map *m;

	if (name[0] != '/')
		return mem_shared_base(name);
	for (m = w->maps; m; m = m->next)
		if (!strcmp(m->seg.name, name))
			return m->seg.base;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->seg.fd = -1;
	if (shm_seg_open(&m->seg, name, 0) < 0) {
		free(m);
		return NULL;
	}
	m->next = w->maps;
	w->maps = m;
	return m->seg.base;
}

/* The key under which a window's segment is known to mem_find(). */
static void win_share_key(const struct win *w, char *key, size_t len)
{
	snprintf(key, len, "w%u", w->comm->ctx);
}

static void win_destroy(struct win *w)
{
	char key[SHM_NAME_MAX];

	if (w->comm) {
		win_share_key(w, key, sizeof(key));
		mem_unshare(key);
	}
	rma_pkt_target_remove(w);
	rma_pkt_win_fini(w);
	win_dyn_fini(w);	/* after the engine let go of the window */
	while (w->maps) {
		struct win_map *m = w->maps;

		w->maps = m->next;
		shm_seg_close(&m->seg);
		free(m);
	}
	if (w->seg.base)
		shm_seg_close(&w->seg);
	attr_delete_all(ATTR_WIN, w->handle, &w->attrs);
	info_unref(w->info);
	errh_unref(w->errh);
	if (w->comm)
		comm_unref(w->comm);
	if (w->handle != MPI_WIN_NULL)
		handle_release(w->handle);
	free(w->t);
	free(w->posts_seen);
	free(w->pscw_row);
	free(w->completes_expected);
	free(w->start_ranks);
	for (int i = 0; i < 2; i++) {
		if (w->groups[i].g)
			group_unref(w->groups[i].g);
		free(w->groups[i].ranks);
	}
	free(w->locked);
	free(w->wake_ids);
	free(w);
}

/*
 * The windows a process never freed, at MPI_Finalize (after its barrier:
 * nobody reaches them any more): their memory here goes, as MPI_Win_free
 * would take it, without the collective part.  Pages made shared for
 * them are given back by mem_fini.
 */
void win_fini_all(void)
{
	struct handle_table *t = &handle_tables[HANDLE_WIN];

	for (uint32_t slot = 1; slot < t->next; slot++)
		if (t->objs[slot])
			win_destroy(t->objs[slot]);
}

/* "true" for a boolean info key. */
static int info_true(const struct info *i, const char *key)
{
	const char *v = info_lookup(i, key);

	return v && !strcmp(v, "true");
}

/*
 * Which targets take the private path (rma_pkt.h), agreed by all, since
 * every origin must reach a target the same way: memory that is not shared
 * memory, or that one of the ranks could not map (MPI_Win_create), and, in
 * the adversarial mode, every target.
 */
static int win_choose_paths(struct win *w, struct win_rank_info *all)
{
	int *direct = malloc((size_t)w->size * sizeof(*direct));
	int rc = MPI_SUCCESS;

	if (!direct)
		return MPI_ERR_NO_MEM;
	for (int r = 0; r < w->size; r++)
		direct[r] = all[r].direct && !adv_on();
	PMPI_Allreduce(MPI_IN_PLACE, direct, w->size, MPI_INT, MPI_MIN, w->comm->handle);
	for (int r = 0; r < w->size; r++) {
		struct win_target *t = &w->t[r];

		if (direct[r])
			continue;
		t->path = WIN_PATH_PRIVATE;
		t->ops = &win_ops_private;
		t->base = NULL;
		w->npriv++;
	}
	if (w->npriv && rma_pkt_win_init(w) < 0)
		rc = MPI_ERR_NO_MEM;
	else if (w->t[w->rank].path == WIN_PATH_PRIVATE && rma_pkt_target_add(w) < 0)
		rc = MPI_ERR_NO_MEM;
	free(direct);
	return rc;
}

/*
 * The collective part of every creation call.  mine: what this rank brings
 * (base is its own memory for MPI_Win_create, NULL otherwise).  On success
 * *out is the window; an MPI error class otherwise, the same on every rank
 * as far as the ranks can tell.
 */
static int win_setup(struct comm *c, int flavor, struct win_rank_info *mine,
		     void *base, const struct info *info, struct win **out)
{
	struct win_rank_info *all = NULL;
	char name[SHM_NAME_MAX];
	size_t *off = NULL, data = 0, segsize;
	int rc, noncontig;
	struct win *w = calloc(1, sizeof(*w));

	if (!w)
		return MPI_ERR_NO_MEM;
	w->handle = MPI_WIN_NULL;
	w->seg.fd = -1;
	rc = comm_dup_internal(c, CALL_WIN_CREATE, &w->comm);
	if (rc != MPI_SUCCESS) {
		free(w);
		return rc;
	}
	w->rank = c->rank;
	w->size = c->size;
	w->flavor = flavor;
	w->base = base;
	w->my_size = (MPI_Aint)mine->size;
	w->disp_unit = mine->disp_unit;
	w->model = MPI_WIN_UNIFIED;
	w->errh = errh_get(MPI_ERRORS_ARE_FATAL);
	errh_ref(w->errh);
	w->info = info ? info_dup_internal(info) : NULL;
	w->no_locks = info_true(info, "no_locks");
	all = (struct win_rank_info *)coll_allgather_packed(w->comm, CALL_WIN_CREATE, mine,
							    sizeof(*mine), dt_get(MPI_BYTE),
							    sizeof(*mine));
	w->t = calloc((size_t)w->size, sizeof(*w->t));
	w->posts_seen = calloc((size_t)w->size, sizeof(*w->posts_seen));
	w->completes_expected = calloc((size_t)w->size, sizeof(*w->completes_expected));
	w->pscw_row = calloc(2 * (size_t)w->size, sizeof(*w->pscw_row));
	w->locked = calloc((size_t)w->size, sizeof(*w->locked));
	w->wake_ids = calloc((size_t)w->size, sizeof(*w->wake_ids));
	off = calloc((size_t)w->size, sizeof(*off));
	/* every rank sees the same `all`, so every rank decides alike */
	if (!all || !w->t || !w->posts_seen || !w->completes_expected || !w->pscw_row ||
	    !w->locked || !w->wake_ids || !off) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	noncontig = info_true(info, "alloc_shared_noncontig");
	if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED)
		data = win_portions(all, w->size, noncontig, off);
	/* rank 0 makes the segment, then everybody else maps it */
	win_seg_name(w, name);
	if (w->rank == 0) {
		struct win_shm s = { 0 };	/* the segment gets a copy */

		win_layout(&s, (uint32_t)w->size);
		segsize = s.data_off + data;
		rc = shm_seg_create(&w->seg, name, segsize, 0) < 0 ? MPI_ERR_NO_MEM : 0;
		if (rc == MPI_SUCCESS) {
			w->shm = w->seg.base;
			*w->shm = s;
			w->shm->magic = WIN_MAGIC;
			w->shm->nranks = (uint32_t)w->size;
			w->shm->flavor = (uint32_t)flavor;
			w->shm->size = segsize;
			for (int r = 0; r < w->size; r++) {
				shm_rwlock_init(&win_shm_target(w, r)->lock);
				shm_rwlock_node_init(&win_shm_rank(w, r)->node);
			}
		}
	}
	/* rank 0's outcome reaches everybody before anybody maps */
	coll_bcast_bytes(w->comm, CALL_WIN_CREATE, &rc, sizeof(rc), 0);
	if (rc != MPI_SUCCESS)
		goto out;
	if (w->rank != 0) {
		rc = shm_seg_open(&w->seg, name, 0) < 0 ? MPI_ERR_INTERN : MPI_SUCCESS;
		w->shm = w->seg.base;
		if (rc == MPI_SUCCESS && (w->shm->magic != WIN_MAGIC ||
					  w->shm->nranks != (uint32_t)w->size))
			rc = MPI_ERR_INTERN;
	}
	if (rc == MPI_SUCCESS)
		w->lock_nodes = (struct shm_rwlock_nodes){
			(char *)&win_shm_rank(w, 0)->node, sizeof(struct win_shm_rank) };
	for (int r = 0; rc == MPI_SUCCESS && r < w->size; r++) {
		struct win_target *t = &w->t[r];

		t->size = (MPI_Aint)all[r].size;
		t->disp_unit = all[r].disp_unit;
		t->addr = all[r].addr;
		t->path = WIN_PATH_DIRECT;
		t->ops = &win_ops_direct;
		if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED) {
			t->base = (char *)w->shm + w->shm->data_off + off[r];
			if (r == w->rank)	/* on this rank's NUMA node (place.c) */
				place_portion(t->base, (size_t)t->size, info);
		} else if (flavor == MPI_WIN_FLAVOR_CREATE && r == w->rank) {
			t->base = base;
		} else if (flavor == MPI_WIN_FLAVOR_CREATE && all[r].size > 0 &&
			   all[r].direct) {
			char *m = win_map(w, all[r].seg);

			/* a window's memory is mapped only by that window's
			 * members: for the others it is private */
			if (!m && all[r].seg[0] == '/')
				rc = MPI_ERR_INTERN;
			else if (m)
				t->base = m + all[r].offset;
			else
				all[r].direct = 0;
		}
	}
	for (int r = 0; r < w->size; r++)
		w->t[r].mem = w->t[r].base;
	/* this rank's memory, before anybody can reach it: from the moment
	 * win_choose_paths registers the window for operation packets, a rank
	 * that has left the creation call may send some while this rank is
	 * still in its last collective below (a collective call need not
	 * synchronize, MPI 3.1, section 5.1, so the window is usable where
	 * the call has returned) */
	if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED)
		w->base = w->my_size > 0 ? w->t[w->rank].mem : NULL;
	/* (allocated memory is shared: it is direct but for the adversary) */
	if (flavor == MPI_WIN_FLAVOR_CREATE ||
	    (flavor != MPI_WIN_FLAVOR_DYNAMIC && adv_on())) {
		int rc2 = win_choose_paths(w, all);	/* collective: everybody */

		if (rc == MPI_SUCCESS)
			rc = rc2;
	} else if (flavor == MPI_WIN_FLAVOR_DYNAMIC && rc == MPI_SUCCESS) {
		/* any region attached later may be private memory */
		for (int r = 0; r < w->size; r++) {
			w->t[r].path = WIN_PATH_DYNAMIC;
			w->t[r].ops = &win_ops_dynamic;
		}
		w->npriv = w->size;
		if (win_dyn_init(w) < 0 || rma_pkt_win_init(w) < 0 ||
		    rma_pkt_target_add(w) < 0)
			rc = MPI_ERR_NO_MEM;
	}
	/* nobody may leave with a failure the others do not know of (this
	 * also tells rank 0 that every rank has mapped the segment) */
	PMPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, w->comm->handle);
	if (w->rank == 0)
		shm_seg_unlink(name);
	if (rc != MPI_SUCCESS)
		goto out;
	if (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED) {
		char key[SHM_NAME_MAX];

		/* other windows may be created on this memory */
		win_share_key(w, key, sizeof(key));
		mem_share(key, w->seg.base, w->seg.size);
	}
	if (handle_alloc(HANDLE_WIN, w, &w->handle) < 0) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	free(all);
	free(off);
	*out = w;
	return MPI_SUCCESS;
out:
	free(all);
	free(off);
	win_destroy(w);
	return rc;
}

/* ---- creation calls ----------------------------------------------------- */

/* disp_unit is MPI_Aint in the large-count forms (MPI 4.1, section
 * 12.2); a window keeps it as an int, the type of its MPI_WIN_DISP_UNIT
 * attribute, so larger units are refused. */
static int win_check_common(const char *call, MPI_Comm comm, MPI_Aint size,
			    MPI_Aint disp_unit, MPI_Info info, MPI_Win *win,
			    struct comm **c, struct info **i)
{
	*c = comm_get(comm);
	if (!*c)
		return comm_err_invalid(comm, call);
	if (size < 0)
		return err_comm(comm, call, MPI_ERR_SIZE, "size", "%ld is negative",
				(long)size);
	if (disp_unit <= 0)
		return err_comm(comm, call, MPI_ERR_DISP, "disp_unit",
				"%ld is not positive", (long)disp_unit);
	if (disp_unit > INT_MAX)
		return err_comm(comm, call, MPI_ERR_DISP, "disp_unit",
				"%ld is larger than the largest unit shmpi keeps (%d)",
				(long)disp_unit, INT_MAX);
	*i = NULL;
	if (info != MPI_INFO_NULL && !(*i = info_get(info)))
		return err_comm(comm, call, MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	if (!win)
		return err_comm(comm, call, MPI_ERR_ARG, "win", "is NULL");
	return MPI_SUCCESS;
}

static int win_create_done(const char *call, MPI_Comm comm, int rc, struct win *w,
			   MPI_Win *win)
{
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, NULL, "cannot create the window");
	*win = w->handle;
	return MPI_SUCCESS;
}

static int win_create(const char *call, void *base, MPI_Aint size, MPI_Aint disp_unit,
		      MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	struct win_rank_info mine = { 0 };
	struct comm *c;
	struct info *i;
	struct win *w = NULL;
	size_t offset = 0;
	int rc, adopted;

	runtime_check(call);
	rc = win_check_common(call, comm, size, disp_unit, info, win, &c, &i);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!base && size > 0)
		return err_comm(comm, call, MPI_ERR_ARG, "base", "is NULL");
	mine.size = size;
	mine.disp_unit = (int)disp_unit;
	/* private pages that others would reach through the kernel become
	 * shared (mem.c), but for nobody (one rank) or in the adversarial
	 * mode (where every target is private) */
	adopted = size > 0 && c->size > 1 && !adv_on() &&
		  mem_adopt(base, (size_t)size, (size_t)knobs_val[SHM_KNOB_WIN_CREATE_SHARE]);
	/* memory nobody else needs to reach is as good as shared */
	mine.direct = size == 0 ||
		      mem_find(base, (size_t)size, mine.seg, &offset) == 0;
	mine.offset = offset;
	mine.addr = (uintptr_t)base;
	rc = win_setup(c, MPI_WIN_FLAVOR_CREATE, &mine, base, i, &w);
	if (rc == MPI_SUCCESS && adopted)
		w->adopted = base;
	else if (adopted)
		mem_adopt_drop(base);
	return win_create_done(call, comm, rc, w, win);
}

API(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		      MPI_Comm comm, MPI_Win *win))
{
	return win_create("MPI_Win_create", base, size, disp_unit, info, comm, win);
}

API(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
			MPI_Comm comm, MPI_Win *win))
{
	return win_create("MPI_Win_create_c", base, size, disp_unit, info, comm, win);
}

/* The mpi_minimum_alignment info key (MPI 4.1), or 0. */
static uint64_t win_min_align(const struct info *i)
{
	const char *v = info_lookup(i, "mpi_minimum_alignment");
	unsigned long a = v ? strtoul(v, NULL, 0) : 0;

	/* a power of two, as alignments are; anything else is ignored */
	return a && !(a & (a - 1)) ? a : 0;
}

static int win_allocate(const char *call, int flavor, MPI_Aint size, MPI_Aint disp_unit,
			MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	struct win_rank_info mine = { 0 };
	struct comm *c;
	struct info *i;
	struct win *w = NULL;
	int rc;

	rc = win_check_common(call, comm, size, disp_unit, info, win, &c, &i);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!baseptr)
		return err_comm(comm, call, MPI_ERR_ARG, "baseptr", "is NULL");
	mine.size = size;
	mine.disp_unit = (int)disp_unit;
	mine.direct = 1;
	mine.align = win_min_align(i);
	rc = win_setup(c, flavor, &mine, NULL, i, &w);
	rc = win_create_done(call, comm, rc, w, win);
	if (rc == MPI_SUCCESS)
		*(void **)baseptr = w->base;
	return rc;
}

API(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
			void *baseptr, MPI_Win *win))
{
	runtime_check("MPI_Win_allocate");
	return win_allocate("MPI_Win_allocate", MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit,
			    info, comm, baseptr, win);
}

API(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info,
			       MPI_Comm comm, void *baseptr, MPI_Win *win))
{
	runtime_check("MPI_Win_allocate_shared");
	return win_allocate("MPI_Win_allocate_shared", MPI_WIN_FLAVOR_SHARED, size,
			    disp_unit, info, comm, baseptr, win);
}

API(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
			  MPI_Comm comm, void *baseptr, MPI_Win *win))
{
	runtime_check("MPI_Win_allocate_c");
	return win_allocate("MPI_Win_allocate_c", MPI_WIN_FLAVOR_ALLOCATE, size,
			    disp_unit, info, comm, baseptr, win);
}

API(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
				 MPI_Comm comm, void *baseptr, MPI_Win *win))
{
	runtime_check("MPI_Win_allocate_shared_c");
	return win_allocate("MPI_Win_allocate_shared_c", MPI_WIN_FLAVOR_SHARED, size,
			    disp_unit, info, comm, baseptr, win);
}

API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
{
	struct win_rank_info mine = { .disp_unit = 1, .direct = 1 };
	struct comm *c;
	struct info *i;
	struct win *w = NULL;
	int rc;

	runtime_check("MPI_Win_create_dynamic");
	rc = win_check_common("MPI_Win_create_dynamic", comm, 0, 1, info, win, &c, &i);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = win_setup(c, MPI_WIN_FLAVOR_DYNAMIC, &mine, MPI_BOTTOM, i, &w);
	return win_create_done("MPI_Win_create_dynamic", comm, rc, w, win);
}

/* ---- range errors -------------------------------------------------------- */

int win_range_err_static(struct win *w, const char *call, int target, MPI_Aint disp,
			 MPI_Aint lo, MPI_Aint hi, MPI_Count count, const char *type)
{
	(void)lo;
	(void)hi;
	return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
		       "%lld x %s at displacement %ld leaves rank %d's window (%ld bytes, "
		       "disp_unit %d)", (long long)count, type, (long)disp, target,
		       (long)w->t[target].size, w->t[target].disp_unit);
}

/* ---- queries and the end ------------------------------------------------ */

/*
 * Every flavour but the dynamic one (MPI 4.1, section 12.2.3): memory that
 * the caller maps (every rank's of MPI_Win_allocate and
 * MPI_Win_allocate_shared, MPI_Alloc_mem memory of MPI_Win_create, and its
 * own) answers with its pointer; memory it cannot reach answers size 0
 * and NULL, with the rank's displacement unit.  The unit comes out in
 * *du; disp_unit is the caller's pointer, for the check.
 */
static int shared_query(const char *call, MPI_Win win, int rank, MPI_Aint *size,
			const void *disp_unit, MPI_Aint *du, void *baseptr)
{
	struct win *w;
	int rc;

	runtime_check(call);
	if (!(w = win_arg(call, win, &rc)))
		return rc;
	if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
		return win_err(w, call, MPI_ERR_RMA_FLAVOR, "win",
			       "is a dynamic window: its memory has no single base");
	if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
		return win_err(w, call, MPI_ERR_RANK, "rank",
			       "%d is not a rank of the window (size %d)", rank, w->size);
	if (!size || !disp_unit || !baseptr)
		return win_err(w, call, MPI_ERR_ARG,
			       !size ? "size" : !disp_unit ? "disp_unit" : "baseptr",
			       "is NULL");
	/* MPI_PROC_NULL: the lowest rank with memory */
	if (rank == MPI_PROC_NULL)
		for (rank = 0; rank < w->size - 1 && w->t[rank].size == 0; rank++)
			;
	/* private memory is out of reach, but for its owner */
	*size = w->t[rank].mem || rank == w->rank ? w->t[rank].size : 0;
	*du = w->t[rank].disp_unit;
	*(void **)baseptr = *size > 0 ? (rank == w->rank ? w->base : w->t[rank].mem) : NULL;
	return MPI_SUCCESS;
}

API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
			    void *baseptr))
{
	MPI_Aint du;
	int rc = shared_query("MPI_Win_shared_query", win, rank, size, disp_unit, &du,
			      baseptr);

	/* a window's units are ints (win_check_common) */
	if (rc == MPI_SUCCESS)
		*disp_unit = (int)du;
	return rc;
}

API(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size,
			      MPI_Aint *disp_unit, void *baseptr))
{
	MPI_Aint du;
	int rc = shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, &du,
			      baseptr);

	if (rc == MPI_SUCCESS)
		*disp_unit = du;
	return rc;
}

API(int, Win_free, (MPI_Win *win))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_free");
	if (!win)
		return err_comm(MPI_COMM_WORLD, "MPI_Win_free", MPI_ERR_ARG, "win", "is NULL");
	if (!(w = win_arg("MPI_Win_free", *win, &rc)))
		return rc;
	if (w->nlocked || w->lock_all || w->start_group || w->post_group)
		return win_err(w, "MPI_Win_free", MPI_ERR_RMA_SYNC, "win",
			       "an epoch is still open (lock, start or post)");
	/* a fence epoch left open: its operations on private memory finish */
	rma_pkt_complete(w, CALL_WIN_FREE, NULL, 0);
	/* collective: nobody's memory goes while others may still reach it */
	coll_barrier(w->comm, CALL_WIN_FREE);
	/* adopted pages go back before an attribute's delete callback may
	 * free the memory */
	if (w->adopted)
		mem_adopt_drop(w->adopted);
	w->adopted = NULL;
	attr_delete_all(ATTR_WIN, w->handle, &w->attrs);
	win_destroy(w);
	*win = MPI_WIN_NULL;
	return MPI_SUCCESS;
}
