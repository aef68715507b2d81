#!/usr/bin/env python3
"""serve-benchbot.py LOG [MS]: a bot for bench-serve.sh: plays the first
legal move MS ms (default 20) after each `go`, and writes every line it
receives to LOG as "MONOTONIC_S LINE" (the clock spectators time against)."""
import sys
import time

log = open(sys.argv[1], "w", buffering=1)
delay = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 0.02
moves, fresh = [], True
for line in sys.stdin:
    now = time.monotonic()
    line = line.rstrip("\n")
    log.write("%.6f %s\n" % (now, line))
    w = line.split(" ")
    if w[0] == "game":
        print("hello benchbot 1 moves", flush=True)
    elif w[0] == "moves":
        if fresh:
            moves = []
        fresh = False
        moves += w[1:]
    elif w[0] == "go":
        fresh = True
        time.sleep(delay)
        print("move " + moves[0], flush=True)
    elif w[0] == "quit":
        break
