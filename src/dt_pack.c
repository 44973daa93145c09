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

/*
 * Each call has one implementation on MPI_Count arguments for its int
 * form and its large-count form (MPI 4.1, section 2.5.8).  An int form's
 * position goes in and out through a MPI_Count: what comes out fits, as
 * it stays within the int buffer size.
 */

/* The arguments MPI_Pack and MPI_Unpack share: count, type, buffer size,
 * position and communicator; *bytes is what (count, type) packs to. */
static int pack_check(const char *call, MPI_Count count, const char *count_name,
		      MPI_Datatype datatype, MPI_Count bufsize, const char *bufsize_name,
		      const MPI_Count *position, MPI_Comm comm, struct datatype **dt,
		      MPI_Count *bytes)
{
	int rc;

	if (!comm_get(comm))
		return comm_err_invalid(comm, call);
	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, count_name, "%lld is negative",
				(long long)count);
	rc = dt_check_use(comm, call, datatype, dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bufsize < 0)
		return err_comm(comm, call, MPI_ERR_ARG, bufsize_name, "%lld is negative",
				(long long)bufsize);
	if (!position)
		return err_comm(comm, call, MPI_ERR_ARG, "position", "is NULL");
	if (*position < 0)
		return err_comm(comm, call, MPI_ERR_ARG, "position", "%lld is negative",
				(long long)*position);
	if (__builtin_mul_overflow(count, (MPI_Count)(*dt)->size, bytes))
		return err_comm(comm, call, MPI_ERR_COUNT, count_name,
				"%lld elements of %s take more bytes than MPI_Count holds",
				(long long)count, (*dt)->name);
	return MPI_SUCCESS;
}

static int pack(const char *call, const void *inbuf, MPI_Count incount,
		MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
		MPI_Count *position, MPI_Comm comm)
{
	struct datatype *dt;
	MPI_Count bytes;
	int rc;

	runtime_check(call);
	rc = pack_check(call, incount, "incount", datatype, outsize, "outsize",
			position, comm, &dt, &bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bytes > outsize - *position)
		return err_comm(comm, call, MPI_ERR_TRUNCATE, "outsize",
				"%lld packed bytes do not fit in %lld bytes from position "
				"%lld", (long long)bytes, (long long)outsize,
				(long long)*position);
	if (bytes > 0 && !outbuf)
		return err_comm(comm, call, MPI_ERR_BUFFER, "outbuf", "is NULL");
	if (bytes > 0 && !inbuf && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, "inbuf",
				"is NULL with %lld elements of %s", (long long)incount,
				dt->name);
	if (bytes > 0)
		dt_pack(dt, inbuf, 0, (char *)outbuf + *position, (size_t)bytes);
	*position += bytes;
	return MPI_SUCCESS;
}

API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
		int outsize, int *position, MPI_Comm comm))
{
	MPI_Count pos = position ? *position : 0;
	int rc = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize,
		      position ? &pos : NULL, comm);

	if (rc == MPI_SUCCESS)
		*position = (int)pos;
	return rc;
}

API(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
		  void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
{
	return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position,
		    comm);
}

static int unpack(const char *call, const void *inbuf, MPI_Count insize,
		  MPI_Count *position, void *outbuf, MPI_Count outcount,
		  MPI_Datatype datatype, MPI_Comm comm)
{
	struct datatype *dt;
	MPI_Count bytes;
	int rc;

	runtime_check(call);
	rc = pack_check(call, outcount, "outcount", datatype, insize, "insize",
			position, comm, &dt, &bytes);
	if (rc != MPI_SUCCESS)
		return rc;
	if (bytes > insize - *position)
		return err_comm(comm, call, MPI_ERR_TRUNCATE, "insize",
				"%lld bytes from position %lld hold less than the %lld "
				"that %lld elements of %s unpack", (long long)insize,
				(long long)*position, (long long)bytes,
				(long long)outcount, dt->name[0] ? dt->name :
				"the datatype");
	if (bytes > 0 && !inbuf)
		return err_comm(comm, call, MPI_ERR_BUFFER, "inbuf", "is NULL");
	if (bytes > 0 && !outbuf && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, "outbuf",
				"is NULL with %lld elements of %s", (long long)outcount,
				dt->name);
	if (bytes > 0)
		dt_unpack(dt, outbuf, 0, (const char *)inbuf + *position, (size_t)bytes);
	*position += bytes;
	return MPI_SUCCESS;
}

API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf,
		  int outcount, MPI_Datatype datatype, MPI_Comm comm))
{
	MPI_Count pos = position ? *position : 0;
	int rc = unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL, outbuf,
			outcount, datatype, comm);

	if (rc == MPI_SUCCESS)
		*position = (int)pos;
	return rc;
}

API(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position,
		    void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
		    MPI_Comm comm))
{
	return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount,
		      datatype, comm);
}

/* The bytes (incount, datatype) packs to; the int form's result must fit
 * an int (MPI_ERR_COUNT otherwise). */
static int pack_size(const char *call, MPI_Count incount, MPI_Datatype datatype,
		     MPI_Comm comm, const void *size, MPI_Count max, MPI_Count *bytes)
{
	struct datatype *dt;

	runtime_check(call);
	if (!comm_get(comm))
		return comm_err_invalid(comm, call);
	if (incount < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, "incount", "%lld is negative",
				(long long)incount);
	/* a query, not a use: the type need not be committed */
	dt = dt_get(datatype);
	if (!dt)
		return err_comm(comm, call, MPI_ERR_TYPE, "datatype",
				datatype == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL" :
				"0x%x is not a valid datatype", (unsigned)datatype);
	if (!size)
		return err_comm(comm, call, MPI_ERR_ARG, "size", "is NULL");
	if (__builtin_mul_overflow(incount, (MPI_Count)dt->size, bytes) || *bytes > max)
		return err_comm(comm, call, MPI_ERR_COUNT, "incount",
				"%lld elements of %s pack to more bytes than %s holds",
				(long long)incount, dt->name,
				max == INT_MAX ? "an int" : "MPI_Count");
	return MPI_SUCCESS;
}

API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
{
	MPI_Count bytes;
	int rc = pack_size("MPI_Pack_size", incount, datatype, comm, size, INT_MAX,
			   &bytes);

	if (rc == MPI_SUCCESS)
		*size = (int)bytes;
	return rc;
}

API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
		       MPI_Count *size))
{
	MPI_Count bytes;
	int rc = pack_size("MPI_Pack_size_c", incount, datatype, comm, size, LLONG_MAX,
			   &bytes);

	if (rc == MPI_SUCCESS)
		*size = bytes;
	return rc;
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
