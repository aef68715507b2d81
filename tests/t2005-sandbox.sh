#!/bin/sh
# t2005-sandbox: hostile bots against the jail (referee/sandbox.c). Each
# attack of the fake bot (tests/prog-fakebot.c) is played against an honest
# bot: the attack must achieve nothing (its own `info attack` report says
# so), the honest seat must finish with no fault, and the log must verify.
# Also: the seed is in no bot-visible argv or log name, NUL bytes are
# malformed, an exit before hello is `start`, a bot that is late on every
# move is retired after --max-faults, each game of a kept `multi` bot has
# its own stderr file and its cpu limit within a finite total, and kill -9
# of the referee or of a tournament (or pkill -9 -f of its command line,
# which also takes its guard) leaves no bot process behind. --sandbox off still plays; --sandbox on refuses
# where no jail can be had.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
marker="t2005-$$"
status() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
# the number an attacker reported in its `info attack MODE=N` line
reported() { sed -n "s/^< 0 +[0-9]* info attack $2=\([0-9]*\)$/\1/p" "$1" | head -n 1; }
# seat 1 (honest) finished with no fault, and the game was a full one
honest() { grep -q "^result .* faults=[^ ]*,- " "$1" && ! grep -q "^fault 1 " "$1"; }

why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" \
	"$fake legal 0 $marker" "$fake legal 0 $marker" 2>&1 >/dev/null)
if [ -n "$why" ] && ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..2"
	st=$(status "$ref" play --sandbox off --variant link --seed 1 --log "$tmp/off.log" \
		"$fake legal 0 $marker" "$fake legal 0 $marker")
	check "--sandbox off still plays" [ "$st" = 0 ]
	check "--sandbox on refuses with a reason" [ -n "$why" ]
	echo "# no jail on this machine: $why"
	exit $fail
fi

# without a writable cgroup (a normal user, mostly) memory binds per process
# only (RLIMIT_DATA): the check of a bot's whole memory skips and says so
cgroups=1
case $why in *"no writable cgroup"*) cgroups=0 ;; esac
echo "1..43"
time="bank:$(ms 20000),move:$(ms 2000),start:$(ms 5000),grace:$(ms 50)"
play() { # LOG ATTACKER [ARGS...]: the attacker in seat 0 against an honest bot
	log=$1; shift
	"$ref" play --variant link --seed 7 --time "$time" --log "$log" "$*" \
		"$fake legal 0 $marker" >/dev/null 2>"$log.err"
}

play "$tmp/pipes.log" "$fake pipes 1 $marker"
check "pipes: no other process's pipe could be opened" [ "$(reported "$tmp/pipes.log" pipes)" = 0 ]
check "pipes: the game was jailed" grep -q '^sandbox on' "$tmp/pipes.log"
check "pipes: verify passes" verify "$tmp/pipes.log"
check "pipes: no fault for the honest seat" honest "$tmp/pipes.log"

play "$tmp/sig.log" "$fake signals 1 $marker"
check "signals: no other process could be stopped" [ "$(reported "$tmp/sig.log" signals)" = 0 ]
check "signals: the honest seat finishes with no fault" honest "$tmp/sig.log"

# the spy knows where the log and the other seat's stderr are, and looks
# at every process it can see
play "$tmp/spy.log" "$fake spy 1 $marker $tmp/spy.log $tmp/spy.log.seat1.stderr"
check "spy: no log, stderr file, seed or memory could be read" [ "$(reported "$tmp/spy.log" spy)" = 0 ]
check "spy: the honest seat finishes with no fault" honest "$tmp/spy.log"
check "spy: verify passes" verify "$tmp/spy.log"

cat >"$tmp/bots.ini" <<EOF
[bot bomb]
command = $fake forkbomb 1 $marker
processes = 32
[bot hog]
command = $fake memhog 1 $marker
memory = 64
[bot disk]
command = $fake diskfill 1 $marker
disk = 16
file-size = 8
EOF
"$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/bots.ini" --log "$tmp/bomb.log" \
	bomb "$fake legal 0 $marker" >/dev/null 2>&1
forks=$(reported "$tmp/bomb.log" forkbomb)
check "fork bomb: stopped below processes=32 (got ${forks:-none})" [ -n "$forks" ] && [ "$forks" -lt 32 ]
check "fork bomb: the honest seat finishes with no fault" honest "$tmp/bomb.log"

"$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/bots.ini" --log "$tmp/hog.log" \
	hog "$fake legal 0 $marker" >/dev/null 2>&1
hogs=$(reported "$tmp/hog.log" memhog)
# (the kernel's OOM killer may pick the bot itself: then it is a crash
# fault (or a timeout) that names the limit)
if [ $cgroups = 1 ]; then
	check "memory hog: 4 x 48 MiB children do not all fit in memory=64 (${hogs:-none} did)" \
		sh -c "[ -n '$hogs' ] && [ '${hogs:-0}' -lt 4 ] || grep -q '^fault 0 [a-z]* .*memory limit$' '$tmp/hog.log'"
else
	skip "memory hog: no memory cgroup here (not root?): memory= binds each process, not the bot's ${hogs:-?} children together"
fi
check "memory hog: the honest seat finishes with no fault" honest "$tmp/hog.log"

mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/bots.ini" \
	--log "$tmp/disk.log" disk "$fake legal 0 $marker" >/dev/null 2>"$tmp/disk.err")
wrote=$(reported "$tmp/disk.log" diskfill)
[ -f "$tmp/disk.log" ] || cat "$tmp/disk.err" >&2
check "disk: writing 5 GB stops at disk=16 MiB (wrote ${wrote:-none} MiB)" [ -n "$wrote" ] && [ "$wrote" -le 16 ]
check "disk: nothing left in the referee's directory" [ -z "$(ls -A "$tmp/cwd")" ]
check "disk: the honest seat finishes with no fault" honest "$tmp/disk.log"

# the same attacks in every variant (real time and lockstep, simultaneous
# rounds, multi-decision turns): the honest seats play a normal game
# check-long: rush at its default pace and box; make check plays it at a
# 10 ms pace with 3 of each shape.
pace=$(long_or "--option=pace=10 --option=box=3" "")
for v in tetroll rush matrix; do
	for a in pipes signals; do
		# shellcheck disable=SC2046
		"$ref" play --variant $v $([ $v = rush ] && echo "$pace") --seed 7 --time "$time,game:$(ms 60000)" --log "$tmp/$v-$a.log" \
			"$fake $a 1 $marker" "$fake legal 0 $marker" >/dev/null 2>&1
		got=$(reported "$tmp/$v-$a.log" $a)
		check "$v, $a: nothing reached (${got:-no report}), no fault for the honest seat, verify passes" \
			sh -c "[ '$got' = 0 ] && ! grep -q '^fault 1 ' '$tmp/$v-$a.log' && '$ref' verify '$tmp/$v-$a.log' >/dev/null"
	done
done

# secrets: the seed in no name, and the bot's own files readable
st=$(status "$ref" play --variant link --seed 424242 --time "$time" "$fake legal 0 $marker" \
	"$fake legal 0 $marker")
logname=$(sed -n 's/^log: //p' "$tmp/out")
check "the default log's name carries no seed ($logname)" sh -c "[ -f '$logname' ] && ! echo '$logname' | grep -q 424242"
rm -f "$logname" "$logname".seat*.stderr

# NUL in a line: malformed, shown as '?'
play "$tmp/nul.log" "$fake nul 1 $marker"
check "NUL in a move line is malformed" grep -q "^fault 0 malformed" "$tmp/nul.log"
check "the NUL is logged as '?' and the text after it kept" grep -q "^< 0 +[0-9]* move .*?junk$" "$tmp/nul.log"
check "the log is ASCII" sh -c "! LC_ALL=C grep -q '[^ -~]' '$tmp/nul.log'"
check "the log with a NUL verifies" verify "$tmp/nul.log"

# an exit before hello is always `start`, never `crash`
starts=0
for i in 1 2 3 4 5 6 7 8; do
	play "$tmp/pre$i.log" "$fake prehello 0 $marker"
	grep -q "^fault 0 start" "$tmp/pre$i.log" && starts=$((starts + 1))
done
check "exit before hello: start, 8 times out of 8 ($starts)" [ "$starts" = 8 ]

# a bot late on every move under the random policy is retired after 3
"$ref" play --variant link --seed 7 --fault-policy random \
	--time "bank:$(ms 60000),move:$(ms 100),start:$(ms 5000),grace:$(ms 20)" \
	--log "$tmp/late.log" "$fake hang 1 $marker" "$fake legal 0 $marker" >/dev/null 2>&1
check "late on every move: 3 timeouts then retired (max-faults 3 in the header)" \
	sh -c "grep -q '^max-faults 3$' '$tmp/late.log' && [ \$(grep -c '^fault 0 ' '$tmp/late.log') = 3 ] && grep -q '^out 0' '$tmp/late.log'"
"$ref" play --variant link --seed 7 --fault-policy random \
	--time "bank:$(ms 60000),move:$(ms 100),start:$(ms 5000),grace:$(ms 20)" \
	--log "$tmp/slow.log" "$fake slow 1 $marker" "$fake legal 0 $marker" >/dev/null 2>&1
check "slow on every move: retired after 3 timeouts in a row" \
	sh -c "[ \$(grep -c '^fault 0 timeout' '$tmp/slow.log') = 3 ] && grep -q '^out 0' '$tmp/slow.log'"
check "the retired seat's log verifies" verify "$tmp/slow.log"

# kill -9 of the referee with an escaping bot: nothing left 1 s later.
# killed MARKER COMMAND...: run it until 3 processes carry MARKER, kill -9
# it, and say whether any is left a second later (looked at every 50 ms:
# once none is left none can come back, so it stops looking then).
killed() {
	mark=$1; shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	tries=0
	while [ "$(pgrep -f "$mark" | wc -l)" -lt 3 ] && [ $tries -lt 200 ]; do
		sleep 0.05; tries=$((tries + 1))
	done
	if [ -n "$kill_all" ]; then pkill -9 -f -- "$kill_all"; else kill -9 $pid; fi
	wait $pid 2>/dev/null
	tries=0
	while [ -n "$(pgrep -f "$mark")" ] && [ "$tries" -lt 20 ]; do
		sleep 0.05; tries=$((tries + 1))
	done
	[ -z "$(pgrep -f "$mark")" ]
}
esc="$marker-esc"
check "kill -9 of play: no bot process left after 1 s" \
	killed "$esc" "$ref" play --variant link --seed 7 --time "bank:600000,move:600000,start:$(ms 5000)" \
	--log "$tmp/esc.log" "$fake escape2 1 $esc" "$fake hang 3 $esc"
tesc="$marker-tour"
check "kill -9 of a tournament: no bot process left after 1 s" \
	killed "$tesc" "$ref" tournament --variant link --games 50 --seed 1 -j 1 -q -o "$tmp/tour" \
	--time "bank:600000,move:600000,start:$(ms 5000)" \
	--bot "esc=$fake escape2 1 $tesc" --bot "hang=$fake hang 3 $tesc"
# `pkill -9 -f` of a tournament's command line: the guard, once a bare
# fork with the referee's command line, died with it and left the bot
# frozen while the other thought; now it runs as tetrarena-guard.
tall="$marker-all"
kill_all="tournament .* -o $tmp/tourall "
check "pkill -9 -f of a tournament's command line: no bot process left after 1 s" \
	killed "$tall" "$ref" tournament --variant link --games 50 --seed 1 -j 1 -q -o "$tmp/tourall" \
	--time "bank:600000,move:600000,start:$(ms 5000)" \
	--bot "esc=$fake escape2 1 $tall" --bot "hang=$fake hang 3 $tall"
kill_all=

# a kept multi bot (burn 0: multi, writing its cpu limits at each game):
# every game's stderr in its own file
"$ref" tournament --variant link --games 2 --seed 1 -j 1 -q -o "$tmp/multi" \
	--time "$time" --bot "m=$fake burn 0 $marker" --bot "l=$fake legal 0 $marker" >/dev/null 2>&1
one=0
for f in "$tmp"/multi/games/*seat*.stderr; do
	[ "$(grep -c '^stderr of game' "$f")" -le 1 ] && one=$((one + 1))
done
files=$(ls "$tmp"/multi/games/*seat*.stderr | wc -l)
check "multi: each game's stderr file holds that game's only ($one of $files)" [ "$one" = "$files" ] && [ "$files" -ge 8 ]
check "multi: the second game's file has the second game's line" \
	sh -c "grep -l '^stderr of game 2 ' '$tmp'/multi/games/*.stderr | grep -q ."
# its 4 games (2 seeds, 2 seatings each) in two processes, since no
# process plays two games of one seed: the first started with 4 games left
# (a hard limit of 600 s x 4 + 1), the second with 3 (600 s x 3 + 1); in
# each, the soft limit 600 s, then the CPU time used (rounded up to 1 s) + 600
limits=$(grep -h '^cpu limit' "$tmp"/multi/games/*.stderr | sort | uniq -c | awk '{printf "%s:%s/%s ", $1, $4, $5}')
check "multi: the kept bot's cpu limits, soft/hard ($limits)" [ "$limits" = "1:600/1801 1:600/2401 1:601/1801 1:601/2401 " ]

# a python and a node bot run in the jail from wherever they live
cat >"$tmp/first.py" <<'EOF'
import sys
moves = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "game": print("hello first 1 moves", flush=True)
    elif w and w[0] == "moves": moves = w[1:]
    elif w and w[0] == "go": print("move " + moves[0], flush=True)
    elif w and w[0] == "quit": break
EOF
cat >"$tmp/first.js" <<'EOF'
let moves = [];
require('readline').createInterface({input: process.stdin}).on('line', (line) => {
  const w = line.split(' ');
  if (w[0] === 'game') console.log('hello first 1 moves');
  else if (w[0] === 'moves') moves = w.slice(1);
  else if (w[0] === 'go') console.log('move ' + moves[0]);
  else if (w[0] === 'quit') process.exit(0);
});
EOF
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/py.log" "python3 $tmp/first.py" \
	"node $tmp/first.js" >/dev/null 2>&1
check "python3 and node bots play a jailed game with no fault" \
	sh -c "grep -q '^sandbox on' '$tmp/py.log' && grep -q '^result .*faults=-,- ' '$tmp/py.log'"
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/sh.log" "sh $top/bots/sh/random.sh" \
	"perl -e 'while(<STDIN>){@w=split;if(\$w[0] eq \"game\"){\$|=1;print \"hello p 1 moves\\n\"}elsif(\$w[0] eq \"moves\"){@m=@w[1..\$#w]}elsif(\$w[0] eq \"go\"){print \"move \$m[0]\\n\"}elsif(\$w[0] eq \"quit\"){exit}}'" \
	>/dev/null 2>&1
check "sh and perl bots play a jailed game with no fault" grep -q '^result .*faults=-,- ' "$tmp/sh.log"

st=$(status "$ref" play --sandbox off --variant link --seed 1 --log "$tmp/off.log" \
	"$fake legal 0 $marker" "$fake legal 0 $marker")
check "--sandbox off plays bare and says so in the header" sh -c "[ $st = 0 ] && grep -q '^sandbox off' '$tmp/off.log'"
st=$(status "$ref" play --sandbox sideways --variant link "$fake legal 0 $marker" "$fake legal 0 $marker")
check "--sandbox with an unknown mode is a usage error" sh -c "[ $st = 2 ] && grep -q sideways '$tmp/err'"
# the referee under valgrind: its bots start, 0 errors, one header
if command -v valgrind >/dev/null 2>&1 && [ "$(basename "$build")" = opt ] && ! ldd "$ref" | grep -q asan; then
	valgrind -q --error-exitcode=9 "$ref" play --variant link --seed 3 --time "$time" \
		--log "$tmp/vg.log" "$fake legal 0 $marker" "$fake legal 0 $marker" >/dev/null 2>"$tmp/vg.err"
	st=$?
	check "under valgrind: 0 errors, bots start, one header" \
		sh -c "[ $st = 0 ] && [ \$(grep -c '^tetrarena-log' '$tmp/vg.log') = 1 ] && grep -q '^result .*faults=-,- ' '$tmp/vg.log'"
else
	skip "valgrind (not installed, or a sanitized build)"
fi
check "no fake bot outlives the tests" [ -z "$(pgrep -f "$marker")" ]
exit $fail
