#!/bin/sh
# t8002-table-talk-traps: table talk (matrix) costs nothing where the
# protocol promises nothing: a `say` with non-ASCII or control bytes is
# refused `bad-text`; a bot is told of its own fault; a side line sent
# after `move` is refused `moved` in its own round and a second `move` for
# a closed round is discarded, neither judged in the next round; a move
# made stale by a gift completed while the bot thought is answered
# `rejected MOVE traded` with a fresh `go`. No fault in any of it, and
# every log verifies.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$build/tests/prog-socialbot" "$top/bin/bot-random"
soc="$build/tests/prog-socialbot"
rnd="$top/bin/bot-random"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
nofault() { ! grep -q '^fault' "$1"; }
play() { # LOG BOT...
	log=$1
	shift
	"$ref" play --variant matrix --seed 4 --option target=12 --time "$time" --log "$log" \
		"$@" >/dev/null 2>&1
}

# A bot whose behaviour in round 1 is its argument; after that (and for
# any further `go` of round 1) it plays the first listed move, or `-`.
cat >"$tmp/bot.py" <<'BOT'
import sys, time
mode, scale = sys.argv[1], float(sys.argv[2])
moves, gos = [], 0
for line in iter(sys.stdin.buffer.readline, b""):
    w = line.decode("latin-1").rstrip("\n").split(" ")
    out = []
    if w[0] == "game":
        out.append("hello traps 1 moves")
    elif w[0] == "moves":
        moves = w[1:]
    elif w[0] == "go":
        gos += 1
        first = moves[0] if moves else "-"
        piece = [f.split("=")[1] for f in w if f.startswith("piece=")][0]
        if gos == 1 and mode == "badtext":
            out += ["say 1 caf\xe9", "say 1 a\tb", "say 1 fine"]
        if gos == 1 and mode == "illegal":   # a piece it does not hold
            first = ("O" if piece != "O" else "T") + first[1:]
        if gos == 1 and mode == "late":
            out += ["move " + first, "say 1 late", "move " + first]
            first = None
        if gos == 1 and mode == "gift":
            sys.stdout.buffer.write(("gift 1 %s\n" % piece).encode())
            sys.stdout.flush()
            time.sleep(0.5 * scale)   # thinking while seat 1 accepts
        if first is not None:
            out.append("move " + first)
        moves = []
    elif w[0] == "quit":
        break
    if out:
        sys.stdout.buffer.write(("\n".join(out) + "\n").encode("latin-1"))
        sys.stdout.flush()
BOT
bot() { echo "python3 $tmp/bot.py $1 $scale"; }

echo "1..12"
play "$tmp/bad.log" "$(bot badtext)" "$rnd" "$rnd --seed 2"
check "bad-text: 'say 1 café' is refused bad-text" grep -q '^> 0 +[0-9]* refused say bad-text$' "$tmp/bad.log"
check "bad-text: both the accent and the tab, and the plain say goes through" \
	sh -c "[ \$(grep -c '^> 0 +[0-9]* refused say bad-text$' '$tmp/bad.log') = 2 ] && grep -q '^side 0 ok say 1 fine' '$tmp/bad.log'"
check "bad-text: no fault" nofault "$tmp/bad.log"
check "bad-text: the log verifies" verify "$tmp/bad.log"

play "$tmp/ill.log" "$(bot illegal)" "$rnd" "$rnd --seed 2"
check "own fault: the faulty seat is told 'update fault 0 illegal'" \
	grep -q '^> 0 +[0-9]* update fault 0 illegal$' "$tmp/ill.log"
check "own fault: one fault only, the log verifies" \
	sh -c "[ \$(grep -c '^fault' '$tmp/ill.log') = 1 ] && '$ref' verify '$tmp/ill.log' >/dev/null 2>&1"

play "$tmp/late.log" "$(bot late)" "$rnd" "$rnd --seed 2"
check "closed round: a say after move is refused moved in its own round" \
	sh -c "awk '/^joint/ { exit 1 } /^side 0 refused moved say 1 late/ { ok = 1; exit } END { exit !ok }' '$tmp/late.log' && grep -q '^> 0 +[0-9]* refused say moved$' '$tmp/late.log'"
check "closed round: a second move is discarded, not judged next round" \
	sh -c "awk '/^joint/ { exit 1 } /^# seat 0: a move for a closed round, discarded/ { ok = 1; exit } END { exit !ok }' '$tmp/late.log'"
check "closed round: no fault, the log verifies" \
	sh -c "! grep -q '^fault' '$tmp/late.log' && '$ref' verify '$tmp/late.log' >/dev/null 2>&1"

play "$tmp/gift.log" "$(bot gift)" "$soc" "$rnd"
check "traded: the gift is accepted while the giver thinks" grep -q '^side 1 ok accept ' "$tmp/gift.log"
check "traded: the stale move is answered 'rejected MOVE traded', then a fresh go" \
	sh -c "grep -A2 '^> 0 +[0-9]* rejected [^ ]* traded$' '$tmp/gift.log' | grep -q '^> 0 +[0-9]* go '"
check "traded: no fault, the giver places nothing, the log verifies" \
	sh -c "! grep -q '^fault' '$tmp/gift.log' && grep -q '^submit 0 - ' '$tmp/gift.log' && '$ref' verify '$tmp/gift.log' >/dev/null 2>&1"
exit $fail
