/*
 * MPI_THREAD_MULTIPLE: the lock that serializes the calls of a process's
 * threads (MPI 3.1, section 12.4).
 *
 * Under MPI_THREAD_MULTIPLE every MPI call holds this lock from its entry
 * check (runtime_check, runtime.h) to its return, so the library's state
 * (handle tables, requests, matching queues, windows' epochs) is touched by
 * one thread at a time, as under MPI_THREAD_SERIALIZED.  The lock is
 * recursive: a call that calls another, a user callback (an error handler,
 * an attribute callback, a user op) that calls MPI, take it again.
 *
 * A call that blocks lets go of the lock entirely while it spins, yields
 * or sleeps (serial_release / serial_reacquire, in the progress engine's
 * wait loop), so a thread waiting for a message never keeps another thread
 * of its process from sending it: whatever one thread waits for, another
 * may bring about.  A thread that completes a request while others sleep in
 * a wait rings this rank's doorbell when it lets go of the lock, which
 * wakes them to look again (serial_note_completion).
 *
 * The progress engine's lock is this lock too under MPI_THREAD_MULTIPLE
 * (progress_lock), so the progress thread of strong progress takes its
 * turn like any other thread.
 *
 * Below MPI_THREAD_MULTIPLE nothing here runs: runtime_check tests one
 * word, as it did before, and the lock is never touched.
 */
#ifndef SRC_SERIAL_H
#define SRC_SERIAL_H

/* Take the lock (again, if this thread holds it). */
void serial_lock(void);

/* Give back one hold; the last one releases the lock. */
void serial_unlock(void);

/* Let go of every hold this thread has (for a wait), returning how many
 * there were; serial_reacquire(n) takes them back. */
unsigned serial_release(void);
void serial_reacquire(unsigned holds);

/* A request completed: threads asleep in a wait look again once the
 * lock is released (the caller holds the lock). */
void serial_note_completion(void);

/* Around a sleep in a wait: let go of the lock as serial_release does,
 * counted as a sleeper so that completions ring the doorbell; then take
 * the holds back. */
unsigned serial_sleep_begin(void);
void serial_sleep_end(unsigned holds);

#endif
