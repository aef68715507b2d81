#!/bin/sh
# t2001-referee-cli: the referee's command line end to end: play (text
# and JSON), verify, view, rerun, bots files, usage errors (exit 2) and
# runtime failures (exit 1), tampered and truncated logs, no leftovers.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
build=${TETRARENA_BUILD:-$top/build/opt}
fake=$build/tests/prog-fakebot
marker="t2001-$$"
# exit status of a command, its output kept in $tmp/out and $tmp/err
status() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
# is_and_says STATUS WANT PATTERN FILE: status matches and FILE has PATTERN
is_and_says() { [ "$1" = "$2" ] && grep -q -- "$3" "$4"; }

echo "1..34"
time="bank:$(ms 2000),inc:0,move:$(ms 500),start:$(ms 3000),grace:$(ms 50)"

st=$(status "$ref" play --variant link --seed 5 --time "$time" --option height=8 --option width=6 \
	--log "$tmp/a.log" "$fake legal 0 $marker" "$fake legal 0 $marker")
check "play exits 0" [ "$st" = 0 ]
check "play prints both seats and the log" grep -q "^seat 1 .*rank" "$tmp/out"
check "verify passes" [ "$(status "$ref" verify "$tmp/a.log")" = 0 ]

st=$(status "$ref" play --variant link --seed 5 --json --time "$time" --option height=8 --option width=6 \
	--log "$tmp/b.log" "$fake legal 0 $marker" "$fake crash 2 $marker")
check "play --json exits 0" [ "$st" = 0 ]
check "JSON names variant, seed, seats, faults and log" \
	grep -q '^{"variant":"link","seed":5,.*"faults":{"crash":1}.*"log":"' "$tmp/out"
check "the JSON parses" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out"
check "no fake bot outlives the referee" [ -z "$(pgrep -f "$marker")" ]
check "verify passes on a game with a crash" [ "$(status "$ref" verify "$tmp/b.log")" = 0 ]

# a bot's child that leaves the bot's process group (setsid) escapes the
# group kill; the referee adopts it when the bot dies and ends it
escaper="$marker-escape"
st=$(status "$ref" play --variant link --seed 5 --time "$time" --option height=8 --option width=6 \
	--log "$tmp/e.log" "$fake escape 1 $escaper" "$fake legal 0 $escaper")
check "play with an escaping child exits 0" [ "$st" = 0 ]
check "not even a child that left the group outlives the referee" [ -z "$(pgrep -f "$escaper")" ]

# a referee stopped by a signal takes its bots (and their groups) with it
stopped="$marker-term"
"$ref" play --variant link --seed 5 --time "bank:60000,move:60000,start:$(ms 3000)" \
	--log "$tmp/s.log" "$fake family 1 $stopped" "$fake family 1 $stopped" >/dev/null 2>&1 &
pid=$!
tries=0
while [ "$(pgrep -f "$stopped" | wc -l)" -lt 3 ] && [ $tries -lt 100 ]; do sleep 0.05; tries=$((tries + 1)); done
sleep 0.2
kill -TERM $pid
wait $pid 2>/dev/null
st=$?
check "SIGTERM ends the referee by that signal" [ "$st" = 143 ]
tries=0
while [ -n "$(pgrep -f "$stopped")" ] && [ $tries -lt 40 ]; do sleep 0.05; tries=$((tries + 1)); done
check "and no bot nor a bot's child outlives it" [ -z "$(pgrep -f "$stopped")" ]

st=$(status "$ref" view --no-colour "$tmp/a.log")
check "view exits 0" [ "$st" = 0 ]
check "view draws boards" grep -q "^   +---" "$tmp/out"
check "view shows the result" grep -q "^result: ranks=" "$tmp/out"

st=$(status "$ref" rerun --log "$tmp/c.log" "$tmp/a.log")
check "rerun reproduces the game" is_and_says "$st" 0 "^same" "$tmp/out"

# tamper: change the recorded result's first score
sed 's/^\(result ranks=[0-9,]* scores=\)\(-\{0,1\}[0-9]*\)/\1999/' "$tmp/a.log" >"$tmp/t.log"
line=$(grep -n "^result " "$tmp/t.log" | cut -d: -f1)
st=$(status "$ref" verify "$tmp/t.log")
check "verify fails on a changed score" [ "$st" = 1 ]
check "verify names the result's line" grep -q "t.log:$line: seat 0's score" "$tmp/err"

# truncated log: cut in the middle of a line
size=$(wc -c <"$tmp/a.log")
head -c $((size / 2)) "$tmp/a.log" >"$tmp/cut.log"
st=$(status "$ref" verify "$tmp/cut.log")
check "verify of a cut log exits 1" [ "$st" = 1 ]
check "verify says the cut log ends early" grep -q "ends before its result (cut short)" "$tmp/err"

# bots file
cat >"$tmp/bots.ini" <<EOT
[bot quick]
command=$fake legal 0 $marker
workdir=.
memory=512
cpu=10

[bot wrong]
command=$fake illegal 1 $marker
EOT
st=$(status "$ref" play --variant link --seed 2 --bots "$tmp/bots.ini" --time "$time" \
	--option height=8 --log "$tmp/d.log" quick wrong)
check "play with a bots file" is_and_says "$st" 0 "^seat 1 [^ ]* *(wrong) .*illegal" "$tmp/out"
printf '[bot x]\nworkdir=/\n' >"$tmp/bad.ini"
st=$(status "$ref" play --variant link --bots "$tmp/bad.ini" x x)
check "a bots file without command= is a runtime error" is_and_says "$st" 1 "has no command=" "$tmp/err"

check "no command: exit 2" [ "$(status "$ref")" = 2 ]
check "unknown command: exit 2" [ "$(status "$ref" frobnicate)" = 2 ]
check "play without --variant: exit 2" [ "$(status "$ref" play a b)" = 2 ]
check "unknown variant: exit 2" [ "$(status "$ref" play --variant nope a b)" = 2 ]
st=$(status "$ref" play --variant link --option height=99 a b)
check "option out of bounds: exit 2 naming it" is_and_says "$st" 2 "height=99" "$tmp/err"
st=$(status "$ref" play --variant link --option width=99 a b)
check "option out of bounds: its range said" is_and_says "$st" 2 "width=99: want a whole number from 4 to 16" "$tmp/err"
st=$(status "$ref" play --variant link --option wid=9 a b)
check "unknown option: the variant's options said" is_and_says "$st" 2 "link takes width, height, pieces" "$tmp/err"
check "one bot for link: exit 2" [ "$(status "$ref" play --variant link a)" = 2 ]
check "a CPU that is not there: exit 2, named" \
	is_and_says "$(status "$ref" play --variant link --cpu 4096 a b)" 2 "cpu 4096" "$tmp/err"
echo "not a log" >"$tmp/junk.log"
st=$(status "$ref" verify "$tmp/junk.log")
check "verify of a non-log: exit 1 with a message" is_and_says "$st" 1 "not a tetrarena game log" "$tmp/err"
v=$("$ref" --version)
logv=$("$ref" play --variant link --seed 1 --log "$tmp/version.log" "$top/bin/bot-random" "$top/bin/bot-random" >/dev/null 2>&1; sed -n 's/^referee //p' "$tmp/version.log")
check "referee --version prints the version the logs carry, the protocol and the variants" \
	sh -c "[ -n '$logv' ] && printf '%s\n' '$v' | grep -qx 'referee $logv' &&
	       printf '%s\n' '$v' | grep -q '^protocol 1' && printf '%s\n' '$v' | grep -q '^variants: link tetroll'"
"$ref" play --variant link --seed 1 "sh $top/bots/sh/random.sh" "$top/bin/bot-random" >"$tmp/hello" 2>&1
check "play's summary names a seat by its hello name, the command's name beside it" \
	sh -c "grep -q '^seat 0 random-sh (random.sh) *rank ' '$tmp/hello' && grep -q '^seat 1 bot-random  *rank ' '$tmp/hello'"
exit $fail
