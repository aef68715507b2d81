#!/usr/bin/env python3
"""play-pages.py: play a whole game on a variant's play page of `referee
serve` in headless Chromium, as a person would: real mouse moves and
clicks (Input.dispatchMouseEvent) on the board and the controls, and keys
(Input.dispatchKeyEvent); the page's functions are never called. What
the page shows is read from the DOM to choose where to click, as a
person reads the screen.

    play-pages.py URL PNG [--resign]
    play-pages.py --start SERVER JOB...
            several games in one Chromium, one after the other: each JOB
            is [--resign] PNG FORM, a game started by POSTing FORM to
            SERVER's /games (as `serve-client.py start` does), then played
            on its page as above; a line per job, with the game's "id",
            "url" and "wall" (seconds on its page) added, or {"id": ID, "error": WHY} (WHY also on
            stderr) for a game that failed, and the next job still runs

Until the end screen shows, at each turn the page offers (its
`.playpane[data-ready]`, by variant):
  link     hover a legal column of the tower and click it; every third
           turn first press R (turn the piece), every fifth M (mirror)
  tetroll  dice: click a die (marked to reroll), then `keep` or a reroll
           button; place: press R sometimes, click a legal anchor cell;
           copy/write: click a value button, then a target cell; ring: a
           button
  rush     click the box's shapes, the board's anchor cells, give and
           discard buttons
  matrix   press → and R to move among the legal landings, Enter to place;
           the chat panel says hello to a partner in round 1, accepts
           what is offered (a click); holding several pieces, a button
With --resign the person clicks `resign` twice at the first turn instead
and waits for the end screen.
Prints one JSON object (the end screen's text and result, turns, the
kinds of action used) and writes two screenshots: PNG at the end, and
PNG without .png plus -turn.png at the 4th turn, before acting.
Exit 1, with the reason on stderr, on a console error, an exception, a
request elsewhere, or a game that does not end.
"""
import importlib.util
import json
import os
import sys
import time
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import TIMEOUT, open_page, screenshot  # noqa: E402


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PLAY_BROWSER = load("play_browser", "play-browser.py")

KEYS = {"r": ("r", "KeyR", 82), "m": ("m", "KeyM", 77), "Enter": ("Enter", "Enter", 13),
        "ArrowRight": ("ArrowRight", "ArrowRight", 39), "ArrowLeft": ("ArrowLeft", "ArrowLeft", 37)}


def press(b, name):
    key, code, num = KEYS[name]
    text = key if len(key) == 1 else ("\r" if key == "Enter" else "")
    b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "code": code, "text": text,
                                      "windowsVirtualKeyCode": num})
    b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": num})


def click_at(b, sel):
    """Scroll sel into view, move the mouse onto it, click it."""
    box = b.eval("(function(){var e=document.querySelector(%s);if(!e)return null;"
                 "e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
                 "return [r.left+r.width/2, r.top+r.height/2];})()" % json.dumps(sel))
    if not box:
        raise RuntimeError("nothing to click: " + sel)
    b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": box[0], "y": box[1]})
    for kind in ("mousePressed", "mouseReleased"):
        b.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                            "clickCount": 1})


def cell(x, y):
    return "#playboard rect.cell[data-x='%d'][data-y='%d']" % (x, y)


def pane(b):
    return b.eval("(function(){var p=document.querySelector('#moves .playpane[data-ready]');"
                  "if(!p)return null;var d={};for(var k in p.dataset)d[k]=p.dataset[k];"
                  "var s=document.getElementById('playboard');if(s)for(var k in s.dataset)d['board_'+k]=s.dataset[k];"
                  "return d;})()")


def act(b, p, turn, used, gift=False):
    """One action of the person at the pane p; False when it was not the
    turn's move (a table-talk answer: the same pane stays)."""
    v = p.get("variant")
    if v == "link":
        if turn % 3 == 1:
            press(b, "r")
            used.add("key R")
        if turn % 5 == 2:
            press(b, "m")
            used.add("key M")
        p = pane(b)
        cols = [int(c) for c in p["board_cols"].split(",")]
        col = cols[turn % len(cols)]
        click_at(b, cell(col, 0))
        used.add("click column")
    elif v == "tetroll":
        stage = p.get("stage")
        if stage == "dice":
            if turn % 4 == 1:
                click_at(b, ".dice button")
                used.add("click die")
                if b.eval("!!document.querySelector('.reroll-pay')"):
                    click_at(b, ".reroll-pay")
                    used.add("reroll")
                    return
            click_at(b, "#keep")
            used.add("keep")
        elif stage in ("place", "copy", "write"):
            if stage == "place" and turn % 3 == 1:
                press(b, "r")
                used.add("key R")
                p = pane(b)
            if stage == "write":
                click_at(b, ".value")
                p = pane(b)
            x, y = (int(n) for n in p["board_targets"].split(",")[0].split(":"))
            click_at(b, cell(x, y))
            used.add("click " + stage)
        else:
            click_at(b, "#moves .playpane button[data-move]")
            used.add("button " + stage)
    elif v == "rush":
        what = p.get("what")
        if what == "place":
            x, y = (int(n) for n in p["board_targets"].split(",")[0].split(":"))
            click_at(b, cell(x, y))
            used.add("place")
        else:
            click_at(b, "#moves .playpane button[data-move]")
            used.add(what)
    elif v == "matrix":
        # a gift or an offer made to the person: accepted by a click. At a
        # table with the social bot, which gives every round, the page
        # waits for its gift (up to 3 s, scaled) before moving until one
        # is accepted: on a loaded machine (ASan) the gift came after the
        # person's move in every round, and none could be accepted.
        answer = "!!document.querySelector('#chatlog button.answer:not([disabled])')"
        if gift and "accept" not in used:
            until = time.monotonic() + TIMEOUT / 10
            while not b.eval(answer) and time.monotonic() < until:
                time.sleep(0.05)
        if b.eval(answer):
            click_at(b, "#chatlog button.answer:not([disabled])")
            used.add("accept")
            time.sleep(0.3)
            return False
        if not p.get("board_move"):
            # several pieces held after a trade: the moves as buttons
            click_at(b, "#moves .playpane button[data-move]")
            used.add("buttons")
            return
        if p.get("round") == "1" and "say" not in used and b.eval("!!document.querySelector('#say')"):
            b.eval("document.getElementById('saytext').focus()")
            b.send("Input.insertText", {"text": "hello from a person"})
            click_at(b, "#say")
            used.add("say")
            time.sleep(0.2)
        for _ in range(turn % 3):
            press(b, "ArrowRight")
        if turn % 2:
            press(b, "r")
        press(b, "Enter")
        used.add("keys")
    else:
        click_at(b, "#moves button[data-move]")
        used.add("generic button")


def play(b, url, png, resign=False, gift=False):
    open_page(b, url)
    turns = 0
    used = set()
    deadline = time.monotonic() + 40 * TIMEOUT
    while True:
        if time.monotonic() > deadline:
            raise RuntimeError("the game did not end (%d turns)" % turns)
        over = b.eval("(function(){var r=document.getElementById('result');return !!(r&&!r.hidden);})()")
        if over:
            break
        p = pane(b)
        if not p:
            if b.eval("!!document.querySelector('#moves > button[data-move]')"):
                click_at(b, "#moves > button[data-move]")
                used.add("generic button")
                turns += 1
            time.sleep(0.03)
            continue
        turns += 1
        if resign:
            click_at(b, "#resign")
            click_at(b, "#resign")
            used.add("resign")
            resign = False
            continue
        if turns == 4:  # the page in play, for the docs: the piece hovered
            t = p.get("board_targets") or p.get("board_cols")
            if t:
                first = t.split(",")[0]
                x, y = (int(n) for n in first.split(":")) if ":" in first else (int(first), 0)
                r = b.eval("(function(){var e=document.querySelector(%s);if(!e)return null;"
                           "var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()"
                           % json.dumps(cell(x, y)))
                if r:
                    b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": r[0], "y": r[1]})
            screenshot(b, png[:-4] + "-turn.png")
        if act(b, p, turns, used, gift) is False:
            turns -= 1
            continue
        # the move is sent once: the pane goes away until the next `go`
        for _ in range(300):
            if not b.eval("!!document.querySelector('#moves .playpane[data-ready]') && "
                          "document.querySelector('#moves .playpane[data-ready]').dataset.turn===%s"
                          % json.dumps(p.get("turn"))):
                break
            time.sleep(0.01)
    time.sleep(0.3)
    out = b.eval("(function(){var r=document.getElementById('result');"
                 "return {text:r.textContent, result:r.dataset.result||'',"
                 "status:document.getElementById('status').textContent};})()")
    out["turns"] = turns
    out["used"] = sorted(used)
    screenshot(b, png)
    return out


def jobs(server, args):
    """Start and play each job's game in one Chromium; 1 if any failed."""
    client = load("serve_client", "serve-client.py")

    def pages(b):
        i = 0
        while i < len(args):
            resign = args[i] == "--resign"
            if resign:
                i += 1
            png, form = args[i], args[i + 1]
            i += 2
            code, head, body = client.request(server, "POST", "/games", form.encode())
            loc = head.get("location", "")
            if code != 303 or not loc:
                raise RuntimeError("starting %s: status %d: %s" % (form, code, body.decode().strip()))
            gid, t0 = loc.split("/")[2], time.monotonic()
            yield (gid, urlsplit(server).netloc, lambda: play(b, server.rstrip("/") + loc, png, resign, "seat=social" in form),
                   lambda: {"id": gid, "url": loc, "wall": round(time.monotonic() - t0, 2)})
    return PLAY_BROWSER.pages_in_one("play-pages.py", pages)


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "--start":
        return jobs(sys.argv[2], sys.argv[3:])
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--resign"]):
        sys.stderr.write(__doc__)
        return 2
    url, png = sys.argv[1], sys.argv[2]
    return PLAY_BROWSER.run_page("play-pages.py", url, lambda b: play(b, url, png, len(sys.argv) == 4))


if __name__ == "__main__":
    sys.exit(main())
