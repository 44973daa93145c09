/*
 * Handle and status conversions between C and Fortran (MPI-3.1 sections
 * 17.2.4 and 17.2.5): every predefined handle and null handle of each kind,
 * objects the program makes, requests used through their converted handle,
 * and statuses of real messages (a derived datatype, a partial element, a
 * cancelled receive, a count above 2^32 bytes) that must answer
 * MPI_Get_count, MPI_Get_elements and MPI_Test_cancelled the same after
 * both round trips; then the error classes.
 *   convert [all|handles|statuses|errors]
 */
#include "testutil.h"

/* The Fortran 2008 status in C comes with a library's Fortran 2008
 * bindings, which other MPI libraries may be built without. */
#ifdef SHMPI
#define HAVE_F08_STATUS 1
#else
#define HAVE_F08_STATUS 0
#endif

static int rank, size;

/* ---- handles --------------------------------------------------------------- */

#define ROUND_TRIP(Kind, h) CHECK(MPI_##Kind##_f2c(MPI_##Kind##_c2f(h)) == (h))

static void predefined(void)
{
	static const MPI_Datatype types[] = {
		MPI_DATATYPE_NULL, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE,
		MPI_WCHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG,
		MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG,
		MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T,
		MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
		MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_COUNT, MPI_OFFSET,
		MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
		MPI_C_LONG_DOUBLE_COMPLEX, MPI_PACKED, MPI_FLOAT_INT, MPI_DOUBLE_INT,
		MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
	};
	static const MPI_Op ops[] = {
		MPI_OP_NULL, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
		MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC,
		MPI_REPLACE, MPI_NO_OP,
	};

	ROUND_TRIP(Comm, MPI_COMM_WORLD);
	ROUND_TRIP(Comm, MPI_COMM_SELF);
	ROUND_TRIP(Comm, MPI_COMM_NULL);
	ROUND_TRIP(Group, MPI_GROUP_EMPTY);
	ROUND_TRIP(Group, MPI_GROUP_NULL);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		ROUND_TRIP(Type, types[i]);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		ROUND_TRIP(Op, ops[i]);
	ROUND_TRIP(Errhandler, MPI_ERRORS_ARE_FATAL);
	ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
	ROUND_TRIP(Errhandler, MPI_ERRHANDLER_NULL);
	ROUND_TRIP(Info, MPI_INFO_ENV);
	ROUND_TRIP(Info, MPI_INFO_NULL);
	ROUND_TRIP(Request, MPI_REQUEST_NULL);
	ROUND_TRIP(Win, MPI_WIN_NULL);
	ROUND_TRIP(Message, MPI_MESSAGE_NULL);
	ROUND_TRIP(Message, MPI_MESSAGE_NO_PROC);
}

static void eh_fn(MPI_Comm *comm, int *code, ...)
{
	(void)comm, (void)code;
}

static void op_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	(void)in, (void)inout, (void)len, (void)dt;
}

/* Objects the program makes convert both ways and still work through the
 * converted handle; once freed, their Fortran handle names nothing. */
static void made(void)
{
	int peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;
	MPI_Comm dup, c;
	MPI_Group g, world;
	MPI_Datatype vec, t;
	MPI_Op op;
	MPI_Info info;
	MPI_Errhandler eh;
	MPI_Win win;
	MPI_Request req;
	MPI_Fint f[8];
	int me, sz, n, buf[6], got[6];
	void *base;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	f[0] = MPI_Comm_c2f(dup);
	c = MPI_Comm_f2c(f[0]);
	CHECK(c == dup);
	CHECK_MPI(MPI_Comm_rank(c, &me));
	CHECK(me == rank);

	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_incl(world, 1, &rank, &g));
	f[1] = MPI_Group_c2f(g);
	CHECK(MPI_Group_f2c(f[1]) == g);
	CHECK_MPI(MPI_Group_size(MPI_Group_f2c(f[1]), &sz));
	CHECK(sz == 1);

	/* a vector of 3 blocks of 2 ints, stride 3: 6 of 9 ints */
	CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	f[2] = MPI_Type_c2f(vec);
	t = MPI_Type_f2c(f[2]);
	CHECK(t == vec);
	CHECK_MPI(MPI_Type_size(t, &n));
	CHECK(n == 6 * (int)sizeof(int));

	CHECK_MPI(MPI_Op_create(op_fn, 0, &op));
	f[3] = MPI_Op_c2f(op);
	CHECK(MPI_Op_f2c(f[3]) == op);

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "key", "value"));
	f[4] = MPI_Info_c2f(info);
	CHECK(MPI_Info_f2c(f[4]) == info);
	CHECK_MPI(MPI_Info_get_nkeys(MPI_Info_f2c(f[4]), &n));
	CHECK(n == 1);

	CHECK_MPI(MPI_Comm_create_errhandler(eh_fn, &eh));
	f[5] = MPI_Errhandler_c2f(eh);
	CHECK(MPI_Errhandler_f2c(f[5]) == eh);

	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base, &win));
	f[6] = MPI_Win_c2f(win);
	CHECK(MPI_Win_f2c(f[6]) == win);
	CHECK_MPI(MPI_Win_fence(0, MPI_Win_f2c(f[6])));
	CHECK_MPI(MPI_Win_fence(0, win));

	/* a request waited for through its converted handle */
	for (int i = 0; i < 6; i++)
		buf[i] = rank * 10 + i;
	CHECK_MPI(MPI_Irecv(got, 6, MPI_INT, peer_from, 5, dup, &req));
	f[7] = MPI_Request_c2f(req);
	CHECK_MPI(MPI_Send(buf, 6, MPI_INT, peer_to, 5, dup));
	req = MPI_Request_f2c(f[7]);
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(req == MPI_REQUEST_NULL);
	for (int i = 0; i < 6; i++)
		CHECK(got[i] == peer_from * 10 + i);

	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Type_free(&vec));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Comm_free(&dup));
#ifdef SHMPI
	/* what names no object converts to the null handle of its kind */
	CHECK(MPI_Comm_f2c(f[0]) == MPI_COMM_NULL);
	CHECK(MPI_Group_f2c(f[1]) == MPI_GROUP_NULL);
	CHECK(MPI_Type_f2c(f[2]) == MPI_DATATYPE_NULL);
	CHECK(MPI_Op_f2c(f[3]) == MPI_OP_NULL);
	CHECK(MPI_Info_f2c(f[4]) == MPI_INFO_NULL);
	CHECK(MPI_Errhandler_f2c(f[5]) == MPI_ERRHANDLER_NULL);
	CHECK(MPI_Win_f2c(f[6]) == MPI_WIN_NULL);
	CHECK(MPI_Request_f2c(f[7]) == MPI_REQUEST_NULL);
	CHECK(MPI_Message_f2c(f[7]) == MPI_MESSAGE_NULL);
	CHECK(MPI_Comm_f2c(12345) == MPI_COMM_NULL);
	CHECK(MPI_Comm_f2c(-1) == MPI_COMM_NULL);
	CHECK(MPI_Type_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_DATATYPE_NULL);
	CHECK(MPI_Comm_f2c(MPI_Type_c2f(MPI_INT)) == MPI_COMM_NULL);
#endif
}

static void test_handles(void)
{
	predefined();
	made();
}

/* ---- statuses -------------------------------------------------------------- */

/* Large enough for the Fortran status of any MPI library. */
#define F_STATUS_MAX 16

/* Whether two statuses answer every query alike, for type dt. */
static void same_status(const MPI_Status *a, const MPI_Status *b, MPI_Datatype dt)
{
	int ca, cb, fa, fb;

	CHECK(a->MPI_SOURCE == b->MPI_SOURCE);
	CHECK(a->MPI_TAG == b->MPI_TAG);
	CHECK(a->MPI_ERROR == b->MPI_ERROR);
	CHECK_MPI(MPI_Get_count(a, dt, &ca));
	CHECK_MPI(MPI_Get_count(b, dt, &cb));
	CHECK(ca == cb);
	CHECK_MPI(MPI_Get_elements(a, dt, &ca));
	CHECK_MPI(MPI_Get_elements(b, dt, &cb));
	CHECK(ca == cb);
	CHECK_MPI(MPI_Test_cancelled(a, &fa));
	CHECK_MPI(MPI_Test_cancelled(b, &fb));
	CHECK(fa == fb);
}

/* Both round trips of st keep everything (dt: a type to count with). */
static void round_trips(const MPI_Status *st, MPI_Datatype dt)
{
	MPI_Fint f[F_STATUS_MAX];
	MPI_Status back;

	memset(&back, 0x5a, sizeof(back));
	CHECK_MPI(MPI_Status_c2f(st, f));
	CHECK_MPI(MPI_Status_f2c(f, &back));
	same_status(st, &back, dt);
#if HAVE_F08_STATUS
	MPI_F08_status f08;

	memset(&back, 0x5a, sizeof(back));
	CHECK_MPI(MPI_Status_c2f08(st, &f08));
	CHECK(f08.MPI_SOURCE == st->MPI_SOURCE && f08.MPI_TAG == st->MPI_TAG &&
	      f08.MPI_ERROR == st->MPI_ERROR);
	CHECK_MPI(MPI_Status_f082c(&f08, &back));
	same_status(st, &back, dt);
#endif
}

static void test_statuses(void)
{
	int peer_to = (rank + 1) % size, peer_from = (rank + size - 1) % size;
	int data[9], got[9], count, elems, flag;
	MPI_Datatype pair, big;
	MPI_Request req;
	MPI_Status st;

	/* a message of 7 ints received as pairs of ints: 3 whole pairs and
	 * half of one (MPI_Get_count undefined, MPI_Get_elements 7) */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	for (int i = 0; i < 9; i++)
		data[i] = rank * 100 + i;
	CHECK_MPI(MPI_Sendrecv(data, 7, MPI_INT, peer_to, 40 + rank, got, 4, pair,
			       peer_from, 40 + peer_from, MPI_COMM_WORLD, &st));
	CHECK(st.MPI_SOURCE == peer_from && st.MPI_TAG == 40 + peer_from);
	CHECK_MPI(MPI_Get_count(&st, pair, &count));
	CHECK(count == MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_elements(&st, pair, &elems));
	CHECK(elems == 7);
	round_trips(&st, pair);
	round_trips(&st, MPI_INT);

	/* a cancelled receive */
	CHECK_MPI(MPI_Irecv(got, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Cancel(&req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Test_cancelled(&st, &flag));
	CHECK(flag);
	round_trips(&st, MPI_INT);

	/* 2e9 ints: 8e9 bytes, a count above 32 bits */
	CHECK_MPI(MPI_Type_contiguous(1000, MPI_INT, &big));
	CHECK_MPI(MPI_Type_commit(&big));
	st.MPI_SOURCE = 3;
	st.MPI_TAG = 4;
	st.MPI_ERROR = MPI_SUCCESS;
	CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 2000000000));
	CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
	CHECK_MPI(MPI_Get_count(&st, big, &count));
	CHECK(count == 2000000);
	round_trips(&st, big);
	round_trips(&st, MPI_INT);

	CHECK_MPI(MPI_Type_free(&big));
	CHECK_MPI(MPI_Type_free(&pair));
}

/* ---- errors ---------------------------------------------------------------- */

/* Converting an IGNORE value or NULL is erroneous: MPI_ERR_ARG, and the
 * output stays as it was. */
static void test_errors(void)
{
	MPI_Fint f[F_STATUS_MAX], f_was[F_STATUS_MAX];
	MPI_Status st, st_was;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	memset(f, 0x33, sizeof(f));
	memcpy(f_was, f, sizeof(f));
	memset(&st, 0x55, sizeof(st));
	st_was = st;
	CHECK(tu_check_class(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_c2f(NULL, f), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_c2f(&st, NULL), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &st), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f2c(NULL, &st), MPI_ERR_ARG));
#if HAVE_F08_STATUS
	MPI_F08_status f08, f08_was;

	memset(&f08, 0x44, sizeof(f08));
	f08_was = f08;
	CHECK(tu_check_class(MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &st), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f082c(&f08, NULL), MPI_ERR_ARG));
	CHECK(!memcmp(&f08, &f08_was, sizeof(f08)));
#endif
	CHECK(!memcmp(f, f_was, sizeof(f)));
	CHECK(!memcmp(&st, &st_was, sizeof(st)));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("handles", test_handles);
	TU_RUN("statuses", test_statuses);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
