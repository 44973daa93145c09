# MPI_Comm_split_type with MPI_COMM_TYPE_HW_GUIDED and _HW_UNGUIDED: the
# communicators the topology implies, from the ranks' real bindings (ranks
# bound core by core, unbound, two per core); MPI_COMM_TYPE_SHARED stays the
# whole job.  Expected sizes come from `shmrun --info` (assuming the cores
# are spread evenly over the packages, NUMA nodes and caches).
. "$SHMPI_TOP/tests/lib.sh"

"$SHMRUN" --info >"$TMP/info" || fail "shmrun --info: status $?"
count() {
	grep -c "^ *$1 L#" "$TMP/info"
}
ncores=$(count Core)
npus=$(count PU)
types="Package NUMANode L3Cache L2Cache Core PU"

# split N ARGS...: every rank's line "R SPEC ..." into $TMP/got
split() {
	n=$1
	shift
	run_job "$TMP/out" "$TMP/err" -- -n "$n" "$@" --timeout 60 "$PROGS/hw_split" \
		guided guided:Board guided:mpi_shared_memory shared unguided \
		$(for t in $types; do echo guided:$t; done)
	expect_eq "$* -n $n: status ($(cat "$TMP/err"))" "$rc" 0
	sort -n "$TMP/out" >"$TMP/got"
}

# expect SPEC WANT: every rank printed "R SPEC WANT"
expect() {
	lines=$(grep -c " $1 $2\$" "$TMP/got")
	expect_eq "$what: $1 ($(grep " $1 " "$TMP/got" | tr '\n' ';'))" "$lines" "$n"
}

common() {
	expect guided null
	expect guided:Board null
	expect guided:mpi_shared_memory "size $n type mpi_shared_memory"
	expect shared "size $n type -"
}

# one rank per core: an object of type T holds ncores / count(T) of them
what="one rank per core"
split "$ncores" --bind-to core
common
unguided=
for t in $types; do
	k=$(count $t)
	[ "$k" -gt 0 ] || { echo "skip guided:$t: this machine has no $t"; continue; }
	if [ $t = PU ] && [ "$npus" -gt "$ncores" ]; then
		expect guided:PU null	# a core's hardware threads: spans several
		continue
	fi
	expect guided:$t "size $((ncores / k)) type $t"
	# unguided: the first level, from the top, with more than one object
	[ -z "$unguided" ] && [ "$k" -gt 1 ] && unguided=$t
done
if [ -n "$unguided" ]; then
	expect unguided "size $((ncores / $(count $unguided))) type $unguided"
else
	expect unguided null
fi

# unbound: a rank lies within an object only when there is one of its type
what="unbound"
split 2 --bind-to none
common
for t in $types; do
	k=$(count $t)
	[ "$k" -gt 0 ] || continue
	if [ "$k" -eq 1 ]; then
		expect guided:$t "size 2 type $t"
	else
		expect guided:$t null
	fi
done
expect unguided null

# two ranks per core
what="two ranks per core"
split $((2 * ncores)) --bind-to core
expect guided:Core "size 2 type Core"
expect shared "size $n type -"
exit 0
