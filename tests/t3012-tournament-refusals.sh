#!/bin/sh
# t3012-tournament-refusals: a tournament refuses clearly: another
# tournament's directory (naming each setting that differs, old and new),
# a non-empty directory that holds no tournament (overwriting nothing),
# numbers out of range from flags as from files (with the range); one
# policy flag name (--fault-policy an alias); one bots format: a
# tournament file or --bots FILE takes play's [bot NAME] groups with
# per-bot limits, and play --bots reads a tournament file.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..16"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
tour() { "$ref" tournament --variant link --options width:6,height:8 --seed 4 -q --sandbox off "$@"; }

tour -g 2 --time "$time" -o "$tmp/a" --bot "x=$fake legal" --bot "y=$fake legal" >/dev/null 2>"$tmp/a.err"
check "a tournament runs (and keeps its identity)" [ $? = 0 -a -s "$tmp/a/identity.txt" ]
tour -g 3 --time "$time" --policy random -o "$tmp/a" --bot "x=$fake legal" --bot "z=$fake legal" \
	>/dev/null 2>"$tmp/mis.err"
st=$?
check "another tournament's directory is refused (status $st)" [ $st = 1 ]
check "the refusal names each key that differs, old and new" \
	sh -c "grep -q 'belongs to another tournament' '$tmp/mis.err' &&
	       grep -q 'bots: was x,y, now x,z' '$tmp/mis.err' && grep -q 'games: was 2, now 3' '$tmp/mis.err' &&
	       grep -q 'policy: was variant, now random' '$tmp/mis.err' && ! grep -q 'variant: was' '$tmp/mis.err'"
tour -g 2 --time "$time" -o "$tmp/a" --bot "x=$fake legal" --bot "y=$fake legal" >/dev/null 2>>"$tmp/a.err"
check "the same settings still resume it" [ $? = 0 ]

mkdir -p "$tmp/other/games"
echo "precious" >"$tmp/other/games/000000.log"
echo "notes" >"$tmp/other/notes.txt"
tour -g 1 --time "$time" -o "$tmp/other" --bot "x=$fake legal" --bot "y=$fake legal" >/dev/null 2>"$tmp/other.err"
st=$?
check "a non-empty directory with no journal is refused (status $st)" \
	sh -c "[ $st = 1 ] && grep -q 'is not empty .* holds no tournament' '$tmp/other.err'"
check "and nothing in it is touched" \
	sh -c "[ \"\$(cat '$tmp/other/games/000000.log')\" = precious ] && [ ! -e '$tmp/other/journal.txt' ]"

bad() {
	desc=$1
	shift
	tour --bot "x=$fake legal" --bot "y=$fake legal" -o "$tmp/never" "$@" >/dev/null 2>"$tmp/bad.err"
	st=$?
	if [ $st = 2 ] && grep -q "want an integer from" "$tmp/bad.err" && [ ! -e "$tmp/never" ]; then
		ok "$desc refused with its range"
	else
		not_ok "$desc refused with its range (status $st: $(cat "$tmp/bad.err"))"
	fi
}
bad "-j 0" -j 0
bad "-j -3" -j -3
bad "--watchdog -1" --watchdog -1
bad "--bootstrap -2" --bootstrap -2
bad "--games 0" --games 0
printf '[tournament]\nvariant = link\nconcurrency = 0\n[bots]\nx = %s legal\ny = %s legal\n' "$fake" "$fake" >"$tmp/zero.ini"
"$ref" tournament "$tmp/zero.ini" -o "$tmp/never" >/dev/null 2>"$tmp/bad.err"
check "concurrency = 0 in a file refused with its range" \
	sh -c "[ $? = 2 ] && grep -q 'concurrency=0: want an integer from 1 to 1024' '$tmp/bad.err'"

"$ref" play --variant link --seed 2 --policy random --log "$tmp/p1.log" "$fake illegal" "$fake legal" >/dev/null 2>&1
"$ref" play --variant link --seed 2 --fault-policy random --log "$tmp/p2.log" "$fake illegal" "$fake legal" >/dev/null 2>&1
check "play takes --policy, and --fault-policy as its alias" \
	sh -c "grep -q '^policy random' '$tmp/p1.log' && grep -q '^policy random' '$tmp/p2.log'"

# One bots format: [bot NAME] groups with limits in a tournament file,
# a [bots] group beside them, the same file as play's --bots.
cat >"$tmp/t.ini" <<EOF2
[tournament]
variant = link
options = width:6,height:8
games = 1
seed = 3
time = $time
sandbox = off

[bot lim]
command = sh -c 'ulimit -n >&2; exec $fake legal'
open-files = 37

[bots]
plain = $fake legal
EOF2
"$ref" tournament "$tmp/t.ini" -o "$tmp/lim" -q >/dev/null 2>"$tmp/lim.err"
check "a tournament file's [bot NAME] group sets its per-bot limits" \
	sh -c "[ $? = 0 ] && grep -qx 37 '$tmp/lim/games/000000.log.seat0.stderr' &&
	       grep -q '^bot 0 lim ' '$tmp/lim/games/000000.log' && grep -q '^bot 1 plain ' '$tmp/lim/games/000000.log'"
"$ref" play --variant link --seed 3 --sandbox off --bots "$tmp/t.ini" --log "$tmp/lp.log" lim plain \
	>/dev/null 2>&1
check "play --bots reads the same file, limits and all" \
	sh -c "[ $? = 0 ] && grep -qx 37 '$tmp/lp.log.seat0.stderr'"
sed -n '/^\[bot lim\]/,/^open-files/p' "$tmp/t.ini" >"$tmp/bots.ini"
tour -g 1 --time "$time" -o "$tmp/bf" --bots "$tmp/bots.ini" --bot "plain=$fake legal" >/dev/null 2>"$tmp/bf.err"
check "tournament --bots FILE takes play's bots file" \
	sh -c "[ $? = 0 ] && grep -qx 37 '$tmp/bf/games/000000.log.seat0.stderr'"
exit $fail
