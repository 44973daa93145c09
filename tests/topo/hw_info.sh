# MPI_Get_hw_resource_info (MPI 4.1): every type it names is "true" exactly
# when a guided split of that type gives the rank a communicator (and
# MPI_COMM_TYPE_RESOURCE_GUIDED splits by process set), at 1, 2,
# 3 and 8 ranks under weak and strong progress (bound core by core while
# the ranks fit the cores, else unbound), and on hwloc's synthetic two
# sockets: "hwloc://Package" is "true" for ranks bound to a socket, "false" for
# unbound ones.
. "$SHMPI_TOP/tests/lib.sh"

"$SHMRUN" --info >"$TMP/info" || fail "shmrun --info: status $?"
ncores=$(grep -c "^ *Core L#" "$TMP/info")

bad=
for n in 1 2 3 8; do
	# the default binding: one core each while they fit, else none
	if [ "$n" -le "$ncores" ]; then
		want=hwloc://Core=true
	elif [ "$ncores" -gt 1 ]; then
		want=hwloc://Core=false
	else
		want=
	fi
	for p in weak strong; do
		run_case "mpi41_hw -n $n $p $want" "ok hw_resource_info" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_hw" $want
	done
done

if [ "$(nproc)" -ge 2 ]; then
	export HWLOC_THISSYSTEM=1 HWLOC_SYNTHETIC="pack:2 core:1 pu:1"
	run_case "two sockets, bound to a socket" "ok hw_resource_info" -- -n 2 \
		--bind-to socket --timeout 120 "$PROGS/mpi41_hw" hwloc://Package=true hwloc://Core=true
	run_case "two sockets, unbound" "ok hw_resource_info" -- -n 2 \
		--bind-to none --timeout 120 "$PROGS/mpi41_hw" hwloc://Package=false hwloc://Core=false
fi

[ -z "$bad" ] || fail "failed:$bad"
exit 0
