# shmcc compiles and links like mpicc, from the build tree and after
# `make install`; what it builds runs with shmrun -n 8 on any machine.
. "$SHMPI_TOP/tests/lib.sh"

show=$("$SHMCC" -show -o prog prog.c)
expect_match "shmcc -show" "$show" "-I.*include .*-o prog prog.c .*-L.*-Wl,-rpath,.* -lshmpi"
show_c=$("$SHMCC" -show -c prog.c)
case $show_c in *-lshmpi*) fail "shmcc -c links: $show_c" ;; esac
expect_match "shmcc -version" "$("$SHMCC" -version 2>&1 | head -n 1)" "^shmcc \(shmpi "

# compile and link in one step, and in two
"$SHMCC" -O2 -o "$TMP/hello" "$SHMPI_TOP/examples/hello.c" || fail "shmcc hello.c"
"$SHMCC" -c -o "$TMP/hello.o" "$SHMPI_TOP/examples/hello.c" || fail "shmcc -c"
"$SHMCC" -o "$TMP/hello2" "$TMP/hello.o" || fail "shmcc link"
for prog in hello hello2; do
	run_job "$TMP/out" "$TMP/err" -- -n 8 "$TMP/$prog"
	expect_eq "$prog -n 8 exit" "$rc" 0
	expect_eq "$prog -n 8 lines" "$(grep -c '^rank [0-7] of 8 on ' "$TMP/out")" 8
done

# an unknown function is a link error: nothing is declared that is not there
printf '#include <mpi.h>\nint main(void) { return MPI_Frobnicate(); }\n' >"$TMP/bad.c"
"$SHMCC" -o "$TMP/bad" "$TMP/bad.c" 2>/dev/null && fail "shmcc linked a call to a missing function"

# the profiling interface: a wrapper of MPI_Comm_rank that calls PMPI_Comm_rank
cat >"$TMP/prof.c" <<'PROG'
#include <mpi.h>
#include <stdio.h>
static int calls;
int MPI_Comm_rank(MPI_Comm comm, int *rank) { calls++; return PMPI_Comm_rank(comm, rank); }
int main(int argc, char **argv)
{
	int r;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	printf("calls %d\n", calls);
	MPI_Finalize();
	return 0;
}
PROG
"$SHMCC" -o "$TMP/prof" "$TMP/prof.c" || fail "shmcc prof.c"
expect_eq "PMPI wrapper" "$("$TMP/prof")" "calls 1"

# make install: headers, libraries, shmrun, shmcc and shmpi.pc under PREFIX
# BUILD as the tree names it (relative): an absolute one would rewrite the
# dependency files with targets later builds do not match
make -s -C "$SHMPI_TOP" install PREFIX="$TMP/inst" BUILD="${SHMPI_BUILD#"$SHMPI_TOP"/}" \
	SANITIZE="${SHMPI_SANITIZE:-}" ARCH="${SHMPI_ARCH:-}" >"$TMP/install.log" 2>&1 ||
	fail "make install: $(cat "$TMP/install.log")"
for f in include/mpi.h lib/libshmpi.a lib/libshmpi.so bin/shmrun bin/shmcc lib/pkgconfig/shmpi.pc \
	lib/shmpi/hw.so lib/shmpi/shmrun-hw.so; do
	[ -e "$TMP/inst/$f" ] || fail "make install did not install $f"
done
"$TMP/inst/bin/shmcc" -o "$TMP/hello3" "$SHMPI_TOP/examples/hello.c" || fail "installed shmcc"
expect_match "installed shmcc uses PREFIX" "$("$TMP/inst/bin/shmcc" -show x.c)" "$TMP/inst/lib"
run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/hello3"
expect_eq "installed hello exit" "$rc" 0
# the hwloc modules of the installed library and shmrun: binding the ranks
# and their report
"$TMP/inst/bin/shmrun" -n 1 --bind-to core --report-bindings "$TMP/hello3" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "installed shmrun --bind-to core --report-bindings: status ($(cat "$TMP/err"))" \
	"$rc" 0
expect_match "installed report" "$(cat "$TMP/err")" "^shmpi: rank 0 runs on cpus .*Core L#0"
expect_no_shm_left "the installed --report-bindings job"
flags=$(PKG_CONFIG_PATH="$TMP/inst/lib/pkgconfig" pkg-config --cflags --libs shmpi) ||
	fail "pkg-config shmpi"
expect_match "pkg-config shmpi" "$flags" "-I$TMP/inst/include .*-lshmpi"
exit 0
