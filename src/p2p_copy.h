/*
 * One-copy transfers of rendezvous messages (p2p_copy.c), for the message
 * protocol of p2p_proto.c: the sender describes its buffer in the RTS, and
 * the receiver, once it matched, copies the data itself, straight from the
 * sender's buffer into its own, then answers FIN instead of CTS.  What
 * cannot be pulled that way goes through the channels as before.
 */
#ifndef SRC_P2P_COPY_H
#define SRC_P2P_COPY_H

#include <stdint.h>

#include "progress.h"
#include "request.h"

/* MPI_Init: the knobs, and leave to the job's other ranks the right to
 * read this process's memory (see p2p_copy.c). */
void copy_init(void);

/* MPI_Finalize: unmap the segments mapped to pull from. */
void copy_fini(void);

/* The sender: the length of the description of send r's buffer, or 0
 * when r is to go through the channels (too small, a buffered send, the
 * knob, a description longer than room); then the description into out. */
uint32_t copy_desc_len(const struct request *r, uint32_t room);
void copy_describe(const struct request *r, void *out);

/* The receiver, under the engine's lock: copy the message from world rank
 * src whose RTS is rts, with the description desc (len bytes), into
 * receive r, which is bound to it (r->st_bytes: what to deliver).  When
 * the sender is to help (p2p_copy.c, "sharing a copy"), offer(src, help)
 * sends it the HELP packet first.  1 when every byte is in; 0 when the
 * message is to come through the channels. */
int copy_pull(struct request *r, int src, const struct pkt *rts, const void *desc,
	      uint32_t len, void (*offer)(int src, const struct pkt *help));

/* The sender, under the engine's lock: HELP from world rank dst for send
 * r: write the chunks it can claim into dst's buffer. */
void copy_help(const struct request *r, int dst, const struct pkt *help);

/*
 * RMA on windows of private memory (rma_pkt_origin.c): whether a put or
 * get of `bytes` may move in one copy (the knobs SHMPI_SINGLE_COPY auto or
 * cma and SHMPI_SINGLE_COPY_RMA_MIN, and no refusal so far); then the copy,
 * between this process's (buf, count, dt) and the bytes (raddr, rcount,
 * rdt) of world rank `world`: process_vm_writev into them (write) or
 * process_vm_readv out of them.  0, or -errno: after a refusal
 * (-EPERM...) copy_rma_usable says no for the rest of the job.
 */
struct datatype;
int copy_rma_usable(uint64_t bytes);
int copy_rma(int world, int write, const void *buf, MPI_Count count,
	     const struct datatype *dt, uint64_t raddr, MPI_Count rcount,
	     const struct datatype *rdt, uint64_t bytes);

#endif
