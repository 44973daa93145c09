# Every C function, constant and predefined handle of MPI 3.1 (the lists
# mpi31_functions.txt and mpi31_constants.txt beside this script) is there:
# mpi.h declares MPI_X and PMPI_X, libshmpi exports both, and a C program can
# use each constant.  Chapters 10 (process creation) and 13 (I/O) are absent
# (README, "What is not there").  Names not yet implemented are listed in
# missing.txt; a name listed there that is present fails the test as well, so
# the list stays exact while it shrinks.
. "$SHMPI_TOP/tests/lib.sh"

dir=$SHMPI_TOP/tests/api
lib=$SHMPI_BUILD/lib/libshmpi.so

# functions: "name" lines under "## N title" headers
awk '/^## /{ch=$2; next} /^MPI_/{ if (ch != 10 && ch != 13) print $1 }' \
	"$dir/mpi31_functions.txt" >"$TMP/funcs"
# constants: "name [chapter]" lines
awk '/^MPI_/{ if ($2 != 10 && $2 != 13) print $1 }' \
	"$dir/mpi31_constants.txt" >"$TMP/consts"
# types: "type name [chapter]" lines
awk '/^type /{ if ($3 != 10 && $3 != 13) print $2 }' \
	"$dir/mpi31_constants.txt" >"$TMP/types"
[ "$(wc -l <"$TMP/funcs")" -gt 300 ] || fail "the function list is short"
[ "$(wc -l <"$TMP/consts")" -gt 250 ] || fail "the constant list is short"

# What the compiler does not know: one file naming every function (MPI_ and
# PMPI_) and using every constant; each undeclared name is reported once.
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
LC_ALL=C "$SHMCC" -c -o "$TMP/all.o" "$TMP/all.c" 2>"$TMP/cc.err"
{
	grep -oE "'P?MPI_[A-Za-z0-9_]+' undeclared" "$TMP/cc.err"
	grep -oE "unknown type name 'MPI_[A-Za-z0-9_]+'" "$TMP/cc.err" | sed 's/.* //'
} | tr -d "'" | awk '{print $1}' >"$TMP/undeclared"
if ! [ -s "$TMP/undeclared" ] && ! [ -f "$TMP/all.o" ]; then
	cat "$TMP/cc.err" >&2
	fail "the list program does not compile for another reason"
fi

# What libshmpi does not export.
nm -D --defined-only "$lib" | awk '{sub(/@.*/, "", $3); print $3}' |
	sort -u >"$TMP/exported"
sed 'p; s/^/P/' "$TMP/funcs" | sort -u | comm -23 - "$TMP/exported" >"$TMP/unexported"

# A name counts as missing when any of its forms is; PMPI_X reports as MPI_X.
sort -u "$TMP/undeclared" "$TMP/unexported" | sed 's/^PMPI_/MPI_/' | sort -u >"$TMP/missing"
grep '^MPI_' "$dir/missing.txt" | awk '{print $1}' | sort -u >"$TMP/allowed"

new=$(comm -23 "$TMP/missing" "$TMP/allowed" | tr '\n' ' ')
done_=$(comm -13 "$TMP/missing" "$TMP/allowed" | tr '\n' ' ')
echo "MPI 3.1: $(wc -l <"$TMP/funcs") functions, $(wc -l <"$TMP/consts") constants," \
	"$(wc -l <"$TMP/types") types;" \
	"$(wc -l <"$TMP/missing") names missing"
[ -z "$new" ] || fail "missing and not in tests/api/missing.txt: $new"
[ -z "$done_" ] || fail "present now, remove from tests/api/missing.txt: $done_"
exit 0
