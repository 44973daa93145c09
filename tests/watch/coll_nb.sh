# A nonblocking collective leaves work to the engine: a rank outside MPI
# after MPI_Ibcast is named after it when the watchdog reports the
# weak-progress stall it causes (another rank's receive needs its engine:
# its data comes through the channels, SHMPI_SINGLE_COPY=pipeline; copied
# once by the receiver it would not, tests/watch/stall.sh).
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

watch_job "isend, ibcast and compute, report" 0 -n 2 --progress=weak \
	--stall-action=report -x SHMPI_SINGLE_COPY=pipeline "$PROGS/coll_nb" watch weak
has_line "stall reported" 'weak-progress stall: rank 1 waits for work that only the MPI engine of rank 0 can do'
has_line "named after its MPI_Ibcast" 'rank 0 has been outside MPI for [0-9.]+ s since MPI_Ibcast$'
expect_match "completed" "$(cat "$TMP/out")" "^ok watch$"

# strong progress: no stall
watch_job "isend, ibcast and compute, strong" 0 -n 2 --progress=strong \
	"$PROGS/coll_nb" watch strong
expect_eq "isend, ibcast and compute, strong: stderr" "$err" ""
exit 0
