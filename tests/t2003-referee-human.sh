#!/bin/sh
# t2003-referee-human: `human` as a seat, played through a pseudo-terminal
# of a given size by tests/human-pty.py, which types as a person would and
# gives back what the terminal showed: the board comes first with its empty
# rows left out, the moves in numbered groups (never one per line), the
# pictures of the pieces, `help`, a filter by the start of a move, `more`,
# a wrong entry refused; Ctrl-C and Ctrl-D resign cleanly (fault
# `resigned`, the log verifies); tetroll names the shape the dice make;
# matrix table talk goes out as typed; real-time rush is refused with the
# options that make it playable. Also `view --step` steps through a log.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-matrix"
fake=$build/tests/prog-fakebot
pty="python3 $top/tests/human-pty.py"
echo "1..19"
plain() { sed 's/\x1b\[[0-9;]*[mK]//g' "$1" | tr -d '\r'; }

# link at 80x24: a wrong entry, help, a filter, more, then the first move
$pty 24 80 nonsense,help,T,more,1 -- "$ref" play --variant link --seed 4 --option pieces=2 --option height=12 \
	--log "$tmp/link.log" human "$fake legal" >"$tmp/link.raw" 2>&1
check "a link game with a person ends (exit 0)" [ $? = 0 ]
plain "$tmp/link.raw" >"$tmp/link"
check "the game's log verifies" sh -c "'$ref' verify '$tmp/link.log' >/dev/null"
check "the board's empty rows are left out, and said so" grep -q "^   ([0-9]* empty rows above)" "$tmp/link"
check "the moves come in numbered groups (range, shape, columns)" \
	grep -Eq "^ +1-[0-9]+  [IOTLJSZ][0-3] @ 0-[0-9]$" "$tmp/link"
check "what is left is said, not listed" grep -q "more moves: \`more\` lists them" "$tmp/link"
check "a wrong entry is refused" grep -q "'nonsense' is neither a move of the list nor a command" "$tmp/link"
check "help lists the commands" grep -q "^  resign       give the game up" "$tmp/link"
check "the start of a move lists those, with pictures of the pieces" \
	grep -Eq "^ +[0-9]+-[0-9]+ T0 +[0-9]+-[0-9]+ T1" "$tmp/link"
check "a piece is drawn" grep -q '^ *\[\]\[\]\[\]' "$tmp/link"
# every screen the person is shown, from its blank line to the prompt,
# fits the 24 rows (a board of 12 rows: one that is full to a taller top
# than the terminal can show scrolls its top rows off)
awk '/^$/ { n = 0; on = 1; next } on { n++ } /^your move/ && on { if (n > 24) bad = 1; on = 0 }
	END { exit bad }' "$tmp/link"
check "each decision fits 24 rows" [ $? = 0 ]

# Ctrl-C and Ctrl-D at the prompt resign: a clean end, logged, verified
for key in C D; do
	$pty 24 80 "^$key" -- "$ref" play --variant link --seed 4 --log "$tmp/r$key.log" \
		human "$fake legal" >"$tmp/r$key.raw" 2>&1
	st=$?
	plain "$tmp/r$key.raw" >"$tmp/r$key"
	check "Ctrl-$key: the game ends cleanly (exit $st)" [ $st = 0 ]
	check "Ctrl-$key: the person is told, the result says resigned" sh -c \
		"grep -q 'you resign' '$tmp/r$key' && grep -q 'faults: resigned x1' '$tmp/r$key' && grep -q '^fault 0 resigned' '$tmp/r$key.log'"
done
check "a resigned game verifies" sh -c "'$ref' verify '$tmp/rC.log' >/dev/null"

# tetroll names the shape
$pty 40 100 1 -- "$ref" play --variant tetroll --seed 4 --option height=4 --option width=4 \
	--log "$tmp/tetroll.log" human "$fake legal" >"$tmp/tetroll.raw" 2>&1
plain "$tmp/tetroll.raw" >"$tmp/tetroll"
check "tetroll: the dice name their shape" grep -Eq "^Your dice: [1-6]+, they make (the [IOTLS]|a joker)" "$tmp/tetroll"

# matrix: table talk typed at the prompt reaches the referee and is answered
$pty 40 100 "say 1 hello there,1" -- "$ref" play --variant matrix --seed 4 --option target=6 \
	--log "$tmp/matrix.log" human "$fake legal" >"$tmp/matrix.raw" 2>&1
plain "$tmp/matrix.raw" >"$tmp/matrix"
check "matrix: table talk is answered" sh -c \
	"grep -q '^referee: ok say' '$tmp/matrix' && grep -q '^side 0 ok say 1 hello there' '$tmp/matrix.log'"

# real-time rush cannot be typed: refused, pointing to lockstep and pace
"$ref" play --variant rush human "$fake legal" >"$tmp/rush" 2>&1
check "real-time rush is refused (exit 2) naming lockstep and pace" sh -c \
	"[ $? = 2 ] && grep -q 'lockstep=1' '$tmp/rush' && grep -q 'pace=' '$tmp/rush'"

yes "" | head -100 | "$ref" view --step --no-colour "$tmp/link.log" >"$tmp/view" 2>&1
check "view --step runs through on Enter" grep -q "^result: ranks=" "$tmp/view"
exit $fail
