#!/bin/sh
# matrix-report: the matrix AI's mean points and win rate over seeded
# 7-player games, against six bot-random players, six copies of itself
# and (-o) six frozen baselines (bin/bot-matrix-baseline), played through bin/referee (every log checked with `referee
# verify`). Game i uses seed i + 1 and puts the AI in seat i mod 7; every
# bot process gets its own --seed.
#
#   scripts/matrix-report.sh [-n GAMES] [-k LOGDIR] [-o KINDS] [-b BASE] [-a] [-v]
#
# -n games per opponent kind (default 200); -o the opponent kinds, a
# space-separated list of random, self, baseline (default "random self";
# in-process, baseline is the AI as frozen, `bot-matrix --arena --frozen`); -k keep the logs there; -v one
# line per game on stderr; -a play in-process instead (bot-matrix --arena:
# the same rules, no processes, every game replayed through the variant
# table), much faster. A shared win counts 1/k for k tied leaders; with
# copies of itself the fair share is 1/7 = 0.143. Exits 1 when a game could
# not be played or a log did not verify. -b BASE: the program of the
# baseline kind (default bin/bot-matrix-baseline), e.g. an older commit's
# bot-matrix from scripts/build-at.sh. Each line ends with the win rate's
# 95% interval (normal approximation from the per-game variance).
# Run from the repository top.
games=200
keep=
arena=0
verbose=0
referee=${REFEREE:-bin/referee}
ai=bin/bot-matrix
rnd=bin/bot-random
base=bin/bot-matrix-baseline
kinds="random self"
usage() { echo "usage: $0 [-n GAMES] [-k LOGDIR] [-o KINDS] [-b BASE] [-a] [-v]" >&2; exit 2; }
while getopts n:k:o:b:av opt; do
	case $opt in
	n) games=$OPTARG ;;
	k) keep=$OPTARG ;;
	o) kinds=$OPTARG ;;
	b) base=$OPTARG ;;
	a) arena=1 ;;
	v) verbose=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage
case $games in '' | *[!0-9]*) usage ;; esac
[ -x "$ai" ] || { echo "$0: build first (make)" >&2; exit 1; }

if [ "$arena" = 1 ]; then
	echo "matrix AI, $games seeded 7-player games each, in-process"
	for opp in $kinds; do
		case $opp in random) flag= ;; self) flag=--self ;; baseline) flag=--frozen ;; *) usage ;; esac
		line=$("$ai" --arena "$games" --seed 4 --players 7 --verify $flag | tail -n 1)
		case $line in summary*) ;; *) echo "$0: the arena failed" >&2; exit 1 ;; esac
		set -- $line
		shift 3
		printf 'vs %-7s %s\n' "$opp" "$*"
	done
	exit 0
fi

[ -x "$referee" ] || { echo "$0: no referee at $referee (make it first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/matrix-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
logs=${keep:-$tmp}
mkdir -p "$logs" || exit 1
bad=0
echo "matrix AI, $games seeded 7-player games each, through $referee"
for opp in $kinds; do
	case $opp in random) other=$rnd ;; self) other=$ai ;; baseline) other=$base ;; *) usage ;; esac
	[ -x "$other" ] || { echo "$0: no $other (make it first)" >&2; exit 1; }
	: >"$tmp/results"
	i=0
	while [ "$i" -lt "$games" ]; do
		seat=$((i % 7))
		set --
		# Every bot gets its own seed: six bot-random processes started
		# with one seed would pick the same index of their move lists.
		for s in 0 1 2 3 4 5 6; do
			bs="--seed $((i * 7 + s + 1))"
			if [ "$s" = "$seat" ]; then set -- "$@" "$ai $bs"; else set -- "$@" "$other $bs"; fi
		done
		log="$logs/$opp-$i.log"
		if ! "$referee" play --variant matrix --seed $((i + 1)) --json --log "$log" "$@" \
			>"$tmp/json" 2>"$tmp/err" || ! "$referee" verify "$log" >/dev/null 2>>"$tmp/err"; then
			echo "$opp game $i: referee failed:" >&2
			cat "$tmp/err" >&2
			bad=$((bad + 1))
			i=$((i + 1))
			continue
		fi
		# SEAT-SCORE RANK TIED FAULTS of the AI's seat, from the JSON result.
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
seat = int(sys.argv[2])
s = r["seats"][seat]
tied = sum(1 for t in r["seats"] if t["rank"] == 1)
print(s["score"], s["rank"], tied, sum(s["faults"].values()))
' "$tmp/json" "$seat" >>"$tmp/results" || bad=$((bad + 1))
		[ "$verbose" = 1 ] && echo "$opp game $i seat $seat: $(tail -n 1 "$tmp/results")" >&2
		i=$((i + 1))
	done
	awk -v opp="$opp" '{ n++; p += $1; x = $2 == 1 ? 1 / $3 : 0; w += x; ww += x * x; f += $4 }
	END { m = n ? w / n : 0; se = n > 1 ? sqrt((ww / n - m * m) / (n - 1)) : 0
		printf "vs %-7s games=%d mean_points=%.2f win_rate=%.3f faults=%d interval=[%.3f,%.3f]\n",
		opp, n, n ? p / n : 0, m, f, m - 1.96 * se, m + 1.96 * se }' "$tmp/results"
done
[ "$bad" = 0 ]
