#!/bin/sh
# t3013-tournament-slurm: `referee tournament --slurm 3` on a one-node Slurm
# cluster that the test starts itself (as root; munged as user munge,
# slurmctld and slurmd, all under a temporary directory, in a network
# namespace of the test's own: loopback only) submits an array of 3 shards
# and a merge job; the merged standings equal one unsharded run's (timing
# aside), and submitting again resumes (plays nothing twice) and merges
# the same; a shard that fails makes the submit exit 1 naming it and
# why. Where Slurm cannot start (not root, no packages, no network
# namespace), the test skips saying why (and fails under .ci/run, which
# sets TETRARENA_REQUIRE=1).
# check-cluster: starts munged, slurmctld and slurmd (as root): only `make check-cluster` runs it
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/slurm-cluster.sh"
if [ -z "$T3013_NETNS" ]; then
	slurm_can_start
	rm -rf "$tmp" # the namespaced run makes its own, in the same TMPDIR
	TMPDIR=$(dirname "$tmp") T3013_NETNS=1 exec unshare --net sh "$0" "$@"
	skip_all "Slurm cannot start here: unshare --net failed (a network namespace of its own)"
fi
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
# Loopback only; an address that is not 127/8 lets Slurm's getaddrinfo
# (AI_ADDRCONFIG) resolve at all.
ip link set lo up && ip addr add 10.254.0.1/32 dev lo ||
	skip_all "Slurm cannot start here: cannot set up the loopback interface"
trap 'kill $one_pid 2>/dev/null; slurm_stop; cleanup' EXIT
echo "1..11"
# the unsharded run to compare with is played while the cluster starts
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
seed=77
tour() {
	"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 6 \
		--time "$time" -j 1 --bootstrap 50 \
		--bot "a=$fake legal 0" --bot "b=$fake multi 0" --bot "c=$fake legal 3" "$@"
}
tour --seed $seed -q -o "$tmp/one" >/dev/null 2>"$tmp/one.err" &
one_pid=$!
slurm_start
ok "a one-node Slurm cluster is up ($(sinfo -h -o '%c CPUs, %m MB' | head -1))"
standings() { grep -v '_ms"' "$1/standings.json"; }
results() { cut -d, -f1-11 "$1/games.csv"; }

wait $one_pid || cat "$tmp/one.err" >&2

cd "$tmp" || exit 1
tour --seed $seed --slurm 3 --slurm-opt=--time=10 -o "$tmp/cluster" >"$tmp/submit.out" 2>"$tmp/submit.err"
st=$?
cat "$tmp/submit.out" "$tmp/submit.err" | sed 's/^/# /'
shards=$(sed -n 's/^shards: job \([0-9]*\) .*/\1/p' "$tmp/submit.out")
merge=$(sed -n 's/^merge: job \([0-9]*\) .*/\1/p' "$tmp/submit.out")
check "--slurm 3 submits shards and a merge, printing their job ids and the standings' place" \
	sh -c "[ $st = 0 ] && [ -n '$shards' ] && [ -n '$merge' ] && grep -q '^standings: $tmp/cluster/standings.txt' '$tmp/submit.out'"
squeue -h -o '%j %E' >"$tmp/squeue" 2>&1
check "squeue shows the jobs by name, the merge after the shards" \
	sh -c "grep -q 'tetrarena-cluster-merge afterok:${shards}' '$tmp/squeue' || grep -q 'tetrarena-cluster-merge' '$tmp/squeue' || [ -s '$tmp/cluster/standings.json' ]"
# wait (bounded) for the merge job to leave the queue
wait_jobs() {
	i=0
	limit=$(ms 1200)
	while squeue -h -o %i 2>/dev/null | grep -q . && [ $i -lt $limit ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
wait_jobs
for f in "$tmp"/cluster/slurm/*.out; do grep -E 'referee|error|rror:' "$f" | sed "s|^|# $(basename "$f"): |"; done
check "every shard ran into its own directory" \
	sh -c "for i in 0 1 2; do [ -s '$tmp/cluster/shard'\$i/standings.json ] || exit 1; done"
standings "$tmp/one" >"$tmp/one.json"
standings "$tmp/cluster" >"$tmp/cluster.json" 2>/dev/null
results "$tmp/one" >"$tmp/one.csv"
results "$tmp/cluster" >"$tmp/cluster.csv" 2>/dev/null
check "the merged standings equal one unsharded run's (timing columns aside)" \
	sh -c "[ -s '$tmp/one.json' ] && cmp -s '$tmp/one.json' '$tmp/cluster.json' && cmp -s '$tmp/one.csv' '$tmp/cluster.csv'"
check "the bots ran jailed inside the Slurm tasks as anywhere else" \
	sh -c "[ -z \"\$(grep -h '^game ' '$tmp'/cluster/shard*/journal.txt | grep -v 'sandbox=on')\" ] ||
	       [ -n \"\$(grep -h '^game ' '$tmp'/one/journal.txt | grep -v 'sandbox=on')\" ]"

before=$(cat "$tmp"/cluster/shard*/journal.txt | grep -c '^game ')
tour --seed $seed --slurm 3 -o "$tmp/cluster" >"$tmp/submit2.out" 2>"$tmp/submit2.err"
st=$?
wait_jobs
after=$(cat "$tmp"/cluster/shard*/journal.txt | grep -c '^game ')
standings "$tmp/cluster" >"$tmp/cluster2.json" 2>/dev/null
check "submitting again resumes: nothing played twice ($before then $after games), same standings" \
	sh -c "[ $st = 0 ] && [ $before = $after ] && cmp -s '$tmp/one.json' '$tmp/cluster2.json'"
# A shard that fails (its output directory cannot be made: a file is in
# the way): the submit waits, exits 1, and names the shard and why.
mkdir -p "$tmp/bad"
: >"$tmp/bad/shard1"
tour --seed $seed --slurm 3 -o "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
st=$?
sed 's/^/# /' "$tmp/bad.err"
check "a failing shard: the submit waits and exits 1 (got $st)" \
	sh -c "[ $st = 1 ] && ! squeue -h -o %i | grep -q ."
check "it names the shard and why, from its Slurm output" \
	grep -q "^referee tournament: shard 1/3 (job [0-9]*_1) failed: .*shard1.* (see $tmp/bad/slurm/shard-1.out)" "$tmp/bad.err"
check "the other shards are not blamed, and the merge did not run" \
	sh -c "! grep -q 'shard [02]/3' '$tmp/bad.err' && grep -q 'the merge (job [0-9]*) did not write the standings: not run' '$tmp/bad.err'"
slurm_stop
check "the daemons are stopped" sh -c "! pgrep -x slurmctld >/dev/null && ! pgrep -x slurmd >/dev/null"
exit $fail
