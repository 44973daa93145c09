/*
 * Channels as one ring per ordered pair of ranks (shm/ring.h, shm/job.h).
 */
#include <errno.h>

#include "chan.h"
#include "runtime.h"

static struct shm_ring *ring_to(int dst)
{
	return shm_job_ring(rt.job, rt.rank, dst);
}

static struct shm_ring *ring_from(int src)
{
	return shm_job_ring(rt.job, src, rt.rank);
}

int chan_init(void)
{
	return 0;
}

void chan_fini(void)
{
}

uint32_t chan_max_record(void)
{
	return shm_ring_max_record(ring_to(rt.rank));
}

/* A quarter of the ring per record keeps several chunks in flight: four
 * spans, and the 8 bytes a record needs free after it (shm/ring.h). */
uint32_t chan_chunk(void)
{
	uint32_t chunk = (uint32_t)(rt.job->chan_cap / 4) - 16;
	uint32_t max = chan_max_record();

	return chunk < max ? chunk : max;
}

void *chan_reserve(int dst, uint32_t len)
{
	return shm_ring_reserve(ring_to(dst), len);
}

void chan_commit(int dst, void *rec)
{
	shm_ring_commit(ring_to(dst), rec);
}

int chan_fits(int dst, uint32_t len)
{
	return shm_ring_fits(ring_to(dst), len);
}

void chan_want_room(int dst)
{
	shm_ring_set_waiting(ring_to(dst));
}

static int drain(int src, chan_record_fn fn)
{
	struct shm_ring *ring = ring_from(src);
	uint32_t len;
	void *rec;
	int got = 0;

	while ((rec = shm_ring_peek(ring, &len)) != NULL) {
		const struct pkt *pkt = rec;

		fn(src, pkt, pkt + 1, len - (uint32_t)sizeof(*pkt));
		shm_ring_release(ring);
		got++;
	}
	if (got && shm_ring_take_waiting(ring))
		progress_wake_rank(src);
	return got;
}

int chan_drain(chan_record_fn fn)
{
	int got = 0;

	for (int src = 0; src < rt.size; src++)
		if (shm_ring_nonempty(ring_from(src)))
			got += drain(src, fn);
	return got;
}

int chan_incoming(void)
{
	for (int src = 0; src < rt.size; src++)
		if (shm_ring_nonempty(ring_from(src)))
			return 1;
	return 0;
}
