#!/usr/bin/env python3
"""serve-flood.py: a hostile client of `referee serve` for the tests and
the benchmark (raw sockets, no package). Connections come from several
loopback addresses (127.0.N.M: all of 127/8 is this machine) as several
clients would.

    serve-flood.py flood URL PID IDLE SPECT GAME [HONEST]
            open IDLE idle connections (200 a client address) and SPECT
            spectators of GAME that never read (50 a client address),
            then time HONEST (default 20) ordinary requests from
            127.0.0.1; print "held I S", "honest N p50 p99 max" (ms) and
            the server's "rss KIB hwm KIB" (from /proc/PID/status), then
            keep everything open until stdin closes, sampling the bytes
            all spectators' queues hold ("queued at most N"; the samples
            are honest requests too: "honest-during N p50 p99 max"), and print
            the rss line again and /api/stats
    serve-flood.py slow URL headers|body|idle   send a request a byte
            every 0.2 s (idle: send nothing); print "closed after S"
            (seconds) or "open after S"
    serve-flood.py huge URL       a POST whose Content-Length is 10^12,
            headers only: print the status line and the seconds it took
    serve-flood.py cap URL N      N connections from 127.0.9.9 held at
            once: print "held H refused R"
    serve-flood.py spect URL GAME SRC...  one spectator of GAME from each
            client address SRC in turn, all held: print each one's status
            (200, or 503 past a cap)
    serve-flood.py nofds URL PID N   N connections held (50 a client
            address) by a server out of descriptors: print the CPU it
            used over a second ("cpu TICKS in S s", clock ticks), then,
            once they are closed, an honest request's status line
    serve-flood.py rebind URL LOC a rebinding page's requests (Host and
            Origin evil.example:PORT): a new game, the seat of LOC (a play
            path) over a WebSocket, a page: print each status line
"""
import base64
import json
import os
import select
import socket
import sys
import time
from urllib.parse import urlsplit

SCALE = float(os.environ.get("TETRARENA_TIME_SCALE", "1"))


def conn(url, src="127.0.0.1", rcvbuf=None):
    u = urlsplit(url)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((src, 0))
    s.settimeout(30 * SCALE)
    s.connect((u.hostname, u.port))
    return s, u.netloc


def answer(s):
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    s.close()
    return data.split(b"\r\n")[0].decode("latin-1")


def get(url, path, host=None, extra=""):
    s, netloc = conn(url)
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n" % (path, host or netloc, extra)).encode())
    return answer(s)


def stats(url):
    s, netloc = conn(url)
    s.sendall(("GET /api/stats HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % netloc).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return json.loads(data.partition(b"\r\n\r\n")[2])


def addr(base, i, per):
    k = i // per
    return "127.%d.%d.%d" % (base, k // 250, 1 + k % 250)


def rss(pid):
    out = {}
    for line in open("/proc/%s/status" % pid):
        if line.startswith(("VmRSS", "VmHWM")):
            out[line.split(":")[0]] = int(line.split()[1])
    return out["VmRSS"], out["VmHWM"]


def flood(url, pid, n_idle, n_spect, game, honest):
    held = []
    for i in range(n_idle):
        s, _ = conn(url, addr(1, i, 200))
        held.append(s)
    spect = 0
    for i in range(n_spect):
        s, netloc = conn(url, addr(2, i, 50), rcvbuf=4096)
        s.sendall(("GET /games/%s/events HTTP/1.1\r\nHost: %s\r\n\r\n" % (game, netloc)).encode())
        held.append(s)
        spect += 1
    # until the server has them all as spectators
    deadline = time.monotonic() + 10 * SCALE
    while time.monotonic() < deadline and stats(url)["spectators"] < n_spect:
        time.sleep(0.05)
    print("held %d %d" % (n_idle, stats(url)["spectators"]))
    times = []
    for _ in range(honest):
        t0 = time.monotonic()
        line = get(url, "/api/games")
        times.append((time.monotonic() - t0) * 1000)
        if not line.startswith("HTTP/1.1 200"):
            print("honest request answered: %r" % line)
        time.sleep(0.01)
    times.sort()
    print("honest %d %.1f %.1f %.1f" % (len(times), times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))], times[-1]))
    r, h = rss(pid)
    print("rss %d hwm %d" % (r, h))
    sys.stdout.flush()
    # hold them until told (stdin closes), sampling what all queues hold
    most, during = 0, []
    while not select.select([sys.stdin], [], [], 0.02)[0]:
        t0 = time.monotonic()
        most = max(most, stats(url)["queued"])
        during.append((time.monotonic() - t0) * 1000)
    sys.stdin.read()
    print("queued at most %d" % most)
    during.sort()
    if during:
        print("honest-during %d %.1f %.1f %.1f" % (len(during), during[len(during) // 2],
                                                  during[min(len(during) - 1, int(len(during) * 0.99))], during[-1]))
    r, h = rss(pid)
    print("rss %d hwm %d" % (r, h))
    print("stats " + json.dumps(stats(url)))
    for s in held:
        s.close()
    return 0


def slow(url, what):
    s, netloc = conn(url)
    if what == "idle":
        msg = ""
    elif what == "headers":
        msg = ("GET / HTTP/1.1\r\nHost: %s\r\n" + "X-Slow: %s\r\n" % ("a" * 200)) % netloc
    else:
        msg = ("POST /games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               "Content-Length: 1000\r\n\r\n" % netloc) + "x" * 1000
    if what == "body":  # the headers at once, the body a byte at a time
        head, body = msg.split("\r\n\r\n", 1)
        s.sendall((head + "\r\n\r\n").encode())
        msg = body
    t0 = time.monotonic()
    try:
        for c in msg:
            s.sendall(c.encode())
            time.sleep(0.2)
            if time.monotonic() - t0 > 30 * SCALE:
                break
        s.settimeout(1 if msg else 30 * SCALE)
        if not s.recv(1):
            raise ConnectionResetError
        print("open after %.1f" % (time.monotonic() - t0))
    except (BrokenPipeError, ConnectionResetError):
        print("closed after %.1f" % (time.monotonic() - t0))
    except socket.timeout:
        print("open after %.1f" % (time.monotonic() - t0))
    return 0


def huge(url):
    s, netloc = conn(url)
    t0 = time.monotonic()
    s.sendall(("POST /games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               "Content-Length: 1000000000000\r\n\r\nvariant=link" % netloc).encode())
    s.settimeout(10 * SCALE)
    line = answer(s)
    print("%s in %.3f" % (line, time.monotonic() - t0))
    return 0


def cap(url, n):
    refused0 = stats(url)["connections"]["refused"]
    held, refused = [], 0
    for _ in range(n):
        s, _ = conn(url, "127.0.9.9")
        held.append(s)
    # until the server has taken or refused them all (the stats request
    # itself is one open connection)
    deadline = time.monotonic() + 5 * SCALE
    while time.monotonic() < deadline:
        c = stats(url)["connections"]
        if c["open"] - 1 + c["refused"] - refused0 >= n:
            break
        time.sleep(0.05)
    for s in held:
        s.setblocking(False)
        try:
            data = s.recv(4096)
            if not data or b" 503 " in data:
                refused += 1
        except BlockingIOError:
            pass
        except ConnectionResetError:
            refused += 1
    print("held %d refused %d" % (n - refused, refused))
    for s in held:
        s.close()
    return 0


def spect(url, game, srcs):
    held, got = [], []
    for src in srcs:
        s, netloc = conn(url, src)
        s.sendall(("GET /games/%s/events HTTP/1.1\r\nHost: %s\r\n\r\n" % (game, netloc)).encode())
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(1)
            if not chunk:
                break
            head += chunk
        got.append(head.split(b" ")[1].decode() if head.count(b" ") else "eof")
        held.append(s)
    print(" ".join(got))
    for s in held:
        s.close()
    return 0


def nofds(url, pid, n):
    held = []
    for i in range(n):
        s, _ = conn(url, addr(8, i, 50))
        held.append(s)

    def ticks():
        f = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
        return int(f[11]) + int(f[12])  # utime, stime
    t0, c0 = time.monotonic(), ticks()
    time.sleep(1)
    print("cpu %d in %.1f s" % (ticks() - c0, time.monotonic() - t0))
    for s in held:
        s.close()
    sys.stdout.flush()
    deadline = time.monotonic() + 5 * SCALE
    while True:
        try:
            line = get(url, "/api/games")
        except OSError as e:
            line = str(e)
        if line.startswith("HTTP/1.1 200") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    print("then: " + line)
    return 0


def rebind(url, loc):
    port = urlsplit(url).port
    evil = "evil.example:%d" % port
    origin = "Origin: http://%s\r\n" % evil
    s, _ = conn(url)
    body = "variant=link&seat=bot-random&seat=bot-random"
    s.sendall(("POST /games HTTP/1.1\r\nHost: %s\r\n%sContent-Type: application/x-www-form-urlencoded\r\n"
               "Content-Length: %d\r\n\r\n%s" % (evil, origin, len(body), body)).encode())
    print("new game: " + answer(s))
    u = urlsplit(loc)
    game = u.path.split("/")[2]
    q = dict(kv.split("=", 1) for kv in u.query.split("&"))
    s, _ = conn(url)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(("GET /ws?game=%s&seat=%s&token=%s HTTP/1.1\r\nHost: %s\r\n%sUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
               % (game, q["seat"], q["token"], evil, origin, key)).encode())
    print("seat: " + answer(s))
    # this server's Host, another site's Origin: the handshake, then a close
    s, netloc = conn(url)
    s.sendall(("GET /ws?game=%s&seat=%s&token=%s HTTP/1.1\r\nHost: %s\r\n%sUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
               % (game, q["seat"], q["token"], netloc, origin, key)).encode())
    data = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
            head, _, frames = data.partition(b"\r\n\r\n")
            if len(frames) >= 4 and frames[0] == 0x88:
                break
    except (ConnectionResetError, socket.timeout):
        pass
    s.close()
    head, _, frames = data.partition(b"\r\n\r\n")
    code = frames[2] << 8 | frames[3] if len(frames) >= 4 and frames[0] == 0x88 else None
    print("seat by origin: %s, close %s" % (head.split(b"\r\n")[0].decode("latin-1"), code))
    print("page: " + get(url, "/", host=evil, extra=origin))
    print("own name: " + get(url, "/", extra="Origin: http://%s\r\n" % urlsplit(url).netloc))
    return 0


def main():
    a = sys.argv[1:]
    if len(a) in (6, 7) and a[0] == "flood":
        return flood(a[1], a[2], int(a[3]), int(a[4]), a[5], int(a[6]) if len(a) == 7 else 20)
    if len(a) == 3 and a[0] == "slow" and a[2] in ("headers", "body", "idle"):
        return slow(a[1], a[2])
    if len(a) == 2 and a[0] == "huge":
        return huge(a[1])
    if len(a) == 3 and a[0] == "cap":
        return cap(a[1], int(a[2]))
    if len(a) >= 4 and a[0] == "spect":
        return spect(a[1], a[2], a[3:])
    if len(a) == 4 and a[0] == "nofds":
        return nofds(a[1], a[2], int(a[3]))
    if len(a) == 3 and a[0] == "rebind":
        return rebind(a[1], a[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
