/*
 * large_xfer: real transfers of more than 2^31 one-byte elements with the
 * large-count calls (MPI 4.1, section 2.5.8), between ranks 0 and 1 of a
 * job of 2 or more: MPI_Send_c / MPI_Recv_c (the status's count by
 * MPI_Get_count_c, MPI_UNDEFINED by MPI_Get_count), then MPI_Put_c and
 * MPI_Get_c on rank 1's window.  Every byte is checked.  For `make
 * stress`: it needs about 4 x 2^31 bytes on this machine, and 2^31 in
 * /dev/shm; with less memory available it says why and exits 77 (a skip).
 * Prints "ok" on rank 0.  A plain MPI program.
 */
#include <stdio.h>

#include "testutil.h"

#define BYTES (((MPI_Count)1 << 31) + 4099)

/* Bytes of memory available, from /proc/meminfo (0 when unknown). */
static long long mem_available(void)
{
	char line[256];
	long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static unsigned char pattern(MPI_Count i, int salt)
{
	return (unsigned char)((i * 131 + (i >> 20) + salt) & 0xff);
}

static void fill(unsigned char *b, int salt)
{
	for (MPI_Count i = 0; i < BYTES; i++)
		b[i] = pattern(i, salt);
}

static void verify(const unsigned char *b, int salt)
{
	for (MPI_Count i = 0; i < BYTES; i++)
		if (b[i] != pattern(i, salt)) {
			fprintf(stderr, "rank %d: byte %lld is %u, want %u\n", tu_rank,
				(long long)i, b[i], pattern(i, salt));
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
}

int main(int argc, char **argv)
{
	const long long need = 5 * (long long)BYTES;
	unsigned char *buf = NULL, *win_mem;
	MPI_Status st;
	MPI_Count n;
	MPI_Win win;
	int size, enough, all, ni;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2);
	enough = tu_rank != 0 || mem_available() >= need;
	MPI_Allreduce(&enough, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all) {
		if (tu_rank == 0)
			printf("skip: %lld bytes of memory available, %lld needed\n",
			       mem_available(), need);
		MPI_Finalize();
		return 77;
	}
	if (tu_rank < 2) {
		buf = malloc((size_t)BYTES);
		CHECK(buf);
	}

	/* one message of BYTES bytes */
	if (tu_rank == 0) {
		fill(buf, 1);
		CHECK_MPI(MPI_Send_c(buf, BYTES, MPI_BYTE, 1, 3, MPI_COMM_WORLD));
	} else if (tu_rank == 1) {
		CHECK_MPI(MPI_Recv_c(buf, BYTES, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &n));
		CHECK(n == BYTES);
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &ni));
		CHECK(ni == MPI_UNDEFINED);
		verify(buf, 1);
	}

	/* rank 1's window holds BYTES bytes: put into it, get back out */
	CHECK_MPI(MPI_Win_allocate_c(tu_rank == 1 ? BYTES : 0, 1, MPI_INFO_NULL,
				     MPI_COMM_WORLD, &win_mem, &win));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	if (tu_rank == 0) {
		fill(buf, 2);
		CHECK_MPI(MPI_Put_c(buf, BYTES, MPI_BYTE, 1, 0, BYTES, MPI_BYTE, win));
		CHECK_MPI(MPI_Win_flush(1, win));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	MPI_Barrier(MPI_COMM_WORLD);
	if (tu_rank == 1)
		verify(win_mem, 2);
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Win_lock_all(0, win));
	if (tu_rank == 0) {
		memset(buf, 0, (size_t)BYTES);
		CHECK_MPI(MPI_Get_c(buf, BYTES, MPI_BYTE, 1, 0, BYTES, MPI_BYTE, win));
		CHECK_MPI(MPI_Win_flush(1, win));
		verify(buf, 2);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
	free(buf);
	MPI_Finalize();
	if (tu_rank == 0)
		printf("ok\n");
	return 0;
}
