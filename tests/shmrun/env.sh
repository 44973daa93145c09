# The environment of the ranks: shmrun's own, the -x changes, and the rank
# variables (which override whatever shmrun had).
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

export RUNTEST_FROM_ENV=outside RUNTEST_OVER=outside
unset RUNTEST_UNSET RUNTEST_LAST
show='echo "${RUNTEST_FROM_ENV-unset} ${RUNTEST_OVER-unset} ${RUNTEST_SET-unset} ${RUNTEST_UNSET-unset} ${RUNTEST_LAST-unset} ${RUNTEST_EQ-unset}"'

run_job "$TMP/out" "$TMP/err" -- -n 1 sh -c "$show"
expect_eq "inherited" "$(cat "$TMP/out")" "outside outside unset unset unset unset"

run_job "$TMP/out" "$TMP/err" -- -n 2 -x RUNTEST_FROM_ENV -x RUNTEST_OVER=inside \
	-x RUNTEST_SET='a b' -x RUNTEST_UNSET -x RUNTEST_LAST=1 -x RUNTEST_LAST=2 \
	-xRUNTEST_EQ=x=y sh -c "$show"
expect_eq "-x: status" "$rc" 0
expect_eq "-x" "$(cat "$TMP/out")" "outside inside a b unset 2 x=y
outside inside a b unset 2 x=y"

# -x VAR after -x VAR=value: as shmrun has it, here not at all
run_job "$TMP/out" "$TMP/err" -- -n 1 -x RUNTEST_UNSET=1 -x RUNTEST_UNSET \
	-x RUNTEST_OVER=1 -x RUNTEST_OVER sh -c "$show"
expect_eq "-x last wins" "$(cat "$TMP/out")" "outside outside unset unset unset unset"

# the rank variables, whatever shmrun's environment says
export SHMPI_RANK=99 PMI_SIZE=99
run_job "$TMP/out" "$TMP/err" -- -n 3 --tag-output sh -c \
	'echo $SHMPI_RANK $SHMPI_SIZE $PMI_RANK $PMI_SIZE $OMPI_COMM_WORLD_RANK $OMPI_COMM_WORLD_SIZE $OMPI_COMM_WORLD_LOCAL_RANK $OMPI_COMM_WORLD_LOCAL_SIZE'
unset SHMPI_RANK PMI_SIZE
expect_eq "rank variables" "$(sort "$TMP/out")" "[0] 0 3 0 3 0 3 0 3
[1] 1 3 1 3 1 3 1 3
[2] 2 3 2 3 2 3 2 3"
run_job "$TMP/out" "$TMP/err" -- -n 3 sh -c 'echo $SHMPI_JOB'
expect_eq "one job id" "$(sort -u "$TMP/out" | wc -l)" 1
expect_match "job id" "$(head -n 1 "$TMP/out")" '^[0-9a-f]{16}$'
# the control segment exists while the job runs, named after the id
run_job "$TMP/out" "$TMP/err" -- -n 1 sh -c \
	'test -s "/dev/shm/shmpi-$(id -u)-$SHMPI_JOB-ctl" && echo there'
expect_eq "control segment" "$(cat "$TMP/out")" "there"
exit 0
