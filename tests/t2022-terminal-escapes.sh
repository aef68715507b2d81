#!/bin/sh
# t2022-terminal-escapes: no bot's text reaches a terminal raw (issue 50,
# item 5). A bot writes a window title (ESC ]0; ... BEL), an OSC 52
# clipboard write, a clear screen (ESC [2J), every other control byte
# 0x01-0x1f and 0x7f, and the C1 CSI 0x9b raw and in UTF-8 (0xc2 0x9b) on
# stderr, in `info` lines and in its hello's name: what `play` (its table,
# a "cannot start" message with the stderr's last line), `position` (its
# lines and stderr), `check` (its report), `rerun` and `view` print holds
# printable ASCII only (and newlines), escaped as the log escapes a bot's
# line (control bytes '?', bytes from 0x80 \xHH). A log made by hand with
# such bytes in a bot's name, a traffic line or a move is shown escaped by
# view, verify (its complaint), position and rerun.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
rnd=$top/bin/bot-random
need "$ref" "$rnd"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

evil=$tmp/evil.py
cat >"$evil" <<'END'
#!/usr/bin/env python3
# evil.py [play|full|nostart]: first legal moves, and escapes everywhere
# (full: in info lines too, ESC and all, which a game faults)
import sys
EVIL = (b"\x1b]0;pwned title\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J" +
        bytes(b for b in range(1, 0x20) if b != 10) + b"\x7f\x9b31m\xc2\x9b32m")
mode = sys.argv[1] if len(sys.argv) > 1 else "play"
out, err = sys.stdout.buffer, sys.stderr.buffer
def say(b):
    out.write(b + b"\n")
    out.flush()
if mode == "nostart":
    err.write(EVIL + b"\n")
    err.flush()
    sys.exit(1)
first = None
for line in sys.stdin.buffer:
    line = line.rstrip(b"\n")
    if line.startswith(b"game "):
        err.write(EVIL + b"\n")
        err.flush()
        say(b"hello evil\x9b\xc2\x9bname 1 moves")
    elif line.startswith(b"moves"):
        first = line.split(b" ")[1] if b" " in line else None
    elif line.startswith(b"go "):
        err.write(b"thinking " + EVIL + b"\n")
        err.flush()
        say(b"info " + (EVIL if mode == "full" else b"\x9b31m\xc2\x9b32m"))
        say(b"move " + (first or b"none"))
    elif line == b"quit":
        break
END
chmod +x "$evil"

# clean FILE: nothing but printable ASCII, tabs and newlines in FILE
clean() {
	bad=$(LC_ALL=C tr -d '\n\t\040-\176' <"$1" | wc -c)
	[ "$bad" -eq 0 ] || { echo "# $1: $bad bytes a terminal would act on" >&2; return 1; }
}
# says FILE PATTERN: FILE holds a line matching PATTERN, and is clean
says() { grep -q "$2" "$1" && clean "$1"; }

echo "1..13"
"$ref" play --variant link --seed 1 --sandbox off --time "$time" --log "$tmp/game.log" \
	"$evil" "$rnd" >"$tmp/play.out" 2>&1
check "play: the game is played, its table shows the bot's name escaped" \
	sh -c "grep -q 'ended: end' '$tmp/play.out' && grep -q 'evil.x9b.xc2.x9bname' '$tmp/play.out'"
check "play: nothing raw" clean "$tmp/play.out"

"$ref" position "$tmp/game.log" --seat 0 --step 2 --sandbox off "$evil full" >"$tmp/position.out" 2>&1
check "position: the bot's info line and stderr are shown, escaped" \
	sh -c "grep -q '^its line: info ?\]0;pwned title??\]52;c;' '$tmp/position.out' &&
	grep -q '^  | thinking ?\]0;pwned title??\]52;c;cHduZWQ=??\[2J?*.x9b31m.xc2.x9b32m$' '$tmp/position.out' &&
	grep -q '^answer: ' '$tmp/position.out'"
check "position: nothing raw" clean "$tmp/position.out"

"$ref" check --variant link --time "$time" --items handshake,game,stateless "$evil full" >"$tmp/check.out" 2>&1
check "check: its hello and its info line (a fault) are reported, escaped" \
	sh -c "grep -q 'hello evil.x9b.xc2.x9bname' '$tmp/check.out' &&
	grep -q 'the line: info ?\]0;pwned title' '$tmp/check.out'"
check "check: nothing raw" clean "$tmp/check.out"

"$ref" rerun --sandbox off --trust-log "$tmp/game.log" >"$tmp/rerun.out" 2>&1
check "rerun: the same game, nothing raw" says "$tmp/rerun.out" '^same: '

"$ref" play --variant link --seed 1 --sandbox off --time "$time" --log "$tmp/nostart.log" \
	"$evil nostart" "$rnd" >"$tmp/nostart.out" 2>&1
check "play: a bot that cannot start, its stderr's last line quoted, escaped" \
	sh -c "grep -q 'cannot start: .*(stderr: ?\]0;pwned title??\]52;c;cHduZWQ=??\[2J?*.x9b31m.xc2.x9b32m)' '$tmp/nostart.out'"
check "play (cannot start): nothing raw" clean "$tmp/nostart.out"

# a log made by hand: the name of seat 0, an info line and a move with
# escapes (python: sed cannot be trusted with raw bytes everywhere)
python3 - "$tmp/game.log" "$tmp/crafted.log" "$tmp/badmove.log" <<'END'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
out, info = [], False
for l in lines:
    if l.startswith(b"bot 0 "):
        w = l.split(b" ", 3)
        w[2] = b"ev\x1b]0;t\x07il\x9b2J"
        l = b" ".join(w)
    elif l.startswith(b"< 0 ") and b" info " in l and not info:
        l, info = l + b"\x1b[2J\x1b]52;c;eA==\x07", True
    out.append(l)
open(sys.argv[2], "wb").write(b"\n".join(out))
bad = b"\n".join(out).replace(b"\nmove 0 ", b"\nmove 0 \x1b[2J", 1)
open(sys.argv[3], "wb").write(bad)
END
"$ref" view "$tmp/crafted.log" >"$tmp/view.out" 2>&1
"$ref" verify "$tmp/crafted.log" >>"$tmp/view.out" 2>&1
check "a crafted log: view shows the name escaped, verify passes it" \
	sh -c "grep -q '^seat 0: ev?\]0;t?il.x9b2J ' '$tmp/view.out' && grep -q ': ok (' '$tmp/view.out'"
"$ref" position "$tmp/crafted.log" --seat 0 --step 1 --sandbox off >>"$tmp/view.out" 2>&1
"$ref" rerun --sandbox off --trust-log "$tmp/crafted.log" >>"$tmp/view.out" 2>&1
"$ref" verify "$tmp/badmove.log" >"$tmp/badmove.out" 2>&1
"$ref" rerun --sandbox off --trust-log "$tmp/badmove.log" >>"$tmp/badmove.out" 2>&1
check "a crafted log: view, verify, position, rerun print nothing raw" clean "$tmp/view.out"
check "a log with an escape in a move: verify and rerun refuse it, nothing raw" \
	sh -c "[ \$(grep -c 'is not a move of seat 0' '$tmp/badmove.out') = 2 ]"
check "a log with an escape in a move: nothing raw in what verify and rerun say" clean "$tmp/badmove.out"
exit $fail
