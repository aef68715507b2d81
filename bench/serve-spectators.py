#!/usr/bin/env python3
"""serve-spectators.py URL GAME N BOTLOG...: N spectators of one live game
of `referee serve`, on one selector; when the game ends, print how much
later than a bot's own `update` line the last spectator saw each move.

Each BOTLOG is written by serve-benchbot.py: one line per line the bot
received, "MONOTONIC_S LINE". A step of the live feed (a move, a chance
move) is matched with the first bot `update` line of the same seat and
notation, in order; the lag of a step is the time the last of the N
spectators had it, less that bot's time (one clock: CLOCK_MONOTONIC).
"""
import json
import selectors
import socket
import sys
import time
from urllib.parse import urlsplit


def main():
    url, game, n, botlogs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    u = urlsplit(url)
    sel = selectors.DefaultSelector()
    conns = []
    for _ in range(n):
        s = socket.create_connection((u.hostname, u.port))
        s.sendall(("GET /games/%s/events HTTP/1.1\r\nHost: %s\r\n\r\n" % (game, u.netloc)).encode())
        s.setblocking(False)
        c = {"sock": s, "buf": b"", "done": False}
        conns.append(c)
        sel.register(s, selectors.EVENT_READ, c)
    seen = {}        # step id -> latest arrival over the spectators
    steps = {}       # step id -> (kind, seat, notation)
    counts = [0] * n
    left = n
    while left:
        for key, _ in sel.select(timeout=60):
            c = key.data
            data = c["sock"].recv(1 << 20)
            now = time.monotonic()
            if not data:
                sel.unregister(c["sock"])
                c["sock"].close()
                left -= 1
                continue
            c["buf"] += data
            while b"\n\n" in c["buf"]:
                block, c["buf"] = c["buf"].split(b"\n\n", 1)
                ev = {}
                for line in block.decode().split("\n"):
                    k, _, v = line.partition(": ")
                    ev[k] = v
                if ev.get("event") == "step":
                    i = int(ev["id"])
                    seen[i] = max(seen.get(i, 0), now)
                    if i not in steps:
                        st = json.loads(ev["data"])
                        steps[i] = (st["k"], st["s"], st["t"])
                    counts[conns.index(c)] += 1
    # the bots' update times, in order, by (seat or 'chance', notation)
    updates = {}
    for path in botlogs:
        for line in open(path):
            t, _, text = line.rstrip("\n").partition(" ")
            w = text.split(" ")
            if w[0] == "update" and len(w) >= 3 and w[1] != "fault":
                key = (w[1], " ".join(w[2:]))
                updates.setdefault(key, []).append(float(t))
    lags = []
    for i in sorted(steps):
        k, seat, t = steps[i]
        key = ("chance", t) if k == "chance" else (str(seat), t) if k == "move" else None
        if key and updates.get(key):
            lags.append((seen[i] - updates[key].pop(0)) * 1000)
            if "-v" in sys.argv[0:1] or __import__("os").environ.get("DEBUG"):
                print(i, key, "%.3f" % lags[-1], "%.3f" % seen[i])
    lags.sort()
    if not lags:
        print("no step matched a bot's update")
        return 1
    pct = lambda p: lags[min(len(lags) - 1, int(p * len(lags)))]
    print("%d spectators, each got %s steps; %d steps matched with a bot's update" %
          (n, "/".join(sorted(set(str(x) for x in counts))), len(lags)))
    print("last spectator later than the bot's update: median %.2f ms, p90 %.2f ms, max %.2f ms" %
          (pct(0.5), pct(0.9), lags[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
