#!/bin/sh
# referee serve: every game can be watched live. A spectator gets every
# step of a game in order (Server-Sent Events, the step number as the
# event id), then the end; one that drops its connection and comes back
# with Last-Event-ID resumes with no gap and no duplicate; an id that is
# not held gets the full state (`full`). The game's log verifies. Old
# finished games keep their last step only.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-random"

serve_start
loc=$(client start "$url" "variant=link&seat=bot-link&seat=bot-random&seed=11&time=bank:$(ms 4000),move:$(ms 80),inc:0")
check "a game of two bots starts, to its watch page" test "$loc" = /games/g1
client sse "$url" g1 >"$tmp/a" &
a=$!
client sse "$url" g1 --stop-after 5 >"$tmp/b1"
last=$(grep '^step' "$tmp/b1" | tail -1 | cut -d' ' -f2)
client get "$url" /api/games >"$tmp/state"
client sse "$url" g1 --last "$last" >"$tmp/b2"
wait $a
check "the spectator got every step in order, from 0, then the end" "$py" - "$tmp/a" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1])]
ids = [int(e[1]) for e in ev if e[0] == "step"]
assert ev[0] == ["game", "-"], ev[0]
assert ids == list(range(len(ids))) and len(ids) > 20, ids
assert ev[-2][0] == "end" and ev[-1] == ["closed"], ev[-2:]
PY
check "the dropped spectator had 5 steps" test "$(grep -c '^step' "$tmp/b1")" = 5
check "resumed with Last-Event-ID: no gap, no duplicate, the same steps" "$py" - "$tmp/a" "$tmp/b1" "$tmp/b2" <<'PY'
import sys
steps = lambda f: [int(l.split()[1]) for l in open(f) if l.startswith("step ")]
a, b1, b2 = steps(sys.argv[1]), steps(sys.argv[2]), steps(sys.argv[3])
assert b1 + b2 == a, (b1, b2[:5], len(a))
PY
check "the game's log verifies" "$ref" verify "$games/g1.log"
client sse "$url" g1 --last 999999 >"$tmp/c"
check "an id not held gets the full state: game, full (the last step), end" \
	test "$(cut -d' ' -f1 "$tmp/c" | tr '\n' ' ')" = "game full end closed "
client sse "$url" g1 --last 12 >"$tmp/d"
check "after the end, a late spectator resumes too" test "$(grep '^step' "$tmp/d" | head -1)" = "step 13"
# memory stays bounded: past the 16 newest finished games, a game keeps
# its last step only (a late spectator gets it as `full`)
for i in $(seq 2 18); do
	client start "$url" "variant=link&seat=bot-random&seat=bot-random&seed=$i" >/dev/null
done
serve_wait g18
client sse "$url" g1 >"$tmp/e"
check "an old game's late spectator gets game, full, end" test "$(cut -d' ' -f1 "$tmp/e" | tr '\n' ' ')" = "game full end closed "
client sse "$url" g3 >"$tmp/f"
check "a recent one still has every step" test "$(grep -c '^step' "$tmp/f")" -gt 20
# our AIs' levels are opponents too, for their own variant only
client body "$url" /api/config >"$tmp/config"
check "the start page offers bot-link-level1..4 for link" "$py" - "$tmp/config" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = {x["name"]: x["variant"] for x in d["opponents"]}
assert all(o.get("bot-link-level%d" % l) == "link" for l in range(1, 5)), o
assert o.get("bot-tetroll-level1") == "tetroll", o
PY
g=$(client start "$url" "variant=link&seat=bot-link-level1&seat=bot-random&seed=12&time=bank:$(ms 4000),move:$(ms 80),inc:0")
serve_wait "${g#/games/}"
check "a game against bot-link-level1 runs it with --level 1, and verifies" \
	sh -c "grep -q '^bot 0 bot-link-level1 .*bot-link.* --level 1\$' '$games/${g#/games/}.log' && '$ref' verify '$games/${g#/games/}.log' >/dev/null"
echo "1..$n"
exit $fail
