#!/bin/sh
# t4007-protocol-scoring: the scoring rules of protocol.md are complete. A
# scorer written from protocol.md alone (below, in Python) recomputes every
# seat's score from each `go` state of real games, and must agree with the
# referee's `scores=` field every time: tetroll from the sheets, rings and
# prizes (rows, ring values, prize table); link from the placed pieces
# (landing, links, gaps); matrix's gains of every round from the field
# before it and the placements (cells of every state, shared cells,
# clears, holes); rush's uncovered squares from the boards.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-random" "$top/bin/bot-tetroll" "$top/bin/bot-link" "$top/bin/bot-matrix" "$top/bin/bot-rush"

cat >"$tmp/score.py" <<'PY'
import sys

def fields(line):
    return dict(w.split("=", 1) for w in line.split(" ") if "=" in w)

def tetroll(f):
    n, h, w = int(f["players"]), int(f["height"]), int(f["width"])
    runner1 = int(f["runner1"])
    out = []
    for s in range(n):
        grid = f["sheet%d" % s].split("/")[3:]          # the grid, top row first
        rings = [int(v) for v in f["rings%d" % s].split(",")]
        prize = f["prizes%d" % s]
        rows = even = odd = 0
        for row in grid:
            if "." in row:
                continue                                # unfinished: no score
            seen, r = set(), 10
            for c in row:
                if c in seen:
                    r -= int(c)
                seen.add(c)
            rows += r
            even += r % 2 == 0
            odd += r % 2 == 1
        pay = lambda b, first, second: first if prize[b] == "1" else second if prize[b] == "2" else 0
        score = rows + rings[0] + pay(0, 4, runner1) + even * pay(1, 2, 1) + 2 * rings[2] \
            + pay(3, 16, 4) + odd * pay(4, 4, 2) + 3 * rings[5]
        out.append(score)
    return out

CELLS = {  # the orientation table of protocol.md's link section
    "I0": [(0,0),(1,0),(2,0),(3,0)], "I1": [(0,0),(0,1),(0,2),(0,3)], "O0": [(0,0),(1,0),(0,1),(1,1)],
    "T0": [(0,0),(1,0),(2,0),(1,1)], "T1": [(0,0),(0,1),(1,1),(0,2)], "T2": [(1,0),(0,1),(1,1),(2,1)],
    "T3": [(1,0),(0,1),(1,1),(1,2)], "J0": [(0,0),(1,0),(2,0),(0,1)], "J1": [(0,0),(0,1),(0,2),(1,2)],
    "J2": [(2,0),(0,1),(1,1),(2,1)], "J3": [(0,0),(1,0),(1,1),(1,2)], "L0": [(0,0),(1,0),(2,0),(2,1)],
    "L1": [(0,0),(1,0),(0,1),(0,2)], "L2": [(0,0),(0,1),(1,1),(2,1)], "L3": [(1,0),(1,1),(0,2),(1,2)],
    "S0": [(0,0),(1,0),(1,1),(2,1)], "S1": [(1,0),(0,1),(1,1),(0,2)], "Z0": [(1,0),(2,0),(0,1),(1,1)],
    "Z1": [(0,0),(0,1),(1,1),(1,2)],
}

def link(f):
    n = int(f["players"])
    owner = {}                 # (x, y) -> piece index
    seat_of, score = [], [0] * n
    def total(s):
        # sizes of the groups of 3 or more of seat s's pieces
        mine = [i for i in range(len(seat_of)) if seat_of[i] == s]
        seen, t = set(), 0
        for i in mine:
            if i in seen:
                continue
            group, todo = {i}, [i]
            while todo:
                j = todo.pop()
                for (x, y), k in list(owner.items()):
                    if k != j:
                        continue
                    for d in ((1,0),(-1,0),(0,1),(0,-1)):
                        m = owner.get((x + d[0], y + d[1]))
                        if m is not None and seat_of[m] == s and m not in group:
                            group.add(m); todo.append(m)
            seen |= group
            if len(group) >= 3:
                t += len(group)
        return t
    if f["pieces"] == "-":
        return score
    for item in f["pieces"].split(","):
        s, mv = item.split(":")
        s = int(s)
        o, x = mv.split("@")
        x, cells = int(x), CELLS[o]
        before = total(s)
        top = lambda c: max([y + 1 for (cx, y) in owner if cx == c] or [0])
        y = max(top(x + cx) - cy for cx, cy in cells if cy == min(d for e, d in cells if e == cx))
        gaps = 0
        for cx in set(c for c, _ in cells):
            low = min(cy for c, cy in cells if c == cx)
            gaps += y + low - top(x + cx)
        seat_of.append(s)
        for cx, cy in cells:
            owner[(x + cx, y + cy)] = len(seat_of) - 1
        score[s] += total(s) - before - (0 if gaps == 0 else 1 if gaps == 1 else 2)
    return score

def rush(f):
    # the uncovered squares of each board, the top row included
    return [f["board%d" % s].count(".") for s in range(int(f["players"]))]

SRS = {  # protocol.md's matrix table: cells of each state from the rotation point
    "I": ["-1,0 0,0 1,0 2,0", "1,1 1,0 1,-1 1,-2", "-1,-1 0,-1 1,-1 2,-1", "0,1 0,0 0,-1 0,-2"],
    "O": ["0,0 1,0 0,1 1,1"] * 4,
    "T": ["-1,0 0,0 1,0 0,1", "0,1 0,0 0,-1 1,0", "-1,0 0,0 1,0 0,-1", "0,1 0,0 0,-1 -1,0"],
    "J": ["-1,1 -1,0 0,0 1,0", "0,1 1,1 0,0 0,-1", "-1,0 0,0 1,0 1,-1", "0,1 0,0 0,-1 -1,-1"],
    "L": ["-1,0 0,0 1,0 1,1", "0,1 0,0 0,-1 1,-1", "-1,-1 -1,0 0,0 1,0", "-1,1 0,1 0,0 0,-1"],
    "S": ["-1,0 0,0 0,1 1,1", "0,1 0,0 1,0 1,-1", "-1,-1 0,-1 0,0 1,0", "-1,1 -1,0 0,0 0,-1"],
    "Z": ["-1,1 0,1 0,0 1,0", "1,1 1,0 0,0 0,-1", "-1,0 0,0 0,-1 1,-1", "-1,-1 -1,0 0,0 0,1"],
}

def piece_cells(word):
    k, rest = word[0], word[1:]
    st, at = rest.split("@")
    x, y = (int(v) for v in at.split(","))
    rot = "0R2L".index({"1": "R", "3": "L"}.get(st, st))
    return [(x + int(a), y + int(b)) for a, b in (c.split(",") for c in SRS[k][rot].split())]

def matrix_gains(prev, f):
    # the gains of the round between the go `prev` and the go `f`
    w, n = int(f["width"]), int(f["players"])
    rows = int(f["height"]) + int(f["buffer"])
    filled = set()
    for y, row in enumerate(reversed(prev["field"].split("/"))):
        filled |= {(x, y) for x, c in enumerate(row) if c == "#"}
    mine = [[] for _ in range(n)]
    for s, m in enumerate(f["last"].split(";")):
        if m != "-":
            for word in m.split("+"):
                mine[s] += piece_cells(word)
    count = {}
    for cells in mine:
        for c in cells:
            count[c] = count.get(c, 0) + 1
    board = filled | set(count)
    full = [y for y in range(rows) if all((x, y) in board for x in range(w))]
    shift = lambda c: (c[0], c[1] - sum(1 for r in full if r < c[1]))
    after = {shift(c) for c in board if c[1] not in full}
    def hole(x, y):
        if (x, y) in after or not (0 <= x < w and 0 <= y < rows):
            return False
        near = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return all(c in after for c in near if 0 <= c[0] < w and 0 <= c[1] < rows)
    gains = []
    for s in range(n):
        if not mine[s]:
            gains.append(0 if s in retired(prev) else -5)   # missed: -5
            continue
        g = sum(1 for c in mine[s] if count[c] == 1)
        g += 5 * sum(1 for r in full if any(c[1] == r for c in mine[s]))
        moved = [shift(c) for c in mine[s] if c[1] not in full]
        if any(hole(x + dx, y + dy) for x, y in moved for dx, dy in ((1,0),(-1,0),(0,1),(0,-1))):
            g -= 3
        gains.append(g)
    return gains

def retired(f):
    return [] if f["retired"] == "-" else [int(v) for v in f["retired"].split(",")]

game, checked, bad, prev = sys.argv[1], 0, 0, None
for line in open(sys.argv[2]):
    if " go " not in line or not line.startswith("> 0 "):
        continue
    f = fields(line.rstrip("\n"))
    if game == "matrix":
        if prev is None or f["round"] == prev["round"]:
            prev = f
            continue
        want = [int(v) for v in f["gains"].split(",")]
        got, prev = matrix_gains(prev, f), f
    else:
        want = [int(v) for v in f["uncovered" if game == "rush" else "scores"].split(",")]
        got = tetroll(f) if game == "tetroll" else rush(f) if game == "rush" else link(f)
    checked += 1
    if got != want:
        bad += 1
        print("mismatch: protocol.md gives %s, the referee %s: %s" % (got, want, line[:200]), file=sys.stderr)

sys.exit(1 if bad or checked == 0 else 0)
PY

# check-long: the AI bots at the default 5 s a move (full strength); make
# check gives them 250 ms a move.
t=$(long_or "--time=move:$(ms 250)" "")
echo "1..8"
for seed in 3 9; do
	"$ref" play --variant matrix --seed $seed ${t:+"$t"} --log "$tmp/m$seed.log" "$top/bin/bot-matrix" \
		"$top/bin/bot-random --seed $seed" "$top/bin/bot-random --seed 1$seed" >/dev/null 2>&1
	check "matrix seed $seed: every round's gains follow from protocol.md's rules" \
		python3 "$tmp/score.py" matrix "$tmp/m$seed.log"
	"$ref" play --variant rush --seed $seed ${t:+"$t"} --option lockstep=1 --log "$tmp/r$seed.log" \
		"$top/bin/bot-rush" "$top/bin/bot-random --seed $seed" >/dev/null 2>&1
	check "rush seed $seed: every go's uncovered counts follow from protocol.md's rules" \
		python3 "$tmp/score.py" rush "$tmp/r$seed.log"
	"$ref" play --variant tetroll --seed $seed ${t:+"$t"} --log "$tmp/t$seed.log" \
		"$top/bin/bot-tetroll" "$top/bin/bot-random --seed $seed" >/dev/null 2>&1
	check "tetroll seed $seed: every go's scores follow from protocol.md's rules" \
		python3 "$tmp/score.py" tetroll "$tmp/t$seed.log"
	"$ref" play --variant link --seed $seed ${t:+"$t"} --option width=8 --option height=10 --log "$tmp/l$seed.log" \
		"$top/bin/bot-link" "$top/bin/bot-random --seed $seed" >/dev/null 2>&1
	check "link seed $seed: every go's scores follow from protocol.md's rules" \
		python3 "$tmp/score.py" link "$tmp/l$seed.log"
done
exit $fail
