#!/bin/sh
# referee serve refuses what it must: paths that climb out (nothing but
# named built-in files and games by id is served), a request body too
# long, a bad start form (JSON naming the field and why), a WebSocket
# message over a protocol line's limit or a binary one (the seat ends as a
# bot whose output closed: the log verifies), a wrong token, and an
# address that is not loopback without --public. (A second page for a
# seat takes it over: t2608.)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-random"

serve_start
for p in /assets/../../../../etc/passwd /assets/..%2f..%2f..%2fetc%2fpasswd /assets/%2e%2e/%2e%2e/etc/passwd \
	/games/..%2f..%2fetc%2fpasswd/log /games/g1/../../../etc/passwd "/games/g1/log/../../../../etc/passwd" \
	/assets/viewer.css/../../../../etc/passwd //etc/passwd /../../etc/passwd; do
	client get "$url" "$p" >"$tmp/got"
	check "$p is refused ($(cut -c1-30 "$tmp/got"))" sh -c "! grep -q root: '$tmp/got' && ! grep -q '^200 ' '$tmp/got'"
done
client get "$url" /assets/boards.js >"$tmp/got"
check "a named built-in file is served" grep -q '^200 ' "$tmp/got"

client post "$url" /games "variant=link&$(head -c 20000 /dev/zero | tr '\0' x)" >"$tmp/big"
check "a 20 kB request body is refused before it is read: $(cat "$tmp/big")" grep -q '^413 ' "$tmp/big"
client post "$url" /games "variant=link&seat=person&seat=nobody" >"$tmp/bad"
check "a bad form gets the field and why, as JSON: $(cat "$tmp/bad")" grep -q "^400 {\"field\":\"seat\",\"error\":\"seat 1: no opponent named 'nobody'\"}" "$tmp/bad"
client post "$url" /games "variant=link&seat=person&seat=bot-random&opt.width=999" >"$tmp/bad"
check "an option out of range: $(cat "$tmp/bad")" grep -q "^400 {\"field\":\"options\",\"error\":\"option width" "$tmp/bad"

client post "$url" /games "variant=link&seat=bot-random&seat=bot-random" "Origin: http://evil.example" >"$tmp/csrf"
check "another site's page cannot start a game here: $(cat "$tmp/csrf")" grep -q '^403 ' "$tmp/csrf"

t="time=bank:$(ms 20000),move:$(ms 5000),inc:0"
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=3&$t")
client seat "$url" "$loc" --moves 1 --big 70000 >"$tmp/seat"
# (the server closes with 1009 while the client may still be writing: the
# close frame can be lost in the reset, so the connection's end is what counts)
check "a WebSocket message over 64 KiB closes the seat: $(head -1 "$tmp/seat")" grep -Eq '^(close 1009|eof) after' "$tmp/seat"
serve_wait g1
check "the game ends, the seat charged as a bot whose output closed" grep -q '^fault 0 crash output closed; its connection closed' "$games/g1.log"
check "its log verifies" "$ref" verify "$games/g1.log"

loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=4&$t")
client seat "$url" "$loc" --moves 0 --binary >"$tmp/seat"
check "a binary message closes the seat (1003): $(head -1 "$tmp/seat")" grep -q '^close 1003' "$tmp/seat"
serve_wait g2
check "that log verifies too" "$ref" verify "$games/g2.log"

loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=5&$t")
bad=$(echo "$loc" | sed 's/token=.*/token=0000/')
client seat "$url" "$bad" >"$tmp/seat"
check "a wrong token is closed at once (1008)" grep -q '^close 1008 after 0 lines' "$tmp/seat"

"$ref" serve --listen 0.0.0.0:0 >"$tmp/pub.out" 2>"$tmp/pub.err"
check "a public address without --public is a usage error" test $? = 2
check "saying why: $(cat "$tmp/pub.err")" grep -q 'not a loopback address.*--public' "$tmp/pub.err"
"$ref" serve --listen nowhere >/dev/null 2>"$tmp/pub.err"
check "--listen must be HOST:PORT: $(cat "$tmp/pub.err")" grep -q 'want HOST:PORT' "$tmp/pub.err"
echo "1..$n"
exit $fail
