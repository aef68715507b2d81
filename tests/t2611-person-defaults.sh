#!/bin/sh
# t2611-person-defaults: a person's game with the start page's defaults,
# in headless Chromium with real key and mouse events
# (tests/person-defaults.py; issue 51's first and fifth tests). Four
# tabs, one a game (link, tetroll, rush, matrix), each from the start page
# with only the game chosen (default boards, seats, AI and clock): each
# person waits 8 real seconds at the first turn (the four waits side by
# side, so the test takes 8 s of them, not 32), then plays by keys alone
# to the end; at the first turn, at 1280x800 and at 390x844, the board,
# your clock and every score lie inside the viewport at the default sizes.
# Two persons through an invite link: a link game started with seat 2 "A
# person", the invite link the first page shows opened in a second
# browser context, both play to the end and both end screens say it.
# No `timeout` (no fault at all), and every log verifies. Screenshots of
# what is in the viewport go to build/.../pages/defaults/.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-tetroll" "$top/bin/bot-rush" "$top/bin/bot-matrix"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
shots=${SHOTS:-$build/pages/defaults}
mkdir -p "$shots"
relaxed='bank:3600000,inc:0,move:3600000,start:30000,grace:1000,game:0'
serve_start
"$py" "$top/tests/person-defaults.py" "$url" "$shots" defaults >"$tmp/defaults" 2>"$tmp/defaults.err" &
pd=$!
"$py" "$top/tests/person-defaults.py" "$url" "$shots" invite >"$tmp/invite" 2>"$tmp/invite.err"
wait $pd
for f in defaults invite; do
	[ -s "$tmp/$f.err" ] && sed 's/^/# /' "$tmp/$f.err"
	sed 's/^/# /' "$tmp/$f"
done
part() { grep "\"part\": \"$1\"" "$tmp/$2" | grep -q '"ok": true'; }
gid() { sed -n "s/.*\"part\": \"$1\".*\"id\": \"\\([a-z0-9]*\\)\".*/\\1/p" "$tmp/$2"; }
for v in link tetroll rush matrix invite; do
	f=defaults
	[ $v = invite ] && f=invite
	g=$(gid $v $f)
	if [ $v = invite ]; then
		check "two persons, the second by the invite link in another browser context: both played to the end, both end screens say the result" part $v $f
	else
		check "$v with the start page's defaults: 8 s at the first turn, then keys to the end; it fits at 1280x800 and 390x844" part $v $f
	fi
	[ -n "$g" ] && serve_wait "$g"
	if [ $v != invite ]; then
		n_seats=2 wh=width=10,height=20
		[ $v = matrix ] && n_seats=7
		[ $v = tetroll ] && wh=width=6,height=12
		check "$v ($g) was the defaults: the person's relaxed clock, $((n_seats - 1)) medium AI, the default board: $(grep '^options' "$games/$g.log")" sh -c "
			grep -q '^seat-time 0 $relaxed\$' '$games/$g.log' && grep -q '^players $n_seats\$' '$games/$g.log' &&
			[ \$(grep -c '^bot [1-9][0-9]* bot-$v-level3 ' '$games/$g.log') = $((n_seats - 1)) ] &&
			grep -q '^options $wh,' '$games/$g.log'"
	fi
	check "$v ($g): no timeout, no fault, the log verifies" sh -c "[ -n '$g' ] && '$ref' verify '$games/$g.log' >/dev/null &&
		grep '^result ' '$games/$g.log' | grep -q ' faults=-[,-]* ' && ! grep -q '^fault' '$games/$g.log'"
done
check "no page problem (exception, console error)" sh -c "! grep -q '\"part\": \"pages\"' '$tmp/defaults' '$tmp/invite'"
echo "1..$n"
exit $fail
