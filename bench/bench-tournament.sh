#!/bin/sh
# bench-tournament: tournament throughput, games per second with instant
# bots (the fake bot's first legal move) at concurrency 1 and 2, with and
# without bots kept alive between games (`multi`), 2-player games on small
# link boards; pinned (each game's processes on one CPU, the default for
# turn-based games) and not.
# Games per second should grow close to linearly with the cores.
top=${TETRARENA_TOP:-.}
build=${TETRARENA_BUILD:-$top/build/opt}
ref=$top/bin/referee
fake=$build/tests/prog-fakebot
games=${BENCH_TOURNAMENT_GAMES:-20}
if [ ! -x "$ref" ] || [ ! -x "$fake" ]; then
	echo "bench-tournament: skipped (no bin/referee or fake bot)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-tournament.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
once() { # MODE CONCURRENCY [FLAGS]: prints games/s
	mode=$1
	j=$2
	shift 2
	out=$(mktemp -d "$tmp/run.XXXXXX")
	start=$(date +%s.%N)
	"$ref" tournament --variant link --options width:6,height:8 --players 2 --games "$games" --seed 3 \
		--bootstrap 0 -q -j "$j" -o "$out" "$@" \
		--bot "a=$fake $mode" --bot "b=$fake $mode" --bot "c=$fake $mode" --bot "d=$fake $mode" \
		>/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; echo 0; return; }
	end=$(date +%s.%N)
	n=$(grep -c '^game ' "$out/journal.txt")
	awk "BEGIN { printf \"%.1f\", $n / ($end - $start) }"
}
# The best of three runs: other load on the machine only slows a run down.
run() {
	a=$(once "$@")
	b=$(once "$@")
	c=$(once "$@")
	printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -g | tail -1
}
once legal 2 >/dev/null	# warm up: page cache, first spawns
echo "tournament throughput, 2-player link 6x8, 4 instant bots, $((games * 12)) games per run, $ncpu cores:"
for mode in legal multi; do
	one=$(run $mode 1 --no-pin)
	two=$(run $mode 2 --no-pin)
	one_pin=$(run $mode 1)
	two_pin=$(run $mode 2)
	label="new processes per game"
	[ "$mode" = multi ] && label="bots kept alive (multi)"
	echo "  $label:"
	echo "    not pinned, -j 1: $one games/s, -j 2: $two games/s ($(awk "BEGIN { printf \"%.2f\", $two / ($one > 0 ? $one : 1) }")x)"
	echo "    pinned (the default), -j 1: $one_pin games/s, -j 2: $two_pin games/s ($(awk "BEGIN { printf \"%.2f\", $two_pin / ($one_pin > 0 ? $one_pin : 1) }")x)"
done
