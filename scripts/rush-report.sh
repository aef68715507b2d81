#!/bin/sh
# rush-report: how well the rush AI plays, beside the rulebook's skill chart.
#
#   scripts/rush-report.sh [-n GAMES] [-s SEED] [-k LOGDIR] [-r REFEREE] [-H]
#                          [-R] [-p PACE] [-S] [-j JOBS] [-1] [BOT [OPPONENT]]
#
# Plays GAMES (default 200) seeded 2-player lockstep games of BOT (default
# bin/bot-rush) against OPPONENT (default bin/bot-random), then GAMES against
# itself, through bin/referee with every log checked by `referee verify`.
# -R plays them in real time instead (at the variant's default pace, or
# -p PACE ms); -S adds a solo series (the second seat declines, so BOT
# plays alone: its uncovered squares are its packing); -j runs JOBS games
# at once (default 1; real-time games mostly wait for the pace); -1 plays
# only the series against OPPONENT.
# Seeds run S, S, S+1, S+1, ... with the seats swapped on each pair; the
# bots get --seed 2S and 2S+1 by seat (BOT and OPPONENT must take --seed,
# as every bots/botio.h bot does). For
# each series it prints BOT's wins, ties and losses (a shared first place
# is a tie), its win rate (ties count half), its mean uncovered squares, and
# how its games fall on the skill chart (the chart leaves gaps; a count in
# a gap goes to the band below it):
#
#   0-8 block star, 9-16 block jock, 17-24 starting block, 25+ blockhead.
#
# -H plays the games in bin/bot-rush's own in-process lockstep harness
# instead (no referee, no logs; same rules, much faster; the opponent is
# then bot-random's policy or the AI itself). Exits 1 when a game could not
# be played or a log did not verify. Run from the repository top.
games=200
seed=1
keep=
harness=0
realtime=0
pace=
solo=0
only=0
jobs=1
referee=${REFEREE:-bin/referee}
usage() { echo "usage: $0 [-n GAMES] [-s SEED] [-k LOGDIR] [-r REFEREE] [-H] [-R] [-p PACE] [-S] [-j JOBS] [-1] [BOT [OPPONENT]]" >&2; exit 2; }
while getopts n:s:k:r:HRp:Sj:1 opt; do
	case $opt in
	1) only=1 ;;
	R) realtime=1 ;;
	p) pace=$OPTARG ;;
	S) solo=1 ;;
	j) jobs=$OPTARG ;;
	n) games=$OPTARG ;;
	s) seed=$OPTARG ;;
	k) keep=$OPTARG ;;
	r) referee=$OPTARG ;;
	H) harness=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 2 ] || usage
case $games in '' | *[!0-9]*) usage ;; esac
case $seed in '' | *[!0-9]*) usage ;; esac
bot=${1:-bin/bot-rush}
opp=${2:-bin/bot-random}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rush-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
logs=${keep:-$tmp}
mkdir -p "$logs" || exit 1
bad=0

# series NAME OPPONENT: writes $tmp/NAME.rows, one line per game:
# SEED SEAT MY_RANK THEIR_RANK MY_UNCOVERED THEIR_UNCOVERED
# (a solo series keeps BOT in seat 0 against a seat that declines)
series() {
	name=$1 other=$2
	i=0
	while [ "$i" -lt "$games" ]; do echo "$i"; i=$((i + 1)); done |
		xargs -P "$jobs" -I{} sh "$tmp/one.sh" "$name" "$other" {} >"$tmp/$name.rows"
	bad=$((bad + $(cat "$tmp"/bad.* 2>/dev/null | wc -l)))
	rm -f "$tmp"/bad.*
}
write_one() {
mode="--option lockstep=1"
if [ "$realtime" = 1 ]; then
	mode="--option lockstep=0"
	[ -n "$pace" ] && mode="$mode --option pace=$pace"
fi
cat >"$tmp/one.sh" <<ONE
name=\$1 other=\$2 i=\$3
s=\$(($seed + i / 2))
seat=\$((i % 2))
[ "\$other" = decline ] && seat=0
log="$logs/\$name-\$i.log"
# Each program gets its own seed, so that games differ by seed.
if [ "\$other" = decline ]; then
	a="$bot --seed \$((2 * s))" b="sh -c 'read l; read l; echo decline solo; cat >/dev/null'"
elif [ "\$seat" = 0 ]; then
	a="$bot --seed \$((2 * s))" b="\$other --seed \$((2 * s + 1))"
else
	a="\$other --seed \$((2 * s))" b="$bot --seed \$((2 * s + 1))"
fi
if ! "$referee" play --variant rush $mode --seed "\$s" --time game:600000 --json --log "\$log" \\
	"\$a" "\$b" >"\$log.json" 2>"\$log.err" || ! "$referee" verify "\$log" >/dev/null 2>>"\$log.err"; then
	echo "\$name game \$i (seed \$s): referee failed:" >&2
	cat "\$log.err" >&2
	echo x >"$tmp/bad.\$\$"
	exit 0
fi
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
me = int(sys.argv[2])
s = {x["seat"]: x for x in r["seats"]}
print(sys.argv[3], me, s[me]["rank"], s[1 - me]["rank"], s[me]["score"], s[1 - me]["score"])
' "\$log.json" "\$seat" "\$s" || echo x >"$tmp/bad.\$\$"
ONE
}

# harness NAME KIND: the same rows from bot-rush's in-process harness, the
# AI in seat 0 of even games and seat 1 of odd ones.
harness() {
	name=$1 kind=$2
	half=$(((games + 1) / 2))
	"$bot" --harness "$half" "$seed" ai "$kind" >"$tmp/h0" || bad=$((bad + 1))
	"$bot" --harness "$half" "$seed" "$kind" ai >"$tmp/h1" || bad=$((bad + 1))
	awk -v n="$games" -v seed="$seed" '
	function row(line, me,    f, u, r) {
		split(line, f, " ")
		split(substr(f[4], 11), u, ",")
		split(substr(f[5], 7), r, ",")
		return sprintf("%d %d %d %d %d %d", seed + f[2] - 1, me, r[me + 1], r[2 - me], u[me + 1], u[2 - me])
	}
	FNR == 1 { file++ }
	file == 1 { a[FNR] = $0 }
	file == 2 { b[FNR] = $0 }
	END { for (i = 0; i < n; i++) print row(i % 2 ? b[int(i / 2) + 1] : a[int(i / 2) + 1], i % 2) }
	' "$tmp/h0" "$tmp/h1" >"$tmp/$name.rows"
}

summary() {
	name=$1 label=$2
	awk -v label="$label" '
	{
		n++
		if ($3 < $4) w++; else if ($3 == $4) t++; else l++
		u += $5; ou += $6
		if ($5 <= 8) star++; else if ($5 <= 16) jock++; else if ($5 <= 24) start++; else head++
	}
	END {
		if (!n) { print label ": no games"; exit }
		printf "%s: %d games, won %d tied %d lost %d, win rate %.1f%% (ties half)\n",
			label, n, w, t, l, 100 * (w + t / 2) / n
		printf "  mean uncovered %.2f (opponent %.2f)\n", u / n, ou / n
		printf "  skill chart: block star (0-8) %d, block jock (9-16) %d, starting block (17-24) %d, blockhead (25+) %d\n",
			star, jock, start, head
	}' "$tmp/$name.rows"
}

if [ "$harness" = 1 ]; then
	[ -x "$bot" ] || { echo "$0: no $bot (make it first)" >&2; exit 1; }
	harness random random
	harness self ai
	echo "rush, 2 players, lockstep, in-process harness of $bot, seeds from $seed"
	summary random "$bot vs bot-random's policy"
	summary self "$bot vs itself"
else
	[ -x "$referee" ] || { echo "$0: no referee at $referee (make it first)" >&2; exit 1; }
	write_one
	series random "$opp"
	[ "$only" = 1 ] || series self "$bot"
	[ "$solo" = 1 ] && series solo decline
	how=lockstep
	[ "$realtime" = 1 ] && how="real time${pace:+ at pace $pace ms}"
	echo "rush, 2 players, $how, through $referee, seeds from $seed, every log verified"
	summary random "$bot vs $opp"
	[ "$only" = 1 ] || summary self "$bot vs itself"
	[ "$solo" = 1 ] && summary solo "$bot alone (the other seat declines)"
fi
echo "games failed: $bad"
[ "$bad" = 0 ]
