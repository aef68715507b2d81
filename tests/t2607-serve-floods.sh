#!/bin/sh
# referee serve faces strangers (docs/serve.md, "Limits"): 2,000 idle
# connections and 500 spectators that never read (from many loopback
# addresses, as many clients) keep the server within its spectators'
# budget while an honest request is answered in under 200 ms and an
# honest spectator has the whole game; spectators are capped in total
# and per client, and one whose stream stalls is dropped; a connection
# that sends nothing, or whose headers or body trickle in, is closed by
# its timeout; a
# Content-Length of 10^12 gets 413 at once; a client past its cap is
# refused at accept; a Host that is not the server's (DNS rebinding)
# gets 421, and cannot start a game or take a seat even with a matching
# Origin (nor with the right Host and its own Origin), while the seat's
# owner still plays it; out of descriptors the server pauses accepting
# rather than spins.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-random"
flood() { "$py" "$top/tests/serve-flood.py" "$@"; }

# the flood's 2,500 connections are descriptors here and in the server
ulimit -n 8192 2>/dev/null
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 6000 ]; then
	echo "1..0 # SKIP the descriptor limit is $(ulimit -n) (hard $(ulimit -Hn)): 6000 wanted for 2,500 connections"
	exit 0
fi

# the spectators' budget small (8 MiB), so that it is what bounds them
budget=8
serve_start --idle-timeout 60 --spectator-queue 64 --spectator-budget $budget --max-per-client 200
rss() { awk "/^$1/ {print \$2}" /proc/$serve_pid/status; }
rss0=$(rss VmRSS)
# a person's seat holds the game until it connects: the spectators are
# all there from the start
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=3")
mkfifo "$tmp/hold"
flood flood "$url" "$serve_pid" 2000 500 g1 <"$tmp/hold" >"$tmp/flood" &
fp=$!
exec 7>"$tmp/hold"
for _ in $(seq 600); do
	grep -q '^rss' "$tmp/flood" && break
	sleep 0.05
done
check "2,000 idle connections and 500 spectators are held: $(sed -n 's/^held //p' "$tmp/flood")" \
	grep -q '^held 2000 500$' "$tmp/flood"
read -r _ count p50 p99 max <<EOF
$(grep '^honest' "$tmp/flood")
EOF
# (the median is the server's answer; the slowest of 20 also holds the
# machine's scheduling, which two CPU hogs beside the suite stretch: it
# gets 1 s, and make bench measures the p99 on a quiet machine)
check "meanwhile an honest request is answered in under $(ms 200) ms: $count requests, median $p50 ms, max $max ms (under $(ms 1000))" \
	awk -v m="$p50" -v x="$max" -v lim="$(ms 200)" -v xl="$(ms 1000)" 'BEGIN { exit !(m < lim && x < xl) }'
# the game plays while they never read: their queues fill; an honest
# spectator beside them reads it all
client sse "$url" g1 >"$tmp/honest-sse" &
hs=$!
client seat "$url" "$loc" >"$tmp/seat"
serve_wait g1
wait $hs
check "an honest spectator among them has the whole game" sse_whole "$tmp/honest-sse"
sleep 0.5
dropped=$(client body "$url" /api/stats | sed 's/.*"dropped":\([0-9]*\).*/\1/')
check "the stalled spectators are dropped ($dropped of 500)" [ "$dropped" -gt 0 ]
hwm=$(rss VmHWM)
# the server's own cost of 2,500 connections (measured: about 12 KiB
# each) besides the budget
limit=$((rss0 + budget * 1024 + 2500 * 20))
check "the server's resident size stays bounded: $rss0 KiB before, $hwm KiB at the peak <= $limit" [ "$hwm" -le "$limit" ]
exec 7>&-
wait $fp
queued=$(sed -n 's/^queued at most //p' "$tmp/flood")
check "all queues together stay within the budget: at most $queued bytes <= $budget MiB" \
	[ "${queued:-0}" -gt 0 -a "${queued:-0}" -le $((budget * 1048576)) ]
for _ in $(seq 100); do
	client body "$url" /api/stats | grep -q '"open":1,' && break
	sleep 0.05
done
sleep 0.3
after=$(rss VmRSS)
crowd=$(sed -n 's/^rss \([0-9]*\) .*/\1/p' "$tmp/flood" | head -1)
# (what the connections took stays with GLib's slice allocator before
# 2.76, for the next crowd: docs/serve.md, Limits)
check "the queues' memory goes back when they go: $crowd KiB with the crowd, $hwm KiB at the peak, $after KiB after" \
	[ $((after - crowd)) -le $(((hwm - crowd) / 4)) ]
check "the game was played to its end, and its log verifies" "$ref" verify "$games/g1.log"

flood cap "$url" 230 >"$tmp/cap"
check "a client past its cap (200) is refused at accept: $(cat "$tmp/cap")" grep -q '^held 200 refused 30$' "$tmp/cap"
client get "$url" /api/games >"$tmp/got"
check "and the others are served meanwhile" grep -q '^200 ' "$tmp/got"
flood huge "$url" >"$tmp/huge"
check "a Content-Length of 10^12 gets 413 at once: $(cat "$tmp/huge")" \
	awk -v lim="$(ms 1)" '/ 413 / && $NF < lim { ok = 1 } END { exit !ok }' "$tmp/huge"

loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=4")
flood rebind "$url" "$loc" >"$tmp/rebind"
check "a rebinding page (Host evil.example) cannot start a game: $(sed -n 1p "$tmp/rebind")" grep -q '^new game: HTTP/1.1 421 ' "$tmp/rebind"
check "nor take a seat: $(sed -n 2p "$tmp/rebind")" grep -q '^seat: HTTP/1.1 421 ' "$tmp/rebind"
check "nor take it with this server's Host and the other site's Origin: $(sed -n 3p "$tmp/rebind")" \
	grep -q '^seat by origin: HTTP/1.1 101 .*, close 1008$' "$tmp/rebind"
check "nor read a page: $(grep '^page' "$tmp/rebind")" grep -q '^page: HTTP/1.1 421 ' "$tmp/rebind"
check "its own name (with a matching Origin) is served" grep -q '^own name: HTTP/1.1 200 ' "$tmp/rebind"
check "no game was started by it" test ! -e "$games/g3.log"
client seat "$url" "$loc" >"$tmp/seat"
check "the seat is still its owner's, who plays it: $(tail -1 "$tmp/seat")" grep -q 'close 1000 after' "$tmp/seat"
client post "$url" /games "variant=link&seat=bot-random&seat=bot-random" "Origin: http://localhost:$(echo "$url" | sed 's|.*:\([0-9]*\)/$|\1|')" >"$tmp/post"
check "an Origin of another name of this server may start a game: $(cat "$tmp/post")" grep -q '^303 ' "$tmp/post"

# out of descriptors, accept() fails while connections wait: the server
# pauses rather than spins, and serves again once they go
if command -v prlimit >/dev/null 2>&1; then
	fds=$(ls /proc/$serve_pid/fd | wc -l)
	soft=$(awk '/^Max open files/ {print $4}' /proc/$serve_pid/limits)
	prlimit --pid $serve_pid --nofile=$((fds + 10)):
	flood nofds "$url" $serve_pid 100 >"$tmp/nofds"
	prlimit --pid $serve_pid --nofile="$soft":
	check "out of descriptors the server does not spin: $(head -1 "$tmp/nofds") (at most 30 ticks)" \
		awk '/^cpu/ && $2 <= 30 { ok = 1 } END { exit !ok }' "$tmp/nofds"
	check "and serves again once they go: $(sed -n 2p "$tmp/nofds")" grep -q '^then: HTTP/1.1 200' "$tmp/nofds"
	client body "$url" /api/stats >"$tmp/stats"
	check "its failed accepts are counted" grep -q '"accept_failed":[1-9]' "$tmp/stats"
else
	skip "prlimit (util-linux) is not installed: the server out of descriptors is not tried"
fi

# the timeouts short, the spectators' caps small
kill $serve_pid
wait $serve_pid 2>/dev/null
serve_start --idle-timeout 1 --header-timeout 2 --body-timeout 1 --stall-timeout 1 --spectator-queue 102400 \
	--max-spectators 3 --max-spectators-per-client 2
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=3&opt.width=16&opt.height=40")
# (the id after the first server's games, which the same directory keeps)
gid=$(echo "$loc" | sed 's|^/games/\([^/]*\)/.*|\1|')
flood spect "$url" "$gid" 127.0.3.3 127.0.3.3 127.0.3.3 127.0.4.1 127.0.4.2 127.0.4.3 >"$tmp/spect"
check "spectators past their client's cap (2), then past the total (3), get 503: $(cat "$tmp/spect")" \
	grep -q '^200 200 503 200 503 503$' "$tmp/spect"
for _ in $(seq 100); do
	client body "$url" /api/stats | grep -q '"spectators":0,' && break
	sleep 0.05
done
client body "$url" /api/stats >"$tmp/stats"
check "spectators that leave are let go at once, before the game moves: $(cut -c1-40 "$tmp/stats")" \
	grep -q '"spectators":0,' "$tmp/stats"
# a spectator that never reads, below its queue's cap (100 MiB here):
# its stream stops, and the stall timeout (1 s) drops it
client stall "$url" "$gid" "$(awk "BEGIN { print 10 * $scale }")" --until-dropped >"$tmp/stall" &
st=$!
sleep 0.3
client seat "$url" "$loc" >/dev/null
wait $st
check "a spectator whose stream makes no progress is dropped by the stall timeout: $(cat "$tmp/stall")" \
	grep -q '^closed by the server .* without the end event' "$tmp/stall"
# (the three at once)
flood slow "$url" headers >"$tmp/slow-headers" &
p1=$!
flood slow "$url" body >"$tmp/slow-body" &
p2=$!
flood slow "$url" idle >"$tmp/slow-idle"
wait $p1 $p2
check "headers a byte every 0.2 s (the idle timeout, 1 s, never passes) are closed by the header timeout (2 s): $(cat "$tmp/slow-headers")" \
	awk -v lim="$(ms 4000)" '/^closed after/ && $3 >= 1.9 && $3 * 1000 < lim { ok = 1 } END { exit !ok }' "$tmp/slow-headers"
check "a body a byte every 0.2 s is closed by the body timeout (1 s): $(cat "$tmp/slow-body")" \
	awk -v lim="$(ms 3000)" '/^closed after/ && $3 * 1000 < lim { ok = 1 } END { exit !ok }' "$tmp/slow-body"
client body "$url" /api/stats >"$tmp/stats"
check "both counted as timed out: $(grep -o "\"timed_out\":[0-9]*" "$tmp/stats")" grep -q '"timed_out":2,' "$tmp/stats"
check "a connection that sends nothing is closed by the idle timeout (1 s): $(cat "$tmp/slow-idle")" \
	awk -v lim="$(ms 3000)" '/^closed after/ && $3 * 1000 < lim { ok = 1 } END { exit !ok }' "$tmp/slow-idle"
echo "1..$n"
exit $fail
