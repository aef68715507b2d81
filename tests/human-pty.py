#!/usr/bin/env python3
"""human-pty: play `referee play ... human ...` through a pseudo-terminal of
a given size, as a person would type, and print what the terminal showed.

usage: human-pty.py ROWS COLS ANSWERS -- REFEREE ARGS...

ANSWERS is a comma-separated list typed one at a time, each when the
player's prompt is on the screen and all is quiet (50 ms, times
TETRARENA_TIME_SCALE); the last one is typed
again for every later prompt. `^C` and `^D` send those keys, `@N` waits
for the N-th prompt before going on with the next answer, a word is typed
and Enter pressed. Exits with the referee's status (or 124 after 60 s).
"""
import fcntl, os, pty, select, struct, sys, termios, time

PROMPT = b"your move (number, move, or help): "
rows, cols, answers = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
cmd = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
out, mark, prompts, k = b"", 0, 0, 0
deadline = time.time() + 60
calm = 0.05 * float(os.environ.get("TETRARENA_TIME_SCALE", "1"))
quiet = time.time()
status = None
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.01)
    if r:
        try:
            d = os.read(fd, 65536)
        except OSError:
            d = b""
        if not d:
            break
        out += d
        quiet = time.time()
        continue
    if time.time() - quiet < calm or not out[mark:].endswith(PROMPT):
        continue
    prompts += 1
    a = answers[min(k, len(answers) - 1)]
    k += 1
    if a == "^C":
        os.write(fd, b"\x03")
    elif a == "^D":
        os.write(fd, b"\x04")
    else:
        os.write(fd, a.encode() + b"\r")
    mark = len(out)
else:
    os.kill(pid, 9)
    status = 124
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.stdout.write("\n[prompts %d]\n" % prompts)
sys.exit(status if status is not None else os.waitstatus_to_exitcode(st))
