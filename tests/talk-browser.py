#!/usr/bin/env python3
"""talk-browser.py: a person's table talk at the Main Match on `referee
serve`'s play page, in headless Chromium with real events.

    talk-browser.py SERVER GAMES PNG FORM

POSTs FORM (a matrix table with the person in seat 0) to SERVER/games,
opens the play page, and in round 1: types "café ☕" into the message box
and clicks "say" (the page must refuse it with the reason and send
nothing), places the piece with Enter (in the talk window the panel must
stay), says hello and clicks "offer" to a partner, waits for the bot's
answers (a reply and the offer's end) and takes the screenshot PNG mid
trade. In round 2 it reads the partners the panel offers (#sayto, #offerto)
and the `talk` field of the `go` the referee sent (GAMES/ID.log). Prints
one JSON object of what it saw. Exit 1, the reason on stderr, on a console
error, an uncaught exception or a page that does not react.
"""
import importlib.util
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import TIMEOUT, open_page, screenshot  # noqa: E402


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PAGES = load("play_pages", "play-pages.py")
PLAY_BROWSER = PAGES.PLAY_BROWSER


def wait(b, expr, what):
    until = time.monotonic() + TIMEOUT
    while time.monotonic() < until:
        v = b.eval(expr)
        if v:
            return v
        time.sleep(0.1)
    raise RuntimeError("waited in vain for " + what)


def chat(b):
    return b.eval("Array.from(document.querySelectorAll('#chatlog li')).map(function(l){return l.textContent})")


def say(b, text):
    b.eval("document.getElementById('saytext').value='';document.getElementById('saytext').focus()")
    b.send("Input.insertText", {"text": text})
    PAGES.click_at(b, "#say")


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    server, games, png, form = sys.argv[1:]
    client = PAGES.load("serve_client", "serve-client.py")
    code, head, body = client.request(server, "POST", "/games", form.encode())
    loc = head.get("location", "")
    if code != 303 or not loc:
        sys.stderr.write("talk-browser.py: starting: status %d: %s\n" % (code, body.decode().strip()))
        return 1
    gid = loc.split("/")[2]
    url = server.rstrip("/") + loc

    def act(b):
        out = {"id": gid}
        open_page(b, url)
        ready = "(function(){var p=document.querySelector('#moves .playpane[data-ready]');return p&&p.dataset.round;})()"
        wait(b, ready + "==='1'", "round 1")
        say(b, "café ☕")
        time.sleep(0.2)
        out["cafe"] = [t for t in chat(b) if "caf" in t or "Not sent" in t]
        PAGES.press(b, "Enter")
        time.sleep(0.5)
        out["open_after_move"] = bool(b.eval("!!document.querySelector('#moves .playpane #say')"))
        out["window"] = b.eval("(document.getElementById('talkwindow')||{}).textContent||''")
        say(b, "hello")
        PAGES.click_at(b, "#offer")
        wait(b, "Array.from(document.querySelectorAll('#chatlog li')).some(function(l){"
                "return /says:/.test(l.textContent)})", "a reply to say")
        wait(b, "Array.from(document.querySelectorAll('#chatlog li')).some(function(l){"
                "return /A trade is done|An offer closed/.test(l.textContent)})", "an answer to the offer")
        screenshot(b, png)
        out["round1"] = chat(b)
        wait(b, ready + "==='2'", "round 2")
        out["sayto"] = b.eval("Array.from(document.querySelectorAll('#sayto option')).map(function(o){return +o.value})")
        out["offerto"] = b.eval("Array.from(document.querySelectorAll('#offerto option')).map(function(o){return +o.value})")
        out["giftto"] = b.eval("Array.from(document.querySelectorAll('#giftto option')).map(function(o){return +o.value})")
        talk = None
        with open(os.path.join(games, gid + ".log"), errors="replace") as f:
            for line in f:
                m = re.match(r"^> 0 \+\d+ go .* round=2 .* talk=(\S+)", line)
                if m:
                    talk = m.group(1)
                    break
        out["talk"] = talk
        return out
    return PLAY_BROWSER.run_page("talk-browser.py", url, act)


if __name__ == "__main__":
    sys.exit(main())
