# Attributes and error classes at 1, 2, 3 and 8 ranks under weak and strong
# progress: the deprecated communicator attribute calls, attributes on
# derived and predefined datatypes with their callbacks (the last one
# deleted by MPI_Finalize), the error classes and codes a program adds,
# MPI_Pcontrol, and the error cases; then an added code raised under
# MPI_ERRORS_ARE_FATAL ends the job with its text.
. "$SHMPI_TOP/tests/lib.sh"

want="ok deprecated ok type_attr ok errclass ok pcontrol ok errors finalize deleted 77"
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 60 \
			"$PROGS/attrs"
		expect_eq "attrs -n $n $mode exit ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "attrs -n $n $mode" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
			"$want"
	done
done

# the first class a process adds is MPI_ERR_LASTCODE + 1, its code the next:
# the job ends with the code's status and the program's text
last=$(sed -n 's/^#define MPI_ERR_LASTCODE \([0-9]*\)$/\1/p' "$SHMPI_TOP/include/mpi.h")
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/attrs" fatal
expect_eq "fatal user code status" "$rc" $((last + 2))
expect_match "fatal user code message" "$(cat "$TMP/err")" \
	"shmpi: rank 2: MPI_Comm_call_errhandler: raised by the program \[user error code $((last + 2)) of class $((last + 1)): the program's own trouble\]"
grep -q survived "$TMP/out" && fail "the rank that raised the code went on"
exit 0
