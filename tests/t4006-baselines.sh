#!/bin/sh
# t4006: the frozen baselines (bots/baseline/*, bin/bot-*-baseline) build,
# play whole games through bin/referee without faults, and still play
# exactly as they did when frozen: a digest of their moves on fixed seeds
# (the arenas' signatures, a solo tetroll game's record) is pinned here.
# A change to the engine's rules or its move order may change a digest:
# then update it here in the same commit and say why. A change to a
# baseline's play never is one (see bots/README.md).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link-baseline" "$top/bin/bot-tetroll-baseline" "$top/bin/bot-matrix-baseline"
random="$top/bin/bot-random"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

# play NAME VARIANT SEED BOT...: one game, JSON in $tmp/NAME.json, log in $tmp/NAME.log
play() {
	name=$1 variant=$2 seed=$3
	shift 3
	"$ref" play --variant "$variant" --seed "$seed" --time "$time" --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
# the game record of a log without its timings
record() { sed -n '/^begin/,$p' "$1" | grep -v '^[<>]' | grep -v '^traffic ' | sed 's/ wall=.*//' | cksum | cut -d' ' -f1; }

echo "1..10"
for v in link tetroll matrix; do
	play "$v" "$v" 7 "$top/bin/bot-$v-baseline" "$random"
	check "$v baseline vs bot-random: ended by the rules, no faults" clean "$tmp/$v.json"
	check "$v baseline vs bot-random: verify passes" verify "$tmp/$v.log"
done

sig=$("$top/bin/bot-link-baseline" --arena 4 --depth 2 | sed -n 's/^signature \([0-9a-f]*\),.*/\1/p')
check "link baseline: arena signature unchanged ($sig)" [ "$sig" = c19d68b0dd7ff2e0 ]
sig=$("$top/bin/bot-matrix-baseline" --arena 6 | sed -n 's/.*signature=\([0-9a-f]*\).*/\1/p')
check "matrix baseline: arena signature unchanged ($sig)" [ "$sig" = 3d5a5fc1591ea703 ]
play solo tetroll 5 "$top/bin/bot-tetroll-baseline"
check "tetroll baseline: solo seed 5 scores 58" grep -q '"score":58,' "$tmp/solo.json"
r=$(record "$tmp/solo.log")
check "tetroll baseline: solo seed 5 record unchanged ($r)" [ "$r" = 2128007294 ]
exit $fail
