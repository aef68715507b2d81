#!/bin/sh
# t3004-tournament-seed: dice nobody knows in advance, and the jail said.
# Two tournaments without a seed play different master seeds, each in its
# journal, standings (text and JSON) and report; a resume without a seed
# keeps the journal's; an explicit seed gives the same games byte for
# byte; shards without a seed are refused. A kept `multi` process never
# plays two games of one seed (it sees no dice twice) and is still reused
# across rounds. Standings and report say whether the bots ran jailed,
# and that they did not when `auto` finds no bwrap.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
dice=$build/tests/prog-dicebot
need "$ref" "$fake" "$dice"
header_seed() { sed -n '1s/.* seed=\([0-9]*\) .*/\1/p' "$1/journal.txt"; }
games() { grep -c '^game ' "$1/journal.txt" 2>/dev/null; }
standings() { grep -v '_ms"' "$1/standings.json"; }

echo "1..19"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
run() {	# run DIR [FLAGS...]: three fake bots, 2 seats, 2 seeds
	out=$1
	shift
	"$ref" tournament --variant link --options width:6,height:8 --games 2 -q \
		--time "$time" --bootstrap 20 -o "$out" \
		--bot a="$fake legal 0" --bot b="$fake multi 0" --bot c="$fake legal 3" "$@"
}

run "$tmp/r1" >"$tmp/r1.out" 2>"$tmp/r1.err"
st1=$?
run "$tmp/r2" >"$tmp/r2.out" 2>"$tmp/r2.err"
st2=$?
s1=$(header_seed "$tmp/r1")
s2=$(header_seed "$tmp/r2")
check "two tournaments without a seed run (exit 0, 0)" [ "$st1$st2" = 00 ]
check "each journal records its master seed ($s1, $s2)" [ -n "$s1" -a -n "$s2" ]
check "the two master seeds differ" [ "$s1" != "$s2" ]
check "standings.txt and stdout name the master seed" \
	sh -c "grep -q 'master seed $s1\$' '$tmp/r1/standings.txt' && grep -q 'master seed $s1\$' '$tmp/r1.out'"
check "standings.json names the master seed" grep -q "\"seed\": $s1," "$tmp/r1/standings.json"
check "report.html carries the master seed" grep -q "\"seed\": $s1," "$tmp/r1/report.html"
check "the round seeds differ too" \
	[ "$(sed -n '2s/.* seed=\([0-9]*\) .*/\1/p' "$tmp/r1/journal.txt")" != \
	  "$(sed -n '2s/.* seed=\([0-9]*\) .*/\1/p' "$tmp/r2/journal.txt")" ]

# Resume: keep the header and the first 5 games, run again without a seed.
head -n 6 "$tmp/r1/journal.txt" >"$tmp/cut" && cp "$tmp/cut" "$tmp/r1/journal.txt"
run "$tmp/r1" >/dev/null 2>"$tmp/resume.err"
st=$?
check "a resume without a seed takes the journal's and plays the rest" \
	sh -c "[ $st = 0 ] && [ $(games "$tmp/r1") = 12 ] && [ '$(header_seed "$tmp/r1")' = '$s1' ] &&
	       grep -q 'resuming' '$tmp/resume.err'"
run "$tmp/r1" --seed 7 >/dev/null 2>"$tmp/other.err"
st=$?
check "another explicit seed on that journal is refused (exit 1)" \
	sh -c "[ $st = 1 ] && grep -q 'another tournament' '$tmp/other.err'"

# An explicit seed: the same games, byte for byte.
run "$tmp/e1" --seed 42 >/dev/null 2>&1
run "$tmp/e2" --seed 42 >/dev/null 2>&1
check "--seed 42 is recorded as given" [ "$(header_seed "$tmp/e1")" = 42 ]
# The game records compared: every line but the wire's (whose order
# between seats and times vary) and the moves' times.
untimed() { grep -v -e '^[<>] ' -e '^traffic ' "$1" | sed 's/ wall=[0-9.]* cpu=[0-9.]*//'; }
same=1
for f in "$tmp"/e1/games/*.log; do
	untimed "$f" >"$tmp/a.log"
	untimed "$tmp/e2/games/$(basename "$f")" >"$tmp/b.log"
	cmp -s "$tmp/a.log" "$tmp/b.log" || same=0
done
check "--seed 42 twice: the same game records byte for byte (times aside)" \
	sh -c "[ $same = 1 ] && [ $(ls "$tmp"/e1/games/*.log | wc -l) = 12 ]"
standings "$tmp/e1" >"$tmp/e1.json"
standings "$tmp/e2" >"$tmp/e2.json"
check "--seed 42 twice: the same standings" cmp -s "$tmp/e1.json" "$tmp/e2.json"

st=$(run "$tmp/sh" --shard 0/2 2>&1 >/dev/null; echo "rc=$?")
check "shards without a seed: one clear usage error (exit 2)" \
	sh -c "echo '$st' | grep -q 'rc=2' && [ $(echo "$st" | grep -c 'master seed') = 1 ]"

# A kept multi process never sees a seed twice: 3 dice bots, 2 seats, 3
# seeds; each bot plays 4 games a round, all on the round's seed.
"$ref" tournament --variant link --options width:6,height:8 -p 2 --games 3 -q -j 1 \
	--sandbox off --time "$time" --bootstrap 0 -o "$tmp/dice" \
	--bot x="$dice $tmp/seen" --bot y="$dice $tmp/seen" --bot z="$dice $tmp/seen" >/dev/null 2>"$tmp/dice.err"
st=$?
check "the dice tournament runs (exit 0, 18 games)" sh -c "[ $st = 0 ] && [ $(games "$tmp/dice") = 18 ]"
check "every seat wrote down its dice (36 lines)" [ "$(wc -l <"$tmp/seen")" = 36 ]
# A repeat: the same process, the same first 8 chance lines.
repeats=$(awk '{ d = $0; sub(/^[0-9]+ [0-9]+ /, "", d); split(d, c, ";"); k = $1; for (i = 1; i <= 8 && i in c; i++) k = k ";" c[i];
		 if (seen[k]++) r++ } END { print r + 0 }' "$tmp/seen")
check "no process saw the same dice twice ($repeats repeats)" [ "$repeats" = 0 ]
procs=$(cut -d' ' -f1 "$tmp/seen" | sort -u | wc -l)
reused=$(awk '$2 > 1' "$tmp/seen" | wc -l)
check "kept processes are still reused across rounds ($procs processes, $reused later games)" \
	[ "$reused" -gt 0 ]

# The jail in standings and report: `auto` without bwrap (none on PATH)
# says off; with a working bwrap, on.
PATH=/nonexistent "$ref" tournament --variant link --options width:6,height:8 --games 1 -q \
	--time "$time" --bootstrap 0 -o "$tmp/bare" \
	--bot a="$fake legal 0" --bot b="$fake legal 0" >"$tmp/bare.out" 2>"$tmp/bare.err"
check "auto without bwrap: standings say the bots ran unjailed" \
	sh -c "grep -q '^sandbox: off (bots ran without a jail: sandbox auto found no working bwrap)' '$tmp/bare/standings.txt' &&
	       grep -q '\"sandbox\": { \"text\": \"off (bots ran without a jail' '$tmp/bare/standings.json' &&
	       grep -q '\"unavailable\": 2 }' '$tmp/bare/standings.json' &&
	       grep -q 'off (bots ran without a jail' '$tmp/bare/report.html' &&
	       grep -q 'ST.sandbox.text' '$tmp/bare/report.html'"
if [ -n "$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" \
	"$fake legal 0" "$fake legal 0" 2>&1 >/dev/null | grep -i sandbox)" ]; then
	skip "no working bwrap here: cannot show sandbox on"
else
	check "jailed: standings say sandbox on" \
		sh -c "grep -q '^sandbox: on (each bot in its own bwrap jail)' '$tmp/e1/standings.txt' &&
		       grep -q '\"on\": 12, \"off\": 0, \"unavailable\": 0 }' '$tmp/e1/standings.json'"
fi
exit $fail
