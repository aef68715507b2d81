#!/usr/bin/env python3
"""serve-client.py: a small client of `referee serve` for the tests: plain
HTTP, Server-Sent Events and a WebSocket seat, on raw sockets (no package).

    serve-client.py start URL FORM          POST /games; print the Location
    serve-client.py sse URL ID [--last N] [--stop-after K]
            read the game's events; print "EVENT ID" a line (a step's
            data is checked to be JSON); stop after K steps (dropping the
            connection) or at the end
    serve-client.py stall URL ID SECONDS [--until-over|--until-dropped]
            open the events with a tiny receive buffer and never read;
            hold it SECONDS (with --until-over: until the game is over,
            with --until-dropped: until /api/stats counts one more
            spectator dropped, at most SECONDS)
    serve-client.py seat URL PLAYPATH [--moves K] [--big BYTES] [--binary] [--hint-at K]
            be the person's seat: hello, then the first legal move at each
            go; after K moves (or a message of BYTES, or a binary one)
            close the connection; print the lines got and how it ended;
            with --hint-at K, at the go after K moves ask for a hint
            (/games/ID/hint, polled) and print "hint STATUS JSON", then
            at once again: "hint-again STATUS TEXT"
    serve-client.py get URL PATH            print the status and the body's
            first line (PATH sent as it is: no normalising)
    serve-client.py body URL PATH           print the body of a 200 answer
    serve-client.py post URL PATH BODY [HEADER...]  print the status and
            the body's first line
"""
import base64
import json
import os
import socket
import struct
import sys
import time
from urllib.parse import urlsplit, parse_qs

SCALE = float(os.environ.get("TETRARENA_TIME_SCALE", "1"))


def connect(url, rcvbuf=None):
    u = urlsplit(url)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(60 * SCALE)
    s.connect((u.hostname, u.port))
    return s, u.netloc


def request(url, method, path, body=b"", headers=()):
    s, host = connect(url)
    head = "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n" % (method, path, host)
    if body or method == "POST":
        head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n" % len(body)
    for h in headers:
        head += h + "\r\n"
    s.sendall(head.encode() + b"\r\n" + body)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, rest


class Lines:
    """Lines from a socket (after the HTTP head)."""
    def __init__(self, s, rest=b""):
        self.s, self.buf = s, rest

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()


def sse(url, gid, last, stop_after):
    s, host = connect(url)
    head = "GET /games/%s/events HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n" % (gid, host)
    if last is not None:
        head += "Last-Event-ID: %s\r\n" % last
    s.sendall(head.encode() + b"\r\n")
    r = Lines(s)
    status = r.line()
    if not status or " 200 " not in status:
        print("status", status)
        return 1
    while r.line() not in ("", "\r", None):
        pass
    ev, eid, steps = {}, None, 0
    while True:
        line = r.line()
        if line is None:
            print("closed")
            return 0
        if line == "":
            if ev:
                json.loads(ev.get("data", "null"))
                print(ev.get("event", "message"), ev.get("id", "-"), flush=True)
                if ev.get("event") in ("step", "full"):
                    steps += 1
                    if stop_after is not None and steps >= stop_after:
                        s.close()
                        print("dropped")
                        return 0
            ev = {}
            continue
        k, _, v = line.partition(": ")
        ev[k] = v


def over(url, gid):
    """Whether /api/games says game gid is over."""
    status, _, body = request(url, "GET", "/api/games")
    return status == 200 and any(g.get("id") == gid and g.get("state") == "over" for g in json.loads(body))


def dropped(url):
    status, _, body = request(url, "GET", "/api/stats")
    return json.loads(body)["dropped"] if status == 200 else -1


def stall(url, gid, seconds, until_over=False, until_dropped=False):
    was = dropped(url) if until_dropped else 0
    s, host = connect(url, rcvbuf=4096)
    s.sendall(("GET /games/%s/events HTTP/1.1\r\nHost: %s\r\n\r\n" % (gid, host)).encode())
    deadline = time.monotonic() + seconds
    if until_over:  # the queue can grow no more once the game is over
        while time.monotonic() < deadline and not over(url, gid):
            time.sleep(0.05)
    elif until_dropped:
        while time.monotonic() < deadline and dropped(url) <= was:
            time.sleep(0.05)
    else:
        time.sleep(seconds)
    # what arrived at last, read now: did the server drop us?
    s.settimeout(5)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                # the game's end event is the stream's last: a spectator
                # closed without it was dropped
                print("closed by the server after %d bytes, %s the end event"
                      % (len(got), "with" if b"\nevent: end\n" in got else "without"))
                return 0
            got += chunk
    except socket.timeout:
        print("still open after %d bytes" % len(got))
    return 0


class WebSocket:
    def __init__(self, url, path):
        self.s, host = connect(url)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.s.recv(1)
            if not chunk:
                raise RuntimeError("no handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("handshake: " + head.split(b"\r\n")[0].decode())
        self.buf = b""

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, data, opcode=1):
        if isinstance(data, str):
            data = data.encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.s.sendall(head + mask + body)

    def recv(self):
        """A text message, or ('close', code) at the end."""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            op = b0 & 0x0f
            if op == 8:
                return ("close", struct.unpack(">H", data[:2])[0] if len(data) >= 2 else 1005)
            if op == 1:
                return data.decode()
            if op == 9:
                self.send(data, 10)


def hint(url, gid, seat_, token):
    deadline = time.monotonic() + 60 * SCALE
    q = "/games/%s/hint?seat=%s&token=%s" % (gid, seat_, token)
    status, _, body = request(url, "GET", q + "&new=1")
    while status == 200 and b'"running"' in body and time.monotonic() < deadline:
        time.sleep(0.2)
        status, _, body = request(url, "GET", q)
    print("hint %d %s" % (status, body.decode().strip().replace("\n", " ")))
    status, _, body = request(url, "GET", q + "&new=1")
    print("hint-again %d %s" % (status, body.decode().strip()))


def seat(url, path, max_moves, big, binary, hint_at=None):
    q = parse_qs(urlsplit(path).query)
    gid = path.split("/")[2]
    ws = WebSocket(url, "/ws?game=%s&seat=%s&token=%s" % (gid, q["seat"][0], q["token"][0]))
    moves, made, got = [], 0, 0
    fresh = True
    while True:
        try:
            m = ws.recv()
        except (EOFError, ConnectionResetError):
            print("eof after %d lines, %d moves" % (got, made))
            return 0
        if isinstance(m, tuple):
            print("close %d after %d lines, %d moves" % (m[1], got, made))
            return 0
        got += 1
        verb = m.split(" ", 1)[0]
        if verb == "game":
            ws.send("hello seat-client 1 moves")
        elif verb == "moves":
            if fresh:
                moves = []
            fresh = False
            moves += m.split(" ")[1:]
        elif verb == "go":
            fresh = True
            if hint_at is not None and made == hint_at:
                hint(url, gid, q["seat"][0], q["token"][0])
            if max_moves is not None and made >= max_moves:
                if big:
                    ws.send("info " + "x" * big)
                    continue
                if binary:
                    ws.send(b"move x", opcode=2)
                    continue
                ws.s.close()
                print("closed the page after %d moves" % made)
                return 0
            ws.send("move " + moves[0])
            made += 1
        elif verb == "result":
            print(m)


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "start":
        status, h, body = request(a[1], "POST", "/games", a[2].encode())
        print(h.get("location", "status %d: %s" % (status, body.decode().strip())))
        return 0 if status == 303 else 1
    if len(a) >= 3 and a[0] == "sse":
        last = a[a.index("--last") + 1] if "--last" in a else None
        stop = int(a[a.index("--stop-after") + 1]) if "--stop-after" in a else None
        return sse(a[1], a[2], last, stop)
    if len(a) in (4, 5) and a[0] == "stall" and a[4:] in ([], ["--until-over"], ["--until-dropped"]):
        return stall(a[1], a[2], float(a[3]), a[4:] == ["--until-over"], a[4:] == ["--until-dropped"])
    if len(a) >= 3 and a[0] == "seat":
        k = int(a[a.index("--moves") + 1]) if "--moves" in a else None
        big = int(a[a.index("--big") + 1]) if "--big" in a else 0
        h = int(a[a.index("--hint-at") + 1]) if "--hint-at" in a else None
        return seat(a[1], a[2], k, big, "--binary" in a, h)
    if len(a) >= 3 and a[0] == "get":
        headers = a[3:]
        status, _, body = request(a[1], "GET", a[2], headers=headers)
        print(status, body.decode("latin-1").split("\n")[0])
        return 0
    if len(a) == 3 and a[0] == "body":
        status, _, body = request(a[1], "GET", a[2])
        sys.stdout.write(body.decode())
        return 0 if status == 200 else 1
    if len(a) >= 4 and a[0] == "post":
        status, _, body = request(a[1], "POST", a[2], a[3].encode(), headers=a[4:])
        print(status, body.decode("latin-1").split("\n")[0])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
