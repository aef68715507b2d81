#!/bin/sh
# t4009: the engine from Python (engine/api.h, lib/libtetrarena.so,
# bots/python/tetrarena.py) equals the engine itself. Games of every
# variant between bin/bot-random seats (which ask for `moves`) give some
# thousands of real `go` lines; for each, the module's legal moves must
# equal the referee's own `moves` lines of the log, and the module's moves,
# scores, picture and the states and scores after a sample of moves must
# equal, byte for byte, what tests/prog-engine prints from the variant
# tables directly. Then the Python starter bot plays every variant jailed
# with the module found through its command line, and once through a
# bots file's workdir=, with no fault; jailed without them it still plays
# (at random, and says so on stderr).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
eng=$build/tests/prog-engine
lib=$top/lib/libtetrarena.so
need "$ref" "$eng" "$lib" "$top/bin/bot-random"
dump=$top/tests/t4009-dump.py
export TETRARENA_TOP="$top" PYTHONPATH="$top/bots/python"
echo "1..19"

rnd=$top/bin/bot-random
for v in link tetroll rush matrix; do
	for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
		case $((s % 3)) in
		0) seats="$rnd";;
		1) seats="$rnd $rnd";;
		2) seats="$rnd $rnd $rnd";;
		esac
		opt=
		case $v in
		tetroll) [ $s -le 6 ] && seats=;;	# solo as well
		rush) opt="--option=pace=0"; [ $((s % 2)) = 0 ] && opt="--option=lockstep=1";;
		matrix) opt="--option=target=60";;
		esac
		# shellcheck disable=SC2086
		"$ref" play --sandbox off --variant "$v" $opt --seed "$s" --log "$tmp/$v-$s.log" \
			"$rnd --seed $s" $seats >/dev/null 2>&1
	done
done

for v in link tetroll rush matrix; do
	python3 "$dump" records "$tmp/$v"-*.log >"$tmp/$v.rec" 2>"$tmp/$v.recerr"
	st=$?
	states=$(wc -l <"$tmp/$v.rec")
	check "$v: the module's legal moves are the referee's \`moves\` in $states states" \
		test "$st" = 0 -a "$states" -ge 250
	[ "$st" = 0 ] || head -5 "$tmp/$v.recerr" | sed 's/^/# /'
done
cat "$tmp"/*.rec >"$tmp/all.rec"
total=$(wc -l <"$tmp/all.rec")
"$eng" dump <"$tmp/all.rec" >"$tmp/c.out"
python3 "$dump" dump <"$tmp/all.rec" >"$tmp/py.out" 2>"$tmp/py.err"
applied=$(grep -c '^apply ' "$tmp/c.out")
check "moves, scores, pictures and $applied applied states of $total states equal the engine's own" \
	cmp -s "$tmp/c.out" "$tmp/py.out"
cmp "$tmp/c.out" "$tmp/py.out" | sed 's/^/# /'
check "at least 2000 states, and none unparsed" test "$total" -ge 2000 -a "$(grep -c '^unparsed' "$tmp/c.out")" = 0

# The module's contract on bad input, on the first link state.
python3 - "$tmp/link.rec" >"$tmp/unit.out" 2>&1 <<'PY'
import sys, tetrarena as t
line = open(sys.argv[1]).readline().rstrip("\n").split("\t")[2]
s = t.State.parse("link", line)
assert s.seat == int(line.split("current=")[1].split()[0])
m = s.moves()
assert s.check("I2@1") == t.MALFORMED and s.check("x") == t.MALFORMED
assert s.check(m[0]) == t.OK
assert s.check(m[0], player=(s.seat + 1) % s.players) == t.NOT_NOW
try:
    s.apply("I0@15")
    sys.exit("an illegal move was applied")
except t.EngineError as e:
    assert e.code in (t.ILLEGAL, t.MALFORMED), e
before = s.format()
after = s.apply(m[0])
assert s.format() == before and after.format() != before  # apply copies
assert after.phase()[0] == "chance"
rolled = after.apply("roll logo", player=t.CHANCE)
assert rolled.phase()[0] == "turn"
for bad in ("", "go 5000 players=2", "players=9 width=10"):
    try:
        t.State.parse("link", bad)
        sys.exit("parsed: " + bad)
    except ValueError:
        pass
assert sorted(t.variants()) == ["link", "matrix", "rush", "tetroll"], t.variants()
assert "\n" in s.render()
print("fine")
PY
check "the module: check, errors, copies on apply, chance moves, bad lines" grep -qx fine "$tmp/unit.out"
grep -v '^fine$' "$tmp/unit.out" | sed 's/^/# /'

# matrix: a whole round at once (apply_round) against one seat's move
python3 - "$tmp/matrix.rec" >"$tmp/round.out" 2>&1 <<'PY'
import sys, tetrarena as t
for rec in open(sys.argv[1]):
    v, seat, line = rec.rstrip("\n").split("\t")
    if "round=1 " not in line or "players=2 " not in line:
        continue
    s = t.State.parse(v, line, int(seat))
    m = s.moves()[0]
    one = s.apply(m)
    both = s.apply_round({int(seat): m})
    assert one.format() == both.format()
    assert one.scores()[1 - int(seat)] == -5  # the other seat missed
    print("fine")
    break
PY
check "matrix: apply_round with one seat's move is apply" grep -qx fine "$tmp/round.out"

# The module's traps, found writing bots from the docs alone (issue 52).
python3 - "$tmp/link.rec" "$tmp/matrix.rec" >"$tmp/traps.out" 2>&1 <<'PY'
import sys, tetrarena as t
line = open(sys.argv[1]).readline().rstrip("\n").split("\t")[2]
s = t.State.parse("link", line)
after = s.apply(s.moves()[0])
# chance moves are whole moves ("roll T"), each of which applies
rolls = after.moves()
assert after.mover() == t.CHANCE and rolls == after.moves(player=t.CHANCE), rolls
assert "roll logo" in rolls and all(" " in r for r in rolls), rolls
for r in rolls:
    after.apply(r, player=t.CHANCE)
print("chance")
# another seat's turn: moves() follows the seat to move; player= asks one seat
rolled = after.apply(rolls[0])
assert rolled.phase()[0] == "turn" and rolled.mover() != s.seat
assert rolled.moves() and rolled.moves() == rolled.moves(player=rolled.mover())
assert rolled.moves(player=s.seat) == []
rolled.apply(rolled.moves()[0])
print("mover")
# matrix: apply() charges the other seats a miss, and says so
assert "-5" in t.State.apply.__doc__ and "apply_round" in t.State.apply.__doc__
print("documented")
# a seat that is not the game's is refused; the game line gives it
for rec in open(sys.argv[2]):
    v, seat, go = rec.rstrip("\n").split("\t")
    if "players=2 " in go:
        break
seat = int(seat)
game = f"game 1 variant=matrix seat={seat} players=2 options=width:10"
assert t.State.parse("matrix", go, game=game).seat == seat
for bad in (dict(game=game, seat=1 - seat), dict(), dict(game="game 1 variant=link seat=0"), dict(seat=5)):
    try:
        t.State.parse("matrix", go, **bad)
        sys.exit(f"parsed with {bad}")
    except ValueError:
        pass
print("seat")
# the docs point to protocol.md, not elsewhere
assert "bots/README" not in t.__doc__ and "protocol.md" in t.__doc__
print("docs")
PY
for w in chance mover documented seat docs; do
	case $w in
	chance) d="link: a chance move is one string ('roll T'), and each one the module lists applies";;
	mover) d="moves() on another seat's turn follows the seat to move (player= asks one seat)";;
	documented) d="matrix: apply() says it charges the other seats a miss (-5), apply_round() for every seat's move";;
	seat) d="matrix: State.parse refuses a seat that is not the game line's, or none";;
	docs) d="the module's documentation points to protocol.md";;
	esac
	check "$d" grep -qx "$w" "$tmp/traps.out"
done
grep -vx 'chance\|mover\|documented\|seat\|docs' "$tmp/traps.out" | sed 's/^/# /'

# The starter bot, jailed, finding the module through its command line.
why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$rnd" "$rnd" 2>&1 >/dev/null)
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	for i in 1 2 3 4 5 6; do skip "no jail here: $why"; done
	exit $fail
fi
clean_log() { grep -q '^result .* faults=-,- .*reason=end' "$1" && ! grep -q 'without the engine' "$1.seat0.stderr"; }
starter="python3 $top/bots/starter/starter.py 5 $top/bots/python $lib"
for v in link tetroll rush matrix; do
	# shellcheck disable=SC2046
	"$ref" play --sandbox on --variant "$v" $([ "$v" = rush ] && echo --option=pace=10) --seed 3 \
		--log "$tmp/st-$v.log" "$starter" "$rnd --seed 6" >/dev/null 2>&1
	check "$v: the jailed starter with the module named on its command line, no fault" clean_log "$tmp/st-$v.log"
done
mkdir "$tmp/wd"
cp "$top/bots/starter/starter.py" "$top/bots/python/tetrarena.py" "$lib" "$tmp/wd/"
printf '[bot st]\ncommand = python3 starter.py 5\nworkdir = %s\n[bot r]\ncommand = %s\n' "$tmp/wd" "$rnd" >"$tmp/wd.ini"
"$ref" play --sandbox on --variant tetroll --seed 4 --bots "$tmp/wd.ini" --log "$tmp/wd.log" st r >/dev/null 2>&1
check "the jailed starter with the module and library in its workdir=, no fault" clean_log "$tmp/wd.log"
"$ref" play --sandbox on --variant link --seed 4 --log "$tmp/bare.log" \
	"python3 $top/bots/starter/starter.py 5" "$rnd" >/dev/null 2>&1
check "jailed without them it plays on at random, and says why on stderr" \
	sh -c "grep -q '^result .* faults=-,- ' '$tmp/bare.log' && grep -q 'without the engine module' '$tmp/bare.log.seat0.stderr'"
exit $fail
