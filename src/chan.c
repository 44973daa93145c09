/*
 * Channels over the ranks' inboxes (shm/inbox.h, shm/job.h).
 *
 * Sending to dst: the first record to dst claims a ring of dst's pool for
 * this rank; if the pool is used up, every record to dst goes through
 * dst's shared ring, under its lock and stamped with this rank.  Either
 * way the pair keeps its ring for the job's life (records stay in order).
 * The choice is remembered here, per destination.
 *
 * Receiving: the pool rings published so far, with their senders, are
 * kept here in the order they were claimed; a pass looks at the first
 * unpublished one (a new sender), at each known ring, and at the shared
 * ring: O(pool rings) per pass, whatever the number of ranks.
 */
#include <errno.h>
#include <stdlib.h>

#include "chan.h"
#include "runtime.h"

struct chan_in {
	struct shm_ring *ring;
	int src;
};

struct chan_out *chan_outs;

static struct {
	struct chan_in *in;	/* [nin]: pool rings of ours in use, in claim order */
	uint32_t nin;
	uint32_t next;		/* the first pool ring not looked at yet */
	uint32_t first;		/* where chan_drain begins among in[] */
	struct shm_inbox *inbox;	/* ours */
	struct shm_ring *shared;	/* ours */
	uint32_t chunk;
} ch;

int chan_init(void)
{
	ch.inbox = shm_job_inbox(rt.job, rt.rank);
	ch.shared = shm_inbox_shared(ch.inbox);
	chan_outs = calloc((size_t)rt.size, sizeof(*chan_outs));
	ch.in = calloc(rt.job->chan_rings ? rt.job->chan_rings : 1, sizeof(*ch.in));
	if (!chan_outs || !ch.in) {
		chan_fini();
		return -ENOMEM;
	}
	ch.nin = ch.next = 0;
	/* a quarter of a ring per record keeps several chunks in flight:
	 * four spans, and the 8 bytes a record needs free after it
	 * (shm/ring.h) */
	ch.chunk = (uint32_t)(rt.job->chan_cap / 4) - 16;
	if (ch.chunk > shm_ring_max_record(ch.shared))
		ch.chunk = shm_ring_max_record(ch.shared);
	return 0;
}

void chan_fini(void)
{
	free(chan_outs);
	free(ch.in);
	chan_outs = NULL;
	ch.in = NULL;
}

uint32_t chan_chunk(void)
{
	return ch.chunk;
}

/* ---- sending ------------------------------------------------------------- */

/* A pool ring's pages are backed before it is used (the job segment
 * reserves no page of the pools, shm/job.h): with /dev/shm full, the pair
 * uses the shared ring instead of dying of SIGBUS later. */
static int ring_back(struct shm_inbox *ib, uint32_t i)
{
	size_t off = (size_t)((char *)ib - (char *)rt.job) + shm_inbox_ring_off(ib, i);

	/* a job of one rank without shmrun lives in anonymous memory */
	if (rt.ctl_seg.fd < 0)
		return 0;
	return shm_seg_reserve(&rt.ctl_seg, off, shm_ring_size(ib->cap));
}

static struct chan_out *out_connect(int dst)
{
	struct chan_out *o = &chan_outs[dst];
	struct shm_inbox *ib = shm_job_inbox(rt.job, dst);
	int i = shm_inbox_claim(ib);

	if (i >= 0 && ring_back(ib, (uint32_t)i) == 0) {
		o->ring = shm_inbox_publish(ib, (uint32_t)i, (uint32_t)rt.rank);
		return o;
	}
	if (i >= 0)
		shm_inbox_abandon(ib, (uint32_t)i);
	o->ring = shm_inbox_shared(ib);
	o->shared = 1;
	return o;
}

static inline struct chan_out *out_of(int dst)
{
	struct chan_out *o = &chan_outs[dst];

	return __builtin_expect(o->ring != NULL, 1) ? o : out_connect(dst);
}

/* chan_reserve (chan.h) for the first record to dst and for the shared
 * ring. */
void *chan_reserve_slow(int dst, uint32_t len)
{
	struct chan_out *o = out_of(dst);
	struct shm_inbox *ib;
	void *rec;

	if (!o->shared)
		return shm_ring_reserve(o->ring, len);
	/* the shared ring: its lock until the commit */
	ib = shm_job_inbox(rt.job, dst);
	shm_inbox_lock(ib);
	rec = shm_ring_reserve(o->ring, len);
	if (!rec)
		shm_inbox_unlock(ib);
	return rec;
}

void chan_commit_shared(int dst, void *rec)
{
	struct chan_out *o = &chan_outs[dst];

	shm_ring_set_tag(o->ring, (uint32_t)rt.rank + 1);
	shm_ring_commit(o->ring, rec);
	shm_inbox_unlock(shm_job_inbox(rt.job, dst));
}

int chan_fits(int dst, uint32_t len)
{
	struct chan_out *o = out_of(dst);
	struct shm_inbox *ib;
	int fits;

	if (!o->shared)
		return shm_ring_fits(o->ring, len);
	ib = shm_job_inbox(rt.job, dst);
	shm_inbox_lock(ib);
	fits = shm_ring_fits(o->ring, len);
	shm_inbox_unlock(ib);
	return fits;
}

void chan_want_room(int dst)
{
	struct chan_out *o = out_of(dst);

	if (o->shared)
		shm_inbox_want_room(shm_job_inbox(rt.job, dst), (uint32_t)rt.rank);
	else
		shm_ring_set_waiting(o->ring);
}

/* ---- receiving ----------------------------------------------------------- */

/* Pool rings published since the last look. */
static void in_discover(void)
{
	while (ch.next < shm_inbox_claimed(ch.inbox)) {
		int src = shm_inbox_owner(ch.inbox, ch.next);

		if (src == -1)
			return;	/* claimed, not laid out yet: next pass */
		if (src >= 0) {
			ch.in[ch.nin].ring = shm_inbox_ring(ch.inbox, ch.next);
			ch.in[ch.nin].src = src;
			ch.nin++;
		}
		ch.next++;
	}
}

/* Records of ring; src < 0: each record's sender is its tag.  *stop is
 * set when fn asked to end the pass (after that record). */
static int drain(struct shm_ring *ring, int src, chan_record_fn fn, int *stop)
{
	uint32_t len;
	void *rec;
	int got = 0;

	while ((rec = shm_ring_peek(ring, &len)) != NULL) {
		const struct pkt *pkt = rec;
		int from = src >= 0 ? src : (int)shm_ring_peek_tag(ring) - 1;
		int end = fn(from, pkt, pkt + 1, len - (uint32_t)sizeof(*pkt));

		shm_ring_release(ring);
		got++;
		if (end) {
			*stop = 1;
			break;
		}
	}
	return got;
}

/*
 * The pool rings are visited from ch.first on: a pass that fn ended early
 * at ring i makes the next pass begin after it, so that no sender's ring
 * waits behind another's for long.
 */
int chan_drain(chan_record_fn fn)
{
	int got = 0, stop = 0;

	in_discover();
	for (uint32_t k = 0; k < ch.nin && !stop; k++) {
		uint32_t i = (ch.first + k) % ch.nin;
		struct chan_in *in = &ch.in[i];
		int n;

		if (!shm_ring_nonempty(in->ring))
			continue;
		n = drain(in->ring, in->src, fn, &stop);
		got += n;
		if (n && shm_ring_take_waiting(in->ring))
			progress_wake_rank(in->src);
		if (stop)
			ch.first = (i + 1) % ch.nin;
	}
	if (!stop && shm_ring_nonempty(ch.shared)) {
		int n = drain(ch.shared, -1, fn, &stop);

		got += n;
		if (n)
			shm_inbox_wake_waiting(ch.inbox, progress_wake_rank);
	}
	return got;
}

int chan_incoming(void)
{
	if (ch.next < shm_inbox_claimed(ch.inbox) && shm_inbox_owner(ch.inbox, ch.next) != -1)
		return 1;	/* a new sender (or an abandoned ring to pass over) */
	for (uint32_t i = 0; i < ch.nin; i++)
		if (shm_ring_nonempty(ch.in[i].ring))
			return 1;
	return shm_ring_nonempty(ch.shared);
}
