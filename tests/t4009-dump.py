#!/usr/bin/env python3
"""t4009's helper: the states of real game logs, through the Python module.

  t4009-dump.py records LOG...   print one record per `go` line a seat got:
                                 VARIANT<TAB>SEAT<TAB>GO-LINE, and check on
                                 the way that the module's legal moves equal
                                 the log's own `moves` lines before that go
                                 (the referee's list); mismatches go to
                                 stderr and make the exit status 1.
  t4009-dump.py dump <RECORDS    the same output as `prog-engine dump`,
                                 through bots/python/tetrarena.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("TETRARENA_TOP", "."), "bots", "python"))
import tetrarena  # noqa: E402


def records(paths):
    bad = 0
    count = 0
    for path in paths:
        variant = None
        pending = {}
        with open(path, encoding="ascii", errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("variant "):
                    variant = line.split(" ", 1)[1]
                    continue
                if not line.startswith("> "):
                    continue
                _, seat, _, text = line.split(" ", 3)
                seat = int(seat)
                if text.startswith("moves"):
                    pending.setdefault(seat, []).extend(text.split(" ")[1:])
                elif text.startswith("go "):
                    listed = pending.pop(seat, None)
                    print(f"{variant}\t{seat}\t{text}")
                    count += 1
                    if listed is not None:
                        s = tetrarena.State.parse(variant, text, seat)
                        mine = s.moves()
                        if listed == ["-"] and not mine:
                            continue
                        if mine != listed:
                            bad += 1
                            print(f"{path}: {variant} seat {seat}: module lists {len(mine)} "
                                  f"moves, the referee {len(listed)}: {text[:120]}",
                                  file=sys.stderr)
    print(f"# {count} states", file=sys.stderr)
    return 1 if bad else 0


def sampled(i, n):
    """The same sample as prog-engine's."""
    step = n // 6 + 1
    return i % step == 0 or i == n - 1


def dump():
    out = sys.stdout
    for line in sys.stdin:
        variant, seat, text = line.rstrip("\n").split("\t", 2)
        seat = int(seat)
        out.write(f"state {variant} {seat}\n")
        try:
            s = tetrarena.State.parse(variant, text, seat)
        except ValueError:
            out.write("unparsed\n")
            continue
        moves = s.moves()
        out.write("moves" + "".join(" " + m for m in moves) + "\n")
        out.write("scores" + "".join(f" {v}" for v in s.scores()) + "\n")
        out.write("render\n" + s.render() + "\n")
        for i, m in enumerate(moves):
            if not sampled(i, len(moves)):
                continue
            t = s.apply(m)
            out.write(f"apply {m}\nafter {t.format()}\n")
            out.write("scores" + "".join(f" {v}" for v in t.scores()) + "\n")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "records":
        sys.exit(records(sys.argv[2:]))
    sys.exit(dump())
