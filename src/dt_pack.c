/*
 * Packing in user space (MPI_Pack, MPI_Unpack, MPI_Pack_size) and the
 * address calls (MPI_Get_address, MPI_Aint_add, MPI_Aint_diff).
 *
 * The packed form is the datatype engine's packed stream itself: the bytes
 * of the typemap in order, no header, so MPI_Pack_size is exact and a
 * packed buffer sent as MPI_PACKED unpacks with any type of the same
 * signature.  Addresses are the plain virtual addresses (MPI_BOTTOM is 0).
 */
#include <limits.h>
#include <stdint.h>

#include "api.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

/* The arguments MPI_Pack and MPI_Unpack share: count, type, buffer size,
 * position and communicator; *bytes is what (count, type) packs to. */
static int pack_check(const char *call, int count, const char *count_name,
		      MPI_Datatype datatype, int bufsize, const char *bufsize_name,
		      const int *position, MPI_Comm comm, struct datatype **dt,
		      MPI_Aint *bytes)
{
	int rc;

	if (!comm_get(comm))
		return comm_err_invalid(comm, call);
	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, count_name, "%d is negative",
				count);
	rc = dt_check_use(comm, call, datatype, dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bufsize < 0)
		return err_comm(comm, call, MPI_ERR_ARG, bufsize_name, "%d is negative",
				bufsize);
	if (!position)
		return err_comm(comm, call, MPI_ERR_ARG, "position", "is NULL");
	if (*position < 0)
		return err_comm(comm, call, MPI_ERR_ARG, "position", "%d is negative",
				*position);
	*bytes = (MPI_Aint)count * (*dt)->size;
	return MPI_SUCCESS;
}

API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
		int outsize, int *position, MPI_Comm comm))
{
	static const char call[] = "MPI_Pack";
	struct datatype *dt;
	MPI_Aint bytes;
	int rc;

	runtime_check(call);
	rc = pack_check(call, incount, "incount", datatype, outsize, "outsize",
			position, comm, &dt, &bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bytes > (MPI_Aint)outsize - *position)
		return err_comm(comm, call, MPI_ERR_TRUNCATE, "outsize",
				"%ld packed bytes do not fit in %d bytes from position %d",
				(long)bytes, outsize, *position);
	if (bytes > 0 && !outbuf)
		return err_comm(comm, call, MPI_ERR_BUFFER, "outbuf", "is NULL");
	if (bytes > 0 && !inbuf && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, "inbuf",
				"is NULL with %d elements of %s", incount, dt->name);
	if (bytes > 0)
		dt_pack(dt, inbuf, 0, (char *)outbuf + *position, (size_t)bytes);
	*position += (int)bytes;
	return MPI_SUCCESS;
}

API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf,
		  int outcount, MPI_Datatype datatype, MPI_Comm comm))
{
	static const char call[] = "MPI_Unpack";
	struct datatype *dt;
	MPI_Aint bytes;
	int rc;

	runtime_check(call);
	rc = pack_check(call, outcount, "outcount", datatype, insize, "insize",
			position, comm, &dt, &bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bytes > (MPI_Aint)insize - *position)
		return err_comm(comm, call, MPI_ERR_TRUNCATE, "insize",
				"%d bytes from position %d hold less than the %ld "
				"that %d elements of %s unpack", insize, *position,
				(long)bytes, outcount, dt->name[0] ? dt->name :
				"the datatype");
	if (bytes > 0 && !inbuf)
		return err_comm(comm, call, MPI_ERR_BUFFER, "inbuf", "is NULL");
	if (bytes > 0 && !outbuf && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, "outbuf",
				"is NULL with %d elements of %s", outcount, dt->name);
	if (bytes > 0)
		dt_unpack(dt, outbuf, 0, (const char *)inbuf + *position, (size_t)bytes);
	*position += (int)bytes;
	return MPI_SUCCESS;
}

API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
{
	static const char call[] = "MPI_Pack_size";
	struct datatype *dt;
	MPI_Aint bytes;

	runtime_check(call);
	if (!comm_get(comm))
		return comm_err_invalid(comm, call);
	if (incount < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, "incount", "%d is negative",
				incount);
	/* a query, not a use: the type need not be committed */
	dt = dt_get(datatype);
	if (!dt)
		return err_comm(comm, call, MPI_ERR_TYPE, "datatype",
				datatype == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
				"0x%x is not a valid datatype", (unsigned)datatype);
	if (!size)
		return err_comm(comm, call, MPI_ERR_ARG, "size", "is NULL");
	bytes = (MPI_Aint)incount * dt->size;
	if (bytes > INT_MAX)
		return err_comm(comm, call, MPI_ERR_COUNT, "incount",
				"%d elements of %s pack to %ld bytes, more than an int "
				"holds", incount, dt->name, (long)bytes);
	*size = (int)bytes;
	return MPI_SUCCESS;
}

API(int, Get_address, (const void *location, MPI_Aint *address))
{
	runtime_check("MPI_Get_address");
	if (!address)
		return err_comm(MPI_COMM_WORLD, "MPI_Get_address", MPI_ERR_ARG, "address",
				"is NULL");
	*address = (MPI_Aint)(uintptr_t)location;
	return MPI_SUCCESS;
}

/* Plain arithmetic on addresses: no checks, no error, valid at any time. */
API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
{
	return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
{
	return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
