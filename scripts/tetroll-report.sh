#!/bin/sh
# tetroll-report: solo Tetroll scores of one or more bots over GAMES seeds
# (default 1000, seeds 1..GAMES), played through bin/referee: every game is
# `referee play --variant tetroll --seed N BOT`, every log must pass
# `referee verify`, and the final sheet is read from `referee view`. Prints,
# per bot, the mean score with its 95% interval (1.96 standard errors), the
# median, and the share of games reaching each solo objective of the
# rulebook with its 95% Wilson interval:
#
#   "For Mother Russia!"   80+ points with no bonus track completed
#   "Go East, Conrad!"     100+ points with 4+ rows reading 1-2-3-4-5-6
#   "As high as Sputnik!"  140+ points
#
#   scripts/tetroll-report.sh [-n GAMES] [-j JOBS] [-k LOGDIR] [-r REFEREE] [-t MS] [-g MS] [-i] [BOT...]
#
# BOTs default to bin/bot-tetroll and bin/bot-random; each is a command line
# as `referee play` takes it. -t gives MS a move (`--time move:MS`, and
# the in-process AI set up for MS; default: the default controls, 5 s a
# move). -g gives the referee's grace margin, MS past each move's time
# before the move is late (`--time grace:MS`; default the referee's, 50
# ms): with `bin/bot-tetroll --no-clock`, whose search never looks at the
# clock, a large one keeps a slow machine from turning a move into a
# timeout. -j runs that many games at once (default 2).
# -i plays in-process instead (build/opt/tests/prog-tetroll-solo, the same
# choose functions and dice, no referee): only for the two default bots,
# much faster, and for the AI the same games as through the referee as long
# as no search stops on the clock, at a third of the move's time (a loaded
# machine can reach it; `bin/bot-tetroll --no-clock` never stops there).
# Through the referee a second line per bot counts the games with a fault
# and gives the slowest move (wall ms, from the logs).
# Exits 1 when a game could not be played or a log did not verify. Run from
# the repository top.
#
# Measured on 2026-11-23 (through the referee on the shared 2-core
# machine; docs/ai/tetroll.md has the table):
#   bot-tetroll  64 rollouts (capped, shared out), follow-ups by
#                rollouts, 1000 games at -j 2, 45 minutes: mean 122.9
#                +- 1.0, median 124, min 52, max 161, 140+ 13.1% [11.1,
#                15.3], no fault, slowest move 0.98 s
#   bot-tetroll  64 rollouts (capped), 1000 games at -j 2, 45 minutes:
#                mean 120.0 +- 1.0, median 121, min 54, max 168, 140+
#                9.2% [7.6, 11.2], no fault, slowest move 2.9 s
#   bot-tetroll  32 rollouts, 1000 games at -j 2, 26 minutes: mean
#                118.4 +- 1.0, median 120, min 47, max 156, 140+ 9.3%
#                [7.7, 11.3], no fault, slowest move 0.85 s
#   bot-tetroll  the same, its first 500 seeds at -j 1, 23 minutes: mean
#                118.6 +- 1.4, median 119, min 47, max 155, 140+ 10.8%
#                [8.4, 13.8], no fault, slowest move 1.0 s
#   bot-tetroll  before rollouts, 1000 games at -j 2, 7 minutes: mean
#                115.0 +- 1.0, median 116, min 46, max 157, 140+ 5.5%
#   bot-tetroll --objective mother-russia  300 games: mean 66.1, objective 0%
games=1000
jobs=2
keep=
inproc=0
movems=
grace=
referee=${REFEREE:-bin/referee}
usage() { echo "usage: $0 [-n GAMES] [-j JOBS] [-k LOGDIR] [-r REFEREE] [-t MS] [-g MS] [-i] [BOT...]" >&2; exit 2; }
while getopts n:j:k:r:t:g:i opt; do
	case $opt in
	n) games=$OPTARG ;;
	j) jobs=$OPTARG ;;
	k) keep=$OPTARG ;;
	r) referee=$OPTARG ;;
	t) movems=$OPTARG ;;
	g) grace=$OPTARG ;;
	i) inproc=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
case $games in '' | *[!0-9]*) usage ;; esac
case $jobs in '' | *[!0-9]* | 0) usage ;; esac
case $movems$grace in *[!0-9]*) usage ;; esac
[ $# -gt 0 ] || set -- bin/bot-tetroll bin/bot-random
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tetroll-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# summarize NAME < lines "seed=N score=S bonuses=B ordered=K"
summarize() {
	awk -v name="$1" '
	{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		s = f["score"] + 0; score[n++] = s; sum += s; sq += s * s
		if (s >= 80 && f["bonuses"] == 0) russia++
		if (s >= 100 && f["ordered"] >= 4) conrad++
		if (s >= 140) sputnik++
	}
	# the 95% Wilson interval of k successes in n, as "[lo, hi]" percent
	function wilson(k,   p, z, d, c, h) {
		z = 1.96; p = k / n; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
		h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		return sprintf("[%.1f, %.1f]", 100 * (c - h), 100 * (c + h))
	}
	END {
		if (!n) { print name ": no games"; exit 1 }
		for (i = 1; i < n; i++) for (j = i; j > 0 && score[j-1] > score[j]; j--) { t = score[j]; score[j] = score[j-1]; score[j-1] = t }
		med = n % 2 ? score[(n-1)/2] : (score[n/2-1] + score[n/2]) / 2
		var = n > 1 ? (sq - sum * sum / n) / (n - 1) : 0
		printf "%-28s games %5d  mean %6.1f +- %.1f  median %5.1f  min %4d  max %4d  80+/no bonus %5.1f%% %s  100+/4 rows 1-6 %5.1f%% %s  140+ %5.1f%% %s\n", \
			name, n, sum / n, 1.96 * sqrt(var > 0 ? var : 0) / sqrt(n), med, score[0], score[n-1], \
			100 * russia / n, wilson(russia), 100 * conrad / n, wilson(conrad), 100 * sputnik / n, wilson(sputnik)
	}'
}

if [ "$inproc" = 1 ]; then
	prog=${TETRARENA_BUILD:-build/opt}/tests/prog-tetroll-solo
	[ -x "$prog" ] || { echo "$0: no $prog (make it first)" >&2; exit 1; }
	for policy in ai random; do
		"$prog" $policy "$games" 1 ${movems:+budget=$movems} >"$tmp/$policy" || exit 1
		case $policy in ai) name="bot-tetroll (in-process)" ;; *) name="bot-random (in-process)" ;; esac
		summarize "$name" <"$tmp/$policy"
	done
	exit 0
fi

[ -x "$referee" ] || { echo "$0: no referee at $referee (make it first)" >&2; exit 1; }
logs=${keep:-$tmp/logs}
mkdir -p "$logs" || exit 1
# the referee's --time: the move's time and the grace margin, as given
timectl=${movems:+move:$movems}
[ -z "$grace" ] || timectl=${timectl:+$timectl,}grace:$grace

# One game: SEED BOT -> a result line on stdout, or "bad SEED" on failure.
cat >"$tmp/one.sh" <<'EOF'
seed=$1 bot=$2 referee=$3 logs=$4 tag=$5 timectl=$6
log="$logs/$tag-$seed.log"
if ! "$referee" play --variant tetroll --seed "$seed" ${timectl:+--time $timectl} --log "$log" "$bot" >/dev/null 2>&1 ||
   ! "$referee" verify "$log" >/dev/null 2>&1; then
	echo "bad $seed"
	exit 0
fi
"$referee" view --no-colour "$log" 2>/dev/null | awk -v seed="$seed" '
/^ *seat 0 *$/ { nrow = 0; ordered = 0; next }
/^ *[0-9]+ \|/ {
	line = $0; sub(/^ *[0-9]+ \| /, "", line); split(line, parts, " \\|")
	if (parts[1] == "1 2 3 4 5 6" && parts[2] ~ /[0-9]/) ordered++
	next
}
/^seat 0: -?[0-9]+ points/ { score = $3 }
/^  tracks/ { done = gsub(/FIRST|runner-up/, "&") }
/^result:/ { if ($0 ~ /faults=-/) clean = 1 }
END { printf "seed=%s score=%d bonuses=%d ordered=%d clean=%d", seed, score, done, ordered, clean }'
# the slowest move of the game, wall milliseconds as the log records them
awk '/^move 0 .* wall=/ { for (i = 1; i <= NF; i++) if ($i ~ /^wall=/) { w = substr($i, 6) + 0; if (w > m) m = w } }
END { printf " slowest=%.0f\n", m }' "$log"
EOF

status=0
for bot in "$@"; do
	# the command line, its directories and blanks made file-name safe
	tag=$(printf '%s' "${bot%% *}" | sed 's,.*/,,')$(printf '%s' "${bot#"${bot%% *}"}" | tr -c 'A-Za-z0-9_.-' _)
	seq 1 "$games" | xargs -P "$jobs" -I{} sh "$tmp/one.sh" {} "$bot" "$referee" "$logs" "$tag" "$timectl" >"$tmp/$tag.out"
	bad=$(grep -c '^bad' "$tmp/$tag.out")
	faults=$(grep -c 'clean=0' "$tmp/$tag.out")
	if [ "$bad" != 0 ]; then
		echo "$tag: $bad games failed or did not verify" >&2
		status=1
	fi
	[ "$faults" = 0 ] || echo "$tag: $faults games with a fault" >&2
	grep -v '^bad' "$tmp/$tag.out" | summarize "$tag (referee, verified)" || status=1
	grep -v '^bad' "$tmp/$tag.out" | awk -v tag="$tag" -v faults="$faults" '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^slowest=/) { w = substr($i, 9) + 0; if (w > m) m = w } }
	END { printf "%-28s games with a fault %d, slowest move %.0f ms\n", tag, faults, m }'
done
exit $status
