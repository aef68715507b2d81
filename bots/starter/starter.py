#!/usr/bin/env python3
"""A starter bot for tetrarena in Python 3 (standard library only).

It speaks the whole protocol (protocol.md) and plays every variant legally:
it asks the referee for the `moves` feature and answers each `go` with one
of the listed moves. Write your strategy in choose() below; nothing else
needs to change. The bot keeps no state between `go` lines (each carries
the whole game), so it can play many games in one process (`multi`).

Run: bin/referee play --variant link "python3 bots/starter/starter.py" bin/bot-random
"""
import random
import sys

NAME, VERSION = "starter-py", "1"


def choose(state, moves):
    """Return one of `moves` (strings in the variant's notation).

    state: the `go` line's fields as a dict of strings (protocol.md, the
    variant's "go state" table), plus 'variant', 'seat' (int) and 'ms', the
    milliseconds you have for this move. moves: every legal move now.
    """
    return rng.choice(moves)


rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)


def main():
    game = {}
    moves = []
    for line in iter(sys.stdin.readline, ""):
        words = line.rstrip("\r\n").split(" ")
        kind = words[0]
        if kind == "game":
            game = dict(w.split("=", 1) for w in words[2:] if "=" in w)
            print(f"hello {NAME} {VERSION} moves multi", flush=True)
        elif kind == "moves":
            moves += words[1:]  # a long list comes over several lines
        elif kind == "go":
            state = dict(w.split("=", 1) for w in words[2:] if "=" in w)
            state.update(variant=game.get("variant"), seat=int(game.get("seat", 0)),
                         ms=int(words[1]))
            # A seat with nothing it may place (the Main Match) still answers.
            move = choose(state, moves) if moves else "-"
            print(f"move {move}", flush=True)
            moves = []
        elif kind == "quit":
            break
        # tetrarena, update, result, rejected, table talk...: nothing to do.


if __name__ == "__main__":
    main()
