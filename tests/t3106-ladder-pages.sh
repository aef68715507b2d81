#!/bin/sh
# t3106: the ladder's pages in headless Chromium (tests/browser.py ladder):
# the leaderboard lists every entry with its rating and games; a click on
# the first opens its page, with its rating history, head-to-head against
# each opponent and recent games; a click on a game opens its replay. A
# bot whose program turned bad after admission shows its faults with the
# log's lines on its page; what a manifest and the bots gave is escaped.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing (make check installs it)"; exit 1; }

echo "1..10"
"$ref" ladder init "$L" --variant link --players 2-3 --time "$ladder_time" --seed 4 >/dev/null
"$ref" ladder add "$L" r1 "$top/bin/bot-random --seed 1" >/dev/null
"$ref" ladder add "$L" r2 "$top/bin/bot-random --seed 2" >/dev/null
mkdir "$tmp/flaky"
cp "$fake" "$tmp/flaky/"
printf '#!/bin/sh\nexec ./prog-fakebot legal\n' >"$tmp/flaky/bot.sh"
printf '[bot]\ncommand = sh bot.sh\nauthor = <script>alert(1)</script> & co\n' >"$tmp/flaky/manifest.ini"
"$ref" ladder add "$L" flaky "$tmp/flaky" >/dev/null || { echo "Bail out! cannot add flaky"; exit 1; }
# after admission its program crashes after 3 moves (as a bot updated in place)
printf '#!/bin/sh\nexec ./prog-fakebot crash 3\n' >"$L/bots/flaky-1/bot.sh"
"$ref" ladder run "$L" --games 40 -j 2 -q 2>/dev/null
check "pages are written" sh -c "'$ref' ladder pages '$L' '$tmp/pages' >/dev/null"
flaky=$(grep -o 'bot-[0-9]*.html">flaky' "$tmp/pages/index.html" | grep -o '[0-9]*')
check "flaky's page shows its faults with the log's lines" grep -q '^fault [0-9] crash' "$tmp/pages/bot-$flaky.html"
check "and the line it sent before" grep -q '&lt; [0-9] +[0-9]* move' "$tmp/pages/bot-$flaky.html"
check "the manifest's author is escaped" grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; co' "$tmp/pages/bot-$flaky.html"
check "no markup from it" test "$(grep -c '<script>alert' "$tmp/pages/bot-$flaky.html")" = 0

python3 "$top/tests/browser.py" ladder "$tmp/pages/index.html" "$tmp/ladder.png" >"$tmp/out.json" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" "$tmp/out.json"
check "Chromium opens the leaderboard, a bot's page and a replay without an error" test $rc = 0
check "the leaderboard lists the 3 entries and 40 games" test "$(field 'len(entries), gamecount')" = "(3, 40)"
check "the first entry's page: history, head-to-head with both others" test "$(field 'history_points > 0 and len(h2h) == 2 and recent > 0')" = True
check "a click on its newest game opens the replay, on its first move (step $(field 'replay_step') of $(field 'replay_last'))" test "$(field '0 < int(replay_step) <= int(replay_last)')" = True
check "screenshots written" test -s "$tmp/ladder.png" -a -s "$tmp/ladder-bot.png"
exit $fail
