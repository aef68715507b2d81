#!/usr/bin/env python3
"""link-texel: fit bot-link's evaluation weights to who won (2 players).

The evaluation's margin m (tenths of a point: 10 per point scored, the
open-cell weights, the largest group, the shapes in the supply) is read by
the search as a chance of winning, 1 / (1 + exp(-m / (spread * r))) with
r = sqrt(room / 4 + 1) (bots/linkai.c, win_chance). So the weights are the
coefficients of a logistic regression of the result on the features'
differences divided by r, as chess engines tune theirs on game results
(the "Texel" method). The points' coefficient gives the spread, and the
others, times the spread, the weights in tenths.

Input: files written by `bin/bot-link --arena N ... --positions FILE`
(one line per position after a placement: each seat's rank, the seat that
rolls next, the room, each seat's features in linkai.h's LINKAI_F_* order).
Each line is read from both seats' sides. Every fifth block of 2000 lines
is held out, and the log-loss there is printed for the weights given with
--weights (today's defaults if not) and for the fitted ones.

    scripts/link-texel.py [--weights LIST] [--tempo] [--explore] FILE...

Prints the fitted weights in LINKAI_W_* order, ready for `--weights`
(the cap, pieces-left, bump and float entries are kept from --weights:
the features are counted with them; the supply weights too, unless
--explore fits them). The default weights came from

    bin/bot-link --arena 3000 --depth 2 --opponent self --opp-depth 2 \
        --first-seed 200000 --positions out/texel/d2s.txt
    scripts/link-texel.py --explore out/texel/d2s.txt

(docs/ai/link.md). Pure Python: Newton's method.
"""
import argparse
import math
import sys

DEFAULT = [2, 6, 3, 4, 6, 0, 0, 50, 10, 0, 0, 0, 0, 0]
W_OPEN1, W_OPEN2, W_OPEN3, W_CAP, W_LEFT, W_BUMP, W_SHAPES, W_FLOAT, W_SPREAD, W_SUPPLY = range(10)
F_SCORE, F_OPEN1, F_OPEN2, F_OPEN3, F_LEFT, F_LARGEST, F_KINDS, F_SUPPLY = range(8)
BLOCK = 2000	# positions held out together (a game's are alike)
NF = 12		# LINKAI_F_COUNT: the supply is one entry per shape, I O T L S
NAMES = ["points", "open1", "open2", "open3", "largest", "kinds", "tempo",
         "left", "I", "O", "T", "L", "S"]


def rows(paths, left_full):
    """(x, y, held_out) for every line of every file, from both sides."""
    n = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                v = line.split()
                if len(v) != 4 + 2 * NF:
                    sys.exit(f"link-texel: {path}: a line of {len(v)} fields, not {4 + 2 * NF} (2 players only)")
                rank = [int(v[0]), int(v[1])]
                nxt, room = int(v[2]), int(v[3])
                f0 = [float(t) for t in v[4:4 + NF]]
                f1 = [float(t) for t in v[4 + NF:]]
                held = (n // BLOCK) % 5 == 4
                n += 1
                r = math.sqrt(room / 4.0 + 1.0)
                for me, mine, theirs in ((0, f0, f1), (1, f1, f0)):
                    y = 1.0 if rank[me] < rank[1 - me] else 0.5 if rank[me] == rank[1 - me] else 0.0

                    def promise(f, k):
                        return f[k] * min(f[F_LEFT], left_full) / left_full
                    x = [mine[F_SCORE] - theirs[F_SCORE]]
                    x += [promise(mine, k) - promise(theirs, k) for k in (F_OPEN1, F_OPEN2, F_OPEN3)]
                    x += [mine[F_LARGEST] - theirs[F_LARGEST], mine[F_KINDS] - theirs[F_KINDS]]
                    x += [1.0 if nxt == me else -1.0]
                    x += [mine[F_LEFT] - theirs[F_LEFT]]
                    x += [mine[F_SUPPLY + i] - theirs[F_SUPPLY + i] for i in range(5)]
                    yield [t / r for t in x], y, held


def loss(beta, data):
    total, n = 0.0, 0
    for x, y, _ in data:
        z = sum(b * t for b, t in zip(beta, x))
        # log(1 + e^-z) and log(1 + e^z), stably
        lp = -z if z < -30 else math.log1p(math.exp(-z))
        ln = z if z > 30 else math.log1p(math.exp(z))
        total += y * lp + (1 - y) * ln
        n += 1
    return total / max(n, 1)


def fit(data, k, iterations=12, ridge=1e-3):
    beta = [0.0] * k
    for _ in range(iterations):
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for x, y, _ in data:
            x = x[:k]
            z = sum(b * t for b, t in zip(beta, x))
            p = 1.0 / (1.0 + math.exp(-max(min(z, 30), -30)))
            d = p - y
            w = p * (1 - p)
            for i in range(k):
                g[i] += d * x[i]
                wi = w * x[i]
                for j in range(i + 1):
                    h[i][j] += wi * x[j]
        for i in range(k):
            h[i][i] += ridge * len(data)
            for j in range(i):
                h[j][i] = h[i][j]
        step = solve(h, g)
        beta = [b - s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return beta


def solve(a, b):
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-300:
            sys.exit("link-texel: the features are degenerate (too few positions?)")
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def beta_of(w, tempo=0.0):
    """The regression's coefficients that weights w (LINKAI_W_* order) stand for."""
    s = float(w[W_SPREAD])
    return ([10 / s, w[W_OPEN1] / s, w[W_OPEN2] / s, w[W_OPEN3] / s, 1 / s, w[W_SHAPES] / s, tempo / s, 0.0]
            + [w[W_SUPPLY + i] / s for i in range(5)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", default=",".join(map(str, DEFAULT)))
    ap.add_argument("--tempo", action="store_true", help="fit a side-to-move term too (printed, not a weight)")
    ap.add_argument("--explore", action="store_true",
                    help="also fit a weight per piece of each shape left (LINKAI_W_SUPPLY) and a side-to-move term (printed)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    w = [int(t) for t in a.weights.split(",")]
    w += DEFAULT[len(w):]
    if len(w) != len(DEFAULT) or w[W_SPREAD] <= 0 or w[W_LEFT] <= 0:
        sys.exit(f"link-texel: --weights needs {len(DEFAULT)} entries, left and spread above 0")
    data = list(rows(a.files, w[W_LEFT]))
    train = [d for d in data if not d[2]]
    test = [d for d in data if d[2]]
    k = len(NAMES) if a.explore else 7 if a.tempo else 6
    beta = fit(train, k)
    print(f"positions {len(data) // 2} (each from both sides), held out {len(test) // 2}")
    print("coefficient " + " ".join(f"{n} {b:.4f}" for n, b in zip(NAMES, beta)))
    now = beta_of(w)[:k]
    print(f"log-loss held out: weights {a.weights} {loss(now, test):.5f}, fitted {loss(beta, test):.5f}")
    spread = 10 / beta[0]
    out = list(w)
    out[W_OPEN1], out[W_OPEN2], out[W_OPEN3] = (round(b * spread) for b in beta[1:4])
    out[W_SHAPES] = round(beta[5] * spread)
    out[W_SPREAD] = round(spread)
    print(f"largest group {beta[4] * spread:.2f} tenths a piece (fixed at 1)")
    if a.tempo or a.explore:
        print(f"tempo {beta[6] * spread:.1f} tenths (not a weight)")
    if a.explore:
        # a piece left counts `left` plus its shape's own term
        out[W_SUPPLY:] = (round((beta[7] + b) * spread) for b in beta[8:])
    print(",".join(map(str, out)))


if __name__ == "__main__":
    main()
