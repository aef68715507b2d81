#!/bin/sh
# t3002-tournament-shards: shards played apart and merged give the same
# standings as one run; a merge of another tournament's journal is refused;
# usage errors exit 2; a tournament file works like flags; the merge writes
# report.html over every shard's games, with their replays.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
build=${TETRARENA_BUILD:-$top/build/opt}
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
games() { cat "$1/journal.txt" 2>/dev/null | grep -c '^game '; }
results() { cut -d, -f1-11 "$1/games.csv"; }
standings() { grep -v '_ms"' "$1/standings.json"; }

echo "1..27"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
cat >"$tmp/t.ini" <<EOT
[tournament]
variant = link
options = width:6,height:8
players = 3
games = 2
seed = 4
time = $time
bootstrap = 50
output = $tmp/one

[bots]
a = $fake legal 0
b = $fake multi 0
c = $fake legal 2
d = $fake legal 5
EOT
"$ref" tournament "$tmp/t.ini" -q >"$tmp/one.out" 2>"$tmp/one.err"
check "a tournament file runs (exit 0)" [ $? = 0 ]
check "4 bots in 3-player games: 4 subsets x 6 seatings x 2 seeds" [ "$(games "$tmp/one")" = 48 ]
check "-q: no progress line" [ -z "$(grep 'games/s' "$tmp/one.err")" ]
for i in 0 1 2; do
	"$ref" tournament "$tmp/t.ini" -q --shard $i/3 -o "$tmp/s$i" >/dev/null 2>>"$tmp/s.err"
done
check "shards hold disjoint parts of the schedule" \
	[ $(($(games "$tmp/s0") + $(games "$tmp/s1") + $(games "$tmp/s2"))) = 48 ]
rm -f "$tmp/s1/games/000001.log.html"	# the merge's report writes it again
"$ref" merge -o "$tmp/m" "$tmp/s2" "$tmp/s0" "$tmp/s1" >"$tmp/m.out" 2>"$tmp/m.err"
check "merge exits 0" [ $? = 0 ]
results "$tmp/one" >"$tmp/one.csv"
results "$tmp/m" >"$tmp/m.csv"
check "merged games equal one run's" cmp -s "$tmp/one.csv" "$tmp/m.csv"
standings "$tmp/one" >"$tmp/one.json"
standings "$tmp/m" >"$tmp/m.json"
check "merged standings equal one run's" cmp -s "$tmp/one.json" "$tmp/m.json"
check "merge prints the standings" grep -q "^  1 " "$tmp/m.out"
check "merge writes report.html with the games of all three shards" \
	sh -c "for i in 0 1 2; do grep -q '$tmp/s'\$i'/games/' '$tmp/m/report.html' || exit 1; done"
check "and the replay of a shard's game that had none" [ -s "$tmp/s1/games/000001.log.html" ]

# a shard gone (the third never ran), and one unfinished (a game lost from
# its journal): exit 1, both outputs marked partial, naming what is missing
"$ref" merge -o "$tmp/m2" "$tmp/s0" "$tmp/s1" >"$tmp/m2.out" 2>"$tmp/m2.err"
check "merge with a shard missing exits 1" [ $? = 1 ]
sed 's/^/# /' "$tmp/m2.err"
check "standings.txt says PARTIAL and names the missing shard" \
	sh -c "grep -q '^PARTIAL: 32 of 48 games' '$tmp/m2/standings.txt' &&
	       grep -q '^note: shard 2/3: missing' '$tmp/m2/standings.txt'"
check "standings.json says partial and names the missing shard" \
	sh -c "grep -q '\"partial\": true' '$tmp/m2/standings.json' && grep -q 'shard 2/3: missing' '$tmp/m2/standings.json'"
check "stderr names it too" grep -q 'partial standings, 32 of 48 games: shard 2/3: missing' "$tmp/m2.err"
mkdir "$tmp/s1cut"
grep -v '^game id=1 ' "$tmp/s1/journal.txt" >"$tmp/s1cut/journal.txt"
"$ref" merge -o "$tmp/m3" "$tmp/s0" "$tmp/s1cut" "$tmp/s2" >/dev/null 2>"$tmp/m3.err"
check "merge with an unfinished shard exits 1, naming it" \
	sh -c "[ $? = 1 ] && grep -q '^note: shard 1/3 ($tmp/s1cut): unfinished, 15 of 16 games' '$tmp/m3/standings.txt'"
"$ref" merge -o "$tmp/m4" "$tmp/s0" "$tmp/s1" "$tmp/gone" >/dev/null 2>"$tmp/m4.err"
check "merge with a directory that holds no journal exits 1, naming it" \
	sh -c "[ $? = 1 ] && grep -q '^note: $tmp/gone: no journal' '$tmp/m4/standings.txt'"
check "a complete merge is not partial" grep -q '"partial": false' "$tmp/m/standings.json"

# 3 seats: the crosstable's cells carry W-D-L (ahead, level, behind) as at
# 2 seats, which report.html titles its cells with ("W-D-L in GAMES")
check "3 seats: every crosstable cell of standings.json has wins, draws and losses adding up to its games" \
	python3 -c "
import json, sys
bots = json.load(open(sys.argv[1]))['bots']
cells = [c for b in bots for c in b['crosstable'].values()]
sys.exit(0 if cells and all(c['wins'] + c['draws'] + c['losses'] == c['games'] for c in cells) else 1)" "$tmp/one/standings.json"
# solo: every rank is 1, so no mean rank is shown
"$ref" tournament --variant tetroll --players 1 --games 2 --seed 3 --time "$time" --bootstrap 0 -q \
	-o "$tmp/solo" --bot "a=$fake legal" --bot "b=$fake legal 2" >/dev/null 2>&1
check "solo standings show no constant mean rank" \
	sh -c "grep -q '^  *1 [ab] .* -  ' '$tmp/solo/standings.txt' && ! grep -q ' 1\.00  ' '$tmp/solo/standings.txt'"

"$ref" tournament "$tmp/t.ini" -q --players 2 -o "$tmp/other" >/dev/null 2>&1
"$ref" merge "$tmp/one" "$tmp/other" >/dev/null 2>"$tmp/x.err"
check "merging another tournament is refused (exit 1)" \
	sh -c "[ $? = 1 ] && grep -q 'another tournament' '$tmp/x.err'"
"$ref" tournament "$tmp/t.ini" -q --players 2 -o "$tmp/one" >/dev/null 2>"$tmp/x.err"
check "resuming into another tournament's directory is refused (exit 1)" \
	sh -c "[ $? = 1 ] && grep -q 'another tournament' '$tmp/x.err'"
"$ref" tournament --variant nosuch --bot a=x -o "$tmp/x" >/dev/null 2>&1
check "an unknown variant is a usage error (exit 2)" [ $? = 2 ]

# Faults are listed with the log, the bot's stderr and the replay command;
# --pin runs; the progress line goes to stderr.
"$ref" tournament --variant link --options width:6,height:8 --games 2 --time "$time" --pin -j 2 \
	-o "$tmp/faults" --bot "good=$fake legal" --bot "bad=$fake illegal 2" \
	>"$tmp/f.out" 2>"$tmp/f.err"
check "a pinned tournament with a faulty bot exits 0" [ $? = 0 ]
check "the progress line is on stderr" grep -q "games/s, .* left" "$tmp/f.err"
check "the standings count the faults by kind" grep -q "^  2 bad .*illegal:" "$tmp/f.out"
log=$(grep -A1 "^  game [0-9]*: bad (seat [01]) illegal" "$tmp/f.out" | tail -1 | tr -d ' ')
check "a faulted game's log is listed and verifies" \
	sh -c "[ -f '$log' ] && '$ref' verify '$log' >/dev/null 2>&1"
check "its replay command is listed" grep -q "rerun $log\$" "$tmp/f.out"
