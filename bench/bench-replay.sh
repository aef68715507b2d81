#!/bin/sh
# bench-replay: what writing HTML replays costs, so that the report's
# choice (replays written with report.html up to REPORT_REPLAYS_MAX games,
# on demand beyond) rests on a measurement. A link tournament of
# bot-random against itself (BENCH_REPLAY_GAMES games; a link game lasts as
# long whoever plays it, and random bots make the logs quickly) writes its logs;
# then every log is turned into its replay with `referee view --html`, one
# process per game, as the report does it. Printed: CPU and wall seconds
# and bytes per replay, and the same extrapolated to 10,000 games.
top=${TETRARENA_TOP:-.}
ref=$top/bin/referee
games=${BENCH_REPLAY_GAMES:-100}
if [ ! -x "$ref" ] || [ ! -x "$top/bin/bot-random" ]; then
	echo "bench-replay: skipped (no bin/referee or bin/bot-random)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ref" tournament --variant link --players 2 --games $((games / 2)) --seed 5 --bootstrap 0 -q -j 2 \
	-o "$tmp/t" --bot "a=$top/bin/bot-random" --bot "b=$top/bin/bot-random" >/dev/null 2>&1
# the tournament wrote the replays with its report: time them again here
rm -f "$tmp"/t/games/*.html
set -- "$tmp"/t/games/*.log
[ -f "$1" ] || { echo "bench-replay: the tournament wrote no logs"; exit 1; }
n=$#
start=$(date +%s.%N)
cpu0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
for log in "$@"; do
	"$ref" view --html "$log" -o "$log.html" >/dev/null 2>&1 || { echo "bench-replay: $log: no page"; exit 1; }
done
end=$(date +%s.%N)
cpu1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
bytes=$(cat "$tmp"/t/games/*.html | wc -c)
logbytes=$(cat "$@" | wc -c)
tck=$(getconf CLK_TCK)
awk -v n="$n" -v wall="$(awk "BEGIN { print $end - $start }")" -v cpu="$(( cpu1 - cpu0 ))" -v tck="$tck" \
	-v bytes="$bytes" -v logbytes="$logbytes" 'BEGIN {
	c = cpu / tck
	printf "%d link replays, one referee process each:\n", n
	printf "  per replay: %.1f ms wall, %.1f ms CPU, %.0f kB page (log %.0f kB)\n", 1000 * wall / n, 1000 * c / n, bytes / n / 1024, logbytes / n / 1024
	printf "  10,000 games: %.0f s wall, %.0f s CPU, %.2f GB of pages\n", 10000 * wall / n, 10000 * c / n, 10000 * bytes / n / 1e9
}'
