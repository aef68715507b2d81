#!/bin/sh
# bench-record: what writing the game record costs. One tournament of
# instant bots (the fake bot's first legal move, kept alive between games:
# `multi`; `quiet` by default, writing nothing on stderr, as most bots),
# 2-player link, played at -j 1 and -j 2 with its output on disk (under
# build/, or BENCH_DISK) and on tmpfs (/dev/shm), alternately, the same
# number of rounds each; printed are the median and the best of the
# rounds, in microseconds per bot move (the tournament's whole wall time
# over its moves), and disk over tmpfs. Beside: fastchess's play time is
# about 48 us a move on this kind of machine (issue 31), and the raw pipe
# floor is bench-referee's `raw pipe round trip`.
#
#   BENCH_RECORD_GAMES  games per tournament (default 1000)
#   BENCH_RECORD_RUNS   rounds (default 5)
#   BENCH_RECORD_BOT    the fake bot's mode (default quiet; multi writes a
#                       stderr line each game, so each seat costs a file)
#   BENCH_REFEREE       the referee to measure (default bin/referee)
top=${TETRARENA_TOP:-.}
build=${TETRARENA_BUILD:-$top/build/opt}
ref=${BENCH_REFEREE:-$top/bin/referee}
fake=$build/tests/prog-fakebot
games=${BENCH_RECORD_GAMES:-1000}
runs=${BENCH_RECORD_RUNS:-5}
mode=${BENCH_RECORD_BOT:-quiet}
disk=${BENCH_DISK:-$top/build}
if [ ! -x "$ref" ] || [ ! -x "$fake" ] || [ ! -d /dev/shm ]; then
	echo "bench-record: skipped (no bin/referee, fake bot or /dev/shm)"
	exit 0
fi
dtmp=$(mktemp -d "$disk/bench-record.XXXXXX")
mtmp=$(mktemp -d /dev/shm/bench-record.XXXXXX)
mnt=$dtmp/mnt	# a journaled ext4 mounted there, below, when that is measured
cleanup() { { ! mountpoint -q "$mnt" || umount "$mnt"; } 2>/dev/null; rm -rf "$dtmp" "$mtmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE	# (sh runs no EXIT trap when a signal kills it)
# once DIR J: microseconds per bot move of one tournament with output in DIR.
# Each round starts from a settled disk (sync) and leaves its output in
# place until the end: deleting the last round's thousand files just
# before (rm -rf) made the next round's file creations slower (the
# scan described below), so the benchmark measured its own cleanup too
# (disk rounds grew slower one after another).
once() {
	out=$(mktemp -d "$1/run.XXXXXX")
	sync
	start=$(date +%s.%N)
	"$ref" tournament --variant link --players 2 --games $((games / 2)) --seed 3 --bootstrap 0 -q \
		-j "$2" -o "$out" --bot "a=$fake $mode" --bot "b=$fake $mode" >/dev/null 2>"$1/err" ||
		{ cat "$1/err" >&2; echo 0; return; }
	end=$(date +%s.%N)
	moves=$(sed -n 's/.* moves=\([0-9]*\),\([0-9]*\) .*/\1 \2/p' "$out/journal.txt" | awk '{ s += $1 + $2 } END { print s }')
	awk "BEGIN { printf \"%.2f\", ($end - $start) * 1e6 / $moves }"
}
# stats: "median M best B" of the numbers on stdin
stats() {
	sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		printf "median %.2f best %.2f", m, v[1] }'
}
# An ext4 without a journal (this project's VM's root) skips, when it
# allocates an inode, every free inode deleted in the last minute (six
# while its inode table block is unwritten, which a new inode beside them
# makes it), looking each one up: after a mass deletion near by (make
# check's temporary directories, this script's last cleanup) every file
# created scans them all. perf puts two thirds of a slow round in the
# kernel's recently_deleted(); 2000 plain `touch`es in a directory just
# emptied of 20000 files take 1.85 s there, against 0.02 s on a journaled
# ext4 on the same disk. That is the file system's figure, not the
# tournament's, so it is named here; BENCH_DISK=DIR measures elsewhere (a
# journaled ext4, as mkfs.ext4 makes by default).
# measure DIR LABEL: the rounds with the disk side in DIR (made empty).
measure() {
	where=$1
	echo "  disk: $2"
	echo "  (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
	for j in 1 2; do
		: >"$mtmp/d$j"
		: >"$mtmp/m$j"
		i=0
		while [ $i -lt "$runs" ]; do
			once "$where" $j >>"$mtmp/d$j"
			echo >>"$mtmp/d$j"
			once "$mtmp" $j >>"$mtmp/m$j"
			echo >>"$mtmp/m$j"
			i=$((i + 1))
		done
		set -- $(stats <"$mtmp/d$j") $(stats <"$mtmp/m$j")
		echo "  -j $j, $games link games, bot '$mode', us per bot move over $runs rounds:" \
			"disk $1 $2 ($3 $4), tmpfs $5 $6 ($7 $8): disk/tmpfs $(awk "BEGIN { printf \"%.2f\", $2 / $6 }")x (median)"
		echo "    disk rounds: $(tr '\n' ' ' <"$mtmp/d$j")"
		echo "    tmpfs rounds: $(tr '\n' ' ' <"$mtmp/m$j")"
	done
	echo "  (load after: $(cut -d' ' -f1-3 /proc/loadavg)); fastchess's play time: about 48 us a move"
}
once "$mtmp" 1 >/dev/null	# warm up
fstype=$(stat -f -c %T "$dtmp")
dev=$(basename "$(findmnt -n -o SOURCE --target "$dtmp" 2>/dev/null)")
measure "$dtmp" "$dtmp ($fstype on $dev)"
if [ "$fstype" = ext2/ext3 ] && [ "$(cat "/sys/fs/ext4/$dev/journal_task" 2>/dev/null)" = "<none>" ]; then
	echo "  ($dev is an ext4 without a journal: creating a file there scans the inodes deleted" \
		"in the last minutes, so its rounds swing with what was deleted before)"
	# The same disk through a journaled ext4 in an image file on it, as
	# mkfs.ext4 makes by default (root only: a loop mount), unless
	# BENCH_DISK chose the disk.
	img=$dtmp/ext4.img
	if [ -n "$BENCH_DISK" ]; then
		:
	elif [ "$(id -u)" = 0 ] && mkdir "$mnt" && truncate -s 2G "$img" &&
		mkfs.ext4 -q -F "$img" 2>/dev/null && mount -o loop "$img" "$mnt" 2>/dev/null; then
		measure "$mnt" "the same disk through a journaled ext4 (a 2 GiB image on $dev, loop-mounted)"
	else
		echo "  (not root or no loop device: BENCH_DISK=DIR on a journaled file system measures the referee alone)"
	fi
fi
