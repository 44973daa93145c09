# Every C function, constant and predefined handle of MPI 3.1 and of MPI 4.1
# (the lists mpi31_*.txt and mpi41_*.txt beside this script) is there: mpi.h
# declares MPI_X and PMPI_X, libshmpi exports both, and a C program can use
# each constant.  Process creation and I/O are absent (README, "What is not
# there").  Names not yet implemented are listed in missing.txt (3.1) and
# missing41.txt (4.1); a name listed there that is present fails the test as
# well, so each list stays exact while it shrinks.
. "$SHMPI_TOP/tests/lib.sh"

dir=$SHMPI_TOP/tests/api
lib=$SHMPI_BUILD/lib/libshmpi.so

# What libshmpi exports.
nm -D --defined-only "$lib" | awk '{sub(/@.*/, "", $3); print $3}' |
	sort -u >"$TMP/exported"

# check_version VERSION FUNCS CONSTS MISSING FUNC_AWK CONST_AWK TYPE_AWK
# The awk programs print the names to check from the function list (by
# chapter) and from the constant list (constant and type lines).
check_version() {
	ver=$1 funcs=$dir/$2 consts=$dir/$3 missing=$dir/$4
	awk "$5" "$funcs" >"$TMP/funcs"
	awk "$6" "$consts" >"$TMP/consts"
	awk "$7" "$consts" >"$TMP/types"
	[ "$(wc -l <"$TMP/funcs")" -gt 300 ] || fail "$ver: the function list is short"
	[ "$(wc -l <"$TMP/consts")" -gt 250 ] || fail "$ver: the constant list is short"

	# What the compiler does not know: one file naming every function (MPI_
	# and PMPI_) and using every constant; each undeclared name is reported once.
	{
		echo '#include <mpi.h>'
		echo 'void *shmpi_functions[] = {'
		sed 's/.*/	(void *)&, (void *)P&,/' "$TMP/funcs"
		echo '};'
		echo 'void shmpi_constants(void);'
		echo 'void shmpi_constants(void)'
		echo '{'
		sed 's/.*/	(void)(&);/' "$TMP/consts"
		sed 's/.*/	(void)sizeof(& *);/' "$TMP/types"
		echo '}'
	} >"$TMP/all.c"
	rm -f "$TMP/all.o"
	LC_ALL=C "$SHMCC" -c -o "$TMP/all.o" "$TMP/all.c" 2>"$TMP/cc.err"
	{
		grep -oE "'P?MPI_[A-Za-z0-9_]+' undeclared" "$TMP/cc.err"
		grep -oE "unknown type name 'MPI_[A-Za-z0-9_]+'" "$TMP/cc.err" | sed 's/.* //'
	} | tr -d "'" | awk '{print $1}' >"$TMP/undeclared"
	if ! [ -s "$TMP/undeclared" ] && ! [ -f "$TMP/all.o" ]; then
		cat "$TMP/cc.err" >&2
		fail "$ver: the list program does not compile for another reason"
	fi

	# What libshmpi does not export.
	sed 'p; s/^/P/' "$TMP/funcs" | sort -u | comm -23 - "$TMP/exported" >"$TMP/unexported"

	# A name counts as missing when any of its forms is; PMPI_X reports as MPI_X.
	sort -u "$TMP/undeclared" "$TMP/unexported" | sed 's/^PMPI_/MPI_/' |
		sort -u >"$TMP/missing"
	grep '^MPI_' "$missing" | awk '{print $1}' | sort -u >"$TMP/allowed"

	new=$(comm -23 "$TMP/missing" "$TMP/allowed" | tr '\n' ' ')
	done_=$(comm -13 "$TMP/missing" "$TMP/allowed" | tr '\n' ' ')
	echo "MPI $ver: $(wc -l <"$TMP/funcs") functions, $(wc -l <"$TMP/consts")" \
		"constants, $(wc -l <"$TMP/types") types;" \
		"$(wc -l <"$TMP/missing") names missing"
	[ -z "$new" ] || fail "MPI $ver: missing and not in tests/api/$4: $new"
	[ -z "$done_" ] || fail "MPI $ver: present now, remove from tests/api/$4: $done_"
}

# 3.1: "## N title" chapters, "name [chapter]" and "type name [chapter]"
# lines; chapters 10 (process creation) and 13 (I/O) are absent.
check_version 3.1 mpi31_functions.txt mpi31_constants.txt missing.txt \
	'/^## /{ch=$2; next} /^MPI_/{ if (ch != 10 && ch != 13) print $1 }' \
	'/^MPI_/{ if ($2 != 10 && $2 != 13) print $1 }' \
	'/^type /{ if ($3 != 10 && $3 != 13) print $2 }'

# 4.1: the same with marks: chapter 14 (I/O) and the names marked dynamic
# (process creation) or io are absent; every large-count name ("large") is
# checked like the others.
check_version 4.1 mpi41_functions.txt mpi41_constants.txt missing41.txt \
	'/^## /{ch=$2; next} /^MPI_/{ if (ch != 14 && $2 != "dynamic") print $1 }' \
	'/^MPI_/{ if ($2 != "io" && $2 != "dynamic") print $1 }' \
	'/^type /{ if ($3 != "io" && $3 != "dynamic") print $2 }'

# mpi.h and MPI_Get_version say 4.1 exactly when nothing of 4.1 is
# missing, 3.1 before
if grep -q '^MPI_' "$SHMPI_TOP/tests/api/missing41.txt"; then want="3 1"; else want="4 1"; fi
got=$(awk '/^#define MPI_VERSION /{v=$3} /^#define MPI_SUBVERSION /{s=$3} END{print v, s}' \
	"$SHMPI_TOP/include/mpi.h")
[ "$got" = "$want" ] || fail "mpi.h says MPI_VERSION/MPI_SUBVERSION $got, want $want"
exit 0
