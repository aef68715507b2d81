#!/bin/sh
# t3103: a new version of a name replaces the old one mid-run: both
# entries and records are kept (the old one's games stay in the table and
# the fit), only the new one is scheduled after it; a retired entry is
# scheduled no more either. Rating history points come every K games.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"

echo "1..11"
"$ref" ladder init "$L" --variant link --players 2-3 --time "$ladder_time" --seed 9 >/dev/null
for b in "a:$top/bin/bot-random --seed 1" "b:$top/bin/bot-random --seed 2" "c:$fake legal" "d:$top/bin/bot-random --seed 4"; do
	"$ref" ladder add "$L" "${b%%:*}" "${b#*:}" >/dev/null || { echo "Bail out! cannot add ${b%%:*}"; exit 1; }
done
"$ref" ladder run "$L" --games 16 -q 2>/dev/null
b1=$(q "SELECT COUNT(*) FROM seats WHERE bot = 2")
check "b played in the first 16 games" test "$b1" -gt 0
"$ref" ladder add "$L" b "$top/bin/bot-random --seed 7" >"$tmp/add" 2>&1
check "a new version of b is admitted as version 2" grep -q '^b: admitted as version 2' "$tmp/add"
check "the old version is marked replaced" test "$(q "SELECT status FROM bots WHERE name = 'b' AND version = 1")" = replaced
"$ref" ladder run "$L" --games 16 -q 2>/dev/null
check "the old version keeps its games" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 2")" = "$b1"
check "and plays none after its replacement" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 2 AND game >= 16")" = 0
check "the new version is scheduled" test "$(q "SELECT COUNT(*) FROM seats s JOIN bots b ON b.id = s.bot WHERE b.name = 'b' AND b.version = 2")" -gt 0
"$ref" ladder standings "$L" >"$tmp/st"
check "the standings list both versions" sh -c "grep -q ' b  ' '$tmp/st' && grep -q ' b.v2 ' '$tmp/st' && grep -q 'replaced' '$tmp/st'"
check "retire c" "$ref" ladder retire "$L" c
"$ref" ladder run "$L" --games 12 -q 2>/dev/null
check "a retired entry is scheduled no more" test "$(q "SELECT COUNT(*) FROM seats WHERE bot = 3 AND game >= 32")" = 0
echo "# entry 1: $(q "SELECT COUNT(*) FROM history WHERE bot = 1") history points, $(q "SELECT COUNT(*) FROM seats WHERE bot = 1") games"
check "rating history every 10 games of an entry" test "$(q "SELECT COUNT(*) FROM history WHERE bot = 1")" = "$(($(q "SELECT COUNT(*) FROM seats WHERE bot = 1") / 10))"
check "verify passes" "$ref" ladder verify "$L"
exit $fail
