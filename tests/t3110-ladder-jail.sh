#!/bin/sh
# t3110: what a ladder's submitted bot can reach (ladder/botdir.h). A
# manifest whose command names the ladder's database (`python3 bot.py
# ../../ladder.db ..`) is refused at `ladder add`, naming the argument, and
# so is a plain command naming it and a queued request doing the same or
# pointing into another bot's directory. A spy bot that tries to read
# DIR/ladder.db (by its absolute path and by ../), the database's -wal,
# and another author's bots/victim-1/ files, then plays random legal
# moves, sees none of them in its admission game nor in the ladder's games,
# which are normal. ladder.db, the admission logs, the inbox and the bot
# copies are the keeper's alone (0600 / 0700; the ladder 0711). A
# submitted directory over the size cap (a 300 MB sparse file: refused at
# once, nothing copied) or the file-count cap, with a link leading out or
# a fifo, is refused naming the file and the cap; the caps are `ladder
# init` settings (defaults 64 MiB, 2000 files). Run as root, the parts that
# check what another user of the host can open skip otherwise.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
need "$top/bots/starter/starter.py"

why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" \
	"$fake legal 0" "$fake legal 0" 2>&1 >/dev/null)
if ! grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	echo "1..1"
	echo "Bail out! no jail on this machine: $why"
	exit 1
fi
echo "1..32"

check "init with small caps" "$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 11 \
	--sandbox on --bot-size 64K --bot-files 20
check "the caps are stored with the settings" \
	test "$(q "SELECT value FROM meta WHERE key IN ('bot_size', 'bot_files') ORDER BY key")" = "$(printf '20\n65536')"
D=$tmp/defaults
"$ref" ladder init "$D" --variant link --players 2 --time "$ladder_time" --seed 12 >/dev/null
check "by default 64 MiB and 2000 files" \
	test "$(lq "$D" "SELECT value FROM meta WHERE key IN ('bot_size', 'bot_files') ORDER BY key")" = \
	"$(printf '2000\n67108864')"

# another author's bot, with a secret beside it
mkdir "$tmp/victim"
cp "$top/bots/starter/starter.py" "$tmp/victim/"
echo VICTIM-SECRET >"$tmp/victim/secret.txt"
printf '[bot]\ncommand = python3 starter.py 7\n' >"$tmp/victim/manifest.ini"
check "the victim is admitted" "$ref" ladder add "$L" victim "$tmp/victim"

# the attack of the issue: the command names the database and the ladder
mkdir "$tmp/attacker"
cp "$top/bots/starter/starter.py" "$tmp/attacker/bot.py"
printf '[bot]\ncommand = python3 bot.py ../../ladder.db ..\n' >"$tmp/attacker/manifest.ini"
"$ref" ladder add "$L" attacker "$tmp/attacker" >"$tmp/attacker.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/attacker.out"
check "a command naming ../../ladder.db is refused at add (exit $rc), naming the argument" \
	sh -c "[ $rc = 1 ] && grep -q \"argument '../../ladder.db' names a path outside the bot's directory\" '$tmp/attacker.out'"
check "nothing of it is copied in, nor recorded" \
	test -z "$(ls "$L/bots" | grep attacker)$(q "SELECT name FROM bots WHERE name = 'attacker'")"
printf '[bot]\ncommand = %s/bin/bot-random\n' "$top" >"$tmp/attacker/manifest.ini"
"$ref" ladder add "$L" attacker "$tmp/attacker" >"$tmp/prog.out" 2>&1
check "so is a program named by a path outside it" grep -q "its program '.*bot-random' names a path outside" "$tmp/prog.out"
"$ref" ladder add "$L" plain "$top/bin/bot-random $L/ladder.db" >"$tmp/plain.out" 2>&1
check "a plain command naming the database is refused too" \
	grep -q "argument '.*ladder.db' names a path in the ladder's directory, which no bot sees" "$tmp/plain.out"

# a spy: tries the database and the victim's files, says on stderr what it
# found, then plays as the starter bot does
mkdir "$tmp/spy"
cp "$top/bots/starter/starter.py" "$tmp/spy/"
cat >"$tmp/spy/spy.py" <<EOF
import os, sys
L = "$L"
def say(s):
    sys.stderr.write(s + "\n")
def read(what, path):
    try:
        with open(path, "rb") as f:
            data = f.read(32)
        say("SPY found %s: %r" % (what, data))
    except OSError as e:
        say("SPY nothing %s: %s" % (what, e.strerror))
def listing(what, path):
    try:
        names = os.listdir(path)
    except OSError as e:
        say("SPY nothing %s: %s" % (what, e.strerror))
        return
    secret = [n for n in names if n.startswith(("ladder", "victim", "admission", "games", "inbox"))]
    say("SPY %s %s: %s" % ("found" if secret else "nothing", what, sorted(names)[:8]))
if open("manifest.ini").read().startswith("[bot]"):
    say("SPY own ok")
read("db by its path", L + "/ladder.db")
read("db by ../..", "../../ladder.db")
read("the wal", L + "/ladder.db-wal")
read("the victim's secret", L + "/bots/victim-1/secret.txt")
read("the victim's secret by ..", "../victim-1/secret.txt")
listing("the ladder", L)
listing("the ladder by ../..", "../..")
listing("the bots", "..")
for a in sys.argv[1:]:
    (listing if os.path.isdir(a) else read)("argument " + a, a)
sys.stderr.flush()
os.execv(sys.executable, [sys.executable, "starter.py", "3"])
EOF
printf '[bot]\ncommand = python3 spy.py\nauthor = a spy\n' >"$tmp/spy/manifest.ini"
"$ref" ladder add "$L" spy "$tmp/spy" >"$tmp/spy.out" 2>&1
check "the spy is admitted: $(cat "$tmp/spy.out")" grep -q '^spy: admitted' "$tmp/spy.out"
cat "$L"/admission/spy.*.stderr >"$tmp/spy.adm" 2>/dev/null
grep SPY "$tmp/spy.adm" | sort | uniq -c | sed 's/^/# admission: /'
check "in its admission game it ran and read its own files" grep -q 'SPY own ok' "$tmp/spy.adm"
check "and found nothing of the ladder's nor the victim's" \
	sh -c "[ \$(grep -c 'SPY nothing' '$tmp/spy.adm') -ge 8 ] && ! grep -q 'SPY found' '$tmp/spy.adm'"

"$ref" ladder run "$L" --games 2 -q 2>"$tmp/run.err"
check "two ladder games are played" test "$(q "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")" = 2
spy=$(q "SELECT id FROM bots WHERE name = 'spy'")
: >"$tmp/spy.games"
for g in $(q "SELECT game || '.' || seat FROM seats WHERE bot = $spy"); do
	cat "$L/games/$(printf '%06d' "${g%.*}").log.seat${g#*.}.stderr" >>"$tmp/spy.games" 2>/dev/null
done
grep SPY "$tmp/spy.games" | sort | uniq -c | sed 's/^/# games: /'
check "in the ladder's games it ran" test "$(grep -c 'SPY own ok' "$tmp/spy.games")" = 2
check "and found nothing there either" \
	sh -c "[ \$(grep -c 'SPY nothing' '$tmp/spy.games') -ge 16 ] && ! grep -q 'SPY found' '$tmp/spy.games'"
check "the games are normal: no fault, and they verify" \
	sh -c "! grep -q '^fault' '$L'/games/*.log && '$ref' ladder verify '$L' >/dev/null"

# the jail itself: a database edited to give the spy the attacker's
# arguments shows it nothing more (its entry is confined, the ladder hidden)
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE bots SET command = ? WHERE name = ?", ("python3 spy.py ../../ladder.db .. ../victim-1/secret.txt " + sys.argv[2], "spy"))
db.commit()' "$L/ladder.db" "$L/ladder.db"
"$ref" ladder run "$L" --games 1 -q 2>"$tmp/edited.err" || sed 's/^/# /' "$tmp/edited.err"
g=$(q "SELECT game || '.' || seat FROM seats WHERE bot = $spy ORDER BY game DESC LIMIT 1")
cat "$L/games/$(printf '%06d' "${g%.*}").log.seat${g#*.}.stderr" >"$tmp/spy.edited" 2>/dev/null
grep 'SPY.*argument' "$tmp/spy.edited" | sed 's/^/# edited: /'
check "its arguments naming the database, the ladder and the victim's file, by .. and by path, show nothing" \
	sh -c "[ \$(grep -c 'SPY nothing argument' '$tmp/spy.edited') = 4 ] && ! grep -q 'SPY found' '$tmp/spy.edited'"

# the inbox: a queued request naming the database, one using the victim's
# directory with it, and one pointing outside the ladder's bots
mkdir -p "$L/inbox"
printf '[request]\nkind = add\nname = q1\ncommand = python3 starter.py ../../ladder.db\nworkdir = %s\n' \
	"$L/bots/victim-1" >"$L/inbox/0000000000000001-1.req"
printf '[request]\nkind = add\nname = q2\ncommand = python3 starter.py\nworkdir = %s\n' \
	"$tmp/victim" >"$L/inbox/0000000000000002-1.req"
"$ref" ladder run "$L" --games 1 -q 2>"$tmp/intake.err"
sed 's/^/# /' "$tmp/intake.err"
check "a queued request naming the database is rejected at intake, naming the argument" \
	test "$(q "SELECT COUNT(*) FROM rejections WHERE name = 'q1' AND reason LIKE '%argument ''../../ladder.db''%'")" = 1
check "one whose directory is not the ladder's copy is rejected" \
	test "$(q "SELECT COUNT(*) FROM rejections WHERE name = 'q2' AND reason LIKE '%not a bot directory of this ladder%'")" = 1
check "the victim's directory, named by the rejected request, is kept; so is the one outside" \
	test -f "$L/bots/victim-1/secret.txt" -a -f "$tmp/victim/secret.txt"
check "and the run played its game" test "$(q "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")" = 4

# the keeper's files
mode() { stat -c %a "$1"; }
check "ladder.db is 0600 ($(mode "$L/ladder.db"))" test "$(mode "$L/ladder.db")" = 600
bad=
for f in "$L/ladder.db-wal" "$L/ladder.db-shm" "$L"/admission/*.log "$L"/admission/*.stderr; do
	[ -e "$f" ] && [ "$(mode "$f")" != 600 ] && bad="$bad $(basename "$f"):$(mode "$f")"
done
check "its -wal, -shm and the admission logs are 0600${bad:+:$bad}" test -z "$bad"
check "the ladder is 0711, admission and bots 0700 ($(mode "$L") $(mode "$L/admission") $(mode "$L/bots"))" \
	test "$(mode "$L") $(mode "$L/admission") $(mode "$L/bots")" = "711 700 700"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@" >/dev/null 2>&1; }
	check "another user of the host cannot read the database" sh -c "! $(command -v setpriv) --reuid=65534 \
		--regid=65534 --clear-groups cat '$L/ladder.db' >/dev/null 2>&1"
	if other ls "$L" || other cat "$L/bots/victim-1/secret.txt"; then
		not_ok "nor list the ladder, nor reach the victim's copy"
	else
		ok "nor list the ladder, nor reach the victim's copy"
	fi
else
	skip "another user of the host: not root (or no setpriv), no other uid to try"
	skip "another user of the host: not root (or no setpriv), no other uid to try"
fi

# the caps and what a directory may hold
refused() { # NAME DIR PATTERN: `ladder add` refuses it (exit 1) saying PATTERN, copies nothing
	"$ref" ladder add "${4:-$L}" "$1" "$2" >"$tmp/$1.out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/$1.out"
	[ $rc = 1 ] && grep -q "$3" "$tmp/$1.out" && ! ls "${4:-$L}/bots" 2>/dev/null | grep -q "^$1-"
}
mkdir "$tmp/big"
cp "$top/bots/starter/starter.py" "$tmp/big/"
printf '[bot]\ncommand = python3 starter.py\n' >"$tmp/big/manifest.ini"
head -c 100000 /dev/zero >"$tmp/big/weights.bin"
check "a directory over the size cap is refused, naming the file and the cap" \
	refused big "$tmp/big" "big/weights.bin: the bot's directory holds more than 64 KiB of files, the ladder's cap (ladder init --bot-size)"
rm "$tmp/big/weights.bin"
truncate -s 300M "$tmp/big/huge.bin"
start=$(date +%s%N)
refused huge "$tmp/big" "huge.bin: the bot's directory holds more than 64 MiB" "$D"
rc=$?
took=$((($(date +%s%N) - start) / 1000000))
check "300 MB against the default cap: refused in ${took} ms, nothing copied" [ $rc = 0 -a "$took" -lt 2000 ]
rm "$tmp/big/huge.bin"
mkdir "$tmp/many"
cp "$tmp/big/"* "$tmp/many/"
for i in $(seq 1 25); do : >"$tmp/many/f$i"; done
check "a directory over the file-count cap is refused, naming the cap" \
	refused many "$tmp/many" "the bot's directory holds more than 20 files, the ladder's cap"
mkdir "$tmp/link" "$tmp/link2" "$tmp/fifo"
for d in link link2 fifo; do cp "$tmp/big/"* "$tmp/$d/"; done
ln -s /etc/passwd "$tmp/link/data"
check "a link leading out (absolute) is refused, naming it" refused link "$tmp/link" "link/data: a link to /etc/passwd"
mkdir "$tmp/link2/sub"
ln -s ../../victim/secret.txt "$tmp/link2/sub/data"
check "and one leading out by .." refused link2 "$tmp/link2" "sub/data: a link to ../../victim/secret.txt, outside"
mkfifo "$tmp/fifo/pipe"
check "a fifo is refused, naming it" refused fifo "$tmp/fifo" "fifo/pipe: a fifo"
ln -s starter.py "$tmp/big/bot.py"
check "a link inside it is fine" "$ref" ladder add "$L" big "$tmp/big"
exit $fail
