/*
 * deny_cma PROG [ARGS]: run PROG with process_vm_readv(2) and
 * process_vm_writev(2) failing with EPERM, as a seccomp filter or a
 * container's policy makes them fail: shmpi must move its large messages
 * another way (src/p2p_copy.c).  Not an MPI program: shmrun starts it as
 * a rank, and it becomes the rank's program.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (argc < 2) {
		fprintf(stderr, "usage: deny_cma PROG [ARGS]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("deny_cma: seccomp");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror("deny_cma: exec");
	return 127;
}
