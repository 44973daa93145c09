/*
 * The rank's view of its job: who it is, the control segment it shares with
 * the launcher and its peers, and where it stands in the MPI lifecycle.
 */
#ifndef SRC_RUNTIME_H
#define SRC_RUNTIME_H

#include <sys/types.h>

#include "../shm/job.h"
#include "../shm/seg.h"

enum runtime_phase {
	RUNTIME_BEFORE_INIT = 0,
	RUNTIME_ACTIVE,
	RUNTIME_FINALIZED,
};

struct runtime {
	/* nonzero when calls take the slow entry (runtime_check): before
	 * MPI_Init, after MPI_Finalize, parked, and under MPI_THREAD_MULTIPLE */
	int gate;
	enum runtime_phase phase;	/* of the library itself */
	enum runtime_phase world;	/* of the World model (MPI_Init) */
	int sessions;			/* live sessions (session.c) */
	int parked;			/* up, but every session finalized and no
					 * MPI_Init: only the calls allowed
					 * outside MPI may be made (session.c) */
	int rank;
	int size;
	int thread_level;		/* provided by MPI_Init_thread */
	int multi;			/* MPI_THREAD_MULTIPLE: calls take the
					 * lock of serial.h */
	pid_t main_tid;			/* the thread that initialized MPI */
	char job_id[SHM_JOB_ID_LEN + 1];
	int singleton;			/* started without shmrun */
	struct shm_seg ctl_seg;		/* the control segment (singleton: anonymous) */
	struct shm_job_hdr *job;	/* == ctl_seg.base */
	struct shm_rank_ctl *self;	/* this rank's control block */
	unsigned spins;			/* spin rounds before a futex sleep */
	unsigned yields;		/* then sched_yield rounds (SHMPI_YIELDS) */
	int progress_strong;		/* SHMPI_PROGRESS=strong */
	int membarrier;			/* registered for shm_membarrier() */
	int bell_asym;			/* sleeps on its doorbell the asymmetric
					 * way (shm/wait.h), self->bell_asym */
};

extern struct runtime rt;

void runtime_not_active(const char *call) __attribute__((noreturn));

/* Bring the library up (MPI_Init, or the first session) and take it down
 * (after MPI_Finalize and the last session, whichever comes last); a
 * failure to come up ends the process with its reason. */
void runtime_up(const char *call, int required, int *argc, char ***argv);
void runtime_down(void);

/* Set the gate from what needs the slow entry: the library not active,
 * MPI_THREAD_MULTIPLE, or an MPI_T event handle (event.h), whose buffered
 * events the end of each outermost call delivers. */
void runtime_gate(void);

/* The slow entry: ends the process when the library is not active, else
 * takes the lock of MPI_THREAD_MULTIPLE (if that is the level) and
 * returns 1; runtime_leave_slow undoes it at the end of the call and, at
 * the end of the outermost one, delivers the buffered MPI_T events. */
int runtime_enter_slow(const char *call);

static inline int runtime_enter(const char *call)
{
	return __builtin_expect(rt.gate != 0, 0) ? runtime_enter_slow(call) : 0;
}

void runtime_leave_slow(void);

static inline void runtime_leave(const int *locked)
{
	if (__builtin_expect(*locked, 0))
		runtime_leave_slow();
}

/*
 * Entry check of every MPI call that needs an initialized library: before
 * MPI_Init or after MPI_Finalize it prints the reason and ends the process.
 * Under MPI_THREAD_MULTIPLE it also takes the lock that serializes calls
 * (serial.h) for the rest of the enclosing block, which is the whole call:
 * it declares a variable whose cleanup gives the lock back on every way
 * out of the block, as the Linux kernel's guard() does.  Below
 * MPI_THREAD_MULTIPLE it costs the test of one word, and the cleanup the
 * test of a constant zero.
 */
/* For the few calls allowed outside MPI_Init ... MPI_Finalize: under
 * MPI_THREAD_MULTIPLE while the library is active, the same lock for the
 * rest of the block; otherwise nothing. */
int runtime_hold_slow(void);

static inline int runtime_hold_enter(void)
{
	return __builtin_expect(rt.gate != 0, 0) ? runtime_hold_slow() : 0;
}

#define runtime_hold()                                                      \
	const int runtime_locked __attribute__((cleanup(runtime_leave), unused)) = \
		runtime_hold_enter()

#define runtime_check(call)                                                 \
	const int runtime_locked __attribute__((cleanup(runtime_leave), unused)) = \
		runtime_enter(call)

/*
 * End the whole job from this rank: record (rank, code) in the control
 * segment for the launcher, flush stdio and exit.  Exit status is code's low
 * byte, or 1 when that is 0, so an aborted job never looks successful.
 */
void runtime_abort_job(int code) __attribute__((noreturn));

/* Sessions alone, all finalized: leave the library up, every call but
 * those allowed outside MPI refused, until the next MPI_Session_init or
 * MPI_Init (unpark) or the process's exit, which takes it down. */
void runtime_park(void);
void runtime_unpark(void);

#endif
