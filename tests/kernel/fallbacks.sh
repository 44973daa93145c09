# What shmpi does where the kernel lacks a recent call or a seccomp filter
# refuses it (README "Kernel features"), each forced with seccomp_deny:
#   - getrandom (Linux 3.17): job ids come from /dev/urandom;
#   - membarrier (4.16) with SHMPI_MEMBARRIER=1: both sides fence, and
#     waits that sleep are still woken (tests/progs/sync_sleep);
#   - the NUMA calls (mbind, get_mempolicy, ...; refused by a container's
#     default profile): no placement, the windows work;
#   - madvise's MADV_POPULATE_READ (5.14): the owner touches each page,
#     and placement is still what it asks for (tests/progs/hw_place).
# Each job must give the result it gives with the call.
. "$SHMPI_TOP/tests/lib.sh"
[ -z "${SHMPI_EMULATED:-}" ] ||
	skip "qemu-user has no seccomp(2): the filter that takes the calls away cannot be set"

deny=$PROGS/seccomp_deny
[ -x "$deny" ] || skip "no $deny (built by make tests)"

bad=
# denied CALLS WANT shmrun-args...: run_case under the filter
denied() {
	denied_calls=$1 denied_want=$2
	shift 2
	"$deny" "$denied_calls" "$SHMRUN" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_no_shm_left "the job without $denied_calls"
	if [ "$rc" -ne 0 ] || [ "$(cat "$TMP/out")" != "$denied_want" ]; then
		echo "without $denied_calls: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad $denied_calls"
	fi
}

for err in ENOSYS EPERM; do
	denied getrandom=$err "rank 0 of 1" -n 1 "$PROGS/run_mpi" ok
done

for err in ENOSYS EPERM; do
	for t in pscw fence barrier; do
		denied membarrier=$err "ok $t" -n 2 --timeout 60 -x SHMPI_MEMBARRIER=1 \
			-x SHMPI_SPINS=0 -x SHMPI_YIELDS=0 "$PROGS/sync_sleep" $t 2000
	done
done

numa=get_mempolicy=EPERM,set_mempolicy=EPERM,mbind=EPERM,move_pages=EPERM
for p in owner interleave local; do
	denied $numa "ok modes
ok large
ok atomicity
ok exclusive
ok shared
ok create
ok derived
ok errors" -n 3 --timeout 60 -x SHMPI_NUMA=$p "$PROGS/rma_basic"
done

denied madvise=EINVAL ok -n 2 --timeout 60 "$PROGS/hw_place" - owner
denied madvise=EINVAL ok -n 2 --timeout 60 "$PROGS/hw_place" interleave interleave

[ -z "$bad" ] || fail "fallbacks:$bad"
exit 0
