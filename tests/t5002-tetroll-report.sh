#!/bin/sh
# t5002: scripts/tetroll-report.sh reports solo scores through bin/referee
# (every log verified) and in-process, and for bot-tetroll both give the
# same games at 1 s a move with --no-clock: the AI and the dice are
# deterministic for a seed, and with --no-clock the search ends on its
# sheet caps, never at a third of the move's time on the clock (which a
# sanitized build on a loaded machine reaches even at 1 s a move: CI saw
# other games).
# Skipped while bin/referee is not built.
# check-long: the reports at the default 5 s a move (full strength), and
# the comparison at 1 s; make check plays everything at 1 s a move.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$top/bin/referee"

echo "1..7"
cd "$top" || exit 1
movems=$(long_or 1000 "")
REFEREE=bin/referee sh scripts/tetroll-report.sh -n 3 -j 2 ${movems:+-t $movems} >"$tmp/ref" 2>"$tmp/ref.err"
check "report through the referee exits 0" [ $? = 0 ]
check "a line for bot-tetroll and bot-random" \
	sh -c "grep -q '^bot-tetroll (referee, verified) *games *3 ' '$tmp/ref' && grep -q '^bot-random (referee, verified) *games *3 ' '$tmp/ref'"
check "the three solo objectives are reported" grep -q '80+/no bonus.*100+/4 rows 1-6.*140+' "$tmp/ref"
sh scripts/tetroll-report.sh -i -n 3 ${movems:+-t $movems} >"$tmp/in" 2>"$tmp/in.err"
check "in-process report exits 0" [ $? = 0 ]
# the same three games at 1 s a move: same mean, median, min and max. The
# grace margin of a minute: --no-clock never looks at the clock, but a
# sanitized bot on a loaded machine can take over the 1 s + 50 ms a move
# (CI saw a game differ), and a late move is a timeout.
REFEREE=bin/referee sh scripts/tetroll-report.sh -n 3 -j 2 -t 1000 -g 60000 "bin/bot-tetroll --no-clock" >"$tmp/ref1" 2>>"$tmp/ref.err"
if [ -n "$movems" ]; then
	cp "$tmp/in" "$tmp/in1"
else
	sh scripts/tetroll-report.sh -i -n 3 -t 1000 >"$tmp/in1" 2>>"$tmp/in.err"
fi
same() {
	a=$(grep '^bot-tetroll_--no-clock (referee' "$tmp/ref1" | sed 's/.*games//')
	b=$(grep '^bot-tetroll (in-process' "$tmp/in1" | sed 's/.*games//')
	[ -n "$a" ] && [ "$a" = "$b" ] && return 0
	# the referee's whole report: its line, and the fault line beneath
	printf '# in-process: %s\n' "$b" >&2
	sed 's/^/# /' "$tmp/ref1" "$tmp/ref.err" >&2
	false
}
check "bot-tetroll --no-clock scores the same in-process and through the referee at 1 s a move" same
# A tuning parameter changes the play (mr_live: repeats in dead rows never
# mark); an unknown one is refused. Greedy (lookahead=0) to stay quick.
solo=${TETRARENA_BUILD:-build/opt}/tests/prog-tetroll-solo
"$solo" ai 3 1 objective=mother-russia lookahead=0 dice_depth=0 >"$tmp/mr0" &&
	"$solo" ai 3 1 objective=mother-russia lookahead=0 dice_depth=0 mr_live=1 >"$tmp/mr1"
check "prog-tetroll-solo: mr_live=1 plays other mother-russia games" \
	sh -c "[ -s '$tmp/mr1' ] && ! cmp -s '$tmp/mr0' '$tmp/mr1'"
"$solo" ai 1 1 no_such_weight=1 >/dev/null 2>&1
check "prog-tetroll-solo: an unknown parameter exits 2" [ $? = 2 ]
exit $fail
