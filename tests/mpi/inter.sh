# Intercommunicators at 2+2, 3+5 and 1+7 processes (and 5+3, 7+1): create,
# point-to-point across, every collective with MPI_ROOT / MPI_PROC_NULL
# roots, merge in both orders, dup, split, create, free, error classes;
# once more under strong progress.
. "$SHMPI_TOP/tests/lib.sh"

want="ok create ok p2p ok barrier ok rooted ok collectives ok merge ok dup_split ok errors"
for split in 4:2 8:3 8:1 8:5 8:7; do
	n=${split%:*} a=${split#*:}
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/inter" $a
	expect_eq "inter -n $n ($a+$((n - a))) exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "inter -n $n ($a+$((n - a)))" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"$want"
done

# the same with a progress thread per rank
run_job "$TMP/out" "$TMP/err" -- -n 8 --progress=strong --timeout 120 "$PROGS/inter" 3
expect_eq "inter -n 8 (3+5), strong progress exit ($(cat "$TMP/err"))" "$rc" 0
expect_eq "inter -n 8 (3+5), strong progress" \
	"$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"

# An error under MPI_ERRORS_ARE_FATAL names the call, the argument and the
# class, and ends the job with the class as exit status.
run_job "$TMP/out" "$TMP/err" -- -n 4 --timeout 60 "$PROGS/inter" 2 fatal
expect_eq "inter fatal exit ($(cat "$TMP/err"))" "$rc" 8
expect_match "inter fatal message" "$(cat "$TMP/err")" "MPI_Bcast.*root.*MPI_ERR_ROOT"
exit 0
