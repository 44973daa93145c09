# CMake's find_package(MPI COMPONENTS C CXX) finds shmpi from mpicc, mpicxx
# and mpiexec on PATH (the prefix's lib/shmpi/mpi-bin), builds the project,
# and CTest runs it as FindMPI says (MPIEXEC_NUMPROC_FLAG and the rest).
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools cmake ninja c++
skip_sanitized "FindMPI"

setup_project
cmake -S . -B b -G Ninja >"$TMP/log" 2>&1 || fail "cmake: $(cat "$TMP/log")"
{ read -r mpiexec; read -r cc; read -r cxx; read -r lib; } <b/found.txt
expect_found "MPIEXEC_EXECUTABLE" "$mpiexec"
expect_found "MPI_C_COMPILER" "$cc"
expect_found "MPI_CXX_COMPILER" "$cxx"
expect_found "MPI_C_LIBRARIES" "$lib"
cmake --build b >"$TMP/log" 2>&1 || fail "cmake --build: $(cat "$TMP/log")"
(cd b && ctest --output-on-failure) >"$TMP/log" 2>&1 || fail "ctest: $(cat "$TMP/log")"
expect_match "ctest" "$(cat "$TMP/log")" "100% tests passed, 0 tests failed out of 2"
expect_programs b
exit 0
