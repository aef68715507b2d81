#!/bin/sh
# A person plays a whole game of link against our AI (bin/bot-link) in
# headless Chromium, on `referee serve`'s play page, by real mouse clicks
# (tests/play-browser.py: Input.dispatchMouseEvent on the move buttons),
# at a short time control. The log verifies, and the end screen's result
# is the log's. Also: the start page's form starts a game by clicks, and
# a spectator's page shows every step of a live game in order.
# One server for the three: g1 the person's game, g2 the live game
# watched (two slow bots, from the bots file; the start page still
# proposes our AI), g3 the start page's. The watching runs in its own
# Chromium beside the one that plays g1, then the start page.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$build/tests/prog-fakebot"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }

printf '[bots]\nslow = %s/tests/prog-fakebot lag 0 25\n' "$build" >"$tmp/bots.ini"
serve_start --bots "$tmp/bots.ini"
loc=$(client start "$url" "variant=link&seat=person&seat=bot-link&seed=21&time=bank:$(ms 20000),move:$(ms 1000),inc:$(ms 100)")
check "a game for a person starts, to its play page" sh -c "echo '$loc' | grep -q '^/games/g1/play?seat=0&token='"
# a spectator's page in Chromium: every step of a live game in order, each
# shown as it comes (?delay=0: t2610 watches at a person's pace)
wloc=$(client start "$url" "variant=link&seat=slow&seat=slow&seed=3&time=bank:$(ms 20000),move:$(ms 1000),inc:0")
"$py" "$top/tests/play-browser.py" "${url%/}$wloc?delay=0" "$tmp/watch.png" >"$tmp/watch.json" 2>"$tmp/watch.err" &
wp=$!
# the person's game, then the start page (typed into, clicked, then the
# game played by clicks), in one Chromium: a line each
"$py" "$top/tests/play-browser.py" "${url%/}$loc" "$tmp/play.png" -- "$url" "$tmp/start.png" 1000 seed=5 \
	>"$tmp/both.jsonl" 2>"$tmp/both.err"
wait $wp
# job N of both.jsonl: NAME.json (none when it failed), NAME.err
"$py" - "$tmp" <<'EOF'
import json, os, sys
tmp = sys.argv[1]
lines = open(os.path.join(tmp, "both.jsonl")).read().splitlines() + ["", ""]
for name, line in zip(["play", "start"], lines):
    d = json.loads(line) if line.startswith("{") else {"error": "not played"}
    open(os.path.join(tmp, name + ".err"), "w").write(d.get("error", ""))
    if "error" not in d:
        open(os.path.join(tmp, name + ".json"), "w").write(json.dumps(d))
EOF
[ -s "$tmp/both.err" ] && sed 's/^/# /' "$tmp/both.err"
check "the whole game played by clicks in Chromium $(cat "$tmp/play.err")" test -s "$tmp/play.json"
serve_wait g1
check "the log verifies" "$ref" verify "$games/g1.log"
check "the end screen's result is the log's" "$py" - "$tmp/play.json" "$games/g1.log" <<'PY'
import json, sys
page = json.load(open(sys.argv[1]))
log = [l.split(" ", 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("result ")][0]
assert page["result"] == log, (page, log)
ranks = log.split()[0].split("=")[1].split(",")
words = "Draw" if ranks[0] == ranks[1] else {"1": "You won", "2": "You lost"}[ranks[0]]
assert page["status"].startswith(words), (words, page)
assert page["clicks"] > 3, page
PY
check "every move of seat 0 was a click" sh -c "test \$(grep -c '^move 0 ' '$games/g1.log') = \$('$py' -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"clicks\"])' '$tmp/play.json')"
check "no fault" grep -q '^result .*faults=-,-' "$games/g1.log"

check "the start page started a game against bot-link, played to the end $(cat "$tmp/start.err")" \
	grep -q '"url": "/games/g3/play?seat=0' "$tmp/start.json"
serve_wait g3
check "with the seed typed, and our AI at its default strength (medium, level 3) in seat 1" sh -c "grep -q '^seed 5$' '$games/g3.log' &&
	grep -q '^bot 1 bot-link-level3 ' '$games/g3.log'"
check "that log verifies" "$ref" verify "$games/g3.log"
serve_wait g2
steps=$(client body "$url" /api/games | "$py" -c 'import json,sys; print([g for g in json.load(sys.stdin) if g["id"] == "g2"][0]["steps"])')
check "the watch page showed all $steps steps in order, no gap, no duplicate: $(cat "$tmp/watch.json" "$tmp/watch.err")" \
	"$py" -c 'import json,sys; w=json.load(open(sys.argv[1])); n=int(sys.argv[2]); assert w["seen"]==n and w["last"]==n-1 and w["gaps"]==0 and w["cells"]>0, w' "$tmp/watch.json" "$steps"
echo "1..$n"
exit $fail
