#!/bin/sh
# t4012-bot-seeds: a botio bot's randomness differs from game to game and
# still replays from the log (bots/botio.h: each `go` draws from --seed,
# the seat and the state it shows). Against one opponent, bot-link
# --depth 1 --noise 50 plays its random moves at other points in games of
# other seeds (once every game drew the same numbers in the same order);
# --noise 20 and --noise 30 play different games; `referee rerun` of a
# noisy game records the same game; the bot's own --seed still counts.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
link=$top/bin/bot-link
need "$ref" "$link"
time="bank:$(ms 20000),inc:$(ms 500),move:$(ms 1500),start:$(ms 10000)"
echo "1..6"

# play NAME SEED BOT...: one link game, the log in $tmp/NAME.log
play() {
	name=$1 seed=$2
	shift 2
	"$ref" play --variant link --seed "$seed" --time "$time" \
		--sandbox off --log "$tmp/$name.log" "$@" >/dev/null 2>&1
}
# noisy NAME: which of seat 0's first 12 answers were random moves (the
# numbers of its info lines that say so; one info line an answer)
noisy() {
	grep '^< 0 [^ ]* info \(noise\|depth\)' "$tmp/$1.log" | head -n 12 | grep -n 'info noise' | cut -d: -f1 |
		tr '\n' ' '
}
# moves NAME: the game's moves, without times
moves() {
	grep '^move ' "$tmp/$1.log" | cut -d' ' -f1-3
}

play a1 1 "$link --depth 1 --noise 50" "$link --depth 1"
play a2 2 "$link --depth 1 --noise 50" "$link --depth 1"
play a3 3 "$link --depth 1 --noise 50" "$link --depth 1"
check "three games were played and logged" \
	sh -c "for g in a1 a2 a3; do '$ref' verify '$tmp/'\$g.log >/dev/null 2>&1 || exit 1; done"
n1=$(noisy a1) n2=$(noisy a2) n3=$(noisy a3)
echo "# random answers of seat 0: [$n1] [$n2] [$n3]"
check "games of other seeds play the random moves at other points" \
	[ -n "$n1$n2$n3" -a "$n1" != "$n2" -a "$n1" != "$n3" ]

# --noise 20 and 30 against the same opponent: the same draws would give
# the same games (the draws that tell them apart are between 20 and 30)
differ=0
for seed in 1 2 3 4; do
	play n20 $seed "$link --depth 1 --noise 20" "$link --depth 1"
	play n30 $seed "$link --depth 1 --noise 30" "$link --depth 1"
	moves n20 >"$tmp/m20"
	moves n30 >"$tmp/m30"
	cmp -s "$tmp/m20" "$tmp/m30" || differ=$((differ + 1))
done
echo "# games of 4 seeds where --noise 20 and --noise 30 played otherwise: $differ"
check "--noise 20 and --noise 30 play different games" [ $differ -ge 1 ]

"$ref" rerun --sandbox off --trust-log "$tmp/a1.log" >"$tmp/rerun.out" 2>&1
check "a rerun of a noisy game records the same game" \
	sh -c "[ $? = 0 ] && grep -q '^same: [0-9]* events$' '$tmp/rerun.out'"
play b1 1 "$link --depth 1 --noise 50" "$link --depth 1"
moves a1 >"$tmp/ma"
moves b1 >"$tmp/mb"
check "so does the same game played again" cmp -s "$tmp/ma" "$tmp/mb"
play s9 1 "$link --depth 1 --noise 50 --seed 9" "$link --depth 1"
check "the bot's --seed still changes its draws" [ "$(noisy s9)" != "$n1" ]
