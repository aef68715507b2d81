#!/usr/bin/env python3
"""tetroll-fit: fit bot-tetroll's sheet value to the scores games reach.

A sheet's value is its score now plus an estimate of the points still to
come. The hand-set estimate (bots/tetrollai.c, tetrollai_eval) is one of
the sheet's features (bots/tetrollai.h, TETROLLAI_F_*: HAND); the fitted
value is the score now plus a weighted sum of all of them. The weights are
a least-squares fit of the points a game went on to score (its final score
less the score now) on the features of every position it passed through,
shrunk towards the hand-set value (weight 1 on HAND, 0 elsewhere) by a
ridge of --ridge per position, so that a feature the games rarely show
stays near it.

Input: files written by `prog-tetroll-solo ... positions=FILE` (one line
per turn of a game: the final score, the score now, then the features).
Every fifth block of 2000 lines is held out of the fit, and the error
there is printed for the hand-set value and for the fitted one.

With --margin, the target is the margin a 2-player game went on to make:
each line (prog-tetroll-solo ... players=2 margins positions=FILE) goes
on with the other seat's final score, score now and features, and the
fit is of (the mover's points to come) less (the other's) on the
difference of their features, one set of weights for both sides.

    scripts/tetroll-fit.py [--margin] [--ridge R] [-o FILE] FILE...

Writes the weights in TETROLLAI_F_* order, one per line as a C
initializer with the feature's name (bots/tetroll-weights.h's format), to
FILE or standard output; the report goes to standard error. Pure Python:
the normal equations, solved by Gaussian elimination.
"""
import argparse
import math
import sys

NAMES = (["bias", "hand", "rows", "dead", "dead_rows", "bump", "covered", "empty", "empty2",
          "empty_rows", "above", "miss", "miss_loss", "repeats", "open_prizes"]
         + ["fill%d" % k for k in range(5)]
         + ["open%d" % (b + 1) for b in range(6)]
         + ["crossed%d" % (b + 1) for b in range(6)]
         + ["rings%d" % (b + 1) for b in range(6)]
         + ["rival%d" % (b + 1) for b in range(6)])
NF = len(NAMES)
HAND = NAMES.index("hand")
BLOCK = 2000


def die(msg):
    sys.exit("tetroll-fit: " + msg)


def read(paths, margin=False):
    """Yield (features, target, held_out) for every line."""
    n = 0
    width = (2 + NF) * (2 if margin else 1)
    what = f"final score, score now, {NF} features" + (", for each seat" if margin else "")
    for path in paths:
        try:
            f = open(path)
        except OSError as e:
            die(f"{path}: {e.strerror}")
        with f:
            for lineno, line in enumerate(f, 1):
                v = line.split()
                if len(v) != width:
                    die(f"{path}:{lineno}: {len(v)} fields, not {width} ({what})")
                try:
                    x = [float(t) for t in v]
                except ValueError:
                    die(f"{path}:{lineno}: not a number")
                if not all(math.isfinite(t) for t in x):
                    die(f"{path}:{lineno}: not a finite number")
                feat, target = x[2:2 + NF], x[0] - x[1]
                if margin:
                    o = x[2 + NF:]
                    feat, target = [a - b for a, b in zip(feat, o[2:])], target - (o[0] - o[1])
                yield feat, target, (n // BLOCK) % 5 == 4
                n += 1


def solve(a, b):
    """x with a x = b (a symmetric positive definite, copied)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            die("the features are degenerate (no positions?)")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            k = m[r][c] / m[c][c]
            if k:
                mr, mc = m[r], m[c]
                for j in range(c, n + 1):
                    mr[j] -= k * mc[j]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - sum(m[c][j] * x[j] for j in range(c + 1, n))) / m[c][c]
    return x


def main():
    ap = argparse.ArgumentParser(description="fit bot-tetroll's sheet value to final scores")
    ap.add_argument("--ridge", type=float, default=0.01, help="shrinkage towards the hand-set value, per position")
    ap.add_argument("--margin", action="store_true",
                    help="fit the margin to come (2-player lines with both seats)")
    ap.add_argument("-o", dest="out", help="write the weights here")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if not args.ridge >= 0:
        die("--ridge must be 0 or more")

    xtx = [[0.0] * NF for _ in range(NF)]
    xty = [0.0] * NF
    held = []
    n = 0
    for x, y, out in read(args.files, args.margin):
        if out:
            held.append((x, y))
            continue
        n += 1
        nz = [(i, a) for i, a in enumerate(x) if a]
        for i, a in nz:
            row = xtx[i]
            for j, c in nz:
                row[j] += a * c
            xty[i] += a * y
    if n == 0:
        die("no positions to fit")
    w0 = [0.0] * NF
    w0[HAND] = 1.0
    lam = args.ridge * n
    for i in range(NF):
        xtx[i][i] += lam
        xty[i] += lam * w0[i]
    w = solve(xtx, xty)

    def rmse(weights):
        if not held:
            return float("nan")
        return math.sqrt(sum((y - sum(a * b for a, b in zip(x, weights))) ** 2 for x, y in held) / len(held))

    print(f"fitted on {n} positions, {len(held)} held out; error held out ({'margin' if args.margin else 'points'} to come): "
          f"hand-set {rmse(w0):.3f}, fitted {rmse(w):.3f}", file=sys.stderr)
    text = "".join(f"\t{v:.9g},\t/* {NAMES[i]} */\n" for i, v in enumerate(w))
    if args.out:
        try:
            with open(args.out, "w") as f:
                f.write(text)
        except OSError as e:
            die(f"{args.out}: {e.strerror}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
