#!/bin/sh
# t6007-rush-tie-load: a real-time tie follows the seed's order however
# long the `go` lines take to write (issue 50, item 12). Every `go` of one
# pass counts as sent when the pass began, and a seat's reaction is timed
# from its own `go`: the referee's test hook TETRARENA_TEST_GO_WRITE_MS
# makes each real-time `go` take that long to write (as on a loaded
# machine; seat 0's is written first), and the last I, which both seats
# take at the start (box=1, the fake bot plays the first listed move),
# goes to the same seat as without it, seed by seed: to seat 1 for some
# seeds (the seed's order, not the order of the writes), and every log
# verifies. (A race where a bot answered past the pace, as it may on a
# loaded machine, is no tie: speed decides it. Its seed is left out.)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
# (the game ends soon after the contested I, at its time limit)
pace=$(ms 100)
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000),game:$((pace * 3))"

# race SEED WRITE_MS: the seat that took the contested I (in
# $tmp/SEED-MS.won), or nothing when a seat's first move came past the
# pace after its first `go` (from the log's traffic times)
race() {
	TETRARENA_TEST_GO_WRITE_MS=$2 "$ref" play --variant rush --seed "$1" --sandbox off --time "$time" \
		--option width=4 --option height=4 --option box=1 --option pace="$pace" \
		--log "$tmp/$1-$2.log" "$fake legal" "$fake legal" >"$tmp/$1-$2.out" 2>&1
	awk -v pace="$pace" '
		$1 == ">" && $4 == "go" && !(($2) in go) { go[$2] = substr($3, 2) }
		$1 == "<" && $4 == "move" && ($2 in go) && !(($2) in took) { took[$2] = substr($3, 2) - go[$2] }
		/^move [01] take:I/ && !won { won = $2 }
		END { if (took[0] < pace * 1000 && took[1] < pace * 1000 && won != "") print won }
	' "$tmp/$1-$2.log" >"$tmp/$1-$2.won"
}

echo "1..3"
seeds="1 2 3 4 5 6"
for seed in $seeds; do
	{ race "$seed" 0; race "$seed" 5; } &
done
wait
same=0 one=0 verified=0 ties=0
for seed in $seeds; do
	a=$(cat "$tmp/$seed-0.won") b=$(cat "$tmp/$seed-5.won")
	echo "# seed $seed: seat ${a:--} took the I, seat ${b:--} with 5 ms a go write (-: no tie)"
	if [ -n "$a" ] && [ -n "$b" ]; then
		ties=$((ties + 1))
		[ "$a" = "$b" ] && same=$((same + 1))
		[ "$a" = 1 ] && one=$((one + 1))
	fi
	for ms in 0 5; do
		"$ref" verify "$tmp/$seed-$ms.log" >/dev/null 2>&1 && verified=$((verified + 1))
	done
done
check "the tie goes to the same seat with slow go writes, for every seed ($same of $ties ties)" \
	sh -c "[ $same = $ties ] && [ $ties -ge 3 ]"
check "seat 1, whose go is written last, wins the tie for some seeds ($one of 6)" [ $one -gt 0 ]
check "every log verifies ($verified of 12)" [ $verified = 12 ]
exit $fail
