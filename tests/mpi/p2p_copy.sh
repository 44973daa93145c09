# Large messages through each way their data can move (SHMPI_SINGLE_COPY:
# auto, cma, mapped, pipeline; README, "Large messages"), checked byte for
# byte and, through MPI_T, by the way each message took
# (tests/progs/p2p_copy.c): sizes around the eager limit,
# SHMPI_SINGLE_COPY_MIN and the channels' chunk, derived datatypes,
# MPI_ANY_SOURCE, truncation, synchronous sends, matched probes, messages
# to oneself, copies shared with the sender (SHMPI_SINGLE_COPY_SHARE, also
# off, low and with process_vm_writev refused); the point-to-point and
# collective suites under each; and the fallback when process_vm_readv is refused (a seccomp filter:
# tests/progs/seccomp_deny.c), which shmrun --verbose reports.
. "$SHMPI_TOP/tests/lib.sh"

# qemu-user (make check ARCH=aarch64) does not emulate process_vm_readv:
# there the ranks find it refused, as under the seccomp filter below
cma=
[ -z "${SHMPI_EMULATED:-}" ] || cma=nocma
bad=
for mech in auto cma mapped pipeline; do
	for n in 1 2 3 8; do
		run_case "p2p_copy $mech -n $n" \
			"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
			-- -n $n --timeout 120 -x SHMPI_SINGLE_COPY=$mech "$PROGS/p2p_copy" $cma
	done
	run_case "p2p_copy $mech strong" \
		"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
		-- -n 3 --progress=strong --timeout 120 -x SHMPI_SINGLE_COPY=$mech "$PROGS/p2p_copy" $cma
	run_case "p2p_calls $mech" \
		"$(printf 'ok %s\n' sizes any ordering tags truncation ssend rsend probe persistent cancel completion sent proc_null replace pairs errors)" \
		-- -n 3 --timeout 120 -x SHMPI_SINGLE_COPY=$mech "$PROGS/p2p_calls"
	run_case "p2p_calls huge $mech" "ok huge" \
		-- -n 3 --timeout 120 -x SHMPI_SINGLE_COPY=$mech "$PROGS/p2p_calls" huge
	run_job "$TMP/out" "$TMP/err" -- -n 4 --timeout 120 -x SHMPI_SINGLE_COPY=$mech \
		"$PROGS/coll_all"
	if [ "$rc" -ne 0 ] || grep -qv '^ok ' "$TMP/out" || [ ! -s "$TMP/out" ]; then
		echo "coll_all $mech: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad coll_all/$mech"
	fi
done

# the threshold moved below and above the channels' chunk
for min in 8193 65536; do
	run_case "p2p_copy min $min" \
		"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
		-- -n 2 --timeout 120 -x SHMPI_SINGLE_COPY_MIN=$min "$PROGS/p2p_copy" $cma
done

# the copy shared with the sender (SHMPI_SINGLE_COPY_SHARE): off, from the
# smallest one-copy message up, under strong progress
for share in 0 16384; do
	for mode in weak strong; do
		run_case "p2p_copy share $share $mode" \
			"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
			-- -n 2 --progress=$mode --timeout 120 -x SHMPI_SINGLE_COPY_SHARE=$share \
			"$PROGS/p2p_copy" $cma
	done
done

# process_vm_readv refused: the rank stops trying, the messages come
# through the channels (or from mapped memory), and shmrun says so (a
# seccomp filter; qemu-user refuses it already, and has no seccomp(2))
[ -z "$cma" ] || { [ -z "$bad" ] || fail "single copy:$bad"; exit 0; }
for mech in auto cma; do
	run_case "p2p_copy refused, $mech" \
		"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
		-- -n 3 --timeout 120 --verbose -x SHMPI_SINGLE_COPY=$mech \
		"$PROGS/seccomp_deny" process_vm_readv=EPERM,process_vm_writev=EPERM "$PROGS/p2p_copy" nocma
	grep -q '^shmrun: single copy of large messages: .*process_vm_readv refused' "$TMP/err" ||
		{ echo "refused, $mech: not reported: $(cat "$TMP/err")"; bad="$bad verbose/$mech"; }
done
# only process_vm_writev refused: a sender gives its chunk back and stops
# helping; the receivers copy everything
for n in 2 3; do
	run_case "p2p_copy push refused -n $n" \
		"$(printf 'ok %s\n' sizes any_source derived truncation modes share mechanisms)" \
		-- -n $n --timeout 120 "$PROGS/seccomp_deny" process_vm_writev=EPERM \
		"$PROGS/p2p_copy" nopush
done
run_case "p2p_calls refused" \
	"$(printf 'ok %s\n' sizes any ordering tags truncation ssend rsend probe persistent cancel completion sent proc_null replace pairs errors)" \
	-- -n 3 --timeout 120 "$PROGS/seccomp_deny" process_vm_readv=EPERM,process_vm_writev=EPERM "$PROGS/p2p_calls"

# --verbose when it works
run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 --verbose "$PROGS/p2p_copy"
grep -q '^shmrun: single copy of large messages: copied from mapped memory; copied with process_vm_readv$' "$TMP/err" ||
	{ echo "verbose: $(cat "$TMP/err")"; bad="$bad verbose"; }
[ -z "$bad" ] || fail "single copy:$bad"
exit 0
