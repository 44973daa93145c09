# mpi.h is C++ too: every object-like macro of it expands to something C++
# takes, under g++ -std=c++11 and -std=c++17 with -Wall -Wextra -Werror
# -pedantic (and clang++ where it is installed), and the declarations link
# as C (extern "C"); shmcxx builds the C++ project program, which runs.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools g++

macros=$(sed -n 's/^#define \(MPI_[A-Za-z0-9_]*\) .*/\1/p' "$SHMPI_TOP/include/mpi.h")
[ "$(echo "$macros" | wc -l)" -gt 200 ] || fail "too few macros in mpi.h: $macros"
{
	echo '#include <mpi.h>'
	echo 'template <class T> static void use(T) {}'
	echo 'int main(int argc, char **argv)'
	echo '{'
	for m in $macros; do
		echo "	use($m);"
	done
	echo '	use(MPI_COMM_NULL_COPY_FN); use(MPI_COMM_DUP_FN); use(MPI_WIN_NULL_DELETE_FN);'
	echo '	MPI_Init(&argc, &argv);'
	echo '	return MPI_Finalize();'
	echo '}'
} >"$TMP/macros.cpp"
compilers=g++
command -v clang++ >/dev/null 2>&1 && compilers="$compilers clang++"
for cxx in $compilers; do
	for std in c++11 c++17; do
		$cxx -std=$std -Wall -Wextra -Werror -pedantic -I"$SHMPI_TOP/include" \
			-o "$TMP/macros" "$TMP/macros.cpp" -L"$SHMPI_BUILD/lib" -lshmpi \
			>"$TMP/log" 2>&1 || fail "$cxx -std=$std: mpi.h: $(cat "$TMP/log")"
	done
done

# shmcxx: the C++ compiler (SHMPI_CXX chooses it), then as shmcc does
expect_match "shmcxx -show" "$("$SHMPI_BUILD/bin/shmcxx" -show -o p p.cpp)" \
	"^[^ ]+ (-f[^ ]+ )*-I.*include .*-o p p.cpp .*-lshmpi"
expect_match "SHMPI_CXX" "$(SHMPI_CXX=clang++ "$SHMPI_BUILD/bin/shmcxx" -show -c p.cpp)" \
	"^clang\+\+ .*-c p.cpp"
expect_match "shmcxx -showme:version" "$("$SHMPI_BUILD/bin/shmcxx" -showme:version)" \
	"^shmcxx: shmpi [0-9.]+ \(Language: C\+\+\)$"
"$SHMPI_BUILD/bin/shmcxx" -std=c++11 -Wall -Wextra -Werror -pedantic \
	-o "$TMP/sum_cxx" "$SHMPI_TOP/tests/buildsys/proj/sum.cpp" >"$TMP/log" 2>&1 ||
	fail "shmcxx sum.cpp: $(cat "$TMP/log")"
run_job "$TMP/out" "$TMP/err" -- -n 4 "$TMP/sum_cxx"
expect_eq "sum_cxx: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "sum_cxx" "$(cat "$TMP/out")" "C++: 4 ranks, fetch_and_op 10, allgather 10, ring ok"
exit 0
