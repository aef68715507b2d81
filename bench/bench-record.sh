#!/bin/sh
# bench-record: what writing the game record costs. One tournament of
# instant bots (the fake bot's first legal move, kept alive between games:
# `multi`), 2-player link, pinned, played twice per round: output on disk
# (under build/, or BENCH_DISK) and on tmpfs (/dev/shm), alternately, best
# of BENCH_RECORD_RUNS rounds each. Then bot moves per second at -j 1 and
# -j 2 with logs on disk, beside the raw pipe floor (bench-referee's
# moves/s between two processes without a referee's bookkeeping).
top=${TETRARENA_TOP:-.}
build=${TETRARENA_BUILD:-$top/build/opt}
ref=$top/bin/referee
fake=$build/tests/prog-fakebot
games=${BENCH_RECORD_GAMES:-1000}
runs=${BENCH_RECORD_RUNS:-3}
disk=${BENCH_DISK:-$top/build}
if [ ! -x "$ref" ] || [ ! -x "$fake" ] || [ ! -d /dev/shm ]; then
	echo "bench-record: skipped (no bin/referee, fake bot or /dev/shm)"
	exit 0
fi
dtmp=$(mktemp -d "$disk/bench-record.XXXXXX")
mtmp=$(mktemp -d /dev/shm/bench-record.XXXXXX)
trap 'rm -rf "$dtmp" "$mtmp"' EXIT
# once DIR J: "SECONDS MOVES" of one tournament with output in DIR
once() {
	out=$(mktemp -d "$1/run.XXXXXX")
	start=$(date +%s.%N)
	"$ref" tournament --variant link --players 2 --games $((games / 2)) --seed 3 --bootstrap 0 -q \
		-j "$2" -o "$out" --bot "a=$fake multi" --bot "b=$fake multi" >/dev/null 2>"$1/err" ||
		{ cat "$1/err" >&2; echo "0 0"; return; }
	end=$(date +%s.%N)
	moves=$(sed -n 's/.* moves=\([0-9]*\),\([0-9]*\) .*/\1 \2/p' "$out/journal.txt" | awk '{ s += $1 + $2 } END { print s }')
	echo "$(awk "BEGIN { printf \"%.3f\", $end - $start }") $moves"
	rm -rf "$out"
}
once "$mtmp" 1 >/dev/null	# warm up
best_d=999 best_m=999
i=0
while [ $i -lt "$runs" ]; do
	d=$(once "$dtmp" 1 | cut -d' ' -f1)
	m=$(once "$mtmp" 1 | cut -d' ' -f1)
	echo "  round $((i + 1)): disk $d s, tmpfs $m s"
	best_d=$(awk "BEGIN { print ($d < $best_d) ? $d : $best_d }")
	best_m=$(awk "BEGIN { print ($m < $best_m) ? $m : $best_m }")
	i=$((i + 1))
done
echo "$games link games, instant bots, -j 1, pinned, best of $runs: disk $best_d s, tmpfs $best_m s: disk/tmpfs $(awk "BEGIN { printf \"%.2f\", $best_d / $best_m }")x"
for j in 1 2; do
	set -- $(once "$dtmp" $j)
	echo "  -j $j, logs on disk: $(awk "BEGIN { printf \"%.0f\", $2 / $1 }") bot moves/s ($2 moves in $1 s)"
done
echo "  raw pipe floor: see bench-referee's 'pipe floor' line above"
