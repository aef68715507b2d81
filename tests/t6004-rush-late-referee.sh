#!/bin/sh
# t6004-rush-late-referee: real-time rush keeps its promises when the
# referee wakes late. The test hook TETRARENA_TEST_LAG_MS makes the timer
# of each moment a held move is due wake the referee that much late (a
# loaded machine; issue 34 measured up to 196 ms); a line that comes
# meanwhile still wakes it. Then still:
# moves take effect in the order of their due moments (the pace after the
# `go` as it went out, or when the move was read if later), none sooner
# than the pace after its `go`, and moves due together go in the seeded
# order, each seat first about as often.
#
# Over 10 seeds, a box with one block of each shape: seat 0 answers at
# once, seat 1 after the pace and 30 ms. The I both take at the start line
# goes to seat 0 (its move was due first, though the referee read seat 1's
# before it settled either: the old referee settled a move read after its
# pace at once, before the held one). Then two instant bots: every moment is a tie.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
pace=$(ms 100)
lag=$(ms 60)
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000),game:$(ms 30000)"
tol=2000	# us: GAME_TIE_US (1 ms) and the log's own timing

# settles LOG: one line per move or rejection, in the order they took
# effect: "SEAT DUE ACT GO", with DUE the moment it was due (pace after its
# go, or when it was read if later), ACT when it took effect (the next line
# sent), GO its go's time; microseconds.
settles() {
	awk -v pace="$pace" '
	function t(f) { sub(/^\+/, "", f); return f + 0 }
	($1 == ">" || $1 == "<") && want { print wseat, wdue, t($3), wgo; want = 0 }
	$1 == ">" && $4 == "go" { go[$2] = t($3) }
	$1 == "<" && $4 == "move" { mgo[$2] = go[$2]; d = go[$2] + pace * 1000; a = t($3); due[$2] = a > d ? a : d }
	($1 == "move" || $1 == "rejected") && $2 ~ /^[0-9]$/ { want = 1; wseat = $2; wdue = due[$2]; wgo = mgo[$2] }
	' "$1"
}

# The 16 games are played at once (they mostly wait), then read in order.
for seed in 1 2 3 4 5 6 7 8 9 10; do
	{
		TETRARENA_TEST_LAG_MS=$lag "$ref" play --variant rush --seed $seed --option box=1 --option pace=$pace \
			--sandbox off --time "$time" --log "$tmp/late$seed.log" "$fake legal" \
			"$fake lag 0 $((pace + $(ms 30)))" >/dev/null 2>&1
		echo $? >"$tmp/late$seed.rc"
	} &
done
for seed in 1 2 3 4 5 6; do
	TETRARENA_TEST_LAG_MS=$lag "$ref" play --variant rush --seed $seed --option box=2 --option pace=$pace \
		--sandbox off --time "$time" --log "$tmp/tie$seed.log" "$fake legal" "$fake legal" >/dev/null 2>&1 &
done
wait

echo "1..7"
wins=0
games=0
: >"$tmp/all"
for seed in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(cat "$tmp/late$seed.rc")" = 0 ] || continue
	games=$((games + 1))
	# both ask for the I at the start line: seat 0's move is due first
	grep -q '^move 0 take:I ' "$tmp/late$seed.log" && grep -q '^rejected 1 take:I$' "$tmp/late$seed.log" &&
		wins=$((wins + 1))
	settles "$tmp/late$seed.log" >>"$tmp/all"
	echo game >>"$tmp/all"
	"$ref" verify "$tmp/late$seed.log" >/dev/null 2>&1 || echo "# late$seed.log does not verify"
done
check "10 games played" [ $games = 10 ]
check "the seat due first takes the I both asked for: $wins of 10" [ $wins = 10 ]
check "every move took effect in the order of its due moment" \
	awk -v tol=$tol '/^game/ { last = 0; next } $2 < last - tol { print "# due " $2 " after " last > "/dev/stderr"; bad = 1 } { last = $2 } END { exit bad || NR < 150 }' "$tmp/all"
check "no move took effect sooner than the pace after its go" \
	awk -v pace="$pace" '/^game/ { next } $3 < $4 + pace * 1000 { print "# acted at " $3 ", go at " $4 > "/dev/stderr"; bad = 1 } END { exit bad }' "$tmp/all"

# Two instant bots: every moment is a tie; after each late wake-up each seat
# must still go first about half the time.
: >"$tmp/ties"
for seed in 1 2 3 4 5 6; do
	settles "$tmp/tie$seed.log" >"$tmp/s"
	# consecutive settles of both seats due within the tolerance: the first won the tie
	awk -v tol=$tol 'NR > 1 && $1 != ps && ($2 - pd < tol && pd - $2 < tol) && !used { print ps; used = 1; next } { ps = $1; pd = $2; used = 0 }' "$tmp/s" >>"$tmp/ties"
	check_pace=$(awk -v pace="$pace" '$3 < $4 + pace * 1000 { bad = 1 } END { print bad + 0 }' "$tmp/s")
	[ "$check_pace" = 0 ] || echo "# tie$seed.log: a move sooner than the pace" >>"$tmp/tiebad"
done
t0=$(grep -c '^0$' "$tmp/ties")
t1=$(grep -c '^1$' "$tmp/ties")
echo "# ties won: seat 0 $t0, seat 1 $t1"
check "there are ties: $((t0 + t1))" [ $((t0 + t1)) -ge 40 ]
check "ties balanced by the seed: seat 0 first in $t0, seat 1 in $t1 (each at least 30%)" \
	[ $((t0 * 10)) -ge $((3 * (t0 + t1))) -a $((t1 * 10)) -ge $((3 * (t0 + t1))) ]
check "no move sooner than the pace in the tie games" [ ! -e "$tmp/tiebad" ]
exit $fail
