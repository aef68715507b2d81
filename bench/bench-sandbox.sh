#!/bin/sh
# bench/bench-sandbox.sh: what the bots' jail (referee/sandbox*.c) costs.
#  - start, per command: link games of two fresh bin/bot-random processes
#    (`referee play`, one game per command), jailed and bare; half the
#    difference per game is the cost of starting one jailed bot, with the
#    referee's one check per process that bwrap works here (a jailed
#    `true`) spread over its two bots;
#  - start, in one process: a tournament of bots that are not kept (the
#    fake bot, which does not announce `multi`), so every game starts two
#    fresh processes, jailed and bare: the cost of a jail alone;
#  - per move: a tournament of link games between bots kept alive
#    (`multi`), jailed and bare; the jail costs only at start, so the time
#    per move should be the same both ways.
#  - the futex supervisor's share of a jailed start (the same tournament
#    with TETRARENA_NO_FUTEX_SUPERVISOR=1);
#  - the seccomp filter alone (bench/bench-filter.c, no bwrap): compiling
#    it (once per referee process), a system call it lets through, and
#    the start of python3 and of bin/bot-random, bare and under it.
# Each figure is the best of 3 runs. SANDBOX_GAMES sets the games (default 40).
top=$(cd "$(dirname "$0")/.." && pwd)
ref=$top/bin/referee
bot=$top/bin/bot-random
fake=${TETRARENA_BUILD:-$top/build/opt}/tests/prog-fakebot
filter=${TETRARENA_BUILD:-$top/build/opt}/bench/bench-filter
games=${SANDBOX_GAMES:-40}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-sandbox.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if "$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$bot" "$bot" >/dev/null 2>&1; then :; else
	echo "no jail on this machine: nothing to compare"
	exit 0
fi
now() { date +%s%N; }
best() { # best of 3 runs of "$@", in ns
	b=
	for r in 1 2 3; do
		s=$(now); "$@"; e=$(now)
		t=$((e - s)); [ -z "$b" ] || [ $t -lt $b ] && b=$t
	done
	echo $b
}
fresh() { # MODE: $games games, each with two fresh bots
	i=0
	while [ $i -lt $games ]; do
		"$ref" play --sandbox $1 --variant link --seed $((i + 1)) --log "$tmp/g.log" "$bot" "$bot" >/dev/null 2>&1
		i=$((i + 1))
	done
}
kept() { # MODE: a tournament of kept (multi) bots
	rm -rf "$tmp/t"
	"$ref" tournament --sandbox $1 --variant link --games $((games / 2)) --seed 1 -j 1 -q \
		-o "$tmp/t" --bot "a=$bot" --bot "b=$bot --seed 2" >/dev/null 2>&1
}
fresh1() { # MODE: a tournament of bots started afresh for every game
	rm -rf "$tmp/f"
	"$ref" tournament --sandbox $1 --variant link --games $((games / 2)) --seed 1 -j 1 -q \
		-o "$tmp/f" --bot "a=$fake legal 0" --bot "b=$fake legal 0" >/dev/null 2>&1
}
moves() { grep -h -c '^move ' "$tmp"/t/games/*.log | awk '{ n += $1 } END { print n }'; }
off=$(best fresh off)
on=$(best fresh on)
foff=$(best fresh1 off)
fon=$(best fresh1 on)
fsup=$(export TETRARENA_NO_FUTEX_SUPERVISOR=1; best fresh1 on)
koff=$(best kept off)
moff=$(moves)
kon=$(best kept on)
mon=$(moves)
echo "load before the last runs: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v g=$games -v off=$off -v on=$on -v foff=$foff -v fon=$fon -v fsup=$fsup -v koff=$koff -v kon=$kon -v moff=$moff -v mon=$mon 'BEGIN {
	printf "fresh bots, %d games of 2 bots:  bare %.1f ms/game (%.0f games/s)   jailed %.1f ms/game (%.0f games/s)\n",
		g, off / g / 1e6, g * 1e9 / off, on / g / 1e6, g * 1e9 / on
	printf "start of one jailed bot, over a bare one: %+.2f ms (one game per referee process)\n", (on - off) / g / 2 / 1e6
	printf "start of one jailed bot, over a bare one: %+.2f ms (a tournament of %d games, bots not kept)\n", (fon - foff) / g / 2 / 1e6, g
	printf "  of which the futex supervisor (its filter and listener): %+.2f ms\n", (fon - fsup) / g / 2 / 1e6
	printf "kept bots (multi), %d moves:     bare %.1f us/move   jailed %.1f us/move (games and start-up included)\n",
		moff, koff / moff / 1e3, kon / mon / 1e3
	printf "                                  jailed, less its 2 bots'"'"' extra start: %.1f us/move\n",
		(kon - (on - off) / g) / mon / 1e3
}'
# the filter's own share of the above
if [ -x "$filter" ]; then
	# python3 itself, not a pyenv shim (a shell script) in front of it
	py=$(python3 -c 'import sys; print(sys.executable)')
	"$filter" 20 "$py" -c pass | sed 's/^/filter: /'
	"$filter" 20 "$bot" --help | sed -n 's/^start/filter: start/p'
fi
