#!/bin/sh
# table-share: one bot against copies of another at a full table, through
# the referee with every seating, and its share of the first places.
#
#   scripts/table-share.sh -v VARIANT -p PLAYERS [-g SEEDS] [-s SEED] [-j JOBS]
#                          [-o DIR] [-O KEY=VALUE]... NEW BASE
#
# Plays `referee tournament` with NEW in one seat and PLAYERS - 1 copies of
# BASE in the others (bots named new, base1, base2, ...): SEEDS seeds
# (default 100) in every seating, so PLAYERS! games a seed (3 players: 6,
# 4 players: 24), with master seed SEED (default 35), JOBS games at once
# (default 2), the variant options -O KEY=VALUE (repeat), into DIR
# (default out/table-VARIANT-PLAYERS; an existing DIR resumes, as
# tournaments do). NEW and BASE are commands, quoted when they have
# arguments.
#
# Then it prints, from DIR/games.csv, NEW's share of the first places: a
# game it wins alone counts 1, a first place shared by k seats 1/k, so
# PLAYERS copies of one program share exactly 1/PLAYERS. The 95% interval
# is the mean's, from the per-game variance (normal approximation). Also
# the games won alone and shared, and the games with a fault.
#
# Example (docs/ai/rush.md): bot-rush against two of the bot-rush of
# commit 17936f0, in lockstep:
#
#   old=$(scripts/build-at.sh 17936f0)
#   scripts/table-share.sh -v rush -p 3 -O lockstep=1 bin/bot-rush "$old/bot-rush"
set -u
seeds=100 seed=35 jobs=2 out='' variant='' players='' opts=''
usage() { echo "usage: $0 -v VARIANT -p PLAYERS [-g SEEDS] [-s SEED] [-j JOBS] [-o DIR] [-O KEY=VALUE]... NEW BASE" >&2; exit 2; }
while getopts v:p:g:s:j:o:O: opt; do
	case $opt in
	v) variant=$OPTARG ;;
	p) players=$OPTARG ;;
	g) seeds=$OPTARG ;;
	s) seed=$OPTARG ;;
	j) jobs=$OPTARG ;;
	o) out=$OPTARG ;;
	O) opts="$opts --option=$OPTARG" ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ] || [ -z "$variant" ] || [ -z "$players" ]; then
	usage
fi
case $players in
[2-8]) ;;
*) echo "$0: -p: 2 to 8 players, not '$players'" >&2; exit 2 ;;
esac
new=$1 base=$2
out=${out:-out/table-$variant-$players}
ref=${REFEREE:-bin/referee}
set -- --bot "new=$new"
i=1
while [ "$i" -lt "$players" ]; do
	set -- "$@" --bot "base$i=$base"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # $opts: --option words
"$ref" tournament -q -v "$variant" $opts --players "$players" -g "$seeds" -j "$jobs" \
	--seed "$seed" -o "$out" "$@" >/dev/null || exit 1
awk -F, -v players="$players" '
	NR > 1 { rank[$1 "," $5] = $6; if ($6 == 1) top[$1]++; id[$1]; if ($8 != "-") faulty[$1] }
	END {
		for (g in id) {
			n++; x = 0
			if (rank[g ",new"] == 1) { x = 1 / top[g]; if (top[g] == 1) won++; else shared++ }
			s += x; ss += x * x
		}
		for (g in faulty) f++
		if (n == 0) { print "no games in games.csv"; exit 1 }
		p = s / n; se = n > 1 ? sqrt((ss / n - p * p) / (n - 1)) : 0
		printf "new: %d games, won %d alone, %d shared, share of first places %.3f [%.3f, %.3f] (fair share %.3f), games with a fault %d\n",
			n, won, shared, p, p - 1.96 * se, p + 1.96 * se, 1 / players, f
	}' "$out/games.csv"
