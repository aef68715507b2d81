#!/usr/bin/env python3
"""ladder-quality.py: ranking quality for the games spent, the ladder's
matchmaking against a round robin (docs/ladder.md, "Ranking quality").

    scripts/ladder-quality.py [--seeds 3] [--rounds 4] [--out DIR]

A field of 12 link bots of known order plays, for each master seed, as a
ladder (`referee ladder`, two seats a game) and as a round robin
(`referee tournament`, every ordered pair a round, the same number of
games at each point): bot-link at depth 2, then bot-link at depth 1 with
0, 10, 20, ... 100 percent of its moves random (--noise). After each
number of games both rankings (the batch fit's ratings) are compared with
the known order by Kendall's tau; the script prints the mean tau of each
method at each count, one line per count, and the table as Markdown.
Everything runs one game at a time (-j 1): the machine is shared.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.path.join(TOP, "bin", "referee")
LINK = os.path.join(TOP, "bin", "bot-link")
TIME = "bank:2000,inc:0,move:100,start:5000"

# strongest first: the known order
FIELD = [("d2", LINK + " --depth 2")] + [
    ("n%03d" % n, "%s --depth 1 --noise %d" % (LINK, n)) for n in range(0, 101, 10)]


def kendall_tau(order, ratings):
    """tau between the known order (a list, best first) and ratings (name -> elo)."""
    n, s = len(order), 0
    for i in range(n):
        for j in range(i + 1, n):
            d = ratings[order[i]] - ratings[order[j]]
            s += 1 if d > 0 else -1 if d < 0 else 0
    return s / (n * (n - 1) / 2)


def run(args, **kw):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        sys.exit("ladder-quality: %s failed:\n%s%s" % (" ".join(args[:3]), r.stdout, r.stderr))
    return r.stdout


def ladder_taus(work, seed, counts):
    d = os.path.join(work, "ladder-%d" % seed)
    run([REF, "ladder", "init", d, "--variant", "link", "--players", "2", "--time", TIME,
         "--seed", str(seed)])
    for name, cmd in FIELD:
        run([REF, "ladder", "add", d, name, cmd])
    out = {}
    for c in counts:
        run([REF, "ladder", "run", d, "-j", "1", "-q", "--total", str(c)])
        st = json.loads(run([REF, "ladder", "standings", d, "--json", "--games", str(c)]))
        out[c] = kendall_tau([n for n, _ in FIELD], {e["label"]: e["elo"] for e in st["entries"]})
    return out


def robin_taus(work, seed, rounds):
    d = os.path.join(work, "robin-%d" % seed)
    bots = []
    for name, cmd in FIELD:
        bots += ["--bot", "%s=%s" % (name, cmd)]
    out = {}
    for k in range(1, rounds + 1):
        run([REF, "tournament", "-v", "link", "--players", "2", "--games", str(k), "--seed", str(seed),
             "--time", TIME, "-j", "1", "-q", "-o", d] + bots)
        st = json.load(open(os.path.join(d, "standings.json")))
        out[st["total"]] = kendall_tau([n for n, _ in FIELD], {b["name"]: b["elo"] for b in st["bots"]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--out", help="keep the ladders and tournaments here")
    a = ap.parse_args()
    work = a.out or tempfile.mkdtemp(prefix="ladder-quality-")
    os.makedirs(work, exist_ok=True)
    per_round = len(FIELD) * (len(FIELD) - 1)
    counts = sorted(set([per_round // 4, per_round // 2, 3 * per_round // 4] +
                        [per_round * k for k in range(1, a.rounds + 1)]))
    lad, rob = {}, {}
    for s in range(1, a.seeds + 1):
        seed = 1000 + s
        for c, t in ladder_taus(work, seed, counts).items():
            lad.setdefault(c, []).append(t)
        for c, t in robin_taus(work, seed, a.rounds).items():
            rob.setdefault(c, []).append(t)
        print("seed %d: ladder %s; round robin %s" % (
            seed, " ".join("%d:%.3f" % (c, lad[c][-1]) for c in counts),
            " ".join("%d:%.3f" % (c, rob[c][-1]) for c in sorted(rob))), flush=True)
    mean = lambda xs: sum(xs) / len(xs)
    print("\n| games | ladder tau | round robin tau |\n|---:|---:|---:|")
    for c in counts:
        print("| %d | %.3f | %s |" % (c, mean(lad[c]), "%.3f" % mean(rob[c]) if c in rob else "-"))
    print("\n(mean over %d master seeds; %d bots, Kendall's tau against the known order)" % (a.seeds, len(FIELD)))
    if not a.out:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
