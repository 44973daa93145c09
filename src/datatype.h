/*
 * Datatypes and the one pack/unpack engine.
 *
 * A datatype is kept as its flattened typemap: the runs of bytes one element
 * covers, in typemap order, each with its displacement, length and the size
 * of the basic elements it holds (adjacent runs of the same basic size are
 * merged).  Every data movement (messages, collectives, RMA) packs and
 * unpacks through dt_pack()/dt_unpack(), which address the packed stream of
 * (buf, count, type) by byte offset, so a message can move in chunks.  A
 * type whose elements are one gapless run is `contig`: count elements are
 * then a single memcpy.
 */
#ifndef SRC_DATATYPE_H
#define SRC_DATATYPE_H

#include <mpi.h>
#include <stddef.h>

#include "handle.h"

struct dt_block {
	MPI_Aint disp;		/* from the element's origin */
	MPI_Aint len;		/* bytes */
	MPI_Aint pos;		/* where the run starts in the element's packed stream */
	int basic_size;		/* bytes of each basic element in the run */
};

struct datatype {
	MPI_Datatype handle;
	int refs;
	int committed;
	MPI_Aint size;		/* bytes of data in one element */
	MPI_Aint lb, extent;
	MPI_Aint true_lb, true_extent;
	int nblocks;
	struct dt_block *blocks;
	int contig;		/* one run of `extent` bytes per element */
	char name[MPI_MAX_OBJECT_NAME];
};

/* Register the predefined datatypes. */
void dt_init_builtins(void);

static inline struct datatype *dt_get(MPI_Datatype h)
{
	return handle_get(h, HANDLE_DATATYPE);
}

/*
 * Copy len bytes of the packed stream of (buf, ., dt), starting at stream
 * offset off, to out.  The caller keeps off + len within count * dt->size.
 */
void dt_pack(const struct datatype *dt, const void *buf, size_t off, void *out,
	     size_t len);

/* The reverse: len bytes from in into (buf, ., dt) at stream offset off. */
void dt_unpack(const struct datatype *dt, void *buf, size_t off, const void *in,
	       size_t len);

/* Basic elements in the first `bytes` bytes of a packed stream of dt, or
 * MPI_UNDEFINED when bytes ends inside a basic element. */
MPI_Count dt_count_basic(const struct datatype *dt, MPI_Count bytes);

#endif
