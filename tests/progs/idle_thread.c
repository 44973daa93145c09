/*
 * Under strong progress, an idle rank's progress thread sleeps: over a
 * second outside MPI, the CPU time of the process's threads other than the
 * main one stays negligible.  Prints the threads' CPU time in ms.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* utime + stime, in clock ticks, of every thread but the main one. */
static long other_threads_ticks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long total = 0;
	int self = getpid();

	CHECK(d != NULL);
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[1024], *p;
		unsigned long ut, st;
		FILE *f;

		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			   &ut, &st) == 2)
			total += (long)(ut + st);
		fclose(f);
	}
	closedir(d);
	return total;
}

int main(int argc, char **argv)
{
	long before, after, hz = sysconf(_SC_CLK_TCK);
	int threads = 0;
	DIR *d;
	struct dirent *e;

	tu_init(&argc, &argv);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	d = opendir("/proc/self/task");
	while ((e = readdir(d)) != NULL)
		threads += e->d_name[0] != '.';
	closedir(d);
	before = other_threads_ticks();
	tu_sleep_ms(1000);	/* idle, outside MPI */
	after = other_threads_ticks();
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (tu_rank == 0)
		printf("threads %d, other threads' cpu %ld ms\n", threads,
		       (after - before) * 1000 / hz);
	MPI_Finalize();
	return 0;
}
