#!/bin/sh
# t1002-include-floors: data flows one way, engine <- referee <-
# tournaments <- cli (and bots use the engine only): no file includes from
# a floor above its own (scripts/include-floors.py). Self-tests on fake
# trees: the checker fails on an include up from each floor (engine,
# referee through `../`, tournaments, a header, bots), names it, and
# passes a tree whose includes all point down, silent.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
checker="python3 $top/scripts/include-floors.py"
need "$top/scripts/include-floors.py"

. "$top/tests/faketree.sh"

# up NAME WHAT FILE:INCLUDE...: the checker fails on a fake tree holding
# the floors' headers and the given files, naming WHAT.
floors="engine/e.h referee/r.h tournaments/t.h ladder/l.h server/s.h cli/cli.h bots/b.h"
up() {
	name=$1 what=$2
	shift 2
	# shellcheck disable=SC2086
	tree "$tmp/$name" $floors "$@"
	$checker "$tmp/$name" >"$tmp/$name.out" 2>&1
	st=$?
	check "self-test: $name fails (exit $st), naming it" \
		sh -c "[ $st = 1 ] && grep -q '^up: $what' '$tmp/$name.out' && [ \$(wc -l <'$tmp/$name.out') = 1 ]"
}

echo "1..9"
$checker "$top" >"$tmp/tree" 2>&1
st=$?
check "the tree's includes all point down the floors (exit $st)" [ $st = 0 ]
sed 's/^/# /' "$tmp/tree"

up engine-up "engine/e.c includes referee/r.h (engine/ may include none" engine/e.c:e.h,referee/r.h
up referee-up "referee/r.c includes tournaments/t.h (referee/ may include engine/ only)" \
	referee/r.c:r.h,e.h,../tournaments/t.h
up tournaments-up "tournaments/t.c includes cli/cli.h" tournaments/t.c:t.h,referee/r.h,cli/cli.h
up ladder-up "ladder/l.c includes server/s.h" ladder/l.c:l.h,tournaments/t.h,server/s.h
up tournaments-ladder "tournaments/t.c includes ladder/l.h" tournaments/t.c:t.h,ladder/l.h
up header-up "referee/x.h includes cli/cli.h" referee/x.h:../cli/cli.h
up bots-up "bots/b.c includes referee/r.h" bots/b.c:b.h,variant.h,referee/r.h

# shellcheck disable=SC2086
tree "$tmp/down" $floors engine/e.c:e.h engine/f.c:e.h,stdio.h referee/r.c:r.h,e.h,engine/e.h \
	tournaments/t.c:t.h,referee/r.h,../engine/e.h cli/play.c:cli.h,tournaments/t.h,referee/r.h,e.h \
	ladder/l.c:l.h,tournaments/t.h server/s.c:s.h,ladder/l.h,referee/r.h cli/serve.c:cli.h,server/s.h \
	bots/b.c:b.h,e.h tests/test.c:cli/cli.h,tournaments/t.h referee/g.c:build/gen.h
$checker "$tmp/down" >"$tmp/down.out" 2>&1
st=$?
check "self-test: a tree whose includes all point down passes, silent (exit $st)" \
	sh -c "[ $st = 0 ] && [ ! -s '$tmp/down.out' ]"
exit $fail
