/*
 * The progress engine's insides, shared by the files that make it up:
 *
 *   progress.c         the engine: its state and lock, one pass over the
 *                      channels and the out-queues, hooks and handlers
 *   chan.c             the transport: this rank's channels to and from
 *                      the others in the job's shared memory
 *   p2p_proto.c        messages: matching, the eager and rendezvous
 *                      protocols, probes
 *   progress_wait.c    the wait policy: spin, yield, sleep on the doorbell
 *   progress_thread.c  the progress thread of strong progress
 *
 * Nothing outside these files includes this header (progress.h is the
 * engine's interface).
 */
#ifndef SRC_PROGRESS_INT_H
#define SRC_PROGRESS_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "progress.h"
#include "runtime.h"
#include "serial.h"

/* Control packets (and their payload) that found no room and wait for it,
 * per peer. */
struct ctl_pkt {
	struct ctl_pkt *next;
	uint32_t len;		/* payload bytes */
	struct pkt pkt;
	char data[];
};

struct req_list {
	struct request *head, *tail;
};

/* What this rank has to send to one peer, in the order it leaves:
 * control packets, later layers' streams, message headers, message data. */
struct peer_out {
	struct ctl_pkt *ctl_head, *ctl_tail;
	struct req_list queued;	/* sends whose header is not out yet */
	struct req_list data;	/* rendezvous sends pushing data */
	struct progress_stream *st_head, *st_tail;	/* later layers' streams */
	uint32_t need;		/* bytes of the record that found no room */
	int blocked;		/* the channel was full: wait for room */
	int active;		/* on eng.active */
};

struct progress_eng {
	int n, me;
	uint32_t eager_max;	/* largest message sent EAGER */
	uint32_t chunk;		/* DATA payload per record */
	struct peer_out *out;
	int *active;		/* peers with outgoing work */
	int nactive;
	int nsends;		/* sends not yet complete on the out queues */
	struct req_list posted;
	struct req_list receiving;	/* matched rendezvous receives, data to come */
	struct unexp *unexp_head, *unexp_tail;
	progress_handler_t handlers[PKT_NTYPES];
	int strong;		/* a progress thread runs */
	pthread_mutex_t lock;	/* recursive; taken only when strong */
	pthread_t thread;
	atomic_int stop;	/* tells the thread to end */
	struct request *zombies;	/* released by the application thread */
	const void *wait_arg;	/* what the application thread waits on, or NULL */
	int wait_met;		/* the record in hand completed wait_arg */
	uint32_t owes_published;	/* the last eng.nactive stored in the state */
	uint64_t commits;	/* records committed through progress_commit() */
};

extern struct progress_eng eng;
extern __thread int eng_in_thread;

/* progress_lock and progress_unlock, inline for the engine's own files.
 * Under MPI_THREAD_MULTIPLE the engine's lock is the lock of serial.h,
 * which every call holds already (rt.multi is set before the progress
 * thread starts and kept until it has ended). */
static inline void eng_lock(void)
{
	if (rt.multi)
		serial_lock();
	else if (eng.strong)
		pthread_mutex_lock(&eng.lock);
}

static inline void eng_unlock(void)
{
	if (rt.multi)
		serial_unlock();
	else if (eng.strong)
		pthread_mutex_unlock(&eng.lock);
}

/* progress.c */
void peer_activate(int dst);
void peer_block(int dst, uint32_t len);
int push_peer(int dst);
void owes_publish(void);
void send_ctl(int dst, const struct pkt *pkt);
int poll_locked(void);
int engine_has_work(void);
void progress_reap(void);

/* p2p_proto.c */
void req_list_append(struct req_list *l, struct request *r);
void req_list_remove(struct req_list *l, struct request *r);
int proto_push(int dst);		/* headers, then data; records pushed */
int proto_packet(int src, const struct pkt *pkt, const void *payload, uint32_t n);
void proto_wait_begin(const void *arg);
void proto_fini(void);

/* progress_wait.c */
void doorbell_sleep(int (*ready)(void *), void *arg, const struct timespec *nap);

#endif
