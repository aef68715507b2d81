#!/usr/bin/env python3
"""play-browser.py: play a game on `referee serve`'s play page in headless
Chromium, as a person would: real mouse clicks on the page's move buttons.

    play-browser.py URL PNG [MAX_CLICKS] [FIELD=VALUE...]
    play-browser.py URL PNG [MAX_CLICKS] [FIELD=VALUE...] -- URL PNG ...
            several pages, one after the other, in one Chromium: a line
            per page, {"error": WHY} (WHY also on stderr) for a page that
            failed, and the next page is still opened (exit 1 at the end)

URL is a play page (/games/ID/play?seat=S&token=T), or the start page
(/): there the script types each FIELD's VALUE into the form (#seed,
#time: a click on the field, select all, then the text as keystrokes),
keeps the seats the page proposes (you, then our AI), and clicks "start
the game", which opens the play page. A watch page (/games/ID) is only
watched: to the end, reading back the steps it showed. Until the end screen
shows, the script waits for the page to offer moves (`#moves
button[data-move]`: the generic page's move buttons, or a variant page's
button for the move it shows, such as link's `drop`), scrolls the first
into view and clicks it with Input.dispatchMouseEvent.
Prints one JSON object: the end screen's text and result fields, the
number of clicks, and what the page said on the way; writes a screenshot.
Exit 1, the reason on stderr, on a console error, an uncaught exception,
a request to another host, or a game that does not end.
Chromium is driven as tests/browser.py drives it (its Browser class).
"""
import json
import os
import sys
import time
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, TIMEOUT, open_page, screenshot  # noqa: E402


def problems(b, origin):
    out = []
    for m in b.events:
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.exceptionThrown":
            out.append("exception: " + json.dumps(p["exceptionDetails"])[:500])
        elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console %s: %s" % (p["type"], json.dumps(p.get("args"))[:500]))
        elif meth == "Network.requestWillBeSent":
            u = urlsplit(p["request"]["url"])
            if u.scheme not in ("data", "about") and u.netloc != origin:
                out.append("network request elsewhere: " + p["request"]["url"])
    return out


def type_into(b, selector, text):
    b.eval("document.querySelector(%s).scrollIntoView({block:'center'})" % json.dumps(selector))
    b.click(selector)
    b.eval("document.querySelector(%s).select()" % json.dumps(selector))
    b.send("Input.insertText", {"text": text})


def start(b, fields):
    for f in fields:
        k, _, v = f.partition("=")
        type_into(b, "#" + k, v)
    b.click("#go")
    b.wait_event("Page.loadEventFired")
    if "/play?" not in b.eval("location.href"):
        raise RuntimeError("the start form led to " + b.eval("location.href"))


def watch(b, png):
    deadline = time.monotonic() + 20 * TIMEOUT
    while not b.eval("!document.getElementById('result').hidden"):
        if time.monotonic() > deadline:
            raise RuntimeError("the game did not end")
        time.sleep(0.05)
    out = b.eval("(function(){var s=document.getElementById('status').dataset;"
                 "return {seen:+s.seen, last:+s.step, gaps:+(s.gaps||0),"
                 "result:document.getElementById('result').textContent,"
                 "cells:document.querySelectorAll('#drawing rect[data-board]').length};})()")
    screenshot(b, png)
    return out


def play(b, url, png, max_clicks, fields):
    open_page(b, url)
    if "/play" not in urlsplit(url).path and urlsplit(url).path.startswith("/games/"):
        return watch(b, png)
    if urlsplit(url).path in ("", "/"):
        start(b, fields)
    clicks = 0
    deadline = time.monotonic() + 20 * TIMEOUT
    while True:
        if time.monotonic() > deadline:
            raise RuntimeError("the game did not end (%d clicks)" % clicks)
        state = b.eval("(function(){var r=document.getElementById('result');"
                       "if(r&&!r.hidden)return 'over';"
                       "return document.querySelector('#moves button[data-move]:not([data-move=\"\"])')?'move':'wait';})()")
        if state == "over":
            break
        if state == "wait":
            time.sleep(0.02)
            continue
        if clicks >= max_clicks:
            raise RuntimeError("more than %d moves" % max_clicks)
        sel = "#moves button[data-move]:not([data-move=''])"
        b.eval("document.querySelector(%s).scrollIntoView({block:'center'})" % json.dumps(sel))
        b.click(sel)
        clicks += 1
        # the click must take the buttons away (the move is sent once)
        for _ in range(200):
            if not b.eval("!!document.querySelector('#moves button[data-move]') && "
                          "document.getElementById('status').className==='turn' && "
                          "document.getElementById('moves').dataset.go===undefined"):
                break
            time.sleep(0.005)
    out = b.eval("(function(){var r=document.getElementById('result');"
                 "return {text:r.textContent, result:r.dataset.result||'',"
                 "status:document.getElementById('status').textContent};})()")
    out["clicks"] = clicks
    out["url"] = b.eval("location.pathname + location.search")
    screenshot(b, png)
    return out


def run_page(name, url, act):
    """Open Chromium, run act(b) on it, check the page of url for problems,
    print act's JSON: the exit status (1, the reason on stderr, on a
    problem). play-pages.py runs its pages through it too."""
    b = Browser()
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        out = act(b)
        b.eval("1")
        bad = problems(b, urlsplit(url).netloc)
    except RuntimeError as e:
        sys.stderr.write("%s: %s\n" % (name, e))
        return 1
    finally:
        b.close()
    if bad:
        sys.stderr.write("%s: %s\n" % (name, "\n".join(bad)))
        return 1
    print(json.dumps(out))
    return 0


def next_page(b, origin, act):
    """In Chromium b, close the page before (if any) and run act() for the
    next; returns (act's JSON, the problems of the page from origin, or
    act's error with them). A Chromium that died is raised: no page can go
    on."""
    if b.session:
        b.send("Target.closeTarget", {"targetId": b.target}, session=False)
        b.session = None
    b.events = []
    try:
        out = act()
        b.eval("1")
        return out, problems(b, origin)
    except RuntimeError as e:
        if str(e).startswith("Chromium"):
            raise
        return {}, [str(e)] + problems(b, origin)


def pages_in_one(name, pages):
    """Play pages one after another in one Chromium: pages(b) yields
    (LABEL, ORIGIN, ACT, MORE) a page; prints ACT's JSON a line (or
    {"error": ...}, the reason on stderr too), with MORE() (a dict) added;
    returns 1 if any page failed. several() and play-pages.py --start."""
    b = Browser()
    status = 0
    try:
        b.send("Target.setDiscoverTargets", {"discover": False}, session=False)
        for label, origin, act, more in pages(b):
            out, bad = next_page(b, origin, act)
            if bad:
                sys.stderr.write("%s: %s: %s\n" % (name, label, "\n".join(bad)))
                out, status = {"error": "\n".join(bad)}, 1
            out.update(more())
            print(json.dumps(out))
            sys.stdout.flush()
    except (RuntimeError, OSError) as e:
        sys.stderr.write("%s: %s\n" % (name, e))
        return 1
    finally:
        b.close()
    return status


def several(jobs):
    """Each job (URL PNG [MAX_CLICKS] [FIELD=VALUE...]) in one Chromium."""
    def pages(b):
        for job in jobs:
            url, png = job[0], job[1]
            max_clicks = int(job[2]) if len(job) >= 3 else 1000
            yield (url, urlsplit(url).netloc,
                   lambda: play(b, url, png, max_clicks, job[3:]), dict)
    return pages_in_one("play-browser.py", pages)


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    if "--" in sys.argv:
        jobs, job = [], []
        for a in sys.argv[1:] + ["--"]:
            if a != "--":
                job.append(a)
                continue
            if len(job) < 2:
                sys.stderr.write(__doc__)
                return 2
            jobs.append(job)
            job = []
        return several(jobs)
    url, png = sys.argv[1], sys.argv[2]
    max_clicks = int(sys.argv[3]) if len(sys.argv) >= 4 else 1000
    return run_page("play-browser.py", url, lambda b: play(b, url, png, max_clicks, sys.argv[4:]))


if __name__ == "__main__":
    sys.exit(main())
