#!/usr/bin/env python3
"""link-spsa: tune bot-link's evaluation weights by self-play (SPSA).

Simultaneous perturbation stochastic approximation, as chess engine
testers tune evaluation weights: each iteration perturbs every weight at
once by +-c (a random sign per weight), plays the two perturbed bots
against each other in bin/bot-link's in-process arena (GAMES games,
seat-swapped pairs on seeds no other iteration uses), and moves every
weight by a * (score - 1/2) * 2 / (+-c) toward the side that scored. The
steps shrink as in Spall's guidelines (a_k = a / (k + 1 + A)^0.602,
c_k = c / (k + 1)^0.101). Deterministic for a given command line: the
signs come from --rng-seed and the games are seeded.

    scripts/link-spsa.py [--iterations N] [--games G] [--depth D]
                         [--start LIST] [--rng-seed S] [--bot PATH]

Prints one line per iteration (the weights after it) and the final
weights, comma-separated in linkai.h's LINKAI_W_* order, ready for
`bot-link --weights`. Run from the repository top after `make`.
"""
import argparse
import random
import subprocess
import sys

NAMES = ["open1", "open2", "open3", "cap", "left", "bump", "shapes"]
LOW = [0, 0, 0, 1, 1, 0, 0]
HIGH = [40, 60, 40, 12, 20, 20, 40]


def clamp(values):
    return [min(max(int(round(v)), lo), hi) for v, lo, hi in zip(values, LOW, HIGH)]


def match(bot, depth, games, first_seed, mine, theirs):
    """The score (ties 1/2) of weights `mine` against `theirs`."""
    cmd = [bot, "--arena", str(games), "--depth", str(depth), "--opponent", "self",
           "--opp-depth", str(depth), "--first-seed", str(first_seed),
           "--weights", ",".join(map(str, mine)), "--opp-weights", ",".join(map(str, theirs))]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("games "):
            words = line.replace("(", " ").split()
            won = int(words[words.index("won") + 1])
            tied = int(words[words.index("tied") + 1])
            return (won + tied / 2) / games
    raise RuntimeError("no tally from " + " ".join(cmd))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--games", type=int, default=40, help="games per iteration (even)")
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--start", default="2,6,3,4,6,0,0")
    ap.add_argument("--rng-seed", type=int, default=17)
    ap.add_argument("--a", type=float, default=6.0, help="step size")
    ap.add_argument("--c", type=float, default=2.0, help="perturbation")
    ap.add_argument("--bot", default="bin/bot-link")
    ap.add_argument("--seed-base", type=int, default=100000, help="first arena seed")
    args = ap.parse_args()
    theta = [float(v) for v in args.start.split(",")]
    if len(theta) != len(NAMES) or args.games % 2:
        ap.error("--start needs %d weights and --games an even count" % len(NAMES))
    rng = random.Random(args.rng_seed)
    big_a = args.iterations / 10
    for k in range(args.iterations):
        ak = args.a / (k + 1 + big_a) ** 0.602
        ck = args.c / (k + 1) ** 0.101
        delta = [rng.choice((-1, 1)) for _ in theta]
        plus = clamp([t + ck * d for t, d in zip(theta, delta)])
        minus = clamp([t - ck * d for t, d in zip(theta, delta)])
        if plus == minus:
            continue
        seed = args.seed_base + k * args.games // 2
        s = match(args.bot, args.depth, args.games, seed, plus, minus)
        grad = 2 * s - 1
        theta = [min(max(t + ak * grad / (ck * d), lo), hi)
                 for t, d, lo, hi in zip(theta, delta, LOW, HIGH)]
        print("iter %d score %.3f weights %s" % (k, s, ",".join("%.2f" % t for t in theta)),
              flush=True)
    print("final " + ",".join(map(str, clamp(theta))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
