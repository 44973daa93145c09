# The randomized stress test (tests/progs/stress.c) for a few seconds at 8
# ranks, 16 ranks (oversubscribed on 2 cores) and 8 ranks under strong
# progress: every RMA call and sync mode on four windows at once, p2p between,
# each fetched value and final window checked against a sequential model.
# Its self-test shows that a write outside the program is caught.  Longer
# runs: make stress.
. "$SHMPI_TOP/tests/lib.sh"

seed=${SHMPI_STRESS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
for run in "8 weak 4" "16 weak 4" "8 strong 2"; do
	set -- $run
	run_job "$TMP/out" "$TMP/err" -- -n "$1" --progress="$2" --timeout 90 \
		"$PROGS/stress" "$seed" "$3"
	if [ "$rc" -ne 0 ]; then
		cat "$TMP/out" "$TMP/err"
		fail "stress -n $1 --progress=$2 seed $seed: exit $rc (SHMPI_STRESS_SEED=$seed reruns it)"
	fi
	expect_match "stress -n $1 $2" "$(head -n 1 "$TMP/out")" \
		"^stress: seed $seed, $1 ranks, [1-9][0-9]* phases, [1-9][0-9]* operations, .* matches the model$"
	head -n 1 "$TMP/out"
done

# the check can fail: rank 0 writes where the program does not
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/stress" 9 0 5 1
expect_eq "selftest exit" "$rc" 97
expect_match "selftest" "$(cat "$TMP/err")" \
	"rank 2 seed 9 phase 1: .*window 0 element 3 is 57005.*replay: stress 9 0 2 on 3 ranks"
exit 0
