# Waits adapt: MPI_Init decides once, from the rank's real affinity mask,
# whether the ranks outnumber the CPUs they may use; then a blocked wait
# spins SHMPI_SPINS_OVERSUBSCRIBED rounds instead of SHMPI_SPINS before it
# sleeps.  With SHMPI_SPINS=10^9 and SHMPI_SPINS_OVERSUBSCRIBED=0, rank 0
# waiting 30 ms in a barrier stays awake (some round of three) when the
# ranks have CPUs enough, and always sleeps when they do not.
. "$SHMPI_TOP/tests/lib.sh"

ncpus=$(nproc)
# expect WANT N ARGS...: run N ranks of "mpit_cvars WANT"
expect() {
	want=$1 n=$2
	shift 2
	run_job "$TMP/out" "$TMP/err" -- -n "$n" --timeout 60 \
		-x SHMPI_SPINS=1000000000 -x SHMPI_SPINS_OVERSUBSCRIBED=0 "$@" \
		"$PROGS/mpit_cvars" "$want"
	expect_eq "$want: -n $n $*: status ($(cat "$TMP/err"))" "$rc" 0
}

[ "$ncpus" -ge 2 ] || skip "one CPU: nothing can run dedicated"
expect spins 2 --bind-to core
expect spins 2 --bind-to none
expect sleeps 2 --bind-to core -x SHMPI_OVERSUBSCRIBED=yes
expect sleeps $((ncpus + 2)) --bind-to core	# bound, but two to a core
expect sleeps $((ncpus + 1)) --bind-to none
# shmrun's own mask of one CPU: two ranks share it
if command -v taskset >/dev/null; then
	taskset -c 0 "$SHMRUN" -n 2 --timeout 60 --bind-to none -x SHMPI_SPINS=1000000000 \
		-x SHMPI_SPINS_OVERSUBSCRIBED=0 "$PROGS/mpit_cvars" sleeps >"$TMP/out" 2>"$TMP/err"
	expect_eq "sleeps: one CPU for 2 ranks: status ($(cat "$TMP/err"))" "$?" 0
	expect_no_shm_left
	# bound by shmrun within its one CPU: the parent's mask counts
	taskset -c 0 "$SHMRUN" -n 2 --timeout 60 --bind-to core -x SHMPI_SPINS=1000000000 \
		-x SHMPI_SPINS_OVERSUBSCRIBED=0 "$PROGS/mpit_cvars" sleeps >"$TMP/out" 2>"$TMP/err"
	expect_eq "sleeps: 2 ranks bound within one CPU: status ($(cat "$TMP/err"))" "$?" 0
	expect_no_shm_left
else
	echo "skip the one-CPU mask: no taskset"
fi
exit 0
