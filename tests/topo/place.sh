# NUMA placement of window portions and MPI_Alloc_mem memory, as the info key
# shmpi_numa, the knob SHMPI_NUMA (from the environment or written through
# MPI_T) or the default (owner) say, checked with the kernel's answer
# (get_mempolicy, move_pages; see tests/progs/hw_place.c).
. "$SHMPI_TOP/tests/lib.sh"
[ -z "${SHMPI_EMULATED:-}" ] ||
	skip "qemu-user has no mbind, get_mempolicy nor move_pages: nothing to place"

# place N INFO WANT [ARGS...]: hw_place on N ranks must say ok
place() {
	n=$1 info=$2 want=$3
	shift 3
	run_job "$TMP/out" "$TMP/err" -- -n "$n" --timeout 60 "$@" "$PROGS/hw_place" \
		"$info" "$want"
	expect_eq "-n $n info $info, $*: status ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "-n $n info $info, $*: output" "$(cat "$TMP/out")" ok
}

for n in 1 2 3; do
	place $n - owner
done
for p in owner interleave local none; do
	place 2 $p $p
done
place 2 - interleave -x SHMPI_NUMA=interleave
place 2 owner owner -x SHMPI_NUMA=interleave	# the info key wins
place 2 far owner				# an unknown hint is ignored
place 2 - none --bind-to none -x SHMPI_NUMA=none

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$PROGS/hw_place" - local mpit
expect_eq "SHMPI_NUMA written through MPI_T: status ($(cat "$TMP/err"))" "$rc" 0
exit 0
