/*
 * The library's current value of every knob of shm/knob.h.  Read once from
 * the environment, by MPI_Init or MPI_T_init_thread (whichever comes
 * first); afterwards changed only through MPI_T_cvar_write, which applies
 * the change (knobs_set).
 */
#ifndef SRC_KNOBS_H
#define SRC_KNOBS_H

#include "../shm/knob.h"

/* Values of SHM_KNOB_OVERSUB and SHM_KNOB_NUMA (the order of their choices). */
enum knobs_oversub { KNOBS_OVERSUB_AUTO, KNOBS_OVERSUB_YES, KNOBS_OVERSUB_NO };
enum knobs_numa {
	KNOBS_NUMA_OWNER, KNOBS_NUMA_INTERLEAVE, KNOBS_NUMA_LOCAL, KNOBS_NUMA_NONE
};

extern long knobs_val[SHM_KNOB_COUNT];

/* Read every knob the ranks read from the environment (once: later calls
 * do nothing).  -EINVAL with *bad set to the first malformed knob. */
int knobs_load(int *bad);

/* Change a writable knob while the library runs and apply the change. */
void knobs_set(enum shm_knob_id k, long v);

/* The spin rounds of blocked waits, from the knobs and from whether the
 * ranks outnumber the CPUs they may use (decided once in MPI_Init, see
 * runtime.c, and kept in knobs_auto_oversub). */
unsigned knobs_spins(void);

/* Whether to treat the ranks as outnumbering their CPUs (SHMPI_OVERSUBSCRIBED,
 * or for auto what MPI_Init found). */
int knobs_oversubscribed(void);
extern int knobs_auto_oversub;

#endif
