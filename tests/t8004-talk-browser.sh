#!/bin/sh
# t8004-talk-browser: a person's table talk at the Main Match in headless
# Chromium with real events (tests/talk-browser.py), six bot-matrix of
# level 3, a talk window: "café ☕" is refused by the page with the reason
# and never sent (nor stripped to "caf"), the panel stays after the move
# (it may change in the window), a `say` gets a bot's reply, an offer gets
# an answer, and in round 2 the panel offers exactly the seats of the
# round's `talk` field (gifts: everyone). Its screenshot is
# docs/play/matrix-talk.png when DOCS=1. About a minute and a half on a
# loaded machine, so only under `make check-long`.
# Not in check-long for now: since the merges of 2026-12-07 (22fa361 and
# the play page's), the person's offer on the page gets no answer within
# the test's wait (t8003, the same table by protocol, passes); issue 53
# stays open for it. Run it by hand: TETRARENA_LONG=1 prove tests/t8004-talk-browser.sh
. "${TETRARENA_TOP:-.}/tests/tap.sh"
if [ "$long" != 1 ]; then
	echo "1..0 # SKIP Chromium at a 7-seat table with a talk window: make check-long"
	exit 0
fi
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-matrix"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
serve_start
m=bot-matrix-level3
form="variant=matrix&seat=person&seat=$m&seat=$m&seat=$m&seat=$m&seat=$m&seat=$m&opt.talk=$(ms 4000)&seed=4"
form="$form&time=bank:$(ms 60000),inc:$(ms 500),move:$(ms 5000),start:$(ms 10000)"
png=$tmp/talk.png
[ "${DOCS:-0}" = 1 ] && png=$top/docs/play/matrix-talk.png
echo "1..5"
"$py" "$top/tests/talk-browser.py" "$url" "$games" "$png" "$form" >"$tmp/out.json" 2>"$tmp/err"
check "the page played two rounds of talk $(cat "$tmp/err")" [ -s "$tmp/out.json" ]
sed 's/^/# /' "$tmp/out.json"
check "'café ☕' is refused by the page with the reason, nothing sent" \
	sh -c "field() { $(command -v "$py") -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))' '$tmp/out.json' \"\$1\"; }
		field cafe | grep -q 'Not sent: .*ASCII' && ! grep -q '^< 0 .*say .*caf' '$games'/*.log"
check "the panel stays after the move, with the window's time" \
	sh -c "[ \"\$($py -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[\"open_after_move\"] and \"Talk window\" in d[\"window\"])' '$tmp/out.json')\" = True ]"
check "a say got a reply and an offer an answer" \
	sh -c "$py -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d[\"round1\"]; sys.exit(0 if any(\"says:\" in t for t in r) and any(\"A trade is done\" in t or \"An offer closed\" in t for t in r) else 1)' '$tmp/out.json'"
check "round 2: the panel offers the seats of \`talk\` only (gifts to all)" \
	sh -c "$py -c 'import json,sys; d=json.load(open(sys.argv[1])); t=sorted(int(x) for x in d[\"talk\"].split(\",\") if x not in (\"-\",\"0\")); sys.exit(0 if sorted(d[\"sayto\"])==t and sorted(d[\"offerto\"])==t and d[\"giftto\"]==[1,2,3,4,5,6] else 1)' '$tmp/out.json'"
[ "$fail" = 0 ]
