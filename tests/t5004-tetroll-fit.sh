#!/bin/sh
# t5004-tetroll-fit: bot-tetroll's fitted sheet value (bots/tetrollai.h,
# TETROLLAI_F_*; scripts/tetroll-fit.py; docs/ai/tetroll.md, "A value
# fitted to final scores"). prog-tetroll-solo's positions file has one
# line per turn (final score, score now, the features), the same for the
# same seeds; weights that put 1 on the hand-set estimate and 0 elsewhere
# play the hand-set value's games; the script recovers known weights and
# names a malformed file; with margins (2 players) each line gives both
# seats and --margin recovers known weights of the margin to come; bot-tetroll refuses bad --weights and --eval in
# one line. Under check-long, bots/tetroll-weights.h is made again from
# its games by the command docs/ai/tetroll.md gives, and must match byte for byte,
# and so must bots/tetroll-weights2.h and bots/tetroll-margin.h (2 players,
# the points and the margin fitted on the same games).
# check-long: the fitted weights made again from 12000 greedy games and 6000 2-player ones (two at once)
. "${TETRARENA_TOP:-.}/tests/tap.sh"
solo=$build/tests/prog-tetroll-solo
fit=$top/scripts/tetroll-fit.py
bot=$top/bin/bot-tetroll
need "$solo" "$fit" "$bot" "$top/bots/tetroll-weights.h" "$top/bots/tetroll-weights2.h" "$top/bots/tetroll-margin.h"

echo "1..18"
# (the solo harness is deterministic: independent runs go at once)
"$solo" ai 6 1 level=3 positions="$tmp/a.txt" >"$tmp/a.out" &
"$solo" ai 6 1 level=3 positions="$tmp/b.txt" >/dev/null &
"$solo" ai 3 1 level=3 players=2 positions="$tmp/p2.txt" >/dev/null &
"$solo" ai 3 1 level=3 players=2 margins positions="$tmp/m2.txt" >/dev/null &
wait
# 46 fields: the final score at least the score now; the bias feature 1;
# alone, no rival on a track (the last 6)
lines_ok() {
	awk 'NF != 46 || $1 < $2 || $3 != 1 || $41 $42 $43 $44 $45 $46 != "000000" { bad = 1 }
	     END { exit bad || NR < 6 * 10 }' "$tmp/a.txt"
}
check "a positions line per turn: final score, score now, 44 features" lines_ok
rivals() {
	awk 'NF != 46 || $1 < $2 { bad = 1 } $41 + $42 + $43 + $44 + $45 + $46 > 0 { r++ }
	     END { exit bad || NR < 3 * 20 || r < 10 }' "$tmp/p2.txt"
}
check "players=2: both seats' turns, with the rival's progress on the tracks both race for" rivals
# 92 fields: the mover's 46, then the other seat's at the same moment;
# the mover's half is the line players=2 writes without margins
both() {
	awk 'NF != 92 || $1 < $2 || $47 < $48 || $3 != 1 { bad = 1 } END { exit bad || NR < 3 * 20 }' "$tmp/m2.txt" &&
		cut -d' ' -f1-46 "$tmp/m2.txt" | cmp -s - "$tmp/p2.txt"
}
check "players=2 margins: each line goes on with the other seat's final score, score now and features" both
"$solo" ai 1 1 level=3 margins positions="$tmp/m1.txt" >/dev/null 2>"$tmp/err"
rc=$?
check "margins without players=2 is refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'margins needs players=2' '$tmp/err'"
check "the same seeds write the same positions" cmp -s "$tmp/a.txt" "$tmp/b.txt"
"$solo" ai 1 1 positions="$tmp/no/such/dir" >/dev/null 2>"$tmp/err"
rc=$?
check "an unwritable positions file is refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'cannot write' '$tmp/err'"

# 1 on the hand-set estimate, 0 elsewhere: exactly the hand-set value.
awk 'BEGIN { for (i = 0; i < 44; i++) printf "\t%d,\t/* */\n", i == 1 }' >"$tmp/hand.h"
"$solo" ai 12 1 level=3 >"$tmp/h0.out" &
"$solo" ai 12 1 level=3 weights="$tmp/hand.h" >"$tmp/h1.out" &
"$solo" ai 4 1 level=3 players=2 >"$tmp/h2.out" &
"$solo" ai 4 1 level=3 players=2 weights="$tmp/hand.h" >"$tmp/h3.out" &
"$solo" ai 12 1 level=3 weights="$top/bots/tetroll-weights.h" >"$tmp/f.out" &
wait
check "weights of the hand-set estimate alone play the hand-set games" cmp -s "$tmp/h0.out" "$tmp/h1.out"
check "... and at 2 players" cmp -s "$tmp/h2.out" "$tmp/h3.out"
check "the fitted weights play other games" sh -c "[ -s '$tmp/f.out' ] && ! cmp -s '$tmp/h0.out' '$tmp/f.out'"

# Positions whose points to come follow known weights, with noise.
python3 - "$tmp/synthetic.txt" <<'EOF'
import random, sys
rnd = random.Random(5)
w = [3, 0.5, 0, -1.5, 0, -0.4, -3, 0.25, 0.5] + [0] * 35
w[14] = 4
with open(sys.argv[1], "w") as out:
    for _ in range(20000):
        f = [1] + [rnd.uniform(0, 40)] + [rnd.uniform(0, 10) for _ in range(42)]
        now = rnd.randrange(0, 100)
        final = now + sum(a * b for a, b in zip(w, f)) + rnd.gauss(0, 5)
        out.write(" ".join(["%.6g" % final, str(now)] + ["%.6g" % x for x in f]) + "\n")
EOF
python3 "$fit" --ridge 0 -o "$tmp/w.h" "$tmp/synthetic.txt" 2>"$tmp/fit.err"
recovered() {
	awk 'BEGIN { split("3 0.5 0 -1.5 0 -0.4 -3 0.25 0.5 0 0 0 0 0 4", w, " ") }
	     { v = $1 + 0; want = NR <= 15 ? w[NR] : 0; tol = NR == 1 ? 2 : 0.1
	       if (v - want > tol || want - v > tol) bad = 1 }
	     END { exit bad || NR != 44 }' "$tmp/w.h"
}
check "the fit recovers known weights (within 0.1; the constant within 2)" recovered
check "the fit reports its held-out error" grep -q "held out" "$tmp/fit.err"
# Margins to come that follow known weights of the difference of the
# two sides' features.
python3 - "$tmp/margins.txt" <<'EOF'
import random, sys
rnd = random.Random(6)
w = [0, 0.8, 0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3] + [0] * 23 + [1.5] + [0] * 5
def side():
    return [1] + [rnd.uniform(0, 40)] + [rnd.uniform(0, 10) for _ in range(42)]
with open(sys.argv[1], "w") as out:
    for _ in range(20000):
        f, g = side(), side()
        now, onow = rnd.randrange(0, 100), rnd.randrange(0, 100)
        margin = sum(a * (b - c) for a, b, c in zip(w, f, g)) + rnd.gauss(0, 5)
        fin = now + max(margin, 0) + 20
        ofin = fin - margin - now + onow
        out.write(" ".join("%.6g" % x for x in [fin, now] + f + [ofin, onow] + g) + "\n")
EOF
# (the constant cancels in a difference: a light ridge holds it at 0)
python3 "$fit" --margin --ridge 0.0001 -o "$tmp/wm.h" "$tmp/margins.txt" 2>"$tmp/fitm.err"
recovered_margin() {
	awk '{ v = $1 + 0; want = NR == 2 ? 0.8 : NR == 4 ? -2 : NR == 15 ? 3 : NR == 39 ? 1.5 : 0
	       if (NR > 1 && (v - want > 0.1 || want - v > 0.1)) bad = 1 }
	     END { exit bad || NR != 44 }' "$tmp/wm.h" && grep -q "margin to come" "$tmp/fitm.err"
}
check "--margin recovers known weights of the margin to come (within 0.1)" recovered_margin
head -3 "$tmp/synthetic.txt" | cut -d' ' -f1-30 >"$tmp/short.txt"
python3 "$fit" "$tmp/short.txt" >/dev/null 2>"$tmp/err"
rc=$?
check "a malformed positions file is named in one line" \
	sh -c "[ $rc != 0 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'short.txt:1: 30 fields' '$tmp/err'"

head -5 "$top/bots/tetroll-weights.h" >"$tmp/few.h"
"$bot" --weights "$tmp/few.h" </dev/null >/dev/null 2>"$tmp/err"
rc=$?
check "bot-tetroll --weights with too few weights is refused in one line" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'fewer weights than features' '$tmp/err'"
"$bot" --eval learned </dev/null >/dev/null 2>"$tmp/err"
rc=$?
check "bot-tetroll --eval names its three values when refused" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'hand, fitted or margin' '$tmp/err'"

if [ "$long" = 1 ]; then
	# The command docs/ai/tetroll.md gives for the weights file.
	"$solo" ai 6000 100001 level=3 positions="$tmp/a6000.txt" >/dev/null &
	"$solo" ai 6000 200001 level=3 positions="$tmp/b6000.txt" >/dev/null
	wait
	python3 "$fit" -o "$tmp/weights.h" "$tmp/a6000.txt" "$tmp/b6000.txt" 2>/dev/null
	check "bots/tetroll-weights.h is what its games and the fit make" cmp -s "$tmp/weights.h" "$top/bots/tetroll-weights.h"
	rm -f "$tmp/a6000.txt" "$tmp/b6000.txt"
	# The 2-player games once, with both seats on each line (margins): the
	# first 2 + 44 columns are the lines the points fit reads.
	"$solo" ai 3000 300001 level=3 players=2 margins positions="$tmp/a3000.txt" >/dev/null &
	"$solo" ai 3000 400001 level=3 players=2 margins positions="$tmp/b3000.txt" >/dev/null
	wait
	python3 "$fit" --margin -o "$tmp/margin.h" "$tmp/a3000.txt" "$tmp/b3000.txt" 2>/dev/null
	check "bots/tetroll-margin.h is what its games and the margin fit make" cmp -s "$tmp/margin.h" "$top/bots/tetroll-margin.h"
	cut -d' ' -f1-46 "$tmp/a3000.txt" >"$tmp/a3000p.txt"
	cut -d' ' -f1-46 "$tmp/b3000.txt" >"$tmp/b3000p.txt"
	python3 "$fit" -o "$tmp/weights2.h" "$tmp/a3000p.txt" "$tmp/b3000p.txt" 2>/dev/null
	check "bots/tetroll-weights2.h is what its games and the fit make" cmp -s "$tmp/weights2.h" "$top/bots/tetroll-weights2.h"
else
	skip "the weights made again from 12000 games: under make check-long"
	skip "the 2-player margin weights made again from 6000 games: under make check-long"
	skip "the 2-player weights made again from 6000 games: under make check-long"
fi
exit $fail
