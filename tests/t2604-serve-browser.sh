#!/bin/sh
# A person plays a whole game of link against our AI (bin/bot-link) in
# headless Chromium, on `referee serve`'s play page, by real mouse clicks
# (tests/play-browser.py: Input.dispatchMouseEvent on the move buttons),
# at a short time control. The log verifies, and the end screen's result
# is the log's. Also: the start page's form starts a game by clicks.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }

serve_start
loc=$(client start "$url" "variant=link&seat=person&seat=bot-link&seed=21&time=bank:$(ms 20000),move:$(ms 1000),inc:$(ms 100)")
check "a game for a person starts, to its play page" sh -c "echo '$loc' | grep -q '^/games/g1/play?seat=0&token='"
python3 "$top/tests/play-browser.py" "${url%/}$loc" "$tmp/play.png" >"$tmp/play.json" 2>"$tmp/play.err"
check "the whole game played by clicks in Chromium $(cat "$tmp/play.err")" test -s "$tmp/play.json"
serve_wait g1
check "the log verifies" "$ref" verify "$games/g1.log"
check "the end screen's result is the log's" python3 - "$tmp/play.json" "$games/g1.log" <<'PY'
import json, sys
page = json.load(open(sys.argv[1]))
log = [l.split(" ", 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("result ")][0]
assert page["result"] == log, (page, log)
ranks = log.split()[0].split("=")[1].split(",")
place = {"1": "1st", "2": "2nd"}[ranks[0]]
assert "you finished %s of 2" % place in page["text"], page
assert page["clicks"] > 3, page
PY
check "every move of seat 0 was a click" sh -c "test \$(grep -c '^move 0 ' '$games/g1.log') = \$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"clicks\"])' '$tmp/play.json')"
check "no fault" grep -q '^result .*faults=-,-' "$games/g1.log"

# the start page: typed into, clicked, then the game played by clicks
python3 "$top/tests/play-browser.py" "$url" "$tmp/start.png" 1000 seed=5 \
	"time=bank:$(ms 20000),move:$(ms 1000),inc:$(ms 100)" >"$tmp/start.json" 2>"$tmp/start.err"
check "the start page started a game against bot-link, played to the end $(cat "$tmp/start.err")" \
	grep -q '"url": "/games/g2/play?seat=0' "$tmp/start.json"
serve_wait g2
check "with the seed and time typed, and our AI in seat 1" sh -c "grep -q '^seed 5$' '$games/g2.log' &&
	grep -q '^time bank:$(ms 20000),inc:$(ms 100),move:$(ms 1000)' '$games/g2.log' && grep -q '^bot 1 bot-link ' '$games/g2.log'"
check "that log verifies" "$ref" verify "$games/g2.log"
echo "1..$n"
exit $fail
