#!/bin/sh
# t4011-link-texel: the fit behind bot-link's default weights
# (scripts/link-texel.py, docs/ai/link.md "Weights fitted to who won"). The
# arena's --positions file has one line per placement, in the format the
# script reads, the same for the same seeds; a file it cannot write is
# refused in one line. The script recovers known weights from positions
# whose results were drawn from them, and names a malformed file.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$top/bin/bot-link" "$top/scripts/link-texel.py"

echo "1..7"
bot=$top/bin/bot-link
texel=$top/scripts/link-texel.py

"$bot" --arena 40 --depth 1 --opponent self --opp-depth 1 --first-seed 11 --positions "$tmp/a.txt" >"$tmp/a.out"
check "the arena writes positions and its tally" grep -q "^games 40 players 2" "$tmp/a.out"
# each line: 2 ranks, next, room, 2 x 12 features; ranks 1 or 2; room 0..200
lines_ok() {
	awk 'NF != 28 || ($1 != 1 && $1 != 2) || ($2 != 1 && $2 != 2) || ($3 != 0 && $3 != 1) ||
	     $4 < 0 || $4 > 200 { bad = 1 } END { exit bad || NR < 40 * 20 }' "$tmp/a.txt"
}
check "every position line has ranks, the next seat, the room and 24 features" lines_ok
"$bot" --arena 40 --depth 1 --opponent self --opp-depth 1 --first-seed 11 --positions "$tmp/b.txt" >/dev/null
check "the same seeds write the same positions" cmp -s "$tmp/a.txt" "$tmp/b.txt"

"$bot" --arena 2 --depth 1 --positions "$tmp/no/such/dir" >"$tmp/out" 2>"$tmp/err"
rc=$?
refused() { [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "cannot write $tmp/no/such/dir" "$tmp/err"; }
check "an unwritable --positions is refused in one line" refused

# Positions whose results follow known weights (open 3,7,2; shapes 4;
# spread 6; an I 10, a T 2, an S 1 a piece), drawn from a seeded generator.
python3 - "$tmp/synthetic.txt" <<'EOF'
import math, random, sys
rnd = random.Random(7)
beta = {"score": 10, "open": [3, 7, 2], "largest": 1, "kinds": 4, "supply": [10, 0, 2, 0, 1]}
spread = 6.0
with open(sys.argv[1], "w") as out:
    for _ in range(12000):
        room = rnd.randrange(0, 201)
        seats, value = [], []
        for p in range(2):
            supply = [rnd.randrange(0, 6) for _ in range(5)]
            f = [rnd.randrange(0, 15), rnd.uniform(0, 6), rnd.uniform(0, 6), rnd.uniform(0, 6),
                 sum(supply), rnd.randrange(0, 12), sum(1 for s in supply if s > 0)] + supply
            v = beta["score"] * f[0] + sum(w * f[1 + k] for k, w in enumerate(beta["open"]))
            v += beta["largest"] * f[5] + beta["kinds"] * f[6]
            v += sum(w * s for w, s in zip(beta["supply"], supply))
            seats.append(f)
            value.append(v)
        z = (value[0] - value[1]) / (spread * math.sqrt(room / 4 + 1))
        won = rnd.random() < 1 / (1 + math.exp(-z))
        ranks = "1 2" if won else "2 1"
        feats = " ".join("%g" % x for f in seats for x in f)
        out.write(f"{ranks} {rnd.randrange(2)} {room} {feats}\n")
EOF
python3 "$texel" --explore "$tmp/synthetic.txt" >"$tmp/fit.out" 2>"$tmp/fit.err"
close() {
	tail -1 "$tmp/fit.out" | awk -F, '
		function near(i, want, tol) { d = $i - want; if (d < 0) d = -d; if (d > tol) bad = 1 }
		NF != 14 { exit 1 }
		{ near(1, 3, 1); near(2, 7, 1); near(3, 2, 1); near(4, 4, 0); near(5, 6, 0); near(7, 4, 2)
		  near(9, 6, 1); near(10, 10, 2); near(11, 0, 1); near(12, 2, 1); near(13, 0, 1); near(14, 1, 1) }
		END { exit bad }'
}
check "the fit recovers the weights the results were drawn from" close
check "the fitted weights predict the held-out results better than the defaults" \
	awk '/^log-loss held out/ { gsub(",", ""); exit !($NF + 0 < $(NF - 2) + 0 && $NF > 0) }' "$tmp/fit.out"

printf '1 2 0 100 1 2 3\n' >"$tmp/short.txt"
python3 "$texel" "$tmp/short.txt" >/dev/null 2>"$tmp/err"
rc=$?
named() { [ $rc != 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "short.txt: a line of 7 fields" "$tmp/err"; }
check "a malformed positions file is named in one line" named
exit $fail
