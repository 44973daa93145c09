# The fuzz driver (tests/progs/fuzz_mpi.c) for a few seconds at 3 ranks and
# at 8 ranks on 2 cores: every call returns success or an error class, every
# defect an error, and no window, guard or buffer changes.  Its self-tests
# show that a wrong success and a corrupted window are caught.  Longer runs:
# make fuzz.
. "$SHMPI_TOP/tests/lib.sh"

seed=${SHMPI_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
for run in "3 3" "8 2"; do
	n=${run% *} secs=${run#* }
	run_job "$TMP/out" "$TMP/err" -- -n "$n" --timeout 60 "$PROGS/fuzz_mpi" "$seed" "$secs"
	if [ "$rc" -ne 0 ]; then
		cat "$TMP/out" "$TMP/err"
		fail "fuzz_mpi -n $n seed $seed: exit $rc (SHMPI_FUZZ_SEED=$seed reruns it)"
	fi
	expect_match "fuzz -n $n" "$(cat "$TMP/out")" \
		"^fuzz: seed $seed, $n ranks, [0-9]+ rounds, [1-9][0-9]* executions .*intact$"
	cat "$TMP/out"
done

# the checks can fail: a success where an error is due, a window changed
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/fuzz_mpi" 7 0 3 1
expect_eq "selftest 1 exit" "$rc" 98
expect_match "selftest 1" "$(cat "$TMP/err")" "seed 7 round [0-9]+ execution [0-9]+ .*returned MPI_SUCCESS"
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/fuzz_mpi" 7 0 3 2
expect_eq "selftest 2 exit" "$rc" 98
expect_match "selftest 2" "$(cat "$TMP/err")" "rank 2's window 0 changed at byte 8"
exit 0
