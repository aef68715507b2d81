#!/bin/sh
# bench/bench-spin.sh: what a seat that spins on its opponents' time takes
# from bot-link, with the turn-based freeze (referee/game.c run_only(), the
# freezer cgroup of referee/sandbox-cgroup.c) and without it
# (TETRARENA_NO_FREEZE=1). Two-seat link games (bot-link searches deeper
# and by time there; with three seats it stops at depth 2): bot-link
# against tests/prog-hostile, which plays the same moves either way: quiet
# (spin 0) or spinning 4 children from each answer to its next `go` (spin
# 4). For each,
# bot-link's mean nodes and wall time per move (its `info depth D nodes
# N` lines, its `move` lines' times). Same seeds for all three.
# SPIN_GAMES sets the games (default 3), SPIN_MOVE the move time in ms
# (default 5000, the referee's default).
top=$(cd "$(dirname "$0")/.." && pwd)
ref=$top/bin/referee
build=${TETRARENA_BUILD:-$top/build/opt}
games=${SPIN_GAMES:-3}
move=${SPIN_MOVE:-5000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-spin.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$top/bin/bot-random" \
	"$top/bin/bot-random" >/dev/null 2>&1; then
	echo "no jail on this machine: nothing to measure"
	exit 0
fi
run() { # NAME NO_FREEZE THIRD: games, then bot-link's nodes and ms per move
	i=1
	while [ $i -le "$games" ]; do
		TETRARENA_NO_FREEZE=$2 "$ref" play --variant link --seed $i --time "bank:$((move * 30)),move:$move" \
			--log "$tmp/$1-$i.log" "$top/bin/bot-link" "$3" >/dev/null 2>&1
		i=$((i + 1))
	done
	cat "$tmp/$1"-*.log | awk -v name="$1" '
		/^< 0 \+[0-9]* info depth [0-9]+ nodes [0-9]+$/ { nodes += $NF; n++ }
		/^move 0 / { for (i = 1; i <= NF; i++) if ($i ~ /^wall=/) { sub("wall=", "", $i); ms += $i; m++ } }
		END { printf "%s %.0f %.1f %d\n", name, n ? nodes / n : 0, m ? ms / m : 0, n }'
}
{
	run quiet 0 "$build/tests/prog-hostile spin 0"
	run spin-frozen 0 "$build/tests/prog-hostile spin 4"
	run spin-free 1 "$build/tests/prog-hostile spin 4"
} >"$tmp/out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $games games of 2 seats each, move $move ms"
awk 'NR == 1 { base = $2 }
	{ printf "  %-12s bot-link %8.0f nodes/move (%5.1f%% of quiet)  %6.1f ms/move  (%d moves)\n",
		$1, $2, base ? 100 * $2 / base : 0, $3, $4 }' "$tmp/out"
