#!/bin/sh
# t2003-referee-human: `human` as a seat, driven through a pseudo-terminal:
# the board is drawn, the legal moves are offered as a numbered list, a
# number or the notation is accepted, a wrong entry is refused, and the
# game's log verifies. Also `view --step` steps through a log on Enter.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
build=${TETRARENA_BUILD:-$top/build/opt}
fake=$build/tests/prog-fakebot
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $desc"; else fail=1; echo "not ok $n - $desc"; fi
}
echo "1..6"
# The person answers "nonsense" once, then "1", then the first move's
# notation, alternately.
cat >"$tmp/drive.py" <<'EOT'
import os, pty, select, sys, time
ref, fake, log = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    os.execv(ref, [ref, "play", "--variant", "link", "--seed", "4", "--option", "width=6",
                   "--option", "height=6", "--option", "pieces=2", "--log", log, "human", fake])
out = b""
prompts = 0
deadline = time.time() + 30
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
    if out.rstrip().endswith(b"notation):"):
        prompts += 1
        if prompts == 1:
            answer = b"nonsense"
        elif prompts % 2 == 0:
            answer = b"1"
        else:
            listing = out[out.rfind(b"  1 "):]
            answer = listing.split()[1]
        os.write(fd, answer + b"\n")
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.WEXITSTATUS(status))
EOT
python3 "$tmp/drive.py" "$ref" "$fake legal" "$tmp/h.log" >"$tmp/screen" 2>&1
check "the game with a human ends (exit 0)" [ $? = 0 ]
check "the board is drawn" grep -q "^   +-------------+" "$tmp/screen"
check "the moves are offered as a numbered list" grep -q "^  1 I0@0" "$tmp/screen"
check "a wrong entry is refused" grep -q "'nonsense' is not one of the moves above" "$tmp/screen"
check "the human's game verifies" sh -c "'$ref' verify '$tmp/h.log' >/dev/null"
yes "" | head -100 | "$ref" view --step --no-colour "$tmp/h.log" >"$tmp/view" 2>&1
check "view --step runs through on Enter" grep -q "^result: ranks=" "$tmp/view"
exit $fail
