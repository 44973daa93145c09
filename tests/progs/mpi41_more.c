/*
 * More calls of MPI 4.1, checked by their results:
 *  - MPI_Type_get_value_index (section 6.9.4): the predefined pair types,
 *    and for other pairs a type laid out as struct { value; index; } of
 *    combiner MPI_COMBINER_VALUE_INDEX, usable in communication;
 *  - MPI_Status_f082f and MPI_Status_f2f08 (section 19.3.5), and the
 *    indices MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR of an INTEGER status
 *    of MPI_F_STATUS_SIZE elements;
 *  - MPI_Intercomm_create_from_groups (section 7.6.2): the two groups of
 *    a split of the job into low and high halves, point-to-point across
 *    and the remote group's size and members.
 * Errors under MPI_ERRORS_RETURN.  Prints one "ok" line per part on rank
 * 0.  A plain MPI 4.1 program.
 */
#include <stddef.h>

#include "testutil.h"

static int size;

/* (skipped where mpi.h is older than MPI 4.1, for a run on MPICH 4.0) */
static void check_value_index(void)
{
#ifdef MPI_COMBINER_VALUE_INDEX
	static const MPI_Datatype pairs[][3] = {
		{ MPI_FLOAT, MPI_INT, MPI_FLOAT_INT },
		{ MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT },
		{ MPI_LONG, MPI_INT, MPI_LONG_INT },
		{ MPI_INT, MPI_INT, MPI_2INT },
		{ MPI_SHORT, MPI_INT, MPI_SHORT_INT },
		{ MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT },
	};
	struct dl { double v; long i; } in[3], out[3];
	MPI_Datatype t, types[2];
	MPI_Aint lb, extent, addrs[1];
	int ni, na, nd, combiner, ints[1], right, left;

	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		CHECK_MPI(MPI_Type_get_value_index(pairs[k][0], pairs[k][1], &t));
		CHECK(t == pairs[k][2]);
	}
	/* no predefined pair: a new type, struct { double; long; } */
	CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_LONG, &t));
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
	CHECK(combiner == MPI_COMBINER_VALUE_INDEX && ni == 0 && na == 0 && nd == 2);
	CHECK_MPI(MPI_Type_get_contents(t, 1, 1, 2, ints, addrs, types));
	CHECK(types[0] == MPI_DOUBLE && types[1] == MPI_LONG);
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK(lb == 0 && extent == (MPI_Aint)sizeof(struct dl));
	/* usable as it comes: a ring of three pairs */
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	for (int i = 0; i < 3; i++) {
		in[i].v = tu_rank + i / 4.0;
		in[i].i = 100L * tu_rank + i;
	}
	CHECK_MPI(MPI_Sendrecv(in, 3, t, right, 0, out, 3, t, left, 0, MPI_COMM_WORLD,
			       MPI_STATUS_IGNORE));
	for (int i = 0; i < 3; i++)
		CHECK(out[i].v == left + i / 4.0 && out[i].i == 100L * left + i);
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(t == MPI_DATATYPE_NULL);

	/* a derived type is no value or index type */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
	CHECK(tu_check_class(MPI_Type_get_value_index(t, MPI_INT, types), MPI_ERR_TYPE));
	CHECK(tu_check_class(MPI_Type_get_value_index(MPI_INT, t, types), MPI_ERR_TYPE));
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(tu_check_class(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, types),
			     MPI_ERR_TYPE));
	CHECK(tu_check_class(MPI_Type_get_value_index(MPI_INT, MPI_INT, NULL), MPI_ERR_ARG));
#endif
}

static void check_status_f08f(void)
{
	MPI_Fint f[MPI_F_STATUS_SIZE], g[MPI_F_STATUS_SIZE];
	MPI_F08_status f08, back;
	MPI_Status st, st2;
	int count;

	memset(&st, 0, sizeof(st));
	st.MPI_SOURCE = 3;
	st.MPI_TAG = 44;
	st.MPI_ERROR = MPI_ERR_TRUNCATE;
	CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 7));
	CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
	CHECK_MPI(MPI_Status_c2f08(&st, &f08));
	CHECK_MPI(MPI_Status_f082f(&f08, f));
	CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 44 &&
	      f[MPI_F_ERROR] == MPI_ERR_TRUNCATE);
	/* the same as the C status's own INTEGER form */
	CHECK_MPI(MPI_Status_c2f(&st, g));
	CHECK(!memcmp(f, g, sizeof(f)));
	CHECK_MPI(MPI_Status_f2f08(f, &back));
	CHECK(!memcmp(&f08, &back, sizeof(back)));
	CHECK_MPI(MPI_Status_f082c(&back, &st2));
	CHECK_MPI(MPI_Get_count(&st2, MPI_INT, &count));
	CHECK(count == 7 && st2.MPI_SOURCE == 3 && st2.MPI_TAG == 44);
	CHECK_MPI(MPI_Test_cancelled(&st2, &count));
	CHECK(count == 1);
	CHECK(tu_check_class(MPI_Status_f082f(MPI_F08_STATUS_IGNORE, f), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Status_f2f08(f, NULL), MPI_ERR_ARG));
}

/* The job's low half (ranks below size / 2) and high half, as groups of a
 * session's "mpi://WORLD", joined by an intercommunicator whose leaders
 * are each half's last rank. */
static void check_intercomm_from_groups(void)
{
	MPI_Session session;
	MPI_Group world, low, high, mine, other, remote;
	MPI_Comm inter, merged;
	int half = size / 2, range[1][3], in_low, lsize, rsize, flag, cmp, sum, v, r;
	MPI_Errhandler eh;

	if (size < 2)
		return;
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
	CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
	range[0][0] = 0, range[0][1] = half - 1, range[0][2] = 1;
	CHECK_MPI(MPI_Group_range_incl(world, 1, range, &low));
	range[0][0] = half, range[0][1] = size - 1;
	CHECK_MPI(MPI_Group_range_incl(world, 1, range, &high));
	in_low = tu_rank < half;
	mine = in_low ? low : high;
	other = in_low ? high : low;
	lsize = in_low ? half : size - half;
	rsize = size - lsize;
	CHECK_MPI(MPI_Intercomm_create_from_groups(mine, lsize - 1, other, rsize - 1,
						   "mpi41_more halves", MPI_INFO_NULL,
						   MPI_ERRORS_RETURN, &inter));
	CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
	CHECK(flag);
	CHECK_MPI(MPI_Comm_size(inter, &v));
	CHECK(v == lsize);
	CHECK_MPI(MPI_Comm_remote_size(inter, &v));
	CHECK(v == rsize);
	CHECK_MPI(MPI_Comm_rank(inter, &r));
	CHECK(r == (in_low ? tu_rank : tu_rank - half));
	CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
	CHECK_MPI(MPI_Group_compare(remote, other, &cmp));
	CHECK(cmp == MPI_IDENT);
	CHECK_MPI(MPI_Group_free(&remote));
	CHECK_MPI(MPI_Comm_get_errhandler(inter, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	/* across, both ways: local rank r sends its job rank to remote rank
	 * r % rsize, and receives from each remote rank q with q % lsize == r */
	{
		MPI_Request req;
		int got;

		CHECK_MPI(MPI_Isend(&tu_rank, 1, MPI_INT, r % rsize, 7, inter, &req));
		for (int q = r; q < rsize; q += lsize) {
			CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, q, 7, inter, MPI_STATUS_IGNORE));
			CHECK(got == (in_low ? half + q : q));
		}
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Intercomm_merge(inter, !in_low, &merged));
	CHECK_MPI(MPI_Comm_rank(merged, &r));
	CHECK(r == tu_rank);
	CHECK_MPI(MPI_Allreduce(&tu_rank, &sum, 1, MPI_INT, MPI_SUM, merged));
	CHECK(sum == size * (size - 1) / 2);
	CHECK_MPI(MPI_Comm_free(&merged));
	CHECK_MPI(MPI_Comm_free(&inter));

	/* the groups must be disjoint, and hold the caller (erroneous; the
	 * classes are shmpi's: MPICH 4.0 says MPI_ERR_COMM) */
	CHECK(tu_check_class(MPI_Intercomm_create_from_groups(mine, 0, mine, 0, "x",
			MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter), MPI_ERR_GROUP));
	CHECK(tu_check_class(MPI_Intercomm_create_from_groups(other, 0, mine, 0, "x",
			MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter), MPI_ERR_GROUP));
	CHECK(tu_check_class(MPI_Intercomm_create_from_groups(mine, lsize, other, 0, "x",
			MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter), MPI_ERR_RANK));
	CHECK_MPI(MPI_Group_free(&low));
	CHECK_MPI(MPI_Group_free(&high));
	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Session_finalize(&session));
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	check_value_index();
	if (tu_rank == 0)
		printf("ok value_index\n");
	check_status_f08f();
	if (tu_rank == 0)
		printf("ok status_f08f\n");
	check_intercomm_from_groups();
	if (tu_rank == 0)
		printf("ok intercomm_from_groups\n");
	MPI_Finalize();
	return 0;
}
