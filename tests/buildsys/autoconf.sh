# autoconf with autoconf-archive's AX_MPI finds shmpi's mpicc and mpic++ on
# PATH (the prefix's lib/shmpi/mpi-bin) and the project builds with them.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools autoreconf aclocal c++
[ -f /usr/share/aclocal/ax_mpi.m4 ] ||
	skip "autoconf-archive is missing (make check installs it: tools/deps)"

setup_project
autoreconf -i >"$TMP/log" 2>&1 || fail "autoreconf: $(cat "$TMP/log")"
./configure >"$TMP/log" 2>&1 || fail "configure: $(cat "$TMP/log")"
expect_match "AX_MPI's MPICC" "$(cat "$TMP/log")" "checking for mpicc\.\.\. mpicc"
expect_match "AX_MPI's MPICXX" "$(cat "$TMP/log")" "checking for mpic\+\+\.\.\. mpic\+\+"
expect_match "MPI_Init" "$(cat "$TMP/log")" "checking for MPI_Init\.\.\. yes"
make >"$TMP/log" 2>&1 || fail "make: $(cat "$TMP/log")"
expect_programs .
exit 0
