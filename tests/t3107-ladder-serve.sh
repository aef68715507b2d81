#!/bin/sh
# t3107: a ladder's pages served live. `referee serve --ladder DIR`: the
# leaderboard lists the entries, an entry's page and a replay open, a bad
# id is a 404 saying so, a path that climbs out is refused, text from a
# manifest and a rejected command is escaped, no game can be started, and
# Chromium reaches the leaderboard, an entry's page and a replay by
# clicks. `ladder run --serve ADDR`: a spectator receives a game's steps
# while it is played, and the leaderboard served changes as games end.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
. "$top/tests/serve-lib.sh"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing (make check installs it)"; exit 1; }

L2=$tmp/ladder2
{
	"$ref" ladder init "$L2" --variant link --players 2 --time "bank:$(ms 20000),move:$(ms 1000),start:$(ms 3000)" \
		--seed 8 --sandbox off >/dev/null &&
		"$ref" ladder add "$L2" a "$fake lag 0 25" >/dev/null && "$ref" ladder add "$L2" b "$fake lag 0 25" >/dev/null
} &
l2_pid=$!
"$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 7 >/dev/null
"$ref" ladder add "$L" r1 "$top/bin/bot-random --seed 1" >/dev/null
"$ref" ladder add "$L" r2 "$top/bin/bot-random --seed 2" >/dev/null
mkdir "$tmp/odd"
cp "$top/bin/bot-random" "$tmp/odd/"
printf '[bot]\ncommand = ./bot-random --seed 3\nauthor = <script>alert(1)</script> & co\n' >"$tmp/odd/manifest.ini"
"$ref" ladder add "$L" odd "$tmp/odd" >/dev/null || { echo "Bail out! cannot add odd"; exit 1; }
"$ref" ladder add "$L" bad "$fake crash '<b>bold</b>'" >/dev/null 2>&1
"$ref" ladder run "$L" --games 6 -q 2>/dev/null

serve_start --ladder "$L"
client get "$url" / >"$tmp/root"
check "/ leads to the ladder: $(cat "$tmp/root")" grep -qx '303 /ladder/' "$tmp/root"
client body "$url" /ladder/ >"$tmp/board.html"
check "the leaderboard lists the entries" sh -c "grep -q '>r1</a>' '$tmp/board.html' && grep -q '>odd</a>' '$tmp/board.html'"
check "and the games played" grep -q '<span id="gamecount">6</span>' "$tmp/board.html"
odd=$(grep -o 'bot-[0-9]*.html">odd' "$tmp/board.html" | grep -o '[0-9]*')
client body "$url" "/ladder/bot-$odd.html" >"$tmp/odd.html"
check "an entry's page opens, with its head-to-head" grep -q 'id="h2h"' "$tmp/odd.html"
check "its author is escaped" grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; co' "$tmp/odd.html"
check "no markup from it" test "$(grep -c '<script>alert' "$tmp/odd.html")" = 0
game=$(grep -o 'href="games/[0-9]*.html"' "$tmp/odd.html" | head -1 | sed 's/href="\(.*\)"/\1/')
client get "$url" "/ladder/$game" >"$tmp/replay"
check "a replay opens: $game" grep -q '^200 <!DOCTYPE html>' "$tmp/replay"
client body "$url" /ladder/rejected.html >"$tmp/rejected.html"
check "the rejected command is escaped" sh -c "grep -q '&lt;b&gt;bold&lt;/b&gt;' '$tmp/rejected.html' && ! grep -q '<b>bold' '$tmp/rejected.html'"
client get "$url" /ladder/bot-999.html >"$tmp/404"
check "a bad id is a 404 saying so: $(cat "$tmp/404")" grep -q '^404 no entry 999' "$tmp/404"
client get "$url" /ladder/games/999999.html >"$tmp/404g"
check "so is a game the ladder does not hold: $(cat "$tmp/404g")" grep -q '^404 no finished game 999999' "$tmp/404g"
for p in /ladder/../ladder.db /ladder/games/../../ladder.db /ladder/games/..%2f..%2fladder.db /ladder/bot-../ladder.db \
	/ladder/%2e%2e/ladder.db /ladder/games/000000.log; do
	client get "$url" "$p" >"$tmp/trav"
	check "$p is refused: $(head -c 60 "$tmp/trav")" sh -c "grep -q '^4[0-9][0-9] ' '$tmp/trav' && ! grep -q SQLite '$tmp/trav'"
done
client post "$url" /games "variant=link&seat0=bot-random&seat1=bot-random" >"$tmp/post"
check "no game is started here: $(cat "$tmp/post")" grep -q '^404' "$tmp/post"

python3 "$top/tests/browser.py" ladder "$url" "$tmp/ladder-serve.png" >"$tmp/out.json" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" "$tmp/out.json"
check "Chromium reaches the leaderboard, an entry's page and a replay by clicks, without an error" test $rc = 0
check "it shows the 3 entries and 6 games" test "$(field 'len(entries), gamecount')" = "(3, 6)"
check "the entry's page and its replay" test "$(field 'len(h2h) == 2 and recent > 0 and int(replay_last) > 0')" = True
check "screenshot written" test -s "$tmp/ladder-serve.png"
kill $serve_pid 2>/dev/null

# ladder run --serve: bots that take 25 ms a move, a game lasts about a second
# (that ladder was made at the start: its admissions, waiting on the lag,
# ran while the first part did)
wait $l2_pid || { echo "Bail out! cannot add the lagging bots"; exit 1; }
"$ref" ladder run "$L2" --games 2 -q --serve 127.0.0.1:0 2>"$tmp/run.err" &
rp=$!
served_at "$tmp/run.err" 's/^referee ladder: serving \([^ ]*\)ladder\/ while it runs$/\1/p'
check "it says where it serves: $url" test -n "$url"
: >"$tmp/seen"
watching=
while kill -0 $rp 2>/dev/null; do
	client body "$url" /ladder/ 2>/dev/null >"$tmp/now.html" &&
		sed -n 's/.*<span id="gamecount">\([0-9]*\)<.*/\1/p' "$tmp/now.html" >>"$tmp/seen"
	live=$(grep -o 'href="/games/t[0-9]*"' "$tmp/now.html" 2>/dev/null | head -1 | sed 's/.*games\/\(t[0-9]*\)"/\1/')
	if [ -z "$watching" ] && [ -n "$live" ]; then
		client sse "$url" "$live" >"$tmp/live" 2>/dev/null &
		watching=$!
	fi
	sleep 0.05
done
wait $rp
check "the run finished" test $? = 0
[ -n "$watching" ] && wait $watching
check "the leaderboard listed a game in progress, which was watched" test -n "$watching"
check "the spectator got that game's steps in order, to its end" sse_whole "$tmp/live"
check "the leaderboard served changed as games ended: $(uniq "$tmp/seen" | tr '\n' ' ')" python3 - "$tmp/seen" <<'PY'
import sys
c = [int(x) for x in open(sys.argv[1])]
assert c == sorted(c), "the count went down"
assert len(set(c)) >= 2, "the leaderboard never changed"
PY
"$ref" ladder run "$L2" --games 1 -q --serve 0.0.0.0:0 2>"$tmp/pub.err"
check "a public address needs --public: $(tail -1 "$tmp/pub.err")" grep -q 'not a loopback address' "$tmp/pub.err"
check "and nothing was played" test "$(lq "$L2" 'SELECT COUNT(*) FROM games WHERE finished IS NOT NULL')" = 2
echo "1..$n"
exit $fail
