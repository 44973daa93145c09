/* The counts of the performance variables (pvar.h). */
#include <time.h>

#include "pvar.h"

struct pvar_counts pvar_c;

uint64_t pvar_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pvar_lock_waited(uint64_t start)
{
	pvar_c.lock_waits++;
	pvar_c.lock_wait_ns += pvar_now_ns() - start;
}
