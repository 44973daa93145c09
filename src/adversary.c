/* The adversarial mode's random sequences (see adversary.h). */
#include "adversary.h"
#include "knobs.h"

uint64_t adv_seed;
static uint64_t adv_state[2];	/* the application thread's, the engine's */

void adv_init(int rank)
{
	adv_seed = (uint64_t)knobs_val[SHM_KNOB_ADVERSARIAL];
	/* distinct, nonzero states per rank and sequence */
	for (int i = 0; i < 2; i++)
		adv_state[i] = (adv_seed ^ ((uint64_t)rank << 32) ^ (uint64_t)i << 16) *
			       0x9e3779b97f4a7c15ull | 1;
}

uint64_t adv_below(uint64_t n, int engine)
{
	uint64_t *x = &adv_state[engine != 0];

	/* xorshift64* */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return (*x * 0x2545f4914f6cdd1dull) % n;
}
