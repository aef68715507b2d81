#!/usr/bin/env python3
"""include-floors.py [ROOT]: check that includes flow one way, down the floors.

The floors, each using only those below it (README, Layout):

    cli/          the `referee` command      may include every floor below
    server/       `referee serve` (web)      may include ladder/, tournaments/, referee/, engine/
    ladder/       the living competition     may include tournaments/, referee/, engine/
    tournaments/  round robins, journals     may include referee/, engine/
    referee/      one game, logs, bots       may include engine/
    engine/       the rules                  includes none of the others
    bots/         our bots                   may include engine/ only

Every `#include "F"` in a .c or .h file under one of these folders is
resolved as the compiler resolves it (next to the including file first,
then in the Makefile's -I directories: ROOT, engine, bots, tests/fuzz); an
include that lands in a folder its own folder may not use is printed

    up: referee/game.c includes tournaments/journal.h (referee/ may include engine/ only)

Includes that resolve to nothing (<...>, generated files under build/) and
folders not named above (tests/, bench/) are not checked. Exit status 0
when nothing points up, 1 otherwise, 2 on a usage error.
"""
import os
import re
import sys

from includes import INCLUDE, resolve  # scripts/includes.py

MAY_USE = {
    "engine": [],
    "referee": ["engine"],
    "tournaments": ["referee", "engine"],
    "ladder": ["tournaments", "referee", "engine"],
    "server": ["ladder", "tournaments", "referee", "engine"],
    "cli": ["server", "ladder", "tournaments", "referee", "engine"],
    "bots": ["engine"],
}


def folder(path):
    return path.split(os.sep, 1)[0]


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        sys.stderr.write("usage: include-floors.py [ROOT]\n")
        return 2
    root = argv[1] if len(argv) == 2 else "."
    bad = 0
    for top in sorted(MAY_USE):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), root)
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for name in INCLUDE.findall(text):
                    target = resolve(root, path, name)
                    if target is None:
                        continue
                    other = folder(target)
                    if other == top or other not in MAY_USE or other in MAY_USE[top]:
                        continue
                    allowed = ", ".join(d + "/" for d in MAY_USE[top])
                    print("up: %s includes %s (%s/ may include %s)" %
                          (path, target, top, (allowed + " only") if allowed else "none of them"))
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
