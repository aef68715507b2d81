#!/bin/sh
# t2014-jail-cpu: a seat that spins children on its opponent's time gets
# none of it: non-movers are frozen whole (game_run_only(), the cgroup
# freezer). It measures CPU shares, which a busy machine skews past any
# margin (with two CPU hogs beside make check, the opponent's share fell
# from ~100% to 40% frozen or not): only check-long runs it, alone
# (TEST_ALONE), after the parallel pass. make check skips it; t2007 checks
# the jail itself.
# check-long: measures CPU shares (make check skips it: no test there depends on the machine's speed)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
if [ "$long" != 1 ]; then
	echo "1..0 # SKIP CPU shares are measured under make check-long only (a busy machine skews them)"
	exit 0
fi
hostile=$build/tests/prog-hostile
fake=$build/tests/prog-fakebot
need "$ref" "$hostile" "$fake"
"$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$fake legal 0" "$fake legal 0" >/dev/null 2>&1
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..0 # SKIP no jail on this machine (see t2007)"
	exit 0
fi
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
echo "1..4"

# ---- CPU: a seat that spins on its opponent's time --------------------------------
# spin: after each answer 2 children per CPU burn CPU until its next `go`;
# frozen, they get none of the opponent's time (the opponent, fakebot's
# spin, burns half of each move's time). The window between its answer
# and the freeze, and between the thaw and its look (its own time), leaks
# a little, and more on a busy (virtual) machine whose referee waits for a
# CPU: the checks take the median move, which one noisy move does not
# move, and print every move to stderr when they fail.
k=$(($(nproc 2>/dev/null || echo 2) * 2))
[ "$k" -le 16 ] || k=16
spin() { # LOG NO_FREEZE
	TETRARENA_NO_FREEZE=$2 "$ref" play --variant link --seed 9 --time "bank:$(ms 20000),move:$(ms 150),grace:$(ms 100)" \
		--log "$1" "$fake spin 0" "$hostile spin $k" >/dev/null 2>&1
}
# per-move shares in percent, the spinner's children's (seat 1: cpu/away)
# or the opponent's own (seat 0: cpu/wall), one a line
shares() { # LOG SEAT
	sed -n "s/^< $2 +[0-9]* info spin [a-z]*=\([0-9]*\) cpu=\([0-9]*\)\$/\1 \2/p" "$1" |
		awk '$1 > 0 { print int(100 * $2 / $1) }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : -1 }'; }
moves() { shares "$1" "$2" | wc -l; }
say_moves() { # LOG WHAT
	echo "# $2, per move (children's cpu/away %): $(shares "$1" 1 | tr '\n' ' ')" >&2
	echo "# $2, per move (opponent's cpu/wall %): $(shares "$1" 0 | tr '\n' ' ')" >&2
}
spin "$tmp/spin.log" 0
spin "$tmp/spinbare.log" 1
on=$(shares "$tmp/spin.log" 1 | median) off=$(shares "$tmp/spinbare.log" 1 | median)
von=$(shares "$tmp/spin.log" 0 | median)
check "spin jailed: over $(moves "$tmp/spin.log" 1) moves, the spinner's children used a median $on% of a CPU in its opponent's time (< 25%)" \
	[ "$(moves "$tmp/spin.log" 1)" -ge 5 -a "$on" -ge 0 -a "$on" -lt 25 ]
check "spin jailed: the game verifies" verify "$tmp/spin.log"
check "spin, freezing off (TETRARENA_NO_FREEZE=1): its children take a median $off%, over twice that share and over 50%" \
	[ "$off" -gt 50 -a "$off" -gt "$((2 * on))" ]
# and the opponent runs at full speed (with freezing off, on a busy
# machine, the spinner's children slow it to ~65%)
check "spin jailed: the opponent got a median $von% of a CPU while it spun (> 70%)" [ "$von" -gt 70 ]
[ "$fail" = 0 ] || { say_moves "$tmp/spin.log" "freezing on"; say_moves "$tmp/spinbare.log" "freezing off"; }
exit $fail
