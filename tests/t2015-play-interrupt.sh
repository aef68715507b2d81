#!/bin/sh
# t2015-play-interrupt: Ctrl-C (SIGINT) or SIGTERM on `referee play`
# mid-game ends the game where it stands: the log ends whole with
# `result ... reason=aborted` that verify accepts as an aborted game, one
# line on the terminal says so, the exit status is 128 + the signal, and
# the bots are gone with everything they started.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..14"
marker="t2015-$$"
# a move time that never runs out here: the second bot plays two moves,
# forks a child that sleeps, then hangs, so the game waits for it
time="bank:600000,inc:0,move:600000,start:$(ms 5000),grace:$(ms 100)"

# family: how many prog-fakebot processes (not the jail's) play `family`
family() {
	c=0
	for p in $(pgrep -f "family 2 $marker"); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = prog-fakebot ] && c=$((c + 1))
	done
	echo $c
}
# interrupt SIG NAME: play, send SIG once the hanging bot's child exists
interrupt() {
	sig=$1
	name=$2
	"$ref" play --variant link --seed 7 --time "$time" --log "$tmp/$name.log" \
		"$fake legal 0 $marker" "$fake family 2 $marker" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	i=0
	while [ "$(family)" -lt 2 ] && [ $i -lt 3000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	kill -"$sig" $pid
	wait $pid
	st=$?
}

interrupt INT int
check "SIGINT: exit status 130 (got $st)" [ "$st" = 130 ]
# (beside the note a normal user's referee gives when it has no cgroups)
check "SIGINT: one line on the terminal says the game was aborted" \
	[ "$(grep -cv '^referee: note: no writable cgroup' "$tmp/int.err")" = 1 -a -n "$(grep 'interrupted (SIGINT): game aborted' "$tmp/int.err")" ]
check "SIGINT: no standings printed for a game not played out" [ ! -s "$tmp/int.out" ]
check "the log's last line is end, whole (a newline ends the file)" \
	[ "$(tail -n 1 "$tmp/int.log")" = end -a "$(tail -c 1 "$tmp/int.log" | od -An -c | tr -d ' ')" = '\n' ]
check "its result says reason=aborted, after the moves" \
	[ -n "$(grep -v '^traffic\|^end$' "$tmp/int.log" | tail -n 1 | grep '^result ranks=.* reason=aborted$')" ]
check "the bots had played before the abort" [ "$(grep -c '^move 1 ' "$tmp/int.log")" = 2 ]
"$ref" verify "$tmp/int.log" >"$tmp/verify.out" 2>&1
check "verify accepts it (exit 0)" [ $? = 0 ]
check "verify says it is an aborted game" grep -q 'ok, an aborted game' "$tmp/verify.out"
i=0
while pgrep -f "$marker" >/dev/null && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
check "no bot process is left, the forked child included" [ -z "$(pgrep -f "$marker")" ]

# a log edited after the abort fails verify as any log does
sed 's/^\(result ranks=\)[0-9]*,[0-9]*/\19,9/' "$tmp/int.log" >"$tmp/bad.log"
"$ref" verify "$tmp/bad.log" >/dev/null 2>"$tmp/bad.err"
check "an aborted result with made-up ranks fails verify" \
	sh -c "[ $? = 1 ] && grep -q 'rank' '$tmp/bad.err'"

interrupt TERM term
check "SIGTERM: exit status 143 (got $st)" [ "$st" = 143 ]
check "SIGTERM: the terminal says so" grep -q 'interrupted (SIGTERM): game aborted' "$tmp/term.err"
"$ref" verify "$tmp/term.log" >/dev/null 2>&1
check "SIGTERM: verify accepts the log" [ $? = 0 ]
"$ref" view --html "$tmp/term.log" -o "$tmp/term.html" >/dev/null 2>&1
check "an aborted game's replay page is written" grep -q 'reason=aborted' "$tmp/term.html"
exit $fail
