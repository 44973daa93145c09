/*
 * NUMA placement of window portions and MPI_Alloc_mem memory, checked with
 * the kernel's answer: get_mempolicy(MPOL_F_ADDR) for the policy of each
 * page, move_pages() with no target nodes for the node each page is on.
 *   hw_place INFO WANT [mpit]
 * INFO: the value of the info key shmpi_numa, or "-" for no info; WANT:
 * owner|interleave|local|none, what must come out.  With "mpit" the knob
 * SHMPI_NUMA is first written through MPI_T (to WANT).  Checked for
 * MPI_Win_allocate, MPI_Win_allocate_shared (this rank's portion and the
 * next rank's, through MPI_Win_shared_query) and MPI_Alloc_mem; rank 0
 * prints "ok".
 */
#include <numaif.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testutil.h"

#define PAGES 16

static long page;
static const char *want;

static int my_node(void)
{
	unsigned cpu, node;

	CHECK(syscall(SYS_getcpu, &cpu, &node, NULL) == 0);
	return (int)node;
}

/* Check every page that starts in [base, base + len): its policy (for
 * owner, the node it prefers) and the node it is on. */
static void check_pages(char *base, size_t len, int owner_node, int creator_node)
{
	char *p = (char *)(((uintptr_t)base + (uintptr_t)page - 1) & ~((uintptr_t)page - 1));
	void *pages[PAGES + 1];
	int status[PAGES + 1], n = 0;

	for (; p + page <= base + len && n < PAGES + 1; p += page) {
		unsigned long mask[16] = { 0 };
		int mode = -1;

		CHECK(syscall(SYS_get_mempolicy, &mode, mask, 16 * 8 * sizeof(long), p,
			      MPOL_F_ADDR) == 0);
		if (strcmp(want, "owner") == 0) {
			CHECK(mode == MPOL_PREFERRED);
			CHECK(mask[owner_node / 64] & (1ul << (owner_node % 64)));
		} else if (strcmp(want, "interleave") == 0) {
			CHECK(mode == MPOL_INTERLEAVE);
		} else if (strcmp(want, "local") == 0) {
			CHECK(mode == MPOL_LOCAL);
		} else {
			CHECK(mode == MPOL_DEFAULT);
		}
		(void)__atomic_load_n(p, __ATOMIC_RELAXED);	/* mapped here too */
		pages[n++] = p;
	}
	CHECK(n >= PAGES - 1);
	CHECK(syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL, status, 0) == 0);
	for (int i = 0; i < n; i++) {
		CHECK(status[i] >= 0);
		if (strcmp(want, "owner") == 0)
			CHECK(status[i] == owner_node);
		else if (strcmp(want, "local") == 0)
			CHECK(status[i] == creator_node);
	}
}

int main(int argc, char **argv)
{
	MPI_Info info = MPI_INFO_NULL;
	int size, next, *nodes, me;
	MPI_Aint bytes, qsize;
	MPI_Win win;
	char *base, *q;
	int du;

	tu_init(&argc, &argv);
	CHECK(argc >= 3);
	want = argv[2];
	page = sysconf(_SC_PAGESIZE);
	bytes = PAGES * page;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (tu_rank + 1) % size;
	if (strcmp(argv[1], "-") != 0) {
		MPI_Info_create(&info);
		MPI_Info_set(info, "shmpi_numa", argv[1]);
	}
	if (argc > 3 && strcmp(argv[3], "mpit") == 0) {
		MPI_T_cvar_handle h;
		MPI_T_enum en;
		char item[64];
		int provided, i, count, n, v = -1;

		/* an enumerated knob: the value of the item named `want` */
		CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
		CHECK_MPI(MPI_T_cvar_get_index("SHMPI_NUMA", &i));
		CHECK_MPI(MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL,
					      NULL));
		CHECK_MPI(MPI_T_enum_get_info(en, &n, NULL, NULL));
		for (int k = 0; k < n && v < 0; k++) {
			int len = sizeof(item), value;

			CHECK_MPI(MPI_T_enum_get_item(en, k, &value, item, &len));
			if (strcmp(item, want) == 0)
				v = value;
		}
		CHECK(v >= 0);
		CHECK_MPI(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
		CHECK_MPI(MPI_T_cvar_write(h, &v));
		CHECK_MPI(MPI_T_cvar_handle_free(&h));
		CHECK_MPI(MPI_T_finalize());
	}
	me = my_node();
	nodes = malloc((size_t)size * sizeof(*nodes));
	CHECK(nodes);
	MPI_Allgather(&me, 1, MPI_INT, nodes, 1, MPI_INT, MPI_COMM_WORLD);

	CHECK_MPI(MPI_Win_allocate(bytes, 1, info, MPI_COMM_WORLD, &base, &win));
	memset(base, 1, (size_t)bytes);
	check_pages(base, (size_t)bytes, me, nodes[0]);
	MPI_Win_free(&win);

	CHECK_MPI(MPI_Win_allocate_shared(bytes, 1, info, MPI_COMM_WORLD, &base, &win));
	memset(base, 2, (size_t)bytes);
	MPI_Barrier(MPI_COMM_WORLD);
	check_pages(base, (size_t)bytes, me, nodes[0]);
	CHECK_MPI(MPI_Win_shared_query(win, next, &qsize, &du, &q));
	check_pages(q, (size_t)qsize, nodes[next], nodes[0]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&win);

	CHECK_MPI(MPI_Alloc_mem(bytes, info, &base));
	memset(base, 3, (size_t)bytes);
	check_pages(base, (size_t)bytes, me, me);
	MPI_Free_mem(base);

	if (info != MPI_INFO_NULL)
		MPI_Info_free(&info);
	free(nodes);
	MPI_Finalize();
	if (tu_rank == 0)
		printf("ok\n");
	return 0;
}
