#!/bin/sh
# t4013-level-clock: the fastest time control at which each bot-link level
# holds (docs/ai/README.md, "Levels and the clock"): the search's depth
# caps by the move's time (bots/linkai.h LINKAI_FAST_MS, _DEEP_MS,
# _DEEPER_MS). Each case is one `go` to a level with MS given: the depth
# its `info` line reports must not pass the documented cap, and under
# 150 ms levels 3, 4 and 5 all search exactly one ply. A cap is a ceiling
# (a loaded machine may cut a search shorter), so nothing here waits on
# the machine's speed; a change of the caps must change the docs' table.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
link=$top/bin/bot-link
need "$link"
state="players=2 width=10 height=20 stage=place current=0 roll=I scores=0,0 supply=I3O5T5L5S5,I3O5T5L5S5 retired=-"
state="$state board=$(printf '........../%.0s' $(seq 12)).0......../.0......../.0......../.0......../.0.1....../.0.1....../.0.1....../.0.11111.."
state="$state pieces=0:I1@1,1:I1@3,0:I1@1,1:I0@4"

# depth LEVEL MS: the depth bot-link --level LEVEL reports for one go of MS
depth() {
	printf 'tetrarena 1\ngame 1 variant=link seat=0 players=2 options=width:10,height:20,pieces:5 time=bank:600000,inc:0,move:%s,start:10000\ngo %s bank=600000 %s\nquit\n' \
		"$2" "$2" "$state" | "$link" --level "$1" 2>/dev/null | sed -n 's/^info depth \([0-9]*\) .*/\1/p'
}
echo "1..9"
for L in 3 4 5; do
	d=$(depth $L 100)
	check "at 100 ms level $L searches one ply (got '$d')" [ "$d" = 1 ]
done
for case in "4 500 2" "5 500 2" "5 1000 3" "5 1999 3" "3 5000 1" "4 5000 2"; do
	set -- $case
	d=$(depth $1 $2)
	check "at $2 ms level $1 searches to depth $3 at most (got '$d')" sh -c "[ -n '$d' ] && [ '$d' -ge 1 ] && [ '$d' -le $3 ]"
done
