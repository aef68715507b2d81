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
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-rush" "$top/bin/bot-matrix"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
shots=$build/pages
mkdir -p "$shots"

printf '[bots]\nsocial = %s --give\n' "$build/tests/prog-socialbot" >"$tmp/bots.ini"
serve_start --bots "$tmp/bots.ini"
time="time=bank:$(ms 60000),inc:$(ms 500),move:$(ms 3000),start:$(ms 10000)"

i=0
for game in "link bot-link" "tetroll bot-tetroll" "rush bot-rush&opt.lockstep=1&opt.box=3" \
	"matrix bot-matrix&opt.target=12" "rush bot-rush&opt.lockstep=0&opt.pace=$(ms 1000)&opt.box=1"; do
	i=$((i + 1))
	v=${game%% *}
	form="variant=$v&seat=person&seat=${game#* }&seed=$i&$time"
	loc=$(client start "$url" "$form")
	[ $i = 5 ] && v=rush-realtime
	python3 "$top/tests/play-pages.py" "${url%/}$loc" "$shots/play-$v.png" >"$tmp/$v.json" 2>"$tmp/$v.err"
	check "$v: a whole game played on its page by mouse and keys $(cat "$tmp/$v.err")" test -s "$tmp/$v.json"
	serve_wait "g$i"
	check "$v: the log verifies" sh -c "'$ref' verify '$games/g$i.log' >/dev/null"
	check "$v: the end screen's result is the log's, said in words, with the page's own controls" \
		python3 - "$tmp/$v.json" "$games/g$i.log" "$v" <<'EOF'
import json, sys
page = json.load(open(sys.argv[1]))
log = [l.split(" ", 1)[1].strip() for l in open(sys.argv[2]) if l.startswith("result ")][0]
want = {"link": {"click column", "key R", "key M"}, "tetroll": {"keep", "click place"},
        "rush": {"take", "place"}, "matrix": {"keys", "say"}, "rush-realtime": {"take", "place"}}[sys.argv[3]]
ok = page["result"] == log and " faults=-," in " " + log and "you finished" in page["text"] and "1st: seat" in page["text"] \
    and want <= set(page["used"]) and "generic button" not in page["used"]
print("# %s: %d turns, %s" % (sys.argv[3], page["turns"], ", ".join(page["used"])))
sys.exit(0 if ok else 1)
EOF
done
# the resign button: two clicks, the line `resign`, the fault `resigned`
loc=$(client start "$url" "variant=link&seat=person&seat=bot-link&seed=9&$time")
python3 "$top/tests/play-pages.py" "${url%/}$loc" "$tmp/resign.png" --resign >"$tmp/resign.json" 2>"$tmp/resign.err"
serve_wait g6
check "resign: two clicks give the game up, logged and said (resigned), the log verifies $(cat "$tmp/resign.err")" sh -c "
	grep -q '^fault 0 resigned' '$games/g6.log' && grep -q '^result ranks=2,1 .*faults=resigned,-' '$games/g6.log' &&
	grep -q 'resigned: resigned (gave the game up)' '$tmp/resign.json' && '$ref' verify '$games/g6.log' >/dev/null"
# a gift to the person in the Main Match: accepted on the chat panel; the
# move chosen before is rejected (traded), and the two pieces held then
# are offered as buttons
loc=$(client start "$url" "variant=matrix&seat=person&seat=social&seed=7&opt.target=6&$time")
python3 "$top/tests/play-pages.py" "${url%/}$loc" "$tmp/gift.png" >"$tmp/gift.json" 2>"$tmp/gift.err"
serve_wait g7
check "matrix: a gift accepted by a click, then two pieces placed, the log verifies $(cat "$tmp/gift.err")" sh -c "
	grep -q '\"accept\"' '$tmp/gift.json' && grep -q '\"buttons\"' '$tmp/gift.json' &&
	grep -q '^side 0 ok accept' '$games/g7.log' && '$ref' verify '$games/g7.log' >/dev/null"
check "the person's table talk reached the referee (matrix)" grep -q '^side 0 ok say 1 hello from a person' "$games/g4.log"
echo "1..$n"
exit $fail
