"""includes.py: what include-circles.py and include-floors.py share: the
C files of a tree and the resolution of `#include "F"` as the compiler
does it (next to the including file first, then in the Makefile's -I
directories: ROOT, engine, bots, tests/fuzz)."""
import os
import re

SEARCH = ["", "engine", "bots", "tests/fuzz"]
SKIP_DIRS = {"build", "bin", "node_modules"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    """Every .c and .h file below root, relative, but for build/, bin/,
    node_modules/ at the top and hidden folders."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not (rel == "." and d in SKIP_DIRS))
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(rel, f))


def resolve(root, including, name):
    """The file (relative to root) that `#include "name"` in `including`
    reaches, or None."""
    for base in [os.path.dirname(including)] + SEARCH:
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None
