#!/bin/sh
# t2004-referee-check: `referee check` passes our bots and the starter bots
# (every item, exit 0) and fails broken fake bots on the right item, with
# the failing line and a hint: a crash and a hang on `game`, a bot that
# announces `multi` but exits after `result` on `multi`, a bot that dies on
# a line it does not know on `unknown`. Time, told apart: a bot answering
# inside the grace gets a warning with both margins (and one inside the
# move time none); a rush bot reacting 30 ms over the default pace is told
# how many actions per 100 it would lose (and an instant one none); a
# tetroll bot sending `I2@X:Y` (R as clockwise turns, as an old protocol.md
# invited) fails on `game` with a hint naming link's 19 orientations.
# check-long: rush at its default pace (100 ms between a seat's actions,
# real time) and box (20 of each shape); make check plays rush at a 10 ms
# pace with 2 of each shape. The realtime items (20 `go`s at the default
# pace, 2 s a bot), the rush games and the matrix passes run beside the
# rest of the checks.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake" "$top/bin/bot-random" "$top/bin/bot-starter"
time="move:$(ms 400),start:$(ms 5000),grace:$(ms 200)"
export TMPDIR="$tmp"	# the logs of failed checks stay in there
pace=$(long_or "--option=pace=10 --option=box=2" "")
passes() { # VARIANT BOT...: exit 0, every item ok
	v=$1
	shift
	out=$tmp/out-$v-$(printf %s "$*" | cksum | cut -d' ' -f1)
	# shellcheck disable=SC2046
	"$ref" check --variant "$v" $([ "$v" = rush ] && echo "$pace") --time "$time" "$@" >"$out" 2>&1 &&
		grep -q '^every item passed' "$out" && ! grep -q FAILED "$out"
}
fails_on() { # ITEM BOT: exit 1, that item FAILED, the line and hint shown
	"$ref" check --variant link --time "$time" "$2" >"$tmp/out" 2>&1
	[ $? = 1 ] && grep -q "^  FAILED  $1 " "$tmp/out" && grep -q '^          hint: ' "$tmp/out"
}

# beside the rest: the rush passes (a job a bot), the matrix passes and
# the realtime items of a late and an instant bot
rush=
for b in "python3 $top/bots/starter/starter.py" "node $top/bots/starter/starter.js" \
	"$top/bin/bot-starter" "$top/bin/bot-random"; do
	passes rush "$b" &
	rush="$rush $!"
done
passes matrix "python3 $top/bots/starter/starter.py" "node $top/bots/starter/starter.js" \
	"$top/bin/bot-starter" "$top/bin/bot-random" &
matrix=$!
{
	"$ref" check --variant rush --time "$time" --items realtime "$fake lag 0 130" >"$tmp/rush" 2>&1
	"$ref" check --variant rush --time "$time" --items realtime "$fake legal" >"$tmp/rush0" 2>&1
} &
rush3=$!
all_passed() { # PID...: every job exited 0
	a=0
	for j; do
		wait "$j" || a=1
	done
	[ "$a" = 0 ]
}

echo "1..22"
"$ref" check --variant link "$top/bin/bot-random" >"$tmp/random" 2>&1
check "bin/referee check --variant link bin/bot-random exits 0" [ $? = 0 ]
check "it names every item" sh -c "for i in handshake game multi unknown start-up stateless tight-time tight-worst memory quit; do grep -q \"^  ok      \$i \" '$tmp/random' || exit 1; done"
# shellcheck disable=SC2086
for v in link tetroll rush matrix; do
	case $v in
	rush) check "$v: the starter bots (Python, JavaScript, C) and bot-random pass" all_passed $rush; continue ;;
	matrix) check "$v: the starter bots (Python, JavaScript, C) and bot-random pass" wait $matrix; continue ;;
	esac
	check "$v: the starter bots (Python, JavaScript, C) and bot-random pass" \
		passes "$v" "python3 $top/bots/starter/starter.py" "node $top/bots/starter/starter.js" \
		"$top/bin/bot-starter" "$top/bin/bot-random"
done
check "our AI bot-link passes" passes link "$top/bin/bot-link"
check "a bot that crashes fails on 'game'" fails_on game "$fake crash 3"
check "a bot that hangs fails on 'game'" fails_on game "$fake hang 3"
check "a bot that ignores multi (exits after result) fails on 'multi'" fails_on multi "$fake multiexit"
check "a bot that dies on an unknown line fails on 'unknown'" fails_on unknown "$fake strict"

# answers 50 ms (scaled) past the tight `go 100`: inside the 200 ms
# (scaled) grace, with a margin for a machine busy with this test's own
# passes beside it and the other tests
late=$((100 + $(ms 50)))
"$ref" check --variant link --time "$time" --items tight-time,tight-worst "$fake lag 0 $late" >"$tmp/grace" 2>&1
check "a bot answering inside the grace passes (exit $?)" grep -q '^every item passed, 2 with a warning$' "$tmp/grace"
check "... with a warning giving the margin against the move time and the grace" \
	grep -Eq '^  warn    tight-time  a `go 100` answered in [0-9.]+ ms: [0-9.]+ ms over the 100 ms move time, inside the grace with [0-9.]+ ms of its [0-9]+ ms left$' "$tmp/grace"
check "... and the slowest of ten, with the note" sh -c "grep -Eq '^  warn    tight-worst 10 x .* the slowest [0-9.]+ ms: [0-9.]+ ms over' '$tmp/grace' && grep -q 'note: it used the grace' '$tmp/grace'"
"$ref" check --variant link --time "$time" --items tight-time "$fake legal" >"$tmp/fast" 2>&1
check "an instant bot: no warning, the grace untouched" sh -c "grep -q '^every item passed\$' '$tmp/fast' && grep -Eq '^  ok      tight-time .* inside the 100 ms move time, the [0-9]+ ms grace untouched' '$tmp/fast'"

# rush: reacting 30 ms over the default pace of 100 ms costs 23 actions in 100
wait $rush3	# its two checks ran at the top, beside the rest
lost=$(sed -n 's/.*it would lose \([0-9]*\) actions per 100.*/\1/p' "$tmp/rush")
check "rush, 30 ms over the pace: the loss of tempo reported (${lost:-none} per 100)" \
	sh -c "[ '${lost:-0}' -ge 15 ] && grep -q '^  warn    realtime    reaction .* at the default pace of 100 ms' '$tmp/rush'"
check "rush, an instant bot: no action lost" grep -q '^  ok      realtime .* no action lost$' "$tmp/rush0"

# tetroll: R as a count of clockwise turns (I2@X:Y)
cat >"$tmp/turns.sh" <<'EOF'
#!/bin/sh
# plays the first legal move, but writes a placement's K R as I2
first=
while read -r line; do
	case $line in
	game*) echo "hello turns 1 moves" ;;
	moves*) [ -z "$first" ] && { set -- $line; first=$2; } ;;
	go*)
		case $first in
		[IOTJLSZ][0-9]@*) echo "move I2@${first#??@}" ;;
		*) echo "move $first" ;;
		esac
		first= ;;
	quit*) exit 0 ;;
	esac
done
EOF
chmod +x "$tmp/turns.sh"
"$ref" check --variant tetroll --time "$time" --items game "$tmp/turns.sh" >"$tmp/turns" 2>&1
check "tetroll, I2@X:Y: fails on game (exit $?), naming the notation" \
	sh -c "grep -q '^  FAILED  game .*tetroll notation: fault malformed' '$tmp/turns' && grep -q '^          the line: move I2@' '$tmp/turns'"
# --variant all: each variant in turn, a declined one skipped
# shellcheck disable=SC2086
"$ref" check --variant all $pace --items handshake --time "$time" "$top/bin/bot-random" "$fake decline" >"$tmp/all" 2>&1
st=$?
check "--variant all: every variant checked for bot-random, skipped where declined (exit $st)" \
	sh -c "[ $st = 0 ] && [ \$(grep -c '^$top/bin/bot-random: [a-z]*, 2 players\$' '$tmp/all') = 4 ] &&
	       [ \$(grep -c '^  skip    handshake   it declined [a-z]*: not checked (decline ' '$tmp/all') = 4 ] &&
	       grep -q '^note: bots run with a clean environment' '$tmp/all'"
"$ref" check --variant all --items handshake --time "$time" "$fake decline" >"$tmp/none" 2>&1
check "--variant all with nothing but declines fails (exit $?)" grep -q '^  FAILED  no variant checked' "$tmp/none"
check "... with a hint naming link's 19 orientations" grep -q "hint: tetroll's placement .K R@X:Y. takes K R from link's table of 19 orientations" "$tmp/turns"
# a bot that ignores `quit` (and the end of its input) fails that item
"$ref" check --variant link --time "$time" --items quit "$fake stay" >"$tmp/stay" 2>&1
check "a bot that stays after quit: quit FAILED (exit $?), still running 2000 ms after" \
	grep -q '^  FAILED  quit .*still running 2000 ms after .quit.' "$tmp/stay"
exit $fail
