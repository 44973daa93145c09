/*
 * The MPI_T control variables: one per knob, readable before MPI_Init and
 * after it, the writable ones changing the library at once; a knob that
 * takes one of a fixed set of values is an MPI_INT named by an enumeration.
 *   mpit_cvars    rank 0 prints "cvar NAME int|enum|char rw|ro VALUE" for
 *                 every variable (an enumeration's value by its item's
 *                 name); at 2 ranks they then check the effects below
 * Effects: a blocked MPI_Barrier that waits 30 ms for a late peer sleeps on a
 * futex (a voluntary context switch of this thread) when its spin count is
 * 0, and, in some round of three, never sleeps when it is 10^9; which of the
 * two spin counts applies follows SHMPI_OVERSUBSCRIBED.
 *   mpit_cvars preinit   write SHMPI_PROGRESS=strong and
 *                 SHMRUN_REPORT_BINDINGS=1 before MPI_Init, which then runs
 *                 in strong progress (MPI_Comm_get_info says so) and reports
 *                 the binding; rank 0 prints "ok preinit"
 *   mpit_cvars sleeps|spins   only check that rank 0, waiting in a barrier,
 *                 always sleeps or once stays awake, with the knobs as the
 *                 environment set them (how MPI_Init decided)
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "testutil.h"

static int cvar_index(const char *name)
{
	int i;

	CHECK_MPI(MPI_T_cvar_get_index(name, &i));
	return i;
}

static MPI_T_cvar_handle cvar_handle(const char *name, int *count)
{
	MPI_T_cvar_handle h;

	CHECK_MPI(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, count));
	return h;
}

static void write_int(const char *name, int v)
{
	int count, got;
	MPI_T_cvar_handle h = cvar_handle(name, &count);

	CHECK(count == 1);
	CHECK_MPI(MPI_T_cvar_write(h, &v));
	CHECK_MPI(MPI_T_cvar_read(h, &got));
	CHECK(got == v);
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	CHECK(h == MPI_T_CVAR_HANDLE_NULL);
}

static MPI_T_enum cvar_enum(const char *name)
{
	MPI_Datatype dt;
	MPI_T_enum en;

	CHECK_MPI(MPI_T_cvar_get_info(cvar_index(name), NULL, NULL, NULL, &dt, &en, NULL,
				      NULL, NULL, NULL));
	CHECK(dt == MPI_INT && en != MPI_T_ENUM_NULL);
	return en;
}

/* The value of the item of en called item (-1: none). */
static int enum_value(MPI_T_enum en, const char *item)
{
	char name[64];
	int n, value;

	CHECK_MPI(MPI_T_enum_get_info(en, &n, NULL, NULL));
	for (int i = 0; i < n; i++) {
		int len = sizeof(name);

		CHECK_MPI(MPI_T_enum_get_item(en, i, &value, name, &len));
		if (strcmp(name, item) == 0)
			return value;
	}
	return -1;
}

/* The name of en's item of that value. */
static void enum_name(MPI_T_enum en, int value, char *out, int len)
{
	int n, v;

	CHECK_MPI(MPI_T_enum_get_info(en, &n, NULL, NULL));
	for (int i = 0; i < n; i++) {
		int l = len;

		CHECK_MPI(MPI_T_enum_get_item(en, i, &v, out, &l));
		if (v == value)
			return;
	}
	CHECK(!"a value no item names");
}

/* Write the enumerated knob `name` to its item `item`. */
static void write_enum(const char *name, const char *item)
{
	int v = enum_value(cvar_enum(name), item);

	CHECK(v >= 0);
	write_int(name, v);
}

/* Every variable: its info, index and value. */
static void list_all(void)
{
	int n;

	CHECK_MPI(MPI_T_cvar_get_num(&n));
	for (int i = 0; i < n; i++) {
		char name[64], desc[512], value[1024];
		int name_len = 0, desc_len = sizeof(desc), verb, bind, scope, count;
		MPI_Datatype dt;
		MPI_T_enum en;
		MPI_T_cvar_handle h;

		/* no buffer: the length needed, NUL included */
		CHECK_MPI(MPI_T_cvar_get_info(i, NULL, &name_len, NULL, NULL, NULL, NULL,
					      NULL, NULL, NULL));
		CHECK(name_len > 1 && name_len <= (int)sizeof(name));
		CHECK_MPI(MPI_T_cvar_get_info(i, name, &name_len, &verb, &dt, &en, desc,
					      &desc_len, &bind, &scope));
		CHECK((int)strlen(name) + 1 == name_len && strlen(desc) > 10);
		CHECK(bind == MPI_T_BIND_NO_OBJECT);
		CHECK(en == MPI_T_ENUM_NULL || dt == MPI_INT);
		CHECK(scope == MPI_T_SCOPE_LOCAL || scope == MPI_T_SCOPE_READONLY);
		CHECK(cvar_index(name) == i);
		CHECK_MPI(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
		CHECK_MPI(MPI_T_cvar_read(h, value));
		if (en != MPI_T_ENUM_NULL)
			enum_name(en, *(int *)(void *)value, value, (int)sizeof(value));
		else if (dt == MPI_INT)
			snprintf(value, sizeof(value), "%d", *(int *)(void *)value);
		else
			CHECK(dt == MPI_CHAR && count > 1);
		if (tu_rank <= 0)
			printf("cvar %s %s %s %s\n", name,
			       en != MPI_T_ENUM_NULL ? "enum" : dt == MPI_INT ? "int" : "char",
			       scope == MPI_T_SCOPE_LOCAL ? "rw" : "ro", value);
		CHECK_MPI(MPI_T_cvar_handle_free(&h));
	}
}

static void errors(void)
{
	MPI_T_cvar_handle h, stale;
	MPI_T_enum en;
	char name[64];
	int count, i, v, len = sizeof(name);

	CHECK(MPI_T_cvar_get_index("SHMPI_NO_SUCH", &i) == MPI_T_ERR_INVALID_NAME);
	CHECK(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
				  NULL) == MPI_T_ERR_INVALID_INDEX);
	CHECK(MPI_T_cvar_handle_alloc(1 << 20, NULL, &h, &count) == MPI_T_ERR_INVALID_INDEX);
	/* MPI_Init has used it: too late */
	h = cvar_handle("SHMPI_PROGRESS", &count);
	v = enum_value(cvar_enum("SHMPI_PROGRESS"), "strong");
	CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_CVAR_SET_NOT_NOW);
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	/* shmrun laid the job out with it */
	h = cvar_handle("SHMPI_CHANNEL_BYTES", &count);
	v = enum_value(cvar_enum("SHMPI_CHANNEL_BYTES"), "8k");
	CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_CVAR_SET_NEVER);
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	v = -1;
	h = cvar_handle("SHMPI_SPINS", &count);
	CHECK_MPI(MPI_T_cvar_read(h, &i));
	CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_INVALID);
	CHECK_MPI(MPI_T_cvar_read(h, &v));
	CHECK(v == i);
	stale = h;
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	CHECK(MPI_T_cvar_read(stale, &v) == MPI_T_ERR_INVALID_HANDLE);
	/* an enumerated knob takes the values of its items only */
	h = cvar_handle("SHMPI_NUMA", &count);
	CHECK_MPI(MPI_T_cvar_read(h, &i));
	for (v = -1; v <= 4; v += 5)
		CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_INVALID);
	CHECK_MPI(MPI_T_cvar_read(h, &v));
	CHECK(v == i);
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	/* the enumerations: a handle of ours, items in range */
	en = cvar_enum("SHMPI_NUMA");
	CHECK_MPI(MPI_T_enum_get_info(en, &count, name, &len));
	CHECK(count == 4 && strcmp(name, "SHMPI_NUMA") == 0 && len == 11);
	CHECK(enum_value(en, "interleave") == 1);
	CHECK(MPI_T_enum_get_item(en, 4, &v, NULL, NULL) == MPI_T_ERR_INVALID_ITEM);
	CHECK(MPI_T_enum_get_item(en, -1, &v, NULL, NULL) == MPI_T_ERR_INVALID_ITEM);
	CHECK(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &count, NULL, NULL) ==
	      MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_enum_get_item((MPI_T_enum)&en, 0, &v, NULL, NULL) ==
	      MPI_T_ERR_INVALID_HANDLE);
}

static long voluntary_switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

/* Rank 0 waits in a barrier that rank 1 reaches 30 ms late: how many times
 * did rank 0's thread give up the CPU? */
static long barrier_sleeps(void)
{
	long before;

	MPI_Barrier(MPI_COMM_WORLD);
	if (tu_rank != 0) {
		tu_sleep_ms(30);
		MPI_Barrier(MPI_COMM_WORLD);
		return 0;
	}
	before = voluntary_switches();
	MPI_Barrier(MPI_COMM_WORLD);
	return voluntary_switches() - before;
}

/* Whether rank 0 slept in every round (1) or stayed awake in some (0). */
static int always_sleeps(void)
{
	int all = 1;

	for (int round = 0; round < 3; round++)
		all &= barrier_sleeps() > 0;
	MPI_Bcast(&all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return all;
}

static void effects(void)
{
	write_int("SHMPI_SPINS", 0);
	write_enum("SHMPI_OVERSUBSCRIBED", "no");
	CHECK(always_sleeps());
	write_int("SHMPI_SPINS", 1000000000);
	CHECK(!always_sleeps());
	write_int("SHMPI_SPINS_OVERSUBSCRIBED", 0);
	write_enum("SHMPI_OVERSUBSCRIBED", "yes");
	CHECK(always_sleeps());
	write_enum("SHMPI_OVERSUBSCRIBED", "no");
	CHECK(!always_sleeps());
	write_enum("SHMPI_OVERSUBSCRIBED", "auto");
	write_int("SHMPI_SPINS", 4000);
}

/* Whether MPI_COMM_WORLD's info names this progress mode. */
static int progress_mode_is(const char *mode)
{
	char value[64];
	MPI_Info info;
	int flag;

	CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &info));
	CHECK_MPI(MPI_Info_get(info, "shmpi_progress", sizeof(value) - 1, value, &flag));
	MPI_Info_free(&info);
	return flag && strcmp(value, mode) == 0;
}

int main(int argc, char **argv)
{
	int provided, n, count;
	MPI_T_cvar_handle h;

	if (argc > 1 && strcmp(argv[1], "preinit") == 0) {
		CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
		write_enum("SHMPI_PROGRESS", "strong");
		write_int("SHMRUN_REPORT_BINDINGS", 1);
		tu_init(&argc, &argv);
		CHECK(progress_mode_is("strong"));
		MPI_Finalize();
		CHECK_MPI(MPI_T_finalize());
		if (tu_rank == 0)
			printf("ok preinit\n");
		return 0;
	}
	if (argc > 1) {
		tu_init(&argc, &argv);
		CHECK(always_sleeps() == (strcmp(argv[1], "sleeps") == 0));
		MPI_Finalize();
		return 0;
	}

	/* before MPI_T_init_thread nothing works; before MPI_Init everything */
	CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
	CHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
	CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
	CHECK(provided == MPI_THREAD_SINGLE);
	CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));	/* nests */
	write_int("SHMPI_SPINS_OVERSUBSCRIBED", 7);	/* kept by MPI_Init */
	h = cvar_handle("SHMPI_SPINS_OVERSUBSCRIBED", &count);
	tu_init(&argc, &argv);
	CHECK_MPI(MPI_T_cvar_read(h, &n));
	CHECK(n == 7);
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
	list_all();
	errors();
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (n == 2)
		effects();
	MPI_Finalize();
	/* and after MPI_Finalize */
	CHECK_MPI(MPI_T_cvar_get_num(&n));
	CHECK_MPI(MPI_T_finalize());
	CHECK_MPI(MPI_T_cvar_get_num(&n));
	CHECK_MPI(MPI_T_finalize());
	CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
	return 0;
}
