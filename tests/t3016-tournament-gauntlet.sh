#!/bin/sh
# t3016-tournament-gauntlet: `--gauntlet NAME` plays only the games NAME
# sits in: every other bot against it, in both seatings, on the seeds of
# the full round robin (the same games, with the same ids and results, as
# those of a full run); its standings count only those; the gauntlet is
# part of the tournament's identity; an unknown name is refused. A
# finished tournament run again with --games raised keeps every game
# played, plays only the new ones and ends with the standings of a fresh
# run of that size; --games lowered is refused.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..9"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
tour() {
	"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 2 --seed 12 -q \
		--time "$time" --bootstrap 20 --bot "a=$fake legal 0" --bot "b=$fake multi 2" \
		--bot "c=$fake legal 5" --bot "d=$fake legal 1" "$@"
}
tour -o "$tmp/full" >/dev/null 2>&1
tour -o "$tmp/g" --gauntlet c >/dev/null 2>"$tmp/g.err"
check "a gauntlet runs (status $?)" [ -s "$tmp/g/standings.json" ]
games() { grep '^game ' "$1/journal.txt" | sed 's/ ms=[0-9]*//; s/ mean=[^ ]*//; s/ max=[^ ]*//; s/ check=.*//' | sort; }
games "$tmp/g" >"$tmp/g.games"
check "it plays the 12 games of c (3 opponents, 2 seatings, 2 seeds), each with c in it" \
	sh -c "[ \$(wc -l <'$tmp/g.games') = 12 ] && [ -z \"\$(grep -v 'bots=2,\|bots=[0-9],2 ' '$tmp/g.games')\" ]"
games "$tmp/full" | grep 'bots=2,\|bots=[0-9],2 ' >"$tmp/full.games"
check "the same games, ids and results as the full round robin's games of c" cmp -s "$tmp/full.games" "$tmp/g.games"
check "the standings count them: 12 of 12 games, c in all" \
	sh -c "grep -q '\"games\": 12,' '$tmp/g/standings.json' && grep -q '\"total\": 12,' '$tmp/g/standings.json'"
tour -o "$tmp/x" --gauntlet nobody >/dev/null 2>"$tmp/x.err"
check "an unknown gauntlet bot is refused" sh -c "[ $? = 2 ] && grep -q 'gauntlet nobody: no such bot' '$tmp/x.err'"

# extending a finished tournament
tour -o "$tmp/ext" >/dev/null 2>&1
before=$(grep -c '^game ' "$tmp/ext/journal.txt")
cp "$tmp/ext/games/000000.log" "$tmp/log0"
"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 4 --seed 12 -q \
	--time "$time" --bootstrap 20 --bot "a=$fake legal 0" --bot "b=$fake multi 2" \
	--bot "c=$fake legal 5" --bot "d=$fake legal 1" -o "$tmp/ext" >/dev/null 2>"$tmp/ext.err"
st=$?
after=$(grep -c '^game ' "$tmp/ext/journal.txt")
check "--games raised from 2 to 4 extends the finished tournament (status $st, $before then $after games)" \
	sh -c "[ $st = 0 ] && [ $before = 24 ] && [ $after = 48 ] && grep -q 'extending .* from 2 to 4 games per seating' '$tmp/ext.err'"
check "the games played are kept as they were, not played again" \
	sh -c "cmp -s '$tmp/log0' '$tmp/ext/games/000000.log' &&
	       [ \$(grep '^game ' '$tmp/ext/journal.txt' | sed 's/.*id=\\([0-9]*\\) .*/\\1/' | sort -u | wc -l) = 48 ]"
"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 4 --seed 12 -q \
	--time "$time" --bootstrap 20 --bot "a=$fake legal 0" --bot "b=$fake multi 2" \
	--bot "c=$fake legal 5" --bot "d=$fake legal 1" -o "$tmp/fresh4" >/dev/null 2>&1
check "the extended standings equal a fresh run's of 4 games per seating" \
	sh -c "grep -v '_ms\"' '$tmp/ext/standings.json' >'$tmp/e.json'; grep -v '_ms\"' '$tmp/fresh4/standings.json' >'$tmp/f.json'; cmp -s '$tmp/e.json' '$tmp/f.json'"
tour -o "$tmp/ext" --games 1 >/dev/null 2>"$tmp/less.err"
check "--games lowered is refused, naming it" sh -c "[ $? = 1 ] && grep -q 'games: was 4, now 1' '$tmp/less.err'"
exit $fail
