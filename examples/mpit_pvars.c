/*
 * What one RMA run did, as the MPI tool information interface's performance
 * variables tell it (MPI 3.1, section 14.3.7).
 *
 * Every rank starts the variables it finds by name among those below (an
 * MPI that lacks one skips it: the names are shmpi's, see the README), then
 * puts `n` doubles into the next rank's window, one MPI_Put each, adds them
 * to rank 0's with MPI_Accumulate, draws a ticket there with
 * MPI_Fetch_and_op, flushes, and takes turns at an exclusive lock of
 * rank 0 (with a millisecond of work in each turn, so that ranks wait for
 * it).  Rank 0 then prints each variable's value on every rank.
 *
 *   shmrun -n 4 ./mpit_pvars [n]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wanted[] = {
	"rma_put_direct", "rma_put_direct_bytes", "rma_put_private",
	"rma_accumulate_direct", "rma_accumulate_direct_bytes",
	"rma_fetch_and_op_direct", "rma_flushes", "rma_lock_direct",
	"rma_lock_waits", "rma_lock_wait_time", "wait_win_lock",
	"wait_barrier", "futex_sleeps", "futex_wakes", "progress_polls",
};
#define NWANTED ((int)(sizeof(wanted) / sizeof(wanted[0])))

/* One variable found: its handle, and how to read it. */
struct var {
	const char *name;
	MPI_T_pvar_handle handle;
	MPI_Datatype type;
	int count;
};

/* The first variable of that name not bound to an object, or -1. */
static int find(const char *name, MPI_Datatype *type)
{
	int n;

	MPI_T_pvar_get_num(&n);
	for (int i = 0; i < n; i++) {
		char got[256];
		int len = sizeof(got), bind, cls, ro, cont, atomic;
		MPI_T_enum en;

		if (MPI_T_pvar_get_info(i, got, &len, NULL, &cls, type, &en, NULL, NULL, &bind,
					&ro, &cont, &atomic) == MPI_SUCCESS &&
		    strcmp(got, name) == 0 && bind == MPI_T_BIND_NO_OBJECT)
			return i;
	}
	return -1;
}

/* A variable's (first) value as a double, whatever its type. */
static double value(MPI_T_pvar_session s, const struct var *v)
{
	union {
		unsigned u;
		unsigned long ul;
		unsigned long long ull;
		double d;
		int i;
	} *buf = calloc((size_t)v->count, sizeof(*buf) > 8 ? sizeof(*buf) : 8);
	double x = -1;

	if (!buf || MPI_T_pvar_read(s, v->handle, buf) != MPI_SUCCESS)
		x = -1;
	else if (v->type == MPI_DOUBLE)
		x = buf->d;
	else if (v->type == MPI_UNSIGNED_LONG_LONG)
		x = (double)buf->ull;
	else if (v->type == MPI_UNSIGNED_LONG)
		x = (double)buf->ul;
	else if (v->type == MPI_UNSIGNED)
		x = buf->u;
	else if (v->type == MPI_INT)
		x = buf->i;
	free(buf);
	return x;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int provided, rank, size, nvars = 0;
	struct var vars[NWANTED];
	double *mem, one = 1, ticket, *all, *ones;
	MPI_T_pvar_session session;
	MPI_Win win;

	MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_T_pvar_session_create(&session);
	for (int w = 0; w < NWANTED; w++) {
		struct var *v = &vars[nvars];
		int i = find(wanted[w], &v->type);

		if (i < 0 || MPI_T_pvar_handle_alloc(session, i, NULL, &v->handle,
						     &v->count) != MPI_SUCCESS)
			continue;
		v->name = wanted[w];
		nvars++;
	}
	MPI_Win_allocate((MPI_Aint)(n + 1) * (MPI_Aint)sizeof(double), sizeof(double),
			 MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
	ones = malloc(sizeof(double) * (size_t)n);
	for (int i = 0; i < n; i++)
		ones[i] = 1;
	MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES);

	MPI_Win_lock_all(0, win);
	for (int i = 0; i < n; i++)
		MPI_Put(&one, 1, MPI_DOUBLE, (rank + 1) % size, i, 1, MPI_DOUBLE, win);
	MPI_Accumulate(ones, n, MPI_DOUBLE, 0, 0, n, MPI_DOUBLE, MPI_SUM, win);
	MPI_Fetch_and_op(&one, &ticket, MPI_DOUBLE, 0, n, MPI_SUM, win);
	MPI_Win_flush_all(win);
	MPI_Win_unlock_all(win);
	for (int r = 0; r < size; r++) {
		double held = MPI_Wtime();

		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Put(&one, 1, MPI_DOUBLE, 0, n, 1, MPI_DOUBLE, win);
		while (MPI_Wtime() - held < 1e-3)	/* a millisecond of work */
			;
		MPI_Win_unlock(0, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);

	MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES);
	all = malloc(sizeof(double) * (size_t)size);
	if (rank == 0)
		printf("%d puts of 8 bytes to the next rank, an accumulate of %d and a "
		       "fetch_and_op at rank 0, %d turns at rank 0's lock:\n", n, n, size);
	for (int i = 0; i < nvars; i++) {
		double x = value(session, &vars[i]);

		MPI_Gather(&x, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank != 0)
			continue;
		printf("  %-28s", vars[i].name);
		for (int r = 0; r < size; r++)
			printf(vars[i].type == MPI_DOUBLE ? " %9.6f" : " %9.0f", all[r]);
		printf("\n");
	}
	if (rank == 0 && nvars < NWANTED)
		printf("(%d of the %d variables are not in this MPI)\n", NWANTED - nvars,
		       NWANTED);
	free(all);
	free(ones);
	MPI_T_pvar_session_free(&session);
	MPI_Win_free(&win);
	MPI_Finalize();
	MPI_T_finalize();
	return 0;
}
