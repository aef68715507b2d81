#!/bin/sh
# rush-pace: is real time fair to every language at a pace? Plays rush in
# real time between bots that all play uniformly random legal moves, so
# that only speed can make a difference: the Python and JavaScript starter
# bots (bots/starter/) and bin/bot-random, each pairing over GAMES seeds
# with the seats swapped on every other game, at each PACE given.
#
#   scripts/rush-pace.sh [-n GAMES] [-s SEED] [-j JOBS] [PACE...]
#
# For each pace and pairing it prints the first bot's share of the blocks
# taken from the box (mean over games, with a 95% interval from the
# games' spread) and of the games won (ties half). A fair pace gives 50%
# within the interval. Defaults: 20 games, seed 1, 4 games at once, paces
# 0 (the race) and 100 (the default). Run from the repository top after
# make; run it niced on a shared machine (timing is what it measures).
games=20
seed=1
jobs=4
usage() { echo "usage: $0 [-n GAMES] [-s SEED] [-j JOBS] [PACE...]" >&2; exit 2; }
while getopts n:s:j: opt; do
	case $opt in
	n) games=$OPTARG ;;
	s) seed=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 0 100
ref=${REFEREE:-bin/referee}
[ -x "$ref" ] || { echo "$0: no $ref (run make)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rush-pace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
py="python3 bots/starter/starter.py"
js="node bots/starter/starter.js"
rnd="bin/bot-random"
bad=0

# one PACE A B NAME I: game I of the pairing, A in seat I % 2; prints
# "A_TAKES B_TAKES A_RANK B_RANK"
cat >"$tmp/one.sh" <<'ONE'
pace=$1 a=$2 b=$3 name=$4 i=$5 seed=$6 ref=$7 tmp=$8
s=$((seed + i / 2))
log="$tmp/$name-$pace-$i.log"
if [ $((i % 2)) = 0 ]; then x="$a $((2 * s))" y="$b $((2 * s + 1))" me=0
else x="$b $((2 * s))" y="$a $((2 * s + 1))" me=1; fi
case $x in bin/*) x="${x% *} --seed ${x##* }" ;; esac
case $y in bin/*) y="${y% *} --seed ${y##* }" ;; esac
"$ref" play --variant rush --seed "$s" --option pace="$pace" --time game:120000 --json \
	--log "$log" "$x" "$y" >"$log.json" 2>/dev/null && "$ref" verify "$log" >/dev/null 2>&1 || {
	echo "FAILED $name pace $pace game $i" >&2
	exit 1
}
ta=$(grep -c "^move $me take:" "$log")
tb=$(grep -c "^move $((1 - me)) take:" "$log")
set -- $(grep -o '"rank":[0-9]*' "$log.json" | cut -d: -f2)
if [ "$me" = 0 ]; then echo "$ta $tb $1 $2"; else echo "$ta $tb $2 $1"; fi
ONE

for pace; do
	for pair in "py:$py:rnd:$rnd" "js:$js:rnd:$rnd" "py:$py:js:$js"; do
		an=${pair%%:*} rest=${pair#*:}
		a=${rest%%:*} rest=${rest#*:}
		bn=${rest%%:*} b=${rest#*:}
		name="$an-$bn"
		i=0
		while [ $i -lt "$games" ]; do echo $i; i=$((i + 1)); done |
			xargs -P "$jobs" -I{} sh "$tmp/one.sh" "$pace" "$a" "$b" "$name" {} "$seed" "$ref" "$tmp" \
			>"$tmp/$name-$pace.rows" || bad=$((bad + 1))
		awk -v label="pace $pace: $an vs $bn" '
		{ n++; sh = ($1 + $2) ? $1 / ($1 + $2) : 0.5; s += sh; ss += sh * sh
		  w += ($3 < $4) + 0.5 * ($3 == $4) }
		END {
			if (!n) { print label ": no games"; exit }
			m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0
			printf "%s: %d games, %s share of blocks %.1f%% +- %.1f, games won %.1f%%\n",
				label, n, substr(label, index(label, ":") + 2, 2), 100 * m, 196 * sd / sqrt(n), 100 * w / n
		}' "$tmp/$name-$pace.rows"
	done
done
echo "pairings failed: $bad"
[ "$bad" = 0 ]
