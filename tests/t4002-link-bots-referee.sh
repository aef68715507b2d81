#!/bin/sh
# t4002: our link bots play whole games through bin/referee: bot-random
# against the Python bot (the brief's example), bot-link against both,
# and a 4-player game (bot-link at its default, which plays whole games
# out at 3-4 players, and bot-link searching with its multi-player
# evaluation --mp-eval 2, playouts off); every game ends without a fault
# and its log passes `referee verify`. Skipped while bin/referee is not built.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
random="$top/bin/bot-random"
linkai="$top/bin/bot-link"
py="python3 $top/bots/python/linkbot.py"
# check-long: bot-link at 5 s a move (full strength); make check gives it
# 250 ms a move.
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms "$(long_or 250 5000)"),start:$(ms 10000)"

# play NAME SEED BOT...: one game, its JSON in $tmp/NAME.json, log in $tmp/NAME.log
play() {
	name=$1 seed=$2
	shift 2
	"$ref" play --variant link --seed "$seed" --time "$time" --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
verify() { "$ref" verify "$1" >/dev/null 2>&1; }

echo "1..14"
play a 1 "$random" "$py"
check "bot-random vs linkbot.py: referee exits 0" [ $? = 0 ]
check "bot-random vs linkbot.py: no faults" clean "$tmp/a.json"
check "bot-random vs linkbot.py: verify passes" verify "$tmp/a.log"

play b 2 "$linkai" "$py"
check "bot-link vs linkbot.py: referee exits 0" [ $? = 0 ]
check "bot-link vs linkbot.py: no faults" clean "$tmp/b.json"
check "bot-link vs linkbot.py: verify passes" verify "$tmp/b.log"

play c 3 "$random" "$linkai"
check "bot-random vs bot-link: referee exits 0" [ $? = 0 ]
check "bot-random vs bot-link: bot-link ranks first" \
	grep -q '"seat":1,"name":"[^"]*","score":-\{0,1\}[0-9]*,"rank":1,' "$tmp/c.json"
check "bot-random vs bot-link: verify passes" verify "$tmp/c.log"

play d 4 "$linkai" "$random" "$py" "$linkai --mp-eval 2 --opp-model 2 --mc 0"
check "four players: referee exits 0" [ $? = 0 ]
check "four players: no faults" clean "$tmp/d.json"
check "four players: verify passes" verify "$tmp/d.log"
check "four players: bot-link plays games out (info playouts N)" \
	grep -q '^< 0 [^ ]* info playouts [1-9]' "$tmp/d.log"
check "four players: with --mc 0 it searches instead" \
	sh -c "grep -q '^< 3 [^ ]* info depth' '$tmp/d.log' && ! grep -q '^< 3 [^ ]* info playouts' '$tmp/d.log'"
exit $fail
