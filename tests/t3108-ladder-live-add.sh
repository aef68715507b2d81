#!/bin/sh
# t3108: bots arrive and are replaced while `ladder run` goes on. With a run
# going (two games at once, no game bound), `ladder add --wait` queues into
# the ladder's inbox and waits for the run's decision: a new version of a
# playing bot and a brand-new good bot are admitted mid-run, a crashing bot
# is rejected with its reason (and is no entry); `ladder retire` queues
# likewise. After the run: both versions' records kept, and no game of the
# old version (or of the retired entry) starts after the decision; `ladder
# verify` passes. A request decided but still in the inbox (a kill between
# the commit and the file's removal) is not decided twice; a kill -9 of the
# run right after a request is queued: the next run admits it once.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"

echo "1..22"
"$ref" ladder init "$L" --variant link --players 2-3 --time "$ladder_time" --seed 11 >/dev/null
for b in "a:$top/bin/bot-random --seed 1" "b:$top/bin/bot-random --seed 2" "c:$fake legal"; do
	"$ref" ladder add "$L" "${b%%:*}" "${b#*:}" >/dev/null || { echo "Bail out! cannot add ${b%%:*}"; exit 1; }
done
# wait (up to 60 s) until the SQL query's number is at least $2
wait_for() {
	i=0
	while [ "$(q "$1" 2>/dev/null || echo 0)" -lt "$2" ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
}

"$ref" ladder run "$L" -j 2 --games 1000000 -q 2>"$tmp/run.err" &
run=$!
wait_for "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL" 4
"$ref" ladder add "$L" b "$top/bin/bot-random --seed 7" --wait >"$tmp/b.out" 2>&1
check "add while running is queued" grep -q '^b: queued (.*): the running ladder admits it before its next game' "$tmp/b.out"
check "--wait prints the decision: b admitted as version 2" grep -q '^b: admitted as version 2$' "$tmp/b.out"
"$ref" ladder add "$L" fresh "$top/bin/bot-random --seed 5" --wait >"$tmp/fresh.out" 2>&1
check "a brand-new bot is admitted mid-run" grep -q '^fresh: admitted as version 1$' "$tmp/fresh.out"
"$ref" ladder add "$L" crash "$fake crash" --wait >"$tmp/crash.out" 2>&1
rc=$?
check "a crashing bot is rejected with its reason, exit 1" sh -c "test $rc = 1 && grep -q '^crash: rejected: .*crash' '$tmp/crash.out'"
"$ref" ladder retire "$L" c --wait >"$tmp/retire.out" 2>&1
check "retire while running is queued and applied" sh -c "grep -q '^c: queued' '$tmp/retire.out' && grep -q '^c: retired$' '$tmp/retire.out'"
bfrom=$(q "SELECT next_game FROM requests WHERE name = 'b'")
cfrom=$(q "SELECT next_game FROM requests WHERE name = 'c'")
wait_for "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL AND id >= $cfrom" 12
check "the run is still going" kill -0 $run
kill -TERM $run
wait $run
check "it stops cleanly on SIGTERM" test $? = 0
check "the inbox is empty" test -z "$(ls "$L/inbox")"
check "four decisions recorded" test "$(q "SELECT COUNT(*) FROM requests")" = 4
check "both versions of b are kept, the old one replaced" test "$(q "SELECT group_concat(version || status, ' ') FROM bots WHERE name = 'b'")" = "1replaced 2active"
check "b's old version keeps its games" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 2 AND game < $bfrom")" -gt 0
check "no game of b's old version starts after the new one's admission" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 2 AND game >= $bfrom")" = 0
check "b's new version is scheduled" test "$(q "SELECT COUNT(*) FROM seats s JOIN bots b ON b.id = s.bot WHERE b.name = 'b' AND b.version = 2")" -gt 0
check "the new bot plays" test "$(q "SELECT COUNT(*) FROM seats s JOIN bots b ON b.id = s.bot WHERE b.name = 'fresh'")" -gt 0
check "the crashing bot is no entry, its rejection kept" test "$(q "SELECT (SELECT COUNT(*) FROM bots WHERE name = 'crash') || '/' || (SELECT COUNT(*) FROM rejections WHERE name = 'crash')")" = 0/1
check "no game of the retired entry starts after its retirement" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 3 AND game >= $cfrom")" = 0
"$ref" ladder verify "$L" >"$tmp/verify" 2>&1
check "ladder verify passes" grep -q 'integrity_check ok; [0-9]* games verified, 0 failed' "$tmp/verify"

# a request decided, its file still there (as after a kill -9 between the
# commit and the removal): removed, not decided again
bfile=$(q "SELECT file FROM requests WHERE name = 'b'")
printf '[request]\nkind=add\nname=b\ncommand=%s\n' "$top/bin/bot-random --seed 7" >"$L/inbox/$bfile"
"$ref" ladder run "$L" --games 2 -q 2>/dev/null
check "a decided request found again is only removed" test ! -e "$L/inbox/$bfile" -a "$(q "SELECT COUNT(*) FROM bots WHERE name = 'b'")" = 2

# kill -9 right after a request is queued: the next run admits it once
"$ref" ladder run "$L" -j 2 --games 1000000 -q 2>/dev/null &
run=$!
wait_for "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL AND id >= $cfrom" 16
"$ref" ladder add "$L" fresh "$top/bin/bot-random --seed 6" >"$tmp/q.out" 2>&1
check "queued while running" grep -q '^fresh: queued' "$tmp/q.out"
# a moment in the first ~3/4 s (scaled): before, during or after the
# request's admission game (a few games' time), not seconds of play after it
sleep "$(awk "BEGIN { print $(od -An -N1 -tu1 /dev/urandom) * $(ms 3) / 1000 }")"
kill -9 $run
wait $run 2>/dev/null
# (the killed run's last children may hold the lock a moment as they die)
i=0
while "$ref" ladder run "$L" --games 2 -q 2>"$tmp/next.err"; [ $? != 0 ] && grep -q 'being written by another process' "$tmp/next.err" && [ $i -lt 20 ]; do
	sleep 0.25
	i=$((i + 1))
done
got=$(q "SELECT COUNT(*) || '/' || MAX(version) FROM bots WHERE name = 'fresh'")
check "the next run admits it once (versions/latest: $got)" test "$got" = 2/2
got=$(q "SELECT COUNT(*) FROM requests WHERE name = 'fresh'")
check "one decision for it ($got of 2), the inbox empty ($(ls "$L/inbox" | wc -l) files)" test "$got" = 2 -a -z "$(ls "$L/inbox")"
[ "$fail" = 0 ] || sed 's/^/# next run: /' "$tmp/next.err" >&2
"$ref" ladder verify "$L" >"$tmp/verify" 2>&1
check "ladder verify passes at the end" grep -q 'integrity_check ok; [0-9]* games verified, 0 failed' "$tmp/verify"
exit $fail
