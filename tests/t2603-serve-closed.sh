#!/bin/sh
# referee serve: a page closed mid-game that does not come back within its
# grace (--seat-grace 1 here) ends its seat as a bot's end of output
# would (the fault `crash`, the policy goes on, the log verifies);
# a spectator that never reads is dropped once its queue passes the cap,
# while the game goes on untouched (no fault) and another spectator gets
# every step.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-random"

# 48 KiB: at 16 the reading spectator was dropped too, since bot-link's
# fitted weights made game g2 72 steps (some 56 KiB) that come out in a
# burst of 35-380 ms, faster than a Python reader. Both a drop and the
# game's end close the stream: only the end sends the end event first, so
# the stalled spectator must be closed without it.
serve_start --spectator-queue 48 --seat-grace 1
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=8&time=bank:$(ms 20000),move:$(ms 5000),inc:0")
client seat "$url" "$loc" --moves 3 >"$tmp/seat"
check "the page played 3 moves and closed: $(cat "$tmp/seat")" grep -q '^closed the page after 3 moves' "$tmp/seat"
serve_wait g1
check "the seat faulted crash: its output closed" grep -q '^fault 0 crash output closed; its connection closed' "$games/g1.log"
check "the game went on to its result" grep -q '^result ranks=2,1 .*faults=crash,-' "$games/g1.log"
check "the log verifies" "$ref" verify "$games/g1.log"

# a person's seat holds the game until it connects: both spectators are
# there from the first step
loc=$(client start "$url" "variant=link&seat=person&seat=bot-link&seed=9&time=bank:$(ms 8000),move:$(ms 40),inc:0")
client stall "$url" g2 "$(ms 8000 | awk '{print $1/1000}')" --until-over >"$tmp/stall" &
st=$!
client sse "$url" g2 >"$tmp/watch" &
sp=$!
# both spectators there (the server counts them) before the person comes
for _ in $(seq 200); do
	client body "$url" /api/stats | grep -Eq '"spectators":([2-9]|[1-9][0-9]+),' && break
	sleep 0.02
done
client seat "$url" "$loc" >"$tmp/seat"
wait $sp
serve_wait g2
wait $st
check "the spectator that never read was dropped: $(cat "$tmp/stall")" grep -q '^closed by the server after [0-9]* bytes, without the end event$' "$tmp/stall"
check "the stats count it" sh -c "client() { '$py' '$top/tests/serve-client.py' \"\$@\"; }; client get '$url' /api/stats | grep -q '\"dropped\":[1-9]'"
check "the game had no fault: $(tail -1 "$tmp/seat")" grep -q '^result .*faults=-,-' "$games/g2.log"
check "the other spectator got every step to the end" "$py" - "$tmp/watch" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1])]
ids = [int(e[1]) for e in ev if e[0] == "step"]
assert ids == list(range(len(ids))) and len(ids) > 20 and ev[-2][0] == "end", ev[-3:]
PY
check "its log verifies" "$ref" verify "$games/g2.log"
echo "1..$n"
exit $fail
