/*
 * Calls new in MPI 4.1, checked by their results: the status fields by
 * call (section 3.2.5) and the removal of error classes, codes and strings
 * (section 9.5), with the errors a removal reports under MPI_ERRORS_RETURN.
 * Prints one "ok" line per part on rank 0.  A plain MPI program.
 */
#include "testutil.h"

static void check_status(void)
{
	MPI_Status st;
	int size, right, left, v, src, tag, err;

	memset(&st, 0, sizeof(st));
	CHECK_MPI(MPI_Status_set_source(&st, 7));
	CHECK_MPI(MPI_Status_set_tag(&st, 42));
	CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
	CHECK_MPI(MPI_Status_get_source(&st, &src));
	CHECK_MPI(MPI_Status_get_tag(&st, &tag));
	CHECK_MPI(MPI_Status_get_error(&st, &err));
	CHECK(src == 7 && tag == 42 && err == MPI_ERR_TRUNCATE);
	CHECK(st.MPI_SOURCE == 7 && st.MPI_TAG == 42 && st.MPI_ERROR == MPI_ERR_TRUNCATE);

	/* a completed receive: who sent it, with which tag */
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	CHECK_MPI(MPI_Sendrecv(&tu_rank, 1, MPI_INT, right, 100 + tu_rank, &v, 1, MPI_INT,
			       MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Status_get_source(&st, &src));
	CHECK_MPI(MPI_Status_get_tag(&st, &tag));
	CHECK(v == left && src == left && tag == 100 + left);
}

static int error_text(int code, char *text)
{
	int len;

	return MPI_Error_string(code, text, &len);
}

static void check_remove_errors(void)
{
	char text[MPI_MAX_ERROR_STRING];
	int cls, code, got;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_MPI(MPI_Add_error_string(code, "the disk is on fire"));
	CHECK_MPI(error_text(code, text));
	CHECK(!strcmp(text, "the disk is on fire"));

	/* the string goes, the code stays; a second removal is an error */
	CHECK_MPI(MPI_Remove_error_string(code));
	CHECK_MPI(error_text(code, text));
	CHECK(!strcmp(text, ""));
	CHECK(tu_check_class(MPI_Remove_error_string(code), MPI_ERR_ARG));
	CHECK_MPI(MPI_Error_class(code, &got));
	CHECK(got == cls);

	/* a class goes after its codes only; predefined ones never */
	CHECK(tu_check_class(MPI_Remove_error_class(cls), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Remove_error_code(cls), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Remove_error_class(code), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Remove_error_class(MPI_ERR_OTHER), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Remove_error_code(MPI_ERR_OTHER), MPI_ERR_ARG));
	CHECK_MPI(MPI_Remove_error_code(code));
	CHECK(tu_check_class(MPI_Error_class(code, &got), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Remove_error_code(code), MPI_ERR_ARG));
	CHECK_MPI(MPI_Remove_error_class(cls));
	CHECK(tu_check_class(error_text(cls, text), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Add_error_code(cls, &code), MPI_ERR_ARG));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	check_status();
	if (tu_rank == 0)
		printf("ok status\n");
	check_remove_errors();
	if (tu_rank == 0)
		printf("ok remove_error\n");
	/* the fatal handler names the call and the argument */
	if (argc > 1 && !strcmp(argv[1], "fatal"))
		MPI_Remove_error_code(MPI_ERR_OTHER);
	MPI_Finalize();
	return 0;
}
