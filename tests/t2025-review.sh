#!/bin/sh
# t2025-review: `referee review LOG --seat S [--json]`, our AI as a coach.
# A game of the AI itself (bot-link --analyse, bot-tetroll --analyse: they
# play their analysis's best, with no clock) against bin/bot-random: its
# review lists every decision (every `go` of the seat in the log) with the
# AI's choice, each the move played at cost 0; the review of bot-random's
# seat lists its decisions too, some at a cost above 0, and so does a
# person's seat (played through a pseudo-terminal). A log that cannot
# be read, a seat the log lacks, an AI that writes no analysis and a
# variant no AI of ours analyses are each one clear line on stderr. Small boards keep the games short.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-random"
echo "1..13"

# gos SEAT LOG: how many `go` lines the seat received
gos() { awk -v s="$1" '$1 == ">" && $2 == s && $4 == "go" { n++ } END { print n + 0 }' "$2"; }
# entries FILE: JSON objects listed (one a line)
entries() { grep -c '^[[,]\?{"step": ' "$1"; }
# zero FILE: every entry's choice is the move played, at cost 0
zero() {
	awk '/^[[,]?\{"step": / { n++; if (match($0, /"played": "[^"]*"/)) p = substr($0, RSTART + 10, RLENGTH - 10); else p = "?"
		if (match($0, /"choice": "[^"]*"/)) c = substr($0, RSTART + 10, RLENGTH - 10); else c = "!"
		if (p != c || $0 !~ /"cost": 0\.00,/ || $0 !~ /"as_good": true/) bad++ }
		END { exit !(n > 0 && bad == 0) }' "$1"
}
# some_cost FILE: an entry costs more than 0
some_cost() { grep -Eq '"cost": ([1-9][0-9]*\.[0-9]+|0\.(0[1-9]|[1-9][0-9]))' "$1"; }

opt_link=height=8 opt_tetroll=height=6
for v in link tetroll; do
	eval "o=\$opt_$v"
	"$ref" play --variant $v --seed 3 --option "$o" --log "$tmp/$v.log" "$top/bin/bot-$v --analyse" "$top/bin/bot-random" \
		>/dev/null 2>"$tmp/$v.play"
	"$ref" review "$tmp/$v.log" --seat 0 --json >"$tmp/$v.0" 2>"$tmp/$v.0.err"
	st=$?
	want=$(gos 0 "$tmp/$v.log")
	check "$v: review --json of the AI's seat lists its $want decisions (exit $st, $(entries "$tmp/$v.0"))" \
		sh -c "[ $st = 0 ] && [ $want -gt 3 ] && [ \$(grep -c '' '$tmp/$v.0.err') = 0 ] &&
			[ $(entries "$tmp/$v.0") = $want ]"
	check "$v: ... each with the AI's choice, the move played, at cost 0" zero "$tmp/$v.0"
	"$ref" review "$tmp/$v.log" --seat 1 --json >"$tmp/$v.1" 2>&1
	st=$?
	want=$(gos 1 "$tmp/$v.log")
	check "$v: bot-random's seat: its $want decisions, some at a cost above 0 (exit $st)" \
		sh -c "[ $st = 0 ] && [ $(entries "$tmp/$v.1") = $want ] && grep -q '\"choice\": \"' '$tmp/$v.1'" &&
		some_cost "$tmp/$v.1"
done

# a person's game (tests/human-pty.py types the first move each time)
python3 "$top/tests/human-pty.py" 24 80 "$(printf '1,%.0s' $(seq 30))1" -- "$ref" play --variant link --seed 4 \
	--option pieces=2 --option height=12 --log "$tmp/person.log" human "$top/bin/bot-link --depth 2" \
	>/dev/null 2>&1
"$ref" review "$tmp/person.log" --seat 0 --json >"$tmp/person" 2>&1
st=$?
want=$(gos 0 "$tmp/person.log")
check "a person's game: each of the person's $want decisions with the AI's choice (exit $st)" \
	sh -c "[ $st = 0 ] && [ $want -gt 3 ] && [ $(entries "$tmp/person") = $want ] &&
		[ \$(grep -c '\"choice\": \"[^\"]' '$tmp/person') = $want ]"
"$ref" review "$tmp/link.log" --seat 1 >"$tmp/text" 2>&1
check "the text review: a row per decision and the total" \
	sh -c "grep -Eq '^ +1 +[0-9]+  [^ ]+ +[^ ]+ +[0-9]+\.[0-9]{2}  [0-9]+ of [0-9]+' '$tmp/text' &&
		grep -Eq '^[0-9]+ decisions, [0-9]+ valued: [0-9]+ played as the AI would, total cost [0-9.]+ win%' '$tmp/text'"
"$ref" review "$tmp/link.log" --seat 1 --progress --json >/dev/null 2>"$tmp/progress"
check "--progress: each decision on stderr" \
	grep -q "^referee: review: decision $(gos 1 "$tmp/link.log") of $(gos 1 "$tmp/link.log")\$" "$tmp/progress"

"$ref" review "$tmp/nonesuch.log" --seat 0 >"$tmp/out" 2>"$tmp/err"
st=$?
check "a log that cannot be read: exit 1, one line on stderr (exit $st)" \
	sh -c "[ $st = 1 ] && [ \$(grep -c '' '$tmp/err') = 1 ] && grep -q nonesuch '$tmp/err' && [ ! -s '$tmp/out' ]"
"$ref" review "$tmp/link.log" --seat 2 >"$tmp/out" 2>"$tmp/err"
st=$?
check "a seat the log lacks: exit 2, one line naming the seats (exit $st)" \
	sh -c "[ $st = 2 ] && [ \$(grep -c '' '$tmp/err') = 1 ] && grep -q 'seats 0 to 1' '$tmp/err'"
"$ref" review "$tmp/link.log" --seat 0 --ai "$top/bin/bot-random" >"$tmp/out" 2>"$tmp/err"
st=$?
check "an AI that writes no analysis (--ai bot-random): exit 1, one line saying so (exit $st)" \
	sh -c "[ $st = 1 ] && [ \$(grep -c '' '$tmp/err') = 1 ] && grep -q 'valued none of seat 0.*wrote no analysis' '$tmp/err'"
"$ref" play --variant rush --seed 3 --option lockstep=1 --log "$tmp/rush.log" "$top/bin/bot-random" "$top/bin/bot-random" \
	>/dev/null 2>&1
"$ref" review "$tmp/rush.log" --seat 0 >"$tmp/out" 2>"$tmp/err"
st=$?
check "a variant no AI of ours analyses: exit 1, one line naming those that do (exit $st)" \
	sh -c "[ $st = 1 ] && [ \$(grep -c '' '$tmp/err') = 1 ] && grep -q 'analyses rush (only link, tetroll)' '$tmp/err'"
exit $fail
