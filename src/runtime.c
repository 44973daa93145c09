/*
 * MPI_Init, MPI_Finalize, MPI_Abort and the thread-level queries: joining the
 * job that shmrun created (or becoming a job of one rank without shmrun),
 * publishing this rank's phase for the launcher, and leaving again.  The
 * library comes up at MPI_Init or at the first MPI_Session_init, and goes
 * down when neither the World model nor any session needs it any more
 * (MPI 4.1, sections 11.2 and 11.3; session.c).
 *
 * shmrun passes SHMPI_RANK, SHMPI_SIZE and SHMPI_JOB; the control segment is
 * found by name from the job id and checked (magic, version, sizes) before
 * anything in it is trusted.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api.h"
#include "attr.h"
#include "coll.h"
#include "comm.h"
#include "errhandler.h"
#include "event.h"
#include "datatype.h"
#include "grequest.h"
#include "group.h"
#include "handle.h"
#include "hw.h"
#include "info.h"
#include "knobs.h"
#include "mem.h"
#include "op.h"
#include "progress.h"
#include "rma_pkt.h"
#include "adversary.h"
#include "part.h"
#include "runtime.h"
#include "serial.h"
#include "state.h"
#include "win_dyn.h"
#include "../shm/membarrier.h"

struct runtime rt = { .gate = 1, .ctl_seg = { .fd = -1 } };

static void runtime_die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* Init cannot go on: there is no communicator yet to raise an error on. */
static void runtime_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "shmpi: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stdout);
	_exit(1);
}

/* Calls nested in this thread's calls that took the slow entry (the
 * outermost one delivers buffered MPI_T events as it ends). */
static __thread unsigned runtime_depth;

void runtime_gate(void)
{
	int gate = rt.phase != RUNTIME_ACTIVE || rt.parked || rt.multi || event_gated;

	/* written only when it changes: under MPI_THREAD_MULTIPLE it stays 1
	 * while other threads read it */
	if (rt.gate != gate)
		rt.gate = gate;
}

int runtime_enter_slow(const char *call)
{
	if (rt.phase != RUNTIME_ACTIVE || rt.parked)
		runtime_not_active(call);
	if (rt.multi)
		serial_lock();
	runtime_depth++;
	return 1;
}

int runtime_hold_slow(void)
{
	if (rt.phase != RUNTIME_ACTIVE)
		return 0;
	if (rt.multi)
		serial_lock();
	runtime_depth++;
	return 1;
}

void runtime_leave_slow(void)
{
	/* relaxed: event_deliver looks under the events' lock */
	if (--runtime_depth == 0 && atomic_load_explicit(&event_pending, memory_order_relaxed))
		event_deliver();
	if (rt.multi)
		serial_unlock();
}

void runtime_not_active(const char *call)
{
	fprintf(stderr, "shmpi: %s called %s\n", call,
		rt.phase == RUNTIME_BEFORE_INIT ? "before MPI_Init" :
		rt.world == RUNTIME_FINALIZED ? "after MPI_Finalize" :
		"after the last MPI_Session_finalize");
	fflush(stdout);
	_exit(1);
}

void runtime_abort_job(int code)
{
	int status = code & 0xff ? code & 0xff : 1;

	if (rt.job) {
		int none = -1;

		/* the launcher reads these after this process has exited */
		if (atomic_compare_exchange_strong_explicit(&rt.job->abort_rank,
							    &none, rt.rank,
							    memory_order_relaxed,
							    memory_order_relaxed))
			atomic_store_explicit(&rt.job->abort_code, code,
					      memory_order_relaxed);
		atomic_store_explicit(&rt.self->phase, SHM_RANK_ABORTED,
				      memory_order_release);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

/* A decimal int from the environment in [lo, hi], or die naming it. */
static int env_int(const char *name, int lo, int hi)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		runtime_die("MPI_Init: %s is not set (start the program with shmrun)", name);
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		runtime_die("MPI_Init: %s=%s is malformed or out of range", name, s);
	return (int)v;
}

static void runtime_join_launched(const char *job)
{
	char name[SHM_NAME_MAX];
	int rc;

	if (!shm_job_id_valid(job))
		runtime_die("MPI_Init: SHMPI_JOB=%s is not a job id", job);
	rt.size = env_int("SHMPI_SIZE", 1, INT_MAX);
	rt.rank = env_int("SHMPI_RANK", 0, rt.size - 1);
	snprintf(rt.job_id, sizeof(rt.job_id), "%s", job);
	if (shm_job_name(name, sizeof(name), geteuid(), job, "ctl") < 0)
		runtime_die("MPI_Init: the job's name is too long");
	rc = shm_seg_open(&rt.ctl_seg, name, SHM_SEG_KEEP_FD);
	if (rc < 0)
		runtime_die("MPI_Init: cannot map the job's control segment %s: %s",
			    name, strerror(-rc));
	rt.job = rt.ctl_seg.base;
	rc = shm_job_check(rt.job, rt.ctl_seg.size, (uint32_t)rt.size);
	if (rc < 0)
		runtime_die("MPI_Init: %s", rc == -EPROTO ?
			    "the control segment is of another shmpi version" :
			    "the control segment does not match SHMPI_SIZE");
}

/* Without shmrun: a job of one rank whose control block lives in anonymous
 * shared memory (there is nobody to share it with, but the code is the same). */
static void runtime_join_singleton(void)
{
	size_t size = shm_job_size(1);
	void *base;

	if (shm_job_id_new(rt.job_id) < 0)
		runtime_die("MPI_Init: cannot draw a job id");
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED)
		runtime_die("MPI_Init: cannot map a control block: %s", strerror(errno));
	rt.ctl_seg.base = base;
	rt.ctl_seg.size = size;
	rt.job = base;
	shm_job_init(rt.job, 1);
	rt.singleton = 1;
	rt.rank = 0;
	rt.size = 1;
}

/* The knobs of the table (shm/knob.h) that the ranks read: a malformed
 * value ends the process naming it. */
static void runtime_knobs(void)
{
	char what[96];
	int bad;

	if (knobs_load(&bad) == 0)
		return;
	shm_knob_describe((enum shm_knob_id)bad, what, sizeof(what));
	runtime_die("MPI_Init: %s=%s is malformed (it takes %s)",
		    shm_knobs[bad].name, shm_knob_text((enum shm_knob_id)bad), what);
}

/* SHMRUN_REPORT_BINDINGS: the report comes from the hwloc module (hw.h). */
static int runtime_report_bindings(void)
{
	const struct hw_ops *hw;
	int rc = hw_get(&hw);

	return rc < 0 ? rc : hw->report(rt.rank);
}

/*
 * Whether the ranks outnumber the CPUs they may use, decided once from the
 * affinity masks: unbound, the job shares this rank's mask; bound by shmrun
 * (SHMPI_BIND_TO names the policy it applied), each rank's mask is one
 * object and the job spreads over shmrun's own mask (shmrun is the parent).
 */
static int runtime_oversubscribed(int nranks)
{
	long bind = knobs_val[SHM_KNOB_BIND_TO], cpus = 0;
	pid_t who = 0;
	cpu_set_t set;

	if (!rt.singleton && bind != SHM_BIND_AUTO && bind != SHM_BIND_NONE)
		who = getppid();
	if (sched_getaffinity(who, sizeof(set), &set) == 0)
		cpus = CPU_COUNT(&set);
	return cpus < 1 || nranks > cpus;
}

/*
 * Asymmetric fences (shm/membarrier.h), with SHMPI_MEMBARRIER=1 where the
 * kernel has them (the default is 0: the system call interrupts every CPU
 * that runs a registered process, other jobs' ranks too, which costs them
 * more than the fences save; README, "Performance"): registered, this rank
 * may ring doorbells without a fence.  Unless it sleeps often, it also lets
 * its ringers skip theirs, and pays at its every sleep instead.  It sleeps often when the ranks
 * outnumber the CPUs, and with a progress thread, which sleeps whenever it
 * has nothing to do.  Decided once, before the thread starts and before
 * this rank first sleeps; a peer that rings it earlier sees the flag clear
 * and fences, which is right with either way of sleeping.
 */
static void runtime_membarrier(void)
{
	rt.membarrier = knobs_val[SHM_KNOB_MEMBARRIER] && shm_membarrier_register() == 0;
	rt.bell_asym = rt.membarrier && !knobs_oversubscribed() && !rt.progress_strong;
	/* relaxed: a ringer that sees it late fences, right either way */
	atomic_store_explicit(&rt.self->bell_asym, (uint32_t)rt.bell_asym,
			      memory_order_relaxed);
}

/*
 * Bring the library up: at MPI_Init, or at the first MPI_Session_init of a
 * process that has not called MPI_Init (MPI 4.1, section 11.3).
 */
/*
 * A process that used MPI through sessions alone and finalized them all
 * (the last MPI_Session_finalize left the library up for another
 * MPI_Session_init: session.c) takes the library down as it exits, with
 * the same wait for the job's other processes.
 */
static void runtime_exit(void)
{
	if (rt.phase != RUNTIME_ACTIVE || !rt.parked)
		return;
	runtime_unpark();
	runtime_check("MPI_Session_finalize");
	runtime_down();
}

void runtime_park(void)
{
	rt.parked = 1;
	runtime_gate();
}

void runtime_unpark(void)
{
	rt.parked = 0;
	runtime_gate();
}

void runtime_up(const char *call, int required, int *argc, char ***argv)
{
	const char *job;

	job = getenv("SHMPI_JOB");
	if (job)
		runtime_join_launched(job);
	else
		runtime_join_singleton();
	rt.self = shm_job_rank(rt.job, rt.rank);
	rt.main_tid = gettid();
	atexit(runtime_exit);
	runtime_knobs();
	if (knobs_val[SHM_KNOB_REPORT_BINDINGS] && runtime_report_bindings() < 0)
		runtime_die("%s: cannot report this rank's binding%s", call, hw_error());
	knobs_auto_oversub = runtime_oversubscribed(rt.size);
	rt.spins = knobs_spins();
	rt.yields = (unsigned)knobs_val[SHM_KNOB_YIELDS];
	rt.progress_strong = knobs_val[SHM_KNOB_PROGRESS] == 1;
	runtime_membarrier();
	/* every level is real: MULTIPLE serializes the calls (serial.h); it
	 * is decided before the progress thread starts, whose engine lock it
	 * becomes */
	rt.thread_level = required;
	rt.multi = required == MPI_THREAD_MULTIPLE;
	errh_init_builtins();
	dt_init_builtins();
	op_init_builtins();
	req_init_builtins();
	group_init_builtins();
	info_init_builtins(argc ? *argc : 0, argv ? *argv : NULL);
	/* before the engine (and strong progress's thread) runs: a peer
	 * may send a partitioned HELLO as soon as its own MPI_Init is done */
	part_init();
	if (comm_init_builtins() < 0 || progress_init() < 0)
		runtime_die("%s: out of memory", call);
	rma_pkt_init();
	adv_init(rt.rank);
	rt.phase = RUNTIME_ACTIVE;
	runtime_gate();
	atomic_store_explicit(&rt.self->pid, getpid(), memory_order_relaxed);
	/* release: the launcher and peers that see the phase see the pid */
	atomic_store_explicit(&rt.self->phase, SHM_RANK_INITIALIZED,
			      memory_order_release);
}

/*
 * The World model (MPI 4.1, section 11.2) beside the sessions: MPI_Init
 * brings the library up unless a session did (or sessions, all finalized,
 * left it up); either way it is initialized once in a process's life.
 * The library, once down, does not come up again (README, "What is
 * implemented").
 */
static int runtime_init(const char *call, int required, int *argc, char ***argv)
{
	if (rt.world != RUNTIME_BEFORE_INIT)
		runtime_die("%s: %s", call, rt.world == RUNTIME_ACTIVE ?
			    "MPI is already initialized" :
			    "MPI cannot be initialized again after MPI_Finalize");
	if (rt.phase == RUNTIME_FINALIZED)
		runtime_die("%s: MPI cannot be initialized again after its last "
			    "session was finalized", call);
	if (rt.phase == RUNTIME_BEFORE_INIT)
		runtime_up(call, required, argc, argv);
	else if (rt.parked)
		runtime_unpark();
	rt.world = RUNTIME_ACTIVE;
	return MPI_SUCCESS;
}

API(int, Init, (int *argc, char ***argv))
{
	return runtime_init("MPI_Init", MPI_THREAD_SINGLE, argc, argv);
}

API(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
{
	int rc;

	if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
		runtime_die("MPI_Init_thread: argument required: %d is not a thread level",
			    required);
	if (!provided)
		runtime_die("MPI_Init_thread: argument provided: is NULL");
	rc = runtime_init("MPI_Init_thread", required, argc, argv);
	*provided = rt.thread_level;
	return rc;
}

API(int, Initialized, (int *flag))
{
	if (!flag)
		return rt.phase == RUNTIME_ACTIVE ?
		       err_comm(MPI_COMM_WORLD, "MPI_Initialized", MPI_ERR_ARG,
				"flag", "is NULL") : MPI_ERR_ARG;
	/* of the World model alone (MPI 4.1, section 11.2): sessions do
	 * not count */
	*flag = rt.world != RUNTIME_BEFORE_INIT;
	return MPI_SUCCESS;
}

API(int, Finalized, (int *flag))
{
	if (!flag)
		return rt.phase == RUNTIME_ACTIVE ?
		       err_comm(MPI_COMM_WORLD, "MPI_Finalized", MPI_ERR_ARG,
				"flag", "is NULL") : MPI_ERR_ARG;
	*flag = rt.world == RUNTIME_FINALIZED;
	return MPI_SUCCESS;
}

static int no_sends_pending(void *unused)
{
	(void)unused;
	return !progress_sends_pending();
}

/*
 * Take the library down: at MPI_Finalize, or at the last MPI_Session_finalize,
 * whichever ends the process's use of MPI (MPI 4.1, section 11.3.1).  It
 * is collective over the job, once in every process.
 */
void runtime_down(void)
{
	/* buffered and freed sends must still reach their receivers */
	if (progress_sends_pending()) {
		state_block(CALL_FINALIZE, WAIT_BSEND_DRAIN, -1, 0, 0);
		progress_wait(no_sends_pending, NULL);
		state_unblock(CALL_FINALIZE);
	}
	/* collective: nobody leaves while a peer may still need it */
	coll_barrier(comm_get(MPI_COMM_WORLD), CALL_FINALIZE);
	/* release: everything this rank did happens before the launcher's
	 * acquire of the phase */
	atomic_store_explicit(&rt.self->phase, SHM_RANK_FINALIZED,
			      memory_order_release);
	win_fini_all();
	progress_fini();
	win_dyn_finalize();
	mem_fini();
	greq_fini();
	req_pool_fini();
	dt_attr_fini();
	comm_fini_builtins();
	group_fini_builtins();
	info_fini_builtins();
	attr_fini();
	err_fini();
	handle_reset_all();
	shm_seg_close(&rt.ctl_seg);
	rt.job = NULL;
	rt.self = NULL;
	rt.phase = RUNTIME_FINALIZED;
	rt.gate = 1;
}

API(int, Finalize, (void))
{
	runtime_check("MPI_Finalize");
	if (rt.world != RUNTIME_ACTIVE)
		runtime_die("MPI_Finalize: %s", rt.world == RUNTIME_BEFORE_INIT ?
			    "MPI_Init was not called" : "MPI_Finalize was called already");
	rt.world = RUNTIME_FINALIZED;
	if (!rt.sessions)
		runtime_down();
	return MPI_SUCCESS;
}

API(int, Abort, (MPI_Comm comm, int errorcode))
{
	runtime_check("MPI_Abort");
	if (!comm_get(comm))
		comm_err_invalid(comm, "MPI_Abort");
	/* every process of the job goes, whatever the communicator */
	runtime_abort_job(errorcode);
}

API(int, Query_thread, (int *provided))
{
	runtime_check("MPI_Query_thread");
	if (!provided)
		return err_comm(MPI_COMM_WORLD, "MPI_Query_thread", MPI_ERR_ARG,
				"provided", "is NULL");
	*provided = rt.thread_level;
	return MPI_SUCCESS;
}

API(int, Is_thread_main, (int *flag))
{
	runtime_check("MPI_Is_thread_main");
	if (!flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Is_thread_main", MPI_ERR_ARG,
				"flag", "is NULL");
	*flag = gettid() == rt.main_tid;
	return MPI_SUCCESS;
}
