#!/usr/bin/env python3
"""drawing-check.py: does the replay page's drawing show the game's final
position? Compares what tests/browser.py read back from the page's drawing
(one JSON line, its "drawn" field) with the last picture `referee view`
printed for the same log (the engine's own render, an independent path).

    drawing-check.py VARIANT SHOWN_JSON_LINE VIEW_OUTPUT_FILE

Exit 0 when every board matches, else 1 with the first difference.
"""
import json
import re
import sys


def cells(text, step, first):
    return [text[i] for i in range(first, len(text), step)]


def last_block(lines, pattern):
    """The rows of the last picture: the last run of lines matching."""
    runs, cur = [], []
    for line in lines:
        m = re.match(pattern, line)
        if m:
            cur.append(m)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs[-1] if runs else []


def pictures(variant, lines):
    """Board name -> rows (top first) of the last picture, as the drawing
    marks cells."""
    if variant == "link":
        rows = last_block(lines, r"^\s*\d+ \|(.*)\|$")
        return {"tower": ["".join(c[0] if c[0].isdigit() else "." for c in
                                  (m.group(1)[i:i + 2] for i in range(0, len(m.group(1)), 2)))
                          for m in rows]}
    if variant == "rush":
        rows = last_block(lines, r"^\s*\d+\|.*\|$")
        out = {}
        for m in rows:
            for n, part in enumerate(re.findall(r"\d+\|([^|]*)\|", m.group(0))):
                out.setdefault("board%d" % n, []).append("".join(cells(part, 2, 1)))
        return out
    if variant == "tetroll":
        # the 3 rows above the dashed line, then the grid, for each seat
        above = last_block(lines, r"^\s*: (.*)\|")
        grid = last_block(lines, r"^\s*\d+ \| (.*) \|")
        rows = [m.group(1) for m in above] + [m.group(1) + " " for m in grid]
        return {"sheet0": ["".join(c if c.isdigit() else "." for c in cells(r, 2, 0)) for r in rows]}
    if variant == "matrix":
        # row `height - 1` is marked '+': the top of the matrix
        rows = last_block(lines, r"^\s*\d+ [|+] (.*) \|")
        return {"field": ["".join(cells(m.group(1), 2, 0)) for m in rows]}
    raise SystemExit("drawing-check.py: unknown variant " + variant)


def normal(variant, rows):
    if variant == "matrix":
        return ["".join("." if c == "." else "#" for c in r) for r in rows]
    if variant == "tetroll":
        return ["".join(c if c.isdigit() else "." for c in r) for r in rows]
    return rows


def main():
    variant, shown, view = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    want = pictures(variant, open(view).read().splitlines())
    drawn = shown.get("drawn", {})
    if not want:
        print("no picture in " + view)
        return 1
    for name, rows in want.items():
        got = normal(variant, drawn.get(name, []))
        rows = normal(variant, [r.rstrip() if variant != "rush" else r for r in rows])
        # the picture may leave out empty rows at the top
        if len(got) < len(rows) or any(set(r) - {"."} for r in got[:len(got) - len(rows)]):
            print("%s: %d rows drawn, %d in the picture" % (name, len(got), len(rows)))
            return 1
        for i, (g, w) in enumerate(zip(got[len(got) - len(rows):], rows)):
            if len(w) > len(g) and not set(w[len(g):]) - {"."}:
                w = w[:len(g)]
            if g != w:
                print("%s row %d from the top: drawn %r, picture %r" % (name, i, g, w))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
