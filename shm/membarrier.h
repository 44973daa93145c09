/*
 * Asymmetric fences between processes: Linux membarrier(2), the global
 * expedited kind.  A process that registered may order a store before a
 * later load with a compiler barrier only, as long as whoever it pairs with
 * calls shm_membarrier() between its own store and load: the call runs a
 * full fence on every CPU that runs a registered process at that moment
 * (a descheduled one fenced when it left its CPU).  The common side pays
 * nothing; the rare side pays a system call and inter-processor interrupts.
 */
#ifndef SHM_MEMBARRIER_H
#define SHM_MEMBARRIER_H

/* Register this process; 0, or -errno when the kernel (or a tool such as
 * valgrind) does not offer it: then both sides must fence the usual way. */
int shm_membarrier_register(void);

/* A full fence on every CPU running a registered process; 0 or -errno. */
int shm_membarrier(void);

#endif
