#!/usr/bin/env python3
"""protocol-words.py [--allow FILE] [ROOT]: protocol words outside the protocol module.

referee/protocol.c owns the wire frame of protocol.md: every line the
referee writes to a bot or reads from one is built or parsed there, on the
plain-C lines of the ground floor's engine/wire.c, which the engine and the
bot library share. This finds the string literals elsewhere in every C
folder of the product (every folder's .c and .h files but tests/, bench/,
build/, docs/, scripts/ and the frozen bots/baseline/; the comments left
out) that spell a protocol
word as the start of a line.

The words are those of the verb table of ROOT/referee/protocol.c (the
strings of `verb_names[]`: every line type either side sends), and the
features a hello names ("moves", "multi"): read from the file, so the list
grows with the protocol. A literal is a hit when its text is a word alone
("quit"), or a word then a space, a `%` or a newline ("go %ld", "update ",
"quit\\n"). Words inside prose ("a `go` line") are not hits.

Two kinds of literal are not hits:

  - messages for people: a literal on a line that calls FAIL, BAD,
    FAIL_OUT, g_set_error, fault or game_fault, check_item, check_pass,
    check_warn, add_item, game_item, check_wanted, printf, fprintf,
    g_printerr, g_test_message, g_warning, g_message or run_say (verify's complaints, a fault's detail,
    `referee check`'s report and the names of its items). They describe
    the protocol; they build no line.
  - the pairs FILE WORD listed in --allow FILE (one a line, `#` comments):
    words that belong to another format in the same spelling, such as the
    log's record kinds that repeat a wire verb (gamelog owns them, see
    docs/gamelog.md) or a time control's keys. FILE * allows every word
    in FILE: the modules that own the wire beside protocol.c (the ground
    floor's engine/wire.c, the bots' own protocol module bots/botio.c).

Each hit is printed as FILE:LINE: WORD: the line. Exit status: 0 without
hits, 1 with some, 2 on a usage error (no verb table found).
"""
import os
import re
import sys

FEATURES = ["moves", "multi"]
MESSAGE_CALL = re.compile(
    r"\b(FAIL|FAIL_OUT|BAD|g_set_error|g_set_error_literal|fault|game_fault|check_item|check_pass|check_warn|"
    r"add_item|game_item|check_wanted|printf|"
    r"fprintf|g_printerr|g_test_message|g_warning|g_message|run_say)\s*\(")
# Folders that are not the product: tests (whose fake bots write raw lines
# on purpose), benchmarks, the build, documentation and scripts.
NOT_PRODUCT = {"tests", "bench", "build", "docs", "scripts"}
# Frozen copies of old bots, kept byte for byte to measure against.
FROZEN = ("bots/baseline",)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
TABLE = re.compile(r"verb_names\[\]\s*=\s*\{(.*?)\};", re.S)


def strip_comments(text):
    """The text with /* */ and // comments blanked, line breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def words(root):
    path = os.path.join(root, "referee", "protocol.c")
    try:
        with open(path, encoding="utf-8") as f:
            m = TABLE.search(f.read())
    except OSError:
        m = None
    if not m:
        return None
    found = [w for w in re.findall(r'"([^"]*)"', m.group(1)) if w]
    return sorted(set(found + FEATURES))


def read_allow(path):
    allow = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:
                allow.add((line[0], line[1]))
    return allow


def main(argv):
    allow = set()
    args = argv[1:]
    if args[:1] == ["--allow"]:
        if len(args) < 2:
            print("usage: protocol-words.py [--allow FILE] [ROOT]", file=sys.stderr)
            return 2
        allow = read_allow(args[1])
        args = args[2:]
    root = args[0] if args else "."
    vocab = words(root)
    if not vocab:
        print("no verb table (verb_names[]) in %s/referee/protocol.c" % root, file=sys.stderr)
        return 2
    hit = re.compile(r"^(%s)(?:$|[ %%]|\\n)" % "|".join(re.escape(w) for w in vocab))
    hits = 0
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        top_dir = rel_dir.split(os.sep)[0]
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if rel_dir != "." and (top_dir in NOT_PRODUCT or top_dir.startswith(".")):
            dirnames[:] = []
            continue
        sub = "" if rel_dir == "." else rel_dir.replace(os.sep, "/")
        if sub.startswith(FROZEN):
            dirnames[:] = []
            continue
        files += [(sub, n) for n in sorted(filenames)]
    for sub, name in files:
        rel = (sub + "/" if sub else "") + name
        if not name.endswith((".c", ".h")) or rel in ("referee/protocol.c", "referee/protocol.h"):
            continue
        if (rel, "*") in allow:
            continue
        with open(os.path.join(root, sub, name), encoding="utf-8", errors="replace") as f:
            text = strip_comments(f.read())
        for lineno, line in enumerate(text.split("\n"), 1):
            if MESSAGE_CALL.search(line):
                continue
            for lit in LITERAL.findall(line):
                m = hit.match(lit)
                if m and (rel, m.group(1)) not in allow:
                    print("%s:%d: %s: %s" % (rel, lineno, m.group(1), line.strip()))
                    hits += 1
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
