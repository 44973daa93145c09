# MPI ranks under shmrun: a clean run at 8 ranks (on 2 cores too), a rank
# that exits 0 between MPI_Init and MPI_Finalize, and MPI_Abort.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

[ -x "$PROGS/run_mpi" ] || skip "no $PROGS/run_mpi (built by make tests with the library)"

run_job "$TMP/out" "$TMP/err" -- -n 8 "$PROGS/run_mpi" ok
expect_eq "ok: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "ok: ranks" "$(sort "$TMP/out" | tr '\n' ' ')" \
	"rank 0 of 8 rank 1 of 8 rank 2 of 8 rank 3 of 8 rank 4 of 8 rank 5 of 8 rank 6 of 8 rank 7 of 8 "
expect_eq "ok: stderr" "$(cat "$TMP/err")" ""

# rank 1 leaves without MPI_Finalize: a failure, the others are ended
start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 4 "$PROGS/run_mpi" no-finalize 1
expect_eq "no MPI_Finalize: status" "$rc" 1
expect_faster "ending the other ranks" "$start" 10
expect_eq "no MPI_Finalize: stderr" "$(cat "$TMP/err")" \
	"shmrun: rank 1 exited before MPI_Finalize"

# MPI_Abort(MPI_COMM_WORLD, 7) in rank 2 of 4
start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 4 "$PROGS/run_mpi" abort 2 7
expect_eq "MPI_Abort: status" "$rc" 7
expect_faster "ending the other ranks" "$start" 10
expect_match "MPI_Abort: message" "$(cat "$TMP/err")" \
	"shmrun: rank 2 called MPI_Abort \(error code 7\)"
expect_eq "MPI_Abort: one line from shmrun" "$(grep -c '^shmrun:' "$TMP/err")" 1
expect_eq "MPI_Abort: output" "$(cat "$TMP/out")" "rank 2 leaves"

# an error code that is 0 as an exit status still fails the job
run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/run_mpi" abort 0 256
expect_eq "MPI_Abort(256): status" "$rc" 1
expect_match "MPI_Abort(256): message" "$(cat "$TMP/err")" \
	"shmrun: rank 0 called MPI_Abort \(error code 256\)"
exit 0
