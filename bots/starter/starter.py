#!/usr/bin/env python3
"""A starter bot for tetrarena in Python 3 (standard library only).

It speaks the whole protocol (protocol.md) and plays every variant legally:
it asks the referee for the `moves` feature and answers each `go` with one
of the listed moves. Write your strategy in choose() below; nothing else
needs to change. The bot keeps no state between `go` lines (each carries
the whole game), so it can play many games in one process (`multi`).

With the engine's Python module (bots/python/tetrarena.py and
lib/libtetrarena.so, built by `make`) choose() also gets the state as an
engine object that can list, apply and score moves; the example choose()
then plays the move that scores best at once. It finds the module next to
this file, in ../python/, or in a directory named on its command line,
and the library where the module finds it or named on its command line.
Without them it plays at random, as before.

Run: bin/referee play --variant link "python3 bots/starter/starter.py" bin/bot-random
     (jailed, name what it needs: see bots/README.md)
     bin/referee play --variant link \
         "python3 bots/starter/starter.py 1 bots/python lib/libtetrarena.so" bin/bot-random
"""
import os
import random
import sys

NAME, VERSION = "starter-py", "1"


def choose(state, moves, engine):
    """Return one of `moves` (strings in the variant's notation).

    state: the `go` line's fields as a dict of strings (protocol.md, the
    variant's "go state" table), plus 'variant', 'seat' (int) and 'ms', the
    milliseconds you have for this move. moves: every legal move now.
    engine: the state as a tetrarena.State (moves(), apply(move),
    scores(), render()), or None without the module.
    """
    if engine is None or len(moves) > 2000:
        return rng.choice(moves)
    seat, sign = state["seat"], -1 if engine.lower_score_wins else 1
    best, best_value = [], None
    for m in moves:
        try:
            value = sign * engine.apply(m).scores()[seat]
        except ValueError:  # the module disagrees: never risk the game
            return rng.choice(moves)
        if best_value is None or value > best_value:
            best, best_value = [m], value
        elif value == best_value:
            best.append(m)
    return rng.choice(best)


args = sys.argv[1:]
rng = random.Random(int(args[0]) if args and args[0].isdigit() else 1)


def load_engine():
    """The tetrarena module, or None. Directories on the command line are
    searched for tetrarena.py, and a file named libtetrarena.so on it is
    the library (a jailed bot sees only what its command line names and
    its workdir)."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [a for a in args if os.path.isdir(a)] + [here, os.path.join(here, "..", "python")]
    sys.path[:0] = [d for d in dirs if os.path.exists(os.path.join(d, "tetrarena.py"))]
    try:
        import tetrarena
        libs = [a for a in args if os.path.basename(a) == "libtetrarena.so"]
        tetrarena.load(libs[0] if libs else None)
        return tetrarena
    except (ImportError, OSError) as e:
        print(f"{NAME}: playing without the engine module: {e}", file=sys.stderr)
        return None


def main():
    tetrarena = load_engine()
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
            engine = None
            if tetrarena is not None:
                try:
                    engine = tetrarena.State.parse(state["variant"], line, state["seat"])
                except ValueError:
                    pass
            # A seat with nothing it may place (the Main Match) still answers.
            move = choose(state, moves, engine) if moves else "-"
            print(f"move {move}", flush=True)
            moves = []
        elif kind == "quit":
            break
        # tetrarena, update, result, rejected, table talk...: nothing to do.


if __name__ == "__main__":
    main()
