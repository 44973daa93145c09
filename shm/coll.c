#include <errno.h>
#include <string.h>

#include "coll.h"

#define COLL_SLOT_MAX (64u << 10)
#define COLL_SLOT_MIN (4u << 10)
#define COLL_BUDGET (4u << 20)	/* all slots of one area */

uint32_t shm_coll_slot_bytes(uint32_t nmembers)
{
	uint32_t bytes = COLL_SLOT_MAX;

	while (bytes > COLL_SLOT_MIN && (uint64_t)bytes * nmembers > COLL_BUDGET)
		bytes /= 2;
	/* scatter and alltoall give each member a region of at least 64 bytes */
	while ((uint64_t)bytes < 64ull * nmembers)
		bytes *= 2;
	return bytes;
}

size_t shm_coll_size(uint32_t nmembers)
{
	return sizeof(struct shm_coll) + (size_t)nmembers *
	       (sizeof(struct shm_coll_slot) + shm_coll_slot_bytes(nmembers));
}

void shm_coll_init(struct shm_coll *c, uint32_t nmembers)
{
	c->magic = SHM_COLL_MAGIC;
	c->nmembers = nmembers;
	c->slot_bytes = shm_coll_slot_bytes(nmembers);
	shm_barrier_init(&c->barrier);
}

int shm_coll_check(const struct shm_coll *c, size_t mapped, uint32_t nmembers)
{
	if (mapped < sizeof(*c) || c->magic != SHM_COLL_MAGIC)
		return -EPROTO;
	if (c->nmembers != nmembers || c->slot_bytes != shm_coll_slot_bytes(nmembers) ||
	    mapped < shm_coll_size(nmembers))
		return -EINVAL;
	return 0;
}
