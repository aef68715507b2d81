#!/bin/sh
# t5001: Tetroll through bin/referee: bot-random against bot-tetroll on
# seed 3 (the issue's example) and solo games of both bots (and of an
# --objective mode) end by the rules without faults; every log passes `referee verify`, `rerun` plays
# the same game again and `view` shows the final sheet; a bot that plays an
# illegal move forfeits: its game ends, it ranks last, the other goes on;
# --rollouts reaches the search and refuses a bad count.
# check-long: bot-tetroll at 5 s a move (full strength); make check gives
# it 400 ms a move (one roll ahead, from 300 ms; at CI's TIME_SCALE=3 1.2 s,
# still under the 2 s where rollouts start, and room for a starved core).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
build=${TETRARENA_BUILD:-$top/build/opt}
need "$ref"
random="$top/bin/bot-random"
ai="$top/bin/bot-tetroll"
fake="$build/tests/prog-fakebot"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms "$(long_or 400 5000)"),start:$(ms 10000)"

# play NAME SEED BOT...: one game, its JSON in $tmp/NAME.json, log in $tmp/NAME.log
play() {
	name=$1 seed=$2
	shift 2
	"$ref" play --variant tetroll --seed "$seed" --time "$time" --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
verify() { "$ref" verify "$1" >/dev/null 2>"$tmp/verify.err" || { sed 's/^/# /' "$tmp/verify.err" >&2; false; }; }
rerun_same() { "$ref" rerun "$1" 2>&1 | grep -q '^same'; }
# view LOG: the last picture shows a score line and an ended game
view_final() { "$ref" view --no-colour "$1" >"$tmp/view" 2>&1 && grep -q '^seat 0: -\{0,1\}[0-9]* points' "$tmp/view" &&
	grep -q '^result: ranks=' "$tmp/view"; }

# refused FLAG VALUE TEXT: bot-tetroll exits 2 with one line holding TEXT
refused() {
	"$ai" "$1" "$2" </dev/null >/dev/null 2>"$tmp/refused.err"
	[ $? = 2 ] && [ "$(wc -l <"$tmp/refused.err")" = 1 ] && grep -q "$3" "$tmp/refused.err"
}

echo "1..27"
# --no-clock: rerun promises the same game only from bots that decide the
# same way on any machine; with the clock, a search that a loaded machine
# cuts short (CI's check-long once) picks another move on the rerun.
play a 3 "$random" "$ai --no-clock"
check "seed 3, bot-random vs bot-tetroll: referee exits 0" [ $? = 0 ]
check "seed 3: ended by the rules, no faults" clean "$tmp/a.json"
check "seed 3: bot-tetroll ranks first" \
	grep -q '"seat":1,"name":"[^"]*","score":-\{0,1\}[0-9]*,"rank":1,' "$tmp/a.json"
check "seed 3: verify passes" verify "$tmp/a.log"
check "seed 3: rerun plays the same game" rerun_same "$tmp/a.log"

play b 5 "$ai"
check "solo bot-tetroll: referee exits 0" [ $? = 0 ]
check "solo bot-tetroll: ended by the rules, no faults" clean "$tmp/b.json"
check "solo bot-tetroll: verify passes" verify "$tmp/b.log"
check "solo bot-tetroll: view shows the final sheet" view_final "$tmp/b.log"

# An objective mode plays a clean game; an unknown objective is a usage error.
play e 5 "$ai --objective mother-russia"
check "solo bot-tetroll --objective mother-russia: ended by the rules, verified" \
	eval 'clean "$tmp/e.json" && verify "$tmp/e.log"'
"$ai" --objective east </dev/null >/dev/null 2>"$tmp/bad.err"
rc=$?
check "bot-tetroll --objective east: exit 2 naming the objectives" \
	sh -c "[ $rc = 2 ] && grep -q 'mother-russia' '$tmp/bad.err'"
check "bot-tetroll --help names --objective" sh -c "'$ai' --help | grep -q -- '--objective'"
# The first-prize race (--race, 2 players): a clean, verified game at level
# 4 against the default; a bad weight is a usage error in one line.
play r 8 "$ai --level 4 --race 3" "$ai --level 4"
check "2 players, bot-tetroll --race 3: ended by the rules, no faults, verified" \
	eval 'clean "$tmp/r.json" && verify "$tmp/r.log"'
check "bot-tetroll --race 11: exit 2, one line naming the range" refused --race 11 '0 to 10'

# --rollouts N reaches the search: at 3 s a move (rollouts from 2 s), with
# --no-clock so that only N differs, the first decision where the sheets
# valued differ (the games part there) values more with 8 than with 4.
evals() { awk '$4 == "info" && $5 == "evals" { print $6 }' "$1"; }
more() {	# more A B: game B valued more sheets than game A at the first move they differ
	evals "$tmp/$1.log" >"$tmp/e.$1" && evals "$tmp/$2.log" >"$tmp/e.$2" &&
		paste "$tmp/e.$1" "$tmp/e.$2" | awk '$1 != $2 { r = $2 + 0 > $1 + 0 ? 0 : 1; found = 1; exit } END { exit found ? r : 1 }'
}
# These games compare sheet counts, not clocks: a minute's grace, so that a
# sanitized bot on a loaded machine (a move past 9 s once, in CI) is not
# a timeout that makes a game unclean.
time_save=$time
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 3000),start:$(ms 10000),grace:$(ms 60000)"
# (--no-clock: the same moves however busy the machine, so these games
# play two at a time: the test's wall time, not its work, halves)
play r4 5 "$ai --rollouts 4 --no-clock" &
play r8 5 "$ai --rollouts 8 --no-clock" &
wait
# --rollout-depth D cuts each rollout D turns on: fewer sheets than to the end
play d2 5 "$ai --rollouts 8 --rollout-depth 2 --no-clock" &
# --spend F scales the rollouts' sheet cap: at a quarter, 32 rollouts stop
# after fewer rounds on the wide decisions than at the default (16
# rollouts: the first decision where they differ values 155516 sheets at a
# quarter and 271690 at the default)
play s1 5 "$ai --rollouts 16 --no-clock" &
wait
play sq 5 "$ai --rollouts 16 --spend 0.25 --no-clock" &
# At 2 players racing the defaults are rollouts cut at 4 turns and the
# margin's weights: the same game as asking for them, another game than
# rollouts to the end on the hand-set sum (the default alone).
play pd 9 "$ai --rollouts 8 --no-clock" "$ai --rollouts 8 --no-clock" &
wait
play pe 9 "$ai --rollouts 8 --rollout-depth 4 --eval margin --no-clock" "$ai --rollouts 8 --rollout-depth 4 --eval margin --no-clock" &
play ph 9 "$ai --rollouts 8 --rollout-depth 0 --eval hand --no-clock" "$ai --rollouts 8 --rollout-depth 0 --eval hand --no-clock" &
wait
time=$time_save
check "--rollouts 8 values more sheets than --rollouts 4 where they first differ, both games clean" \
	eval 'clean "$tmp/r4.json" && clean "$tmp/r8.json" && more r4 r8'
check "bot-tetroll --rollouts 0: exit 2, one line naming the range" refused --rollouts 0 '1 to 256'
check "--rollout-depth 2 values fewer sheets than rollouts to the end where they first differ, both games clean" \
	eval 'clean "$tmp/d2.json" && more d2 r8'
check "bot-tetroll --rollout-depth 33: exit 2, one line naming the range" refused --rollout-depth 33 '0 to 32'
check "--spend 1 values more sheets than --spend 0.25 where they first differ, both games clean" \
	eval 'clean "$tmp/s1.json" && clean "$tmp/sq.json" && more sq s1'
check "bot-tetroll --spend 3: exit 2, one line naming the range" refused --spend 3 '0.25 to 2.5'
moves() { grep '^move ' "$tmp/$1.log" | cut -d' ' -f1-3; }
check "2 players: the defaults play as --rollout-depth 4 --eval margin, both games clean" \
	eval 'clean "$tmp/pd.json" && clean "$tmp/pe.json" && [ "$(moves pd)" = "$(moves pe)" ]'
check "2 players: the defaults play otherwise than --rollout-depth 0 --eval hand (clean)" \
	eval 'clean "$tmp/ph.json" && [ "$(moves pd)" != "$(moves ph)" ]'

play c 6 "$random"
check "solo bot-random: ended by the rules, verified" eval 'clean "$tmp/c.json" && verify "$tmp/c.log"'

# The illegal bot plays legal moves for 3 decisions, then an illegal one.
play d 7 "$fake illegal 3" "$ai"
check "forfeit: referee exits 0" [ $? = 0 ]
check "forfeit: the faulting seat ranks last" \
	grep -q '"seat":0,"name":"[^"]*","score":-\{0,1\}[0-9]*,"rank":2,' "$tmp/d.json"
check "forfeit: the game ended at once (2 players, one left)" sh -c "[ \$(grep -c '^move 1 ' '$tmp/d.log') -le 3 ]"
check "forfeit: verify passes" verify "$tmp/d.log"
exit $fail
