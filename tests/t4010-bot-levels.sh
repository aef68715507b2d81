#!/bin/sh
# t4010-bot-levels: every AI (bot-link, bot-tetroll, bot-rush, bot-matrix)
# takes --level 1..5 (bots/botlevel.h): a bad or missing value is refused
# with one line naming it and exit 2; every level plays legal whole games
# through bin/referee (no fault, ended by the rules, the log verifies); the
# noisy levels replay the same game from the same seed; a bots file can
# offer a level. Short time controls: strength is measured elsewhere
# (docs/ai/, the level tables).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-rush" "$top/bin/bot-matrix"
# 500 ms a move: what a level searches is not measured here, only that
# its moves are legal and its games whole (the stretch goes to the grace)
time="bank:$(ms 20000),inc:$(ms 500),move:500,start:$(ms 10000),grace:$(ms 1000)"

echo "1..40"
for bot in link tetroll rush matrix; do
	prog="$top/bin/bot-$bot"
	for bad in 0 6 x 2.5 ""; do
		"$prog" --level "$bad" </dev/null >"$tmp/out" 2>"$tmp/err"
		rc=$?
		refused() {
			[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
				grep -q "^bot-$bot: bad --level '$bad': want an integer from 1 (weakest) to 5" "$tmp/err"
		}
		check "bot-$bot --level '$bad' is refused in one line" refused
	done
	# A good level is taken, also as --level=N; the rest of the line still works.
	check "bot-$bot --level=3 --help exits 0" sh -c "'$prog' --level=3 --help >/dev/null 2>&1"
done

# play NAME VARIANT SEED [OPTION] BOT...: one game; JSON, log, stderr in $tmp/NAME.*
play() {
	name=$1 variant=$2 seed=$3
	shift 3
	"$ref" play --variant "$variant" --seed "$seed" --time "$time" --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
clean_game() {
	clean "$tmp/$1.json" &&
		"$ref" verify "$tmp/$1.log" >/dev/null 2>&1 && ! grep -q "not among\|not legal" "$tmp/$1.log".seat*.stderr
}
l() { echo "$top/bin/bot-$1 --level $2"; }

# Each level of each bot in a game: 1 against 2, 3 against 4, 5 against 1
# (link's and tetroll's at once: the test waits on clocks more than it
# computes).
for bot in link tetroll; do
	{
		play "$bot-12" $bot 3 "$(l $bot 1)" "$(l $bot 2)"
		play "$bot-34" $bot 4 "$(l $bot 3)" "$(l $bot 4)"
		play "$bot-51" $bot 5 "$(l $bot 5)" "$(l $bot 1)"
	} &
done
wait
for bot in link tetroll; do
	check "$bot: level 1 against level 2, a clean game" clean_game "$bot-12"
	check "$bot: level 3 against level 4, a clean game" clean_game "$bot-34"
	check "$bot: level 5 against level 1, a clean game" clean_game "$bot-51"
done
play rush-levels rush 3 --option lockstep=1 "$(l rush 1)" "$(l rush 2)" "$(l rush 3)" "$(l rush 4)" &
play rush-5 rush 4 --option lockstep=1 "$(l rush 5)" "$(l rush 1)" &
wait
check "rush (lockstep): levels 1-4 at one table, a clean game" clean_game rush-levels
check "rush (lockstep): level 5 against level 1, a clean game" clean_game rush-5
# check-long: the real-time rush game at the default pace (100 ms); make
# check plays it at a 10 ms pace.
# shellcheck disable=SC2046
play rush-rt rush 5 $(long_or "--option pace=10" "") "$(l rush 2)" "$(l rush 5)"
check "rush (real time): level 2 against level 5, a clean game" clean_game rush-rt
play matrix-levels matrix 3 "$(l matrix 1)" "$(l matrix 2)" "$(l matrix 3)" "$(l matrix 4)" "$(l matrix 5)" \
	"$top/bin/bot-random"
check "matrix: levels 1-5 and bot-random at one table, a clean game" clean_game matrix-levels

# Noise comes from the bot's seeded Rng: the same seed, the same game.
scores() { grep -o '"score":-\{0,1\}[0-9]*' "$tmp/$1.json"; }
play link-12b link 3 "$(l link 1)" "$(l link 2)" &
play tetroll-12b tetroll 3 "$(l tetroll 1)" "$(l tetroll 2)" &
wait
scores link-12 >"$tmp/a"
scores link-12b >"$tmp/b"
check "link: levels 1 and 2 play the same game again from the same seed" cmp -s "$tmp/a" "$tmp/b"
scores tetroll-12 >"$tmp/a"
scores tetroll-12b >"$tmp/b"
check "tetroll: levels 1 and 2 play the same game again from the same seed" cmp -s "$tmp/a" "$tmp/b"

# bot-rush's levels below 5 are slower in real time: before some answers
# (8% at level 1) they wait two paces, and say so in an info line; level
# 5 never waits, nor does any level in lockstep. 120 answers to the
# opening go (a pace of 5 ms): level 1 waits before none of them with
# probability 0.92^120, about 1 in 22000. (--gap 0: without the least
# time between answers of levels 1-3, t6006 tests that.)
board=$(printf '........../%.0s' $(seq 19))..........
rush_session() {	# LOCKSTEP: the session on stdin of a bot-rush
	echo "tetrarena 1"
	echo "game 1 variant=rush seat=0 players=2 options=width:10,height:20,box:20,lockstep:$1,pace:5 time=bank:60000,inc:1000,move:5000,start:10000"
	mode=realtime
	[ "$1" = 1 ] && mode=lockstep
	for _ in $(seq 120); do
		echo "moves take:I take:O take:T take:J take:L take:S take:Z"
		echo "go 5000 bank=60000 players=2 width=10 height=20 mode=$mode status=play end=- tick=0 tetris=- retired=- box=I20,O20,T20,J20,L20,S20,Z20 hands=-,- slots=-,- uncovered=200,200 taken=0,0 placed=0,0 given=0,0 discarded=0,0 pending=- board0=$board board1=$board"
	done
	echo quit
}
late() {	# LEVEL LOCKSTEP: how many answers of 120 came a pace late ("-" if not all 120 were moves, or it complained)
	rush_session "$2" | "$top/bin/bot-rush" --level "$1" --gap 0 >"$tmp/rush-late" 2>"$tmp/rush-late.err"
	if [ "$(grep -c '^move take:' "$tmp/rush-late")" = 120 ] && [ ! -s "$tmp/rush-late.err" ]; then
		grep -c '^info slow: this move a pace late' "$tmp/rush-late"
	else
		echo -
	fi
}
late_n=$(late 1 0)
check "rush level 1 in real time answers some moves a pace late ($late_n of 120)" [ "$late_n" != - -a "$late_n" != 0 ]
late_n=$(late 5 0)
check "rush level 5 in real time answers none late ($late_n of 120)" [ "$late_n" = 0 ]
late_n=$(late 1 1)
check "rush level 1 in lockstep answers none late ($late_n of 120)" [ "$late_n" = 0 ]

# A bots file offers a level by its command line.
printf '[bot easy]\ncommand = %s\n[bot hard]\ncommand = %s\n' "$(l link 1)" "$(l link 5)" >"$tmp/bots.ini"
play bots-file link 6 --bots "$tmp/bots.ini" easy hard
check "a bots file's command gives the level (easy, hard), a clean game" clean_game bots-file
