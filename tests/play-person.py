#!/usr/bin/env python3
"""play-person.py SERVER SHOTS: what a person sees on `referee serve`'s
pages, in one headless Chromium with real key, mouse and touch events
(Input.dispatch*; the pages' functions are never called):

  start    the start form: switching the game keeps every seat filled and
           says when the seat count changes (matrix: 7); a bad seed is
           shown beside its field and nothing is started
  VARIANT  for link, tetroll, rush (in turns) and matrix, small games
           started by POSTing the form (as the start page does): played to
           the end by the keyboard alone (← → R M digits Enter, and the
           focus the page gives); at the first turn, at 1280x800 and at
           390x844, the board, your clock and every score lie inside the
           viewport; the rules page the play page links to answers with
           the game's rules; at every turn and on the end screen, no
           protocol word is in the page's text (SVG text included); the
           end screen says the result in words, offers Rematch and New
           game, and has no resign button nor clock
  touch    a link game on a touch screen: a tap shows the piece (and
           Confirm) without playing; a second tap plays it
  rematch  Rematch on the last end screen starts a new game, the person
           one seat on

Prints one JSON line per part ({"part": NAME, "ok": bool, "why": ...});
screenshots in SHOTS: VARIANT-1280.png, VARIANT-390.png (first turn),
VARIANT-end-1280.png, VARIANT-end-390.png, rules-VARIANT-1280/390.png,
start-1280.png.
"""
import json
import os
import re
import sys
import time
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, TIMEOUT, open_page, screenshot  # noqa: E402

# What a person must never read: the protocol's verbs and fields, seats by
# number, moves in notation (docs/viewer.md, "The play page").
PROTOCOL = [r"\bgo \d", r"\bhello\b", r"\bmove [A-Za-z0-9:@,]+", r"\bperson\d", r"\bstage\b", r"\bdice \d{3,}",
            r"\bshape \d[A-Z]", r"\(end\)", r"resigned: resigned", r"\b[a-z]+=\S", r"\bseat \d", r"\b[IOTJLSZ][0-3R2L]@-?\d",
            r"\b(place|take|give|reroll|copy|write|ring|roll):", r"\bbot-[a-z]", r"\blockstep\b", r"\btick\b",
            r"\bmalformed\b", r"\btimeout\b", r"\breason\b"]
KEYS = {"Enter": ("Enter", "Enter", 13, "\r"), "ArrowRight": ("ArrowRight", "ArrowRight", 39, ""),
        "ArrowLeft": ("ArrowLeft", "ArrowLeft", 37, ""), "ArrowDown": ("ArrowDown", "ArrowDown", 40, ""),
        "r": ("r", "KeyR", 82, "r"), "m": ("m", "KeyM", 77, "m"), "Tab": ("Tab", "Tab", 9, "")}


def press(b, name):
    if name in KEYS:
        key, code, num, text = KEYS[name]
    else:  # a digit
        key, code, num, text = name, "Digit" + name, 48 + int(name), name
    b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "code": code, "text": text,
                                      "windowsVirtualKeyCode": num})
    b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": num})


def size(b, w, h, touch=False):
    b.send("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 700})
    b.send("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 1})
    time.sleep(0.25)  # the page's resize handler draws again


def text(b):
    """The page's visible words, the SVG drawings' text included."""
    return b.eval("document.body.innerText + '\\n' + Array.from(document.querySelectorAll('svg text'))"
                  ".map(function(t){return t.textContent}).join('\\n')")


def protocol_words(t):
    return sorted({m.group(0) for p in PROTOCOL for m in re.finditer(p, t)})


def fits(b, w, h):
    """What of the board, your clock and the scores lies outside the
    viewport (w x h, not scrolled); [] when all is in."""
    return b.eval("""(function(){var out=[];
        function box(sel){var all=document.querySelectorAll(sel);if(!all.length){out.push(sel+' missing');return;}
          all.forEach(function(e){var r=e.getBoundingClientRect();
            if(r.width===0||r.left<0||r.top<0||r.right>%d+0.5||r.bottom>%d+0.5)
              out.push(sel+' at '+[r.left,r.top,r.right,r.bottom].map(Math.round).join(','));});}
        if(window.scrollY)out.push('scrolled '+window.scrollY);
        box(document.getElementById('playboard')?'#playboard':'#drawing');box('#clock');box('#seats .score');
        if(document.querySelector('#moves .dice'))box('#moves .dice');return out;})()""" % (w, h))


def wait(b, cond, what, limit=None):
    deadline = time.monotonic() + (limit or 10 * TIMEOUT)
    while not b.eval(cond):
        if time.monotonic() > deadline:
            raise RuntimeError("waiting for " + what)
        time.sleep(0.03)


def pane(b):
    return b.eval("(function(){var p=document.querySelector('#moves .playpane[data-ready]');"
                  "if(!p)return null;var d={};for(var k in p.dataset)d[k]=p.dataset[k];"
                  "var s=document.getElementById('playboard');if(s)for(var k in s.dataset)d['board_'+k]=s.dataset[k];"
                  "d.values=Array.from(p.querySelectorAll('button.value')).map(function(b){return b.dataset.value});"
                  "return d;})()")


def over(b):
    return b.eval("(function(){var r=document.getElementById('result');return !!(r&&!r.hidden);})()")


def key_turn(b, p, turn):
    """One decision by the keyboard alone."""
    v, stage = p.get("variant"), p.get("stage") or p.get("what")
    if v == "link":
        for _ in range(turn % 3):
            press(b, "ArrowRight")
        if turn % 4 == 1:
            press(b, "r")
    elif v == "tetroll" and stage == "place":
        if turn % 3 == 1:
            press(b, "r")
        press(b, "ArrowRight")
    elif v == "tetroll" and stage == "write":
        press(b, p["values"][0])
    elif v == "matrix" and p.get("board_move"):
        for _ in range(turn % 3):
            press(b, "ArrowRight")
    press(b, "Enter")


def tap(b, x, y):
    for kind, pts in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
        b.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})


def cell_centre(b, x, y):
    return b.eval("(function(){var e=document.querySelector(\"#playboard rect.cell[data-x='%d'][data-y='%d']\");"
                  "if(!e)return null;var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()" % (x, y))


def play(b, server, url, name, shots, touch=False):
    """Play the game at url to its end; returns (turns, problems)."""
    bad = []
    open_page(b, server.rstrip("/") + url)
    size(b, 1280, 800, touch)
    turns, seen = 0, None
    deadline = time.monotonic() + 40 * TIMEOUT
    while not over(b):
        if time.monotonic() > deadline:
            raise RuntimeError("%s: the game did not end (%d turns)" % (name, turns))
        p = pane(b)
        if not p or p.get("turn") == seen:
            time.sleep(0.03)
            continue
        if touch:  # the page settles on the touch screen's size
            time.sleep(0.3)
            p = pane(b)
        seen = p["turn"]
        turns += 1
        words = protocol_words(text(b))
        if words:
            bad.append("turn %d shows %s" % (turns, words))
        if turns == 1 and not touch:
            for w, h in ((1280, 800), (390, 844)):
                size(b, w, h)
                out = fits(b, w, h)
                if out:
                    bad.append("at %dx%d: %s" % (w, h, "; ".join(out)))
                screenshot(b, os.path.join(shots, "%s-%d.png" % (name, w)))
            size(b, 1280, 800)
            href = b.eval("document.getElementById('rules-link').getAttribute('href')")
            got = b.eval("(function(){var x=new XMLHttpRequest();x.open('GET',%s,false);x.send();"
                         "return x.status+' '+(x.responseText.indexOf('Who wins')>=0)})()" % json.dumps(href))
            if href != "/rules/" + name.split("-")[0] or got != "200 true":
                bad.append("the rules link is %r: %s" % (href, got))
            p = pane(b)
            seen = p["turn"]
        if touch:
            first = (p.get("board_cols") or "0").split(",")[0]
            c = cell_centre(b, int(first), 0)
            tap(b, *c)
            time.sleep(0.1)
            ghost = b.eval("!!document.querySelector('#playboard .ghost') && !document.getElementById('confirm').hidden")
            still = b.eval("!!document.querySelector('#moves .playpane[data-turn=\"%s\"]')" % seen)
            if not (ghost and still):
                bad.append("touch: the first tap did not only preview (ghost and Confirm %s, same turn %s: %s)" % (ghost, still,
                           b.eval("document.getElementById('status').textContent")))
            if turns % 2:
                tap(b, *c)
            else:
                c = b.eval("(function(){var r=document.getElementById('confirm').getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2]})()")
                tap(b, *c)
        else:
            key_turn(b, p, turns)
        # the move is sent once: the pane goes away until the next turn
        for _ in range(300):
            q = pane(b)
            if not q or q.get("turn") != seen or over(b):
                break
            time.sleep(0.01)
        else:
            bad.append("turn %d: the keys played nothing (%s)" % (turns, json.dumps(p)[:200]))
            break
    time.sleep(0.3)
    return turns, bad


def end_screen(b, name, shots):
    bad = []
    words = protocol_words(text(b))
    if words:
        bad.append("the end screen shows %s" % words)
    e = b.eval("(function(){var r=document.getElementById('result');return {head:(document.getElementById('headline')||{}).textContent||'',"
               "rematch:!!document.getElementById('rematch'),newgame:!!document.getElementById('newgame'),"
               "resign:!document.getElementById('resign').hidden,"
               "clocks:Array.from(document.querySelectorAll('.clock')).filter(function(c){return !c.hidden&&c.textContent}).length,"
               "result:r.dataset.result}})()")
    if not re.match(r"^(You (won|lost) (\S+-\S+|\S+ to \S+)\.|Draw, |You share first|You finished \d+(st|nd|rd|th) of \d+|You won with|You ran out of time|You scored)", e["head"]):
        bad.append("headline %r" % e["head"])
    if not (e["rematch"] and e["newgame"]) or e["resign"] or e["clocks"]:
        bad.append("end screen: %s" % json.dumps(e))
    for w, h in ((1280, 800), (390, 844)):
        size(b, w, h)
        screenshot(b, os.path.join(shots, "%s-end-%d.png" % (name, w)))
    size(b, 1280, 800)
    return e, bad


def start_page(b, server, shots):
    bad = []
    open_page(b, server)
    size(b, 1280, 800)
    seats = "Array.from(document.querySelectorAll('#seats select')).map(function(s){return s.value})"
    first = b.eval(seats)
    if first[1:] != ["bot-link-level3"]:
        bad.append("the default opponent is %s, not medium" % first[1:])
    b.eval("document.getElementById('variant').focus()")
    order = b.eval("Array.from(document.getElementById('variant').options).map(function(o){return o.value})")
    for want in order[1:]:
        n = 7 if want == "matrix" else 2
        press(b, "ArrowDown")
        time.sleep(0.1)
        got = b.eval("document.getElementById('variant').value")
        s = b.eval(seats)
        note = b.eval("document.getElementById('err-count').textContent")
        if got != want or len(s) != n or "" in s or s[0] != "person" or any(not x.startswith("bot-" + want) for x in s[1:]):
            bad.append("switching to %s: %s seats %s" % (want, got, s))
        if want == "matrix" and "7" not in note:
            bad.append("the change to 7 seats is not said: %r" % note)
    screenshot(b, os.path.join(shots, "start-1280.png"))
    b.eval("document.getElementById('seed').focus()")
    b.send("Input.insertText", {"text": "12x"})
    b.eval("document.getElementById('go').scrollIntoView()")
    b.click("#go")
    time.sleep(0.3)
    err = b.eval("document.getElementById('err-seed').textContent")
    beside = b.eval("document.getElementById('err-seed').parentNode.contains(document.getElementById('seed'))")
    if not err or not beside or urlsplit(b.eval("location.href")).path != "/":
        bad.append("a bad seed: %r beside its field %s at %s" % (err, beside, b.eval("location.href")))
    screenshot(b, os.path.join(shots, "start-bad-seed.png"))
    return bad


def rules_pages(b, server, shots):
    bad = []
    for v in ("link", "tetroll", "rush", "matrix"):
        open_page(b, server.rstrip("/") + "/rules/" + v)
        t = text(b)
        for part in ("What you do", "What scores", "What ends the game", "Who wins"):
            if part not in t:
                bad.append("/rules/%s lacks %r" % (v, part))
        if not b.eval("document.querySelectorAll('figure svg').length"):
            bad.append("/rules/%s has no picture" % v)
        for w, h in ((1280, 800), (390, 844)):
            size(b, w, h)
            screenshot(b, os.path.join(shots, "rules-%s-%d.png" % (v, w)))
        size(b, 1280, 800)
    return bad


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    server, shots, jobs = sys.argv[1], sys.argv[2], sys.argv[3:]
    client = __import__("importlib.util").util
    spec = client.spec_from_file_location("serve_client", os.path.join(os.path.dirname(os.path.abspath(__file__)), "serve-client.py"))
    sc = client.module_from_spec(spec)
    spec.loader.exec_module(sc)
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
        report("start", start_page(b, server, shots))
        report("rules", rules_pages(b, server, shots))
        last = None
        for i in range(0, len(jobs), 2):
            name, form = jobs[i], jobs[i + 1]
            code, head, body = sc.request(server, "POST", "/games", form.encode())
            loc = head.get("location", "")
            if code != 303 or not loc:
                report(name, ["starting it: %d %s" % (code, body.decode().strip())])
                continue
            t0 = time.monotonic()
            try:
                size(b, 1280, 800, touch=name == "touch")
                turns, bad = play(b, server, loc, name, shots, touch=name == "touch")
                size(b, 1280, 800)
                e, more = end_screen(b, name, shots)
                bad += more
            except RuntimeError as err:
                turns, bad, e = 0, [str(err)], {}
            bad += [p for p in page_problems(b, server)]
            report(name, bad, id=loc.split("/")[2], turns=turns, headline=e.get("head"), result=e.get("result"),
                   wall=round(time.monotonic() - t0, 1))
            last = loc
        # the rematch: from the last end screen
        before = urlsplit(b.eval("location.href"))
        # (in view first: a click lands where the button is on the screen)
        b.eval("document.getElementById('rematch').scrollIntoView({block:'center'})")
        b.click("#rematch")
        wait(b, "location.pathname !== %s && document.readyState === 'complete'" % json.dumps(before.path), "the rematch's page")
        after = urlsplit(b.eval("location.href"))
        seat = re.search(r"seat=(\d+)", after.query)
        was = re.search(r"seat=(\d+)", urlsplit(last).query)
        bad = [] if after.path != before.path and after.path.endswith("/play") and seat and was and int(seat.group(1)) == int(was.group(1)) + 1 \
            else ["the rematch opened %s (from %s)" % (after.geturl(), last)]
        report("rematch", bad, url=after.path + "?" + after.query)
    except (RuntimeError, OSError) as err:
        sys.stderr.write("play-person.py: %s\n" % err)
        status = 1
    finally:
        b.close()
    return status


def page_problems(b, server):
    out = []
    for m in b.events:
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.exceptionThrown":
            out.append("exception: " + json.dumps(p["exceptionDetails"])[:300])
        elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console %s: %s" % (p["type"], json.dumps(p.get("args"))[:300]))
    b.events = []
    return out


if __name__ == "__main__":
    sys.exit(main())
