#!/bin/sh
# t2609-play-person: what a person sees on the pages of `referee serve`
# (issue 51: rules on the page, the start page, the end screen, boards
# that fit, input), in one headless Chromium with real key, mouse and
# touch events (tests/play-person.py): the start form keeps seats filled
# when the game changes and shows a bad seed beside its field; the rules
# pages; a keyboard-only game of each variant to its end, small ones
# (link 4x4 with 1 piece of each shape, tetroll 4x4, rush 4x4 in turns
# from a box of 1, matrix to 4 points with 7 seats), with the rules page
# linked from the play page, no protocol word on any play page or end
# screen, the board, your clock and the scores inside the viewport at
# 1280x800 and 390x844; a touch game (a tap shows, a second tap or
# Confirm plays); Rematch. Each log verifies. Screenshots go to
# build/.../pages/person/ (docs/play/ has its start and rules pages;
# the play pages there are t2610's, at the default sizes).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-rush" "$top/bin/bot-matrix"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
shots=${SHOTS:-$build/pages/person}
mkdir -p "$shots"
serve_start
time="time=bank:$(ms 60000),inc:$(ms 500),move:$(ms 3000),start:$(ms 10000)"
form() { printf 'variant=%s&seat=person&%s&%s' "$1" "$2" "$time"; }
m=bot-matrix-level3
"$py" "$top/tests/play-person.py" "$url" "$shots" \
	link "$(form link 'seat=bot-link-level3&opt.width=4&opt.height=4&opt.pieces=1&seed=1')" \
	tetroll "$(form tetroll 'seat=bot-tetroll-level3&opt.width=4&opt.height=4&seed=2')" \
	rush "$(form rush 'seat=bot-rush-level3&opt.lockstep=1&opt.box=1&opt.width=4&opt.height=4&seed=3')" \
	matrix "$(form matrix "seat=$m&seat=$m&seat=$m&seat=$m&seat=$m&seat=$m&opt.target=4&opt.talk=0&seed=4")" \
	touch "$(form link 'seat=bot-link-level3&opt.width=5&opt.height=5&opt.pieces=1&seed=5')" \
	>"$tmp/out.jsonl" 2>"$tmp/err"
[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
sed 's/^/# /' "$tmp/out.jsonl"
part() { grep "\"part\": \"$1\"" "$tmp/out.jsonl" | grep -q '"ok": true'; }
check "start form: switching the game keeps seats filled (matrix: 7, said), medium AI by default, a bad seed beside its field" part start
check "rules pages: what you do, what scores, what ends it, who wins, with pictures" part rules
for v in link tetroll rush matrix touch; do
	g=$("$py" -c 'import json,sys; print(([d.get("id","none") for d in map(json.loads,open(sys.argv[1])) if d["part"]==sys.argv[2]]+["none"])[0])' "$tmp/out.jsonl" "$v" 2>/dev/null)
	check "$v: played to the end by $([ $v = touch ] && echo 'taps (preview, then commit)' || echo 'keys alone'); fits, no protocol word, rules linked, end screen in words" part $v
	[ "$g" != none ] && serve_wait "$g"
	check "$v: the log verifies, the person did not fault" sh -c "'$ref' verify '$games/$g.log' >/dev/null && grep '^result ' '$games/$g.log' | grep -q ' faults=-,'"
done
check "rematch: a new game, the person one seat on" part rematch
echo "1..$n"
exit $fail
