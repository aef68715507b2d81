#!/usr/bin/env python3
"""t4008's helper: every example move of protocol.md, as a record for
`prog-engine judge` (WHERE VARIANT SEAT EXPECT MOVE STATE, tab-separated).

  t4008-examples.py protocol.md >RECORDS

Two kinds of examples are taken:

- Transcripts (indented or fenced blocks after a `game ... variant=V
  seat=S` line, in the `referee>`/`bot>` or `<`/`>` style): every move of
  a `moves` line and every `move` the bot sent must be legal in the `go`
  they belong to (the one after the `moves`, the one before the `move`).
  A `go` shortened with ` ... ` ends judging until the next whole one.
- Example tables: a table whose header is `| example | verdict | ...`,
  right after an HTML comment `<!-- examples VARIANT SEAT: GO-LINE -->`
  naming the state the rows are judged in; each row's first code span is
  the move and its verdict (the second column's first word) is legal,
  illegal or malformed.
"""
import re
import sys

VARIANTS = ("link", "tetroll", "matrix", "rush")


def out(where, variant, seat, expect, move, state):
    print("\t".join([where, variant, str(seat), expect, move, state]))


def main(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    section = None
    variant = seat = go = None
    moves = []
    table_state = None
    in_table = False
    for no, raw in enumerate(lines, 1):
        where = f"protocol.md:{no}"
        m = re.match(r"^## `(\w+)`", raw)
        if m:
            section = m.group(1)
        m = re.match(r"^<!-- examples (\w+) (\d+): (.*) -->$", raw)
        if m:
            table_state = m.groups()
            continue
        if raw.startswith("| example | verdict |"):
            if not table_state:
                print(f"{where}: an example table without its state", file=sys.stderr)
                sys.exit(1)
            in_table = True
            continue
        if in_table:
            if not raw.startswith("|"):
                in_table, table_state = False, None
                continue
            cols = [c.strip() for c in raw.strip("|").split("|")]
            if set(cols[0]) <= set("-"):
                continue
            mv = re.search(r"`([^`]*)`", cols[0]).group(1)
            verdict = cols[1].strip("`").split()[0].strip("`:,")
            out(where, table_state[0], table_state[1], verdict, mv, table_state[2])
            continue
        # transcripts
        text = raw.strip()
        m = re.match(r"^(referee>|bot>|<|>)\s+(.*)$", text)
        if not m:
            if not raw.startswith("    ") and not raw.startswith("```") and raw.strip():
                variant = go = None
            continue
        who, body = m.groups()
        from_ref = who in ("referee>", "<")
        if re.match(r"^\d+ \+\d+ ", body):  # a log excerpt, not a transcript
            continue
        g = re.match(r"^game \d+ variant=(\w+) seat=(\d+)", body)
        if from_ref and g:
            variant, seat, go, moves = g.group(1), int(g.group(2)), None, []
            if variant not in VARIANTS or variant != section:
                print(f"{where}: a {variant} transcript in the {section} section",
                      file=sys.stderr)
                sys.exit(1)
            continue
        if not variant:
            continue
        if from_ref and body.startswith("moves "):
            moves += [(where, x) for x in body.split(" ")[1:]]
        elif from_ref and body.startswith("go "):
            go = None if " ... " in body else body
            if go:
                for w, x in moves:
                    out(w, variant, seat, "legal", x, go)
            moves = []
        elif not from_ref and body.startswith("move ") and go:
            out(where, variant, seat, "legal", body[5:], go)


if __name__ == "__main__":
    main(sys.argv[1])
