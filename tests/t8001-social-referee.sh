#!/bin/sh
# t8001-social-referee: the Main Match's table talk through bin/referee.
# Three matrix AIs, three test bots that greet everyone and accept every
# offer (tests/prog-socialbot), and a bot-random that ignores the social
# layer: the game ends by the rules without a fault, a trade is made, a
# message to a seat the deal does not link is refused, the log verifies,
# and logs altered to break a limit fail verification. A second game with
# a test bot that gives its piece away every round: three gifts go
# through, the fourth is refused, the receiver places two pieces in one
# move and the giver places nothing. The giver listens 600 ms (scaled) for
# the accept before it moves (its own 150 ms window, which its move closes,
# is shorter than a loaded machine takes to pass an accept on).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$build/tests/prog-socialbot"
ai="$top/bin/bot-matrix"
soc="$build/tests/prog-socialbot"
rnd="$top/bin/bot-random"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"
verify() { "$ref" verify "$1" >/dev/null 2>&1; }

echo "1..14"
# A trade depends on the AIs finding one worth it: try a few seeds.
for seed in 6 5 7 8; do
	"$ref" play --variant matrix --seed "$seed" --time "$time" --json --log "$tmp/g.log" \
		"$ai" "$soc" "$ai --seed 3" "$soc" "$ai --seed 5" "$soc" "$rnd" \
		>"$tmp/g.json" 2>"$tmp/g.err"
	status=$?
	grep -q '^side [0-9] ok accept' "$tmp/g.log" && break
done
check "referee exits 0" [ "$status" = 0 ]
check "7 seats, no faults (bot-random ignores the table talk), ended by the rules" clean "$tmp/g.json"
check "a trade is accepted and both seats are told" \
	sh -c "grep -q '^side [0-9] ok accept' '$tmp/g.log' && [ \$(grep -c '^> [0-9] +[0-9]* traded ' '$tmp/g.log') -ge 2 ]"
check "a message to a seat the deal does not link is refused, with the reason" \
	sh -c "grep -q '^side [0-9] refused not-partner say ' '$tmp/g.log' && grep -q '^> [0-9] +[0-9]* refused say not-partner' '$tmp/g.log'"
check "round 1 talk is free: every greeting of round 1 is delivered" \
	sh -c "awk '/^joint/ { exit } /^side .* say / && !/ ok say / { bad = 1 } END { exit bad }' '$tmp/g.log'"
check "the log verifies" verify "$tmp/g.log"
# A refused message recorded as delivered breaks the talk limit.
awk '!done && /^side [0-9] refused not-partner say / { sub(/refused not-partner say/, "ok say"); done = 1 } { print }' \
	"$tmp/g.log" >"$tmp/talk.log"
check "a message past the talk limit fails verification" sh -c "! '$ref' verify '$tmp/talk.log' >/dev/null 2>&1"
# An accepted trade recorded as refused contradicts the rules too.
awk '!done && /^side [0-9] ok accept / { sub(/ok accept/, "refused not-held accept"); done = 1 } { print }' \
	"$tmp/g.log" >"$tmp/trade.log"
check "a trade recorded against the rules fails verification" sh -c "! '$ref' verify '$tmp/trade.log' >/dev/null 2>&1"

"$ref" play --variant matrix --seed 21 --time "$time" --json --log "$tmp/gift.log" \
	"$soc --give --listen $(ms 600)" "$soc" "$soc" "$rnd" "$ai" "$soc" "$soc" >"$tmp/gift.json" 2>"$tmp/gift.err"
check "gifts: 3 given and accepted, the 4th refused, no faults" \
	sh -c "[ \$(grep -c '^side 0 ok gift 1 ' '$tmp/gift.log') = 3 ] && [ \$(grep -c '^side 1 ok accept ' '$tmp/gift.log') = 3 ] && grep -q '^side 0 refused no-gifts gift ' '$tmp/gift.log' && ! grep -q '^fault' '$tmp/gift.log'"
check "the receiver places two pieces in one move, the giver none" \
	sh -c "grep -q '^submit 1 [IOTJLSZ][0R2L]@-\{0,1\}[0-9]*,[0-9]*+[IOTJLSZ]' '$tmp/gift.log' && grep -q '^submit 0 - ' '$tmp/gift.log'"
check "the gift game's log verifies" verify "$tmp/gift.log"
awk '!done && /^side 0 refused no-gifts gift / { sub(/refused no-gifts gift/, "ok gift"); done = 1 } { print }' \
	"$tmp/gift.log" >"$tmp/gift4.log"
check "a fourth gift recorded as sent fails verification" sh -c "! '$ref' verify '$tmp/gift4.log' >/dev/null 2>&1"

# A bot that floods 70 messages a round: 64 are handled, the rest refused.
cat >"$tmp/flood.sh" <<'BOT'
#!/bin/sh
while read -r line; do
	case "$line" in
	game*) echo "hello flood 1 moves" ;;
	moves*) first=$(echo "$line" | cut -d' ' -f2) ;;
	go*) i=0; while [ $i -lt 70 ]; do echo "say 1 x$i"; i=$((i + 1)); done; echo "move $first" ;;
	quit*) exit 0 ;;
	esac
done
BOT
"$ref" play --variant matrix --seed 3 --option target=12 --time "$time" --log "$tmp/flood.log" \
	"sh $tmp/flood.sh" "$rnd" "$rnd --seed 2" >/dev/null 2>&1
rounds=$(grep -c '^joint' "$tmp/flood.log")
check "a flood: 64 side lines a round handled, 6 refused, no fault" \
	sh -c "[ $rounds -gt 0 ] && [ \$(grep -c '^side 0 ' '$tmp/flood.log') = $((rounds * 64)) ] && [ \$(grep -c '^> 0 +[0-9]* refused say flood' '$tmp/flood.log') = $((rounds * 6)) ] && ! grep -q '^fault' '$tmp/flood.log'"
check "the flood game's log verifies" verify "$tmp/flood.log"
[ "$fail" = 0 ]
