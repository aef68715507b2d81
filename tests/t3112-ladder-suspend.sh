#!/bin/sh
# t3112: a bot that crashes after its admission is suspended (ladder/run.h,
# ladder/events.h). Made with --suspend-after 2, a ladder admits two
# instant bots and `flaky`, a bot directory whose script exits at once
# when a file `crash` is in its directory: there is none at admission, and
# the organizer (the test) puts one into its copy after. With the flag set, `ladder run
# --on-event CMD` suspends flaky after exactly 2 faulted games and
# schedules it no more; `standings --json` says its state is suspended,
# the text standings and its page say so, the hook got the event as one
# JSON line, and the author's Atom feed (flaky's own name: it has no
# author) has it. `ladder resume` schedules it again, its run counted
# afresh (2 more faulted games), and a failing hook is said, not fatal. A
# new version (the flag gone) is active and plays cleanly. A ladder at
# schema version 3 migrates (suspend_after 5 by default).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
echo "1..21"

mkdir "$tmp/flaky"
cp "$fake" "$tmp/flaky/"
printf '#!/bin/sh\n[ -e crash ] && exit 3\nexec ./prog-fakebot legal\n' >"$tmp/flaky/flaky.sh"
chmod +x "$tmp/flaky/flaky.sh"
printf '[bot]\ncommand = ./flaky.sh\n' >"$tmp/flaky/manifest.ini"
check "init with --suspend-after 2" "$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 9 \
	--suspend-after 2
check "stored with the settings" test "$(q "SELECT value FROM meta WHERE key = 'suspend_after'")" = 2
"$ref" ladder add "$L" a "$fake legal" >/dev/null
"$ref" ladder add "$L" b "$fake legal" >/dev/null
check "flaky passes admission" sh -c "'$ref' ladder add '$L' flaky '$tmp/flaky' | grep -q 'admitted as version 1'"
flaky=$(q "SELECT id FROM bots WHERE name = 'flaky'")
touch "$L/bots/flaky-1/crash"	# (the organizer can write there; the bot cannot)
"$ref" ladder run "$L" --games 12 -q --on-event "cat >>'$tmp/hook.out'" 2>"$tmp/run.err"
rc=$?
sed 's/^/# /' "$tmp/run.err"
check "the run plays its 12 games" test "$rc $(q "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")" = "0 12"
check "flaky faulted in exactly 2 games, then was scheduled no more" \
	test "$(q "SELECT COUNT(*), SUM(faults != '-') FROM seats WHERE bot = $flaky")" = "2|2"
check "suspended, with why" sh -c "'$ref' ladder standings '$L' --json | python3 -c 'import json,sys
e = [x for x in json.load(sys.stdin)[\"entries\"] if x[\"name\"] == \"flaky\"][0]
sys.exit(not (e[\"state\"] == \"suspended\" and \"2 faulted games in a row\" in e[\"suspended\"]))'"
check "the text standings say so" sh -c "'$ref' ladder standings '$L' | grep 'flaky' | grep -q suspended"
check "the run said so" grep -q "flaky (entry $flaky) suspended after 2 faulted games in a row" "$tmp/run.err"
"$ref" ladder pages "$L" "$tmp/pages" >/dev/null
check "its page says so" grep -q 'id="suspended">.*suspended after 2 faulted games' "$tmp/pages/bot-$flaky.html"
sed 's/^/# hook: /' "$tmp/hook.out"
check "the hook got the event as one JSON line" python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
s = [e for e in lines if e["kind"] == "suspended"]
sys.exit(not (len(s) == 1 and s[0]["name"] == "flaky" and s[0]["author"] == "flaky" and s[0]["bot"] == int(sys.argv[2])))' \
	"$tmp/hook.out" "$flaky"
"$ref" ladder feed "$L" flaky >"$tmp/feed.atom"
check "flaky's feed has it, and its admission" python3 -c 'import sys, xml.etree.ElementTree as ET
ns = {"a": "http://www.w3.org/2005/Atom"}
f = ET.parse(sys.argv[1]).getroot()
kinds = [e.find("a:category", ns).get("term") for e in f.findall("a:entry", ns)]
sys.exit(kinds != ["suspended", "admitted"])' "$tmp/feed.atom"
feed=$(sed -n 's/.*id="feed" href="\([^"]*\)".*/\1/p' "$tmp/pages/bot-$flaky.html")
check "its page links the feed, written by ladder pages: $feed" test -s "$tmp/pages/$feed"

check "ladder resume lifts it" sh -c "'$ref' ladder resume '$L' flaky | grep -q resumed"
check "its state is active again" test "$(q "SELECT suspended IS NULL, fault_run FROM bots WHERE id = $flaky")" = "1|0"
"$ref" ladder run "$L" --games 8 -q --on-event "exit 7" 2>"$tmp/run2.err"
rc=$?
sed 's/^/# /' "$tmp/run2.err" | head -5
check "with a failing hook the run goes on: rc $rc" test $rc = 0
check "and says so" grep -q "the hook exited with status 7" "$tmp/run2.err"
check "counted afresh: suspended again after 2 more faulted games" \
	test "$(q "SELECT COUNT(*), suspended IS NOT NULL FROM seats s JOIN bots b ON b.id = s.bot WHERE s.bot = $flaky")" = "4|1"

check "a new version is admitted" sh -c "'$ref' ladder add '$L' flaky '$tmp/flaky' | grep -q 'admitted as version 2'"
"$ref" ladder run "$L" --games 6 -q 2>/dev/null
check "it is active, the suspended one replaced" \
	test "$(q "SELECT version || ':' || status || ':' || (suspended IS NOT NULL) FROM bots WHERE name = 'flaky' ORDER BY version" | tr '\n' ' ')" = \
	"1:replaced:1 2:active:0 "
check "and it plays without a fault" \
	test "$(q "SELECT COUNT(*) > 0, SUM(faults != '-') FROM seats s JOIN bots b ON b.id = s.bot WHERE b.name = 'flaky' AND b.version = 2")" = "1|0"

# an older ladder (schema version 3) migrates
M=$tmp/old
"$ref" ladder init "$M" --variant link --players 2 --seed 3 --sandbox off >/dev/null
python3 - "$M/ladder.db" <<'EOP'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.executescript("""DROP INDEX games_unfinished; DROP TABLE ratings;
DROP TABLE IF EXISTS tests; DROP TABLE IF EXISTS uploads; DROP TABLE IF EXISTS owners;
DROP TABLE IF EXISTS invites; DROP TABLE IF EXISTS sessions; DROP TABLE IF EXISTS authors;
DELETE FROM meta WHERE key = 'signup';
DROP INDEX events_author; DROP TABLE events;
ALTER TABLE bots DROP COLUMN fault_run; ALTER TABLE bots DROP COLUMN suspended;
ALTER TABLE bots DROP COLUMN suspended_why; DELETE FROM meta WHERE key = 'suspend_after';
UPDATE meta SET value = '3' WHERE key = 'schema_version';""")
d.commit()
EOP
"$ref" ladder add "$M" a "$fake legal" >/dev/null
latest=$(grep -c '^-- version ' "$top/ladder/schema.sql")
check "a ladder at schema version 3 migrates (to $latest), with suspend_after 5 and its events" \
	test "$(lq "$M" "SELECT (SELECT value FROM meta WHERE key = 'schema_version'), (SELECT value FROM meta WHERE key = 'suspend_after'), (SELECT COUNT(*) FROM events)")" = "$latest|5|1"
exit $fail
