#!/bin/sh
# t4003: bots/sh/random.sh, the POSIX sh bot: a scripted session (hello
# with the moves feature, a listed move per go, the same seed the same
# moves), then a game through bin/referee that verifies (when built).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
bot="$top/bots/sh/random.sh"

echo "1..6"
printf 'tetrarena 1\ngame 1 variant=link seat=0 players=2\nmoves O0@0 O0@1 O0@2\ngo 100 x\nupdate 1 O0@4\nmoves T0@0 T0@7\ngo 100 x\nquit\ngo 100 x\n' >"$tmp/in"
sh "$bot" 5 <"$tmp/in" >"$tmp/out"
check "hello asks for moves" [ "$(sed -n 1p "$tmp/out")" = "hello random-sh 1 moves multi" ]
check "two listed moves, then quit" \
	sh -c "sed -n 2p '$tmp/out' | grep -Eqx 'move O0@[012]' && sed -n 3p '$tmp/out' | grep -Eqx 'move T0@[07]' && [ \$(wc -l <'$tmp/out') -eq 3 ]"
sh "$bot" 5 <"$tmp/in" >"$tmp/again"
check "same seed, same moves" cmp -s "$tmp/out" "$tmp/again"
need "$ref"
"$ref" play --variant link --seed 3 --json --log "$tmp/g.log" "sh $bot 2" "$top/bin/bot-random" >"$tmp/g.json" 2>"$tmp/g.err"
check "a game through the referee" [ $? = 0 ]
check "no faults" sh -c "grep -q '\"reason\":\"end\"' '$tmp/g.json' && ! grep -q '\"faults\":{\"' '$tmp/g.json'"
check "verify passes" sh -c "'$ref' verify '$tmp/g.log' >/dev/null 2>&1"

exit $fail
