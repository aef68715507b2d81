#!/usr/bin/env python3
"""include-circles.py [--allow FILE] [ROOT]: find modules that include each other.

A module is a .c file and the .h file of the same name in the same
directory (referee/game.c + referee/game.h is the module referee/game); a
lone .c or .h is a module of its own. The pieces of a module split in the
manner of SQLite and git belong to it: a file named X-PART.c or X-PART.h
beside X.h (referee/sandbox-jail.c, the private header
referee/sandbox-int.h) is part of module X. Module A uses module B when one of
A's files has `#include "F"` and F resolves to one of B's files, tried as
the compiler tries it: next to the including file first, then in the
Makefile's -I directories (ROOT, engine, bots, tests/fuzz). Includes that
resolve to nothing (<...>, generated files under build/) are ignored, as is
everything under build/, bin/ and hidden directories.

A circle is a set of two or more modules each reaching every other one
through uses (a strongly connected component): two modules including each
other, or a longer cycle. Each circle is printed as one line, its modules
sorted and separated by spaces, with one cycle through them:

    circle: referee/bot referee/sandbox (referee/bot -> referee/sandbox -> referee/bot)

--allow FILE names known circles, one a line in that form (modules only;
`#` comments): a circle whose module set is listed exactly is reported as
known and not counted. Exit status: 0 when every circle is known, 1 when a
circle is new (or a known one grew), 2 on a usage error. Entries of FILE
that no longer match a circle are reported ("gone") so they can be removed.
"""
import os
import re
import sys

from includes import INCLUDE, resolve, sources  # scripts/includes.py


ROOT = "."


def module_of(path):
    stem = path[:-2]
    d, base = os.path.split(stem)
    if "-" in base:
        owner = os.path.join(d, base.split("-", 1)[0])
        if os.path.isfile(os.path.join(ROOT, owner + ".h")):
            return owner
    return stem


def uses(root):
    """module -> {used module: (file, included file)}"""
    graph = {}
    for path in sources(root):
        mod = module_of(path)
        graph.setdefault(mod, {})
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name in INCLUDE.findall(text):
            target = resolve(root, path, name)
            if target is None:
                continue
            other = module_of(target)
            if other != mod:
                graph[mod].setdefault(other, (path, target))
    return graph


def circles(graph):
    """The strongly connected components of two or more modules (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def cycle_in(graph, comp):
    """One cycle through the component's first module, as a path."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph.get(v, {})):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def read_allow(path):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("circle:"):
                line = line[len("circle:"):].split("(", 1)[0].strip()
            if line:
                allowed.append(tuple(sorted(line.split())))
    return allowed


def main(argv):
    allow_file, root = None, "."
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--allow" and args:
            allow_file = args.pop(0)
        elif a.startswith("-"):
            sys.stderr.write("usage: include-circles.py [--allow FILE] [ROOT]\n")
            return 2
        else:
            root = a
    allowed = read_allow(allow_file) if allow_file else []
    global ROOT
    ROOT = root
    graph = uses(root)
    new = 0
    found = set()
    for comp in circles(graph):
        key = tuple(comp)
        found.add(key)
        path = cycle_in(graph, comp)
        how = ", ".join("%s includes %s" % graph[a][b] for a, b in zip(path, path[1:]))
        status = "known" if key in allowed else "NEW"
        new += key not in allowed
        print("%s circle: %s (%s; %s)" % (status, " ".join(comp), " -> ".join(path), how))
    for key in allowed:
        if key not in found:
            print("gone circle: %s (no longer a circle: remove it from %s)" % (" ".join(key), allow_file))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
