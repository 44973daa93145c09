# A plain Makefile with CC = mpicc and CXX = mpicxx builds the project with
# shmpi's wrappers from PATH (the prefix's lib/shmpi/mpi-bin).
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools make c++

setup_project
expect_found "mpicc on PATH" "$(command -v mpicc)"
expect_found "mpicxx on PATH" "$(command -v mpicxx)"
make -f plain.mk >"$TMP/log" 2>&1 || fail "make: $(cat "$TMP/log")"
expect_programs .
exit 0
