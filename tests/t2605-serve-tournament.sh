#!/bin/sh
# `referee tournament --serve ADDR`: while the tournament runs, its
# standings (polled as JSON, as the standings page does) change as games
# end, its games in progress can be watched live, and finished ones open
# as replays; the server goes on after the tournament (t2610) until Ctrl-C.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$build/tests/prog-fakebot"

# bots that take 12 ms a move: a game lasts about a third of a second
"$ref" tournament -v link -g 4 -j 1 -q --seed 5 --sandbox off --time "bank:$(ms 20000),move:$(ms 1000),inc:0" \
	--bot a="$build/tests/prog-fakebot lag 0 12" --bot b="$build/tests/prog-fakebot lag 0 12" -o "$tmp/out" \
	--serve 127.0.0.1:0 >"$tmp/standings" 2>"$tmp/err" &
tp=$!
served_at "$tmp/err" 's/^referee tournament: serving \([^ ]*\) while it runs$/\1/p'
check "it says where it serves: $url" test -n "$url"
# poll the standings and the games until the tournament is over; watch
# the first game seen in progress (in the background)
: >"$tmp/seen"
while kill -0 $tp 2>/dev/null && ! grep -q 'the tournament is over' "$tmp/err"; do
	client body "$url" /standings.json 2>/dev/null | tr -d '\n' >>"$tmp/seen" && echo >>"$tmp/seen"
	if [ -z "$watching" ] && client body "$url" /api/games 2>/dev/null >"$tmp/games" &&
		grep -q '"state":"playing"' "$tmp/games"; then
		id=$(grep -o '"id":"t[0-9]*"[^}]*"state":"playing"' "$tmp/games" | tail -1 | sed 's/"id":"\(t[0-9]*\)".*/\1/')
		client sse "$url" "$id" >"$tmp/live" 2>/dev/null &
		watching=$!
	fi
	sleep 0.05
done
kill -INT $tp
wait $tp
check "the tournament finished" test $? = 0
[ -n "$watching" ] && wait $watching
grep -o '"games": [0-9]*' "$tmp/seen" | sed 's/.* //' >"$tmp/counts"
check "the standings changed as games ended: $(uniq "$tmp/counts" | tr '\n' ' ')" "$py" - "$tmp/counts" <<'PY'
import sys
c = [int(x) for x in open(sys.argv[1])]
assert c == sorted(c), "the count went down"
assert any(0 < x < 8 for x in c), "no standings seen while the tournament ran"
assert len(set(c)) >= 2, "the standings never changed"
PY
check "a game in progress was watched to its end, every step in order" sse_whole "$tmp/live"
check "the final standings are printed as usual" grep -q "^ *1 *[ab] " "$tmp/standings"
"$ref" tournament -v link -g 1 -q --bot a=x --bot b=y -o "$tmp/out2" --serve 0.0.0.0:0 2>"$tmp/err2"
check "a public address needs --public: $(tail -1 "$tmp/err2")" sh -c "grep -q 'not a loopback address' '$tmp/err2'"
echo "1..$n"
exit $fail
