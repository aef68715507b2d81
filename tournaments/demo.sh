#!/bin/sh
# demo.sh: what `make demo` runs: a short Tetris Link round robin of our
# bots, then its standings. Bots that are not built are left out (a fake
# bot stands in when fewer than two remain). Output in build/demo/.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
ref=bin/referee
out=build/demo
if [ ! -x "$ref" ]; then
	echo "demo: bin/referee is not built; run make first" >&2
	exit 1
fi
set --
bots=0
for spec in \
	"expectimax|bin/bot-link|bin/bot-link" \
	"greedy|bin/bot-link|bin/bot-link --depth 1" \
	"python|bots/python/linkbot.py|python3 bots/python/linkbot.py" \
	"random|bin/bot-random|bin/bot-random"; do
	name=${spec%%|*}
	rest=${spec#*|}
	file=${rest%%|*}
	cmd=${rest#*|}
	if [ -e "$file" ]; then
		set -- "$@" --bot "$name=$cmd"
		bots=$((bots + 1))
	fi
done
if [ "$bots" -lt 2 ]; then
	fake=$(ls build/*/tests/prog-fakebot 2>/dev/null | head -1)
	set -- "$@" --bot "first-legal=$fake legal" --bot "first-legal-multi=$fake multi"
	echo "demo: our bots are not built yet; fake bots stand in" >&2
fi
rm -rf "$out"
# Fresh dice each time, as in a real tournament; DEMO_SEED=N replays one.
[ -n "$DEMO_SEED" ] && set -- "$@" --seed "$DEMO_SEED"
echo "demo: a Tetris Link round robin: every pair of bots plays 2 seeds, each with seats swapped" >&2
exec "$ref" tournament --variant link --players 2 --games 2 \
	--time bank:10000,inc:200,move:1000,start:5000 --bootstrap 100 -o "$out" "$@"
