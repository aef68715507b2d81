#!/bin/sh
# t2608-serve-person: a person's game on `referee serve`, server side
# (docs/serve.md, "A person's clock", "A seat that survives", "History").
# A bad seed typed on the start page comes back shown beside its field.
# With the defaults (no clock, no seats named: a person and our medium AI,
# the relaxed clock) the person waits 8 s at the first move and no timeout
# comes, by a script on the seat's WebSocket and in Chromium from the
# start page; the page asks before a reload (beforeunload), and a reload
# at move 3, the seat's URL opened again at move 5 and Back from another
# page at move 6 go on with the game, and a second tab at move 7 takes the
# seat over (the first says so in words).
# A script's seat dropped at move 3 and opened again resumes (`web
# resume`, the lines so far); a second connection takes the seat over and
# the first is told. No `crash` fault, and every log verifies. A person
# whose own short clock runs out has the fault `timeout`. A seat's
# own time control is in the log (seat-time), verifies and reruns. After a
# restart on the same -o DIR the earlier games are listed with their
# results and their replays served, a file that is no log is listed as
# unreadable, and a new game leaves every earlier file's bytes unchanged.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/serve-lib.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-random"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
person() { "$py" "$top/tests/serve-person.py" "$@"; }
relaxed='bank:3600000,inc:0,move:3600000,start:30000,grace:1000,game:0'

serve_start
# the two 8 s waits side by side: a script's seat, and Chromium's page
loc=$(client start "$url" "variant=link&seed=1")
check "a form with no seat named starts a person and our medium AI: $loc" test "$loc" != "${loc#/games/g1/play?seat=0&}"
person wait "$url" "$loc" 8 >"$tmp/wait" 2>"$tmp/wait.err" &
pw=$!
person browser "$url" "$tmp/page.png" >"$tmp/page" 2>"$tmp/page.err" &
pb=$!
# meanwhile, a reload and the seat's URL opened again: the same seat goes
# on; and a second connection takes a seat over
gid() { echo "$1" | sed 's|^/games/\([^/]*\)/.*|\1|'; }
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=3")
g3=$(gid "$loc")
person resume "$url" "$loc" 3 1 >"$tmp/resume" 2>"$tmp/resume.err" &
pr=$!
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=4")
g4=$(gid "$loc")
person takeover "$url" "$loc" >"$tmp/take" 2>"$tmp/take.err" &
pt=$!
# a person's own short clock, run out: the referee's timeout, as a bot's
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=6&time.0=bank:$(ms 2000),inc:0,move:$(ms 1000),start:$(ms 10000)")
gt=$(gid "$loc")
person wait "$url" "$loc" "$(awk "BEGIN { print 1.5 * $scale + 0.5 }")" >"$tmp/late" 2>"$tmp/late.err" &
pl=$!
wait $pw
serve_wait g1
check "the script waited 8 s at its first go and played on: $(cat "$tmp/wait" "$tmp/wait.err")" \
	grep -q '"waited": [89][.0-9]*,.*"result": "result ranks=[0-9,]* scores=[-0-9,]* faults=-,- ' "$tmp/wait"
check "no clock named: the person's is relaxed, the AI's the default" sh -c "
	grep -q '^seat-time 0 $relaxed\$' '$games/g1.log' && ! grep -q '^seat-time 1' '$games/g1.log' &&
	grep -q '^time bank:60000,inc:1000,move:5000,start:10000,grace:50,game:0\$' '$games/g1.log' &&
	grep -q '^bot 1 bot-link-level3 ' '$games/g1.log'"
check "no fault in that game" sh -c "! grep -q '^fault' '$games/g1.log'"
check "its log verifies" "$ref" verify "$games/g1.log"
check "the page has both seats' clocks (web clocks)" grep -q '"clocks": \["web clocks 3600000\*\? 60000' "$tmp/wait"

wait $pr
serve_wait $g3
check "dropped at move 3, the seat came back with the lines so far: $(cat "$tmp/resume" "$tmp/resume.err")" \
	grep -q '"head": "web resume [0-9]* pending [0-9]*", "replayed": [1-9][0-9]*, "first": "tetrarena"' "$tmp/resume"
check "and played on to the result, no fault" sh -c "grep -q '\"result\": \"result .*faults=-,-' '$tmp/resume' &&
	! grep -q '^fault' '$games/$g3.log'"
check "that log verifies" "$ref" verify "$games/$g3.log"

wait $pt
serve_wait $g4
check "a second connection takes the seat over, the first told in words and closed (4001): $(cat "$tmp/take" "$tmp/take.err")" \
	grep -q '"told": "web taken This seat is now played from another page[^"]*", "closed": 4001, "head": "web resume [0-9]* pending' "$tmp/take"
check "the second plays on to the result; no fault; the log verifies" sh -c "grep -q '\"result\": \"result .*faults=-,-' '$tmp/take' &&
	! grep -q '^fault' '$games/$g4.log' && '$ref' verify '$games/$g4.log' >/dev/null"

wait $pl
serve_wait $gt
check "a person whose clock runs out loses on time, as a bot would: $(grep '^fault\|^result' "$games/$gt.log" | tr '\n' ' ')" sh -c "
	grep -q '^fault 0 timeout' '$games/$gt.log' && grep -q '^result ranks=2,1 .*faults=timeout,-' '$games/$gt.log' &&
	'$ref' verify '$games/$gt.log' >/dev/null"

# a seat's own time control: in the log, verified, rerun
loc=$(client start "$url" "variant=link&seat=bot-random&seat=bot-random&seed=5&time.1=bank:$(ms 30000),inc:$(ms 200),move:$(ms 3000)")
g5=$(echo "$loc" | sed 's|^/games/||')
serve_wait $g5
check "seat 1's own clock is the log's seat-time line, its game line says it" sh -c "
	grep -q '^seat-time 1 bank:$(ms 30000),inc:$(ms 200),move:$(ms 3000),start:10000,grace:50,game:0\$' '$games/$g5.log' &&
	grep -q '^> 1 +[0-9]* game 1 .*time=bank:$(ms 30000),inc:$(ms 200),move:$(ms 3000),start:10000\$' '$games/$g5.log' &&
	grep -q '^> 0 +[0-9]* game 1 .*time=bank:60000,inc:1000,move:5000,start:10000\$' '$games/$g5.log'"
check "it verifies" "$ref" verify "$games/$g5.log"
"$ref" rerun --sandbox off --trust-log --log "$tmp/rerun.log" "$games/$g5.log" >"$tmp/rerun.out" 2>&1
check "and reruns to the same game, by the same clocks: $(tail -1 "$tmp/rerun.out")" sh -c "
	grep -q '^seat-time 1 bank:$(ms 30000),' '$tmp/rerun.log' && '$ref' verify '$tmp/rerun.log' >/dev/null"
sed 's/^seat-time 1 bank:[0-9]*,/seat-time 1 bank:1234,/' "$games/$g5.log" >"$tmp/edited.log"
"$ref" verify "$tmp/edited.log" >"$tmp/edited.out" 2>&1
check "a seat-time line edited fails verify at that seat's game line: $(cat "$tmp/edited.out")" grep -q "the game line to seat 1 should be" "$tmp/edited.out"
awk '/^time /{print "seat-time 0 bank:1000"}{print}' "$games/$g5.log" >"$tmp/early.log"
"$ref" verify "$tmp/early.log" >"$tmp/early.out" 2>&1
check "a seat-time line before the time line is refused: $(cat "$tmp/early.out")" grep -q "early.log:[0-9]*: seat-time before players and time" "$tmp/early.out"
sed '/^seat-time 1 /p' "$games/$g5.log" >"$tmp/twice.log"
"$ref" verify "$tmp/twice.log" >"$tmp/twice.out" 2>&1
check "and a second one for a seat: $(cat "$tmp/twice.out")" grep -q "twice.log:[0-9]*: a second seat-time line for seat 1" "$tmp/twice.out"
client post "$url" /games "variant=link&seat=person&seat=bot-random&clock=5+5" >"$tmp/bad"
check "a clock not offered is refused by field: $(cat "$tmp/bad")" grep -q '^400 {"field":"clock","error":"want relaxed' "$tmp/bad"
client post "$url" /games "variant=link&seat=person&seat=person&clock=3%2B2" "Accept: application/json" >"$tmp/two"
check "two people: the creator gets seat 1's invite link: $(cat "$tmp/two")" \
	grep -q '^200 {"id":"\(g[0-9]*\)","location":"/games/\1/play?seat=0&token=[0-9a-f]*","invites":\[{"seat":1,"url":"/games/\1/play?seat=1&token=[0-9a-f]*"}\]}' "$tmp/two"
# both people play it out (the seat's link and the invite's)
for u in $(sed 's/.*"location":"\([^"]*\)".*"url":"\([^"]*\)".*/\1 \2/' "$tmp/two"); do
	client seat "$url" "$u" >/dev/null 2>&1 &
done
client post "$url" /games "variant=matrix&seat=bot-random" "Accept: application/json" >"$tmp/seats"
client body "$url" /api/games >"$tmp/games.json"
check "seats by default: matrix fills to 7 with our AI: $(cat "$tmp/seats")" "$py" -c "
import json, sys
gid = json.loads(open(sys.argv[2]).read().split(' ', 1)[1])['id']
g = [x for x in json.load(open(sys.argv[1])) if x['id'] == gid][0]
assert g['seats'] == ['bot-random'] + ['bot-matrix-level3'] * 6, g['seats']" "$tmp/games.json" "$tmp/seats"

wait $pb
check "Chromium, start page defaults: 8 s at the first turn, a reload (asked first), the URL again, Back, a second tab: $(cat "$tmp/page" "$tmp/page.err")" \
	grep -q '"asked": true.*"reloaded": true.*"reopened": true.*"back": true.*"taken": "This seat is now played from another page[^"]*".*"result": "ranks=[0-9,]* scores=[-0-9,]* faults=-,-' "$tmp/page"
check "a bad seed on the start page is shown beside its field" \
	grep -q '"seed_error": \["a whole number from 0 to [0-9]*, or empty", true, "/"\]' "$tmp/page"
pg=$(sed -n 's|.*"url": "/games/\([a-z0-9]*\)/play".*|\1|p' "$tmp/page")
check "the page's game ($pg) had no fault and verifies" sh -c "[ -n '$pg' ] && ! grep -q '^fault' '$games/$pg.log' &&
	grep -q '^seat-time 0 $relaxed\$' '$games/$pg.log' && '$ref' verify '$games/$pg.log' >/dev/null"

# the history: a restart on the same directory
for g in $(client body "$url" /api/games | "$py" -c "import json,sys; print(' '.join(x['id'] for x in json.load(sys.stdin) if x['state'] != 'over'))"); do
	serve_wait "$g"
done
kill $serve_pid
wait $serve_pid 2>/dev/null
echo "not a log" >"$games/notes.txt"
printf 'tetrarena-log 1\nreferee 0.1\nvariant nowhere\n' >"$games/g90.log"
(cd "$games" && sha256sum * >"$tmp/before.sha")
serve_start
client body "$url" /api/games >"$tmp/games.json"
check "after a restart the earlier games are listed: players, result, date; the others unreadable" "$py" -c "
import json, sys
gs = {x['id']: x for x in json.load(open(sys.argv[1]))}
g3 = gs[sys.argv[2]]
assert g3['state'] == 'over' and g3['seats'] == ['person0', 'bot-random'] and g3['earlier'], g3
assert g3['result'].startswith('ranks=') and g3['date'].startswith('20'), g3
bad = sorted(x['title'] for x in gs.values() if x['state'] == 'unreadable')
assert bad == ['g90.log', 'notes.txt'], bad
assert all(x['why'] for x in gs.values() if x['state'] == 'unreadable')" "$tmp/games.json" "$g3"
client get "$url" /games/$g3/replay >"$tmp/replay"
check "an earlier game's replay is served: $(cat "$tmp/replay")" grep -q '^200 <!DOCTYPE html>' "$tmp/replay"
client get "$url" /games/$g3 >"$tmp/watch"
check "its watch page leads to the replay: $(cat "$tmp/watch")" grep -q "^303 /games/$g3/replay" "$tmp/watch"
client get "$url" /games/$g5/log >"$tmp/log"
check "and its log: $(cat "$tmp/log")" grep -q '^200 tetrarena-log 1' "$tmp/log"
loc=$(client start "$url" "variant=link&seat=bot-random&seat=bot-random&seed=9")
check "a new game's id is above every file's: $loc" test "$loc" = /games/g91
serve_wait g91
check "the new game verifies" "$ref" verify "$games/g91.log"
check "every earlier file's bytes are unchanged" sh -c "cd '$games' && sha256sum --quiet -c '$tmp/before.sha'"
echo "1..$n"
exit $fail
