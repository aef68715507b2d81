#!/bin/sh
# t3102: kill -9 of `referee ladder run` at random moments, 24 times over a
# run of 400 quick games (link, 2-4 seats, bot-random and an instant fake
# bot, two games at once): no game is lost or counted twice. The killed
# ladder ends with exactly the games of an uninterrupted ladder of the same
# master seed and bots (seats, seeds, ranks, scores: so determinism too),
# `ladder verify` passes (every log against the rules and the database,
# and PRAGMA integrity_check) after each kill and at the end.
# The kill moments are drawn in proportion to the uninterrupted ladder's
# time, so that the kills fall while the run plays, whatever the machine's
# speed or load: all of them together about 3/5 of that time (run start-ups
# included, so the runs play well under it).
# check-long: 24 kills over 400 games (make check: 12 over 80)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
total=$(long_or 80 400)
kills=$(long_or 12 24)
make_ladder() {
	"$ref" ladder init "$1" --variant link --players 2-4 --time "$ladder_time" --seed 2718 >/dev/null &&
		"$ref" ladder add "$1" r1 "$top/bin/bot-random --seed 1" >/dev/null &&
		"$ref" ladder add "$1" r2 "$top/bin/bot-random --seed 2" >/dev/null &&
		"$ref" ladder add "$1" legal "$fake legal" >/dev/null &&
		"$ref" ladder add "$1" r3 "$top/bin/bot-random --seed 3" >/dev/null
}
dump() { ldump "$1" "WHERE g.finished IS NOT NULL"; }
count() { lq "$1" "$2"; }

echo "1..8"
make_ladder "$tmp/ref" && make_ladder "$tmp/kill" || { echo "Bail out! cannot make the ladders"; exit 1; }
t0=$(date +%s%N)
"$ref" ladder run "$tmp/ref" --total $total -j 2 -q 2>"$tmp/ref.err"
ref_ms=$((($(date +%s%N) - t0) / 1000000))
echo "# the uninterrupted ladder took $ref_ms ms"
check "the uninterrupted ladder plays $total games" test "$(count "$tmp/ref" "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")" = $total

# the moments, from a seed printed so that a failure can be replayed
seed=${LADDER_KILL_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "# kill moments from seed $seed"
moments=$(awk -v s="$seed" -v k=$kills -v t=$ref_ms 'BEGIN { srand(s); for (i = 0; i < k; i++) printf "%.3f ", t / 1000 / k * (0.2 + rand() * 0.8) }')
killed=0
bad_verify=0
cut=0
for t in $moments; do
	"$ref" ladder run "$tmp/kill" --total $total -j 2 -q 2>>"$tmp/kill.err" &
	pid=$!
	sleep "$t"
	kill -9 $pid 2>/dev/null && killed=$((killed + 1))
	wait $pid 2>/dev/null
	cut=$((cut + $(count "$tmp/kill" "SELECT COUNT(*) FROM games WHERE finished IS NULL")))
	"$ref" ladder verify "$tmp/kill" >"$tmp/verify.out" 2>&1 || { bad_verify=$((bad_verify + 1)); sed 's/^/# /' "$tmp/verify.out" | head -5; }
done
echo "# killed $killed times; $(count "$tmp/kill" "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL") games finished by then"
# (at least two thirds: a kill drawn near the end can find the run
# already done when its start-ups ran faster than the timed one's; 18 of
# 24 landed in one check-long run beside other tests)
check "killed at least $((kills * 2 / 3)) times while running ($killed)" test $killed -ge $((kills * 2 / 3))
check "verify and integrity_check pass after every kill" test $bad_verify = 0
"$ref" ladder run "$tmp/kill" --total $total -j 2 -q 2>>"$tmp/kill.err"
check "the killed ladder completes $total games" test "$(count "$tmp/kill" "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")" = $total
check "none unfinished, ids 0..$((total - 1))" test "$(count "$tmp/kill" "SELECT COUNT(*) || '/' || MAX(id) FROM games")" = "$total/$((total - 1))"
echo "# $cut times a kill left a game scheduled without its result (played again by the next run)"
check "kills cut games in flight" test "$cut" -gt 0
dump "$tmp/ref" >"$tmp/ref.games"
dump "$tmp/kill" >"$tmp/kill.games"
if cmp -s "$tmp/ref.games" "$tmp/kill.games"; then
	ok "the same $total games as the uninterrupted ladder: none lost, none twice"
else
	diff "$tmp/ref.games" "$tmp/kill.games" | head -10 | sed 's/^/# /'
	not_ok "the same $total games as the uninterrupted ladder"
fi
"$ref" ladder verify "$tmp/kill" >"$tmp/verify.out" 2>&1
check "ladder verify passes at the end" grep -q "integrity_check ok; $total games verified, 0 failed" "$tmp/verify.out"
exit $fail
