/*
 * The machinery of collectives (see coll.h) and MPI_Barrier.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "comm.h"
#include "intercomm.h"
#include "progress.h"
#include "runtime.h"
#include "state.h"

struct slot_wait {
	struct shm_coll_slot *slot;
	uint64_t value;
};

static int slot_is_free(void *arg)
{
	struct slot_wait *w = arg;

	return shm_coll_free(w->slot, w->value);
}

static int slot_is_published(void *arg)
{
	struct slot_wait *w = arg;

	return shm_coll_published(w->slot, w->value);
}

/* Wait in the engine for pred, publishing what we wait for. */
static void coll_wait(struct comm *c, enum call_id call, enum wait_kind kind,
		      int member, int (*pred)(void *), void *arg)
{
	if (pred(arg))
		return;
	state_block(call, kind, member < 0 ? -1 : comm_world_rank(c, member), 0, c->ctx);
	progress_wait(pred, arg);
	state_unblock(call);
}

void *coll_slot_acquire(struct comm *c, enum call_id call)
{
	struct slot_wait w = { shm_coll_slot(c->coll, (uint32_t)c->rank), c->coll_acks };

	coll_wait(c, call, WAIT_COLL_ACK, -1, slot_is_free, &w);
	return w.slot->data;
}

void coll_slot_publish(struct comm *c, uint64_t step, int readers)
{
	shm_coll_publish(shm_coll_slot(c->coll, (uint32_t)c->rank), step);
	c->coll_acks += (uint64_t)readers;
	for (int m = 0; m < c->size; m++)
		if (m != c->rank)
			progress_wake_rank(comm_world_rank(c, m));
}

const void *coll_slot_read(struct comm *c, int m, uint64_t step, enum call_id call)
{
	struct slot_wait w = { shm_coll_slot(c->coll, (uint32_t)m), step };

	coll_wait(c, call, WAIT_COLL_DATA, m, slot_is_published, &w);
	return w.slot->data;
}

void coll_slot_release(struct comm *c, int m)
{
	shm_coll_ack(shm_coll_slot(c->coll, (uint32_t)m));
	progress_wake_rank(comm_world_rank(c, m));
}

struct barrier_wait {
	struct comm *c;
	uint32_t gen;	/* central: the generation to see pass; pair: our number */
};

static int barrier_passed(void *arg)
{
	struct barrier_wait *w = arg;

	return shm_barrier_passed(&w->c->coll->barrier, w->gen);
}

static int barrier_paired(void *arg)
{
	struct barrier_wait *w = arg;

	return shm_coll_arrived(w->c->coll, (uint32_t)(1 - w->c->rank), w->gen);
}

/* The barrier of shm/coll.h: a flag exchange for two members, the central
 * counter for more. */
void coll_barrier(struct comm *c, enum call_id call)
{
	struct barrier_wait w = { c, 0 };

	if (c->size == 1)
		return;
	if (c->size == 2) {
		w.gen = ++c->barrier_seq;
		shm_coll_arrive(c->coll, (uint32_t)c->rank, w.gen);
		progress_wake_rank(comm_world_rank(c, 1 - c->rank));
		coll_wait(c, call, WAIT_BARRIER, -1, barrier_paired, &w);
		return;
	}
	if (shm_barrier_arrive(&c->coll->barrier, (uint32_t)c->size, &w.gen)) {
		/* the last to arrive wakes whoever sleeps in the barrier */
		for (int m = 0; m < c->size; m++)
			if (m != c->rank)
				progress_wake_rank(comm_world_rank(c, m));
		return;
	}
	coll_wait(c, call, WAIT_BARRIER, -1, barrier_passed, &w);
}

char *coll_allgather_packed(struct comm *c, enum call_id call, const void *buf,
			    MPI_Count count, const struct datatype *dt, size_t bytes)
{
	size_t chunk = coll_slot_bytes(c), total = bytes * (size_t)c->size;
	uint64_t base = coll_begin(c);
	char *all = malloc(total ? total : 1);

	(void)count;
	if (!all)
		return NULL;
	dt_pack(dt, buf, 0, all + bytes * (size_t)c->rank, bytes);
	for (size_t off = 0, k = 0; off < bytes; off += chunk, k++) {
		size_t n = bytes - off < chunk ? bytes - off : chunk;
		char *p = coll_slot_acquire(c, call);

		memcpy(p, all + bytes * (size_t)c->rank + off, n);
		coll_slot_publish(c, base + k + 1, c->size - 1);
		for (int m = 0; m < c->size; m++) {
			if (m == c->rank)
				continue;
			memcpy(all + bytes * (size_t)m + off,
			       coll_slot_read(c, m, base + k + 1, call), n);
			coll_slot_release(c, m);
		}
	}
	return all;
}

void coll_bcast_bytes(struct comm *c, enum call_id call, void *buf, size_t bytes,
		      int root)
{
	size_t chunk = coll_slot_bytes(c);
	uint64_t base = coll_begin(c);

	for (size_t off = 0, k = 0; off < bytes; off += chunk, k++) {
		size_t n = bytes - off < chunk ? bytes - off : chunk;

		if (c->rank == root) {
			memcpy(coll_slot_acquire(c, call), (char *)buf + off, n);
			coll_slot_publish(c, base + k + 1, c->size - 1);
		} else {
			memcpy((char *)buf + off, coll_slot_read(c, root, base + k + 1, call), n);
			coll_slot_release(c, root);
		}
	}
}

API(int, Barrier, (MPI_Comm comm))
{
	struct comm *c;

	runtime_check("MPI_Barrier");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Barrier");
	if (c->remote)
		inter_barrier(c, CALL_BARRIER);	/* an intercommunicator */
	else
		coll_barrier(c, CALL_BARRIER);
	return MPI_SUCCESS;
}
