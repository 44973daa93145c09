# Another user cannot open any shared-memory object of a running job: the
# objects are created with mode 0600 under names with the uid and an
# unguessable job id.  Needs root (to become nobody): skipped otherwise.
. "$SHMPI_TOP/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to run a probe as nobody"
command -v setpriv >/dev/null || skip "needs setpriv"
# a job that holds still while it is probed, then is told to end
"$SHMRUN" -n 2 "$PROGS/fault" hold 20 >/dev/null 2>&1 &
pid=$!
i=0
while [ -z "$(shm_objects)" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
objs=$(shm_objects)
[ -n "$objs" ] || fail "the job made no shared-memory object to probe"
for o in $objs; do
	# a window's segment may be gone already (unlinked once mapped)
	mode=$(stat -c %a "/dev/shm/$o" 2>/dev/null) || continue
	expect_eq "mode of $o" "$mode" 600
	if setpriv --reuid=nobody --regid=nogroup --clear-groups \
		sh -c "cat /dev/shm/$o >/dev/null 2>&1 || exit 1; exit 0"; then
		fail "nobody could read /dev/shm/$o"
	fi
	if setpriv --reuid=nobody --regid=nogroup --clear-groups \
		dd if=/dev/zero of="/dev/shm/$o" bs=1 count=1 conv=notrunc,nocreat \
			status=none 2>/dev/null; then
		fail "nobody could write /dev/shm/$o"
	fi
done
kill -TERM $pid
wait $pid
expect_no_shm_left "the probed job"
exit 0
