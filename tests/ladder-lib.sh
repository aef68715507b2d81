# tests/ladder-lib.sh: what the ladder's tests (t31NN) share; sourced after
# tests/tap.sh.
#
# It needs the referee, bot-random and the fake bot ($fake); L is the
# test's ladder directory, $tmp/ladder (q SQL queries it);
# ladder_time is a short time control for instant bots (scaled by ms; 300
# ms a move: at 100, bot-random in a 7-seat admission game timed out once
# under make check's parallel load and t3104 could not build its ladder);
# lq DIR SQL prints the rows of a query on DIR's database (columns joined
# by |, a row a line), read with Python's sqlite3 (no sqlite3 program
# needed); ldump DIR [WHERE] prints every game a line, `id seed kind
# bot:rank:score...`, to compare two ladders' games; field EXPR prints
# a Python expression over the keys of $tmp/out.json (what
# tests/browser.py's `ladder` page run printed).
fake=$build/tests/prog-fakebot
need "$ref" "$fake" "$top/bin/bot-random"
L=$tmp/ladder
ladder_time=bank:$(ms 1000),move:$(ms 300),start:$(ms 3000)
lq() {
	python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join(str(c) for c in r))' "$1/ladder.db" "$2"
}
ldump() {
	lq "$1" "SELECT g.id, g.seed, g.kind, group_concat(s.bot || ':' || s.rank || ':' || s.score, ' ')
		FROM games g JOIN seats s ON s.game = g.id ${2:-} GROUP BY g.id ORDER BY g.id" | tr '|' ' '
}
q() { lq "$L" "$1"; }
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, d))' "$tmp/out.json" "$1"; }
