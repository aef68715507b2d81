#!/bin/sh
# t3001-tournament-resume: a tournament killed with SIGKILL part way and
# started again ends with exactly the games of an uninterrupted run and the
# same standings; SIGINT stops cleanly, writes partial standings and the
# report of the games played and prints the resume command, and the resumed
# run completes the same standings; the journal holds every game once.
# check-long: 30 seeds a pairing (make check: 10)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
seeds=$(long_or 10 30)
build=${TETRARENA_BUILD:-$top/build/opt}
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
marker="t3001-$$"
games() { cat "$1/journal.txt" 2>/dev/null | grep -c '^game '; }
# Results without the timing columns (log, mean_ms, max_ms) and lines.
results() { cut -d, -f1-11 "$1/games.csv"; }
standings() { grep -v '_ms"' "$1/standings.json"; }
# wait_games DIR N PID: until the journal has N games or PID is gone
wait_games() {
	i=0
	while [ "$(games "$1")" -lt "$2" ] && kill -0 "$3" 2>/dev/null && [ $i -lt 2000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}

echo "1..17"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
# run DIR [FLAGS]: exec, so that in the background $! is the referee;
# call it in a subshell.
run() {
	out=$1
	shift
	exec "$ref" tournament --variant link --options width:6,height:8 --games $seeds --seed 11 \
		--time "$time" -j 2 --bootstrap 50 -o "$out" \
		--bot "a=$fake legal 0 $marker" --bot "b=$fake multi 0 $marker" \
		--bot "c=$fake legal 3 $marker" "$@"
}

(run "$tmp/full") >"$tmp/full.out" 2>"$tmp/full.err"
check "an uninterrupted run exits 0" [ $? = 0 ]
total=$(games "$tmp/full")
check "it plays the whole schedule (3 pairs x 2 seatings x $seeds seeds)" [ "$total" = $((6 * seeds)) ]
check "standings on stdout" grep -q "^  1 " "$tmp/full.out"
check "nothing but standings on stdout" [ -z "$(grep -E 'games/s|referee' "$tmp/full.out")" ]

# Kill -9 part way, three times, then let it finish.
run "$tmp/cut" >/dev/null 2>"$tmp/cut.err" &
pid=$!
wait_games "$tmp/cut" $((total / 9)) $pid
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
first=$(games "$tmp/cut")
run "$tmp/cut" >/dev/null 2>>"$tmp/cut.err" &
pid=$!
wait_games "$tmp/cut" $((first + total * 2 / 9)) $pid
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
second=$(games "$tmp/cut")
check "the kills came part way ($first, then $second of $total games)" \
	[ "$first" -lt "$total" -a "$second" -lt "$total" ]
(run "$tmp/cut") >"$tmp/cut.out" 2>>"$tmp/cut.err"
check "the resumed run exits 0" [ $? = 0 ]
check "it says it resumed" grep -q "resuming" "$tmp/cut.err"
ids=$(grep '^game ' "$tmp/cut/journal.txt" | sed 's/^game id=\([0-9]*\) .*/\1/' | sort -n | uniq | wc -l)
check "the journal holds every game exactly once" \
	[ "$(games "$tmp/cut")" = "$total" -a "$ids" = "$total" ]
results "$tmp/full" >"$tmp/full.csv"
results "$tmp/cut" >"$tmp/cut.csv"
check "the same games with the same results" cmp -s "$tmp/full.csv" "$tmp/cut.csv"
standings "$tmp/full" >"$tmp/full.json"
standings "$tmp/cut" >"$tmp/cut.json"
check "the same standings" cmp -s "$tmp/full.json" "$tmp/cut.json"

# SIGINT: stop, finish what is in flight, say how to resume.
run "$tmp/int" >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
wait_games "$tmp/int" $((total / 18)) $pid
kill -INT $pid 2>/dev/null
wait $pid
st=$?
check "SIGINT exits 130 and prints the resume command" \
	sh -c "[ $st = 130 ] && grep -q 'resume with: .*tournament' '$tmp/int.err'"
played=$(games "$tmp/int")
check "after SIGINT: standings of the $played games played, marked partial" \
	sh -c "[ $played -lt $total ] && grep -q '^PARTIAL: $played of $total games' '$tmp/int/standings.txt' &&
	       grep -q '^note: interrupted after $played of $total games' '$tmp/int/standings.txt' &&
	       grep -q '\"partial\": true' '$tmp/int/standings.json' &&
	       grep -q '\"games\": $played,' '$tmp/int/standings.json'"
check "after SIGINT: the partial standings on stdout too" \
	sh -c "grep -q '^PARTIAL: $played of $total games' '$tmp/int.out' && grep -q '^  1 ' '$tmp/int.out'"
check "after SIGINT: report.html and games.csv of the games played" \
	sh -c "[ -s '$tmp/int/report.html' ] && [ \$(tail -n +2 '$tmp/int/games.csv' | cut -d, -f1 | sort -u | wc -l) = $played ]"
(run "$tmp/int") >/dev/null 2>>"$tmp/int.err"
check "the run resumed after SIGINT exits 0" [ $? = 0 ]
standings "$tmp/int" >"$tmp/int.json"
check "and completes the same standings as an uninterrupted run, no longer partial" \
	sh -c "cmp -s '$tmp/full.json' '$tmp/int.json' && ! grep -q PARTIAL '$tmp/int/standings.txt'"
left=$(pgrep -af "$marker"); [ -z "$left" ] || { echo "# left: $left" >&2; for q in $(pgrep -f "$marker"); do grep -E "^(State|PPid|NSpid)" /proc/$q/status >&2; cat /proc/$q/cgroup | grep -E "memory|pids" >&2; done; }
check "no fake bot outlives the referee" [ -z "$left" ]
