#!/usr/bin/env python3
"""serve-click.py: a person's move in the browser, from the click to the
referee's log line (issue 29's Measure; docs/serve.md, "Measured").

    serve-click.py [MOVES]      (run from the top of the tree, after make)

Starts `bin/referee serve --listen 127.0.0.1:0 -o DIR` and plays link games
(seat 0 a person, seat 1 bin/bot-random) on the play page in headless
Chromium (tests/browser.py's Browser; tests/play-browser.py's open_url and
problems) until MOVES (default 40, at least 30) of the person's moves are
timed. At each turn the person hovers a legal column of the tower (as
tests/play-pages.py does; not timed) and clicks it: the wall time just
before the click's first Input.dispatchMouseEvent (a real mousePressed,
then mouseReleased) is the start. Then, per move:
  page    the page's `click` event (event.timeStamp, capture phase)
  send    the page's WebSocket.send (a wrapper installed before the page's
          own scripts: performance.timeOrigin + performance.now())
  step    a spectator (GET /games/ID/events, its own thread) has the step
          of that move: the log's tap made it from the `< 0` line
  relay   of that, the server's part from the WebSocket message to the
          log's tap: the change of /api/stats' relay sum across the move
  file    a thread that reads the log file (DIR/gN.log) every 0.2 ms sees
          the person's `< 0 +T move M` line; the k-th such line of a game
          is the k-th click's. The tapped log's file is written when
          stdio's buffer fills (referee/gamelog.c: the line-buffered tap
          stream writes into a fully buffered FILE), so this figure is
          the buffer's, not a latency
Prints median, p90 and max in ms of each, with the load before and after.
The page's times and ours are both wall clock on one machine.
KEEP=1 keeps the games' directory; CLICK_JSON=FILE writes each move's times.
"""
import glob
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import shutil
from urllib.parse import urlsplit

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
from browser import Browser  # noqa: E402
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("play_browser", os.path.join(TOP, "tests", "play-browser.py"))
play_browser = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(play_browser)
_spec = importlib.util.spec_from_file_location("serve_client", os.path.join(TOP, "tests", "serve-client.py"))
serve_client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve_client)

# installed before the page's scripts: when each click reaches the page
# and when each WebSocket message leaves it, in epoch milliseconds
HOOK = """
window.__click = [];
window.__sent = [];
addEventListener('click', function (e) {
  window.__click.push(performance.timeOrigin + e.timeStamp);
}, true);
(function () {
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    window.__sent.push([performance.timeOrigin + performance.now(), String(d)]);
    return send.call(this, d);
  };
})();
"""
MOVE_LINE = re.compile(r"< 0 \+[0-9]+ move (\S+)$")


class Tail(threading.Thread):
    """Notes the wall time each new line of a file is first seen."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.lines, self.stop = path, [], False

    def run(self):
        while not os.path.exists(self.path) and not self.stop:
            time.sleep(0.0002)
        with open(self.path, "rb") as f:
            part = b""
            while not self.stop:
                chunk = f.read()
                if chunk:
                    now = time.time()
                    part += chunk
                    *done, part = part.split(b"\n")
                    self.lines.extend((now, ln.decode("utf-8", "replace")) for ln in done)
                else:
                    time.sleep(0.0002)


class Watch(threading.Thread):
    """A spectator (GET /games/ID/events, tests/serve-client.py's socket
    and line reader): notes the wall time each step's data arrives."""

    def __init__(self, url, gid):
        super().__init__(daemon=True)
        self.url, self.gid, self.steps = url, gid, []

    def run(self):
        s, host = serve_client.connect(self.url)
        s.sendall(("GET /games/%s/events HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n"
                   % (self.gid, host)).encode())
        r = serve_client.Lines(s)
        while True:
            line = r.line()
            if line is None:
                break
            if line.startswith("data: "):
                self.steps.append((time.time(), line[6:]))
        s.close()


def req(url, method, path, body=None):
    u = urlsplit(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request(method, path, body, {"Content-Type": "application/x-www-form-urlencoded"} if body else {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, r.getheader("Location"), data


def relay_sum(url):
    s = json.loads(req(url, "GET", "/api/stats")[2])["relay"]
    return s["n"], s["n"] * s["mean_us"]


def game(b, url, outdir, seed, want, rows):
    before = set(glob.glob(os.path.join(outdir, "*.log")))
    st, loc, _ = req(url, "POST", "/games", "variant=link&seat=person&seat=bot-random&seed=%d" % seed)
    if st != 303 or not loc:
        raise RuntimeError("POST /games: %d" % st)
    b.send("Page.navigate", {"url": url.rstrip("/") + loc})
    b.wait_event("Page.loadEventFired")
    log = None
    for _ in range(500):
        new = set(glob.glob(os.path.join(outdir, "*.log"))) - before
        if new:
            log = new.pop()
            break
        time.sleep(0.01)
    if not log:
        raise RuntimeError("no new log in " + outdir)
    mine = []
    tail = Tail(log)
    tail.start()
    watch = Watch(url, loc.split("/")[2])
    watch.start()
    try:
        # the spectator is there (it has step 0) before the first click
        for _ in range(1000):
            if watch.steps:
                break
            time.sleep(0.005)
        while len(rows) + len(mine) < want:
            state = b.eval("(function(){var r=document.getElementById('result');"
                           "if(r&&!r.hidden)return 'over';"
                           "var s=document.getElementById('playboard');"
                           "return document.querySelector('#moves .playpane[data-ready]')&&s&&s.dataset.cols?"
                           "s.dataset.cols:'wait';})()")
            if state == "over":
                break
            if state == "wait":
                time.sleep(0.005)
                continue
            # a person hovers a legal column (the ghost shows where the
            # piece lands), then clicks it: only the click is timed
            cols = state.split(",")
            sel = "#playboard rect.cell[data-x='%s'][data-y='0']" % cols[len(rows) % len(cols)]
            x, y = b.eval("(function(){var e=document.querySelector(%s);e.scrollIntoView({block:'center'});"
                          "var r=e.getBoundingClientRect();return [r.left+r.width/2, r.top+r.height/2];})()"
                          % json.dumps(sel))
            b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
            move = b.eval("(function(){var d=document.getElementById('drop');return d?d.getAttribute('data-move'):'';})()")
            if not move:
                raise RuntimeError("hovering %s names no move" % sel)
            seen_step = len(watch.steps)
            n0, sum0 = relay_sum(url)
            nclick = b.eval("window.__click.length")
            nsent = b.eval("window.__sent.length")
            t0 = time.time()
            for kind in ("mousePressed", "mouseReleased"):
                b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                    "button": "left", "clickCount": 1})
            deadline = time.monotonic() + 30
            step = '"%s"' % move
            t_step = None
            while t_step is None:
                for t, data in watch.steps[seen_step:]:
                    if step in data:
                        t_step = t
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("no live step of move %s after the click" % move)
                time.sleep(0.001)
            clicks = b.eval("window.__click.slice(%d)" % nclick)
            sent = [s for s in b.eval("window.__sent.slice(%d)" % nsent) if s[1] == "move " + move]
            n1, sum1 = relay_sum(url)
            if not clicks or not sent:
                raise RuntimeError("the click on %r did not reach the page or was not sent" % move)
            relay = (sum1 - sum0) / 1e6 if n1 - n0 == 1 else None
            mine.append({"move": move, "click": t0, "page": clicks[0] / 1e3, "send": sent[0][0] / 1e3,
                         "step": t_step, "relay": relay})
        # the file gets the lines when its buffer is written: wait for the
        # end of the game (or the last click's line), then match the
        # person's k-th `< 0` move line to the k-th click
        deadline = time.monotonic() + 60
        while mine and time.monotonic() < deadline:
            got = [t for t, ln in tail.lines if MOVE_LINE.match(ln)]
            if len(got) >= len(mine) or (tail.lines and tail.lines[-1][1] == "end"):
                break
            time.sleep(0.01)
    finally:
        tail.stop = True
        tail.join()
    got = [(t, MOVE_LINE.match(ln).group(1)) for t, ln in tail.lines if MOVE_LINE.match(ln)]
    for m, (t, move) in zip(mine, got):
        if move != m["move"]:
            raise RuntimeError("the log's move %s is not the click's %s" % (move, m["move"]))
        m["file"] = t
    rows.extend(mine)


def stats(xs):
    xs = sorted(x * 1000 for x in xs if x is not None)
    if not xs:
        return "none"
    med = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    return "median %.2f ms, p90 %.2f ms, max %.2f ms (%d moves)" % (med, p90, xs[-1], len(xs))


def main():
    want = max(30, int(sys.argv[1]) if len(sys.argv) > 1 else 40)
    tmp = tempfile.mkdtemp(prefix="serve-click.")
    outdir = os.path.join(tmp, "games")
    err = open(os.path.join(tmp, "err"), "wb")
    srv = subprocess.Popen([os.path.join(TOP, "bin", "referee"), "serve", "--listen", "127.0.0.1:0",
                            "-o", outdir, "--sandbox", "off"],
                           stdout=subprocess.PIPE, stderr=err, cwd=TOP)
    b = None
    try:
        first = srv.stdout.readline().decode()
        if not first.startswith("serving "):
            raise RuntimeError("referee serve said %r" % first)
        url = first.split()[1]
        print("load before: %s; nproc %d" % (" ".join(open("/proc/loadavg").read().split()[:3]), os.cpu_count()))
        b = Browser()
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        play_browser.open_url(b, "about:blank")
        b.send("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        rows, seed, per = [], 1, []
        while len(rows) < want and seed < 20:
            k = len(rows)
            game(b, url, outdir, seed, want, rows)
            per.append(str(len(rows) - k))
            seed += 1
        if len(rows) < want:
            raise RuntimeError("only %d moves timed" % len(rows))
        bad = play_browser.problems(b, urlsplit(url).netloc)
        if bad:
            raise RuntimeError("the page: " + "; ".join(bad))
        print("a person's move in Chromium, link against bot-random, %d games (%s moves):" % (seed - 1, "+".join(per)))
        def part(a, b):
            return stats((r[b] - r[a]) if r.get(a) is not None and r.get(b) is not None else None for r in rows)
        print("  click -> the log line in the file:   " + part("click", "file"))
        print("  click -> a spectator has the step:   " + part("click", "step"))
        print("    click -> the page's click event:   " + part("click", "page"))
        print("    the page's click -> its ws.send:   " + part("page", "send"))
        print("    ws.send -> a spectator's step:     " + part("send", "step"))
        print("      of which the server's message -> the log's tap (/api/stats): "
              + stats(r["relay"] for r in rows))
        print("load after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
        if os.environ.get("CLICK_JSON"):
            json.dump(rows, open(os.environ["CLICK_JSON"], "w"), indent=1)
    except RuntimeError as e:
        sys.stderr.write("serve-click.py: %s\n" % e)
        return 1
    finally:
        if b:
            b.close()
        srv.terminate()
        srv.wait()
        if not os.environ.get("KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
