#!/bin/sh
# matrix-report: the matrix AI's mean points and win rate over seeded
# 7-player games, against six random players and against six copies of
# itself. The games run in-process (bot-matrix --arena), each one replayed
# and verified through the variant table; the AI's seat rotates.
#
#   scripts/matrix-report.sh [GAMES [SEED]]     (default 200 games, seed 4)
#
# A shared win counts as 1/k of a win for k tied leaders. With copies of
# itself the fair share is 1/7 = 0.143 and the points are the copies' mean.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bot="$top/bin/bot-matrix"
games=${1:-200}
seed=${2:-4}
[ -x "$bot" ] || { echo "matrix-report: build first (make bin/bot-matrix)" >&2; exit 1; }
echo "matrix AI, $games seeded 7-player games (seed $seed)"
for opp in random self; do
	flag=
	[ "$opp" = self ] && flag=--self
	line=$("$bot" --arena "$games" --seed "$seed" --players 7 --verify $flag | tail -n 1)
	case $line in
	summary*) ;;
	*) echo "matrix-report: the arena failed" >&2; exit 1 ;;
	esac
	set -- $line
	shift 3
	printf 'vs %-7s %s\n' "$opp" "$*"
done
