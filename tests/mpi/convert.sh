# Handle and status conversions between C and Fortran at 1, 2, 3 and 8
# ranks under weak and strong progress: every predefined and null handle,
# objects the program makes (and the null handle once they are freed),
# statuses of real messages and of a cancelled receive kept whole, and the
# error class of converting an IGNORE value.
. "$SHMPI_TOP/tests/lib.sh"

want="ok handles ok statuses ok errors"
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 60 \
			"$PROGS/convert"
		expect_eq "convert -n $n $mode exit ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "convert -n $n $mode" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
			"$want"
	done
done
exit 0
