#!/bin/sh
# t3014-tournament-parallel: the README's GNU parallel recipe, run as
# written with `-S :` (this machine, no ssh): three shards with one master
# seed, then `referee merge`, give the standings of one unsharded run
# (timing columns aside). Without GNU parallel (Debian parallel: make deps)
# the test bails out saying so.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
command -v parallel >/dev/null 2>&1 || { echo "Bail out! GNU parallel is missing (Debian parallel: make deps)"; exit 1; }
parallel --version 2>/dev/null | grep -q 'GNU parallel' || { echo "Bail out! parallel here is not GNU parallel"; exit 1; }
echo "1..3"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
cat >"$tmp/t.ini" <<EOF2
[tournament]
variant = link
options = width:6,height:8
players = 2
games = 6
time = $time
concurrency = 1
bootstrap = 50

[bots]
a = $fake legal 0
b = $fake multi 0
c = $fake legal 3
EOF2
standings() { grep -v '_ms"' "$1/standings.json"; }
results() { cut -d, -f1-11 "$1/games.csv"; }
"$ref" tournament "$tmp/t.ini" -q --seed 91 -o "$tmp/one" >/dev/null 2>"$tmp/one.err"

cd "$tmp" || exit 1
seed=91
# The recipe (README, "Over many machines"), with -S : for this machine.
parallel -S : --wd "$PWD" \
	"$ref" tournament "$tmp/t.ini" -q --seed $seed --shard {}/3 -o out/shard{} ::: 0 1 2 \
	>/dev/null 2>"$tmp/par.err"
st=$?
check "parallel -S : runs the three shards (status $st)" \
	sh -c "[ $st = 0 ] && [ -s out/shard0/standings.json ] && [ -s out/shard1/standings.json ] && [ -s out/shard2/standings.json ]"
"$ref" merge -o out/all out/shard0 out/shard1 out/shard2 >/dev/null 2>"$tmp/merge.err"
check "referee merge combines them" sh -c "[ $? = 0 ] && [ -s out/all/report.html ]"
standings "$tmp/one" >"$tmp/one.json"
standings out/all >"$tmp/all.json"
results "$tmp/one" >"$tmp/one.csv"
results out/all >"$tmp/all.csv"
check "the merged standings equal one unsharded run's (timing columns aside)" \
	sh -c "[ -s '$tmp/one.json' ] && cmp -s '$tmp/one.json' '$tmp/all.json' && cmp -s '$tmp/one.csv' '$tmp/all.csv'"
exit $fail
