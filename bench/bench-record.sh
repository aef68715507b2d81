#!/bin/sh
# bench-record: what writing the game record costs. One tournament of
# instant bots (the fake bot's first legal move, kept alive between games:
# `multi`; `quiet` by default, writing nothing on stderr, as most bots),
# 2-player link, played at -j 1 and -j 2 with its output on disk (under
# build/, or BENCH_DISK) and on tmpfs (/dev/shm), alternately, the same
# number of rounds each; printed are the median and the best of the
# rounds, in microseconds per bot move (the tournament's whole wall time
# over its moves), and disk over tmpfs. Beside: fastchess's play time is
# about 48 us a move on this kind of machine (issue 31), and the raw pipe
# floor is bench-referee's `raw pipe round trip`.
#
#   BENCH_RECORD_GAMES  games per tournament (default 1000)
#   BENCH_RECORD_RUNS   rounds (default 5)
#   BENCH_RECORD_BOT    the fake bot's mode (default quiet; multi writes a
#                       stderr line each game, so each seat costs a file)
#   BENCH_REFEREE       the referee to measure (default bin/referee)
top=${TETRARENA_TOP:-.}
build=${TETRARENA_BUILD:-$top/build/opt}
ref=${BENCH_REFEREE:-$top/bin/referee}
fake=$build/tests/prog-fakebot
games=${BENCH_RECORD_GAMES:-1000}
runs=${BENCH_RECORD_RUNS:-5}
mode=${BENCH_RECORD_BOT:-quiet}
disk=${BENCH_DISK:-$top/build}
if [ ! -x "$ref" ] || [ ! -x "$fake" ] || [ ! -d /dev/shm ]; then
	echo "bench-record: skipped (no bin/referee, fake bot or /dev/shm)"
	exit 0
fi
dtmp=$(mktemp -d "$disk/bench-record.XXXXXX")
mtmp=$(mktemp -d /dev/shm/bench-record.XXXXXX)
trap 'rm -rf "$dtmp" "$mtmp"' EXIT
# once DIR J: microseconds per bot move of one tournament with output in DIR.
# Each round starts from a settled disk (sync) and leaves its output in
# place until the end: deleting the last round's thousand files just
# before (rm -rf) had ext4 doing that work during the next round, so the
# benchmark measured its own cleanup too (disk rounds grew slower one
# after another).
once() {
	out=$(mktemp -d "$1/run.XXXXXX")
	sync
	start=$(date +%s.%N)
	"$ref" tournament --variant link --players 2 --games $((games / 2)) --seed 3 --bootstrap 0 -q \
		-j "$2" -o "$out" --bot "a=$fake $mode" --bot "b=$fake $mode" >/dev/null 2>"$1/err" ||
		{ cat "$1/err" >&2; echo 0; return; }
	end=$(date +%s.%N)
	moves=$(sed -n 's/.* moves=\([0-9]*\),\([0-9]*\) .*/\1 \2/p' "$out/journal.txt" | awk '{ s += $1 + $2 } END { print s }')
	awk "BEGIN { printf \"%.2f\", ($end - $start) * 1e6 / $moves }"
}
# stats: "median M best B" of the numbers on stdin
stats() {
	sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		printf "median %.2f best %.2f", m, v[1] }'
}
echo "  (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
once "$mtmp" 1 >/dev/null	# warm up
for j in 1 2; do
	: >"$dtmp/d$j"
	: >"$mtmp/m$j"
	i=0
	while [ $i -lt "$runs" ]; do
		once "$dtmp" $j >>"$dtmp/d$j"
		echo >>"$dtmp/d$j"
		once "$mtmp" $j >>"$mtmp/m$j"
		echo >>"$mtmp/m$j"
		i=$((i + 1))
	done
	set -- $(stats <"$dtmp/d$j") $(stats <"$mtmp/m$j")
	echo "  -j $j, $games link games, bot '$mode', us per bot move over $runs rounds:" \
		"disk $1 $2 ($3 $4), tmpfs $5 $6 ($7 $8): disk/tmpfs $(awk "BEGIN { printf \"%.2f\", $2 / $6 }")x (median)"
	echo "    disk rounds: $(tr '\n' ' ' <"$dtmp/d$j")"
	echo "    tmpfs rounds: $(tr '\n' ' ' <"$mtmp/m$j")"
done
echo "  (load after: $(cut -d' ' -f1-3 /proc/loadavg)); fastchess's play time: about 48 us a move"
