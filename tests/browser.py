#!/usr/bin/env python3
"""browser.py: open one of tetrarena's HTML pages in headless Chromium, as a
person would, and print what it shows.

    browser.py replay PAGE PNG [PAGE PNG]...   step through each replay
            with its own controls (arrow keys, then the "last" button);
            print the final scores and ranks, and the drawing's cells
    browser.py report PAGE PNG   print the report's bots, ratings, games
    browser.py pages KIND PAGE PNG [KIND PAGE PNG]...   pages of several
            kinds (replay, report, ladder) in one Chromium, each as its
            kind above (replay-nostderr: a replay without the walk through
            every step for its stderr notes, no "stderr" field); a page that fails prints {"error": WHY} on its
            line instead (WHY also on stderr) and the next page is still
            opened (exit 1 at the end)
    browser.py ladder INDEX PNG  a ladder's leaderboard (PNG), then a click on
            its first entry: that bot's page (PNG with -bot before .png),
            then a click on its newest game: the replay opens. INDEX may
            be a served address (http://HOST:PORT/, `referee serve
            --ladder`): there the leaderboard is reached by a click on the
            rejected page's "leaderboard" link, and requests to that
            server are the pages' own

    browser.py accounts URL OUTDIR INVITE ARCHIVE   a served ladder's authors'
            pages (`referee serve --ladder`): sign up (cleo) with INVITE by
            the form, upload ARCHIVE (as pybot) by /upload's form, then wait (up to the
            timeout, reloading) until the author's page shows it admitted,
            then ask for a test game by its form and wait for its result;
            screenshots ladder-signup.png, ladder-upload.png (the page
            right after the upload: its vetting) and ladder-author.png in
            OUTDIR

Output: one JSON object per page on stdout, and a screenshot of each page
in its PNG. Exit 1, with the reason on stderr, on a console error, an
uncaught exception, any request that is not the page itself (the pages
must need no network) or a page that does not react.
Chromium is driven over the DevTools protocol on a pipe (fds 3 and 4,
messages ending in NUL): no port, no packages. A fresh profile each run.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
TIMEOUT = 30 * float(os.environ.get("TETRARENA_TIME_SCALE", "1"))


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="tetrarena-chromium-")
        to_r, to_w = os.pipe()      # our commands, Chromium's fd 3
        from_r, from_w = os.pipe()  # its answers, Chromium's fd 4
        os.set_inheritable(to_r, True)
        os.set_inheritable(from_w, True)

        def fds():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-extensions",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             "--window-size=1280,1000", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        os.close(to_r)
        os.close(from_w)
        self.out = os.fdopen(to_w, "wb", buffering=0)
        self.inp = os.fdopen(from_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.origin = None  # a served page's http://HOST:PORT/
        self.session = None
        self.target = None

    def close(self):
        try:
            self.send("Browser.close", {}, session=False, wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def read(self):
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise RuntimeError("Chromium does not answer")
            chunk = self.inp.read(65536)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, wait=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self.out.write(json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        while True:
            m = self.read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(method + ": " + m["error"].get("message", ""))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[i]
                return m
        while True:
            m = self.read()
            if m.get("method") == method:
                return m
            self.events.append(m)

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluating %s: %s" % (expr, r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": code_num(code)})

    def click(self, selector):
        box = self.eval("(function(){var r=document.querySelector(%s).getBoundingClientRect();"
                        "return [r.left+r.width/2, r.top+r.height/2];})()" % json.dumps(selector))
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def problems(self):
        """Console errors, exceptions and requests leaving the file."""
        out = []
        for m in self.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p["exceptionDetails"])[:500])
            elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append("console %s: %s" % (p["type"], json.dumps(p.get("args"))[:500]))
            elif meth == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
            elif meth == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if not url.startswith(("file:", "data:", "about:") + ((self.origin,) if self.origin else ())):
                    out.append("network request: " + url)
        return out


def code_num(code):
    return {"ArrowRight": 39, "ArrowLeft": 37, "End": 35, "Home": 36}.get(code, 0)


def open_page(b, path):
    if b.session:
        b.send("Target.closeTarget", {"targetId": b.target}, session=False)
        b.session = None
    target = b.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
    b.session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                       session=False)["sessionId"]
    b.target = target
    for dom in ("Page", "Runtime", "Log", "Network"):
        b.send(dom + ".enable")
    served = path.startswith("http://")
    if served:
        b.origin = "/".join(path.split("/")[:3]) + "/"
    b.send("Page.navigate", {"url": path if served else "file://" + os.path.abspath(path)})
    b.wait_event("Page.loadEventFired")


def screenshot(b, png):
    shot = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    with open(png, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def replay(b, page, png, stderr=True):
    open_page(b, page)
    step = lambda: int(b.eval("document.body.getAttribute('data-step')"))
    last = int(b.eval("document.getElementById('slider').max"))
    first = int(b.eval("document.body.getAttribute('data-first')"))
    if step() != first:
        raise RuntimeError("the replay does not open on its first move (step %d), but %d" % (first, step()))
    b.key("Home", "Home")
    if step() != 0:
        raise RuntimeError("Home: at step %d, not 0" % step())
    if last >= 2:
        b.key("ArrowRight", "ArrowRight")
        b.key("ArrowRight", "ArrowRight")
        b.key("ArrowLeft", "ArrowLeft")
        if step() != 1:
            raise RuntimeError("arrow keys: at step %d, not 1" % step())
        if b.eval("location.hash") != "#m=1":
            raise RuntimeError("the address does not follow the step")
    b.click("#last")
    if step() != last:
        raise RuntimeError("the last button: at step %d of %d" % (step(), last))
    seats = b.eval("Array.from(document.querySelectorAll('#scores tr[data-seat]')).map(function(r){"
                   "return [r.querySelector('.score').textContent, r.querySelector('.rank').textContent];})")
    board = b.eval("document.getElementById('board').textContent")
    # the drawing read back: each board's cells, top row first
    drawn = b.eval("""(function(){
      var out = {};
      document.querySelectorAll('#drawing rect[data-board]').forEach(function(r){
        var n = r.getAttribute('data-board'), x = +r.getAttribute('data-x'), y = +r.getAttribute('data-y');
        (out[n] = out[n] || {})[y + ',' + x] = r.getAttribute('data-c');
      });
      var res = {};
      Object.keys(out).forEach(function(n){
        var cells = out[n], h = 0, w = 0;
        Object.keys(cells).forEach(function(k){ var p = k.split(','); h = Math.max(h, +p[0] + 1); w = Math.max(w, +p[1] + 1); });
        var rows = [];
        for (var y = h - 1; y >= 0; y--) { var s = ''; for (var x = 0; x < w; x++) s += cells[y + ',' + x] || '?'; rows.push(s); }
        res[n] = rows;
      });
      return res;})()""")
    # what the last step says in words, the drawing's size against the
    # window's, the last move's cells
    words = b.eval("[document.getElementById('headline').textContent,"
                   " Array.from(document.querySelectorAll('#standing li')).map(function(l){return l.textContent;}),"
                   " document.getElementById('what').textContent]")
    size = b.eval("(function(){var d=document.getElementById('drawing');if(!d)return null;"
                  "var r=d.getBoundingClientRect();return [r.width,r.height,innerWidth,innerHeight];})()")
    marked = b.eval("document.querySelectorAll('#drawing rect[data-last]').length")
    # playing at 8x goes on by itself (10 steps), animated; then the last step again
    b.key("Home", "Home")
    b.eval("(function(){var s=document.getElementById('speed');s.value='8';s.dispatchEvent(new Event('change'));})()")
    b.click("#play")
    deadline = time.monotonic() + TIMEOUT
    animated = False
    while step() < min(last, 10) and time.monotonic() < deadline:
        animated = animated or b.eval("!!document.querySelector('#drawing.animate')")
        time.sleep(0.05)
    played = step() >= min(last, 10) and (animated or last < 3)
    b.click("#last")
    screenshot(b, png)
    out = {"steps": last, "first": first, "words": words, "size": size, "marked": marked, "played": played, "scores": [int(s[0]) for s in seats], "ranks": [int(s[1]) for s in seats],
            "board_chars": len(board.strip()), "drawn": drawn,
            "notes": b.eval("document.querySelectorAll('#notes li').length"),
            "faultmarks": b.eval("document.querySelectorAll('#scorechart .faultmark').length")}
    if not stderr:
        return out
    # every step's stderr notes: [step, open, summary, text]
    out["stderr"] = b.eval("""(function(){
      var s = document.getElementById('slider'), out = [];
      for (var i = 0; i <= +s.max; i++) {
        s.value = String(i); s.dispatchEvent(new Event('input'));
        document.querySelectorAll('#notes li.stderr details').forEach(function(d){
          out.push([i, d.open, d.querySelector('summary').textContent, d.querySelector('pre').textContent]);
        });
      }
      return out;})()""")
    return out


def report(b, page, png):
    open_page(b, page)
    out = b.eval("""(function(){
      function rows(sel){return Array.from(document.querySelectorAll(sel));}
      return {bots: rows('#standings tr[data-bot]').map(function(r){return r.getAttribute('data-bot');}),
              elo: rows('#standings tr[data-bot] .elo').map(function(c){return Number(c.textContent);}),
              games: Number(document.getElementById('gamecount').textContent),
              rating_bars: rows('#ratingplot .bar').length,
              heat_cells: rows('#crosstable td.heat').length,
              game_links: rows('#games td:first-child a').length,
              stderr_links: rows('#games a.stderr').map(function(a){return a.getAttribute('href');}),
              seeds: rows('#games td.seed').map(function(c){return c.textContent;}),
              sandbox: (document.getElementById('sandbox') || {}).textContent || '',
              sandbox_loud: !!document.querySelector('#sandbox.fault'),
              header: document.getElementById('header').textContent,
              wdl: rows('#standings tr[data-bot]').map(function(r){return r.cells[4].textContent;}),
              lower_wins: (document.getElementById('lowerwins') || {}).textContent || '',
              meta: (document.getElementById('meta') || {}).textContent || '',
              hashes: rows('#standings td.hash').map(function(c){return c.getAttribute('title');}),
              partial: (document.getElementById('partial') || {}).textContent || '',
              notes: rows('#runnotes li').map(function(li){return li.textContent;}),
              sprt: rows('#sprt td').map(function(c){return [c.getAttribute('data-k'), c.textContent];}),
              los_cells: rows('#los td.losv').length,
              time_scale: document.querySelector('#timeplot').getAttribute('data-scale')};})()""")
    # charts follow the window's width
    widths = []
    for w in (700, 1300):
        b.send("Emulation.setDeviceMetricsOverride", {"width": w, "height": 900, "deviceScaleFactor": 1,
                                                      "mobile": False})
        b.send("Runtime.evaluate", {"expression": "new Promise(function(r){requestAnimationFrame(function(){"
                                    "requestAnimationFrame(r);});})", "awaitPromise": True})
        widths.append([int(b.eval("Number(document.getElementById('%s').getAttribute('width'))" % c))
                       for c in ("ratingplot", "scoreplot", "timeplot")])
    out["chart_widths"] = widths
    # the games table: filter, then sort by plies both ways
    visible = "Array.from(document.querySelectorAll('#games tr')).slice(1).filter(function(r){return !r.hidden;})"
    out["games_rows"] = b.eval(visible + ".length")
    first_bot = out["bots"][0] if out["bots"] else ""
    out["filter_word"] = first_bot
    out["filtered_rows"] = b.eval("(function(){var f=document.getElementById('gamefilter');f.value=%s;"
                                  "f.dispatchEvent(new Event('input'));return %s.length;})()" % (json.dumps(first_bot), visible))
    out["filtered_all_match"] = b.eval("%s.every(function(r){return r.cells[2].textContent.split(' ').indexOf(%s)>=0;})"
                                       % (visible, json.dumps(first_bot)))
    out["filter_count_text"] = b.eval("document.getElementById('gamesshown').textContent")
    b.eval("(function(){var f=document.getElementById('gamefilter');f.value='';f.dispatchEvent(new Event('input'));})()")
    plies = lambda: b.eval(visible + ".map(function(r){return Number(r.cells[5].textContent);})")
    head = "document.querySelector('#games th[data-key=plies]')"
    b.eval(head + ".scrollIntoView()")
    b.click("#games th[data-key=plies]")
    out["plies_up"] = plies()
    b.click("#games th[data-key=plies]")
    out["plies_down"] = plies()
    b.send("Emulation.clearDeviceMetricsOverride")
    screenshot(b, png)
    return out


def ladder(b, page, png):
    if page.startswith("http://"):
        # served: from the rejected page back to the leaderboard by a click
        open_page(b, page.rstrip("/") + "/ladder/rejected.html")
        b.click("#header a[href='index.html']")
        b.wait_event("Page.loadEventFired")
    else:
        open_page(b, page)
    rows = "Array.from(document.querySelectorAll('#leaderboard tr[data-bot]'))"
    out = {"entries": b.eval(rows + ".map(function(r){return r.cells[1].textContent;})"),
           "ratings": b.eval(rows + ".map(function(r){return r.querySelector('.elo').textContent;})"),
           "games": b.eval(rows + ".map(function(r){return Number(r.querySelector('.games').textContent);})"),
           "gamecount": int(b.eval("document.getElementById('gamecount').textContent"))}
    screenshot(b, png)
    # the first entry's page, by a click on its name
    b.click("#leaderboard tr[data-bot] a")
    b.wait_event("Page.loadEventFired")
    out["bot_title"] = b.eval("document.querySelector('h1').textContent")
    out["bot_rating"] = b.eval("(document.getElementById('rating') || {}).textContent || ''")
    out["history_points"] = b.eval("document.querySelectorAll('#history circle.point').length")
    out["h2h"] = b.eval("Array.from(document.querySelectorAll('#h2h tr[data-opponent]')).map(function(r){"
                        "return [r.cells[0].textContent, Number(r.cells[1].textContent)];})")
    out["recent"] = b.eval("document.querySelectorAll('#recent td:first-child a').length")
    out["faults"] = b.eval("document.querySelectorAll('#faults li').length")
    screenshot(b, png[:-4] + "-bot.png" if png.endswith(".png") else png + "-bot")
    # its newest game's replay, by a click
    b.click("#recent td:first-child a")
    b.wait_event("Page.loadEventFired")
    out["replay_step"] = b.eval("document.body.getAttribute('data-step')")
    out["replay_last"] = b.eval("(document.getElementById('slider') || {}).max")
    return out


def fill(b, selector, value):
    b.eval("document.querySelector(%s).value = %s" % (json.dumps(selector), json.dumps(value)))


def submit(b, selector):
    b.click(selector)
    b.wait_event("Page.loadEventFired")


def accounts(b, url, outdir, invite, archive):
    url = url.rstrip("/")
    open_page(b, url + "/signup")
    fill(b, "input[name=name]", "cleo")
    fill(b, "input[name=password]", "cleo-password")
    fill(b, "input[name=invite]", invite)
    screenshot(b, os.path.join(outdir, "ladder-signup.png"))
    submit(b, "#signup button")
    out = {"after_signup": b.eval("location.pathname")}
    b.send("Page.navigate", {"url": url + "/upload"})
    b.wait_event("Page.loadEventFired")
    fill(b, "input[name=name]", "pybot")
    doc = b.send("DOM.getDocument")["root"]["nodeId"]
    node = b.send("DOM.querySelector", {"nodeId": doc, "selector": "input[name=archive]"})["nodeId"]
    b.send("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(archive)]})
    submit(b, "#upload button")
    out["after_upload"] = b.eval("location.pathname")
    out["vetting"] = b.eval("(document.querySelector('#uploads tr[id^=upload-] td:last-child') || {}).textContent")
    screenshot(b, os.path.join(outdir, "ladder-upload.png"))
    deadline = time.monotonic() + 4 * TIMEOUT
    while not b.eval("!!document.querySelector('#uploads tr.admitted') && !!document.querySelector('#games a.stderr')") \
            and time.monotonic() < deadline:
        time.sleep(0.5)
        b.send("Page.reload")
        b.wait_event("Page.loadEventFired")
    out["admitted"] = b.eval("!!document.querySelector('#uploads tr.admitted')")
    out["games"] = b.eval("document.querySelectorAll('#games tr').length - 1")
    out["stderr_links"] = b.eval("document.querySelectorAll('#games a.stderr').length")
    out["description"] = b.eval("(document.querySelector('#bots td:nth-child(5)') || {}).textContent")
    # an unrated test game by its form, until its result shows
    submit(b, "#test button")
    deadline = time.monotonic() + 2 * TIMEOUT
    while not b.eval("!!document.querySelector('#tests tr.done')") and time.monotonic() < deadline:
        time.sleep(0.5)
        b.send("Page.reload")
        b.wait_event("Page.loadEventFired")
    out["test_result"] = b.eval("(document.querySelector('#tests tr.done td:nth-child(5)') || {}).textContent")
    screenshot(b, os.path.join(outdir, "ladder-author.png"))
    return out


MODES = {"replay": replay, "report": report, "ladder": ladder,
         "replay-nostderr": lambda b, page, png: replay(b, page, png, stderr=False)}


def page_problems(b, page, start):
    """The problems of the page opened since b.events[start]."""
    b.eval("1")  # let late errors arrive
    events, b.events = b.events, b.events[start:]
    try:
        return b.problems()
    finally:
        b.events = events


def pages(b, args):
    """KIND PAGE PNG triples, one Chromium: a line per page, an error
    line for a page that fails; 1 when any failed."""
    status = 0
    for i in range(0, len(args), 3):
        kind, page, png = args[i:i + 3]
        start = len(b.events)
        b.origin = None
        try:
            o = MODES[kind](b, page, png)
            bad = page_problems(b, page, start)
        except RuntimeError as e:
            if str(e).startswith("Chromium"):  # no browser left to go on with
                raise
            o, bad = None, [str(e)] + page_problems(b, page, start)
        if bad:
            sys.stderr.write("browser.py: %s: %s\n" % (page, "\n".join(bad)))
            o, status = {"error": "\n".join(bad)}, 1
        print(json.dumps(o))
        sys.stdout.flush()
    return status


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "pages" and len(sys.argv) % 3 == 2 \
            and all(k in MODES for k in sys.argv[2::3]):
        b = Browser()
        try:
            b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
            return pages(b, sys.argv[2:])
        except RuntimeError as e:
            sys.stderr.write("browser.py: %s\n" % e)
            return 1
        finally:
            b.close()
    if len(sys.argv) == 6 and sys.argv[1] == "accounts":
        b = Browser()
        try:
            b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
            out = accounts(b, *sys.argv[2:])
            b.eval("1")
            bad = b.problems()
        except RuntimeError as e:
            out, bad = None, [str(e)]
        finally:
            b.close()
        print(json.dumps(out))
        if bad:
            sys.stderr.write("browser.py: %s\n" % "\n".join(bad))
        return 1 if bad else 0
    if len(sys.argv) < 4 or len(sys.argv) % 2 or sys.argv[1] not in ("replay", "report", "ladder"):
        sys.stderr.write(__doc__)
        return 2
    b = Browser()
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        out = []
        for i in range(2, len(sys.argv), 2):
            mode = MODES[sys.argv[1]]
            out.append(mode(b, sys.argv[i], sys.argv[i + 1]))
            b.eval("1")  # let late errors arrive
            bad = b.problems()
            if bad:
                bad.insert(0, sys.argv[i] + ":")
                break
    except RuntimeError as e:
        sys.stderr.write("browser.py: %s\n" % e)
        return 1
    finally:
        b.close()
    if bad:
        sys.stderr.write("browser.py: %s\n" % "\n".join(bad))
        return 1
    for o in out:
        print(json.dumps(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
