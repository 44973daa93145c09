/*
 * Error classes, error strings and error handlers on communicators.
 *   rt_errors            everything through MPI_ERRORS_RETURN and user handlers
 *   rt_errors fatal R    rank R passes an invalid communicator under the
 *                        default MPI_ERRORS_ARE_FATAL: the job must end
 *   rt_errors before     calls MPI_Comm_rank before MPI_Init
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "rt_errors: %s:%d: %s\n", __FILE__,    \
				__LINE__, #cond);                              \
			exit(2);                                               \
		}                                                              \
	} while (0)

static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
	handler_calls++;
	handler_code = *code;
	handler_comm = *comm;
}

static void returning(void)
{
	char msg[MPI_MAX_ERROR_STRING];
	MPI_Errhandler eh, got;
	int cls, len, x, freed_before;

	/* every class has a string and is its own class */
	for (int c = MPI_SUCCESS; c <= MPI_ERR_LASTCODE; c++) {
		CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS && cls == c);
		CHECK(MPI_Error_string(c, msg, &len) == MPI_SUCCESS);
		CHECK(len > 0 && len == (int)strlen(msg));
	}
	CHECK(MPI_Error_string(MPI_ERR_RANK, msg, &len) == MPI_SUCCESS);
	CHECK(strstr(msg, "MPI_ERR_RANK") && strstr(msg, "rank"));

	CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS);
	CHECK(got == MPI_ERRORS_ARE_FATAL);
	CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS && got == MPI_ERRHANDLER_NULL);

	CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
	CHECK(MPI_Comm_rank(MPI_COMM_NULL, &x) == MPI_ERR_COMM);
	CHECK(MPI_Comm_rank(0x12345, &x) == MPI_ERR_COMM);
	CHECK(MPI_Comm_size(MPI_ERRORS_RETURN, &x) == MPI_ERR_COMM);	/* wrong kind */
	CHECK(MPI_Comm_rank(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
	CHECK(MPI_Error_class(-1, &cls) == MPI_ERR_ARG);
	CHECK(MPI_Error_class(MPI_ERR_LASTCODE + 1, &cls) == MPI_ERR_ARG);
	CHECK(MPI_Error_string(MPI_ERR_LASTCODE + 1, msg, &len) == MPI_ERR_ARG);
	CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 0x777) == MPI_ERR_ARG);
	CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL) == MPI_ERR_ARG);
	CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS);
	CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, 12345) == MPI_ERR_ARG);

	/* a user handler: called with the communicator and the code */
	CHECK(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS);
	CHECK(MPI_Comm_create_errhandler(NULL, &got) == MPI_ERR_ARG);
	CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh) == MPI_SUCCESS);
	CHECK(MPI_Comm_rank(MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
	CHECK(handler_calls == 1 && handler_code == MPI_ERR_ARG &&
	      handler_comm == MPI_COMM_SELF);
	CHECK(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_TRUNCATE) == MPI_SUCCESS);
	CHECK(handler_calls == 2 && handler_code == MPI_ERR_TRUNCATE);

	/* freeing the handle keeps the handler alive while a communicator uses it */
	got = eh;
	CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS && got == MPI_ERRHANDLER_NULL);
	freed_before = handler_calls;
	CHECK(MPI_Comm_size(MPI_COMM_SELF, NULL) == MPI_ERR_ARG);
	CHECK(handler_calls == freed_before + 1);
	CHECK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got) == MPI_SUCCESS && got == eh);
	CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS);
	/* replacing it drops the last reference: the handle is now stale */
	CHECK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN) == MPI_SUCCESS);
	CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_ERR_ARG);
	CHECK(MPI_Errhandler_free(&eh) == MPI_ERR_ARG);
	CHECK(MPI_Errhandler_free(NULL) == MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
	int rank, x;

	if (argc > 1 && strcmp(argv[1], "before") == 0) {
		MPI_Comm_rank(MPI_COMM_WORLD, &x);
		return 0;	/* not reached */
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 2 && strcmp(argv[1], "fatal") == 0) {
		if (rank == atoi(argv[2])) {
			MPI_Comm_size(MPI_COMM_NULL, &x);
			printf("rank %d: survived a fatal error\n", rank);
			return 3;
		}
		/* the others wait to be ended by the launcher */
		sleep(60);
		return 4;
	}
	returning();
	printf("rank %d ok\n", rank);
	MPI_Finalize();
	return 0;
}
