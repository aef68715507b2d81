#!/bin/sh
# t3114-ladder-slurm: `referee ladder run --slurm 2` on a one-node Slurm
# cluster that the test starts itself (as t3013: root, munged, slurmctld
# and slurmd under a temporary directory, in a network namespace of the
# test's own) plays each game as a job (`ladder play-game DIR ID`) while
# the run alone writes the database: the games (ids, seeds, seats, ranks,
# scores) equal a local run's for deterministic bots; and a job cancelled
# mid-game (scancel, as a node lost) costs that game only: it is played
# again and the ladder still equals the local one. Where Slurm cannot
# start (not root, no packages, no network namespace), the test skips
# saying why.
# check-cluster: starts munged, slurmctld and slurmd (as root): only `make check-cluster` runs it
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/slurm-cluster.sh"
if [ -z "$T3114_NETNS" ]; then
	slurm_can_start
	rm -rf "$tmp"
	TMPDIR=$(dirname "$tmp") T3114_NETNS=1 exec unshare --net sh "$0" "$@"
	skip_all "Slurm cannot start here: unshare --net failed (a network namespace of its own)"
fi
. "$top/tests/ladder-lib.sh"
ip link set lo up && ip addr add 10.254.0.1/32 dev lo ||
	skip_all "Slurm cannot start here: cannot set up the loopback interface"
trap 'kill $run_pid 2>/dev/null; slurm_stop; cleanup' EXIT
echo "1..5"
time="bank:$(ms 5000),move:$(ms 1000),start:$(ms 3000)"
# the same ladder, made three times: entries in the same order, each
# playing the first legal move 40 to 60 ms after its `go`, on a board 40
# rows high (a game lasts 2 to 3 s: long enough to be cancelled in)
mk() {
	"$ref" ladder init "$1" --variant link --options height=40 --players 2 --time "$time" --seed 31 >/dev/null &&
		"$ref" ladder add "$1" a "$fake lag 0 40" >>"$tmp/mk.out" &&
		"$ref" ladder add "$1" b "$fake lag 0 50" >>"$tmp/mk.out" &&
		"$ref" ladder add "$1" c "$fake lag 0 60" >>"$tmp/mk.out"
}
mk "$tmp/local" && mk "$tmp/cluster" && mk "$tmp/killed" || { echo "Bail out! cannot make the ladders: $(tail -1 "$tmp/mk.out")"; exit 1; }
"$ref" ladder run "$tmp/local" --games 6 -q 2>"$tmp/local.err" &
run_pid=$!
slurm_start
ok "a one-node Slurm cluster is up ($(sinfo -h -o '%c CPUs' | head -1))"
wait $run_pid || cat "$tmp/local.err" >&2
run_pid=

cd "$tmp" || exit 1
"$ref" ladder run "$tmp/cluster" --games 6 --slurm 2 --slurm-opt=--time=10 -q 2>"$tmp/cluster.err"
st=$?
sed 's/^/# /' "$tmp/cluster.err"
ldump "$tmp/local" >"$tmp/local.dump"
ldump "$tmp/cluster" >"$tmp/cluster.dump"
sed 's/^/# local: /' "$tmp/local.dump"
check "--slurm 2 plays the 6 games (exit $st), each a job with its output in DIR/slurm" \
	sh -c "[ $st = 0 ] && [ \$(wc -l <'$tmp/cluster.dump') = 6 ] && ls '$tmp/cluster/slurm/' | grep -q '^game-000000-[0-9]*.out$'"
check "the same games, seeds, seats and results as the local run" cmp -s "$tmp/local.dump" "$tmp/cluster.dump"

# a job cancelled mid-game: played again
"$ref" ladder run "$tmp/killed" --games 3 --slurm 1 -q 2>"$tmp/killed.err" &
run_pid=$!
job=
for _ in $(seq 600); do
	job=$(squeue -h -t RUNNING -n tetrarena-ladder-000001 -o %i 2>/dev/null | head -1)
	[ -n "$job" ] && break
	sleep 0.05
done
sleep 1 # (into its game: the log is renamed into place only at the end)
scancel "$job"
wait $run_pid
st=$?
run_pid=
sed 's/^/# /' "$tmp/killed.err"
ls "$tmp/killed/slurm" | sed 's/^/# slurm output: /'
ldump "$tmp/killed" >"$tmp/killed.dump"
head -3 "$tmp/local.dump" >"$tmp/local3.dump"
check "the cancelled job (game 1, job $job) is said and its game played again (exit $st)" \
	sh -c "[ -n '$job' ] && [ $st = 0 ] && grep -q 'game 1: Slurm job $job ended without its result.*played again' '$tmp/killed.err'"
check "the ladder holds the local run's first 3 games, none twice" cmp -s "$tmp/local3.dump" "$tmp/killed.dump"
slurm_stop
exit $fail
