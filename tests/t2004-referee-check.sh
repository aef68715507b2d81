#!/bin/sh
# t2004-referee-check: `referee check` passes our bots and the starter bots
# (every item, exit 0) and fails broken fake bots on the right item, with
# the failing line and a hint: a crash and a hang on `game`, a bot that
# announces `multi` but exits after `result` on `multi`, a bot that dies on
# a line it does not know on `unknown`.
# check-long: rush at its default pace (100 ms between a seat's actions,
# real time); make check plays rush at a 10 ms pace.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake" "$top/bin/bot-random" "$top/bin/bot-starter"
time="move:$(ms 400),start:$(ms 5000),grace:$(ms 50)"
export TMPDIR="$tmp"	# the logs of failed checks stay in there
pace=$(long_or "--option=pace=10" "")
passes() { # VARIANT BOT...: exit 0, every item ok
	v=$1
	shift
	# shellcheck disable=SC2046
	"$ref" check --variant "$v" $([ "$v" = rush ] && echo "$pace") --time "$time" "$@" >"$tmp/out" 2>&1 &&
		grep -q '^every item passed$' "$tmp/out" && ! grep -q FAILED "$tmp/out"
}
fails_on() { # ITEM BOT: exit 1, that item FAILED, the line and hint shown
	"$ref" check --variant link --time "$time" "$2" >"$tmp/out" 2>&1
	[ $? = 1 ] && grep -q "^  FAILED  $1 " "$tmp/out" && grep -q '^          hint: ' "$tmp/out"
}

echo "1..11"
"$ref" check --variant link "$top/bin/bot-random" >"$tmp/random" 2>&1
check "bin/referee check --variant link bin/bot-random exits 0" [ $? = 0 ]
check "it names every item" sh -c "for i in handshake game multi unknown stateless tight-time quit; do grep -q \"^  ok      \$i \" '$tmp/random' || exit 1; done"
for v in link tetroll rush matrix; do
	check "$v: the starter bots (Python, JavaScript, C) and bot-random pass" \
		passes "$v" "python3 $top/bots/starter/starter.py" "node $top/bots/starter/starter.js" \
		"$top/bin/bot-starter" "$top/bin/bot-random"
done
check "our AI bot-link passes" passes link "$top/bin/bot-link"
check "a bot that crashes fails on 'game'" fails_on game "$fake crash 3"
check "a bot that hangs fails on 'game'" fails_on game "$fake hang 3"
check "a bot that ignores multi (exits after result) fails on 'multi'" fails_on multi "$fake multiexit"
check "a bot that dies on an unknown line fails on 'unknown'" fails_on unknown "$fake strict"
exit $fail
