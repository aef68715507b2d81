#!/bin/sh
# t3011-tournament-nostart: a bot that cannot start (no such program, exits
# before hello, declines) is no game: `play` names it with the reason and
# exits 1; a tournament names it at once, stops before playing on, keeps
# the games it could not start out of the journal and says which bot and
# why in its partial standings; --keep-going plays its games as forfeits.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..17"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
play() { "$ref" play --variant link --option width=6 --option height=8 --seed 3 --time "$time" \
	--log "$tmp/play.log" "$@" >"$tmp/play.out" 2>"$tmp/play.err"; }

play no/such/bot "$fake legal"
st=$?
check "play: a missing program exits 1 (got $st)" [ $st = 1 ]
check "play: one line names the bot, its command and the reason" \
	[ "$(grep -c 'cannot start' "$tmp/play.err")" = 1 -a \
	  -n "$(grep "bot bot (seat 0, no/such/bot) cannot start: .*No such file or directory" "$tmp/play.err")" ]
play "$fake legal" "sh -c 'echo t3011-dying >&2; exit 3'"
st=$?
check "play: a bot that exits before hello exits 1 (got $st)" [ $st = 1 ]
check "play: it says how it exited and its stderr's line" \
	grep -q "bot sh (seat 1, .*) cannot start: .*exited with status 3.*t3011-dying" "$tmp/play.err"
# a crash that ends with a version line, as Node.js's does: the error
# line is the one shown, not the last
cat >"$tmp/nodelike.sh" <<'EOF'
echo 'node:internal/modules/cjs/loader:1228' >&2
echo '  throw err;' >&2
echo '' >&2
echo "Error: Cannot find module '/x/bot.js'" >&2
echo 'Require stack:' >&2
echo 'Node.js v20.20.2' >&2
exit 1
EOF
play "$fake legal" "sh $tmp/nodelike.sh"
check "play: the first error line of its stderr, not the last ('$(grep -o 'stderr: .*' "$tmp/play.err")')" \
	sh -c "grep -q \"cannot start: .*(stderr: Error: Cannot find module '/x/bot.js')\" '$tmp/play.err' &&
	       ! grep -q 'stderr: Node.js' '$tmp/play.err'"
# jailed, a file its command does not name is not there: said, with how to
# give a workdir
if [ "$(sed -n 's/^sandbox \([a-z]*\).*/\1/p' "$tmp/play.log")" = on ]; then
	mkdir "$tmp/wd"
	echo 'exec "$1" legal' >"$tmp/wd/helper.sh"
	echo '. ./helper.sh' >"$tmp/wd/main.sh"
	(cd "$tmp/wd" && "$ref" play --variant link --option width=6 --option height=8 --seed 3 --time "$time" \
		--log "$tmp/wd.log" "sh main.sh $fake" "$fake legal" >/dev/null 2>"$tmp/wd.err")
	check "play: jailed, a missing file says the bot sees only its command's files and its workdir" \
		grep -q 'cannot start: .*helper.sh.*jailed, a bot sees only the files its command names and its workdir: .*workdir=' "$tmp/wd.err"
	printf '[bot wd]\ncommand = sh main.sh %s\nworkdir = %s\n' "$fake" "$tmp/wd" >"$tmp/wd.ini"
	"$ref" play --variant link --option width=6 --option height=8 --seed 3 --time "$time" \
		--bots "$tmp/wd.ini" --log "$tmp/wd2.log" wd "$fake legal" >/dev/null 2>"$tmp/wd2.err"
	check "play: with that workdir= it starts" [ $? = 0 ]
else
	skip "jailed missing file: no jail here"
	skip "jailed missing file: no jail here"
fi
play "$fake decline" "$fake legal"
check "play: a bot that declines exits 1 and says so" \
	sh -c "[ $? = 1 ] && grep -q 'cannot start: declined' '$tmp/play.err'"
play "$fake legal" "$fake legal"
check "play: two bots that start exit 0 and say nothing of it" \
	sh -c "[ $? = 0 ] && ! grep -q 'cannot start' '$tmp/play.err'"

tour() {
	out=$1
	shift
	"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 4 --seed 5 \
		--time "$time" -j 2 --bootstrap 20 -q -o "$out" \
		--bot "a=$fake legal" --bot "b=$fake multi" --bot "gone=$tmp/no-such-bot" "$@"
}
tour "$tmp/stop" >"$tmp/stop.out" 2>"$tmp/stop.err"
st=$?
check "tournament: a bot that cannot start stops the run with status 1 (got $st)" [ $st = 1 ]
check "tournament: stderr names the bot and why, and how to go on" \
	sh -c "grep -q 'bot gone (.*no-such-bot) cannot start: .*No such file' '$tmp/stop.err' &&
	       grep -q 'resume with' '$tmp/stop.err' && grep -q -- '--keep-going' '$tmp/stop.err'"
played=$(grep -c '^game ' "$tmp/stop/journal.txt")
check "tournament: it stopped before playing on ($played of 24 games)" [ "$played" -lt 24 ]
check "tournament: no game of the bot that cannot start is in the journal" \
	[ -z "$(grep '^game ' "$tmp/stop/journal.txt" | grep 'faults=start')" ]
check "tournament: the standings say partial, which bot and why" \
	sh -c "grep -q '^PARTIAL' '$tmp/stop/standings.txt' &&
	       grep -q '^note: bot gone (.*) cannot start: .*No such file' '$tmp/stop/standings.txt' &&
	       grep -q '\"partial\": true' '$tmp/stop/standings.json' &&
	       grep -q 'cannot start' '$tmp/stop/standings.json'"
check "tournament: the report is written too" [ -s "$tmp/stop/report.html" ]

tour "$tmp/keep" --keep-going >"$tmp/keep.out" 2>"$tmp/keep.err"
st=$?
check "tournament --keep-going: plays every game (status $st, $(grep -c '^game ' "$tmp/keep/journal.txt") of 24)" \
	[ $st = 0 -a "$(grep -c '^game ' "$tmp/keep/journal.txt")" = 24 ]
check "tournament --keep-going: names the bot once, and the standings say so" \
	sh -c "[ \$(grep -c 'cannot start' '$tmp/keep.err') = 1 ] &&
	       grep -q '^note: bot gone .*forfeits' '$tmp/keep/standings.txt' &&
	       ! grep -q '^PARTIAL' '$tmp/keep/standings.txt'"
exit $fail
