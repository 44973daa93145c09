# shmrun where io_uring is refused: under a seccomp filter that fails
# io_uring_setup with EPERM (as a container's default profile does) or
# ENOSYS (a kernel without it), and with kernel.io_uring_disabled=2 when
# this runs as root and the kernel has the sysctl.  SHMRUN_EVENT_LOOP=auto
# falls back to epoll at once and silently, the job gives the right result,
# --verbose says why; a forced io_uring is an error that says what is
# missing.  (README "Kernel features".)
. "$SHMPI_TOP/tests/lib.sh"
[ -z "${SHMPI_EMULATED:-}" ] ||
	skip "qemu-user has no seccomp(2): the filter that takes the calls away cannot be set"

deny=$PROGS/seccomp_deny
[ -x "$deny" ] || skip "no $deny (built by make tests)"
[ -x "$PROGS/run_mpi" ] || skip "no $PROGS/run_mpi (built by make tests with the library)"
export SHMRUN_EVENT_LOOP=auto

want="rank 0 of 4 rank 1 of 4 rank 2 of 4 rank 3 of 4 "

# check_job WHAT: the MPI job of $TMP/out and $TMP/err ran right, silently
check_job() {
	expect_eq "$1: status ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "$1: ranks" "$(sort "$TMP/out" | tr '\n' ' ')" "$want"
	expect_eq "$1: stderr" "$(cat "$TMP/err")" ""
}

for err in EPERM ENOSYS; do
	case $err in
	EPERM) why="Operation not permitted" ;;
	ENOSYS) why="Function not implemented" ;;
	esac
	"$deny" io_uring_setup=$err "$SHMRUN" -n 4 "$PROGS/run_mpi" ok >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_no_shm_left "the job without io_uring ($err)"
	check_job "io_uring_setup $err"

	"$deny" io_uring_setup=$err "$SHMRUN" --verbose -n 2 true >"$TMP/out" 2>"$TMP/err"
	expect_eq "io_uring_setup $err, verbose: status" "$?" 0
	expect_match "io_uring_setup $err, verbose" "$(cat "$TMP/err")" \
		"^shmrun: event loop: epoll \\(io_uring unavailable: $why\\)$"

	expect_eq "io_uring_setup $err, forced io_uring: status" \
		"$(SHMRUN_EVENT_LOOP=io_uring "$deny" io_uring_setup=$err "$SHMRUN" -n 2 true \
		   >"$TMP/out" 2>"$TMP/err"; echo $?)" 125
	expect_match "io_uring_setup $err, forced io_uring: message" "$(cat "$TMP/err")" \
		'^shmrun: SHMRUN_EVENT_LOOP=io_uring, but io_uring is unavailable: .*Linux 5\.6'
	expect_eq "io_uring_setup $err, forced io_uring: stdout" "$(cat "$TMP/out")" ""
	expect_no_shm_left "the forced io_uring job ($err)"
done

# where io_uring works, auto takes it
if SHMRUN_EVENT_LOOP=io_uring "$SHMRUN" -n 1 true 2>/dev/null; then
	"$SHMRUN" --verbose -n 1 true 2>"$TMP/err"
	expect_match "auto with io_uring" "$(cat "$TMP/err")" "^shmrun: event loop: io_uring$"
fi

# kernel.io_uring_disabled=2 (Linux 6.6): io_uring refused to every process.
# The sysctl is the whole machine's: set for one job, put back at once and
# on every way out of this script.
sysctl=/proc/sys/kernel/io_uring_disabled
if [ "$(id -u)" -ne 0 ] || [ ! -w "$sysctl" ]; then
	echo "kernel.io_uring_disabled: not tried (needs root and the sysctl)"
	exit 0
fi
old=$(cat "$sysctl")
trap 'echo "$old" >"$sysctl"; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP
echo 2 >"$sysctl" || fail "cannot set kernel.io_uring_disabled"
"$SHMRUN" --verbose -n 4 "$PROGS/run_mpi" ok >"$TMP/out" 2>"$TMP/err"
rc=$?
echo "$old" >"$sysctl"
expect_no_shm_left "the job under kernel.io_uring_disabled=2"
expect_eq "io_uring_disabled=2: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "io_uring_disabled=2: ranks" "$(sort "$TMP/out" | tr '\n' ' ')" "$want"
expect_match "io_uring_disabled=2: verbose" "$(cat "$TMP/err")" \
	"^shmrun: event loop: epoll \\(io_uring unavailable: Operation not permitted\\)$"
expect_eq "kernel.io_uring_disabled put back" "$(cat "$sysctl")" "$old"
exit 0
