#!/bin/sh
# t2002-referee-our-bots: the end-to-end game: bin/referee plays
# bin/bot-random against the Python bot on seed 1; the game finishes, the
# log verifies, rerun reproduces it, and nothing of either bot is left.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$top/bin/bot-random" "$top/bots/python/linkbot.py"
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
