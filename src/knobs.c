#include <errno.h>

#include "knobs.h"
#include "runtime.h"

long knobs_val[SHM_KNOB_COUNT];
int knobs_auto_oversub;
static int knobs_loaded;

int knobs_load(int *bad)
{
	long v[SHM_KNOB_COUNT];

	if (knobs_loaded)
		return 0;
	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		if (shm_knob_get((enum shm_knob_id)k, &v[k]) == 0)
			continue;
		if (shm_knobs[k].where & SHM_KNOB_RANKS) {
			*bad = k;
			return -EINVAL;
		}
		/* shmrun's and shmcc's knobs are theirs to check */
		shm_knob_parse((enum shm_knob_id)k, shm_knobs[k].def, &v[k]);
	}
	for (int k = 0; k < SHM_KNOB_COUNT; k++)
		knobs_val[k] = v[k];
	knobs_loaded = 1;
	return 0;
}

int knobs_oversubscribed(void)
{
	return knobs_val[SHM_KNOB_OVERSUB] == KNOBS_OVERSUB_AUTO ? knobs_auto_oversub :
	       knobs_val[SHM_KNOB_OVERSUB] == KNOBS_OVERSUB_YES;
}

unsigned knobs_spins(void)
{
	return (unsigned)knobs_val[knobs_oversubscribed() ? SHM_KNOB_SPINS_OVERSUB :
				   SHM_KNOB_SPINS];
}

void knobs_set(enum shm_knob_id k, long v)
{
	knobs_val[k] = v;
	if (rt.phase == RUNTIME_ACTIVE) {
		rt.spins = knobs_spins();
		rt.yields = (unsigned)knobs_val[SHM_KNOB_YIELDS];
	}
}
