#!/usr/bin/env python3
"""linkbot: a greedy Tetris Link bot written from protocol.md alone.

Standard library only. It rebuilds the tower from the `pieces` field of
each `go`, lists its legal placements itself (the orientation table of
protocol.md's link section) and plays the one that scores the most points
now, then leaves the fewest empty cells under it, then touches the most of
its own pieces, then lands lowest. Other variants are declined.

Run: python3 bots/python/linkbot.py  (it reads the referee on stdin).
"""
import re
import sys

LINE_MAX = 65536

# Orientation -> cells (x, y) from the lower-left corner of its box.
ORIENT = {
    "I0": [(0, 0), (1, 0), (2, 0), (3, 0)],
    "I1": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "O0": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "T0": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "T1": [(0, 0), (0, 1), (1, 1), (0, 2)],
    "T2": [(1, 0), (0, 1), (1, 1), (2, 1)],
    "T3": [(1, 0), (0, 1), (1, 1), (1, 2)],
    "J0": [(0, 0), (1, 0), (2, 0), (0, 1)],
    "J1": [(0, 0), (0, 1), (0, 2), (1, 2)],
    "J2": [(2, 0), (0, 1), (1, 1), (2, 1)],
    "J3": [(0, 0), (1, 0), (1, 1), (1, 2)],
    "L0": [(0, 0), (1, 0), (2, 0), (2, 1)],
    "L1": [(0, 0), (1, 0), (0, 1), (0, 2)],
    "L2": [(0, 0), (0, 1), (1, 1), (2, 1)],
    "L3": [(1, 0), (1, 1), (0, 2), (1, 2)],
    "S0": [(0, 0), (1, 0), (1, 1), (2, 1)],
    "S1": [(1, 0), (0, 1), (1, 1), (0, 2)],
    "Z0": [(1, 0), (2, 0), (0, 1), (1, 1)],
    "Z1": [(0, 0), (0, 1), (1, 1), (1, 2)],
}

# Die face (a free shape) -> the orientations it allows.
FACE_ORIENTS = {
    "I": ["I0", "I1"],
    "O": ["O0"],
    "T": ["T0", "T1", "T2", "T3"],
    "L": ["J0", "J1", "J2", "J3", "L0", "L1", "L2", "L3"],
    "S": ["S0", "S1", "Z0", "Z1"],
}
SHAPES = "IOTLS"


class Tower:
    """The tower rebuilt from the pieces played, with its linked groups."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.cell = {}          # (x, y) -> piece index
        self.owner = []         # piece index -> seat
        self.parent = []        # union-find over pieces of one owner
        self.size = []

    def col_height(self, x):
        h = 0
        for (cx, cy) in self.cell:
            if cx == x and cy + 1 > h:
                h = cy + 1
        return h

    def heights(self):
        h = [0] * self.width
        for (cx, cy) in self.cell:
            if cy + 1 > h[cx]:
                h[cx] = cy + 1
        return h

    def landing(self, orient, x, heights):
        """The bottom row of the piece, or None when it leaves the tower."""
        cells = ORIENT[orient]
        w = max(cx for cx, _ in cells) + 1
        top = max(cy for _, cy in cells) + 1
        if x < 0 or x + w > self.width:
            return None
        y = max(heights[x + cx] - cy for cx, cy in cells)
        y = max(y, 0)
        if y + top > self.height:
            return None
        return y

    def find(self, i):
        while self.parent[i] != i:
            i = self.parent[i]
        return i

    def neighbour_roots(self, seat, cells):
        roots = set()
        for (x, y) in cells:
            for (dx, dy) in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                p = self.cell.get((x + dx, y + dy))
                if p is not None and self.owner[p] == seat:
                    roots.add(self.find(p))
        return roots

    def place(self, seat, orient, x, y):
        cells = [(x + cx, y + cy) for cx, cy in ORIENT[orient]]
        idx = len(self.owner)
        roots = self.neighbour_roots(seat, cells)
        self.owner.append(seat)
        self.parent.append(idx)
        self.size.append(1 + sum(self.size[r] for r in roots))
        for r in roots:
            self.parent[r] = idx
        for c in cells:
            self.cell[c] = idx


def value(size):
    return size if size >= 3 else 0


def gaps_under(orient, x, y, heights):
    cells = ORIENT[orient]
    low = {}
    for cx, cy in cells:
        if cx not in low or cy < low[cx]:
            low[cx] = cy
    return sum(y + cy - heights[x + cx] for cx, cy in low.items())


def parse_fields(text):
    fields = {}
    for word in text.split(" "):
        if "=" in word:
            k, v = word.split("=", 1)
            fields[k] = v
    return fields


def choose(fields, seat):
    width, height = int(fields["width"]), int(fields["height"])
    tower = Tower(width, height)
    heights = [0] * width
    if fields.get("pieces", "-") != "-":
        for item in fields["pieces"].split(","):
            owner, move = item.split(":")
            orient, x = move.split("@")
            y = tower.landing(orient, int(x), heights)
            tower.place(int(owner), orient, int(x), y)
            heights = tower.heights()
    supply = fields["supply"].split(",")[seat]
    left = {shape: int(count) for shape, count in re.findall(r"([A-Z])(\d+)", supply)}
    roll = fields["roll"]
    faces = [f for f in SHAPES if left.get(f, 0) > 0 and (roll == "logo" or roll == f)]
    best, best_key = None, None
    for face in faces:
        for orient in FACE_ORIENTS[face]:
            for x in range(width):
                y = tower.landing(orient, x, heights)
                if y is None:
                    continue
                cells = [(x + cx, y + cy) for cx, cy in ORIENT[orient]]
                roots = tower.neighbour_roots(seat, cells)
                merged = 1 + sum(tower.size[r] for r in roots)
                gain = value(merged) - sum(value(tower.size[r]) for r in roots)
                gaps = gaps_under(orient, x, y, heights)
                points = gain - min(gaps, 2)
                touching = 0
                for (cx, cy) in cells:
                    for (dx, dy) in ((1, 0), (-1, 0), (0, -1)):
                        p = tower.cell.get((cx + dx, cy + dy))
                        touching += p is not None and tower.owner[p] == seat
                key = (points, -gaps, touching, -y)
                if best_key is None or key > best_key:
                    best, best_key = "%s@%d" % (orient, x), key
    return best


def read_line(stream):
    """One line without its newline, None at end; an over-long line reads as ''."""
    line = stream.readline(LINE_MAX + 1)
    if not line:
        return None
    if not line.endswith(b"\n") and len(line) > LINE_MAX:
        while True:
            rest = stream.readline(LINE_MAX)
            if not rest or rest.endswith(b"\n"):
                break
        return ""
    return line.rstrip(b"\n").rstrip(b"\r").decode("ascii", "replace")


def main():
    stdin = sys.stdin.buffer
    seat = 0
    playing = False
    while True:
        line = read_line(stdin)
        if line is None:
            break
        kind = line.split(" ", 1)[0]
        if kind == "game":
            fields = parse_fields(line)
            playing = fields.get("variant") == "link"
            if playing:
                seat = int(fields.get("seat", "0"))
                print("hello linkbot-py 1 multi", flush=True)
            else:
                print("decline linkbot-py plays only link", flush=True)
        elif kind == "go" and playing:
            parts = line.split(" ", 2)
            move = choose(parse_fields(parts[2] if len(parts) > 2 else ""), seat)
            print("move %s" % (move or "none"), flush=True)
        elif kind == "quit":
            break
        # tetrarena, update, result and unknown lines: nothing to do.


if __name__ == "__main__":
    main()
