/*
 * The rank-state protocol: what the values a rank publishes in its control
 * block (struct shm_rank_state, shm/job.h) mean, shared by the library,
 * which writes them (src/state.h, src/progress.c), and by shmrun's
 * watchdog, which reads them (tools/shmrun/watch.c).  The names below are
 * the labels of that protocol, nothing more: this header knows no MPI.  The
 * enumerators keep the library's names (CALL_*, WAIT_*), which its call
 * sites use; the version of the control segment covers their values.
 *
 * Who writes what, all with relaxed stores to the rank's own cache line:
 *   - around every blocking wait (state_block, state_unblock): call, then
 *     wait_kind, peer, tag, ctx and since_ns; on leaving, call = CALL_NONE,
 *     last_call and since_ns.  Non-blocking calls publish nothing, but for
 *     those that leave work to the engine (a buffered or nonblocking send
 *     not yet through, a nonblocking collective not yet complete):
 *     last_call and since_ns;
 *   - the progress engine, while the rank waits on one request: wait_kind
 *     and peer again when that request's data comes to depend on another
 *     rank's engine (WAIT_RECV_DATA, WAIT_SEND_DATA);
 *   - the progress engine after each pass: owes, the number of peers it has
 *     records queued for (control packets, headers, data chunks) that only
 *     its own next pass can push;
 *   - once at MPI_Init: strong, SHM_RANK_STRONG when a progress thread
 *     runs the rank's engine (strong progress), SHM_RANK_THREADS when
 *     several threads of the rank may be inside MPI at once
 *     (MPI_THREAD_MULTIPLE): then the other fields say what one of them
 *     does, and nobody can tell from them whether the rank is blocked.
 * The watchdog only reads snapshots and never acts on one look alone.
 *
 * peer is a rank of the job, or -1 (any rank, or a group of ranks); for the
 * PSCW waits it is the first member not yet there, kept up to date while
 * the wait lasts.  holder and blocker, for WAIT_WIN_LOCK only: the job
 * rank that keeps the lock from the waiter, and how (blocker >> 24, enum
 * shm_rank_blocker; its low 24 bits count the ranks that do it that way),
 * from the lock's own records as the waiter last looked at them (it looks
 * again at least every few hundred milliseconds while it waits); -1 and
 * SHM_BLOCK_UNKNOWN when it found nobody.  tag
 * is the message tag (negative: any tag), the number of requests for
 * WAIT_REQUESTS, the lock kind (enum shm_rank_lock) for WAIT_WIN_LOCK, and
 * 0 otherwise.  ctx is the context id of the communicator, or of the
 * window's communicator for the WAIT_WIN_* kinds.
 */
#ifndef SHM_RANKSTATE_H
#define SHM_RANKSTATE_H

#include <stdint.h>

/* The bits of the strong field. */
#define SHM_RANK_STRONG 1u
#define SHM_RANK_THREADS 2u

/* What a blocked call waits for. */
enum wait_kind {
	WAIT_NONE = 0,
	WAIT_RECV,		/* a message: peer, tag, communicator */
	WAIT_RECV_DATA,		/* the rest of a matched message, which only the
				 * sender's (peer's) engine can push */
	WAIT_SEND,		/* a send to complete: peer, tag, communicator */
	WAIT_SEND_DATA,		/* room to push the rest of a matched message,
				 * which only the receiver's engine makes */
	WAIT_REQUESTS,		/* some of several requests (tag: how many) */
	WAIT_PROBE,		/* a message to arrive for a probe */
	WAIT_BSEND_DRAIN,	/* buffered messages to leave (detach, finalize) */
	WAIT_BARRIER,		/* everybody of a communicator */
	WAIT_COLL_DATA,		/* a member's contribution to a collective */
	WAIT_COLL_ACK,		/* members to read this rank's contribution */
	WAIT_WIN_POST,		/* MPI_Win_start: a target's post */
	WAIT_WIN_COMPLETE,	/* MPI_Win_wait: the origins' completes */
	WAIT_WIN_LOCK,		/* a passive-target lock on a target */
	WAIT_RMA_TARGET,	/* RMA on private memory: operations that only
				 * the target's (peer's) engine can apply */
	WAIT_KIND_COUNT
};

/* The blocking calls, by id (0 means outside MPI). */
enum call_id {
	CALL_NONE = 0,
	CALL_SEND, CALL_SSEND, CALL_RSEND, CALL_BSEND, CALL_RECV,
	CALL_SENDRECV, CALL_SENDRECV_REPLACE, CALL_PROBE,
	CALL_WAIT, CALL_WAITALL, CALL_WAITANY, CALL_WAITSOME,
	CALL_BUFFER_DETACH, CALL_FINALIZE, CALL_BARRIER,
	CALL_BCAST, CALL_REDUCE, CALL_ALLREDUCE, CALL_GATHER, CALL_GATHERV,
	CALL_SCATTER, CALL_SCATTERV, CALL_ALLGATHER, CALL_ALLGATHERV,
	CALL_ALLTOALL, CALL_ALLTOALLV, CALL_REDUCE_SCATTER_BLOCK,
	CALL_REDUCE_SCATTER, CALL_SCAN, CALL_EXSCAN, CALL_COMM_CREATE,
	CALL_WIN_CREATE, CALL_WIN_FREE, CALL_WIN_FENCE, CALL_WIN_START,
	CALL_WIN_COMPLETE, CALL_WIN_WAIT, CALL_WIN_LOCK, CALL_WIN_LOCK_ALL,
	CALL_WIN_UNLOCK, CALL_WIN_UNLOCK_ALL, CALL_WIN_FLUSH,
	CALL_ISEND, CALL_ISSEND, CALL_IRSEND, CALL_IBSEND, CALL_START,
	/* the nonblocking collectives (src/coll_nb.c) */
	CALL_IBARRIER, CALL_IBCAST, CALL_IREDUCE, CALL_IALLREDUCE, CALL_IGATHER,
	CALL_ISCATTER, CALL_IALLGATHER, CALL_IALLGATHERV, CALL_IALLTOALL,
	CALL_IALLTOALLV,
	/* more of them, MPI_Alltoallw, the neighbourhood collectives
	 * (src/coll_neighbor.c), MPI_Comm_idup */
	CALL_IGATHERV, CALL_ISCATTERV, CALL_IALLTOALLW, CALL_ALLTOALLW, CALL_ISCAN,
	CALL_IEXSCAN, CALL_IREDUCE_SCATTER, CALL_IREDUCE_SCATTER_BLOCK,
	CALL_NEIGHBOR_ALLGATHER, CALL_NEIGHBOR_ALLGATHERV, CALL_NEIGHBOR_ALLTOALL,
	CALL_NEIGHBOR_ALLTOALLV, CALL_NEIGHBOR_ALLTOALLW, CALL_INEIGHBOR_ALLGATHER,
	CALL_INEIGHBOR_ALLGATHERV, CALL_INEIGHBOR_ALLTOALL, CALL_INEIGHBOR_ALLTOALLV,
	CALL_INEIGHBOR_ALLTOALLW, CALL_COMM_IDUP,
	/* matched probe and receive (src/p2p_mprobe.c) */
	CALL_MPROBE, CALL_MRECV,
	/* a put or get on private memory in one copy (src/rma_pkt_origin.c) */
	CALL_PUT, CALL_GET,
	/* the buffers of buffered sends (MPI 4.1, section 3.6.1: src/bsend.c) */
	CALL_COMM_DETACH_BUFFER, CALL_SESSION_DETACH_BUFFER, CALL_BUFFER_FLUSH,
	CALL_COMM_FLUSH_BUFFER, CALL_SESSION_FLUSH_BUFFER,
	CALL_COUNT
};

/* The tag of a WAIT_WIN_LOCK wait: which lock (src/rma_passive.c). */
enum shm_rank_lock {
	SHM_RANK_LOCK_SHARED = 0,
	SHM_RANK_LOCK_EXCLUSIVE,
	SHM_RANK_LOCK_ALL,		/* a target's shared lock, for lock_all */
	SHM_RANK_LOCK_COUNT
};

/* How a WAIT_WIN_LOCK wait is blocked: the rank named in holder ... */
enum shm_rank_blocker {
	SHM_BLOCK_UNKNOWN = 0,		/* (nobody found) */
	SHM_BLOCK_EXCLUSIVE,		/* holds the lock exclusively */
	SHM_BLOCK_SHARED,		/* is the first of the shared holders */
	SHM_BLOCK_QUEUED,		/* waits for the lock too, ahead of it */
	SHM_BLOCK_AHEAD,		/* (nobody named: count requests are ahead
					 * of it, holding or waiting) */
};

#define SHM_BLOCKER(how, count) ((uint32_t)(how) << 24 | ((count) & 0xffffffu))
#define SHM_BLOCKER_HOW(b) ((uint32_t)(b) >> 24)
#define SHM_BLOCKER_COUNT(b) ((uint32_t)(b) & 0xffffffu)

/* "MPI_Recv": the call's name. */
static inline const char *shm_rank_call_name(uint32_t call)
{
	static const char *const names[] = {
		[CALL_NONE] = "no call",
		[CALL_SEND] = "MPI_Send",
		[CALL_SSEND] = "MPI_Ssend",
		[CALL_RSEND] = "MPI_Rsend",
		[CALL_BSEND] = "MPI_Bsend",
		[CALL_RECV] = "MPI_Recv",
		[CALL_SENDRECV] = "MPI_Sendrecv",
		[CALL_SENDRECV_REPLACE] = "MPI_Sendrecv_replace",
		[CALL_PROBE] = "MPI_Probe",
		[CALL_WAIT] = "MPI_Wait",
		[CALL_WAITALL] = "MPI_Waitall",
		[CALL_WAITANY] = "MPI_Waitany",
		[CALL_WAITSOME] = "MPI_Waitsome",
		[CALL_BUFFER_DETACH] = "MPI_Buffer_detach",
		[CALL_FINALIZE] = "MPI_Finalize",
		[CALL_BARRIER] = "MPI_Barrier",
		[CALL_BCAST] = "MPI_Bcast",
		[CALL_REDUCE] = "MPI_Reduce",
		[CALL_ALLREDUCE] = "MPI_Allreduce",
		[CALL_GATHER] = "MPI_Gather",
		[CALL_GATHERV] = "MPI_Gatherv",
		[CALL_SCATTER] = "MPI_Scatter",
		[CALL_SCATTERV] = "MPI_Scatterv",
		[CALL_ALLGATHER] = "MPI_Allgather",
		[CALL_ALLGATHERV] = "MPI_Allgatherv",
		[CALL_ALLTOALL] = "MPI_Alltoall",
		[CALL_ALLTOALLV] = "MPI_Alltoallv",
		[CALL_REDUCE_SCATTER_BLOCK] = "MPI_Reduce_scatter_block",
		[CALL_REDUCE_SCATTER] = "MPI_Reduce_scatter",
		[CALL_SCAN] = "MPI_Scan",
		[CALL_EXSCAN] = "MPI_Exscan",
		[CALL_COMM_CREATE] = "MPI_Comm_create/dup/split",
		[CALL_WIN_CREATE] = "MPI_Win_create/allocate",
		[CALL_WIN_FREE] = "MPI_Win_free",
		[CALL_WIN_FENCE] = "MPI_Win_fence",
		[CALL_WIN_START] = "MPI_Win_start",
		[CALL_WIN_COMPLETE] = "MPI_Win_complete",
		[CALL_WIN_WAIT] = "MPI_Win_wait",
		[CALL_WIN_LOCK] = "MPI_Win_lock",
		[CALL_WIN_LOCK_ALL] = "MPI_Win_lock_all",
		[CALL_WIN_UNLOCK] = "MPI_Win_unlock",
		[CALL_WIN_UNLOCK_ALL] = "MPI_Win_unlock_all",
		[CALL_WIN_FLUSH] = "MPI_Win_flush",
		[CALL_ISEND] = "MPI_Isend",
		[CALL_ISSEND] = "MPI_Issend",
		[CALL_IRSEND] = "MPI_Irsend",
		[CALL_IBSEND] = "MPI_Ibsend",
		[CALL_START] = "MPI_Start",
		[CALL_IBARRIER] = "MPI_Ibarrier",
		[CALL_IBCAST] = "MPI_Ibcast",
		[CALL_IREDUCE] = "MPI_Ireduce",
		[CALL_IALLREDUCE] = "MPI_Iallreduce",
		[CALL_IGATHER] = "MPI_Igather",
		[CALL_ISCATTER] = "MPI_Iscatter",
		[CALL_IALLGATHER] = "MPI_Iallgather",
		[CALL_IALLGATHERV] = "MPI_Iallgatherv",
		[CALL_IALLTOALL] = "MPI_Ialltoall",
		[CALL_IALLTOALLV] = "MPI_Ialltoallv",
		[CALL_IGATHERV] = "MPI_Igatherv",
		[CALL_ISCATTERV] = "MPI_Iscatterv",
		[CALL_IALLTOALLW] = "MPI_Ialltoallw",
		[CALL_ALLTOALLW] = "MPI_Alltoallw",
		[CALL_ISCAN] = "MPI_Iscan",
		[CALL_IEXSCAN] = "MPI_Iexscan",
		[CALL_IREDUCE_SCATTER] = "MPI_Ireduce_scatter",
		[CALL_IREDUCE_SCATTER_BLOCK] = "MPI_Ireduce_scatter_block",
		[CALL_NEIGHBOR_ALLGATHER] = "MPI_Neighbor_allgather",
		[CALL_NEIGHBOR_ALLGATHERV] = "MPI_Neighbor_allgatherv",
		[CALL_NEIGHBOR_ALLTOALL] = "MPI_Neighbor_alltoall",
		[CALL_NEIGHBOR_ALLTOALLV] = "MPI_Neighbor_alltoallv",
		[CALL_NEIGHBOR_ALLTOALLW] = "MPI_Neighbor_alltoallw",
		[CALL_INEIGHBOR_ALLGATHER] = "MPI_Ineighbor_allgather",
		[CALL_INEIGHBOR_ALLGATHERV] = "MPI_Ineighbor_allgatherv",
		[CALL_INEIGHBOR_ALLTOALL] = "MPI_Ineighbor_alltoall",
		[CALL_INEIGHBOR_ALLTOALLV] = "MPI_Ineighbor_alltoallv",
		[CALL_INEIGHBOR_ALLTOALLW] = "MPI_Ineighbor_alltoallw",
		[CALL_COMM_IDUP] = "MPI_Comm_idup",
		[CALL_MPROBE] = "MPI_Mprobe",
		[CALL_MRECV] = "MPI_Mrecv",
		[CALL_PUT] = "MPI_Put/Rput",
		[CALL_GET] = "MPI_Get/Rget",
		[CALL_COMM_DETACH_BUFFER] = "MPI_Comm_detach_buffer",
		[CALL_SESSION_DETACH_BUFFER] = "MPI_Session_detach_buffer",
		[CALL_BUFFER_FLUSH] = "MPI_Buffer_flush",
		[CALL_COMM_FLUSH_BUFFER] = "MPI_Comm_flush_buffer",
		[CALL_SESSION_FLUSH_BUFFER] = "MPI_Session_flush_buffer",
	};

	_Static_assert(sizeof(names) / sizeof(names[0]) == CALL_COUNT,
		       "a name for every call");
	return call < CALL_COUNT ? names[call] : "an unknown call";
}

/*
 * What a wait kind waits for, and the word that joins it to the peer:
 * "a message" "from" rank 1, "the MPI_Win_post" "of" rank 1.  The word is NULL for
 * kinds whose peer is not one rank.
 */
static inline const char *shm_rank_wait_what(uint32_t kind)
{
	static const char *const what[] = {
		[WAIT_NONE] = "nothing",
		[WAIT_RECV] = "a message",
		[WAIT_RECV_DATA] = "the rest of a matched message",
		[WAIT_SEND] = "a send to complete",
		[WAIT_SEND_DATA] = "room to send the rest of a matched message",
		[WAIT_REQUESTS] = "requests to complete",	/* tag: how many */
		[WAIT_PROBE] = "a message to probe",
		[WAIT_BSEND_DRAIN] = "its buffered messages to leave",
		[WAIT_BARRIER] = "the other members at a barrier",
		[WAIT_COLL_DATA] = "the contribution",
		[WAIT_COLL_ACK] = "its contribution to be read",
		[WAIT_WIN_POST] = "the MPI_Win_post",
		[WAIT_WIN_COMPLETE] = "the MPI_Win_complete",
		[WAIT_WIN_LOCK] = "a lock",
		[WAIT_RMA_TARGET] = "its RMA operations to be applied",
	};

	_Static_assert(sizeof(what) / sizeof(what[0]) == WAIT_KIND_COUNT,
		       "a label for every wait kind");
	return kind < WAIT_KIND_COUNT ? what[kind] : "something unknown";
}

static inline const char *shm_rank_wait_prep(uint32_t kind)
{
	static const char *const prep[WAIT_KIND_COUNT] = {
		[WAIT_RECV] = "from",
		[WAIT_RECV_DATA] = "from",
		[WAIT_SEND] = "to",
		[WAIT_SEND_DATA] = "to",
		[WAIT_PROBE] = "from",
		[WAIT_BSEND_DRAIN] = "for",
		[WAIT_COLL_DATA] = "of",
		[WAIT_WIN_POST] = "of",
		[WAIT_WIN_COMPLETE] = "of",
		[WAIT_WIN_LOCK] = "on",
		[WAIT_RMA_TARGET] = "by",
	};

	return kind < WAIT_KIND_COUNT ? prep[kind] : NULL;
}

/* "an exclusive lock": a WAIT_WIN_LOCK wait's tag. */
static inline const char *shm_rank_lock_name(int32_t lock)
{
	static const char *const names[] = {
		[SHM_RANK_LOCK_SHARED] = "a shared lock",
		[SHM_RANK_LOCK_EXCLUSIVE] = "an exclusive lock",
		[SHM_RANK_LOCK_ALL] = "the shared lock of MPI_Win_lock_all",
	};

	_Static_assert(sizeof(names) / sizeof(names[0]) == SHM_RANK_LOCK_COUNT,
		       "a name for every lock kind");
	return lock >= 0 && lock < SHM_RANK_LOCK_COUNT ? names[lock] : "a lock";
}

#endif
