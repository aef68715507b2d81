#!/bin/sh
# `referee tournament --serve ADDR`: while the tournament runs, its
# standings (polled as JSON, as the standings page does) change as games
# end, its games in progress can be watched live, and finished ones open
# as replays; the server stops with the tournament.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$build/tests/prog-fakebot"

# bots that take 25 ms a move: a game lasts about a second
"$ref" tournament -v link -g 3 -j 1 -q --seed 5 --sandbox off --time "bank:$(ms 20000),move:$(ms 1000),inc:0" \
	--bot a="$build/tests/prog-fakebot lag 0 25" --bot b="$build/tests/prog-fakebot lag 0 25" -o "$tmp/out" \
	--serve 127.0.0.1:0 >"$tmp/standings" 2>"$tmp/err" &
tp=$!
for _ in $(seq 100); do
	url=$(sed -n 's/^referee tournament: serving \([^ ]*\) while it runs$/\1/p' "$tmp/err")
	[ -n "$url" ] && break
	sleep 0.05
done
check "it says where it serves: $url" test -n "$url"
# poll the standings and the games until the tournament is over
: >"$tmp/seen"
while kill -0 $tp 2>/dev/null; do
	client body "$url" /standings.json 2>/dev/null | tr -d '\n' >>"$tmp/seen" && echo >>"$tmp/seen"
	client body "$url" /api/games 2>/dev/null >>"$tmp/games"
	if [ ! -s "$tmp/live" ] && grep -q '"state":"playing"' "$tmp/games" 2>/dev/null; then
		id=$(grep -o '"id":"t[0-9]*"[^}]*"state":"playing"' "$tmp/games" | tail -1 | sed 's/"id":"\(t[0-9]*\)".*/\1/')
		client sse "$url" "$id" >"$tmp/live" 2>/dev/null
	fi
	sleep 0.1
done
wait $tp
check "the tournament finished" test $? = 0
check "the standings changed as games ended: $(grep -o '"games": [0-9]*' "$tmp/seen" | sort -u | tr '\n' ' ')" \
	test "$(grep -o '"games": [0-9]*' "$tmp/seen" | sort -u | wc -l)" -ge 3
check "the first answer had fewer games than the end" sh -c "test \"\$(grep -o '\"games\": [0-9]*' '$tmp/seen' | head -1)\" != '\"games\": 6'"
check "a game in progress was watched to its end, every step in order" python3 - "$tmp/live" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1])]
ids = [int(e[1]) for e in ev if e[0] == "step"]
assert ev and ev[0][0] == "game" and ids == list(range(len(ids))) and len(ids) > 10 and ev[-2][0] == "end", ev[:3]
PY
check "the final standings are printed as usual" grep -q "^ *1 *[ab] " "$tmp/standings"
"$ref" tournament -v link -g 1 -q --bot a=x --bot b=y -o "$tmp/out2" --serve 0.0.0.0:0 2>"$tmp/err2"
check "a public address needs --public: $(tail -1 "$tmp/err2")" sh -c "grep -q 'not a loopback address' '$tmp/err2'"
echo "1..$n"
exit $fail
