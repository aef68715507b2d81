#!/usr/bin/env python3
"""bench-ladder-gen.py DIR [ENTRIES AUTHORS GAMES]: fill a fresh ladder
(made by `referee ladder init DIR`, schema and settings from it) with
ENTRIES entries (default 500) by AUTHORS authors (200, the `author` text
of each entry, as a manifest gives it), and GAMES finished games (200000)
of 2 to 4 seats, ranked by hidden strengths plus noise, written straight
into its database. The entries are never run: the bench reads pages and
times scheduling. Seeded: the same arguments give the same ladder."""
import random
import sqlite3
import sys

d = sys.argv[1]
entries, authors, games = (int(a) for a in (sys.argv[2:5] or (500, 200, 200000)))
rng = random.Random(54)
db = sqlite3.connect(d + "/ladder.db")
now = "2026-12-07 20:00:00"
strength = [rng.gauss(0, 1) for _ in range(entries)]
with db:
    db.executemany(
        "INSERT INTO bots (id, name, version, command, sha256, added, status, author, description) "
        "VALUES (?, ?, 1, 'bot-random', ?, ?, 'active', ?, ?)",
        ((i + 1, "bot%03d" % i, "%064x" % i, now, "author%03d" % (i % authors), "generated entry %d" % i)
         for i in range(entries)))
    gamerows, seatrows = [], []
    for g in range(1, games + 1):
        n = rng.randint(2, 4)
        seated = rng.sample(range(entries), n)
        perf = sorted(((strength[b] + rng.gauss(0, 1), s) for s, b in enumerate(seated)), reverse=True)
        rank = {s: r + 1 for r, (_, s) in enumerate(perf)}
        gamerows.append((g, rng.getrandbits(53), "least" if rng.random() < 0.8 else "top", now, now,
                         "games/%06d.log" % g, "ended", rng.randint(20, 200)))
        for s, b in enumerate(seated):
            seatrows.append((g, s, b + 1, rank[s], 100 * (n - rank[s]), "", rng.randint(10, 100)))
    db.executemany("INSERT INTO games (id, seed, kind, scheduled, finished, log, reason, plies) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", gamerows)
    db.executemany("INSERT INTO seats (game, seat, bot, rank, score, faults, moves) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   seatrows)
db.close()
print("%d entries, %d authors, %d games" % (entries, authors, games))
