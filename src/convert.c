/*
 * Conversions between the C and the Fortran forms of handles and statuses
 * (MPI-3.1 sections 17.2.4 and 17.2.5), for mixed-language programs.
 *
 * A Fortran handle (MPI_Fint) is the C handle's int.  A conversion to C
 * gives the handle back when it names a live object of that kind or is a
 * null or predefined handle of it, and the kind's null handle for anything
 * else: a value that never was a handle, or one whose object is gone.
 * The conversions work without MPI_Init too (then only null handles are
 * valid).
 *
 * A Fortran status, INTEGER or TYPE(MPI_Status), is the six MPI_Fints of
 * MPI_F08_status: source, tag, error, then the hidden part, the cancelled
 * flag and the byte count in two halves, so a status survives a round
 * trip whole (MPI_Get_count, MPI_Get_elements and MPI_Test_cancelled say
 * the same of both).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "errhandler.h"
#include "handle.h"
#include "runtime.h"

/* C's handle for Fortran's f of a kind; `also`: a predefined handle the
 * kind's table does not hold (otherwise its null handle). */
static int conv_f2c(MPI_Fint f, enum handle_kind kind, int also)
{
	if (f == handle_null(kind) || f == also || handle_get(f, kind))
		return f;
	return handle_null(kind);
}

#define CONV_HANDLE(Name, ctype, kind, also)                                   \
	API(MPI_Fint, Name##_c2f, (ctype h))                                   \
	{                                                                      \
		return (MPI_Fint)h;                                            \
	}                                                                      \
	API(ctype, Name##_f2c, (MPI_Fint f))                                   \
	{                                                                      \
		return (ctype)conv_f2c(f, kind, also);                         \
	}

CONV_HANDLE(Comm, MPI_Comm, HANDLE_COMM, MPI_COMM_NULL)
CONV_HANDLE(Group, MPI_Group, HANDLE_GROUP, MPI_GROUP_NULL)
CONV_HANDLE(Type, MPI_Datatype, HANDLE_DATATYPE, MPI_DATATYPE_NULL)
CONV_HANDLE(Op, MPI_Op, HANDLE_OP, MPI_OP_NULL)
CONV_HANDLE(Request, MPI_Request, HANDLE_REQUEST, MPI_REQUEST_NULL)
CONV_HANDLE(Win, MPI_Win, HANDLE_WIN, MPI_WIN_NULL)
CONV_HANDLE(Info, MPI_Info, HANDLE_INFO, MPI_INFO_NULL)
CONV_HANDLE(Errhandler, MPI_Errhandler, HANDLE_ERRHANDLER, MPI_ERRHANDLER_NULL)
CONV_HANDLE(Message, MPI_Message, HANDLE_MESSAGE, MPI_MESSAGE_NO_PROC)
CONV_HANDLE(Session, MPI_Session, HANDLE_SESSION, MPI_SESSION_NULL)

/* ---- statuses ------------------------------------------------------------ */

_Static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
	       "a Fortran status is MPI_F_STATUS_SIZE MPI_Fints, without padding");
_Static_assert(offsetof(MPI_F08_status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
	       offsetof(MPI_F08_status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
	       offsetof(MPI_F08_status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
	       "MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR index the INTEGER status");

static void status_to_f08(const MPI_Status *c, MPI_F08_status *f)
{
	uint64_t count = (uint64_t)c->shmpi_count;

	f->MPI_SOURCE = c->MPI_SOURCE;
	f->MPI_TAG = c->MPI_TAG;
	f->MPI_ERROR = c->MPI_ERROR;
	f->shmpi_cancelled = c->shmpi_cancelled;
	f->shmpi_count[0] = (MPI_Fint)(uint32_t)count;
	f->shmpi_count[1] = (MPI_Fint)(uint32_t)(count >> 32);
}

static void status_from_f08(const MPI_F08_status *f, MPI_Status *c)
{
	uint64_t count = (uint64_t)(uint32_t)f->shmpi_count[1] << 32 |
			 (uint32_t)f->shmpi_count[0];

	c->MPI_SOURCE = f->MPI_SOURCE;
	c->MPI_TAG = f->MPI_TAG;
	c->MPI_ERROR = f->MPI_ERROR;
	c->shmpi_cancelled = f->shmpi_cancelled;
	c->shmpi_count = (MPI_Count)count;
}

/*
 * Both sides must be real statuses: the IGNORE values of either language
 * (which share their address) and NULL are MPI_ERR_ARG, raised on
 * MPI_COMM_WORLD (MPI-3.1 section 17.2.5 makes such a call erroneous).
 */
static int status_check(const char *call, const void *in, const char *in_name,
			const void *out, const char *out_name)
{
	runtime_check(call);
	if (!in || in == (const void *)MPI_STATUS_IGNORE)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, in_name,
				"is NULL or an IGNORE value");
	if (!out || out == (const void *)MPI_STATUS_IGNORE)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, out_name,
				"is NULL or an IGNORE value");
	return MPI_SUCCESS;
}

API(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
{
	int rc = status_check("MPI_Status_c2f08", c_status, "c_status", f08_status,
			      "f08_status");

	if (rc == MPI_SUCCESS)
		status_to_f08(c_status, f08_status);
	return rc;
}

API(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
{
	int rc = status_check("MPI_Status_f082c", f08_status, "f08_status", c_status,
			      "c_status");

	if (rc == MPI_SUCCESS)
		status_from_f08(f08_status, c_status);
	return rc;
}

/* An INTEGER status need not be aligned as the struct is: copied through. */
API(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
{
	int rc = status_check("MPI_Status_c2f", c_status, "c_status", f_status,
			      "f_status");
	MPI_F08_status f;

	if (rc == MPI_SUCCESS) {
		status_to_f08(c_status, &f);
		memcpy(f_status, &f, sizeof(f));
	}
	return rc;
}

/* The two Fortran statuses (MPI 4.1, section 19.3.5) hold the same
 * MPI_Fints in the same order. */
API(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
{
	int rc = status_check("MPI_Status_f082f", f08_status, "f08_status", f_status,
			      "f_status");

	if (rc == MPI_SUCCESS)
		memcpy(f_status, f08_status, sizeof(*f08_status));
	return rc;
}

API(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
{
	int rc = status_check("MPI_Status_f2f08", f_status, "f_status", f08_status,
			      "f08_status");

	if (rc == MPI_SUCCESS)
		memcpy(f08_status, f_status, sizeof(*f08_status));
	return rc;
}

API(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
{
	int rc = status_check("MPI_Status_f2c", f_status, "f_status", c_status,
			      "c_status");
	MPI_F08_status f;

	if (rc == MPI_SUCCESS) {
		memcpy(&f, f_status, sizeof(f));
		status_from_f08(&f, c_status);
	}
	return rc;
}
