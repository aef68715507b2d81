#!/bin/sh
# t3111: a bot uploaded as an archive (ladder/archive.h), through `ladder
# add DIR NAME ARCHIVE`, the code the web's upload calls. A good .tar.gz
# is admitted (the modes it gives not kept: 0755 or 0644, no setuid), a
# .zip under the same name becomes its version 2, and one with its files
# in one top directory is taken too. Refused, each naming the entry and
# the rule, with nothing unpacked left behind and nothing written outside:
# zip slip (`../` in a .zip, `sub/../../` in a .tar), an absolute path, a
# symbolic link (tar and zip), a hard link, a character device and a fifo
# (made by Python's tarfile: no root needed), a zip bomb (20 MiB of zeros
# in a few KiB: the ratio cap), an archive over the size cap and one over
# the file-count cap, a name given twice, a path through a file, a
# truncated archive, a missing manifest.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
echo "1..23"

mk() { python3 "$top/tests/archive-make.py" "$@"; }
mkdir "$tmp/bot" "$tmp/tiny"
cp "$top/bin/bot-random" "$tmp/bot/"
printf '[bot]\ncommand = ./bot-random --seed 3\nauthor = Ada\n' >"$tmp/bot/manifest.ini"
printf '[bot]\ncommand = ./bot.sh\n' >"$tmp/tiny/manifest.ini"
printf '#!/bin/sh\nexec cat\n' >"$tmp/tiny/bot.sh"
chmod 755 "$tmp/tiny/bot.sh"
bot="$tmp/bot/manifest.ini $tmp/bot/bot-random"
tiny="$tmp/tiny/manifest.ini $tmp/tiny/bot.sh"

"$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 5 >/dev/null
S=$tmp/small
"$ref" ladder init "$S" --variant link --players 2 --time "$ladder_time" --seed 6 --bot-size 64K --bot-files 20 >/dev/null

mk good.tar.gz "$tmp/good.tar.gz" $bot
check "a good .tar.gz is admitted" sh -c "'$ref' ladder add '$L' arch '$tmp/good.tar.gz' | grep -q 'admitted as version 1'"
w=$(q "SELECT workdir FROM bots WHERE name = 'arch' AND version = 1")
check "unpacked into the ladder's bots/: $w" test "$w" = "$(cd "$L" && pwd)/bots/arch-1"
check "its program runs from there, its author from the manifest" \
	test "$(q "SELECT command, author FROM bots WHERE name = 'arch'")" = "./bot-random --seed 3|Ada"
modes=$(cd "$w" && stat -c '%n %a' bot-random manifest.ini suid.sh private | tr '\n' ' ')
check "modes are the ladder's, not the archive's: $modes" \
	test "$modes" = "bot-random 755 manifest.ini 644 suid.sh 755 private 644 "
mk good.zip "$tmp/good.zip" $bot
check "a good .zip under the same name is its version 2" \
	sh -c "'$ref' ladder add '$L' arch '$tmp/good.zip' | grep -q 'admitted as version 2'"
check "version 1 is replaced" test "$(q "SELECT version, status FROM bots WHERE name = 'arch' ORDER BY version" | tr '\n' ' ')" = \
	"1|replaced 2|active "
mk top.tar.gz "$tmp/top.tar.gz" $bot
check "files in one top directory are taken as the bot's" \
	sh -c "'$ref' ladder add '$L' top '$tmp/top.tar.gz' | grep -q 'admitted as version 1' && test -f '$L/bots/top-1/manifest.ini'"

refused() { # LADDER KIND PATTERN: `ladder add` of that archive fails, saying PATTERN, leaving nothing
	"$ref" ladder add "$1" x "$tmp/$2" >"$tmp/$2.out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/$2.out"
	[ $rc = 1 ] && grep -qF "$3" "$tmp/$2.out" && ! ls "$1/bots" 2>/dev/null | grep -q '^x-'
}
outside() { # nothing written outside
	! ls "$tmp/escaped.txt" "$L/escaped.txt" "$L/bots/escaped.txt" "$S/escaped.txt" "$S/bots/escaped.txt" \
		/tmp/tetrarena-abs.txt 2>/dev/null | grep -q .
}
for k in slip.zip slip.tar abs.tar symlink.tar.gz symlink.zip hardlink.tar chardev.tar fifo.tar twice.tar through.tar \
	truncated.tar.gz many.tar.gz big.tar.gz; do
	mk "$k" "$tmp/$k" $tiny
done
check "zip slip is refused" refused "$S" slip.zip "slip.zip: ../escaped.txt: a path that leads out of the bot's directory ('..')"
check "and in a tar, by sub/../../" refused "$S" slip.tar "sub/../../escaped.txt: a path that leads out"
check "an absolute path is refused" refused "$S" abs.tar "/tmp/tetrarena-abs.txt: an absolute path"
check "a symbolic link is refused, naming its target" \
	refused "$S" symlink.tar.gz "link: a symbolic link (to /etc/passwd) (a bot's archive holds only files and directories)"
check "in a zip too" refused "$S" symlink.zip "symlink.zip: link: a symbolic link (to /etc/passwd)"
check "a hard link is refused" refused "$S" hardlink.tar "hard: a hard link (to manifest.ini)"
check "a character device is refused" refused "$S" chardev.tar "null: a character device"
check "a fifo is refused" refused "$S" fifo.tar "pipe: a fifo"
check "a name given twice is refused" refused "$S" twice.tar "manifest.ini: named twice in the archive"
check "a path through a file is refused" refused "$S" through.tar "d/x: a path through a file"
check "a truncated archive is refused" refused "$S" truncated.tar.gz "truncated.tar.gz: not a .tar.gz, .tar or .zip archive"
check "over the file-count cap: refused, naming the cap" \
	refused "$S" many.tar.gz "the archive holds more than 20 files, the ladder's cap (ladder init --bot-files)"
check "over the size cap: refused, naming the cap" \
	refused "$S" big.tar.gz "weights.bin: the archive unpacks to more than 64 KiB of files, the ladder's cap (ladder init --bot-size)"
mk bomb.zip "$tmp/bomb.zip" "$tmp/tiny/manifest.ini"
check "a zip bomb ($(stat -c %s "$tmp/bomb.zip") bytes) is refused by its ratio, under the size cap" \
	refused "$L" bomb.zip "zeros.bin: the archive unpacks to more than 100 times its size"
mk good.zip "$tmp/nomanifest.zip" "$tmp/tiny/bot.sh"
check "an archive without its manifest is refused" refused "$S" nomanifest.zip "no manifest.ini at the archive's top"
check "nothing was written outside the bot's directory" outside
exit $fail
