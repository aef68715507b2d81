#!/usr/bin/env python3
"""A scripted person at a matrix table with a talk window (protocol.md,
table talk), for tests/t8003-talk-window.sh: it moves at once (a
provisional move, which the window keeps open), then in each round says
hello to a partner, offers it a trade (or, in rounds 2, 4 and 6, gifts
its piece to it), moves again (another placement: the window lets the
last move count), and accepts every offer made to it. It writes to STATS a
line `ROUND EVENT` as each first happens in a round: say (a reply heard),
offer (its offer answered), gift (its gift taken), bot-offer (a bot
offered it a trade)."""
import sys

stats_path = sys.argv[1]
legal = []
rnd = 0
ours = {}          # id -> 'offer' | 'gift', this round
pending = []       # verbs sent, their `ok`/`refused` not yet in
stats = {}         # round -> set of events
out = open(stats_path, "w")


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def note(what):
    if what not in stats.setdefault(rnd, set()):
        stats[rnd].add(what)
        out.write("%d %s\n" % (rnd, what))
        out.flush()


def low(rank=0):
    """The legal placement lowest on the board (the game lasts), or the
    next lowest (rank 1)."""
    def y(m):
        try:
            return int(m.split(",")[-1])
        except ValueError:
            return 99
    if not legal:
        return "-"
    ordered = sorted(dict.fromkeys(legal), key=y)
    return ordered[min(rank, len(ordered) - 1)]


def field(words, key):
    for w in words:
        if w.startswith(key + "="):
            return w[len(key) + 1:]
    return None


for raw in sys.stdin:
    line = raw.rstrip("\n")
    words = line.split()
    if not words:
        continue
    verb = words[0]
    if verb == "game":
        send("hello talk-person 1 moves")
    elif verb == "moves":
        legal = words[1:]
    elif verb == "go":
        send("move " + low())
        r = int(field(words, "round"))
        if r == rnd:
            continue            # asked again in the same round
        rnd = r
        ours = {}
        talk = field(words, "talk")
        held = field(words, "held")
        gifts = int(field(words, "gifts"))
        seat = int(field(words, "seat")) if field(words, "seat") else 0
        partners = [int(x) for x in talk.split(",")] if talk not in ("all", "-") else [1, 2, 3, 4, 5, 6]
        partners = [p for p in partners if p != seat] or [1]
        to = partners[-1]
        send("say %d hello from the person, cafe" % to)
        pending.append(None)
        if held and held != "-":
            give = held[0]
            if rnd in (2, 4, 6) and gifts > 0:
                send("gift %d %s" % (to, give))
                pending.append("gift")
            else:
                want = "I" if give != "I" else "O"
                send("offer %d %s %s" % (to, give, want))
                pending.append("offer")
        # then changes its mind: the second lowest placement replaces the first
        if len(set(legal)) > 1:
            send("move " + low(1))
    elif verb in ("ok", "refused") and len(words) >= 2:
        kind = pending.pop(0) if pending else None
        if verb == "ok" and words[1] in ("offer", "gift") and len(words) >= 3:
            ours[int(words[2])] = words[1]
    elif verb == "heard":
        note("say")
    elif verb == "offered":
        if words[4] != "-":
            note("bot-offer")
        send("accept " + words[1])
        pending.append(None)
    elif verb == "traded":
        kind = ours.get(int(words[1]))
        if kind == "offer":
            note("offer")
        elif kind == "gift":
            note("gift")
    elif verb == "closed":
        if ours.get(int(words[1])) == "offer" and words[2] == "refused":
            note("offer")
    elif verb == "quit":
        break

