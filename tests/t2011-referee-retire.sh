#!/bin/sh
# t2011-referee-retire: a crash, or 3 faults in a row, retire a seat in
# every variant and mode (protocol.md, Faults), here in the Main Match and
# lockstep rush, whose policy (`nothing`) used to keep a stopped seat in
# the game (`out`): the seat is retired, not asked again, scores nothing
# more and ranks last; a game of two ends at once; with three the others
# play on. Every log verifies.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
rnd=$top/bin/bot-random
need "$ref" "$fake" "$rnd"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 2000),start:$(ms 10000)"

# retired LOG RANK: seat 0 retired (no `out`), ranked RANK, never asked or
# submitted for after its retirement, its score unchanged since, and the log verifies.
retired() {
	grep -q '^retire 0$' "$1" && ! grep -q '^out ' "$1" &&
	grep -q "^result ranks=$2," "$1" &&
	awk '/^retire 0$/ { r = 1; next }
	     r && (/^> 0 [^ ]* go / || /^(submit|submit-random|missing|move) 0 /) { bad = 1 }
	     END { exit bad || !r }' "$1" &&
	"$ref" verify "$1" >/dev/null 2>&1
}
# at_once LOG: the game ends right after the retirement: no round, move or
# chance after it
at_once() {
	awk '/^retire 0$/ { r = 1; next }
	     r && /^(joint|chance|move|submit|missing|random) / { bad = 1 }
	     END { exit bad || !r }' "$1"
}
illegal3() { [ "$(grep -c '^fault 0 illegal' "$1")" = 3 ] && retired "$1" 2; }
three() { retired "$1" 3 && ! at_once "$1"; }
play() { # LOG ARGS...
	log=$1
	shift
	"$ref" play --seed 5 --sandbox off --time "$time" --log "$log" "$@" >/dev/null 2>&1
}

echo "1..11"
for v in matrix rush; do
	opt=
	bad="I0@4,30"	# well-formed, and no Main Match placement is in mid-air
	[ $v = rush ] && opt="--option lockstep=1" && bad="place:I0@0,30"	# above the board
	play "$tmp/$v-crash.log" --variant $v $opt "$fake crash 2" "$rnd"
	check "$v ${opt:-}: a crash retires the seat, it ranks last, the log verifies" retired "$tmp/$v-crash.log" 2
	check "$v ${opt:-}: the 2-player game ends at once" at_once "$tmp/$v-crash.log"
	play "$tmp/$v-illegal.log" --variant $v $opt "$fake illegal:$bad 2" "$rnd"
	check "$v ${opt:-}: 3 illegal moves in a row retire the seat, it ranks last, the log verifies" \
		illegal3 "$tmp/$v-illegal.log"
	check "$v ${opt:-}: the 2-player game ends at once" at_once "$tmp/$v-illegal.log"
	play "$tmp/$v-three.log" --variant $v $opt "$fake crash 2" "$rnd" "$rnd --seed 2"
	check "$v ${opt:-}, 3 players: the crashed seat ranks last (3), the others play on" \
		three "$tmp/$v-three.log"
done
# The Main Match's score of the seat when it retired (the last `go` state
# before) is its final score.
check "matrix, 3 players: the retired seat scores nothing more" \
	[ "$(awk '/^retire 0/ { r = 1 } !r && /^> 1 [^ ]* go / { s = $0 } END { sub(/.* scores=/, "", s); sub(/,.*/, "", s); print s }' "$tmp/matrix-three.log")" = \
	  "$(sed -n 's/^result ranks=[^ ]* scores=\([-0-9]*\),.*/\1/p' "$tmp/matrix-three.log")" ]
exit $fail
