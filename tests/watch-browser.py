#!/usr/bin/env python3
"""watch-browser.py: `referee serve`'s pages for watching and learning, in
headless Chromium (driven as tests/browser.py drives it), one JSON object
a page on stdout and a screenshot of each.

    watch-browser.py watch URL PNG [STEPS]  a watch page (URL with
            ?delay=S): what step it shows (#shown's data-shown) and when,
            and every seat's clock text at each change, until the result
            shows or, with STEPS, until step STEPS is shown: then a click
            on "latest" must show the last step and the result; PNG taken
            at step 8 (or $WATCH_SHOT_STEP)
    watch-browser.py standings URL PNG  the tournament's standings page:
            its table's headings and cells once filled
    watch-browser.py review URL PNG SEAT  a replay page: a click on
            "review seat SEAT", the progress lines seen, then the review
            table's rows; a click on the second decision's link and the
            line saying what the AI would play there
    watch-browser.py hint URL           a play page: whether it has a hint
            button (after its probe has answered)

Several pages, separated by `--`, open one after the other in one
Chromium, a line each ({"error": WHY} for a page that failed, WHY also on
stderr). Exit 1, the reason on stderr, on a console error, an uncaught
exception, a request to another host, or a page that does not get there
in time.
"""
import json
import os
import sys
import time
from importlib import import_module
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, TIMEOUT, open_page, screenshot  # noqa: E402

problems = import_module("play-browser").problems


def until(b, expr, what, seconds=None):
    deadline = time.monotonic() + (seconds or TIMEOUT)
    while True:
        v = b.eval(expr)
        if v:
            return v
        if time.monotonic() > deadline:
            raise RuntimeError(what)
        time.sleep(0.03)


def watch(b, url, png, upto=None):
    open_page(b, url)
    t0 = time.monotonic()
    seen, shot = [], False
    deadline = t0 + 40 * TIMEOUT
    read = ("(function(){var s=document.getElementById('shown');"
            "return {n:s.dataset.shown===undefined?-1:+s.dataset.shown, of:+(s.dataset.of||-1),"
            "over:!document.getElementById('result').hidden,"
            "clocks:Array.from(document.querySelectorAll('#clocks .seatcard')).map(function(c){return c.textContent;})};})()")
    while True:
        r = b.eval(read)
        if not seen or r["n"] != seen[-1]["n"]:
            r["t"] = round(time.monotonic() - t0, 3)
            seen.append(r)
        if not shot and r["n"] >= int(os.environ.get("WATCH_SHOT_STEP", "8")):
            screenshot(b, png)
            shot = True
        if r["over"]:
            break
        if upto is not None and r["n"] >= upto:
            b.click("#latest")
            until(b, "!document.getElementById('result').hidden", "no result after 'latest'")
            seen.append(b.eval(read))
            seen[-1]["t"] = round(time.monotonic() - t0, 3)
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the playback did not end: %s" % seen[-1])
        time.sleep(0.02)
    if not shot:
        screenshot(b, png)
    return {"seen": seen, "result": b.eval("document.getElementById('result').textContent")}


def standings(b, url, png):
    open_page(b, url)
    until(b, "document.querySelectorAll('#standings tr').length > 1", "no standings shown")
    out = b.eval("(function(){var t=document.getElementById('standings');"
                 "return {head:Array.from(t.querySelectorAll('th')).map(function(x){return x.textContent;}),"
                 "rows:Array.from(t.querySelectorAll('tr')).slice(1).map(function(r){"
                 "return Array.from(r.children).map(function(x){return x.textContent;});}),"
                 "text:document.body.innerText, progress:document.getElementById('progress').textContent};})()")
    screenshot(b, png)
    return out


def review(b, url, png, seat):
    open_page(b, url)
    b.click("#review-%s" % seat)
    progress = []
    deadline = time.monotonic() + 60 * TIMEOUT
    while not b.eval("document.querySelectorAll('#reviewtable tr').length > 1"):
        line = b.eval("document.getElementById('reviewstate').textContent")
        if line.startswith("no review"):
            raise RuntimeError(line)
        if not progress or progress[-1] != line:
            progress.append(line)
        if time.monotonic() > deadline:
            raise RuntimeError("no review came: %s" % progress[-1:])
        time.sleep(0.05)
    rows = b.eval("Array.from(document.querySelectorAll('#reviewtable tr')).slice(1).map(function(r){"
                  "return Array.from(r.children).map(function(x){return x.textContent;});})")
    b.click("#reviewtable tr:nth-child(3) a")
    here = until(b, "(function(){var t=document.getElementById('coachnow').textContent;"
                 "return t.indexOf('at this decision (2)')===0?t:'';})()", "no line for the decision shown")
    b.eval("document.getElementById('review').scrollIntoView()")
    screenshot(b, png)
    return {"progress": progress, "rows": rows, "here": here,
            "summary": b.eval("document.getElementById('reviewstate').textContent")}


def hint(b, url):
    open_page(b, url)
    time.sleep(1)
    return {"button": b.eval("!!document.getElementById('hint')")}


def one(b, a):
    if a[0] == "watch":
        return watch(b, a[1], a[2], int(a[3]) if len(a) > 3 else None)
    if a[0] == "standings":
        return standings(b, a[1], a[2])
    if a[0] == "review":
        return review(b, a[1], a[2], a[3])
    if a[0] == "hint":
        return hint(b, a[1])
    raise RuntimeError("no such page kind: %s" % a[0])


def main():
    # several pages, separated by `--`, in one Chromium: a line each
    jobs, job = [], []
    for x in sys.argv[1:] + ["--"]:
        if x == "--":
            if job:
                jobs.append(job)
            job = []
        else:
            job.append(x)
    if not jobs or any(len(j) < 2 for j in jobs):
        sys.stderr.write(__doc__)
        return 2
    b = Browser()
    status = 0
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        for a in jobs:
            b.events = []
            try:
                out = one(b, a)
                b.eval("1")
                bad = problems(b, urlsplit(a[1]).netloc)
            except RuntimeError as e:
                out, bad = None, [str(e)]
            if bad:
                sys.stderr.write("%s: %s\n" % (a[0], "\n".join(bad)))
                out, status = {"error": "\n".join(bad)}, 1
            print(json.dumps(out))
            sys.stdout.flush()
    finally:
        b.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
