# The persistent collectives (MPI 4.1, section 6.13) at 1, 2, 3 and 8
# ranks under weak and strong progress: every init call started round
# after round with the buffers changed between rounds and each round's
# result checked, persistent and nonblocking collectives interleaved on one
# communicator, MPI_Startall, freeing, the neighbourhood forms, an
# intercommunicator, and the errors (at init, naming the call; starting or
# freeing an active request).
. "$SHMPI_TOP/tests/lib.sh"

bad=
want="ok bcast_reduce
ok scan
ok moving
ok reduce_scatter
ok interleave
ok free
ok neighbor"
for mode in weak strong; do
	for n in 1 2 3 8; do
		w="$want"
		# the intercommunicator case needs two processes
		[ $n -ge 2 ] && w="$w
ok inter"
		run_case "coll_persist -n $n $mode" "$w
ok errors" -- -n $n --progress=$mode --timeout 120 "$PROGS/coll_persist" all $mode
	done
done
[ -z "$bad" ] || fail "failed:$bad"

# An argument error at init under MPI_ERRORS_ARE_FATAL: the message names
# the init call, the argument and the class; the class is the exit status.
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/coll_persist" fatal
expect_eq "coll_persist fatal exit ($(cat "$TMP/err"))" "$rc" 8
expect_match "coll_persist fatal message" "$(cat "$TMP/err")" \
	"MPI_Bcast_init.*root.*MPI_ERR_ROOT"
exit 0
