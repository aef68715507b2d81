#!/bin/sh
# t2014-jail-cpu: a seat that spins children on its opponent's time gets
# none of it: non-movers are frozen whole (game_run_only(), the cgroup
# freezer). It measures CPU shares, which a busy neighbour skews, so
# `make check` runs it alone (TEST_ALONE), after the parallel pass.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
hostile=$build/tests/prog-hostile
fake=$build/tests/prog-fakebot
need "$ref" "$hostile" "$fake"
"$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$fake legal 0" "$fake legal 0" >/dev/null 2>&1
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..0 # SKIP no jail on this machine (see t2007)"
	exit 0
fi
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
echo "1..3"

# ---- CPU: a seat that spins on its opponent's time --------------------------------
# spin: after each answer 4 children burn CPU until its next `go`; frozen,
# they get none of the opponent's time (the opponent, fakebot's spin,
# burns half of each move's time). The window between its answer and the
# freeze, and between the thaw and its look (its own time), leaks a
# little: < 25%, and less than half the share its children take with
# freezing off.
spin() { # LOG NO_FREEZE
	TETRARENA_NO_FREEZE=$2 "$ref" play --variant link --seed 9 --time "bank:$(ms 20000),move:$(ms 150),grace:$(ms 100)" \
		--log "$1" "$fake spin 0" "$hostile spin 4" >/dev/null 2>&1
	sed -n 's/^< 1 +[0-9]* info spin away=\([0-9]*\) cpu=\([0-9]*\)$/\1 \2/p' "$1" |
		awk '{ a += $1; c += $2 } END { printf "%d %d\n", a, c }'
}
set -- $(spin "$tmp/spin.log" 0)
away=${1:-0} cpu=${2:-999999}
check "spin jailed: the spinner's children used $cpu ms of CPU in $away ms of its opponent's time (< 25%)" \
	[ "$away" -gt 300 -a "$((cpu * 4))" -lt "$away" ]
check "spin jailed: the game verifies" verify "$tmp/spin.log"
set -- $(spin "$tmp/spinbare.log" 1)
check "spin, freezing off (TETRARENA_NO_FREEZE=1): its children take over twice that share (${2:-?} ms in ${1:-?} ms)" \
	[ "${1:-0}" -gt 300 -a "$((${2:-0} * away))" -gt "$((2 * cpu * ${1:-0}))" ]
exit $fail
