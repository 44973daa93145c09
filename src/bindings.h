/*
 * The rank's own report of where it may run (SHMRUN_REPORT_BINDINGS).
 */
#ifndef SRC_BINDINGS_H
#define SRC_BINDINGS_H

/* Print one line on stderr: the CPUs sched_getaffinity returns and the hwloc
 * objects they make up.  0, or a negative errno (nothing printed). */
int bindings_report(int rank);

#endif
