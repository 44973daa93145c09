/*
 * Dynamic windows (MPI 3.1, section 11.2.4): MPI_Win_attach,
 * MPI_Win_detach, and how an origin finds by itself where the attached
 * memory of a target is.
 *
 * The table.  Each rank keeps the regions it has attached in a table of
 * its own: a POSIX shared-memory segment ("d<ctx>.<rank>.<gen>", named
 * like the job's other segments, shm_job_name) that only it writes and
 * that the origins map to read.  The regions are sorted by address in
 * chunks of DYN_CHUNK, and a directory lists the chunks in order with the
 * address of each one's first region: a B+-tree of two levels.  A lookup
 * is two binary searches, O(log n) for n regions; an attach or a detach
 * moves the regions of one chunk and the directory entries after it.
 * Each region says which segment holds it (a slot of the table that names
 * an MPI_Alloc_mem segment, or the key of a window's segment that the
 * window's members have mapped), or that it is memory only its owner can
 * reach (malloc, stack), which the owner's engine serves (rma_pkt.h).
 *
 * The owner's line in the window segment (struct win_dyn_ctl) holds a
 * sequence count and the generation of the table segment in use.
 *
 * Writing (the owner, in MPI_Win_attach and MPI_Win_detach):
 *   1. seq + 1 (odd), then a release fence;
 *   2. change the table in place, every word a relaxed atomic store;
 *   3. seq + 1 again (even), a release store.
 * When the table is full, the owner first writes a new segment of twice
 * the room (generation + 1) holding the whole table, then publishes it in
 * a write section whose one change is `table` = the new generation; then
 * it unlinks the old segment's name and unmaps it.
 *
 * Reading (any origin; the owner's engine, through a mapping of its own;
 * the owner's application thread, the one writer, reads its own table
 * where it writes it):
 *   1. s = seq (acquire); odd: the owner is writing, wait;
 *   2. g = table; when g is not the generation this origin has mapped, it
 *      maps generation g by its name, unmaps the old one, and starts over
 *      (a name that is gone, -ENOENT, was replaced meanwhile);
 *   3. search, copying out what it finds; every index is checked against
 *      the table's room before it is used;
 *   4. acquire fence, then seq again: equal to s, what it copied is
 *      consistent; otherwise it starts over.
 *
 * Invariant: a reader acts only on what it read between two loads of seq
 * that returned the same even value.  Nothing was written in between, so
 * it read a table the owner had published whole, and the one in use,
 * since every change of `table` also changes seq.  A torn read stays
 * inside the mapping (bounded indices) and is thrown away.  A search that
 * finds an impossible table while seq stood still means corrupt shared
 * memory, and stops the job.
 *
 * Old tables: an origin keeps its mapping of the table it used last and
 * learns that a new one exists at its next lookup on that target (the
 * generation differs); it then maps the new one and unmaps the old.  The
 * kernel frees an old segment once its name is gone and its last mapping
 * too; an origin that never looks at that target again unmaps it in
 * MPI_Win_free.  So an origin maps at most one stale table per target,
 * /dev/shm holds one table per rank that has attached memory (its owner
 * unlinks it in MPI_Win_free), and a table grows with what is attached,
 * doubling when full, never reserved for a maximum (nor shrunk).
 *
 * Segment slots keep their index and generation when the table grows; a
 * slot's generation changes whenever it names another segment.  An origin
 * maps a segment the first time a region needs it and keeps the mapping
 * while that slot's generation stays the same.
 *
 * The common case costs one load: an origin remembers the region it found
 * last (its bounds, where it is mapped here) with the seq it was found
 * under, and while seq has not moved a range inside that region needs no
 * search.  An origin targets only memory whose MPI_Win_attach has
 * returned (MPI 3.1, section 11.2.4), while the owner may attach and
 * detach other regions at any time: a change of seq costs the next lookup
 * its searches, nothing else.
 *
 * Regions may not overlap (MPI 3.1, section 11.2.4: multiple but
 * nonoverlapping regions): attaching memory that overlaps an attached
 * region, the same memory twice included, is MPI_ERR_RMA_ATTACH.  A
 * detach must name the base an attach was given; any other address is
 * MPI_ERR_RMA_ATTACH too (the standard names no class for it).  Zero bytes
 * attach nothing, but a detach of their base succeeds.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adversary.h"
#include "api.h"
#include "errhandler.h"
#include "knobs.h"
#include "mem.h"
#include "runtime.h"
#include "win.h"
#include "win_dyn.h"

#define DYN_MAGIC 0x6e7964696d6873ULL	/* "shmidyn" */
#define DYN_VERSION 1
#define DYN_CHUNK 128		/* regions per chunk */
#define DYN_CHUNKS_MIN 4	/* the chunks of a first table */
#define DYN_SLOTS_MIN 8		/* the segment slots of a first table */
#define DYN_PRIVATE UINT32_MAX	/* dyn_region.slot: memory of the owner's only */
#define DYN_NAME_WORDS (SHM_NAME_MAX / 8)

/* ---- the table segment ---------------------------------------------------- */

struct dyn_region {
	shm_atomic_u64 addr;	/* in the owner's address space */
	shm_atomic_u64 size;
	shm_atomic_u64 off;	/* of addr in its segment */
	shm_atomic_u32 slot;	/* its segment's slot, or DYN_PRIVATE */
	shm_atomic_u32 unused;
};

struct dyn_dirent {
	shm_atomic_u64 first;	/* the address of the chunk's first region */
	shm_atomic_u32 chunk;	/* its place in the pool */
	shm_atomic_u32 n;	/* its regions, 1 to DYN_CHUNK */
};

struct dyn_slot {
	shm_atomic_u64 gen;	/* new whenever the slot names another segment */
	shm_atomic_u64 name[DYN_NAME_WORDS];
};

/* The head of a table segment; the directory, the pool of chunks and the
 * slots follow at their offsets.  Only ndir changes after publication. */
struct dyn_head {
	uint64_t magic;
	uint32_t version;
	uint32_t nchunks;	/* the pool's chunks, and the directory's room */
	uint64_t gen;		/* this table's generation (its name's too) */
	uint64_t size;		/* of the segment */
	uint64_t dir_off, pool_off, slot_off;
	uint32_t nslots;
	shm_atomic_u32 ndir;	/* directory entries in use */
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct dyn_region) == 32, "a region is 32 bytes");
_Static_assert(sizeof(struct dyn_dirent) == 16, "a directory entry is 16 bytes");
_Static_assert(SHM_NAME_MAX % 8 == 0, "a slot's name is whole words");

/* Every word of a table is read and written relaxed: the seqlock (seq in
 * struct win_dyn_ctl) orders them. */
static inline uint64_t relaxed_ld64(const shm_atomic_u64 *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline uint32_t relaxed_ld32(const shm_atomic_u32 *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline void relaxed_st64(shm_atomic_u64 *p, uint64_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static inline void relaxed_st32(shm_atomic_u32 *p, uint32_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static struct dyn_dirent *dyn_dir(const struct dyn_head *h)
{
	return (struct dyn_dirent *)((char *)h + h->dir_off);
}

static struct dyn_region *dyn_chunk(const struct dyn_head *h, uint32_t c)
{
	return (struct dyn_region *)((char *)h + h->pool_off) + (size_t)c * DYN_CHUNK;
}

static struct dyn_slot *dyn_slot(const struct dyn_head *h, uint32_t k)
{
	return (struct dyn_slot *)((char *)h + h->slot_off) + k;
}

/* A region's words, as one reads them. */
struct dyn_rval {
	uint64_t addr, size, off;
	uint32_t slot;
};

static struct dyn_rval dyn_rload(const struct dyn_region *r)
{
	return (struct dyn_rval){ relaxed_ld64(&r->addr), relaxed_ld64(&r->size),
				  relaxed_ld64(&r->off), relaxed_ld32(&r->slot) };
}

static void dyn_rstore(struct dyn_region *r, const struct dyn_rval *v)
{
	relaxed_st64(&r->addr, v->addr);
	relaxed_st64(&r->size, v->size);
	relaxed_st64(&r->off, v->off);
	relaxed_st32(&r->slot, v->slot);
}

static void dyn_dstore(struct dyn_dirent *e, uint64_t first, uint32_t chunk, uint32_t n)
{
	relaxed_st64(&e->first, first);
	relaxed_st32(&e->chunk, chunk);
	relaxed_st32(&e->n, n);
}

/* Where everything lives in a table of that room; its size. */
static size_t dyn_layout(struct dyn_head *h, uint32_t nchunks, uint32_t nslots)
{
	size_t at = sizeof(*h);

	h->nchunks = nchunks;
	h->nslots = nslots;
	h->dir_off = at;
	at += (size_t)nchunks * sizeof(struct dyn_dirent);
	h->pool_off = at;
	at += (size_t)nchunks * DYN_CHUNK * sizeof(struct dyn_region);
	h->slot_off = at;
	at += (size_t)nslots * sizeof(struct dyn_slot);
	h->size = at;
	return at;
}

/* Whether h's offsets are those of its room, inside a segment of size. */
static int dyn_layout_ok(const struct dyn_head *h, size_t size)
{
	struct dyn_head l;

	dyn_layout(&l, h->nchunks, h->nslots);
	return l.dir_off == h->dir_off && l.pool_off == h->pool_off &&
	       l.slot_off == h->slot_off && l.size == h->size && h->size <= size;
}

/*
 * Searches, for the owner and under the seqlock alike.  A position is a
 * directory entry d and a region i of its chunk.  -EAGAIN: the table read
 * is impossible (torn, or corrupt if seq stood still).
 */

/* The chunk of entry d of a directory of nd entries, and its regions. */
static int dyn_entry(const struct dyn_head *h, uint32_t d, const struct dyn_region **r,
		     uint32_t *n)
{
	const struct dyn_dirent *e = dyn_dir(h) + d;
	uint32_t c = relaxed_ld32(&e->chunk);

	*n = relaxed_ld32(&e->n);
	if (c >= h->nchunks || *n == 0 || *n > DYN_CHUNK)
		return -EAGAIN;
	*r = dyn_chunk(h, c);
	return 0;
}

/* The last region starting at or below a: 0, -ENOENT when every region
 * starts above a (or there is none), -EAGAIN. */
static int dyn_floor(const struct dyn_head *h, uint32_t nd, uint64_t a, uint32_t *d,
		     uint32_t *i)
{
	const struct dyn_dirent *dir = dyn_dir(h);
	const struct dyn_region *r;
	uint32_t lo = 0, hi = nd, n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (relaxed_ld64(&dir[mid].first) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -ENOENT;
	*d = lo - 1;
	if (dyn_entry(h, *d, &r, &n) < 0)
		return -EAGAIN;
	lo = 0;
	hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (relaxed_ld64(&r[mid].addr) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -EAGAIN;	/* the chunk starts above its directory entry */
	*i = lo - 1;
	return 0;
}

/* The region at (d, i), or the next one: 0, -ENOENT past the last, -EAGAIN. */
static int dyn_at(const struct dyn_head *h, uint32_t nd, uint32_t *d, uint32_t *i,
		  struct dyn_rval *v)
{
	const struct dyn_region *r;
	uint32_t n;

	for (;;) {
		if (*d >= nd)
			return -ENOENT;
		if (dyn_entry(h, *d, &r, &n) < 0)
			return -EAGAIN;
		if (*i < n)
			break;
		++*d;
		*i = 0;
	}
	*v = dyn_rload(r + *i);
	return 0;
}

/* ---- the owner ------------------------------------------------------------ */

struct dyn_seg_use {		/* a slot of this rank's table, as it knows it */
	char name[SHM_NAME_MAX];
	uint32_t refs;		/* regions in that segment; 0: the slot is free */
};

struct dyn_owner {
	struct shm_seg seg;	/* its table, mapped here (base NULL: none yet) */
	struct dyn_head *h;
	uint64_t gen;		/* the generation of h */
	uint32_t *free;		/* [h->nchunks] chunks of the pool not in use */
	uint32_t nfree;
	struct dyn_seg_use *use;	/* [h->nslots] */
	uint32_t nused;		/* slots used so far: [0, nused) */
	uint32_t last;		/* the slot an attach found last */
	uint64_t slot_gen;	/* the last generation a slot took */
	uintptr_t *empty;	/* bases of zero-byte attaches not detached yet */
	size_t nempty;
	uintptr_t *adopted;	/* bases of regions whose pages were made shared
				 * for them (mem.h), not detached yet */
	size_t nadopted;
};

/* A target's table and segments as this process maps them. */
struct dyn_map {		/* one slot of the target's */
	uint64_t gen;		/* the slot's generation then; 0: none */
	char *base;
	struct shm_seg seg;	/* when mapped for the slot (seg.base == base) */
};

struct dyn_view {
	struct shm_seg seg;	/* the target's table (base NULL: none) */
	uint64_t gen;
	struct dyn_map *maps;	/* [nmaps], by slot */
	uint32_t nmaps;
	/* the region found last, while the target's seq stays `seq` */
	uint64_t seq, lo, hi;
	char *at;		/* lo mapped here; NULL: the target's engine */
};

struct win_dyn {
	struct win_dyn_ctl *ctl;	/* [size], in the window segment */
	struct dyn_owner own;
	struct dyn_view *views;		/* [size]: this rank as an origin */
	struct dyn_view engine;		/* this rank's engine, on its own table */
	struct win_dyn_span span;	/* the last lookup's */
	uint8_t *mixed;			/* [size], rma_dynamic.c's */
	struct win_dyn *next;		/* on dyn_live */
};

/* The dynamic windows of this process not freed yet (MPI_Finalize). */
static struct win_dyn *dyn_live;

static int dyn_table_name(const struct win *w, int owner, uint64_t gen, char *name)
{
	char what[64];

	snprintf(what, sizeof(what), "d%u.%d.%llu", w->comm->ctx, owner,
		 (unsigned long long)gen);
	return shm_job_name(name, SHM_NAME_MAX, geteuid(), rt.job_id, what);
}

/* The owner changes its table (see the protocol above). */
static void dyn_write_begin(struct win_dyn_ctl *c)
{
	uint64_t s = atomic_load_explicit(&c->seq, memory_order_relaxed);	/* ours */

	atomic_store_explicit(&c->seq, s + 1, memory_order_relaxed);
	/* the odd seq before any change: pairs with the reader's acquire
	 * fence before its second load of seq */
	atomic_thread_fence(memory_order_release);
}

static void dyn_write_end(struct win_dyn_ctl *c)
{
	uint64_t s = atomic_load_explicit(&c->seq, memory_order_relaxed);	/* ours */

	/* release: the changes before the even seq; pairs with the reader's
	 * acquire load of seq */
	atomic_store_explicit(&c->seq, s + 1, memory_order_release);
}

/*
 * Move the table to a new segment with room for nchunks chunks and nslots
 * slots, and publish it.  0, or a negative errno (the old table stays).
 */
static int dyn_grow(struct win *w, uint32_t nchunks, uint32_t nslots)
{
	struct win_dyn *dw = w->dyn;
	struct dyn_owner *o = &dw->own;
	struct shm_seg seg = { .fd = -1 };
	struct dyn_head layout = { 0 }, *h, *old = o->h;
	uint32_t nd = old ? relaxed_ld32(&old->ndir) : 0, *fr;
	struct dyn_seg_use *use;
	char name[SHM_NAME_MAX];
	size_t size = dyn_layout(&layout, nchunks, nslots);
	int rc;

	fr = malloc((size_t)nchunks * sizeof(*fr));
	use = realloc(o->use, (size_t)nslots * sizeof(*use));
	if (use)
		o->use = use;
	if (!fr || !use) {
		free(fr);
		return -ENOMEM;
	}
	memset(use + (old ? old->nslots : 0), 0,
	       (size_t)(nslots - (old ? old->nslots : 0)) * sizeof(*use));
	rc = dyn_table_name(w, w->rank, o->gen + 1, name);
	if (rc == 0)
		rc = shm_seg_create(&seg, name, size, 0);
	if (rc < 0) {
		free(fr);
		return rc;
	}
	/* the new table, whole, before anybody can see it */
	h = seg.base;
	h->magic = DYN_MAGIC;
	h->version = DYN_VERSION;
	h->gen = o->gen + 1;
	dyn_layout(h, nchunks, nslots);
	for (uint32_t d = 0; d < nd; d++) {
		const struct dyn_region *r;
		uint32_t n;

		if (dyn_entry(old, d, &r, &n) < 0) {
			fprintf(stderr, "shmpi: rank %d: the table of attached regions is "
				"corrupt\n", rt.rank);
			runtime_abort_job(MPI_ERR_INTERN);
		}
		for (uint32_t i = 0; i < n; i++) {
			struct dyn_rval v = dyn_rload(r + i);

			dyn_rstore(dyn_chunk(h, d) + i, &v);
		}
		dyn_dstore(dyn_dir(h) + d, relaxed_ld64(&dyn_dir(old)[d].first), d, n);
	}
	for (uint32_t k = 0; k < o->nused; k++) {
		relaxed_st64(&dyn_slot(h, k)->gen, relaxed_ld64(&dyn_slot(old, k)->gen));
		for (int j = 0; j < DYN_NAME_WORDS; j++)
			relaxed_st64(&dyn_slot(h, k)->name[j],
				     relaxed_ld64(&dyn_slot(old, k)->name[j]));
	}
	relaxed_st32(&h->ndir, nd);
	o->nfree = 0;
	for (uint32_t c = nchunks; c-- > nd;)
		fr[o->nfree++] = c;
	free(o->free);
	o->free = fr;
	/* the flip: readers that see the new seq see the new generation */
	dyn_write_begin(&dw->ctl[w->rank]);
	atomic_store_explicit(&dw->ctl[w->rank].table, h->gen, memory_order_relaxed);
	dyn_write_end(&dw->ctl[w->rank]);
	if (old) {
		shm_seg_unlink(o->seg.name);
		shm_seg_close(&o->seg);
	}
	o->seg = seg;
	o->h = h;
	o->gen = h->gen;
	return 0;
}

/* Insert entry (first, chunk, n) at d of the directory. */
static void dyn_dir_insert(struct dyn_head *h, uint32_t d, uint64_t first, uint32_t chunk,
			   uint32_t n)
{
	struct dyn_dirent *dir = dyn_dir(h);
	uint32_t nd = relaxed_ld32(&h->ndir);

	for (uint32_t k = nd; k > d; k--)
		dyn_dstore(dir + k, relaxed_ld64(&dir[k - 1].first),
			   relaxed_ld32(&dir[k - 1].chunk), relaxed_ld32(&dir[k - 1].n));
	dyn_dstore(dir + d, first, chunk, n);
	relaxed_st32(&h->ndir, nd + 1);
}

/* Insert region v (room checked: a free chunk).  In a write section. */
static void dyn_insert(struct dyn_owner *o, const struct dyn_rval *v)
{
	struct dyn_head *h = o->h;
	struct dyn_dirent *dir = dyn_dir(h);
	uint32_t nd = relaxed_ld32(&h->ndir), d, i, n, c, pos;
	struct dyn_region *r;

	if (nd == 0) {
		c = o->free[--o->nfree];
		dyn_rstore(dyn_chunk(h, c), v);
		dyn_dir_insert(h, 0, v->addr, c, 1);
		return;
	}
	/* the chunk it belongs in, and its place there */
	if (dyn_floor(h, nd, v->addr, &d, &i) == 0) {
		pos = i + 1;
	} else {
		d = 0;
		pos = 0;
	}
	c = relaxed_ld32(&dir[d].chunk);
	n = relaxed_ld32(&dir[d].n);
	r = dyn_chunk(h, c);
	if (n == DYN_CHUNK) {
		uint32_t c2 = o->free[--o->nfree], half = DYN_CHUNK / 2;
		struct dyn_region *r2 = dyn_chunk(h, c2);

		if (pos == DYN_CHUNK) {
			/* past the chunk's end: a chunk of its own (attaching in
			 * ascending order fills chunks whole) */
			dyn_rstore(r2, v);
			dyn_dir_insert(h, d + 1, v->addr, c2, 1);
			return;
		}
		/* split: the upper half to a new chunk after it */
		for (uint32_t k = half; k < DYN_CHUNK; k++) {
			struct dyn_rval m = dyn_rload(r + k);

			dyn_rstore(r2 + k - half, &m);
		}
		relaxed_st32(&dir[d].n, half);
		dyn_dir_insert(h, d + 1, relaxed_ld64(&r2->addr), c2, half);
		n = half;
		if (pos > half) {
			d++;
			r = r2;
			pos -= half;
		}
	}
	for (uint32_t k = n; k > pos; k--) {
		struct dyn_rval m = dyn_rload(r + k - 1);

		dyn_rstore(r + k, &m);
	}
	dyn_rstore(r + pos, v);
	relaxed_st32(&dir[d].n, n + 1);
	if (pos == 0)
		relaxed_st64(&dir[d].first, v->addr);
}

/* Remove region (d, i).  In a write section. */
static void dyn_remove(struct dyn_owner *o, uint32_t d, uint32_t i)
{
	struct dyn_head *h = o->h;
	struct dyn_dirent *dir = dyn_dir(h);
	uint32_t nd = relaxed_ld32(&h->ndir), c = relaxed_ld32(&dir[d].chunk);
	uint32_t n = relaxed_ld32(&dir[d].n) - 1;
	struct dyn_region *r = dyn_chunk(h, c);

	for (uint32_t k = i; k < n; k++) {
		struct dyn_rval m = dyn_rload(r + k + 1);

		dyn_rstore(r + k, &m);
	}
	if (n > 0) {
		relaxed_st32(&dir[d].n, n);
		if (i == 0)
			relaxed_st64(&dir[d].first, relaxed_ld64(&r->addr));
		return;
	}
	/* the chunk is empty: out of the directory, back to the pool */
	o->free[o->nfree++] = c;
	for (uint32_t k = d; k + 1 < nd; k++)
		dyn_dstore(dir + k, relaxed_ld64(&dir[k + 1].first),
			   relaxed_ld32(&dir[k + 1].chunk), relaxed_ld32(&dir[k + 1].n));
	relaxed_st32(&h->ndir, nd - 1);
}

/* The slot naming segment `name`, or one to take for it (*fresh): 0, or
 * -ENOSPC when the table has no slot left. */
static int dyn_slot_for(struct dyn_owner *o, const char *name, uint32_t *k, int *fresh)
{
	uint32_t room = o->h ? o->h->nslots : 0, free_k = UINT32_MAX;

	*fresh = 0;
	if (o->last < o->nused && o->use[o->last].refs &&
	    !strcmp(o->use[o->last].name, name)) {
		*k = o->last;
		return 0;
	}
	for (uint32_t j = 0; j < o->nused; j++) {
		if (o->use[j].refs && !strcmp(o->use[j].name, name)) {
			*k = o->last = j;
			return 0;
		}
		if (!o->use[j].refs && free_k == UINT32_MAX)
			free_k = j;
	}
	if (free_k == UINT32_MAX && o->nused == room)
		return -ENOSPC;
	*k = free_k != UINT32_MAX ? free_k : o->nused;
	*fresh = 1;
	return 0;
}

/* The region holding or next to [a, a + n) that overlaps it, if any. */
static int dyn_overlap(const struct dyn_head *h, uint64_t a, uint64_t n, struct dyn_rval *hit)
{
	uint32_t nd = relaxed_ld32(&h->ndir), d = 0, i = 0;

	if (dyn_floor(h, nd, a, &d, &i) == 0) {
		if (dyn_at(h, nd, &d, &i, hit) == 0 && hit->addr + hit->size > a)
			return 1;
		i++;
	}
	return dyn_at(h, nd, &d, &i, hit) == 0 && hit->addr < a + n;
}

/*
 * Attach [base, base + size) of this rank (size > 0): 0, -EEXIST when it
 * overlaps region *hit, -ENOMEM or another errno of the table's segment.
 */
static int dyn_attach(struct win *w, void *base, uint64_t size, struct dyn_rval *hit)
{
	struct win_dyn *dw = w->dyn;
	struct dyn_owner *o = &dw->own;
	struct dyn_rval v = { .addr = (uintptr_t)base, .size = size, .slot = DYN_PRIVATE };
	char name[SHM_NAME_MAX];
	size_t off;
	uint32_t k = 0;
	int fresh = 0, adopted = 0, rc;

	if (o->h && dyn_overlap(o->h, v.addr, size, hit))
		return -EEXIST;
	/* room for one more region, whatever the chunk it goes in */
	if (!o->h || o->nfree == 0) {
		rc = dyn_grow(w, o->h ? 2 * o->h->nchunks : DYN_CHUNKS_MIN,
			      o->h ? o->h->nslots : DYN_SLOTS_MIN);
		if (rc < 0)
			return rc;
	}
	/* whole private pages become shared while attached, as for
	 * MPI_Win_create (mem.c), once there is room to remember them */
	if (w->size > 1 && !adv_on()) {
		uintptr_t *a = realloc(o->adopted, (o->nadopted + 1) * sizeof(*a));

		if (!a)
			return -ENOMEM;
		o->adopted = a;
		adopted = mem_adopt(base, (size_t)size,
				    (size_t)knobs_val[SHM_KNOB_WIN_CREATE_SHARE]);
	}
	/* memory others can map is reached directly; the rest by the engine */
	if (mem_find(base, (size_t)size, name, &off) == 0) {
		v.off = off;
		rc = dyn_slot_for(o, name, &k, &fresh);
		if (rc == -ENOSPC) {
			rc = dyn_grow(w, o->h->nchunks, 2 * o->h->nslots);
			if (rc == 0)
				rc = dyn_slot_for(o, name, &k, &fresh);
		}
		if (rc < 0) {
			if (adopted)
				mem_adopt_drop(base);
			return rc;
		}
		v.slot = k;
	}
	if (adopted)
		o->adopted[o->nadopted++] = (uintptr_t)base;
	dyn_write_begin(&dw->ctl[w->rank]);
	if (fresh) {
		struct dyn_slot *s = dyn_slot(o->h, k);
		uint64_t words[DYN_NAME_WORDS] = { 0 };

		memcpy(words, name, strnlen(name, SHM_NAME_MAX - 1));
		for (int j = 0; j < DYN_NAME_WORDS; j++)
			relaxed_st64(&s->name[j], words[j]);
		relaxed_st64(&s->gen, ++o->slot_gen);
	}
	dyn_insert(o, &v);
	dyn_write_end(&dw->ctl[w->rank]);
	if (fresh) {
		snprintf(o->use[k].name, SHM_NAME_MAX, "%s", name);
		if (k == o->nused)
			o->nused++;
	}
	if (v.slot != DYN_PRIVATE) {
		o->use[k].refs++;
		o->last = k;
	}
	return 0;
}

/* A region whose pages were made shared at its attach gives them back
 * (after it left the table: a new search no longer finds it; an origin
 * that mapped it before may keep its mapping, which no longer is the
 * region's memory, and any access through it after the detach is
 * erroneous, MPI 3.1 section 11.2.4). */
static void dyn_give_back(struct dyn_owner *o, uintptr_t base)
{
	for (size_t j = 0; j < o->nadopted; j++)
		if (o->adopted[j] == base) {
			o->adopted[j] = o->adopted[--o->nadopted];
			mem_adopt_drop((void *)base);
			return;
		}
}

/* Detach the region starting at base: 0, or -ENOENT (*hit: the region
 * holding base, size 0 if none). */
static int dyn_detach(struct win *w, uintptr_t base, struct dyn_rval *hit)
{
	struct win_dyn *dw = w->dyn;
	struct dyn_owner *o = &dw->own;
	uint32_t nd, d, i;

	*hit = (struct dyn_rval){ 0 };
	for (size_t j = 0; j < o->nempty; j++)
		if (o->empty[j] == base) {
			o->empty[j] = o->empty[--o->nempty];
			return 0;
		}
	if (!o->h)
		return -ENOENT;
	nd = relaxed_ld32(&o->h->ndir);
	if (dyn_floor(o->h, nd, base, &d, &i) < 0 || dyn_at(o->h, nd, &d, &i, hit) < 0)
		return -ENOENT;
	if (hit->addr != base) {
		if (hit->addr + hit->size <= base)
			*hit = (struct dyn_rval){ 0 };
		return -ENOENT;
	}
	dyn_write_begin(&dw->ctl[w->rank]);
	dyn_remove(o, d, i);
	dyn_write_end(&dw->ctl[w->rank]);
	if (hit->slot != DYN_PRIVATE)
		o->use[hit->slot].refs--;
	dyn_give_back(o, base);
	return 0;
}

/* ---- reading a target's table ---------------------------------------------- */

/* What one search found. */
struct dyn_found {
	int rc;			/* 0; -ENOENT: not all attached; -ESTALE: map
				 * slot `slot` first; -EAGAIN: impossible
				 * table; -ENOMEM */
	int nreg;		/* regions the range covers */
	struct dyn_rval reg;	/* 0, one region: it */
	char *reg_at;		/* and its first byte here (NULL: private) */
	uint64_t hole;		/* -ENOENT: the first byte not attached, */
	struct dyn_rval below, above;	/* and the regions either side (size 0:
					 * none) */
	uint32_t slot;		/* -ESTALE */
	uint64_t slot_gen;
	char name[SHM_NAME_MAX];
};

/* Spin, then give the CPU away (the owner may share it). */
static void dyn_pause(unsigned *i)
{
	if (++*i > rt.spins)
		sched_yield();
	else
		shm_cpu_relax();
}

static void dyn_fatal(const char *what)
{
	fprintf(stderr, "shmpi: rank %d: %s\n", rt.rank, what);
	runtime_abort_job(MPI_ERR_INTERN);
}

/* Append [addr, addr + len), at `at` here, to s, merged with the piece
 * before when they are reached alike and lie end to end here too. */
static int span_add(struct win_dyn_span *s, uint64_t addr, uint64_t len, char *at)
{
	struct win_dyn_piece *p = s->n ? &s->p[s->n - 1] : NULL;

	if (p && (p->at ? at && p->at + p->len == at : !at)) {
		p->len += len;
		return 0;
	}
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 4;
		struct win_dyn_piece *q = realloc(s->p, (size_t)cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		s->p = q;
		s->cap = cap;
	}
	s->p[s->n++] = (struct win_dyn_piece){ addr, len, at };
	s->priv += !at;
	return 0;
}

/*
 * Search table h for [a, a + len) (len > 0).  s: the pieces go there (NULL:
 * only whether every byte is attached); v: the slots mapped here, or NULL
 * when the table is this process's own (its memory is at its address).
 * Under the seqlock: everything read is checked before it is used.
 */
static void dyn_search(const struct dyn_head *h, const struct dyn_view *v,
		       struct win_dyn_span *s, uint64_t a, uint64_t len, struct dyn_found *f)
{
	uint32_t nd = relaxed_ld32(&h->ndir), d = 0, i = 0;
	uint64_t at = a, end = a + len;
	struct dyn_rval r, prev = { 0 };
	int rc;

	f->rc = 0;
	f->nreg = 0;
	if (s) {
		s->n = 0;
		s->priv = 0;
	}
	if (nd > h->nchunks) {
		f->rc = -EAGAIN;
		return;
	}
	rc = dyn_floor(h, nd, a, &d, &i);
	if (rc == -ENOENT) {
		/* below every region */
		f->rc = -ENOENT;
		f->hole = a;
		f->below = (struct dyn_rval){ 0 };
		d = i = 0;
		if (dyn_at(h, nd, &d, &i, &f->above) < 0)
			f->above = (struct dyn_rval){ 0 };
		return;
	}
	for (;;) {
		char *here = NULL;
		uint64_t take;

		if (rc == 0)
			rc = dyn_at(h, nd, &d, &i, &r);
		if (rc == -EAGAIN || (rc == 0 && (r.size == 0 || r.addr + r.size < r.addr))) {
			f->rc = -EAGAIN;
			return;
		}
		if (rc == -ENOENT || r.addr > at || at - r.addr >= r.size) {
			/* the memory ends at `at` */
			f->rc = -ENOENT;
			f->hole = at;
			if (rc == 0 && r.addr <= at) {
				prev = r;
				i++;
				rc = dyn_at(h, nd, &d, &i, &r);
			}
			f->below = prev;
			f->above = rc == 0 ? r : (struct dyn_rval){ 0 };
			return;
		}
		take = (end - r.addr < r.size ? end : r.addr + r.size) - at;
		if (r.slot != DYN_PRIVATE && !adv_on() && s) {
			if (!v) {
				here = (char *)(uintptr_t)at;
			} else if (r.slot >= h->nslots) {
				f->rc = -EAGAIN;
				return;
			} else {
				const struct dyn_slot *sl = dyn_slot(h, r.slot);
				uint64_t g = relaxed_ld64(&sl->gen);

				if (r.slot >= v->nmaps || v->maps[r.slot].gen != g) {
					uint64_t words[DYN_NAME_WORDS];

					for (int j = 0; j < DYN_NAME_WORDS; j++)
						words[j] = relaxed_ld64(&sl->name[j]);
					memcpy(f->name, words, SHM_NAME_MAX);
					f->name[SHM_NAME_MAX - 1] = 0;
					f->rc = -ESTALE;
					f->slot = r.slot;
					f->slot_gen = g;
					return;
				}
				here = v->maps[r.slot].base + r.off + (at - r.addr);
			}
		}
		if (s && span_add(s, at, take, here) < 0) {
			f->rc = -ENOMEM;
			return;
		}
		if (f->nreg++ == 0) {
			f->reg = r;
			f->reg_at = here ? here - (at - r.addr) : NULL;
		}
		at += take;
		if (at == end)
			return;
		prev = r;
		i++;
	}
}

/* Map generation gen of target's table in v, for the old one. */
static int dyn_view_table(struct win *w, int target, struct dyn_view *v, uint64_t gen)
{
	struct shm_seg seg = { .fd = -1 };
	char name[SHM_NAME_MAX];
	const struct dyn_head *h;
	int rc;

	if (gen != 0) {
		rc = dyn_table_name(w, target, gen, name);
		if (rc == 0)
			rc = shm_seg_open(&seg, name, 0);
		if (rc < 0)
			return rc;
		h = seg.base;
		if (seg.size < sizeof(*h) || h->magic != DYN_MAGIC ||
		    h->version != DYN_VERSION || h->gen != gen ||
		    !dyn_layout_ok(h, seg.size))
			dyn_fatal("a table of attached regions is corrupt");
	}
	if (v->seg.base)
		shm_seg_close(&v->seg);
	v->seg = seg;
	v->gen = gen;
	return 0;
}

/* Map the segment of slot f->slot in v, for what it held before. */
static int dyn_view_slot(struct dyn_view *v, const struct dyn_found *f)
{
	struct dyn_map *m;

	if (f->slot >= v->nmaps) {
		uint32_t n = f->slot + 1 > 2 * v->nmaps ? f->slot + 1 : 2 * v->nmaps;
		struct dyn_map *q = realloc(v->maps, (size_t)n * sizeof(*q));

		if (!q)
			return -ENOMEM;
		memset(q + v->nmaps, 0, (size_t)(n - v->nmaps) * sizeof(*q));
		v->maps = q;
		v->nmaps = n;
	}
	m = &v->maps[f->slot];
	if (m->seg.base)
		shm_seg_close(&m->seg);
	*m = (struct dyn_map){ .seg.fd = -1 };
	if (f->name[0] == '/') {
		int rc = shm_seg_open(&m->seg, f->name, 0);

		if (rc < 0)
			return rc;
		m->base = m->seg.base;
	} else if (!(m->base = mem_shared_base(f->name))) {
		/* a window's memory this process is no member of */
		return -ENXIO;
	}
	m->gen = f->slot_gen;
	return 0;
}

/*
 * Look [a, a + len) up in target's table (the protocol's reading side).
 * self: the table is this process's own (the owner's application thread,
 * which alone writes it); v: the view to read through and remember in
 * (with self, only the remembering); s as for dyn_search.  Returns f->rc,
 * or a negative errno of mapping.
 */
static int dyn_read(struct win *w, int target, int self, struct dyn_view *v,
		    struct win_dyn_span *s, uint64_t a, uint64_t len, struct dyn_found *f)
{
	struct win_dyn *dw = w->dyn;
	struct win_dyn_ctl *c = &dw->ctl[target];
	unsigned spins = 0;

	if (a + len < a)
		return -ENOENT;
	for (;;) {
		/* acquire: pairs with dyn_write_end's release, so that the
		 * table published by this even seq is seen whole */
		uint64_t seq = atomic_load_explicit(&c->seq, memory_order_acquire), gen;
		const struct dyn_head *h;
		int rc;

		if (seq & 1) {
			dyn_pause(&spins);
			continue;
		}
		/* the region found last, while nothing changed since */
		if (seq == v->seq && a >= v->lo && a < v->hi && len <= v->hi - a) {
			f->rc = 0;
			f->nreg = 1;
			if (s) {
				s->n = 0;
				s->priv = 0;
				f->rc = span_add(s, a, len, v->at ? v->at + (a - v->lo) : NULL);
			}
			return f->rc;
		}
		gen = atomic_load_explicit(&c->table, memory_order_relaxed);
		if (!self && gen != v->gen) {
			rc = dyn_view_table(w, target, v, gen);
			if (rc < 0 && rc != -ENOENT)	/* -ENOENT: replaced since */
				return rc;
			continue;
		}
		h = self ? dw->own.h : v->seg.base;
		if (h) {
			dyn_search(h, self ? NULL : v, s, a, len, f);
		} else {
			*f = (struct dyn_found){ .rc = -ENOENT, .hole = a };
		}
		/* what the search read, before seq again: pairs with
		 * dyn_write_begin's fence */
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&c->seq, memory_order_relaxed) != seq)
			continue;
		if (f->rc == -EAGAIN)
			dyn_fatal("a table of attached regions is corrupt");
		if (f->rc == -ESTALE) {
			rc = dyn_view_slot(v, f);
			/* a segment gone while seq stood still is out of reach */
			if (rc < 0 && atomic_load_explicit(&c->seq, memory_order_relaxed) == seq)
				return rc == -ENOENT ? -ENXIO : rc;
			continue;
		}
		/* remembered with where it is here (the engine's view never
		 * needs that) */
		if (f->rc == 0 && f->nreg == 1 && (s || v == &dw->engine)) {
			v->seq = seq;
			v->lo = f->reg.addr;
			v->hi = f->reg.addr + f->reg.size;
			v->at = f->reg_at;
		}
		return f->rc;
	}
}

int win_dyn_lookup(struct win *w, int target, uint64_t addr, uint64_t len,
		   const struct win_dyn_span **span)
{
	struct win_dyn *dw = w->dyn;
	struct dyn_found f;
	int rc = dyn_read(w, target, target == w->rank, &dw->views[target], &dw->span, addr,
			  len, &f);

	if (rc < 0)
		return rc;
	*span = &dw->span;
	return 0;
}

int win_dyn_attached(struct win *w, uint64_t addr, uint64_t len)
{
	struct dyn_found f;

	return dyn_read(w, w->rank, 0, &w->dyn->engine, NULL, addr, len, &f) == 0;
}

uint8_t *win_dyn_mixed(struct win *w)
{
	return w->dyn->mixed;
}

int win_dyn_range_err(struct win *w, const char *call, int target, MPI_Aint disp,
		      MPI_Aint lo, MPI_Aint hi, MPI_Count count, const char *type)
{
	struct win_dyn *dw = w->dyn;
	const struct dyn_rval *near;
	struct dyn_found f = { 0 };
	MPI_Aint first;
	int rc;

	if (hi <= lo || __builtin_add_overflow(disp, lo, &first))
		return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
			       "%lld x %s at address 0x%lx: the bytes do not fit in the "
			       "address space", (long long)count, type, (unsigned long)disp);
	/* the span is the caller's: look again, for the message only */
	rc = dyn_read(w, target, target == w->rank, &dw->views[target], NULL,
		      (uint64_t)first, (uint64_t)(hi - lo), &f);
	if (rc == -ENOMEM)
		return win_err(w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	if (rc == -ENXIO)
		return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
			       "%lld x %s at address 0x%lx: rank %d attached that memory "
			       "from a segment this process cannot map", (long long)count, type,
			       (unsigned long)disp, target);
	if (rc != -ENOENT)
		return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
			       "%lld x %s at address 0x%lx: the bytes [0x%lx, 0x%lx) of rank "
			       "%d were not all attached when the call looked", (long long)count, type,
			       (unsigned long)disp, (unsigned long)first,
			       (unsigned long)(first + (hi - lo)), target);
	if (!f.below.size && !f.above.size)
		return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
			       "%lld x %s at address 0x%lx: rank %d has no memory attached "
			       "to the window", (long long)count, type, (unsigned long)disp, target);
	/* the nearer of the regions either side of the first missing byte */
	near = !f.above.size || (f.below.size &&
				 f.hole - (f.below.addr + f.below.size) <=
				 f.above.addr - f.hole) ? &f.below : &f.above;
	return win_err(w, call, MPI_ERR_RMA_RANGE, "target_disp",
		       "%lld x %s at address 0x%lx leaves the memory rank %d has attached: "
		       "the byte at 0x%lx is not attached; the nearest attached region is "
		       "[0x%lx, 0x%lx) (%lu bytes)", (long long)count, type, (unsigned long)disp,
		       target, (unsigned long)f.hole, (unsigned long)near->addr,
		       (unsigned long)(near->addr + near->size), (unsigned long)near->size);
}

/* ---- set-up and the calls ------------------------------------------------- */

int win_dyn_init(struct win *w)
{
	struct win_dyn *dw = calloc(1, sizeof(*dw));

	if (!dw)
		return -ENOMEM;
	w->dyn = dw;
	dw->next = dyn_live;
	dyn_live = dw;
	dw->ctl = (struct win_dyn_ctl *)((char *)w->shm + w->shm->dyn_off);
	dw->own.seg.fd = -1;
	dw->engine.seg.fd = -1;
	dw->views = calloc((size_t)w->size, sizeof(*dw->views));
	dw->mixed = calloc((size_t)w->size, sizeof(*dw->mixed));
	if (!dw->views || !dw->mixed)
		return -ENOMEM;
	for (int r = 0; r < w->size; r++)
		dw->views[r].seg.fd = -1;
	return 0;
}

static void dyn_view_fini(struct dyn_view *v)
{
	for (uint32_t k = 0; k < v->nmaps; k++)
		if (v->maps[k].seg.base)
			shm_seg_close(&v->maps[k].seg);
	free(v->maps);
	if (v->seg.base)
		shm_seg_close(&v->seg);
}

void win_dyn_fini(struct win *w)
{
	struct win_dyn *dw = w->dyn;

	if (!dw)
		return;
	for (struct win_dyn **p = &dyn_live; *p; p = &(*p)->next)
		if (*p == dw) {
			*p = dw->next;
			break;
		}
	if (dw->views)
		for (int r = 0; r < w->size; r++)
			dyn_view_fini(&dw->views[r]);
	dyn_view_fini(&dw->engine);
	if (dw->own.seg.base) {
		shm_seg_unlink(dw->own.seg.name);
		shm_seg_close(&dw->own.seg);
	}
	while (dw->own.nadopted)
		dyn_give_back(&dw->own, dw->own.adopted[0]);
	free(dw->own.free);
	free(dw->own.use);
	free(dw->own.empty);
	free(dw->own.adopted);
	free(dw->views);
	free(dw->mixed);
	free(dw->span.p);
	free(dw);
	w->dyn = NULL;
}

void win_dyn_finalize(void)
{
	for (struct win_dyn *dw = dyn_live; dw; dw = dw->next)
		if (dw->own.seg.base)
			shm_seg_unlink(dw->own.seg.name);
	dyn_live = NULL;
}

/* The window for `call`, which must be a dynamic one. */
static struct win *dyn_win_arg(const char *call, MPI_Win win, int *rc)
{
	struct win *w = win_arg(call, win, rc);

	if (w && w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
		*rc = win_err(w, call, MPI_ERR_RMA_FLAVOR, "win",
			      "was not created by MPI_Win_create_dynamic");
		return NULL;
	}
	return w;
}

API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
{
	struct dyn_owner *o;
	struct dyn_rval hit;
	struct win *w;
	uintptr_t end;
	int rc;

	runtime_check("MPI_Win_attach");
	if (!(w = dyn_win_arg("MPI_Win_attach", win, &rc)))
		return rc;
	if (size < 0 || (!base && size > 0))
		return win_err(w, "MPI_Win_attach", MPI_ERR_ARG, size < 0 ? "size" : "base",
			       size < 0 ? "is negative" : "is NULL");
	if (__builtin_add_overflow((uintptr_t)base, (uintptr_t)size, &end))
		return win_err(w, "MPI_Win_attach", MPI_ERR_ARG, "size",
			       "%ld bytes at %p leave the address space", (long)size, base);
	o = &w->dyn->own;
	if (size == 0) {
		/* nothing to reach; kept for the detach that names it */
		uintptr_t *e = realloc(o->empty, (o->nempty + 1) * sizeof(*e));

		if (!e)
			return win_err(w, "MPI_Win_attach", MPI_ERR_RMA_ATTACH, NULL,
				       "out of memory");
		o->empty = e;
		o->empty[o->nempty++] = (uintptr_t)base;
		return MPI_SUCCESS;
	}
	rc = dyn_attach(w, base, (uint64_t)size, &hit);
	if (rc == -EEXIST)
		return win_err(w, "MPI_Win_attach", MPI_ERR_RMA_ATTACH, "base",
			       "[%p, %p) overlaps [0x%lx, 0x%lx), attached already "
			       "(attached regions may not overlap)", base, (void *)end,
			       (unsigned long)hit.addr, (unsigned long)(hit.addr + hit.size));
	if (rc < 0)
		return win_err(w, "MPI_Win_attach", MPI_ERR_RMA_ATTACH, NULL,
			       "no room for the table of attached regions: %s",
			       strerror(-rc));
	return MPI_SUCCESS;
}

API(int, Win_detach, (MPI_Win win, const void *base))
{
	struct dyn_rval hit;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_detach");
	if (!(w = dyn_win_arg("MPI_Win_detach", win, &rc)))
		return rc;
	if (dyn_detach(w, (uintptr_t)base, &hit) == 0)
		return MPI_SUCCESS;
	if (hit.size)
		return win_err(w, "MPI_Win_detach", MPI_ERR_RMA_ATTACH, "base",
			       "%p lies inside the region [0x%lx, 0x%lx): a detach names "
			       "the base its attach was given", base, (unsigned long)hit.addr,
			       (unsigned long)(hit.addr + hit.size));
	return win_err(w, "MPI_Win_detach", MPI_ERR_RMA_ATTACH, "base",
		       "%p is not attached to this window", base);
}
