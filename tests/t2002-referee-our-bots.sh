#!/bin/sh
# t2002-referee-our-bots: the end-to-end game: bin/referee plays
# bin/bot-random against the Python bot on seed 1; the game finishes, the
# log verifies, rerun reproduces it, and nothing of either bot is left.
top=${TETRARENA_TOP:-.}
ref=$top/bin/referee
scale=${TETRARENA_TIME_SCALE:-1}
ms() { awk "BEGIN { printf \"%d\", $1 * $scale }"; }
if [ ! -x "$top/bin/bot-random" ] || [ ! -f "$top/bots/python/linkbot.py" ]; then
	echo "1..0 # SKIP our bots are not built"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t2002.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $desc"; else fail=1; echo "not ok $n - $desc"; fi
}
echo "1..5"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"
# Run from the top so that the relative paths of the command work.
cd "$top" || exit 1
bin/referee play --variant link --seed 1 --time "$time" --log "$tmp/g.log" \
	bin/bot-random "python3 bots/python/linkbot.py" >"$tmp/out" 2>"$tmp/err"
check "the game finishes (exit 0)" [ $? = 0 ]
check "both seats are reported without faults" sh -c "grep -c '^seat [01] ' '$tmp/out' | grep -qx 2 && ! grep -q faults: '$tmp/out'"
check "verify passes" sh -c "bin/referee verify '$tmp/g.log' >/dev/null"
bin/referee rerun --log "$tmp/again.log" "$tmp/g.log" >"$tmp/rerun" 2>&1
check "rerun gives the same game" grep -q "^same" "$tmp/rerun"
check "the log records the script's hash for the Python bot" \
	grep -q "^bot 1 linkbot.py $(sha256sum bots/python/linkbot.py | cut -d' ' -f1) python3 bots/python/linkbot.py" "$tmp/g.log"
exit $fail
