#!/bin/sh
# Games worth watching, and our AI as a coach, in headless Chromium
# (tests/watch-browser.py):
# - a bot game started from the web, over before its page plays it, is
#   watched at a person's pace: its steps one by one in order, about the
#   chosen delay apart, with every seat's clock; "latest" jumps to the end;
# - `tournament --serve` answers after its last game, its report opens,
#   its standings page reads in words (Elo rounded, ±, no field names), a
#   tournament game has no hint button and its hint endpoint refuses, and
#   Ctrl-C stops it;
# - a person's game (played by a script through the seat's WebSocket,
#   which asks for a hint on the way) is reviewed: the JSON endpoint (run
#   by a worker child, progress polled, then cached beside the log) lists
#   every decision of the person with the AI's choice, and so does the
#   replay page's review panel.
# Screenshots: docs/play/watch.png and docs/play/review.png are made by
# this test (TETRARENA_SHOTS=DIR keeps its own there).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$build/tests/prog-fakebot"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
shots=${TETRARENA_SHOTS:-$tmp}
wb() { "$py" "$top/tests/watch-browser.py" "$@"; }
sc="$py $top/tests/serve-client.py"

# ---- a bot game at a person's pace ----
printf '[bots]\nslow = %s/tests/prog-fakebot lag 0 5\n' "$build" >"$tmp/bots.ini"
serve_start --bots "$tmp/bots.ini"
wloc=$(client start "$url" "variant=link&seat=slow&seat=slow&seed=3&time=bank:$(ms 20000),move:$(ms 1000),inc:0")
serve_wait g1
check "the bot game was over (at full speed) before anyone watched" grep -q '^end$' "$games/g1.log"
wb watch "${url%/}$wloc?delay=0.25" "$shots/watch.png" 12 >"$tmp/watch.json" 2>"$tmp/watch.err"
check "the watch page played it $(cat "$tmp/watch.err")" test -s "$tmp/watch.json"
steps=$(client body "$url" /api/games | "$py" -c 'import json,sys; print([g for g in json.load(sys.stdin) if g["id"] == "g1"][0]["steps"])')
check "each step shown in order, about 0.25 s apart (not all at once), every seat's clock shown" "$py" - "$tmp/watch.json" "$steps" <<'PY'
import json, os, re, sys
w = json.load(open(sys.argv[1]))["seen"]
n = int(sys.argv[2])
paced = [s for s in w if s["n"] >= 0][:-1]	# before the jump to the latest
assert [s["n"] for s in paced] == list(range(len(paced))), [s["n"] for s in w]
assert len(paced) >= 12, len(paced)
# the page is sampled every 20 ms or so: one gap may be short when the
# step before it was seen late, but not the run of them
gaps = sorted(b["t"] - a["t"] for a, b in zip(paced[1:], paced[2:]))
span = paced[-1]["t"] - paced[1]["t"]
scale = float(os.environ.get("TETRARENA_TIME_SCALE", "1"))	# a loaded machine's timers are late
assert 0.2 <= gaps[len(gaps) // 2] <= 0.25 + 0.35 * scale and span >= 0.8 * 0.25 * (len(paced) - 2), gaps
assert paced[0]["of"] == n - 1, (paced[0], n)	# the whole game was there at once
for s in w[1:] if w[0]["n"] < 0 else w:
    assert len(s["clocks"]) == 2 and all(re.search(r": [0-9:.]+( s)? left", c) for c in s["clocks"]), s
assert w[-1]["n"] == n - 1 and w[-1]["over"], w[-1]
PY
check "the clocks fell as the bots thought" "$py" -c '
import json, sys
w = json.load(open(sys.argv[1]))["seen"]
assert w[0]["clocks"] != w[-1]["clocks"], (w[0], w[-1])' "$tmp/watch.json"

# ---- a person's game, a hint on the way, then its review ----
loc=$(client start "$url" "variant=link&opt.pieces=3&seat=person&seat=bot-link&seed=21&time=bank:$(ms 60000),move:$(ms 2000),inc:$(ms 100)")
client seat "$url" "$loc" --hint-at 2 >"$tmp/seat.out"
serve_wait g2
check "the hint during the game: the AI's choice for the decision being played $(grep '^hint ' "$tmp/seat.out")" \
	"$py" -c '
import json, sys
line = [l for l in open(sys.argv[1]) if l.startswith("hint ")][0].split(" ", 2)
assert line[1] == "200", line
d = json.loads(line[2])["decision"]
assert d["step"] == 3 and d["choice"] and d["played"] is None, d' "$tmp/seat.out"
check "a new hint at once is refused (429): $(grep '^hint-again' "$tmp/seat.out")" grep -q '^hint-again 429 ' "$tmp/seat.out"
check "no hint once the game is over (409)" sh -c "$sc get '$url' '/games/g2/hint?seat=0&token=x' | grep -q '^409'"
: >"$tmp/polls"
for _ in $(seq 600); do
	client body "$url" "/games/g2/review?seat=0" >"$tmp/review.json" 2>/dev/null
	grep -q '"running"' "$tmp/review.json" || break
	head -c 80 "$tmp/review.json" >>"$tmp/polls" && echo >>"$tmp/polls"
	sleep 0.1
done
decisions=$(grep -c '^move 0 ' "$games/g2.log")
check "the review lists every decision of the person ($decisions) with the AI's choice" "$py" - "$tmp/review.json" "$games/g2.log" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["state"] == "done" and r["seat"] == 0, r
played = [l.split()[2] for l in open(sys.argv[2]) if l.startswith("move 0 ")]
assert [s["step"] for s in r["steps"]] == list(range(1, len(played) + 1)), r["steps"]
assert [s["played"] for s in r["steps"]] == played, (r["steps"], played)
assert all(s["choice"] and s["cost"] is not None and s["cost"] >= 0 for s in r["steps"]), r["steps"]
PY
check "progress was shown while it ran: $(sed -n '$p' "$tmp/polls")" grep -q '"running", "step": [1-9]' "$tmp/polls"
check "the review is kept beside the log, and served from there" sh -c "ls '$games'/g2.log.seat0.*.review.json >/dev/null &&
	$sc body '$url' '/games/g2/review?seat=0' | grep -q '\"done\"'"
check "a seat no person played is not reviewed" sh -c "$sc get '$url' '/games/g2/review?seat=1' | grep -q '^400'"
check "nor a bot's seat in a bot game" sh -c "$sc get '$url' '/games/g1/review?seat=0' | grep -q '^400'"
wb review "${url%/}/games/g2/replay" "$shots/review.png" 0 -- hint "${url%/}$loc" >"$tmp/pages.jsonl" 2>"$tmp/page.err"
sed -n 1p "$tmp/pages.jsonl" >"$tmp/page.json"
sed -n 2p "$tmp/pages.jsonl" >"$tmp/phint.json"
check "the replay page's review lists the same decisions and choices $(cat "$tmp/page.err")" "$py" - "$tmp/page.json" "$tmp/review.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))["steps"]
assert [row[0] for row in p["rows"]] == [str(s["step"]) for s in r], p["rows"]
assert [row[1] for row in p["rows"]] == [s["played"] for s in r], p["rows"]
assert [row[2] for row in p["rows"]] == [s["choice"] for s in r], p["rows"]
assert p["here"].startswith("at this decision (2) our AI would play " + r[1]["choice"]), p["here"]
PY
check "a person's play page has the hint button" grep -q '"button": true' "$tmp/phint.json"
kill $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null

# ---- a tournament served past its end ----
"$ref" tournament -v link -g 2 -j 1 -q --seed 5 --sandbox off --time "bank:$(ms 20000),move:$(ms 1000),inc:0" \
	--bot a="$build/tests/prog-fakebot lag 0 2" --bot b="$build/tests/prog-fakebot lag 0 2" -o "$tmp/out" \
	--serve 127.0.0.1:0 >"$tmp/standings" 2>"$tmp/terr" &
tp=$!
served_at "$tmp/terr" 's/^referee tournament: serving \([^ ]*\) while it runs$/\1/p'
for _ in $(seq 600); do grep -q 'the tournament is over' "$tmp/terr" && break; sleep 0.05; done
check "the tournament ended and says it serves on: $(tail -1 "$tmp/terr")" grep -q "the tournament is over; serving $url (the report: ${url}report) until Ctrl-C" "$tmp/terr"
check "it answers after the last game: the final standings" sh -c "$sc body '$url' /standings.json | grep -q '\"partial\": false'"
check "its report opens" sh -c "$sc get '$url' /report | grep -q '^200' && $sc body '$url' /report | grep -q '<html'"
wb standings "$url" "$tmp/standings.png" -- hint "${url%/}/games/t1/play?seat=0&token=x" >"$tmp/tpages.jsonl" 2>"$tmp/st.err"
sed -n 1p "$tmp/tpages.jsonl" >"$tmp/st.json"
sed -n 2p "$tmp/tpages.jsonl" >"$tmp/hint.json"
check "the standings page reads in words: Elo rounded with ±, no field names $(cat "$tmp/st.err")" "$py" - "$tmp/st.json" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
assert "Elo" in s["head"] and "bot" in s["head"], s["head"]
elo = [r[s["head"].index("Elo")] for r in s["rows"]]
assert all(re.fullmatch(r"[+−]?\d+ ± \d+", e) for e in elo), elo
for word in ("mean_rank", "elo_low", "elo_high", "mean_ms", "elo"):
    assert not re.search(r"\b%s\b" % word, s["text"]), word
assert not re.search(r"\d+\.\d{3,}", s["text"]), s["text"]
assert "over" in s["progress"], s["progress"]
PY
check "a tournament game's hint endpoint refuses (403)" sh -c "$sc get '$url' '/games/t1/hint?seat=0&token=x' | grep -q '^403'"
check "and its page has no hint button" grep -q '"button": false' "$tmp/hint.json"
kill -INT $tp
wait $tp
check "Ctrl-C stops it, the tournament's status 0" test $? = 0
check "the server is gone" sh -c "! $sc get '$url' /standings.json 2>/dev/null"
echo "1..$n"
exit $fail
