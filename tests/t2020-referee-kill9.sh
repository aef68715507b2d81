#!/bin/sh
# t2020-referee-kill9: a referee killed outright (kill -9) in the middle of
# a game leaves no bot running, nor a process a bot started: jailed and
# bare, with cgroups (root: the guard sweeps the bots' cgroups) and
# without (a normal user: PR_SET_PDEATHSIG ends each bot, bwrap's PID
# namespace what a jailed bot started, and the guard the process group of
# a bare bot, which holds what it forked). The bot (prog-fakebot family)
# forks a child that sleeps for ever, then hangs on its move.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$build/tests/prog-fakebot"
# a copy under tmp of its own: the processes whose first word is that
# path are the bot's (a process's words end in NUL: -z, and -x for the
# whole word, so the referee's own command line does not count)
fb=$tmp/family
cp "$build/tests/prog-fakebot" "$fb"
# the PIDs of the bot's processes (the bot and its child, jailed or not)
# (grep writes to a file: the head of a pipeline forks before its glob
# expands, and would list itself)
bots() {
	grep -lsaxzF "$fb" /proc/[0-9]*/cmdline >"$tmp/bots"
	sed 's|^/proc/\([0-9]*\)/.*|\1|' "$tmp/bots"
}
count() { bots | wc -l; }
time="bank:$(ms 60000),move:$(ms 60000),start:$(ms 10000),grace:$(ms 100)"

echo "1..4"
for sb in off on; do
	"$ref" play --sandbox $sb --variant link --seed 3 --time "$time" --log "$tmp/$sb.log" \
		"$fb family 0" "$build/tests/prog-fakebot legal 0" >/dev/null 2>"$tmp/$sb.err" &
	pid=$!
	# the bot and its child are up (at most 10 s)
	i=0
	while [ "$(count)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	up=$(count)
	kill -9 $pid
	wait $pid 2>/dev/null
	i=0
	while [ "$(count)" -gt 0 ] && [ $i -lt "$(ms 30)" ]; do sleep 0.1; i=$((i + 1)); done
	left=$(bots | tr '\n' ' ')
	check "sandbox $sb: the bot and the child it forked ran ($up processes)" [ "$up" -ge 2 ]
	check "sandbox $sb: after kill -9 of the referee none is left running (${left:-none})" [ -z "$left" ]
	[ -z "$left" ] || sed 's/^/# /' "$tmp/$sb.err" >&2
	# shellcheck disable=SC2086
	[ -z "$left" ] || kill -9 $left 2>/dev/null
done
exit $fail
