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
# ends games against random play sooner than it does without one; in real
# time it ends an even game (a coin flip) only once a rival nears its top;
# on a board lower than its route (height 10 and 4) it plays, through the
# referee, without a fault (its route once ran off the top: an assertion).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
bot=$top/bin/bot-rush
need "$bot"

echo "1..17"
# (the lockstep harness is deterministic for a seed: the runs go at once)
"$bot" --harness 40 1 ai random >"$tmp/random" 2>"$tmp/err" &
"$bot" --harness 20 1 ai ai >"$tmp/self" 2>"$tmp/err.self" &
"$bot" --harness 20 1 ai ai >"$tmp/again" 2>"$tmp/err.again" &
"$bot" --harness 40 1 ai decline >"$tmp/solo" 2>"$tmp/err.solo" &
"$bot" --harness 40 1 greedy decline >"$tmp/greedy" 2>"$tmp/err.greedy" &
"$bot" --harness 40 1 nospine random >"$tmp/nospine" 2>"$tmp/err.nospine" &
wait
cat "$tmp"/err.* >>"$tmp/err"
check "40 games against random play" [ "$(grep -c '^game ' "$tmp/random")" = 40 ]
# Lines: game I ticks=T uncovered=A,B ranks=R,S (the AI in seat 0).
set -- $(awk '{ split($4, u, /[=,]/); split($5, r, /[=,]/)
	a += u[2]; b += u[3]; if (r[2] > r[3]) lost++ }
	END { printf "%d %d %d\n", a / NR, b / NR, lost }' "$tmp/random")
check "it loses at most 4 of 40 to random play (lost $3)" [ "$3" -le 4 ]
check "it leaves fewer uncovered squares than random play ($1 to $2)" [ "$1" -lt "$2" ]
mean=$(awk '{ split($4, u, /[=,]/); a += u[2] + u[3] } END { printf "%d", a / (2 * NR) }' "$tmp/self")
check "against itself it leaves fewer than 25 uncovered on average ($mean)" [ "$mean" -lt 25 ]
check "the harness is deterministic for a seed" cmp -s "$tmp/self" "$tmp/again"
printf 'tetrarena 1\ngame 1 variant=link seat=0 players=2 options=width:10,height:20,pieces:5 time=bank:1000\nquit\n' |
	"$bot" >"$tmp/decline" 2>>"$tmp/err"
check "it declines a link game" grep -q '^decline ' "$tmp/decline"
low_boards() {
	for h in 10 4; do
		"$ref" play --variant rush --option lockstep=1 --option height=$h --seed $h \
			--log "$tmp/low$h.log" "$bot" "$bot" >/dev/null 2>>"$tmp/err" &&
			grep -q '^result .* faults=-,- ' "$tmp/low$h.log" || return 1
	done
}
check "on boards 10 and 4 rows high it plays through the referee without a fault" low_boards
check "alone, all 40 boards end at 8 uncovered" \
	sh -c "[ \$(grep -c ' uncovered=8,200 ' '$tmp/solo') = 40 ]"
check "without the endgame search, some do not (the test can fail)" \
	sh -c "grep -q '^game ' '$tmp/greedy' && grep -v -q ' uncovered=8,200 ' '$tmp/greedy'"
set -- $(awk '{ split($3, t, /=/); s += t[2] } END { printf "%d", s / NR }' "$tmp/random") \
	$(awk '{ split($3, t, /=/); s += t[2] } END { printf "%d", s / NR }' "$tmp/nospine")
check "with a route to the top it ends races sooner ($1 ticks on average, $2 without)" [ "$1" -lt "$2" ]
# Real time, an even count, our column of I blocks 16 rows high and an I in
# hand (placing it upright on the column ends the game), the rival holding a
# block too: ending is a coin flip (the seeded order decides whose block
# lands first: a draw, or a loss when that block ends the game too). It
# waits while the rival's blocks are far from its top row, flips the coin
# while the rival's own block cannot end the game yet, and ends at once
# when ahead.
# rt_go RIVAL HAND: the game and one go to seat 0, the rival's board RIVAL.
rt_go() {
	python3 - "$1" "$2" <<'PY'
import sys
cells, hand = sys.argv[1], sys.argv[2]
def board(filled):
    return "/".join("".join("I" if (x, y) in filled else "." for x in range(10)) for y in range(19, -1, -1))
spine = {(0, y) for y in range(16)}
rival = {"low": {(x, 0) for x in range(10)} | {(x, 1) for x in range(6)},
         "tall": {(9, y) for y in range(16)},
         "behind": {(x, 0) for x in range(10)} | {(x, 1) for x in range(2)}}[cells]
print("tetrarena 1")
print("game 1 variant=rush seat=0 players=2 options=width:10,height:20,box:20,lockstep:0,pace:100 "
      "time=bank:60000,inc:1000,move:5000,start:10000")
print("go 5000 bank=60000 players=2 width=10 height=20 mode=realtime status=play end=- tick=16 tetris=- "
      "retired=- box=I12,O20,T19,J20,L20,S20,Z20 hands=I,%s slots=-,- uncovered=%d,%d taken=5,5 "
      "placed=4,4 given=0,0 discarded=0,0 pending=- board0=%s board1=%s"
      % (hand, 200 - len(spine), 200 - len(rival), board(spine), board(rival)))
print("quit")
PY
}
ends() { rt_go "$1" "$2" | "$bot" 2>>"$tmp/err" | grep -q '^move place:I1@0,16$'; }
waits() { ! ends "$@"; }
check "even, the rival low on its board: it waits" waits low I
check "even, the rival near its top row, holding a T that cannot end it: it flips the coin" ends tall T
check "even, the rival could end the game with the I it holds: it flips the coin" ends tall I
check "one block ahead: it ends the game" ends behind I
# share SEATS KIND...: seat 0's share of first places in 40 games, per mille
# (a first place shared by k seats counts 1/k); also writes its losses to $tmp/lost.
share() {
	"$bot" --harness 40 1 "$@" 2>>"$tmp/err" | awk -v lost="$tmp/lost" '
		{ split($5, r, /[=,]/); top = 0
		  for (i = 2; i in r; i++) top += r[i] == 1
		  if (r[2] == 1) s += 1 / top; else l++ }
		END { printf "%d\n", 1000 * s / NR; print l + 0 >lost }'
}
new3=$(share ai noconflicts noconflicts); new3_lost=$(cat "$tmp/lost")
old3=$(share noconflicts noconflicts noconflicts); old3_lost=$(cat "$tmp/lost")
check "3 players: with the model it ranks first in all but at most 4 of 40 (lost $new3_lost)" \
	[ "$new3_lost" -le 4 ]
check "3 players: without it, seat 0 loses more (lost $old3_lost) and shares less ($old3 to $new3 per mille)" \
	[ "$old3_lost" -gt "$new3_lost" -a "$old3" -lt "$new3" ]
new4=$(share ai noconflicts noconflicts noconflicts)
old4=$(share noconflicts noconflicts noconflicts noconflicts)
check "4 players: with the model its share of first places is higher ($new4 to $old4 per mille)" \
	[ "$new4" -gt "$old4" ]
exit $fail
