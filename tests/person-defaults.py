#!/usr/bin/env python3
"""person-defaults.py SERVER SHOTS MODE: a person on `referee serve` with
the start page's defaults, in one headless Chromium with real key and
mouse events (Input.dispatch*; the pages' functions are never called).

    defaults  four tabs at once, one a game (link, tetroll, rush, matrix):
              each opens the start page, chooses the game (the keyboard on
              the game's list) and nothing else, clicks Start; at its first
              turn each waits 8 s (real seconds, the four side by side),
              then plays by keys alone to the end. At the first turn, at
              1280x800 and 390x844, the board, your clock and every score
              lie inside the viewport (screenshots of the viewport alone:
              SHOTS/VARIANT-1280.png, -390.png; the end screen's
              VARIANT-end-*.png; docs/play/ has them)
    invite    a 2-person link game from the start page (seat 2 set to "A
              person" by keys): the invite link the first page shows
              (#invites a[data-seat]) is opened in a second browser
              context (its own cookies and storage: another browser), and
              both play by keys to the end; both end screens say the result
    time N    a newcomer's time to a first move, N runs a game: open /,
              choose the game, click Start, the play page's "Your turn",
              Enter. Prints each run and the medians; and the server's part
              (from the POST /games leaving the page to the first `go`
              reaching it, by the DevTools network events' clock)

Prints one JSON line per game ({"part": NAME, "ok": bool, "why": [...],
"id": GAME, ...}); exit 1 when one is not ok.
"""
import importlib.util
import json
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import base64  # noqa: E402
from browser import Browser, TIMEOUT  # noqa: E402

spec = importlib.util.spec_from_file_location("play_person", os.path.join(here, "play-person.py"))
pp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pp)

VARIANTS = ("link", "tetroll", "rush", "matrix")


def screenshot(b, png):
    """What is in the viewport, no more: what a person sees unscrolled."""
    shot = b.send("Page.captureScreenshot", {"format": "png"})
    with open(png, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


pp.screenshot = screenshot  # the end screens' too
pp.KEYS["ArrowUp"] = ("ArrowUp", "ArrowUp", 38, "")


class Tab:
    """One page of the browser: its own DevTools session, made current
    with use()."""

    def __init__(self, b, name, context=None):
        self.b, self.name = b, name
        params = {"url": "about:blank", "newWindow": True}
        if context:
            params["browserContextId"] = context
        self.target = b.send("Target.createTarget", params, session=False)["targetId"]
        self.session = b.send("Target.attachToTarget", {"targetId": self.target, "flatten": True},
                              session=False)["sessionId"]
        self.use()
        for dom in ("Page", "Runtime", "Network"):
            b.send(dom + ".enable")

    def use(self):
        self.b.session, self.b.target = self.session, self.target
        return self.b

    def front(self):
        """The tab to the front, as a person clicks into a window before
        typing (keys go to the focused page)."""
        b = self.use()
        b.send("Page.bringToFront")
        return b

    def event(self, method, pop=True):
        """This tab's first event METHOD so far, or None."""
        for i, m in enumerate(self.b.events):
            if m.get("method") == method and m.get("sessionId") == self.session:
                if pop:
                    del self.b.events[i]
                return m
        return None

    def open(self, url):
        b = self.use()
        b.origin = "/".join(url.split("/")[:3]) + "/"
        b.send("Page.navigate", {"url": url})
        self.until(lambda: b.eval("document.readyState") == "complete" and b.eval("location.href") == url, "loading " + url)

    def until(self, cond, what, limit=None):
        deadline = time.monotonic() + (limit or 10 * TIMEOUT)
        while True:
            self.use()
            try:
                if cond():
                    return
            except RuntimeError as e:  # a navigation under way
                if "context" not in str(e) and "navigated" not in str(e):
                    raise
            if time.monotonic() > deadline:
                raise RuntimeError("%s: waiting for %s" % (self.name, what))
            time.sleep(0.03)


def start_game(t, server, variant, person2=False):
    """As a newcomer: the start page, the game chosen by keys on its list,
    Start clicked. Returns the times (monotonic) of each step."""
    b = t.use()
    times = {"open": time.monotonic()}
    t.open(server)
    t.until(lambda: b.eval("!!document.getElementById('go') && document.querySelectorAll('#seats select').length > 0"),
            "the start form")
    times["loaded"] = time.monotonic()
    t.front()
    b.eval("document.getElementById('variant').focus()")
    t.keys = 0
    while b.eval("document.getElementById('variant').value") != variant:
        pp.press(b, "ArrowDown")
        t.keys += 1
        if t.keys > 8:
            raise RuntimeError("%s is not in the game's list" % variant)
    if person2:  # the second seat's list: "A person" is its first entry
        b.eval("document.querySelectorAll('#seats select')[1].focus()")
        while b.eval("document.querySelectorAll('#seats select')[1].value") != "person":
            pp.press(b, "ArrowUp")
            t.keys += 1
            if t.keys > 20:
                raise RuntimeError("no person for the second seat")
    if variant == "matrix":
        # the one change from the defaults: the talk window at 1.5 s a
        # round, typed as a person would (20 s by default at a table with
        # a person, which makes a whole default game last many minutes;
        # t8003 tests the window itself)
        b.eval("document.getElementById('opt-talk').scrollIntoView({block:'center'})")
        b.click("#opt-talk")
        b.send("Input.insertText", {"text": "1500"})
        t.keys += 1
    b.eval("document.getElementById('go').scrollIntoView({block:'center'})")
    times["start"] = time.monotonic()
    b.click("#go")
    t.until(lambda: "/play?" in b.eval("location.href"), "the play page")
    t.url = b.eval("location.href")
    t.id = t.url.split("/")[4]
    return times


def my_turn(t):
    b = t.use()
    p = pp.pane(b)
    if p and b.eval("/Your turn/.test(document.getElementById('status').textContent)"):
        return p
    return None


def play_step(t):
    """One key decision when it is this tab's turn; True when over."""
    b = t.use()
    if pp.over(b):
        return True
    p = my_turn(t)
    if not p:
        return False
    if p.get("turn") == t.seen:
        # the keys did not play ("it does not fit in column N", as the
        # page says): as a person would, to the left edge, then right to
        # the first column where it fits, and Enter
        if time.monotonic() - t.pressed > 1:
            t.retries += 1
            if t.retries > 3:
                t.bad.append("turn %d: the keys play nothing (%s)" % (t.turns, json.dumps(p)[:200]))
                return True
            t.front()
            cols = [int(c) for c in (p.get("board_cols") or "").split(",") if c.isdigit()]
            for k in (["ArrowLeft"] * 30 + ["ArrowRight"] * cols[0] if cols else []) + ["Enter"]:
                pp.press(b, k)
            t.pressed = time.monotonic()
        return False
    t.seen, t.pressed = p["turn"], time.monotonic()
    t.turns += 1
    # (the creator's page shows the invite links: addresses, not protocol)
    words = pp.protocol_words(pp.text(b).replace(getattr(t, "invite", "") or "\0", ""))
    if words:
        t.bad.append("turn %d shows %s" % (t.turns, words))
    t.front()
    pp.key_turn(b, p, t.turns)
    return False


def fit_check(t, shots):
    b = t.use()
    for w, h in ((1280, 800), (390, 844)):
        pp.size(b, w, h)
        time.sleep(0.2)
        out = pp.fits(b, w, h)
        if out:
            t.bad.append("at %dx%d: %s" % (w, h, "; ".join(out)))
        screenshot(b, os.path.join(shots, "%s-%d.png" % (t.name, w)))
    pp.size(b, 1280, 800)


def end(t, shots):
    b = t.use()
    time.sleep(0.3)
    text = pp.text
    pp.text = lambda b: text(b).replace(getattr(t, "invite", "") or "\0", "")
    try:
        e, more = pp.end_screen(b, t.name, shots)
    finally:
        pp.text = text
    t.bad += more
    return e


def play_all(tabs, limit):
    deadline = time.monotonic() + limit
    left = list(tabs)
    while left:
        for t in list(left):
            if play_step(t):
                left.remove(t)
                t.wall = round(time.monotonic() - t.t0, 1)
        if time.monotonic() > deadline:
            for t in left:
                t.bad.append("the game did not end in %d s (%d turns)" % (limit, t.turns))
            return
        time.sleep(0.02)


def defaults(b, server, shots, report):
    tabs = []
    for v in VARIANTS:
        t = Tab(b, v)
        t.bad, t.turns, t.seen, t.retries = [], 0, None, 0
        start_game(t, server, v)
        pp.size(b, 1280, 800)
        tabs.append(t)
    for t in tabs:
        t.until(lambda: my_turn(t) is not None, "the first turn", 20 * TIMEOUT)
        t.first = time.monotonic()
        t.status = t.b.eval("document.getElementById('status').textContent")
    for t in tabs:
        fit_check(t, shots)
    time.sleep(max(0, 8 - (time.monotonic() - min(t.first for t in tabs))))
    for t in tabs:  # 8 s on: still the person's turn, no timeout
        if my_turn(t) is None or pp.over(t.use()):
            t.bad.append("after 8 s it is no longer your turn: " + t.b.eval("document.getElementById('status').textContent"))
        t.t0 = time.monotonic()
    play_all([t for t in tabs if not t.bad], 60 * TIMEOUT)
    for t in tabs:
        e = end(t, shots) if not t.bad else {}
        report(t.name, t.bad, id=t.id, turns=t.turns, waited=round(t.t0 - t.first, 1), wall=getattr(t, "wall", None),
               headline=e.get("head"), result=e.get("result"))


def invite(b, server, shots, report):
    a = Tab(b, "invite-a")
    a.bad, a.turns, a.seen, a.retries = [], 0, None, 0
    start_game(a, server, "link", person2=True)
    pp.size(b, 1280, 800)
    a.until(lambda: b.eval("!!document.querySelector('#invites a[data-seat]')"), "the invite link")
    link = b.eval("document.querySelector('#invites a[data-seat]').href")
    seat = b.eval("document.querySelector('#invites a[data-seat]').dataset.seat")
    a.invite = b.eval("document.querySelector('#invites a[data-seat]').textContent")
    ctx = b.send("Target.createBrowserContext", {}, session=False)["browserContextId"]
    c = Tab(b, "invite-b", context=ctx)
    c.bad, c.turns, c.seen, c.retries = [], 0, None, 0
    c.open(link)
    c.id = a.id
    pp.size(b, 1280, 800)
    for t in (a, c):
        t.t0 = time.monotonic()
    play_all([a, c], float(os.environ.get("PLAY_LIMIT", 60 * TIMEOUT)))
    heads = [end(t, shots) if not t.bad else {} for t in (a, c)]
    bad = a.bad + c.bad
    if not (link.startswith(server) and "/games/%s/play?seat=%s&token=" % (a.id, seat) in link):
        bad.append("the invite link is %r" % link)
    report("invite", bad, id=a.id, turns=[a.turns, c.turns], headlines=[h.get("head") for h in heads])
    b.send("Target.disposeBrowserContext", {"browserContextId": ctx}, session=False)


def timing(b, server, runs, report):
    res = {}
    for v in VARIANTS:
        rows = []
        for _ in range(runs):
            t = Tab(b, v)
            t.bad, t.turns, t.seen, t.retries = [], 0, None, 0
            times = start_game(t, server, v)
            t.until(lambda: my_turn(t) is not None, "the first turn", 20 * TIMEOUT)
            p = my_turn(t)
            pp.key_turn(t.use(), p, 1)
            times["moved"] = time.monotonic()
            post = go = None
            for m in b.events:
                if m.get("sessionId") != t.session:
                    continue
                pr = m.get("params", {})
                if m.get("method") == "Network.requestWillBeSent" and pr["request"]["method"] == "POST" \
                        and pr["request"]["url"].endswith("/games") and post is None:
                    post = pr["timestamp"]
                elif m.get("method") == "Network.webSocketFrameReceived" and go is None \
                        and pr["response"]["payloadData"].startswith("go "):
                    go = pr["timestamp"]
            rows.append({"total": times["moved"] - times["open"], "load": times["loaded"] - times["open"],
                         "start_to_turn": times["moved"] - times["start"],
                         "server": (go - post) if post and go else None, "keys": t.keys + 1, "clicks": 1})
            b.events = [m for m in b.events if m.get("sessionId") != t.session]
            b.send("Target.closeTarget", {"targetId": t.target}, session=False)
            b.session = None
        med = {k: round(statistics.median([r[k] for r in rows if r[k] is not None]), 3)
               for k in ("total", "load", "start_to_turn", "server")}
        res[v] = med
        report(v, [], runs=[{k: round(x, 3) if isinstance(x, float) else x for k, x in r.items()} for r in rows],
               median=med, keys=rows[0]["keys"], clicks=1)
    return res


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    server, shots, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    b = Browser()
    status = 0

    def report(part, bad, **more):
        nonlocal status
        out = {"part": part, "ok": not bad, "why": bad}
        out.update(more)
        print(json.dumps(out))
        sys.stdout.flush()
        if bad:
            status = 1
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        if mode == "defaults":
            defaults(b, server, shots, report)
        elif mode == "invite":
            invite(b, server, shots, report)
        elif mode == "time":
            timing(b, server, int(sys.argv[4]) if len(sys.argv) > 4 else 3, report)
        else:
            sys.stderr.write(__doc__)
            return 2
        problems = pp.page_problems(b, server)
        if problems:
            report("pages", problems)
    except (RuntimeError, OSError) as err:
        sys.stderr.write("person-defaults.py: %s\n" % err)
        status = 1
    finally:
        b.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
