#!/usr/bin/env python3
"""serve-person.py: a person's seat on `referee serve` that survives, for
t2608 (docs/serve.md, "A seat that survives").

    serve-person.py wait URL PLAYPATH SECONDS
            be the seat (as serve-client.py seat), but wait SECONDS at the
            first `go` before the move; then the first legal move at each
            go to the end
    serve-person.py resume URL PLAYPATH K PAUSE
            play K moves, drop the connection, wait PAUSE s, open the seat
            again: it must come back with `web resume N STATE MS` and the N
            lines so far (the `game` line first); then play to the end
    serve-person.py takeover URL PLAYPATH
            play a move on one connection, open a second: the first must
            get `web taken WORDS` and be closed (4001), the second resumes
            and plays to the end
    serve-person.py browser URL PNG
            headless Chromium (tests/browser.py's): the start page with a
            bad seed typed (its error must show beside the seed field),
            then with its defaults, "start the game", wait 8 s at the first turn (the
            page must still offer the moves: no timeout), then click moves;
            after 3, reload (the page must ask first: beforeunload), after
            5, close the tab and open the seat's URL again, after 6 go to
            the start page (asked first) and Back, after 7 open a second tab
            on the seat (the first must say it was taken over) and go on in
            it; and play to the end

Each prints one JSON object (what it saw); exit 1 with the reason on
stderr when the seat does not behave.
"""
import importlib.util
import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("serve_client", os.path.join(here, "serve-client.py"))
sc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc)
from urllib.parse import urlsplit, parse_qs  # noqa: E402


def ws_path(path):
    q = parse_qs(urlsplit(path).query)
    return "/ws?game=%s&seat=%s&token=%s" % (path.split("/")[2], q["seat"][0], q["token"][0])


class Seat:
    """A seat's page: hello at `game`, the first legal move at each `go`."""

    def __init__(self, url, path):
        self.ws = sc.WebSocket(url, ws_path(path))
        self.moves, self.fresh, self.made = [], True, 0
        self.result, self.clocks, self.lines = None, [], []
        self.first_go = None

    def line(self):
        m = self.ws.recv()
        if isinstance(m, tuple):
            return m
        self.lines.append(m)
        verb = m.split(" ", 1)[0]
        if verb == "game":
            self.ws.send("hello person-script 1 moves")
        elif verb == "moves":
            if self.fresh:
                self.moves = []
            self.fresh = False
            self.moves += m.split(" ")[1:]
        elif verb == "go":
            self.fresh = True
            if self.first_go is None:
                self.first_go = m
        elif verb == "result":
            self.result = m
        elif m.startswith("web clocks "):
            self.clocks.append(m)
        return m

    def move(self):
        self.ws.send("move " + self.moves[0])
        self.made += 1

    def to_end(self, pending=False):
        """Answer every go (and a pending one first) until the server closes."""
        if pending:
            self.move()
        while True:
            try:
                m = self.line()
            except (EOFError, ConnectionResetError):
                return "eof"
            if isinstance(m, tuple):
                return "close %d" % m[1]
            if m.startswith("go "):
                self.move()

    def until_go(self):
        while True:
            m = self.line()
            if isinstance(m, tuple):
                raise RuntimeError("closed before a go: %r" % (m,))
            if m.startswith("go "):
                return m


def resume_head(s):
    """Read `web resume N STATE MS` and the N lines; return (head, lines)."""
    m = s.ws.recv()
    if isinstance(m, tuple) or not m.startswith("web resume "):
        raise RuntimeError("the seat came back without `web resume`: %r" % (m,))
    n = int(m.split()[2])
    got = []
    for _ in range(n):
        x = s.ws.recv()
        if isinstance(x, tuple):
            raise RuntimeError("closed during the resumption")
        got.append(x)
    # the replayed lines rebuild the moves list of the pending go
    for x in got:
        verb = x.split(" ", 1)[0]
        if verb == "moves":
            if s.fresh:
                s.moves = []
            s.fresh = False
            s.moves += x.split(" ")[1:]
        elif verb == "go":
            s.fresh = True
    return m, got


def wait(url, path, seconds):
    s = Seat(url, path)
    s.until_go()
    t0 = time.monotonic()
    time.sleep(seconds)
    end = s.to_end(pending=True)
    return {"waited": round(time.monotonic() - t0, 1), "first_go": s.first_go[:40], "moves": s.made,
            "result": s.result, "end": end, "clocks": s.clocks[:3]}


def resume(url, path, k, pause):
    s = Seat(url, path)
    while s.made < k:
        s.until_go()
        s.move()
    before = len(s.lines)
    s.ws.s.close()
    time.sleep(pause)
    s.ws = sc.WebSocket(url, ws_path(path))
    head, got = resume_head(s)
    state = head.split()[3]
    end = s.to_end(pending=state == "pending")
    return {"head": head, "replayed": len(got), "first": got[0].split(" ")[0] if got else None,
            "before": before, "state": state, "moves": s.made, "result": s.result, "end": end}


def takeover(url, path):
    a = Seat(url, path)
    a.until_go()
    a.move()
    a.until_go()	# a go pending on the first page
    b = Seat(url, path)
    told, closed = None, None
    while closed is None:
        m = a.ws.recv()
        if isinstance(m, tuple):
            closed = m[1]
        elif m.startswith("web taken "):
            told = m
    head, got = resume_head(b)
    end = b.to_end(pending=head.split()[3] == "pending")
    return {"told": told, "closed": closed, "head": head, "replayed": len(got), "result": b.result, "end": end}


def browser(url, png):
    sys.path.insert(0, here)
    from browser import Browser, TIMEOUT, open_page, screenshot
    b = Browser()
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        plain_eval = b.eval

        def patient_eval(expr):
            """An evaluation that waits out a navigation (the start form's, a reload)."""
            for _ in range(200):
                try:
                    return plain_eval(expr)
                except RuntimeError as e:
                    if "navigated" not in str(e) and "context" not in str(e):
                        raise
                time.sleep(0.05)
            return plain_eval(expr)
        b.eval = patient_eval
        open_page(b, url)
        # a bad seed first: the answer shows beside its field, no page change
        b.click("#seed")
        b.send("Input.insertText", {"text": "x1"})
        b.click("#go")
        deadline = time.monotonic() + TIMEOUT
        while not b.eval("!!(document.getElementById('err-seed') || {}).textContent"):
            if time.monotonic() > deadline:
                raise RuntimeError("no error beside the seed: " + b.eval("document.body.innerText").replace("\n", " ")[:300])
            time.sleep(0.05)
        seed_error = b.eval("(function(){var e=document.getElementById('err-seed');"
                            "return [e.textContent, e.parentNode.contains(document.getElementById('seed')), "
                            "location.pathname];})()")
        b.eval("document.getElementById('seed').value = ''")
        b.click("#go")	# then the start page's defaults
        deadline = time.monotonic() + TIMEOUT
        while "/play?" not in b.eval("location.href"):
            if time.monotonic() > deadline:
                raise RuntimeError("the start form led to " + b.eval("location.href"))
            time.sleep(0.05)
        seat_url = b.eval("location.href")
        sel = "#moves button[data-move]:not([data-move=''])"
        out = {"url": urlsplit(seat_url).path, "clicks": 0, "asked": False, "seed_error": seed_error}

        def state():
            return b.eval("(function(){var r=document.getElementById('result');"
                          "if(r&&!r.hidden)return 'over';"
                          "return document.querySelector(%s)?'move':'wait';})()" % json.dumps(sel))

        def until_move():
            deadline = time.monotonic() + 20 * TIMEOUT
            while True:
                st = state()
                if st != "wait":
                    return st
                if time.monotonic() > deadline:
                    raise RuntimeError("no turn came (%d clicks): %s" % (
                        out["clicks"], b.eval("document.getElementById('status').textContent")))
                time.sleep(0.02)

        def click():
            # (the page may draw its buttons again between a look and a
            # click: a resumed seat, a resize; wait for them)
            for _ in range(500):
                if b.eval("!!document.querySelector(%s)" % json.dumps(sel)):
                    break
                time.sleep(0.02)
            b.eval("(function(e){if(e)e.scrollIntoView({block:'center'})})(document.querySelector(%s))" % json.dumps(sel))
            b.click(sel)
            out["clicks"] += 1
            for _ in range(400):
                if not b.eval("!!document.querySelector(%s) && document.getElementById('status').className==='turn'"
                              % json.dumps(sel)):
                    break
                time.sleep(0.005)

        if until_move() != "move":
            raise RuntimeError("the game ended before the first move")
        time.sleep(8)
        out["after_8s"] = b.eval("document.getElementById('status').textContent")
        if state() != "move":
            raise RuntimeError("after 8 s the page no longer offers moves: " + out["after_8s"])
        while until_move() == "move":
            click()
            if out["clicks"] == 3:
                # a reload asks first (beforeunload), then the seat comes back
                b.send("Page.reload", {}, wait=False)
                ev = b.wait_event("Page.javascriptDialogOpening")
                out["asked"] = ev["params"].get("type") == "beforeunload"
                b.send("Page.handleJavaScriptDialog", {"accept": True})
                b.wait_event("Page.loadEventFired")
                out["reloaded"] = True
            elif out["clicks"] == 5:
                open_page(b, seat_url)	# the tab closed, the same URL opened again
                out["reopened"] = True
            elif out["clicks"] == 6:
                # Back from another page (the start page): asked, then the seat again
                b.send("Page.navigate", {"url": b.origin}, wait=False)
                ev = b.wait_event("Page.javascriptDialogOpening")
                b.send("Page.handleJavaScriptDialog", {"accept": True})
                deadline = time.monotonic() + TIMEOUT
                while b.eval("location.pathname") != "/":
                    if time.monotonic() > deadline:
                        raise RuntimeError("the start page did not open")
                    time.sleep(0.05)
                hist = b.send("Page.getNavigationHistory")
                back = hist["entries"][hist["currentIndex"] - 1]
                b.send("Page.navigateToHistoryEntry", {"entryId": back["id"]})
                while "/play" not in b.eval("location.pathname"):
                    if time.monotonic() > deadline:
                        raise RuntimeError("Back did not bring the play page")
                    time.sleep(0.05)
                out["back"] = ev["params"].get("type") == "beforeunload"
            elif out["clicks"] == 7:
                # a second tab on the seat takes it over; the first says so
                first = (b.session, b.target)
                target = b.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
                b.session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                   session=False)["sessionId"]
                b.target = target
                for dom in ("Page", "Runtime", "Log", "Network"):
                    b.send(dom + ".enable")
                b.send("Page.navigate", {"url": seat_url})
                second = (b.session, b.target)
                b.session, b.target = first
                deadline = time.monotonic() + TIMEOUT
                while "another page" not in b.eval("document.getElementById('status').textContent"):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the first tab was not told: " +
                                           b.eval("document.getElementById('status').textContent"))
                    time.sleep(0.05)
                out["taken"] = b.eval("document.getElementById('status').textContent")
                b.send("Target.closeTarget", {"targetId": first[1]}, session=False)
                b.session, b.target = second
        out["status"] = b.eval("document.getElementById('status').textContent")
        out["result"] = b.eval("document.getElementById('result').dataset.result || ''")
        screenshot(b, png)
        # (the bad seed's answer is a 400, which Chromium logs as an error)
        bad = [p for p in b.problems() if "network request" not in p and "status of 400" not in p]
        if bad:
            raise RuntimeError("; ".join(bad))
        return out
    finally:
        b.close()


def main():
    a = sys.argv[1:]
    try:
        if len(a) == 4 and a[0] == "wait":
            out = wait(a[1], a[2], float(a[3]))
        elif len(a) == 5 and a[0] == "resume":
            out = resume(a[1], a[2], int(a[3]), float(a[4]))
        elif len(a) == 3 and a[0] == "takeover":
            out = takeover(a[1], a[2])
        elif len(a) == 3 and a[0] == "browser":
            out = browser(a[1], a[2])
        else:
            sys.stderr.write(__doc__)
            return 2
    except (RuntimeError, EOFError, OSError, KeyError, IndexError) as e:
        sys.stderr.write("serve-person.py %s: %s\n" % (a[0], e))
        return 1
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
