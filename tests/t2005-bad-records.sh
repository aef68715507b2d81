#!/bin/sh
# Damaged game records get one clear error (exit 1 or 2, the file and
# line named), never a crash, an abort or a pass: the inputs that once
# broke the readers (tests/fuzz/corpus/*/regress-*), and a real log with
# one traffic line changed.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-random"
corpus=$top/tests/fuzz/corpus

# rejects WHAT PATTERN COMMAND...: exits 1 or 2 with PATTERN on stderr
rejects() {
	desc=$1 pat=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if { [ $rc = 1 ] || [ $rc = 2 ]; } && grep -q -- "$pat" "$tmp/err"; then
		ok "$desc"
	else
		echo "# exit $rc"; sed 's/^/# /' "$tmp/err" | head -5
		not_ok "$desc"
	fi
}

for cmd in verify view rerun; do
	rejects "$cmd: bot 0 twice, no bot 1" 'regress-bot0-twice-no-bot1:12: a second bot line for seat 0' \
		"$ref" "$cmd" "$corpus/gamelog/regress-bot0-twice-no-bot1"
	rejects "$cmd: no options line" 'regress-no-options:6: players before variant and options' \
		"$ref" "$cmd" "$corpus/gamelog/regress-no-options"
done
rejects "tournament file: non-UTF-8 byte in a [bots] value" 'regress-nonutf8-bots-value: line 7: not UTF-8' \
	"$ref" tournament -q -o "$tmp/t" "$corpus/tournament/regress-nonutf8-bots-value"
rejects "bots file: non-UTF-8 byte in a value" 'regress-nonutf8-value: line 5: not UTF-8' \
	"$ref" play --variant=link --bots="$corpus/botsfile/regress-nonutf8-value" bad bad

# A real game, then one traffic line changed at a time.
cd "$top" || exit 1
"$ref" play --variant=link --seed=5 --log="$tmp/game.log" bin/bot-random bin/bot-random >/dev/null 2>&1
check "a real log verifies" "$ref" verify "$tmp/game.log"
first_move=$(grep -n -m1 '^< 0 +[0-9]* move ' "$tmp/game.log" | cut -d: -f1)
awk -v n="$first_move" 'NR == n { sub(/move .*/, "move Z9@99") } { print }' "$tmp/game.log" >"$tmp/said.log"
rejects "a bot's move line changed fails verify" "seat 0's move is .* but its line (line $first_move) said 'move Z9@99'" \
	"$ref" verify "$tmp/said.log"
first_go=$(grep -n -m1 '^> 0 +[0-9]* go ' "$tmp/game.log" | cut -d: -f1)
awk -v n="$first_go" 'NR == n { sub(/scores=0,0/, "scores=0,1") } { print }' "$tmp/game.log" >"$tmp/go.log"
rejects "a go line changed fails verify, naming it" "go.log:$first_go: the go to seat 0 does not carry the state" \
	"$ref" verify "$tmp/go.log"
awk -v n="$first_go" 'NR == n { sub(/^> 0/, "> 1") } { print }' "$tmp/game.log" >"$tmp/seat.log"
rejects "a go sent to the wrong seat fails verify" "seat.log:$first_go: go to seat 1, which is not to move" \
	"$ref" verify "$tmp/seat.log"
awk -v n="$first_move" 'NR == n { sub(/^< 0 \+[0-9]*/, "< 0 +1") } { print }' "$tmp/game.log" >"$tmp/time.log"
check "a changed time still verifies" "$ref" verify "$tmp/time.log"
echo "1..$n"
exit $fail
