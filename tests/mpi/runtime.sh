# The runtime calls under shmrun at 1, 3 and 8 ranks, as a singleton, and
# with each thread level; error handlers; fatal errors end the job.
. "$SHMPI_TOP/tests/lib.sh"

# singleton: no shmrun, a job of one rank
"$PROGS/rt_basic" >"$TMP/out" 2>"$TMP/err" || fail "singleton: $(cat "$TMP/err")"
expect_eq "singleton output" "$(cat "$TMP/out")" "rank 0 of 1 ok"
expect_no_shm_left "a singleton"

for n in 1 3 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n "$PROGS/rt_basic"
	expect_eq "rt_basic -n $n exit" "$rc" 0
	expect_eq "rt_basic -n $n ranks" "$(sort "$TMP/out" | tr '\n' ' ')" \
		"$(i=0; while [ $i -lt $n ]; do echo "rank $i of $n ok"; i=$((i + 1)); done | sort | tr '\n' ' ')"
	[ -s "$TMP/err" ] && fail "rt_basic -n $n wrote to stderr: $(cat "$TMP/err")"
done

for level in 0 1 2 3; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/rt_basic" $level
	expect_eq "MPI_Init_thread($level)" "$rc" 0
done

run_job "$TMP/out" "$TMP/err" -- -n 3 "$PROGS/rt_errors"
expect_eq "rt_errors exit ($(cat "$TMP/err"))" "$rc" 0
expect_eq "rt_errors lines" "$(wc -l <"$TMP/out")" 3

# MPI_ERRORS_ARE_FATAL: the message names rank, call, argument and class,
# the job ends with the class as status, and the sleeping ranks are killed
start=$(date +%s)
run_job "$TMP/out" "$TMP/err" -- -n 4 "$PROGS/rt_errors" fatal 2
expect_eq "fatal error status" "$rc" 5
expect_match "fatal message" "$(cat "$TMP/err")" \
	"shmpi: rank 2: MPI_Comm_size: argument comm: is MPI_COMM_NULL \[MPI_ERR_COMM: invalid communicator\]"
expect_match "launcher names the rank" "$(cat "$TMP/err")" "rank 2"
grep -q survived "$TMP/out" && fail "the erroneous rank went on"
[ $(( $(date +%s) - start )) -lt 20 ] || fail "the other ranks were not ended promptly"

# calling MPI before MPI_Init is an error that ends the job
run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/rt_errors" before
[ "$rc" -ne 0 ] || fail "MPI before MPI_Init succeeded"
expect_match "before-init message" "$(cat "$TMP/err")" "MPI_Comm_rank called before MPI_Init"
exit 0
