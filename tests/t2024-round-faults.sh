#!/bin/sh
# t2024-round-faults: in a simultaneous round nobody hears of a fault
# before the round is in (issue 50, item 11; protocol.md, update). In a
# matrix game and a lockstep rush game of three, seat 0 answers every `go`
# at once with an illegal move, seat 1 with one that does not parse, and
# seat 2 answers late with legal moves: no `update fault` reaches seat 2
# while its own `go` is open, yet every fault reaches it (with the round);
# the logs verify (verify holds the round's faults back too), and three
# reruns of each compare `same`, though seats 0 and 1 fault in whichever
# order their lines arrive (rerun compares the faults of a round by seat).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000),game:$(ms 60000)"
slow="$fake lag 0 $(ms 50)"

# early SEAT LOG: the `update fault` lines sent to SEAT while its `go` was
# open (sent, not yet answered by its move or its own fault, in a round
# not yet in: no `joint`, no result that ended the game)
early() {
	awk -v s="$1" '
		$1 == ">" && $2 == s && $4 == "go" { open = 1 }
		$1 == "<" && $2 == s && $4 == "move" { open = 0 }
		$1 == "fault" && $2 == s { open = 0 }
		$1 == "joint" || $1 == "result" { open = 0 }
		$1 == ">" && $2 == s && $4 == "update" && $5 == "fault" && open { print }
	' "$2"
}

echo "1..10"
for game in matrix lockstep; do
	case $game in
	matrix) opts="--variant matrix --option rounds=3" bad=O0@0,0 ;;
	lockstep) opts="--variant rush --option lockstep=1" bad=place:I0@0,0 ;;
	esac
	log=$tmp/$game.log
	# shellcheck disable=SC2086
	"$ref" play $opts --seed 5 --sandbox off --time "$time" --log "$log" \
		"$fake illegal:$bad" "$fake badmove" "$slow" >"$tmp/$game.out" 2>&1
	check "$game: seat 0's illegal and seat 1's malformed moves are faults, 3 rounds" \
		sh -c "[ \$(grep -c '^fault 0 illegal' '$log') = 3 ] && [ \$(grep -c '^fault 1 malformed' '$log') = 3 ]"
	early 2 "$log" >"$tmp/$game.early"
	sed 's/^/# early: /' "$tmp/$game.early" >&2
	check "$game: seat 2 hears of no fault while its go is open" [ ! -s "$tmp/$game.early" ]
	check "$game: seat 2 is told every fault" \
		sh -c "[ \$(grep -c '^> 2 .* update fault [01] ' '$log') = 6 ]"
	check "$game: the log verifies" sh -c "'$ref' verify '$log' >/dev/null"
	# three reruns at once: each the same game
	for i in 1 2 3; do
		"$ref" rerun --sandbox off --trust-log "$log" >"$tmp/$game.rerun$i" 2>&1 &
		eval "pid$i=\$!"
	done
	same=0
	for i in 1 2 3; do
		eval "wait \$pid$i" && same=$((same + 1))
	done
	check "$game: 3 reruns compare the same ($same)" [ $same = 3 ] ||
		cat "$tmp/$game".rerun* | sed 's/^/# /' >&2
done
exit $fail
