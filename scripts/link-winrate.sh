#!/bin/sh
# link-winrate: the win rate of one link bot against another, measured
# through bin/referee: GAMES 2-player games (default 200), each seed played
# twice with the seats swapped (seeds 1, 1, 2, 2, ...), every log checked
# with `referee verify`.
#
#   scripts/link-winrate.sh [-n GAMES] [-k LOGDIR] [-r REFEREE] [BOT [OPPONENT]]
#
# BOT defaults to bin/bot-link, OPPONENT to bin/bot-random; each is a
# command line as `referee play` takes it. Prints one line per game to
# stderr with -v, and the tally on stdout; exits 1 when a game could not be
# played, a log did not verify or BOT committed any fault (a run with
# faults measures a broken setup, not strength: e.g. bots built with
# SANITIZE=1 cannot start under the referee's memory limit). Run from the
# repository top.
games=200
keep=
verbose=0
referee=${REFEREE:-bin/referee}
usage() { echo "usage: $0 [-n GAMES] [-k LOGDIR] [-r REFEREE] [-v] [BOT [OPPONENT]]" >&2; exit 2; }
while getopts n:k:r:v opt; do
	case $opt in
	n) games=$OPTARG ;;
	k) keep=$OPTARG ;;
	r) referee=$OPTARG ;;
	v) verbose=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 2 ] || usage
case $games in '' | *[!0-9]*) usage ;; esac
bot=${1:-bin/bot-link}
opp=${2:-bin/bot-random}
[ -x "$referee" ] || { echo "$0: no referee at $referee (make it first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/link-winrate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
logs=${keep:-$tmp}
mkdir -p "$logs" || exit 1

won=0 tied=0 lost=0 faults=0 bad=0 points=0 opp_points=0
i=0
while [ "$i" -lt "$games" ]; do
	seed=$((i / 2 + 1))
	seat=$((i % 2))
	log="$logs/game-$i.log"
	if [ "$seat" = 0 ]; then
		"$referee" play --variant link --seed "$seed" --json --log "$log" "$bot" "$opp" >"$tmp/json" 2>"$tmp/err"
	else
		"$referee" play --variant link --seed "$seed" --json --log "$log" "$opp" "$bot" >"$tmp/json" 2>"$tmp/err"
	fi
	st=$?
	if [ "$st" != 0 ] || ! "$referee" verify "$log" >/dev/null 2>>"$tmp/err"; then
		echo "game $i (seed $seed): referee failed:" >&2
		cat "$tmp/err" >&2
		bad=$((bad + 1))
		i=$((i + 1))
		continue
	fi
	# One line per seat: SEAT RANK SCORE NFAULTS, from the JSON result.
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["seats"]:
    print(s["seat"], s["rank"], s["score"], sum(s["faults"].values()))
' "$tmp/json" >"$tmp/seats" || { bad=$((bad + 1)); i=$((i + 1)); continue; }
	set -- $(sed -n "$((seat + 1))p" "$tmp/seats")
	my_rank=$2 my_score=$3 my_faults=$4
	set -- $(sed -n "$((2 - seat))p" "$tmp/seats")
	their_rank=$2 their_score=$3
	faults=$((faults + my_faults))
	points=$((points + my_score))
	opp_points=$((opp_points + their_score))
	if [ "$my_rank" -lt "$their_rank" ]; then
		won=$((won + 1)) outcome=won
	elif [ "$my_rank" = "$their_rank" ]; then
		tied=$((tied + 1)) outcome=tied
	else
		lost=$((lost + 1)) outcome=lost
	fi
	[ "$verbose" = 1 ] && echo "game $i seed $seed seat $seat: $outcome $my_score to $their_score" >&2
	i=$((i + 1))
done
played=$((won + tied + lost))
awk -v w="$won" -v t="$tied" -v l="$lost" -v n="$played" -v f="$faults" -v b="$bad" \
	-v p="$points" -v q="$opp_points" -v bot="$bot" -v opp="$opp" 'BEGIN {
	printf "%s vs %s: %d games, won %d tied %d lost %d, win rate %.1f%%\n",
		bot, opp, n, w, t, l, n ? 100 * w / n : 0
	printf "mean score %.2f to %.2f; faults by %s: %d; games failed: %d\n",
		n ? p / n : 0, n ? q / n : 0, bot, f, b
}'
[ "$faults" = 0 ] || echo "$0: $bot committed $faults faults (see the logs with -k DIR)" >&2
[ "$bad" = 0 ] && [ "$faults" = 0 ]
