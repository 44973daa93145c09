/*
 * NUMA placement, with the kernel's memory-policy calls themselves (no
 * libnuma: loading it cost every rank time at start for a handful of system
 * calls).  A segment's pages already exist when a rank
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
#include <errno.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "info.h"
#include "knobs.h"
#include "place.h"

/* Node masks as the kernel takes them: room for every node it can have
 * (MAX_NUMNODES is at most 1 << 10); the count passed is one more than the
 * bits, as the kernel reads one bit fewer than it is told. */
#define PLACE_NODES 1024
#define PLACE_MAXNODE (PLACE_NODES + 1)
#define PLACE_LONG_BITS (sizeof(unsigned long) * CHAR_BIT)

struct place_nodes {
	unsigned long bits[PLACE_NODES / PLACE_LONG_BITS];
};

static long place_mbind(uintptr_t start, uintptr_t len, int mode,
			const struct place_nodes *nodes, unsigned flags)
{
	return syscall(SYS_mbind, start, len, mode, nodes ? nodes->bits : NULL,
		       nodes ? PLACE_MAXNODE : 0, flags);
}

/* The nodes this process may allocate on (its cpuset's mems); 0 or -errno.
 * ENOSYS: a kernel without NUMA. */
static int place_allowed(struct place_nodes *nodes)
{
	if (syscall(SYS_get_mempolicy, NULL, nodes->bits, PLACE_MAXNODE, NULL,
		    MPOL_F_MEMS_ALLOWED) < 0)
		return -errno;
	return 0;
}

/* The NUMA node of the CPU this rank runs on now: the node of all its CPUs
 * when it is bound within one node (shmrun --bind-to core, numa, ...). */
static unsigned place_my_node(void)
{
	unsigned cpu, node;

	return getcpu(&cpu, &node) < 0 || node >= PLACE_NODES ? 0 : node;
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
	struct place_nodes nodes = { 0 };
	unsigned node;

	/* an unknown value is a hint we ignore, like any MPI info hint */
	if (v)
		shm_knob_parse(SHM_KNOB_NUMA, v, &policy);
	/* the allowed nodes, for interleave; and a failure says no NUMA */
	if (!base || end <= start || policy == KNOBS_NUMA_NONE || place_allowed(&nodes) < 0)
		return;
	if (policy == KNOBS_NUMA_LOCAL) {
		/* where the creator's posix_fallocate put them */
		place_mbind(start, end - start, MPOL_LOCAL, NULL, 0);
		return;
	}
	place_touch((char *)start, end - start, page);
	if (policy == KNOBS_NUMA_INTERLEAVE) {
		place_mbind(start, end - start, MPOL_INTERLEAVE, &nodes, MPOL_MF_MOVE);
		return;
	}
	node = place_my_node();
	nodes = (struct place_nodes){ 0 };
	nodes.bits[node / PLACE_LONG_BITS] = 1ul << (node % PLACE_LONG_BITS);
	place_mbind(start, end - start, MPOL_PREFERRED, &nodes, MPOL_MF_MOVE);
}
