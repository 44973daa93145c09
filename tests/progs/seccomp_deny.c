/*
 * seccomp_deny CALL=ERRNO[,CALL=ERRNO...] prog [args]: run prog with the
 * named system calls failing with the given errno, as under a container's
 * seccomp profile or on a kernel that lacks them (ENOSYS).  The filter
 * (seccomp(2), SECCOMP_SET_MODE_FILTER, after PR_SET_NO_NEW_PRIVS, so no
 * privilege is needed) is inherited by every child, the ranks of a job
 * started under it included.  Not an MPI program: the tests of shmpi's
 * fallbacks (README "Kernel features") start shmrun with it.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define DENY_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define DENY_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp_deny: add this architecture's AUDIT_ARCH_"
#endif

#define DENY_MAX 16

static const struct {
	const char *name;
	long nr;
} deny_calls[] = {
	{ "io_uring_setup", SYS_io_uring_setup },
	{ "io_uring_enter", SYS_io_uring_enter },
	{ "io_uring_register", SYS_io_uring_register },
	{ "pidfd_open", SYS_pidfd_open },
	{ "pidfd_send_signal", SYS_pidfd_send_signal },
	{ "membarrier", SYS_membarrier },
	{ "getrandom", SYS_getrandom },
	{ "get_mempolicy", SYS_get_mempolicy },
	{ "set_mempolicy", SYS_set_mempolicy },
	{ "mbind", SYS_mbind },
	{ "move_pages", SYS_move_pages },
	{ "madvise", SYS_madvise },
	{ "process_vm_readv", SYS_process_vm_readv },
	{ "process_vm_writev", SYS_process_vm_writev },
	{ "epoll_create1", SYS_epoll_create1 },
};

static const struct {
	const char *name;
	int err;
} deny_errnos[] = {
	{ "EPERM", EPERM }, { "ENOSYS", ENOSYS }, { "EACCES", EACCES },
	{ "EINVAL", EINVAL }, { "ENOMEM", ENOMEM },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static long deny_nr(const char *name, size_t len)
{
	for (size_t i = 0; i < COUNT(deny_calls); i++) {
		if (strlen(deny_calls[i].name) == len && !strncmp(deny_calls[i].name, name, len))
			return deny_calls[i].nr;
	}
	return -1;
}

static int deny_errno(const char *name, size_t len)
{
	for (size_t i = 0; i < COUNT(deny_errnos); i++) {
		if (strlen(deny_errnos[i].name) == len && !strncmp(deny_errnos[i].name, name, len))
			return deny_errnos[i].err;
	}
	return -1;
}

static int usage(const char *what)
{
	fprintf(stderr, "seccomp_deny: %s\n"
		"usage: seccomp_deny CALL=ERRNO[,CALL=ERRNO...] prog [args]\n", what);
	return 125;
}

int main(int argc, char **argv)
{
	/* the architecture, then a test and a return per call, then allow */
	struct sock_filter code[3 + 2 * DENY_MAX + 1];
	struct sock_fprog prog = { 0, code };
	const char *p;
	size_t n = 0;

	if (argc < 3)
		return usage("too few arguments");
	code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	/* another ABI's calls have other numbers: let them be */
	code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, DENY_ARCH, 1, 0);
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (p = argv[1]; *p; ) {
		size_t len = strcspn(p, ","), clen = strcspn(p, "=");
		long nr;
		int err;

		if (clen >= len)
			return usage("want CALL=ERRNO");
		nr = deny_nr(p, clen);
		err = deny_errno(p + clen + 1, len - clen - 1);
		if (nr < 0 || err < 0)
			return usage("unknown system call or errno");
		if (n + 2 >= COUNT(code))
			return usage("too many calls");
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							 (unsigned)nr, 0, 1);
		code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							 SECCOMP_RET_ERRNO | (unsigned)err);
		p += len + (p[len] == ',');
	}
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("seccomp_deny: PR_SET_NO_NEW_PRIVS");
		return 125;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		perror("seccomp_deny: seccomp");
		return 125;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "seccomp_deny: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
