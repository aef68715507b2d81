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
first_update=$(grep -n -m1 '^> 1 +[0-9]* update 0 ' "$tmp/game.log" | cut -d: -f1)
awk -v n="$first_update" 'NR == n { sub(/update 0 .*/, "update 0 I0@0") } { print }' "$tmp/game.log" >"$tmp/update.log"
rejects "an update line changed fails verify, naming it" "update.log:$first_update: 'update 0 I0@0' to seat 1: the next thing it should be told is" \
	"$ref" verify "$tmp/update.log"
first_moves=$(grep -n -m1 '^> 0 +[0-9]* moves ' "$tmp/game.log" | cut -d: -f1)
awk -v n="$first_moves" 'NR == n { sub(/ [^ ]*$/, "") } { print }' "$tmp/game.log" >"$tmp/moves.log"
rejects "a moves line missing a move fails verify, naming it" "moves.log:$first_moves: the moves sent to seat 0 are not its legal moves here" \
	"$ref" verify "$tmp/moves.log"
awk -v n="$first_move" 'NR == n { sub(/^< 0 \+[0-9]*/, "< 0 +1") } { print }' "$tmp/game.log" >"$tmp/time.log"
check "a changed time still verifies" "$ref" verify "$tmp/time.log"

# Every line, one at a time: in a real log of each variant (rush in real
# time, a 7-seat matrix game with table talk and gifts, a link game with faults, the
# random policy and a bot that chatters), each event and each traffic line
# the game depends on is changed (an 'x' appended) and verify must fail,
# naming that line (as the line of the error, or in its text when the
# line it contradicts comes later). Not changed: `#` comments, times, and the bot's own
# words, which nothing in the game depends on (its info and unknown lines,
# the name and version in its hello, a move the game ended before judging).
fake=$build/tests/prog-fakebot
soc=$build/tests/prog-socialbot
"$ref" play --variant=tetroll --seed=3 --log="$tmp/all-tetroll.log" bin/bot-random >/dev/null 2>&1
# check-long: rush at its default pace and box, matrix to its end (6 rounds,
# 1457 lines); make check plays rush at a 10 ms pace with 3 of each shape
# (240 lines, a rejected take among them) and matrix for 2 rounds (554
# lines, every kind of line of the whole game): a verify a line.
# shellcheck disable=SC2046
"$ref" play --variant=rush $(long_or "--option=pace=10 --option=box=3" "") --seed=4 --log="$tmp/all-rush.log" bin/bot-random bin/bot-random >/dev/null 2>&1
# shellcheck disable=SC2046
"$ref" play --variant=matrix $(long_or "--option=rounds=2" "") --seed=5 --log="$tmp/all-matrix.log" \
	"$soc --give" "$soc" "$soc" "$soc --give" "$soc" "$soc" "$soc" >/dev/null 2>&1
"$ref" play --variant=link --seed=6 --fault-policy=random --log="$tmp/all-link.log" \
	"$fake chatter" "$fake illegal 3" >/dev/null 2>&1
# mutate V: every line of all-V.log changed in turn and verified; the
# comments into res-V, then its last line "TOTAL PASSED UNNAMED"
mutate() {
	v=$1
	log=$tmp/all-$v.log
	awk -v dir="$tmp" -v v="$v" '
		{ line[NR] = $0 }
		/^< [0-9]+ \+[0-9]+ move( |$)/ { pending[$2] = NR }
		/^(move|submit|rejected|fault) [0-9]+ / { judged[pending[$2]] = 1; pending[$2] = 0 }
		END {
			body = 0
			for (i = 1; i <= NR; i++) {
				if (line[i] == "begin") { body = 1; continue }
				if (!body || line[i] ~ /^#/ || line[i] == "end") continue
				if (line[i] ~ /^< [0-9]+ \+[0-9]+ / && line[i] !~ /^< [0-9]+ \+[0-9]+ (move|say|offer|gift|accept|refuse|tome)( |$)/) continue
				if (line[i] ~ /^< [0-9]+ \+[0-9]+ move( |$)/ && !judged[i]) continue
				f = dir "/mut-" v "-" i ".log"
				for (j = 1; j <= NR; j++) {
					if (j != i) { print line[j] > f; continue }
					if (line[j] ~ / wall=/) { s = line[j]; sub(/ wall=/, "x wall=", s); print s > f }
					else print line[j] "x" > f
				}
				close(f)
			}
		}' "$log"
	total=0 passed=0 unnamed=0
	for m in "$tmp"/mut-$v-*.log; do
		i=${m##*-}; i=${i%.log}
		total=$((total + 1))
		if err=$("$ref" verify "$m" 2>&1 >/dev/null); then
			passed=$((passed + 1)); echo "# $v line $i changed, yet it verifies: $(sed -n "${i}p" "$log")"
		else
			case $err in
			*".log:$i: "* | *"line $i)"* | *"line $i,"*) ;;
			*) unnamed=$((unnamed + 1)); echo "# $v line $i: the error does not name it: ${err%%
*}" ;;
			esac
		fi
	done
	rm -f "$tmp"/mut-"$v"-*.log
	echo "$total $passed $unnamed"
}
# the four logs at once (two cores), reported in order
for v in tetroll rush matrix link; do
	mutate $v >"$tmp/res-$v" &
done
wait
for v in tetroll rush matrix link; do
	log=$tmp/all-$v.log
	check "every line: the $v log verifies as written" "$ref" verify "$log"
	sed '$d' "$tmp/res-$v"
	tail -n 1 "$tmp/res-$v" >"$tmp/res-$v.n"
	read -r total passed unnamed <"$tmp/res-$v.n"
	echo "# $v: $total lines changed one at a time"
	check "every line: each of the $v log's $total lines, changed, fails verify" test "$total" -gt 50 -a "$passed" = 0
	check "every line: and the error names that line" test "$unnamed" = 0
done

echo "1..$n"
exit $fail
