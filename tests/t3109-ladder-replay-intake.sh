#!/bin/sh
# t3109: a request queued while `ladder run` plays, whose run is then
# killed mid-game, is decided by the next run before it replays the
# unfinished game, even when the replay alone fills that run's --games
# (it was decided only before a new game, so `--games 1` left it queued).
# The bots take 60 ms a move, so the killed run is inside its first game.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"

echo "1..5"
"$ref" ladder init "$L" --variant link --players 2 --time "bank:$(ms 20000),move:$(ms 1000),start:$(ms 3000)" \
	--seed 9 >/dev/null || { echo "Bail out! cannot init"; exit 1; }
for b in a b; do
	"$ref" ladder add "$L" $b "$fake lag 0 60" >"$tmp/add.out" 2>&1 ||
		{ sed 's/^/# /' "$tmp/add.out"; echo "Bail out! cannot add $b"; exit 1; }
done
"$ref" ladder run "$L" -j 1 --games 1000 -q 2>/dev/null &
run=$!
i=0
while [ "$(q "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0)" -lt 1 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$ref" ladder add "$L" r "$top/bin/bot-random --seed 3" >"$tmp/q.out" 2>&1
check "queued while the run plays its first game" grep -q '^r: queued' "$tmp/q.out"
kill -9 $run
wait $run 2>/dev/null
check "the killed run left its game unfinished and the request queued" \
	test "$(q "SELECT COUNT(*) FROM games WHERE finished IS NULL")" -ge 1 -a -n "$(ls "$L/inbox")"
# (the killed run's last children may hold the lock a moment as they die)
i=0
while "$ref" ladder run "$L" --games 1 2>"$tmp/next.err"; [ $? != 0 ] && grep -q 'being written by another process' "$tmp/next.err" && [ $i -lt 20 ]; do
	sleep 0.25
	i=$((i + 1))
done
check "the next run replays that game (--games 1)" grep -q '1 games finished (1 replayed)' "$tmp/next.err"
check "and decides the request first: r admitted" test "$(q "SELECT COUNT(*) FROM bots WHERE name = 'r'")" = 1
check "the inbox is empty" test -z "$(ls "$L/inbox")"
[ "$fail" = 0 ] || sed 's/^/# next run: /' "$tmp/next.err" >&2
exit $fail
