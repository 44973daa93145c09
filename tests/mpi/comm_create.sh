# MPI_Comm_create with a different group on each process, at 2 to 8 ranks
# under weak and strong progress (tests/progs/comm_create.c): disjoint
# groups of one, two and uneven sizes, in orders other than the parent's,
# MPI_GROUP_EMPTY and groups that do not hold the caller, on MPI_COMM_WORLD
# and on a reordered parent; MPI_Comm_create_group on the same groups;
# MPI_Comm_create on an intercommunicator.  Each new communicator runs
# collectives, point-to-point and a window (gathered base addresses,
# puts, MPI_Rget into the own memory).  Then overlapping groups: every
# caller gets MPI_ERR_GROUP, or under MPI_ERRORS_ARE_FATAL the job ends
# naming the call and the argument.
. "$SHMPI_TOP/tests/lib.sh"

want="ok singletons
ok pairs
ok uneven
ok same
ok nested
ok create_group
ok inter"
bad=
for mode in weak strong; do
	for n in 2 3 4 5 6 7 8; do
		run_case "valid/$n/$mode" "$want" -- -n $n --progress=$mode --timeout 60 \
			"$PROGS/comm_create"
	done
done
for n in 2 3 4 8; do
	run_case "errors/$n" "ok errors" -- -n $n --timeout 60 "$PROGS/comm_create" errors
done
[ -z "$bad" ] || fail "comm_create:$bad"

# rank 0 passes {0, 1}, rank 1 passes {1}: MPI_ERR_GROUP (class 9) ends the job
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/comm_create" fatal
expect_eq "comm_create fatal exit ($(cat "$TMP/err"))" "$rc" 9
expect_match "comm_create fatal message" "$(cat "$TMP/err")" \
	"MPI_Comm_create: argument group: .*rank 0 passed.*MPI_ERR_GROUP"
exit 0
