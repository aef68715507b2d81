#!/bin/sh
# t6002: the rush AI (bin/bot-rush) in its in-process lockstep harness: it
# rarely loses to random play and covers more of its board than random
# play does; against itself it leaves fewer than 25 uncovered squares on
# average (random play leaves about 90); the harness is deterministic for a
# seed; the bot declines other variants; alone (the other seat never acts)
# its endgame search packs every one of 40 boards to 8 uncovered squares,
# the floor (only the last block may touch the top row, and uncovered
# squares come in fours), where the greedy placement alone misses it; in a
# race it keeps a route to the top (a column of I blocks at the wall) and
# ends games against random play sooner than it does without one.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
bot=$top/bin/bot-rush
need "$bot"

echo "1..9"
"$bot" --harness 40 1 ai random >"$tmp/random" 2>"$tmp/err"
check "40 games against random play" [ "$(grep -c '^game ' "$tmp/random")" = 40 ]
# Lines: game I ticks=T uncovered=A,B ranks=R,S (the AI in seat 0).
set -- $(awk '{ split($4, u, /[=,]/); split($5, r, /[=,]/)
	a += u[2]; b += u[3]; if (r[2] > r[3]) lost++ }
	END { printf "%d %d %d\n", a / NR, b / NR, lost }' "$tmp/random")
check "it loses at most 4 of 40 to random play (lost $3)" [ "$3" -le 4 ]
check "it leaves fewer uncovered squares than random play ($1 to $2)" [ "$1" -lt "$2" ]
"$bot" --harness 20 1 ai ai >"$tmp/self" 2>>"$tmp/err"
mean=$(awk '{ split($4, u, /[=,]/); a += u[2] + u[3] } END { printf "%d", a / (2 * NR) }' "$tmp/self")
check "against itself it leaves fewer than 25 uncovered on average ($mean)" [ "$mean" -lt 25 ]
"$bot" --harness 20 1 ai ai >"$tmp/again" 2>>"$tmp/err"
check "the harness is deterministic for a seed" cmp -s "$tmp/self" "$tmp/again"
printf 'tetrarena 1\ngame 1 variant=link seat=0 players=2 options=width:10,height:20,pieces:5 time=bank:1000\nquit\n' |
	"$bot" >"$tmp/decline" 2>>"$tmp/err"
check "it declines a link game" grep -q '^decline ' "$tmp/decline"
"$bot" --harness 40 1 ai decline >"$tmp/solo" 2>>"$tmp/err"
check "alone, all 40 boards end at 8 uncovered" \
	sh -c "[ \$(grep -c ' uncovered=8,200 ' '$tmp/solo') = 40 ]"
"$bot" --harness 40 1 greedy decline >"$tmp/greedy" 2>>"$tmp/err"
check "without the endgame search, some do not (the test can fail)" \
	sh -c "grep -q '^game ' '$tmp/greedy' && grep -v -q ' uncovered=8,200 ' '$tmp/greedy'"
"$bot" --harness 40 1 nospine random >"$tmp/nospine" 2>>"$tmp/err"
set -- $(awk '{ split($3, t, /=/); s += t[2] } END { printf "%d", s / NR }' "$tmp/random") \
	$(awk '{ split($3, t, /=/); s += t[2] } END { printf "%d", s / NR }' "$tmp/nospine")
check "with a route to the top it ends races sooner ($1 ticks on average, $2 without)" [ "$1" -lt "$2" ]
exit $fail
