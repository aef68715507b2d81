#!/bin/sh
# t4004: bin/bot-random plays every variant the engine knows (the list in
# its --help) through bin/referee, against bots/sh/random.sh: each game
# ends by the rules without a fault, and its log verifies. Skipped while
# bin/referee is not built.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
verify() { "$ref" verify "$1" >/dev/null 2>&1; }

variants=$("$top/bin/bot-random" --help | sed -n 's/^Variants: //p')
set -- $variants
echo "1..$(($# * 2 + 1))"
check "bot-random lists variants" [ $# -ge 1 ]
# check-long: rush at its default pace; make check plays it at a 10 ms pace.
pace=$(long_or "--option=pace=10" "")
for v in $variants; do
	# shellcheck disable=SC2046
	"$ref" play --variant "$v" $([ "$v" = rush ] && echo "$pace") --seed 2 --json --log "$tmp/$v.log" \
		"$top/bin/bot-random --seed 3" "sh $top/bots/sh/random.sh 4" >"$tmp/$v.json" 2>"$tmp/$v.err"
	check "$v: a game without faults" clean "$tmp/$v.json"
	check "$v: verify passes" verify "$tmp/$v.log"
done
exit $fail
