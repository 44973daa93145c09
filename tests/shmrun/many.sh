# More ranks than CPUs is normal: 8 ranks (and 64) run fine, with no
# warning unless --verbose.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

run_job "$TMP/out" "$TMP/err" -- -n 8 sh -c 'echo $SHMPI_RANK'
expect_eq "8 ranks: status" "$rc" 0
expect_eq "8 ranks: output" "$(sort -n "$TMP/out" | tr '\n' ' ')" "0 1 2 3 4 5 6 7 "
expect_eq "8 ranks: stderr" "$(cat "$TMP/err")" ""

run_job "$TMP/out" "$TMP/err" -- -n 64 --tag-output echo hi
expect_eq "64 ranks: status" "$rc" 0
expect_eq "64 ranks: lines" "$(sort -u "$TMP/out" | wc -l)" 64

cpus=$(nproc)
if [ "$cpus" -lt 8 ]; then
	run_job "$TMP/out" "$TMP/err" -- -n 8 --verbose true
	expect_eq "verbose: status" "$rc" 0
	expect_match "verbose: oversubscription" "$(cat "$TMP/err")" "8 ranks on $cpus CPUs"
fi
exit 0
