#!/bin/sh
# tests/prove.sh: how make check, check-long and check-cluster run the tests.
#
#   sh tests/prove.sh JOBS TEST... [-- TEST...]
#
# Runs the tests before `--` through `prove --timer -jJOBS`, then the ones
# after it one at a time (the tests that must run alone), then:
# - prints the ten slowest test files of the run (prove --timer's times);
# - fails if a process the run started is still alive: every test runs with
#   TETRARENA_RUN_ID in its environment and TMPDIR inside this run's own
#   directory, so a process whose environment carries the id, or whose
#   command line or working directory lies in that directory, belongs to
#   the run. Those left are listed, killed (by pid) and the run fails.
# Exits 0 only when every prove passed and nothing was left behind.
jobs=${1:?usage: tests/prove.sh JOBS TEST... [-- TEST...]}
shift
par=
alone=
seen_sep=0
for t; do
	if [ "$t" = -- ]; then seen_sep=1; continue; fi
	if [ $seen_sep = 1 ]; then alone="$alone $t"; else par="$par $t"; fi
done
run=$(mktemp -d "${TMPDIR:-/tmp}/tetrarena-check.XXXXXX") || { echo "prove.sh: cannot make a directory" >&2; exit 1; }
TETRARENA_RUN_ID=$(basename "$run")
TMPDIR=$run
export TETRARENA_RUN_ID TMPDIR
out=$run/prove.out
rc=0
start=$(date +%s)
if [ -n "$par" ]; then
	# shellcheck disable=SC2086
	prove --timer -j"$jobs" --exec '' $par >"$run/par.out" 2>&1 &
	pid=$!
	tail -f --pid=$pid "$run/par.out" 2>/dev/null &
	wait $pid || rc=1
	sleep 0.2
	cat "$run/par.out" >>"$out"
fi
if [ -n "$alone" ]; then
	# shellcheck disable=SC2086
	prove --timer --exec '' $alone >"$run/alone.out" 2>&1 &
	pid=$!
	tail -f --pid=$pid "$run/alone.out" 2>/dev/null &
	wait $pid || rc=1
	sleep 0.2
	cat "$run/alone.out" >>"$out"
fi
echo "prove.sh: $(($(date +%s) - start)) s; the ten slowest files:"
sed -n 's/^\[[0-9:]*\] \([^ ]*\) \.*.* \([0-9][0-9]*\) ms.*/\2 \1/p' "$out" | sort -rn | head -10 |
	awk '{ printf "  %6.1f s  %s\n", $1 / 1000, $2 }'

# What the run left behind (two seconds' grace for what is ending now).
id=$TETRARENA_RUN_ID
unset TETRARENA_RUN_ID TMPDIR
mine() { # PID: does it belong to this run?
	[ "$1" = $$ ] && return 1
	tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -qx "TETRARENA_RUN_ID=$id" && return 0
	tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "$run/" && return 0
	case $(readlink "/proc/$1/cwd" 2>/dev/null) in "$run"/*) return 0 ;; esac
	return 1
}
left() {
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		# this script's own children (the sed, the tail, this loop's subshells)
		[ "$(awk '{ print $4 }' "$d/stat" 2>/dev/null)" = $$ ] && continue
		mine "$p" && echo "$p"
	done
}
i=0
while [ -n "$(left)" ] && [ $i -lt 10 ]; do sleep 0.2; i=$((i + 1)); done
pids=$(left)
if [ -n "$pids" ]; then
	echo "prove.sh: FAILED: the tests left these processes running (now killed):" >&2
	for p in $pids; do
		echo "  $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-200)" >&2
	done
	# shellcheck disable=SC2086
	kill -9 $pids 2>/dev/null
	rc=1
fi
rm -rf "$run"
exit $rc
