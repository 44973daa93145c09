# The ordering-critical pairs of shm/ and src/, model-checked with Spin:
# the ring's publish and consume (ring.pml), the lock hand-over and its
# waiter list (rwlock.pml), the PSCW counts (pscw.pml), the doorbell's
# sleep and wake (doorbell.pml) and the barrier (barrier.pml), each under
# the reordering that their orderings allow (ppo.h).  Every model must
# hold, and each of its mutants (the line "mutants:" of the model: one
# ordering weakened, chosen with -D) must break, so that a model that
# could not fail counts as a failure too.
. "$SHMPI_TOP/tests/lib.sh"
command -v spin >/dev/null || skip "spin not installed (tools/deps)"

# check MODEL [MUTANT]: prints the number of errors pan found
check() {
	dir=$TMP/$(basename "$1" .pml)${2:+-$2}
	mkdir -p "$dir"
	(cd "$dir" && spin ${2:+-D$2} -a "$1" >spin.out 2>&1 &&
		cc -O0 -w -o pan pan.c 2>cc.out && ./pan -n >pan.out 2>&1) ||
		{ cat "$dir"/*.out >&2; echo "cannot check $1 $2" >&2; echo x; return; }
	sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.out"
}

bad=
for model in "$SHMPI_TOP"/tests/model/*.pml; do
	name=$(basename "$model" .pml)
	mutants=$(sed -n 's/^ \* mutants: //p' "$model")
	[ -n "$mutants" ] || fail "$name: no mutants line"
	errors=$(check "$model")
	if [ "$errors" = 0 ]; then
		echo "ok   $name"
	else
		echo "FAIL $name: $errors errors"
		sed 's/^/    /' "$TMP/$name/pan.out"
		bad="$bad $name"
	fi
	for m in $mutants; do
		errors=$(check "$model" "$m")
		case $errors in
		0|x|'') echo "FAIL $name with $m: not caught ($errors)"; bad="$bad $name/$m" ;;
		*) echo "ok   $name with $m: caught" ;;
		esac
	done
done
[ -z "$bad" ] || fail "models:$bad"
exit 0
