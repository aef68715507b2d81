#!/bin/sh
# t3104: the same master seed, bots and game count give the same games
# (tables, seats, seeds, results), whether played one at a time or two at
# once; another master seed gives other games. Matrix ladders seat 7 at a
# table.
# check-long: 60 games a link ladder, 12 matrix games (make check: 20 and 4)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
games=$(long_or 20 60)
first=$((games * 5 / 12))
mgames=$(long_or 4 12)
# make_ladder DIR VARIANT PLAYERS SEED NBOTS; a step that fails prints
# which step, its exit status and what it said (a rejection's reason) to
# stderr
step() { # WHAT COMMAND...
	what=$1
	shift
	"$@" >"$tmp/make.out" 2>&1 && return 0
	echo "# $what: exit $?" >&2
	sed 's/^/# /' "$tmp/make.out" >&2
	return 1
}
make_ladder() {
	step "ladder init $1" "$ref" ladder init "$1" --variant "$2" --players "$3" --time "$ladder_time" --seed "$4" || return 1
	i=1
	while [ $i -le "$5" ]; do
		step "ladder add r$i" "$ref" ladder add "$1" "r$i" "$top/bin/bot-random --seed $i" || return 1
		i=$((i + 1))
	done
	step "ladder add legal" "$ref" ladder add "$1" legal "$fake legal"
}
dump() { ldump "$1"; }

echo "1..6"
for d in a b c; do
	make_ladder "$tmp/$d" link 2-4 $([ $d = c ] && echo 78 || echo 77) 4 || { echo "Bail out! cannot make ladder $d"; exit 1; }
done
"$ref" ladder run "$tmp/a" --games $games -j 1 -q 2>/dev/null
"$ref" ladder run "$tmp/b" --games $first -j 2 -q 2>/dev/null
"$ref" ladder run "$tmp/b" --games $((games - first)) -j 2 -q 2>/dev/null
"$ref" ladder run "$tmp/c" --games $games -j 1 -q 2>/dev/null
dump "$tmp/a" >"$tmp/a.games"
dump "$tmp/b" >"$tmp/b.games"
dump "$tmp/c" >"$tmp/c.games"
check "$games games recorded" test "$(wc -l <"$tmp/a.games")" = $games
check "the same games one at a time and two at once, in two runs" cmp -s "$tmp/a.games" "$tmp/b.games"
check "another master seed, other games" sh -c "! cmp -s '$tmp/a.games' '$tmp/c.games'"
check "tables of 2, 3 and 4" test "$(awk '{ print NF - 3 }' "$tmp/a.games" | sort -u | tr -d '\n')" = 234

make_ladder "$tmp/m" matrix 7 5 8 || { echo "Bail out! cannot make the matrix ladder"; exit 1; }
"$ref" ladder run "$tmp/m" --games $mgames -j 2 -q 2>/dev/null
dump "$tmp/m" >"$tmp/m.games"
check "matrix: $mgames games of 7 seats" test "$(awk 'NF - 3 == 7' "$tmp/m.games" | wc -l)" = $mgames
check "matrix: verify passes" "$ref" ladder verify "$tmp/m"
exit $fail
