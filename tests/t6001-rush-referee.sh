#!/bin/sh
# t6001: rush through bin/referee. Real time without a pace (pace=0, the
# race): a bot that sleeps 1 ms before each action against the same bot
# sleeping 10 ms: the fast one takes more blocks, and the log (the order moves were applied in) verifies. A
# 4-player real-time game and a lockstep game of our bots finish and
# verify; the lockstep game reruns identically; the game's time limit ends
# a slow game with reason=limit; a lockstep game whose bots all crashed ends
# for faults; a log with a move taken out fails verify.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
rush="$top/bin/bot-rush"
random="$top/bin/bot-random"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"
# Every game but the one about the limit is bounded too, so that no
# failure can hang the suite.
bounded="$time,game:$(ms 120000)"

# A protocol bot that plays the first listed move, after sleeping its
# first argument in milliseconds before each one.
cat >"$tmp/sleeper.py" <<'EOF'
import sys, time
delay = float(sys.argv[1]) / 1000.0
moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "game":
        print("hello sleeper 1 moves", flush=True)
    elif words[0] == "moves":
        moves = words[1:]
    elif words[0] == "go":
        if delay:
            time.sleep(delay)
        print("move " + moves[0], flush=True)
    elif words[0] == "quit":
        break
EOF
fast="python3 $tmp/sleeper.py $(ms 1)"
slow="python3 $tmp/sleeper.py $(ms 10)"

# play NAME BOT... with extra referee options in $opts
play() {
	name=$1
	shift
	"$ref" play --variant rush $opts --json --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
reason() { grep -q "\"reason\":\"$2\"" "$1"; }
nofaults() { ! grep -q '"faults":{"' "$1"; }
# takes LOG SEAT: how many blocks SEAT took from the box
takes() { grep -c "^move $2 take:" "$1"; }

echo "1..19"
opts="--seed 1 --time $bounded --option pace=0"
play speed "$fast" "$slow"
check "fast vs slow: referee exits 0" [ $? = 0 ]
check "fast vs slow: the game ended by the rules" reason "$tmp/speed.json" end
f=$(takes "$tmp/speed.log" 0)
s=$(takes "$tmp/speed.log" 1)
check "fast vs slow: the fast bot took more blocks ($f to $s)" [ "$f" -gt "$s" ]
check "fast vs slow: the log replays exactly (verify)" verify "$tmp/speed.log"

opts="--seed 2 --time $bounded --option pace=0"
play four "$rush" "$random" "$rush --seed 5" "$random --seed 6"
check "4 players in real time: referee exits 0" [ $? = 0 ]
check "4 players in real time: ended by the rules, no faults" \
	sh -c "grep -q '\"reason\":\"end\"' '$tmp/four.json' && ! grep -q '\"faults\":{\"' '$tmp/four.json'"
check "4 players in real time: verify passes" verify "$tmp/four.log"

opts="--seed 3 --time $bounded --option lockstep=1"
play lock "$rush" "$random"
check "lockstep: referee exits 0" [ $? = 0 ]
check "lockstep: ended by the rules, no faults" \
	sh -c "grep -q '\"reason\":\"end\"' '$tmp/lock.json' && ! grep -q '\"faults\":{\"' '$tmp/lock.json'"
check "lockstep: verify passes" verify "$tmp/lock.log"
check "lockstep: rerun reproduces the game" sh -c "'$ref' rerun '$tmp/lock.log' >'$tmp/rerun.out' 2>&1"
check "lockstep: every tick was simultaneous" sh -c "grep -q '^joint' '$tmp/lock.log' && ! grep -q '^move ' '$tmp/lock.log'"

opts="--seed 4 --time $time,game:$(ms 300)"
play limit "$slow" "$slow"
check "time limit: referee exits 0" [ $? = 0 ]
check "time limit: the result says limit" reason "$tmp/limit.json" limit
check "time limit: verify passes" verify "$tmp/limit.log"

# Lockstep with every bot crashed: the game ends at once, it does not spin
# on empty ticks: for faults when both crashes are seen in the same tick,
# else by the rules as soon as the first crasher is retired (a game of two
# ends then, the seat left ranking first).
fake="${TETRARENA_BUILD:-$top/build/opt}/tests/prog-fakebot"
opts="--seed 5 --time $bounded --option lockstep=1"
play crash "$fake crash" "$fake crash"
check "lockstep, every bot crashed: referee exits 0" [ $? = 0 ]
check "lockstep, every bot crashed: the result says faults, or end with a seat retired" \
	sh -c "grep -q '\"reason\":\"faults\"' '$tmp/crash.json' ||
	       { grep -q '\"reason\":\"end\"' '$tmp/crash.json' && grep -q '^retire ' '$tmp/crash.log'; }"
check "lockstep, every bot crashed: verify passes" verify "$tmp/crash.log"

# Take out the first placement: the rest no longer replays.
awk '!done && /^move [0-9] place:/ { done = 1; next } { print }' "$tmp/speed.log" >"$tmp/cut.log"
check "a log with a move taken out fails verify" sh -c "! '$ref' verify '$tmp/cut.log' >/dev/null 2>&1"
exit $fail
