# Generalized requests at 1, 2, 3 and 8 ranks under weak and strong
# progress: the callbacks run when MPI-3.1 section 12.2 says, through every
# completion call; threads of the program complete requests while the rank
# waits (asleep on its doorbell too), next to point-to-point requests of a
# derived datatype; cancel, free before and after completion, the error
# cases.  Then a rank that waits for its own thread for longer than the
# watchdog's timeout, while the others wait in a barrier, is no deadlock.
. "$SHMPI_TOP/tests/lib.sh"

want="ok callbacks ok thread ok sets ok cancel ok free ok errors"
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 60 \
			"$PROGS/grequest"
		expect_eq "grequest -n $n $mode exit ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "grequest -n $n $mode" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
			"$want"
	done
done

run_job "$TMP/out" "$TMP/err" -- -n 3 --deadlock-timeout 1 --timeout 30 \
	"$PROGS/grequest" slow 2500
expect_eq "grequest slow exit ($(cat "$TMP/err"))" "$rc" 0
expect_eq "grequest slow" "$(cat "$TMP/out")" "ok slow"
exit 0
