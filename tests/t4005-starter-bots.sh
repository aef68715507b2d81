#!/bin/sh
# t4005: the starter bots of bots/starter/ (Python, JavaScript, C) each
# play every variant through bin/referee against bin/bot-random: each game
# ends by the rules without a fault, and its log verifies.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-starter" "$top/bin/bot-random"
verify() { "$ref" verify "$1" >/dev/null 2>&1; }

# check-long: rush at its default pace (100 ms between a seat's actions);
# make check plays rush at a 10 ms pace.
pace=$(long_or "--option=pace=10" "")
echo "1..24"
for lang in py js c; do
	case $lang in
	py) bot="python3 $top/bots/starter/starter.py 5" ;;
	js) bot="node $top/bots/starter/starter.js 5" ;;
	c) bot="$top/bin/bot-starter --seed 5" ;;
	esac
	for v in link tetroll rush matrix; do
		# shellcheck disable=SC2046
		"$ref" play --variant "$v" $([ "$v" = rush ] && echo "$pace") --seed 3 --json --log "$tmp/$lang-$v.log" \
			"$bot" "$top/bin/bot-random --seed 6" >"$tmp/$lang-$v.json" 2>"$tmp/$lang-$v.err"
		check "$lang $v: a game without faults" clean "$tmp/$lang-$v.json"
		check "$lang $v: verify passes" verify "$tmp/$lang-$v.log"
	done
done
exit $fail
