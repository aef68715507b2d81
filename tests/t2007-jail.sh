#!/bin/sh
# t2007-jail: the jail's second round (referee/sandbox*.c). Each attack of
# tests/prog-hostile.c is played against an honest bot: the attack must
# achieve nothing (its own `info attack MODE=N` report says 0), the honest
# seat must finish with no fault, and the log must verify. The attacks: a
# terminal under a real pty (TIOCSTI, the foreground), /proc/sys, host
# root, reading secrets (a file in /root, /etc/shadow, a second bot's
# source in its own and in a shared /tmp directory, the tournament file,
# an earlier output, the current output's path in /proc/1/cmdline), a
# unix socket, user namespaces, keyring, flock, fcntl and inotify channels
# between two bots, /dev/shm past the disk cap (the CPU share of a seat
# that spins on its opponent's time is t2014, run alone). Then
# interpreters still work jailed: python3 (a pyenv shim here) through a
# path with "..", a C binary, a bot with workdir= (node, perl, sh: t2005).
#
# Run as root (as CI runs it) every item runs; as another user the items
# that need root (a planted file in /root, the host-root checks) skip and
# say so.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$build/tests/prog-hostile" "$fake" "$top/bin/bot-link"
# a copy of its own, so that the last check finds this test's processes
# only (t2020 runs prog-hostile too, maybe at the same time)
mkdir "$tmp/bin" && cp "$build/tests/prog-hostile" "$tmp/bin/" || { echo "Bail out! cannot copy prog-hostile"; exit 1; }
hostile=$tmp/bin/prog-hostile

why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" \
	"$fake legal 0" "$fake legal 0" 2>&1 >/dev/null)
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..1"
	echo "Bail out! no jail on this machine: $why"
	exit 1
fi
# Without a writable cgroup (a normal user, mostly), bots are limited per
# process only: the checks of what cgroups do (a cpuset, a memory kill)
# skip and say so.
cgroups=1
case $why in *"no writable cgroup"*) cgroups=0 ;; esac
echo "1..38"

time="bank:$(ms 20000),move:$(ms 2000),start:$(ms 5000),grace:$(ms 50)"
verify() { "$ref" verify "$1" >/dev/null 2>&1; }
# the number an attacker in seat 0 reported, first (or last) report
reported() { sed -n "s/^< 0 +[0-9]* info attack $2=\([0-9]*\)$/\1/p" "$1" | head -n 1; }
reported_last() { sed -n "s/^< $3 +[0-9]* info attack $2=\([0-9]*\)$/\1/p" "$1" | tail -n 1; }
# seat 1 (honest) finished with no fault, and the game was a full one
honest() { grep -q "^result .* faults=-,- " "$1"; }
play() { # LOG ATTACKER...: the attacker in seat 0 against an honest bot
	log=$1; shift
	"$ref" play --variant link --seed 7 --time "$time" --log "$log" "$*" \
		"$fake legal 0" >/dev/null 2>"$log.err"
}
attack() { # NAME LOG ATTACKER...: zero achieved, an honest game, verified
	name=$1; log=$2; shift 2
	play "$log" "$@"
	got=$(reported "$log" "$name")
	check "$name: the attack achieved nothing (${got:-no report})" [ "${got:-x}" = 0 ]
	check "$name: a normal game, no fault, the log verifies" sh -c "grep -q '^result .* faults=-,- ' '$log' && '$ref' verify '$log' >/dev/null 2>&1"
}

# ---- the organizer's terminal ---------------------------------------------
# The referee in a real pty (script(1)); after the game the pty's shell
# reads a line and runs it: a pushed "touch FILE" would create FILE.
if command -v script >/dev/null 2>&1; then
	pwned=$tmp/pwned
	script -qec "'$ref' play --variant link --seed 7 --time '$time' --log '$tmp/tty.log' \
		'$hostile tty $pwned' '$fake legal 0' >/dev/null 2>&1; read -t 1 line; eval \"\$line\"" \
		/dev/null </dev/null >/dev/null 2>&1
	got=$(reported "$tmp/tty.log" tty)
	check "tty: no TIOCSTI, no terminal, no foreground (${got:-no report})" [ "${got:-x}" = 0 ]
	check "tty: nothing ran in the organizer's shell" [ ! -e "$pwned" ]
	check "tty: the honest seat plays a normal game" honest "$tmp/tty.log"
else
	skip "tty: script(1) is missing (Debian package bsdutils)"
	skip "tty: script(1) is missing"
	skip "tty: script(1) is missing"
fi

# ---- the kernel's global settings, host root, namespaces ------------------
attack procsys "$tmp/procsys.log" "$hostile procsys"
attack root "$tmp/root.log" "$hostile root"
attack userns "$tmp/userns.log" "$hostile userns"

# ---- the host's files ----------------------------------------------------------
mkdir -p "$tmp/victim" "$tmp/shared" "$tmp/out1"
echo "secret strategy" >"$tmp/victim/bot.py"
echo "secret strategy" >"$tmp/shared/victim.py"
cp "$hostile" "$tmp/shared/hostile"
printf '[tournament]\nvariant = link\nseed = 99\n' >"$tmp/t.ini"
echo "an earlier tournament" >"$tmp/out1/journal.txt"
secret=
if [ "$(id -u)" = 0 ] && [ -d /root ]; then
	secret=/root/.t2007-secret-$$
	echo "root's secret" >"$secret"
	trap 'rm -f "$secret"; cleanup' EXIT
fi
for f in "$tmp/victim/bot.py" "$tmp/victim" "$tmp/shared/victim.py" "$tmp/t.ini" "$tmp/out1/journal.txt" \
	/etc/shadow /etc/ssh /etc/npmrc /home /run /var/log /sys/fs/cgroup /root ${secret:+"$secret"}; do
	echo "$f"
done >"$tmp/shared/list"
attack read "$tmp/read.log" "$tmp/shared/hostile read $tmp/shared/list"
if [ -n "$secret" ]; then
	ok "read: a secret planted in /root was among the files tried"
else
	skip "read: not root, no secret planted in /root"
fi
# in a tournament: its file, its output, and the output's path in
# /proc/1/cmdline
printf '%s\n' "$tmp/t.ini" "$tmp/out2" "$tmp/out2/journal.txt" "$tmp/out2/games" "$tmp/out1/journal.txt" \
	>"$tmp/list2"
echo "$tmp/out2" >"$tmp/pattern"
"$ref" tournament --variant link --games 1 --seed 3 -j 1 -q -o "$tmp/out2" --time "$time" \
	--bot "spy=$hostile read $tmp/list2" --bot "cmd=$hostile grep /proc/1/cmdline $tmp/pattern" >/dev/null 2>&1
spied=0 grepped=0 logs=0
for log in "$tmp"/out2/games/*.log; do
	logs=$((logs + 1))
	for s in 0 1; do
		v=$(reported_last "$log" read $s); spied=$((spied + ${v:-0}))
		v=$(reported_last "$log" grep $s); grepped=$((grepped + ${v:-0}))
	done
done
check "tournament: no bot read its file or any output ($spied reads in $logs games)" [ $logs -ge 2 -a $spied = 0 ]
check "tournament: /proc/1/cmdline names no host path of the output ($grepped)" [ $logs -ge 2 -a $grepped = 0 ]

# a tournament pins each game to one CPU: a bot's cpuset holds it there
"$ref" tournament --variant link --games 1 --seed 3 -j 1 -q -o "$tmp/out3" --time "$time" \
	--bot "w=$hostile widen" --bot "x=$fake multi 0" >/dev/null 2>&1
widened=0 logs=0
for log in "$tmp"/out3/games/*.log; do
	logs=$((logs + 1))
	for s in 0 1; do v=$(reported_last "$log" widen $s); widened=$((widened + ${v:-0})); done
done
if [ $cgroups = 0 ]; then
	skip "cpuset: no writable cgroup here (not root?): no cpuset per bot"
elif [ "$(nproc)" -gt 1 ]; then
	check "cpuset: a pinned bot cannot widen its CPUs (${widened} more in $logs games)" [ $logs -ge 2 -a $widened = 0 ]
else
	skip "cpuset: one CPU on this machine, nothing to widen"
fi

# a unix socket on the host
python3 -c "
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(5); time.sleep(60)" "$tmp/sock" &
sockpid=$!
i=0; while [ ! -S "$tmp/sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo "$tmp/sock" >"$tmp/sockname"
attack connect "$tmp/connect.log" "$hostile connect $tmp/sockname"
kill $sockpid 2>/dev/null

# ---- channels between two bots ------------------------------------------------
# both run the same program file: a lock on it, or watching it, would pass
# bits; the sender also leaves a key in its keyrings
for order in 1 2; do
	if [ $order = 1 ]; then a="$hostile send $hostile"; b="$hostile recv $hostile"; s=1
	else a="$hostile recv $hostile"; b="$hostile send $hostile"; s=0; fi
	"$ref" play --variant link --seed 5 --time "$time" --log "$tmp/chan$order.log" "$a" "$b" >/dev/null 2>&1
	got=$(reported_last "$tmp/chan$order.log" recv $s)
	check "channels (receiver in seat $s): keyring, flock, fcntl, inotify passed nothing (${got:-no report})" \
		[ "${got:-x}" = 0 ]
	check "channels (receiver in seat $s): a normal game that verifies" \
		sh -c "grep -q '^result .* faults=-,- ' '$tmp/chan$order.log' && '$ref' verify '$tmp/chan$order.log' >/dev/null 2>&1"
done
# the same pair bare shows the channels are real (so the test can fail)
"$ref" play --sandbox off --variant link --seed 5 --time "$time" --log "$tmp/chanbare.log" \
	"$hostile send $hostile" "$hostile recv $hostile" >/dev/null 2>&1
got=$(reported_last "$tmp/chanbare.log" recv 1)
check "channels bare (no jail): the receiver does see signals (${got:-no report})" [ "${got:-0}" -gt 0 ]

# ---- /dev/shm under the disk cap --------------------------------------------------
printf '[bot shm]\ncommand = %s shm\ndisk = 16\n[bot honest]\ncommand = %s legal 0\n' \
	"$hostile" "$fake" >"$tmp/shm.ini"
"$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/shm.ini" --log "$tmp/shm.log" shm honest \
	>/dev/null 2>&1
got=$(reported "$tmp/shm.log" shm)
check "shm: /dev/shm stops at disk=16 MiB (wrote ${got:-none} MiB)" [ "${got:-99}" -le 16 ]
check "shm: the honest seat plays a normal game" honest "$tmp/shm.log"

# ---- bounded logs --------------------------------------------------------------
# 64 info lines of 60 kB before every move, and in matrix 64 `say` lines of
# 60 kB: each seat's text stops at 1 MiB a game, noted, and the log verifies
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/info.log" "$hostile infoflood" "$fake legal 0" \
	>/dev/null 2>&1
size=$(wc -c <"$tmp/info.log")
check "info flood: the log stays under 1.2 MB ($size bytes), the cap noted" \
	sh -c "[ $size -lt 1200000 ] && grep -q '^# seat 0: [0-9]* lines past the 1048576 bytes' '$tmp/info.log'"
check "info flood: a normal game that verifies" \
	sh -c "grep -q '^result .* faults=-,- ' '$tmp/info.log' && '$ref' verify '$tmp/info.log' >/dev/null 2>&1"
"$ref" play --variant matrix --seed 3 --time "$time" --log "$tmp/say.log" "$hostile sayflood 1" \
	"$top/bin/bot-random" "$top/bin/bot-random" >/dev/null 2>&1
size=$(wc -c <"$tmp/say.log")
check "talk flood (matrix): the log stays under 1.5 MB ($size bytes), past the cap refused as flood" \
	sh -c "[ $size -lt 1500000 ] && grep -q '^> 0 .*refused say flood' '$tmp/say.log'"
check "talk flood (matrix): the log verifies" verify "$tmp/say.log"
# a matrix seat that floods lines after its move is stopped in the same
# read as its move: referee and verify agree on it, every time
good=0
for after in 0 1 2 3; do
	for seed in 1 2 3; do
		"$ref" play --variant matrix --seed $seed --time "$time" --log "$tmp/fl.log" "$fake floodlines $after" \
			"$top/bin/bot-random" "$top/bin/bot-random" >/dev/null 2>&1
		verify "$tmp/fl.log" && good=$((good + 1))
	done
done
check "a matrix bot flooding after its move: $good logs of 12 verify" [ $good = 12 ]

# a memory kill before hello: the start fault names the limit
printf '[bot hog]\ncommand = %s prehog\nmemory = 64\ndisk = 1024\n[bot honest]\ncommand = %s legal 0\n' \
	"$hostile" "$fake" >"$tmp/prehog.ini"
"$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/prehog.ini" --log "$tmp/prehog.log" hog honest \
	>/dev/null 2>&1
if [ $cgroups = 1 ]; then
	check "killed by its memory limit before hello: '$(grep '^fault 0' "$tmp/prehog.log" | head -n 1)'" \
		grep -q '^fault 0 start .*memory limit' "$tmp/prehog.log"
else
	skip "memory limit before hello: no memory cgroup here (not root?): /tmp counts against disk=, not memory="
fi

# ---- interpreters and the bot's own files still work --------------------------
py=$(command -v python3)
mkdir -p "$tmp/wd"
cat >"$tmp/wd/helper.py" <<'EOF'
def pick(moves):
    return moves[0]
EOF
cat >"$tmp/wd/main.py" <<'EOF'
import sys
from helper import pick
moves = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "game": print("hello wd 1 moves", flush=True)
    elif w and w[0] == "moves": moves = w[1:]
    elif w and w[0] == "go": print("move " + pick(moves), flush=True)
    elif w and w[0] == "quit": break
EOF
cp "$tmp/wd/main.py" "$tmp/first.py"
sed -i 's/^from helper import pick$/pick = lambda m: m[0]/' "$tmp/first.py"
printf '[bot wd]\ncommand = python3 main.py\nworkdir = %s\n[bot c]\ncommand = %s\n' "$tmp/wd" "$top/bin/bot-random" \
	>"$tmp/wd.ini"
"$ref" play --variant link --seed 7 --time "$time" --bots "$tmp/wd.ini" --log "$tmp/wd.log" wd c >/dev/null 2>&1
check "workdir= bot (python3 importing from its directory) and a C binary: no fault" \
	grep -q '^result .* faults=-,- ' "$tmp/wd.log"
# (python3 as PATH finds it, node, sh and perl: t2005)
case $py in
*/shims/*) echo "# python3 here is a shim: $py";;
esac
# a script path with ".." under /tmp
mkdir -p "$tmp/a/b"
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/dots.log" "python3 $tmp/a/b/../../first.py" \
	"$fake legal 0" >/dev/null 2>&1
check "a script named through '..' starts jailed" grep -q '^result .* faults=-,- ' "$tmp/dots.log"

# ---- the jail's own view ----------------------------------------------------------
cat >"$tmp/look.py" <<'EOF'
import os, sys
moves = []
for line in sys.stdin:
    w = line.split()
    if w and w[0] == "game":
        print("hello look 1 moves", flush=True)
        print("uid", os.getuid(), file=sys.stderr)
        print("root", " ".join(sorted(os.listdir("/"))), file=sys.stderr)
        print("etc", " ".join(sorted(os.listdir("/etc"))), file=sys.stderr)
        print("cwd", os.getcwd(), file=sys.stderr)
        print("tmp", " ".join(sorted(os.listdir("/tmp"))), file=sys.stderr)
    elif w and w[0] == "moves": moves = w[1:]
    elif w and w[0] == "go": print("move " + moves[0], flush=True)
    elif w and w[0] == "quit": break
EOF
"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/look.log" "python3 $tmp/look.py" "$fake legal 0" \
	>/dev/null 2>&1
view=$tmp/look.log.seat0.stderr
uid=$(sed -n 's/^uid //p' "$view")
check "the bot is no root (uid ${uid:-?})" [ -n "$uid" ] && [ "$uid" != 0 ]
check "its root holds no /home, /run, /var, /sys, /opt, /srv ($(sed -n 's/^root //p' "$view"))" \
	sh -c "grep -q '^root ' '$view' && ! grep -Eq '^root .*\b(home|run|var|sys|srv|mnt|media|boot)\b' '$view'"
check "its /etc has no shadow, ssh, sudoers ($(sed -n 's/^etc //p' "$view" | wc -w) entries)" \
	sh -c "grep -q '^etc .*passwd' '$view' && ! grep -Eq '^etc .*\b(shadow|gshadow|ssh|sudoers|npmrc|pip.conf)\b' '$view'"
check "it works in /tmp/bot, and its /tmp holds its own only" \
	sh -c "grep -q '^cwd /tmp/bot$' '$view' && grep -q '^tmp ' '$view' && [ \$(sed -n 's/^tmp //p' '$view' | wc -w) -le 2 ]"
check "the jailed python game has no fault" grep -q '^result .* faults=-,- ' "$tmp/look.log"
# nothing left of the bots' cgroups or processes
sleep 0.2
check "no prog-hostile process outlives the tests" [ -z "$(pgrep -f "$hostile")" ]
exit $fail
