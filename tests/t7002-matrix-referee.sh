#!/bin/sh
# t7002-matrix-referee: 7-player matrix games through bin/referee: three
# matrix AIs with four bot-random players, and seven AIs; each game ends by
# the rules without a fault, its log passes `referee verify`, and the same
# seed plays the same game again. Skipped while bin/referee is not built.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
ai="$top/bin/bot-matrix"
rnd="$top/bin/bot-random"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

# play NAME SEED BOT...: one game, its JSON in $tmp/NAME.json, log in $tmp/NAME.log
play() {
	name=$1 seed=$2
	shift 2
	"$ref" play --variant matrix --seed "$seed" --time "$time" --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
seats() { [ "$(grep -o '"seat":' "$1" | wc -l)" = 7 ]; }
scores() { grep -o '"score":-\{0,1\}[0-9]*' "$1"; }

echo "1..12"
play mixed 5 "$ai" "$rnd" "$ai" "$rnd" "$ai" "$rnd" "$rnd"
check "AIs and random players: referee exits 0" [ $? = 0 ]
mixed_ok() { seats "$tmp/mixed.json" && clean "$tmp/mixed.json"; }
check "AIs and random players: 7 seats, no faults, ended by the rules" mixed_ok
check "AIs and random players: the log verifies" verify "$tmp/mixed.log"
# Trades depend on timing, so the same-seed games run the AIs without table
# talk (t8001 tests the talk).
quiet="$ai --no-talk"
play self 6 "$quiet" "$quiet" "$quiet" "$quiet" "$quiet" "$quiet" "$quiet"
check "seven AIs: referee exits 0" [ $? = 0 ]
check "seven AIs: no faults, ended by the rules" clean "$tmp/self.json"
check "seven AIs: the log verifies" verify "$tmp/self.log"
play again 6 "$quiet" "$quiet" "$quiet" "$quiet" "$quiet" "$quiet" "$quiet"
scores "$tmp/self.json" >"$tmp/s1"
scores "$tmp/again.json" >"$tmp/s2"
check "the same seed plays the same game" cmp -s "$tmp/s1" "$tmp/s2"
# A tampered log fails verification: change one placement.
sed 's/^\(.*submit 0 \)[IOTJLSZ][0R2L]@[-0-9]*,[0-9]*/\1Z0@4,30/' "$tmp/self.log" >"$tmp/bad.log"
if cmp -s "$tmp/self.log" "$tmp/bad.log"; then
	not_ok "a tampered log fails verification (no submit line found)"
else
	check "a tampered log fails verification" sh -c "! '$ref' verify '$tmp/bad.log' >/dev/null 2>&1"
fi
# The rulebook's tokens are in the result: exactly one leader's 2 ToLs or
# tied leaders' 1 each, and at least one ToD; a changed award fails verify.
tokens_ok() {
	line=$(grep '^result ' "$tmp/self.log") || return 1
	tol=$(echo "$line" | sed -n 's/.* tol=\([0-9,]*\).*/\1/p')
	tod=$(echo "$line" | sed -n 's/.* tod=\([0-9,]*\).*/\1/p')
	[ -n "$tol" ] && [ -n "$tod" ] || return 1
	echo "$tod" | grep -q 1 || return 1
	case ",$tol," in *,2,*) [ "$(echo "$tol" | tr -cd 1)" = "" ] ;; *) echo "$tol" | grep -q 1 ;; esac
}
check "the result records ToL and ToD" tokens_ok
sed '/^result /s/ tod=[0-9,]*/ tod=0,0,0,0,0,0,0/' "$tmp/self.log" >"$tmp/badtod.log"
check "a changed ToD fails verification" sh -c "! '$ref' verify '$tmp/badtod.log' >/dev/null 2>&1"

# 2 players under forfeit: a fault during a round retires the seat and ends
# the game at once (no round is completed after it, no abort)
fake=$build/tests/prog-fakebot
"$ref" play --variant matrix --seed 3 --fault-policy forfeit --time "$time" \
	--log "$tmp/forfeit.log" "$fake crash 1 t7002-$$" "$rnd" >"$tmp/forfeit.out" 2>&1
st=$?
check "a crash in a 2-player round under forfeit ends the game, no round after it" \
	sh -c "[ $st = 0 ] && grep -q '^result ranks=2,1 .*faults=crash,- ' '$tmp/forfeit.log' && awk '/^fault 0/ { f = 1 } f && /^joint/ { bad = 1 } END { exit bad }' '$tmp/forfeit.log'"
check "and its log verifies" sh -c "'$ref' verify '$tmp/forfeit.log' >/dev/null"
[ "$fail" = 0 ]
