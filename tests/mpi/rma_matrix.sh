# The RMA conformance matrix (tests/progs/rma_matrix.c), reduced: every
# communication call and op on every predefined type, window flavour and
# synchronization, each (flavour, synchronization) pair on a third of the
# types drawn from the seed; at 2 ranks (weak progress), 3 ranks (strong)
# and 3 ranks under the adversarial mode.  Every result against the
# sequential model, every refusal one the standard requires.  The full
# matrix runs in make stress; SHMPI_MATRIX_SEED=n replays a seed.
. "$SHMPI_TOP/tests/lib.sh"

seed=${SHMPI_MATRIX_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
bad=
for run in "2 weak 0" "3 strong 0" "3 weak 5"; do
	set -- $run
	run_job "$TMP/out" "$TMP/err" -- -n "$1" --progress="$2" --timeout 60 \
		-x SHMPI_ADVERSARIAL="$3" "$PROGS/rma_matrix" -r -S "$seed"
	line=$(head -n 1 "$TMP/out")
	echo "$line"
	if [ "$rc" -ne 0 ] || ! printf '%s\n' "$line" | grep -Eq \
		"^rma_matrix: seed $seed, $1 ranks, reduced: 6 flavours x 17 synchronizations x 40 types x 10 calls \(76 call/op pairs\), [1-9][0-9]* epochs: [1-9][0-9]* calls, [1-9][0-9]* defined and checked, [1-9][0-9]* refused as the standard requires, [1-9][0-9]* extensions checked, 0 disagreements"; then
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad $1/$2/adversarial=$3"
	fi
done
[ -z "$bad" ] || fail "rma_matrix seed $seed (SHMPI_MATRIX_SEED=$seed replays it):$bad"
exit 0
