#!/bin/sh
# t2017-stderr-files: a seat's stderr file (LOG.seatN.stderr) is made at
# the bot's first byte on stderr: a quiet bot costs its game no file, a
# file left from an earlier run of the same log is removed, a kept `multi`
# bot gets a file per game only for the games it wrote in; a tournament's
# report (up to REPORT_REPLAYS_MAX games) makes the empty files it links.
# A tournament's logs are made and written by helper threads (asyncfile.h):
# one that cannot be made keeps its game out of the journal, named, and the
# run stops.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..10"
time="bank:$(ms 20000),inc:0,move:$(ms 2000),start:$(ms 5000),grace:$(ms 100)"
play() { "$ref" play --variant link --option width=6 --option height=8 --seed 2 --time "$time" \
	--sandbox off --log "$tmp/g.log" "$@" >/dev/null 2>&1; }

echo "an old run's words" >"$tmp/g.log.seat0.stderr"
play "$fake legal" "$fake burn 0"
check "a bare game is played" [ $? = 0 ]
check "the quiet seat has no stderr file (the old one is gone)" [ ! -e "$tmp/g.log.seat0.stderr" ]
# (CI under SANITIZE=1 once found one there: what it held, if it recurs)
[ ! -e "$tmp/g.log.seat0.stderr" ] || head -c 2000 "$tmp/g.log.seat0.stderr" | sed 's/^/# seat 0 stderr: /' >&2
check "the seat that wrote has its file, with its words" grep -q '^cpu limit' "$tmp/g.log.seat1.stderr"
play "$fake burn 0" "$fake legal"
check "a file is this game's: seat 0 wrote, seat 1 did not" \
	[ -s "$tmp/g.log.seat0.stderr" -a ! -e "$tmp/g.log.seat1.stderr" ]
"$ref" view --html "$tmp/g.log" -o "$tmp/g.html" >/dev/null 2>&1
check "a replay page is made with a seat's file missing" [ $? = 0 -a -s "$tmp/g.html" ]

# a tournament of a kept quiet bot: the report links every seat's file
"$ref" tournament --variant link --options width:6,height:8 --games 2 --seed 3 -j 1 -q --sandbox off \
	--time "$time" -o "$tmp/t" --bot "q=$fake multiexit" --bot "l=$fake legal" >/dev/null 2>&1
check "the tournament ran" [ $? = 0 -a -s "$tmp/t/report.html" ]
missing=0
for log in "$tmp"/t/games/*.log; do
	for s in 0 1; do [ -e "$log.seat$s.stderr" ] || missing=$((missing + 1)); done
done
check "every seat's stderr file the report links exists ($missing missing)" [ "$missing" = 0 ]

# the log of game 4 cannot be made (a directory stands there)
mkdir "$tmp/t/games/000004.log"
"$ref" tournament --variant link --options width:6,height:8 --games 3 --seed 3 -j 1 -q --sandbox off \
	--time "$time" -o "$tmp/t" --bot "q=$fake multiexit" --bot "l=$fake legal" >"$tmp/t.out" 2>"$tmp/t.err"
check "a log that cannot be made stops the run (exit 1)" [ $? = 1 ]
check "the message names the game and its log" \
	grep -q "game 4: the log: cannot write .*games/000004.log: Is a directory" "$tmp/t.err"
check "the game is not in the journal (played again on resume)" \
	[ -z "$(grep '^game id=4 ' "$tmp/t/journal.txt")" -a "$(grep -c '^game id=[0-3] ' "$tmp/t/journal.txt")" = 4 ]
exit $fail
