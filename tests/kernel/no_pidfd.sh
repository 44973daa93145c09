# shmrun without pidfds, as on a kernel before Linux 5.3 (pidfd_open) and
# 5.1 (pidfd_send_signal): the ranks are reaped on SIGCHLD and signalled by
# pid.  Every script of tests/shmrun runs again under a seccomp filter that
# fails both calls with ENOSYS, under each event loop, and must pass as it
# does with pidfds; --verbose says it.  (README "Kernel features".)
. "$SHMPI_TOP/tests/lib.sh"
[ -z "${SHMPI_EMULATED:-}" ] ||
	skip "qemu-user has no seccomp(2): the filter that takes the calls away cannot be set"

deny=$PROGS/seccomp_deny
[ -x "$deny" ] || skip "no $deny (built by make tests)"
nopidfd="pidfd_open=ENOSYS,pidfd_send_signal=ENOSYS"

timeout -k 5 60 "$deny" $nopidfd "$SHMRUN" --verbose -n 2 true >"$TMP/out" 2>"$TMP/err"
expect_eq "verbose: status" "$?" 0
expect_match "verbose" "$(cat "$TMP/err")" \
	'^shmrun: no pidfds \(pidfd_open: Function not implemented\): the ranks are reaped on SIGCHLD$'
expect_no_shm_left "the verbose job"

bad=
for loop in io_uring epoll; do
	if ! SHMRUN_EVENT_LOOP=$loop "$SHMRUN" -n 1 true 2>/dev/null; then
		echo "$loop: not on this machine"
		continue
	fi
	for t in "$SHMPI_TOP"/tests/shmrun/*.sh; do
		SHMRUN_EVENT_LOOP=$loop timeout -k 5 60 "$deny" $nopidfd sh "$t" \
			>"$TMP/log" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
			echo "$(basename "$t") [$loop] without pidfds: exit $rc"
			sed 's/^/    /' "$TMP/log"
			bad="$bad $(basename "$t")[$loop]"
		fi
	done
done
[ -z "$bad" ] || fail "without pidfds:$bad"
exit 0
