#!/bin/sh
# t3101: `referee ladder add` admits a bot only after `referee check` and a
# validation game against copies of itself: a good bot (a command, and a
# directory with a manifest) is admitted; a crashing, a hanging and a
# protocol-breaking bot are each rejected with the reason stored and shown,
# and no game is played. Also: a second writer is refused, a version 1
# database migrates, and the reasons are escaped on the rejections page.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"

echo "1..18"
check "init" "$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 5
"$ref" ladder init "$L" --variant link >"$tmp/again" 2>&1
check "init over a ladder is refused" grep -q 'already holds a ladder' "$tmp/again"
check "a good bot is admitted" "$ref" ladder add "$L" good "$top/bin/bot-random"
for bad in "crash:$fake crash:crash" "hang:$fake hang 3:timeout" "breaker:$fake badmove 2:malformed"; do
	name=${bad%%:*}
	rest=${bad#*:}
	cmd=${rest%:*}
	why=${rest##*:}
	"$ref" ladder add "$L" "$name" "$cmd" >"$tmp/$name.out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "^$name: rejected: .*$why" "$tmp/$name.out"; then
		ok "$name is rejected saying $why"
	else
		sed 's/^/# /' "$tmp/$name.out"
		not_ok "$name is rejected saying $why (exit $rc)"
	fi
done
check "the three reasons are stored" test "$(q "SELECT COUNT(*) FROM rejections WHERE reason LIKE '%FAILED%'")" = 3
check "only the good bot is an entry" test "$(q "SELECT group_concat(name) FROM bots")" = good
check "no game was played" test "$(q "SELECT COUNT(*) FROM games")" = 0

# a directory with a manifest: copied into the ladder, run there
mkdir "$tmp/py"
cp "$top/bots/starter/starter.py" "$tmp/py/"
printf '[bot]\ncommand = python3 starter.py 5\nauthor = <i>Ada</i>\n' >"$tmp/py/manifest.ini"
check "a directory with a manifest is admitted" "$ref" ladder add "$L" starter "$tmp/py"
check "its copy runs in the ladder" test -f "$L/bots/starter-1/starter.py"
printf '[bot]\nname = x\ncolour = red\n' >"$tmp/py/manifest.ini"
"$ref" ladder add "$L" starter2 "$tmp/py" >"$tmp/man" 2>&1
check "a bad manifest is refused, naming the key" grep -q 'unknown key.*colour' "$tmp/man"

# one writer at a time
# (the holder says when it has the lock, and is stopped after the checks)
sh -c 'exec 9>"$1"; flock -x 9; echo locked; exec sleep 60' sh "$L/ladder.lock" >"$tmp/locked" &
holder=$!
i=0
while ! grep -q locked "$tmp/locked" && [ $i -lt 600 ]; do sleep 0.02; i=$((i + 1)); done
"$ref" ladder retire "$L" good >"$tmp/busy" 2>&1
check "a second writer is refused" grep -q 'is being written by another process' "$tmp/busy"
"$ref" ladder standings "$L" >"$tmp/read" 2>&1
check "a reader is not" grep -q "^  1  good" "$tmp/read"
kill $holder
wait $holder 2>/dev/null

# the rejections page escapes what the bots gave
"$ref" ladder add "$L" evil "$top/bin/bot-random --no-such-flag '<b>bold</b>'" >/dev/null 2>&1
"$ref" ladder pages "$L" "$tmp/pages" >/dev/null
check "the rejections page escapes commands" grep -q '&lt;b&gt;bold&lt;/b&gt;' "$tmp/pages/rejected.html"
check "and shows no markup from them" test "$(grep -c '<b>bold' "$tmp/pages/rejected.html")" = 0

# a database of schema version 1 migrates on the first write
M=$tmp/old
mkdir "$M"
python3 - "$top/ladder/schema.sql" "$M/ladder.db" <<'PY'
import sqlite3, sys
text = open(sys.argv[1]).read()
v1 = text.split("-- version 1\n")[1].split("-- version 2\n")[0]
db = sqlite3.connect(sys.argv[2])
db.executescript(v1)
for k, v in [("schema_version", "1"), ("variant", "link"), ("players", "2-2"), ("time", ""),
             ("options", ""), ("seed", "3"), ("sandbox", "auto"), ("created", "2026-01-01T00:00:00Z")]:
    db.execute("INSERT INTO meta VALUES (?, ?)", (k, v))
db.commit()
PY
"$ref" ladder standings "$M" >"$tmp/old.out" 2>&1
check "a reader refuses an old schema, saying what migrates it" grep -q 'schema version 1, older' "$tmp/old.out"
"$ref" ladder add "$M" good "$top/bin/bot-random" >/dev/null 2>&1
L=$M
latest=$(grep -c '^-- version ' "$top/ladder/schema.sql")
check "a writer migrates it to the latest version ($latest)" \
	test "$(q "SELECT value FROM meta WHERE key = 'schema_version'")" = "$latest"
exit $fail
