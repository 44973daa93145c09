# Binding, reports and hardware splits on machines this one is not, through
# hwloc's synthetic topologies (HWLOC_SYNTHETIC, with HWLOC_THISSYSTEM=1 so
# that binding still acts on this machine's CPUs 0 and 1): two sockets, two
# NUMA nodes, and an object the machine lacks (a clear error, status 125).
. "$SHMPI_TOP/tests/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
export HWLOC_THISSYSTEM=1

# job TOPOLOGY N ARGS...: run N ranks of hw_split with --report-bindings
job() {
	topo=$1 n=$2
	shift 2
	HWLOC_SYNTHETIC=$topo run_job "$TMP/out" "$TMP/err" -- -n "$n" --timeout 60 \
		--report-bindings "$@" "$PROGS/hw_split" guided:Package guided:NUMANode unguided
	expect_eq "$topo, $*: status ($(cat "$TMP/err"))" "$rc" 0
}

# has WHAT REGEX: a line of the output or the reports matches
has() {
	grep -Eq -- "$2" "$TMP/out" "$TMP/err" ||
		fail "$1: no line matches /$2/ in: $(cat "$TMP/out" "$TMP/err")"
}

two_sockets="pack:2 core:1 pu:1"
job "$two_sockets" 2 --bind-to socket
has "socket, rank 0" "^shmpi: rank 0 runs on cpus 0 = Package L#0, Core L#0, PU L#0$"
has "socket, rank 1" "^shmpi: rank 1 runs on cpus 1 = Package L#1, Core L#1, PU L#1$"
has "guided Package" "^1 guided:Package size 1 type Package$"
has "guided NUMANode" "^1 guided:NUMANode size 2 type NUMANode$"
has "unguided" "^0 unguided size 1 type Package$"

# dealt over the cores, each bound to the socket holding its core
job "$two_sockets" 2 --map-by core --bind-to socket
has "map-by core bind-to socket" "^shmpi: rank 1 runs on cpus 1 = Package L#1"
# unbound: within no single socket
job "$two_sockets" 2 --bind-to none
has "unbound, guided Package" "^0 guided:Package null$"
has "unbound, unguided" "^0 unguided null$"

two_numa="numa:2 core:1 pu:1"
job "$two_numa" 2 --bind-to numa
has "numa, rank 1" "^shmpi: rank 1 runs on cpus 1 = .*NUMANode L#1"
has "numa, guided NUMANode" "^0 guided:NUMANode size 1 type NUMANode$"
has "numa, unguided" "^1 unguided size 1 type NUMANode$"

# objects the machine lacks
HWLOC_SYNTHETIC="pack:1 core:2 pu:1" run_job "$TMP/out" "$TMP/err" -- -n 1 --bind-to l3cache \
	"$PROGS/run_mpi"
expect_eq "no L3: status" "$rc" 125
expect_eq "no L3: message" "$(cat "$TMP/err")" \
	"shmrun: --bind-to l3cache: this machine has no L3 cache (see shmrun --info)"
HWLOC_SYNTHETIC="pack:1 core:2 pu:1" run_job "$TMP/out" "$TMP/err" -- -n 1 --map-by l3cache \
	--bind-to core "$PROGS/run_mpi"
expect_eq "no L3 to map by: status" "$rc" 125
expect_match "no L3 to map by: message" "$(cat "$TMP/err")" "^shmrun: --map-by l3cache: this machine has no"
exit 0
