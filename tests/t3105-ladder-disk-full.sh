#!/bin/sh
# t3105: a ladder on a full disk (a 400 KiB tmpfs, mounted as root): `ladder
# run` stops with one clear error saying the disk is full, keeps every game
# finished before, and leaves a database that opens, passes `ladder verify`
# (PRAGMA integrity_check included) and plays on once there is room.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP mounting a small tmpfs needs root"
	exit 0
fi
mnt=$tmp/small
mkdir "$mnt"
if ! mount -t tmpfs -o size=400k tmpfs "$mnt" 2>"$tmp/mount.err"; then
	echo "1..0 # SKIP cannot mount a tmpfs here: $(cat "$tmp/mount.err")"
	exit 0
fi
trap 'reap; umount "$mnt" 2>/dev/null; cleanup' EXIT
L=$mnt/ladder
finished() { lq "$L" "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL"; }

echo "1..9"
"$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 3 >/dev/null &&
	"$ref" ladder add "$L" r1 "$top/bin/bot-random --seed 1" >/dev/null &&
	"$ref" ladder add "$L" r2 "$top/bin/bot-random --seed 2" >/dev/null ||
	{ echo "Bail out! cannot make the ladder"; exit 1; }
"$ref" ladder run "$L" -q 2>"$tmp/run1.err"
rc=$?
sed 's/^/# /' "$tmp/run1.err"
check "run stops with exit 1 when the disk fills" test $rc = 1
check "saying the disk is full, once" test "$(grep -c 'the disk is full' "$tmp/run1.err")" = 1
n1=$(finished)
check "the games finished before are kept ($n1)" test "$n1" -gt 0
check "verify and integrity_check pass" "$ref" ladder verify "$L"

# now no byte left at all: the database's own writes fail first
dd if=/dev/zero of="$mnt/filler" bs=1k 2>/dev/null
"$ref" ladder run "$L" -q 2>"$tmp/run2.err"
rc=$?
sed 's/^/# /' "$tmp/run2.err"
check "with no byte left: exit 1, the disk is full" sh -c "test $rc = 1 && grep -q 'the disk is full' '$tmp/run2.err'"
check "the database still opens and verifies" "$ref" ladder verify "$L"
check "standings still read" sh -c "'$ref' ladder standings '$L' | grep -q '$n1 games'"

rm -f "$mnt/filler"
# room again: the filler gone, and the disk made larger (the first run had
# filled it to its last bytes; a game and the standings' cache it updates
# need more than those)
mount -o remount,size=800k "$mnt"
"$ref" ladder run "$L" --games 2 -q 2>"$tmp/run3.err"; sed "s/^/# /" "$tmp/run3.err"
check "with room again it plays on" test "$(finished)" = $((n1 + 2))
check "and verifies" "$ref" ladder verify "$L"
exit $fail
