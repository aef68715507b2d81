#!/bin/sh
# bench-serve.sh: `referee serve` under watch. 100 spectators (one
# process, bench/serve-spectators.py) follow one link game between two
# bots that take 20 ms a move (bench/serve-benchbot.py, which note when
# each `update` reaches them): the server's memory and CPU over the game,
# and how much later than a bot's own `update` the last spectator sees
# each move. Then a person's seat (tests/serve-client.py plays the first
# legal move at each go) against bin/bot-random: the time from the
# WebSocket message to the referee's log line of it (/api/stats).
# Then the server under a flood (bench/serve-floods.sh): its memory and an
# honest request's latency under 2,000 idle connections and 1,000
# spectators that never read.
# Last, a person in headless Chromium (bench/serve-click.py): the time
# from the click on the play page to the referee's log line.
# SPECTATORS=N changes the 100; CLICK_MOVES=N the clicks timed (40).
set -e
top=$(pwd)
n=${SPECTATORS:-100}
tmp=$(mktemp -d /tmp/bench-serve.XXXXXX)
trap 'kill $pid 2>/dev/null; [ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
printf '[bots]\nbench0 = python3 %s/bench/serve-benchbot.py %s/bot0.txt\nbench1 = python3 %s/bench/serve-benchbot.py %s/bot1.txt\n' \
	"$top" "$tmp" "$top" "$tmp" >"$tmp/bots.ini"
bin/referee serve --listen 127.0.0.1:0 -o "$tmp/games" --sandbox off --bots "$tmp/bots.ini" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do
	url=$(sed -n 's/^serving \([^ ]*\) .*/\1/p' "$tmp/out")
	[ -n "$url" ] && break
	sleep 0.05
done
client() { python3 "$top/tests/serve-client.py" "$@"; }
rss() { awk '/^VmRSS/ {print $2}' /proc/$pid/status; }
cpu() { awk '{print $14 + $15}' /proc/$pid/stat; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc)"
rss0=$(rss)
# a person's seat holds the game until it connects: the spectators are
# all there from the first step
loc=$(client start "$url" "variant=link&seat=person&seat=bench0&seed=1")
gid=$(echo "$loc" | sed 's|^/games/\([a-z0-9]*\)/.*|\1|')
python3 bench/serve-spectators.py "$url" "$gid" "$n" "$tmp/bot0.txt" >"$tmp/spec" &
sp=$!
sleep 1
cpu0=$(cpu)
t0=$(date +%s.%N)
# the person is a quick player here (first legal move, no think time)
client seat "$url" "$loc" >/dev/null &
seat=$!
peak=0
while kill -0 $sp 2>/dev/null; do
	r=$(rss); [ "$r" -gt "$peak" ] && peak=$r
	sleep 0.05
done
wait $seat || true
t1=$(date +%s.%N)
cpu1=$(cpu)
cat "$tmp/spec"
hz=$(getconf CLK_TCK)
awk -v a="$cpu0" -v b="$cpu1" -v hz="$hz" -v t0="$t0" -v t1="$t1" -v r0="$rss0" -v p="$peak" -v n="$n" 'BEGIN {
	printf "server: RSS %d KiB before, %d KiB at peak with %d spectators; CPU %.0f ms over %.1f s of game (%.1f%% of a core)\n",
		r0, p, n, (b - a) * 1000 / hz, t1 - t0, (b - a) / hz / (t1 - t0) * 100 }'
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=2")
client seat "$url" "$loc" >/dev/null
client body "$url" /api/stats | python3 -c 'import json,sys; s=json.load(sys.stdin)["relay"]; print("a person'"'"'s line, WebSocket message to the referee'"'"'s log line: %d lines, mean %.0f us, max %.0f us" % (s["n"], s["mean_us"], s["max_us"]))'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
sh bench/serve-floods.sh 2>/dev/null
# a person's move in the browser: the click on the play page (headless
# Chromium) to the referee's log line, and its split
if command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
	python3 bench/serve-click.py "${CLICK_MOVES:-40}"
else
	echo "serve-click: skipped (no chromium)"
fi
