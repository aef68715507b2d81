#!/bin/sh
# t2606-play-pages: a whole game of each variant played by a person on its
# play page of `referee serve`, against our AI at a short time control, in
# headless Chromium with real mouse and keyboard events (tests/
# play-pages.py: hover and click on the board, the dice, the box, keys R,
# M, arrows and Enter, a message typed into the table-talk panel; never a
# call of the page's functions). Each log verifies with no fault of the
# person, the end screen's result is the log's, and each page shows its variant's own controls (not the
# generic list of moves). Rush is played in lockstep, the start page's
# default for a person, and again in real time at a human pace (1 s). Screenshots go to build/.../pages/play-VARIANT.png.
# Two Chromiums side by side (play-pages.py --start: each starts its games
# and plays them one after the other): one for link, tetroll, rush in
# lockstep, the Main Match and the gift, one for rush in real time (mostly
# waiting out its pace) and the resign; then the checks read what they
# played.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-rush" "$top/bin/bot-matrix"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
shots=$build/pages
mkdir -p "$shots"

# the social bot listens $(ms 600) for answers before it moves (and its
# gift closes): long enough for a person's click on a loaded machine
printf '[bots]\nsocial = %s --give --listen %s\n' "$build/tests/prog-socialbot" "$(ms 600)" >"$tmp/bots.ini"
serve_start --bots "$tmp/bots.ini"
time="time=bank:$(ms 60000),inc:$(ms 500),move:$(ms 1500),start:$(ms 10000)"

# form VARIANT OPPONENT SEED: a start form, the person in seat 0
form() { printf 'variant=%s&seat=person&seat=%s&seed=%s&%s' "$1" "$2" "$3" "$time"; }
"$py" "$top/tests/play-pages.py" --start "$url" \
	"$shots/play-link.png" "$(form link bot-link 1)" \
	"$shots/play-tetroll.png" "$(form tetroll bot-tetroll 2)" \
	"$shots/play-rush.png" "$(form rush 'bot-rush&opt.lockstep=1&opt.box=3' 3)" \
	"$shots/play-matrix.png" "$(form matrix 'bot-matrix&opt.target=12&opt.talk=0' 4)" \
	"$tmp/gift.png" "$(form matrix 'social&opt.target=6&opt.talk=0' 7)" \
	>"$tmp/a.jsonl" 2>"$tmp/a.err" &
pa=$!
# (the gift above: the social bot gives to the person in the Main Match)
# the resign button: two clicks at the first turn
"$py" "$top/tests/play-pages.py" --start "$url" \
	"$shots/play-rush-realtime.png" "$(form rush "bot-rush&opt.lockstep=0&opt.pace=$(ms 1000)&opt.box=1" 5)" \
	--resign "$tmp/resign.png" "$(form link bot-link 9)" \
	>"$tmp/b.jsonl" 2>"$tmp/b.err" &
pb=$!
wait $pa
wait $pb
[ -s "$tmp/a.err" ] && sed 's/^/# /' "$tmp/a.err"
[ -s "$tmp/b.err" ] && sed 's/^/# /' "$tmp/b.err"
# each job's line: NAME.json (none when it failed), NAME.err, NAME.id
"$py" - "$tmp" <<'EOF'
import json, os, sys
tmp = sys.argv[1]
for f, names in (("a.jsonl", ["link", "tetroll", "rush", "matrix", "gift"]),
                 ("b.jsonl", ["rush-realtime", "resign"])):
    lines = open(os.path.join(tmp, f)).read().splitlines()
    for name, line in zip(names, lines + [""] * len(names)):
        d = json.loads(line) if line.startswith("{") else {"error": "not played"}
        open(os.path.join(tmp, name + ".err"), "w").write(d.get("error", ""))
        open(os.path.join(tmp, name + ".id"), "w").write(d.get("id", "none"))
        if "error" not in d:
            open(os.path.join(tmp, name + ".json"), "w").write(json.dumps(d))
EOF

for v in link tetroll rush matrix rush-realtime; do
	g=$(cat "$tmp/$v.id")
	check "$v: a whole game played on its page by mouse and keys $(cat "$tmp/$v.err")" test -s "$tmp/$v.json"
	serve_wait "$g"
	check "$v: the log verifies" sh -c "'$ref' verify '$games/$g.log' >/dev/null"
	check "$v: the end screen's result is the log's, said in words, with the page's own controls" \
		"$py" - "$tmp/$v.json" "$games/$g.log" "$v" <<'EOF'
import json, sys
page = json.load(open(sys.argv[1]))
log = [l.split(" ", 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("result ")][0]
want = {"link": {"click column", "key R", "key M"}, "tetroll": {"keep", "click place"},
        "rush": {"take", "place"}, "matrix": {"keys", "say"}, "rush-realtime": {"take", "place"}}[sys.argv[3]]
ok = page["result"] == log and " faults=-," in " " + log and page["text"].startswith(("You ", "Draw")) and "1st: " in page["text"] \
    and want <= set(page["used"]) and "generic button" not in page["used"]
print("# %s: %d turns, %s" % (sys.argv[3], page["turns"], ", ".join(page["used"])))
if not ok:  # on stderr, which prove shows
    sys.stderr.write("# %s: page result %r, log result %r, used %s, end screen %r\n"
                     % (sys.argv[3], page["result"], log, ", ".join(page["used"]), page["text"][:300]))
sys.exit(0 if ok else 1)
EOF
done
# the resign button: two clicks, the line `resign`, the fault `resigned`
g=$(cat "$tmp/resign.id")
serve_wait "$g"
check "resign: two clicks give the game up, logged and said (resigned), the log verifies $(cat "$tmp/resign.err")" sh -c "
	grep -q '^fault 0 resigned' '$games/$g.log' && grep -q '^result ranks=2,1 .*faults=resigned,-' '$games/$g.log' &&
	grep -q 'You resigned' '$tmp/resign.json' && '$ref' verify '$games/$g.log' >/dev/null"
# a gift to the person in the Main Match: accepted on the chat panel; the
# move chosen before is rejected (traded), and the two pieces held then
# are offered as buttons
g=$(cat "$tmp/gift.id")
serve_wait "$g"
check "matrix: a gift accepted by a click, then two pieces placed, the log verifies $(cat "$tmp/gift.err")" sh -c "
	grep -q '\"accept\"' '$tmp/gift.json' && grep -q '\"buttons\"' '$tmp/gift.json' &&
	grep -q '^side 0 ok accept' '$games/$g.log' && '$ref' verify '$games/$g.log' >/dev/null"
check "the person's table talk reached the referee (matrix)" grep -q '^side 0 ok say 1 hello from a person' "$games/$(cat "$tmp/matrix.id").log"
echo "1..$n"
exit $fail
