#!/bin/sh
# t6006-rush-people: bot-rush levels 1-3 play rush as people do (issue 53,
# "low levels that play like people"; docs/ai/rush.md). In the in-process
# lockstep harness (deterministic for a seed, so these are exact): no
# level-1 game ends by a placement covering the top row while its seat
# leads and its block had a placement below the top (early_ends); games
# between two level-1 bots run until the boards are nearly full; a game
# against level 1 by a player who builds from the floor (levels 2 and 3
# stand in for a person) lasts at least as many placements as a game
# between two level-1 bots, over the same 10 seeds. Through the referee in
# real time (10 ms pace, no gap), level 1 against level 3 fills the boards
# too (before, level 1's column of I blocks ended games after about 20
# placements). The pace: in real time level 1 leaves 1.5 s between its
# answers and level 3 0.6 s, level 5 none, nor any level in lockstep.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
bot=$top/bin/bot-rush
need "$ref" "$bot"
echo "1..8"

# harness KIND KIND: 10 lockstep games from seed 1, one line each
harness() { "$bot" --harness 10 1 "$@" 2>>"$tmp/err"; }
# placements FILE: the mean blocks placed per game (both seats), x10
placements() { awk '{ split($6, p, /[=,]/); t += p[2] + p[3]; n++ } END { printf "%d\n", n ? 10 * t / n : 0 }' "$1"; }
harness level1 level1 >"$tmp/11"
harness level1 level2 >"$tmp/12"
harness level1 level3 >"$tmp/13"
early=$(awk '{ e += substr($7, 12) } END { print e + 0 }' "$tmp/11" "$tmp/12" "$tmp/13")
check "level 1 never ends a game ahead while another placement is left (early ends: $early)" \
	sh -c "[ $(wc -l <"$tmp/11") = 10 ] && [ $early = 0 ]"
short=$(awk '{ split($6, p, /[=,]/); if (p[2] + p[3] < 80) s++ } END { print s + 0 }' "$tmp/11")
check "two level-1 bots fill their boards: every game 80 placements or more (shorter: $short)" [ "$short" = 0 ]
p11=$(placements "$tmp/11") p12=$(placements "$tmp/12") p13=$(placements "$tmp/13")
check "a game against level 1 by level 2 lasts as long as level 1 against itself ($p12 >= $p11 tenths)" \
	[ "$p12" -ge "$p11" ]
check "... and by level 3 ($p13 >= $p11 tenths)" [ "$p13" -ge "$p11" ]

"$ref" play --variant rush --seed 3 --option pace=10 --log "$tmp/rt.log" "$bot --level 1 --gap 0" \
	"$bot --level 3 --gap 0" >/dev/null 2>&1
rt=$(grep -c '^move [01] place:' "$tmp/rt.log")
check "real time: level 1 against level 3 runs to nearly full boards ($rt placements)" \
	sh -c "[ $rt -ge 80 ] && grep -q 'reason=end' '$tmp/rt.log' && '$ref' verify '$tmp/rt.log' >/dev/null 2>&1"

# session MODE N: a rush session of N identical `go` lines, then quit
board=$(printf '........../%.0s' $(seq 19))..........
session() {
	lockstep=0
	[ "$1" = lockstep ] && lockstep=1
	echo "tetrarena 1"
	echo "game 1 variant=rush seat=0 players=2 options=width:10,height:20,box:20,lockstep:$lockstep,pace:5 time=bank:60000,inc:1000,move:5000,start:10000"
	for _ in $(seq "$2"); do
		echo "go 5000 bank=60000 players=2 width=10 height=20 mode=$1 status=play end=- tick=0 tetris=- retired=- box=I20,O20,T20,J20,L20,S20,Z20 hands=-,- slots=-,- uncovered=200,200 taken=0,0 placed=0,0 given=0,0 discarded=0,0 pending=- board0=$board board1=$board"
	done
	echo quit
}
# took LEVEL MODE N: ms from the first `go` to the end of the session
took() {
	session "$2" "$3" >"$tmp/in"
	start=$(date +%s%N)
	"$bot" --level "$1" <"$tmp/in" >"$tmp/out" 2>&1
	end=$(date +%s%N)
	[ "$(grep -c '^move ' "$tmp/out")" = "$3" ] || { echo -1; return; }
	echo $(((end - start) / 1000000))
}
t1=$(took 1 realtime 2) t3=$(took 3 realtime 3) t5=$(took 5 realtime 20) tl=$(took 1 lockstep 20)
check "real time: level 1 leaves 1.5 s between answers (2 answers: $t1 ms)" [ "$t1" -ge 3000 ]
check "... level 3 0.6 s (3 answers: $t3 ms)" [ "$t3" -ge 1800 -a "$t3" -lt "$(ms 3000)" ]
check "... level 5 none (20 answers: $t5 ms), nor level 1 in lockstep (20: $tl ms)" \
	[ "$t5" -ge 0 -a "$t5" -lt "$(ms 1500)" -a "$tl" -ge 0 -a "$tl" -lt "$(ms 1500)" ]
[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err" >&2
exit $fail
