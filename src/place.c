/*
 * NUMA placement with libnuma.  A segment's pages already exist when a rank
 * maps it (shm_seg_create reserves them with posix_fallocate, on the node
 * of the rank that created it), so placing a portion is:
 *   1. fault the portion's pages into this rank's page tables (the owner's
 *      first touch; nobody else has touched them yet, creation is not over);
 *   2. mbind the range with the policy and MPOL_MF_MOVE: the kernel moves
 *      the pages only this process maps to where the policy wants them, and
 *      keeps the policy on the shared object for pages allocated later.
 * The policy then shows in get_mempolicy(MPOL_F_ADDR) from any rank, and the
 * pages' node in move_pages() -- which is how the tests check it.
 *
 * A page belongs to the portion its first byte lies in, so neighbouring
 * portions that share a page never both place it.
 */
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "info.h"
#include "knobs.h"
#include "place.h"

/* The NUMA node of the CPU this rank runs on now: the node of all its CPUs
 * when it is bound within one node (shmrun --bind-to core, numa, ...). */
static int place_my_node(void)
{
	int cpu = sched_getcpu(), node = cpu < 0 ? -1 : numa_node_of_cpu(cpu);

	return node < 0 ? 0 : node;
}

/* The owner's first touch: map every page of [p, p + len) here. */
static void place_touch(char *p, size_t len, size_t page)
{
	if (madvise(p, len, MADV_POPULATE_READ) == 0)
		return;
	/* kernels before 5.14: a read of each page does the same */
	for (size_t off = 0; off < len; off += page)
		(void)__atomic_load_n(p + off, __ATOMIC_RELAXED);
}

void place_portion(void *base, size_t len, const struct info *info)
{
	const char *v = info ? info_lookup(info, "shmpi_numa") : NULL;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)base + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)base + len + page - 1) & ~(page - 1);
	long policy = knobs_val[SHM_KNOB_NUMA];
	struct bitmask *nodes;

	/* an unknown value is a hint we ignore, like any MPI info hint */
	if (v)
		shm_knob_parse(SHM_KNOB_NUMA, v, &policy);
	if (!base || end <= start || policy == KNOBS_NUMA_NONE || numa_available() < 0)
		return;
	if (policy == KNOBS_NUMA_LOCAL) {
		/* where the creator's posix_fallocate put them */
		mbind((void *)start, end - start, MPOL_LOCAL, NULL, 0, 0);
		return;
	}
	place_touch((char *)start, end - start, page);
	if (policy == KNOBS_NUMA_INTERLEAVE) {
		mbind((void *)start, end - start, MPOL_INTERLEAVE, numa_all_nodes_ptr->maskp,
		      numa_all_nodes_ptr->size + 1, MPOL_MF_MOVE);
		return;
	}
	nodes = numa_allocate_nodemask();
	if (!nodes)
		return;
	numa_bitmask_setbit(nodes, (unsigned)place_my_node());
	mbind((void *)start, end - start, MPOL_PREFERRED, nodes->maskp, nodes->size + 1,
	      MPOL_MF_MOVE);
	numa_free_nodemask(nodes);
}
