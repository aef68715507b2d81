#!/bin/sh
# t2020-jail-filter: the jail's system call filter (referee/sandbox-filter.c)
# and its own /proc counters (referee/sandbox-jail.c), issue 50 items 2-4.
#  - every call the filter refuses, tried jailed by tests/prog-hostile
#    (`syscalls`), gets the errno of the filter's table, high bits and the
#    32-bit ABI included, and what runtimes use still works;
#  - the futex channel: two jailed bots map the same /usr file (shared and
#    private, read-only) and one wakes futexes the other waits on; jailed
#    no wakeup crosses, bare (no jail) it does (so the test can fail);
#    the same with the kernel's wake at a thread's exit as the sender;
#  - shared waits still work, answered by the supervisor
#    (referee/sandbox-futex.c): a pthread_join does not spin, and a
#    process-shared semaphore's timed wait times out in time;
#  - /proc/meminfo's Shmem (and /proc/stat, /proc/loadavg) are the jail's
#    own: 64 MiB written in one jail's /dev/shm show in neither; the CPU
#    lines agree with the CPUs the bot may use;
#  - interpreters under the filter: python3 (threads, a multiprocessing
#    Pool, Queues and a Lock: process-shared semaphores), node
#    (worker_threads), perl (fork), sh, a C binary and, if installed,
#    Java each play a whole game jailed with no fault.
# Nothing here needs root: unjailed the referee jails in a user namespace.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
hostile=$build/tests/prog-hostile
fake=$build/tests/prog-fakebot
need "$ref" "$hostile" "$fake" "$top/bin/bot-random"

why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" \
	"$fake legal 0" "$fake legal 0" 2>&1 >/dev/null)
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..1"
	echo "Bail out! no jail on this machine: $why"
	exit 1
fi
echo "1..31"

time="bank:$(ms 20000),move:$(ms 2000),start:$(ms 5000),grace:$(ms 50)"
clean_game() { grep -q '^result .* faults=-,- reason=end' "$1" && "$ref" verify "$1" >/dev/null 2>&1; }
# the last number seat S reported in `info attack NAME=N`
reported() { sed -n "s/^< $3 +[0-9]* info attack $2=\([0-9]*\)$/\1/p" "$1" | tail -n 1; }

# ---- the refused calls ------------------------------------------------------------
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/sys.log" "$hostile syscalls" "$fake legal 0" \
	>/dev/null 2>&1
got=$(reported "$tmp/sys.log" syscalls 0)
sed -n 's/^< 0 +[0-9]* info syscall /# wrong answer: /p' "$tmp/sys.log"
check "every refused call got the table's errno, every allowed one worked (${got:-no report} wrong)" \
	[ "${got:-x}" = 0 ]
check "the game around it was a normal one and verifies" clean_game "$tmp/sys.log"

# ---- the futex channel ----------------------------------------------------------------
usrfile=$(readlink -f /usr/bin/env)
for order in 1 2; do
	if [ $order = 1 ]; then a="$hostile futexsend $usrfile"; b="$hostile futexrecv $usrfile"; r=1; s=0
	else a="$hostile futexrecv $usrfile"; b="$hostile futexsend $usrfile"; r=0; s=1; fi
	"$ref" play --variant link --seed 5 --time "$time" --log "$tmp/fx$order.log" "$a" "$b" >/dev/null 2>&1
	woke=$(reported "$tmp/fx$order.log" futexsend $s)
	seen=$(reported "$tmp/fx$order.log" futexrecv $r)
	check "futex channel (receiver in seat $r): the sender woke nobody (${woke:-no report})" [ "${woke:-x}" = 0 ]
	check "futex channel (receiver in seat $r): the receiver saw no wakeup (${seen:-no report})" \
		[ "${seen:-x}" = 0 ]
	check "futex channel (receiver in seat $r): a normal game that verifies" clean_game "$tmp/fx$order.log"
done
# (the control: bare, the channel carries; its sender and receiver meet
# only when the machine lets both run in the same moments, so a busy
# machine gets three tries)
for try in 1 2 3; do
	"$ref" play --sandbox off --variant link --seed 5 --time "$time" --log "$tmp/fxbare.log" \
		"$hostile futexsend $usrfile" "$hostile futexrecv $usrfile" >/dev/null 2>&1
	seen=$(reported "$tmp/fxbare.log" futexrecv 1)
	[ "${seen:-0}" -gt 0 ] && break
done
check "futex channel bare (no jail): the receiver does see wakeups (${seen:-no report})" [ "${seen:-0}" -gt 0 ]

# the same without the supervisor (TETRARENA_NO_FUTEX_SUPERVISOR=1): the
# filter alone answers EAGAIN at once, and the channel stays closed
TETRARENA_NO_FUTEX_SUPERVISOR=1 "$ref" play --variant link --seed 5 --time "$time" --log "$tmp/fxspin.log" \
	"$hostile futexsend $usrfile" "$hostile futexrecv $usrfile" >/dev/null 2>&1
woke=$(reported "$tmp/fxspin.log" futexsend 0)
seen=$(reported "$tmp/fxspin.log" futexrecv 1)
check "futex channel, filter alone (no supervisor): nobody woken, no wakeup seen (${woke:-none}, ${seen:-none})" \
	[ "${woke:-x}" = 0 -a "${seen:-x}" = 0 ]
# the kernel's own wake when a thread exits (its clear_child_tid set to the
# word): no futex call to refuse, so no waiter may sleep on a shared key
"$ref" play --variant link --seed 5 --time "$time" --log "$tmp/fxexit.log" \
	"$hostile futexrecv $usrfile" "$hostile futexexit $usrfile" >/dev/null 2>&1
seen=$(reported "$tmp/fxexit.log" futexrecv 0)
exited=$(reported "$tmp/fxexit.log" futexexit 1)
check "futex channel through thread exits: no wakeup seen (${seen:-no report}; ${exited:-no} threads exited)" \
	[ "${seen:-x}" = 0 -a "${exited:-0}" -gt 0 ]
check "futex channel through thread exits: a normal game that verifies" clean_game "$tmp/fxexit.log"
# (bare, a waiter may not be asleep yet when the threads exit: up to 3 games)
for try in 1 2 3; do
	"$ref" play --sandbox off --variant link --seed 5 --time "$time" --log "$tmp/fxexitbare.log" \
		"$hostile futexrecv $usrfile" "$hostile futexexit $usrfile" >/dev/null 2>&1
	seen=$(reported "$tmp/fxexitbare.log" futexrecv 0)
	[ "${seen:-0}" -gt 0 ] && break
done
check "futex channel through thread exits, bare: the receiver does see wakeups (${seen:-no report})" \
	[ "${seen:-0}" -gt 0 ]

# ---- shared waits that still work: polled, and timed -------------------------
# pthread_join waits on a shared futex: answered by the supervisor, the
# joining thread sleeps between its looks (without it, it spins)
"$ref" play --variant link --seed 7 --time "bank:$(ms 60000),move:$(ms 5000),start:$(ms 10000)" \
	--log "$tmp/join.log" "$hostile join 0.15" "$fake legal 0" >/dev/null 2>&1
cost=$(reported "$tmp/join.log" join 0)
TETRARENA_NO_FUTEX_SUPERVISOR=1 "$ref" play --variant link --seed 7 \
	--time "bank:$(ms 60000),move:$(ms 5000),start:$(ms 10000)" --log "$tmp/joinspin.log" "$hostile join 0.15" \
	"$fake legal 0" >/dev/null 2>&1
spin=$(reported "$tmp/joinspin.log" join 0)
check "pthread_join of a thread working 150 ms: the joiner used ${cost:-?} ms of CPU (under 30; ${spin:-?} ms spinning without the supervisor)" \
	[ "${cost:-999}" -lt 30 ]
check "without the supervisor the joiner spins (${spin:-?} ms of CPU, over 60): so the check above can fail" \
	[ "${spin:-0}" -gt 60 ]
cat >"$tmp/timed.py" <<'PY'
import multiprocessing as mp, sys, time
moves = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "game":
        print("hello timed 1 moves", flush=True)
        s = mp.Semaphore(0)
        t = time.monotonic()
        r = s.acquire(timeout=0.3)
        print("info timed %s %d" % ("got" if r else "timeout", (time.monotonic() - t) * 1000), flush=True)
    elif w and w[0] == "moves": moves = w[1:]
    elif w and w[0] == "go": print("move " + moves[0], flush=True)
    elif w and w[0] == "quit": break
PY
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/timed.log" "python3 $tmp/timed.py" "$fake legal 0" \
	>/dev/null 2>&1
timed=$(sed -n 's/^< 0 +[0-9]* info timed //p' "$tmp/timed.log")
check "a process-shared semaphore's acquire(timeout=0.3) times out in time (${timed:-no report} ms)" \
	sh -c "set -- $timed; [ \"\$1\" = timeout ] && [ \"\$2\" -ge 290 ] && [ \"\$2\" -lt $(ms 2000) ]"
check "the timed-wait game is a normal one" clean_game "$tmp/timed.log"

# ---- /proc counters ---------------------------------------------------------------------
"$ref" play --variant link --seed 5 --time "$time" --log "$tmp/shm.log" "$hostile shmem" "$hostile shmem" \
	>/dev/null 2>&1
values=$(sed -n 's/^< [01] +[0-9]* info shmem \([0-9-]*\) .*/\1/p' "$tmp/shm.log" | sort -u | tr '\n' ' ')
count=$(grep -c '^< [01] +[0-9]* info shmem ' "$tmp/shm.log")
check "Shmem in /proc/meminfo is 0 in both jails, before and after each wrote 64 MiB ($count reads: $values)" \
	[ "$count" -gt 10 -a "$values" = "0 " ]
first=$(sed -n 's/^< [01] +[0-9]* info shmem .* sysinfo=\([0-9]*\)$/\1/p' "$tmp/shm.log" | head -n 1)
last=$(sed -n 's/^< [01] +[0-9]* info shmem .* sysinfo=\([0-9]*\)$/\1/p' "$tmp/shm.log" | tail -n 1)
echo "# left open: sysinfo(2)'s sharedram is the machine's (${first:-?} kB, then ${last:-?} kB)"
check "the shmem game was a normal one" clean_game "$tmp/shm.log"

cat >"$tmp/look.py" <<'PY'
import os, sys
moves = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "game":
        print("hello look 1 moves", flush=True)
        mem = [l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal:")]
        stat = [l.split()[0] for l in open("/proc/stat") if l.startswith("cpu") and l[3] != " "]
        load = open("/proc/loadavg").read().strip().replace(" ", "_")
        print("info look mem=%s cpus=%d affinity=%d statcpus=%s load=%s" % (
            mem[0] if mem else "none", os.cpu_count(), len(os.sched_getaffinity(0)), ",".join(stat), load),
            flush=True)
    elif w and w[0] == "moves": moves = w[1:]
    elif w and w[0] == "go": print("move " + moves[0], flush=True)
    elif w and w[0] == "quit": break
PY
printf '[bot look]\ncommand = python3 %s\nmemory = 300\n[bot f]\ncommand = %s legal 0\n' "$tmp/look.py" "$fake" \
	>"$tmp/look.ini"
"$ref" play --variant link --seed 5 --time "$time" --bots "$tmp/look.ini" --log "$tmp/look.log" look \
	"$fake legal 0" >/dev/null 2>&1
line=$(sed -n 's/^< 0 +[0-9]* info look //p' "$tmp/look.log")
echo "# play: $line"
check "/proc/meminfo says the bot's memory limit (MemTotal 307200 kB)" \
	sh -c "echo '$line' | grep -q 'mem=307200 '"
check "/proc/loadavg is the jail's own (0.00, one process)" sh -c "echo '$line' | grep -q 'load=0.00_0.00_0.00_1/1_1$'"
cpus=$(echo "$line" | sed -n 's/.* cpus=\([0-9]*\) affinity=\([0-9]*\) .*/\1 \2/p')
check "os.cpu_count() (the cpu lines of /proc/stat) agrees with the affinity ($cpus)" \
	sh -c "set -- $cpus; [ -n \"\$1\" ] && [ \"\$1\" = \"\$2\" ]"
"$ref" tournament --variant link --games 1 --seed 3 -j 1 -q -o "$tmp/tl" --time "$time" --bots "$tmp/look.ini" \
	>/dev/null 2>&1
line=$(sed -n 's/^< [01] +[0-9]* info look //p' "$tmp"/tl/games/*.log | head -n 1)
echo "# tournament: $line"
check "pinned in a tournament: one CPU in /proc/stat, as in the affinity ($line)" \
	sh -c "echo '$line' | grep -q ' cpus=1 affinity=1 statcpus=cpu[0-9]* '"

# ---- interpreters under the filter ----------------------------------------------------
game() { # NAME COMMAND: a jailed game against bin/bot-random
	"$ref" play --variant link --seed 3 --time "bank:$(ms 60000),move:$(ms 5000),start:$(ms 20000)" \
		--log "$tmp/$1.log" "$2" "$top/bin/bot-random" >/dev/null 2>&1
}
game py "python3 $top/tests/jailbot-mp.py"
mp=$(sed -n 's/^< 0 +[0-9]* info mp //p' "$tmp/py.log")
check "python3: threads, a multiprocessing Pool, Queues, a Lock work jailed (${mp:-no report})" \
	sh -c "echo '$mp' | grep -q '^ok '"
check "python3 with multiprocessing plays a whole game jailed" clean_game "$tmp/py.log"
case $(command -v python3) in */shims/*) echo "# python3 here is a pyenv shim: $(command -v python3)";; esac
if command -v node >/dev/null 2>&1; then
	game node "node $top/tests/jailbot-worker.js"
	check "node: worker_threads choose every move, a whole game jailed" \
		sh -c "grep -q '^< 0 +[0-9]* info worker ok' '$tmp/node.log' && grep -q '^result .* faults=-,- reason=end' '$tmp/node.log'"
else
	skip "node is not installed (Debian package nodejs)"
fi
game perl "perl $top/tests/jailbot.pl"
check "perl (with a fork) plays a whole game jailed" \
	sh -c "grep -q '^< 0 +[0-9]* info fork ok' '$tmp/perl.log' && grep -q '^result .* faults=-,- reason=end' '$tmp/perl.log'"
game sh "sh $top/bots/sh/random.sh 5"
check "sh plays a whole game jailed" clean_game "$tmp/sh.log"
game c "$top/bin/bot-random --seed 9"
check "a C binary plays a whole game jailed" clean_game "$tmp/c.log"
if command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1; then
	game java "java $top/tests/JailBot.java"
	check "Java (a thread pool, run from source) plays a whole game jailed" clean_game "$tmp/java.log"
else
	skip "Java is not installed (Debian package default-jdk)"
fi
sleep 0.2
check "no prog-hostile process outlives the tests" [ -z "$(pgrep -f "$hostile")" ]
exit $fail
