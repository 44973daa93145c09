# MPI_Win_create and MPI_Win_attach on whole pages of private memory, made
# shared memory while the window lives (README, "What is implemented":
# windows on private memory made shared; tests/progs/win_adopt.c): adopted
# at 2, 3 and 4 ranks, weak and strong progress; left as it is at one rank,
# in the adversarial mode, with SHMPI_WIN_CREATE_SHARE=0 and below the
# windows' size; shmrun --verbose says so; a rank killed with adopted pages
# leaves nothing in /dev/shm (run_job checks every job).
. "$SHMPI_TOP/tests/lib.sh"

all="$(printf 'ok %s\n' adopt refuse twice free_mem send dynamic finalize)"
bad=
for cfg in "2 weak shared" "4 weak shared" "3 strong shared" "1 weak private" \
	   "2 strong private -x SHMPI_WIN_CREATE_SHARE=0" \
	   "3 weak private -x SHMPI_WIN_CREATE_SHARE=4096" \
	   "2 weak private --adversarial 7"; do
	set -- $cfg
	n=$1 mode=$2 want=$3
	shift 3
	run_case "$cfg" "$all" -- -n $n --progress=$mode --timeout 60 "$@" \
		"$PROGS/win_adopt" all $want
done

# shmrun --verbose says when windows took private pages, and only then
for want in shared private; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 --verbose \
		-x SHMPI_WIN_CREATE_SHARE=$([ $want = shared ] && echo 1073741824 || echo 0) \
		"$PROGS/win_adopt" adopt $want
	n=$(grep -c '^shmrun: windows on private memory: MPI_Win_create made whole pages shared' "$TMP/err")
	[ "$rc" -eq 0 ] && [ "$n" = "$([ $want = shared ] && echo 1 || echo 0)" ] ||
		{ echo "verbose $want: exit $rc: $(cat "$TMP/err")"; bad="$bad verbose/$want"; }
done

run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/win_adopt" crash shared
[ "$rc" -ne 0 ] || { echo "crash: exit 0"; bad="$bad crash"; }
grep -q "rank 1" "$TMP/err" || { echo "crash: $(cat "$TMP/err")"; bad="$bad crash"; }
[ -z "$bad" ] || fail "win_adopt:$bad"
exit 0
