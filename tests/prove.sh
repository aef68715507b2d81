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
#   command line names a file in that directory, belongs to the run. Those
#   left are listed, killed (by pid) and the run fails.
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
# other users may pass through it, as through /tmp (not list it): the
# cluster tests' munged runs as user munge in a test's own directory
chmod 711 "$run"
TETRARENA_RUN_ID=$(basename "$run")
TMPDIR=$run
export TETRARENA_RUN_ID TMPDIR
out=$run/prove.out
rc=0
start=$(date +%s)
if [ -n "$par" ]; then
	# shellcheck disable=SC2086
	{ prove --timer -j"$jobs" --exec '' $par 2>&1; echo $? >"$run/par.rc"; } | tee -a "$out"
	[ "$(cat "$run/par.rc")" = 0 ] || rc=1
fi
if [ -n "$alone" ]; then
	# shellcheck disable=SC2086
	{ prove --timer --exec '' $alone 2>&1; echo $? >"$run/alone.rc"; } | tee -a "$out"
	[ "$(cat "$run/alone.rc")" = 0 ] || rc=1
fi
echo "prove.sh: $(($(date +%s) - start)) s; the ten slowest files:"
sed -n 's/^\[[0-9:]*\] \([^ ]*\) \.*.* \([0-9][0-9]*\) ms.*/\2 \1/p' "$out" | sort -rn | head -10 |
	awk '{ printf "  %6.1f s  %s\n", $1 / 1000, $2 }'

# What the run left behind (two seconds' grace for what is ending now).
id=$TETRARENA_RUN_ID
unset TETRARENA_RUN_ID TMPDIR
# (The globs expand in this shell, before grep forks.)
left() {
	{
		grep -lsxzF "TETRARENA_RUN_ID=$id" /proc/[0-9]*/environ
		grep -lsaF "$run/" /proc/[0-9]*/cmdline
	} >"$run/left" 2>/dev/null
	sed -n 's|^/proc/\([0-9]*\)/.*|\1|p' "$run/left" | sort -u | grep -vx "$$" | while read -r p; do
		kill -0 "$p" 2>/dev/null && echo "$p"
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
