#!/bin/sh
# t3015-export-pgn: `referee export --pgn DIR` writes a link tournament's
# games as PGN that a PGN parser (a small one here: tag pairs, then the
# movetext ending in the result, as Ordo and BayesElo read it) reads back
# game for game: the seven tags, White and Black the seats' bots, Result
# from the ranks. Games of more than two seats are refused.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..5"
time="bank:$(ms 3000),inc:0,move:$(ms 1000),start:$(ms 3000),grace:$(ms 100)"
"$ref" tournament --variant link --options width:6,height:8 --players 2 --games 3 --seed 8 -q \
	--time "$time" -o "$tmp/t" --bot "a=$fake legal 0" --bot "b=$fake multi 2" --bot "c=$fake legal 5" \
	>/dev/null 2>&1
"$ref" export --pgn "$tmp/t" >"$tmp/t.pgn" 2>"$tmp/err"
check "export --pgn exits 0" [ $? = 0 ]
"$ref" export --pgn "$tmp/t" -o "$tmp/o.pgn" 2>>"$tmp/err"
check "-o FILE writes the same" cmp -s "$tmp/t.pgn" "$tmp/o.pgn"
cat >"$tmp/parse.py" <<'EOF2'
import re, sys
text = open(sys.argv[1]).read()
games, tags, i = [], {}, 0
tok = re.compile(r'\s*(?:\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]|(1-0|0-1|1/2-1/2|\*)|(\S+))')
for m in tok.finditer(text):
    if m.group(1):
        tags[m.group(1)] = re.sub(r'\\(.)', r'\1', m.group(2))
    elif m.group(3):
        if not tags:
            sys.exit("a result with no tags")
        tags["_result"] = m.group(3)
        games.append(tags)
        tags = {}
    elif m.group(4) and not re.match(r'^\d+\.$', m.group(4)):
        sys.exit("unexpected movetext: " + m.group(4))
if tags:
    sys.exit("tags with no result")
journal = sorted((l for l in open(sys.argv[2]) if l.startswith("game ")),
                 key=lambda l: int(re.search(r'id=(\d+)', l).group(1)))
bots = [l for l in open(sys.argv[2]) if l.startswith("bots") or " bots=" in l][0]
names = re.search(r'bots=(\S+)', bots).group(1).split(",")
if len(games) != len(journal):
    sys.exit("%d records for %d games" % (len(games), len(journal)))
for g, line in zip(games, journal):
    kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
    seats = [names[int(x)] for x in kv["bots"].split(",")]
    r0, r1 = map(int, kv["ranks"].split(","))
    want = "1-0" if r0 < r1 else "0-1" if r0 > r1 else "1/2-1/2"
    for t in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
        if t not in g:
            sys.exit("game %s: no %s tag" % (kv["id"], t))
    if (g["White"], g["Black"], g["Result"], g["_result"]) != (seats[0], seats[1], want, want):
        sys.exit("game %s: %r, want %r" % (kv["id"], g, (seats, want)))
    if not re.match(r'^(\d{4}\.\d\d\.\d\d|\?{4}\.\?\?\.\?\?)$', g["Date"]) or not g["Round"].endswith("." + kv["id"]):
        sys.exit("game %s: bad Date or Round %r" % (kv["id"], g))
print(len(games))
EOF2
count=$(python3 "$tmp/parse.py" "$tmp/t.pgn" "$tmp/t/journal.txt" 2>"$tmp/parse.err")
check "a PGN parser reads back every game with its tags, players and result ($count games)" \
	sh -c "[ '$count' = 18 ]"
[ -s "$tmp/parse.err" ] && sed 's/^/# /' "$tmp/parse.err"
check "the export names the tournament" grep -q '^\[Event "tetrarena link tournament, seed 8"\]' "$tmp/t.pgn"
"$ref" tournament --variant link --options width:6,height:8 --players 3 --games 1 --seed 8 -q \
	--time "$time" -o "$tmp/t3" --bot "a=$fake legal 0" --bot "b=$fake multi 2" --bot "c=$fake legal 5" \
	>/dev/null 2>&1
"$ref" export --pgn "$tmp/t3" >/dev/null 2>"$tmp/err3"
check "games of three seats are refused, saying why" \
	sh -c "[ $? = 1 ] && grep -q 'two-player games only' '$tmp/err3'"
exit $fail
