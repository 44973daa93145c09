/*
 * Reduction operations: the predefined ops and user ops, and the one table
 * of (op, basic type) kernels that collectives and RMA accumulates share.
 *
 * A kernel applies one predefined op to n basic elements laid out as a C
 * array: inout[i] = in[i] op inout[i].  It keeps no state, reads each
 * in[i] and inout[i] once and writes inout[i] once, so it serves
 *  - reductions: op_reduce() walks a datatype's reduction runs (struct
 *    dt_rrun) and calls the kernel once per run;
 *  - RMA accumulates (rma_atomic.c): the kernel on a run of target
 *    elements, called under the target's stripe locks, which make it
 *    atomic per element; op_kind() tells MPI_REPLACE and MPI_NO_OP apart,
 *    which are copies rather than kernel calls.
 * in and inout must not overlap.  Signed integer sums and products wrap
 * (two's complement), as MPICH and Open MPI behave.
 */
#ifndef SRC_OP_H
#define SRC_OP_H

#include <mpi.h>

#include "datatype.h"
#include "handle.h"

/* The predefined ops, numbered as their handles' low byte. */
enum op_kind {
	OP_USER = 0,
	OP_MAX = 1,
	OP_MIN,
	OP_SUM,
	OP_PROD,
	OP_LAND,
	OP_BAND,
	OP_LOR,
	OP_BOR,
	OP_LXOR,
	OP_BXOR,
	OP_MINLOC,
	OP_MAXLOC,
	OP_REPLACE,
	OP_NO_OP,
	OP_NBUILTIN
};

/* x86-64: a function with OP_CLONES is also built for AVX2 and AVX-512,
 * the widest the CPU has chosen once when the library loads (an ifunc);
 * each doubling of the lanes over the SSE2 baseline nearly halves the time
 * of accumulates and reductions that stay in cache (a 2 KiB accumulate of
 * doubles: 53 ns with AVX2, 35 with AVX-512, README "Performance").  Not
 * under ThreadSanitizer, whose instrumented resolvers would run before its
 * runtime is set up. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define OP_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OP_CLONES
#endif

/* inout[i] = in[i] op inout[i], i < n, on C arrays of one basic type. */
typedef void (*op_kernel_t)(const void *restrict in, void *restrict inout,
			    MPI_Aint n);

struct op;

static inline struct op *op_get(MPI_Op h)
{
	return handle_get(h, HANDLE_OP);
}

/* Register the predefined ops (MPI_Init). */
void op_init_builtins(void);

/* A pending operation keeps a user op alive across MPI_Op_free (no-op for
 * predefined ops; unref accepts NULL). */
void op_ref(struct op *op);
void op_unref(struct op *op);

/* Whether op is commutative (MPI_REPLACE and MPI_NO_OP are not). */
int op_commutative(const struct op *op);

/* Whether op is predefined, and which one (OP_USER for user ops). */
int op_is_builtin(const struct op *op);
enum op_kind op_kind(const struct op *op);

/* The kernel of predefined op on predefined basic type, or NULL when the
 * op is not defined on it (or op is a user op). */
op_kernel_t op_kernel(const struct op *op, MPI_Datatype basic);

/* The table itself (op_kernels.c): filled by op_init_builtins(), looked up
 * by op kind (NULL for OP_USER and for pairs the standard leaves undefined). */
void op_kernels_init(void);
op_kernel_t op_kernel_of(enum op_kind kind, MPI_Datatype basic);

/*
 * Whether op may reduce elements of dt: MPI_SUCCESS, or MPI_ERR_OP when a
 * predefined op is not defined on dt's basic type (or dt mixes basic
 * types).  User ops accept every type.
 */
int op_check(const struct op *op, const struct datatype *dt);

/*
 * inout[i] = in[i] op inout[i] for count elements of dt; both buffers are
 * laid out as dt describes (user layout, the same for both).  op_check()
 * must have accepted (op, dt).  A user op gets dt's handle and at most
 * INT_MAX elements per call.
 */
void op_reduce(const struct op *op, const void *in, void *inout, MPI_Count count,
	       const struct datatype *dt);

#endif
