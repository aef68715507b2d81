#!/bin/sh
# t2006-html-pages: the HTML replay of every variant and a tournament's
# report.html, opened in headless Chromium (tests/browser.py) as a person
# would: no network, no console error; each replay is stepped through with
# its own controls to the last move, and the scores and ranks it shows are
# the log's result. Fixtures are real games: link, a solo tetroll game,
# rush, a 7-seat Main Match with table talk, and a game with faults. The
# screenshots are kept in build/pages/ for a person to look at.
# The fixtures (games and tournaments) are made first, side by side, then
# one Chromium opens every page in turn (tests/browser.py pages), then the
# checks read what it showed.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-rush" "$top/bin/bot-random" \
	"$build/tests/prog-socialbot" "$build/tests/prog-fakebot"
command -v chromium >/dev/null || { echo "Bail out! chromium is missing: run make deps"; exit 1; }
# python3 itself, found once: a version manager's python3 (pyenv's shim) is
# a script that costs more than the Python it starts, and the checks
# below start Python some fifty times
py=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$py" ] || py=python3
rnd="$top/bin/bot-random"
soc="$build/tests/prog-socialbot"
shots="$build/pages"
mkdir -p "$shots"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

echo "1..39"
# game NAME VARIANT SEED BOT...: a real game, its log in $tmp/NAME.log
game() {
	name=$1 variant=$2 seed=$3
	shift 3
	"$ref" play --variant "$variant" --seed "$seed" --time "$time" --log "$tmp/$name.log" "$@" \
		>"$tmp/$name.out" 2>&1
}
# bot-link thinks for a share of its move time: a shorter one for it
game link link 2 --time "bank:$(ms 60000),inc:$(ms 1000),move:$(ms 1000),start:$(ms 10000)" "$top/bin/bot-link" "$rnd" &
game tetroll tetroll 4 "$rnd" &
# rush in real time: at 20 ms a seat's action (not the default 100) the
# same kind of game takes a fifth of the wall time
game rush rush 1 --option pace=20 "$top/bin/bot-rush" "$rnd" &
game matrix matrix 6 "$rnd" "$soc" "$rnd" "$soc" "$rnd" "$soc" "$rnd" &
game faults link 3 --fault-policy random "$rnd" "$build/tests/prog-fakebot illegal" &
# a bot's stderr, step by step, in the replay
cat >"$tmp/errbot.sh" <<'EOS'
#!/bin/sh
# plays the first legal move; on stderr: "starting", then for its K-th go
# "thinking K" and "chose MOVE" (without the last newline)
first= k=0
while IFS= read -r line; do
	case $line in
	game*) echo starting >&2; echo "hello errbot 1 moves" ;;
	moves*) [ -z "$first" ] && { set -- $line; first=$2; } ;;
	go*) k=$((k + 1)); printf 'thinking %d\nchose %s' "$k" "$first" >&2; echo "move $first"; first= ;;
	quit*) exit 0 ;;
	esac
done
EOS
chmod +x "$tmp/errbot.sh"
game errs link 2 "$tmp/errbot.sh" "$rnd" &
# a tournament's report
"$ref" tournament --variant link --players 2 --games 1 --seed 5 --time "$time" --bootstrap 50 \
	-o "$tmp/tour" --bot "a=$top/bin/bot-link --depth 1" --bot "b=$rnd" --bot "c=$rnd" \
	>"$tmp/tour.out" 2>&1 &
# 3 seats of rush in real time, at 1 ms a seat's action (six games)
"$ref" tournament --variant rush --players 3 --games 1 --seed 5 --time "$time" --option pace=1 --bootstrap 20 \
	-o "$tmp/tour3" --bot "a=$rnd" --bot "b=$rnd" --bot "c=$rnd" >"$tmp/tour3.out" 2>&1 &
# an SPRT run, and a partial one (a bot that cannot start)
"$ref" tournament --variant link --games 4 --seed 6 --time "$time" --bootstrap 20 -q \
	--sprt elo0=0,elo1=30 -o "$tmp/sprt" --bot "a=$top/bin/bot-link --depth 1" --bot "b=$rnd" >/dev/null 2>&1 &
"$ref" tournament --variant link --players 2 --games 2 --seed 7 --time "$time" --bootstrap 20 -q \
	-o "$tmp/part" --bot "a=$rnd" --bot "b=$rnd" --bot "gone=$tmp/no-such-bot" >/dev/null 2>&1 &
wait
check "the fixtures: the matrix game has table talk, the faults game faults" \
	sh -c "grep -q '^side [0-9] ok say' '$tmp/matrix.log' && grep -q '^fault 1 illegal' '$tmp/faults.log'"

pages=
for v in link tetroll rush matrix faults; do
	"$ref" view --html "$tmp/$v.log" -o "$tmp/$v.html" 2>"$tmp/$v.err" || echo "view --html $v: $(cat "$tmp/$v.err")"
	pages="$pages $tmp/$v.html $shots/replay-$v.png"
done
# one file: nothing loaded from elsewhere
self_contained() { [ -s "$1" ] && ! grep -Eiq '<(script|link|img|iframe)[^>]*(src|href)=' "$1"; }
all=0
for v in link tetroll rush matrix faults; do
	self_contained "$tmp/$v.html" || all=1
done
check "every replay is one self-contained file" [ $all = 0 ]
"$ref" view --html "$tmp/errs.log" -o "$tmp/errs.html" 2>"$tmp/errs.err"
# one Chromium for every page: lines 1-5 the replays above (their stderr
# is not read: no step-by-step walk for it), 6 the report,
# 7 the 3-seat rush report, 8 the stderr replay, 9 the SPRT report, 10 the
# partial one
# shellcheck disable=SC2086
"$py" "$top/tests/browser.py" pages $(for p in $pages; do case $p in *.html) printf 'replay-nostderr %s ' "$p" ;; *) printf '%s ' "$p" ;; esac; done) \
	report "$tmp/tour/report.html" "$shots/report.png" report "$tmp/tour3/report.html" "$shots/report-rush3.png" \
	replay "$tmp/errs.html" "$shots/replay-stderr.png" report "$tmp/sprt/report.html" "$shots/report-sprt.png" \
	report "$tmp/part/report.html" "$shots/report-partial.png" >"$tmp/all" 2>"$tmp/browser.err"
[ -s "$tmp/browser.err" ] && sed 's/^/# /' "$tmp/browser.err"
# opened FROM TO: lines FROM..TO of what Chromium showed are there, none an
# error (a console error, an exception, a request elsewhere, no reaction)
opened() { [ "$(sed -n "$1,$2p" "$tmp/all" | grep -c '^{')" = $(($2 - $1 + 1)) ] && ! sed -n "$1,$2p" "$tmp/all" | grep -q '^{"error": '; }
sed -n 1,5p "$tmp/all" >"$tmp/shown"
sed -n 6p "$tmp/all" >"$tmp/report"
sed -n 7p "$tmp/all" >"$tmp/report3"
sed -n 8p "$tmp/all" >"$tmp/errs.shown"
sed -n 9,10p "$tmp/all" >"$tmp/report2"
check "Chromium opens every replay without network or console errors" opened 1 5

# what the page shows at its last step against the log's result line
i=0
for v in link tetroll rush matrix faults; do
	i=$((i + 1))
	shown=$(sed -n "${i}p" "$tmp/shown")
	want=$(sed -n 's/^result ranks=\([^ ]*\) scores=\([^ ]*\) .*/{"scores": [\2], "ranks": [\1]}/p' "$tmp/$v.log" |
		"$py" -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' 2>/dev/null)
	got=$(printf '%s\n' "$shown" | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"scores": d["scores"], "ranks": d["ranks"]}))' 2>/dev/null)
	check "$v: the last step shows the result's scores and ranks ($want)" [ -n "$want" -a "$got" = "$want" ]
	steps=$(printf '%s\n' "$shown" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["steps"])' 2>/dev/null)
	moves=$(grep -cE '^(move|random|joint|chance|halt)( |$)' "$tmp/$v.log")
	check "$v: one step per move, chance move and round ($moves), and a screenshot" \
		[ "$steps" = "$moves" -a -s "$shots/replay-$v.png" ]
	# the drawing, read back from the page, against the engine's own picture
	"$ref" view "$tmp/$v.log" >"$tmp/$v.view" 2>&1
	check "$v: the board drawing shows the final position \`referee view\` prints" \
		"$py" "$top/tests/drawing-check.py" "$(case $v in faults) echo link ;; *) echo $v ;; esac)" \
		"$shown" "$tmp/$v.view"
done
# the replay grown up: it opens on the first move, says the result in
# words (the winner, every seat by rank, a fault explained), the drawing
# takes the window (link's tower: most of its height), the last move's
# cells are marked, and playing at 8x steps on by itself, animated
check "the replays open on their first move, say the result in words, mark the last move and play" "$py" -c "
import json, sys
pages = [json.loads(l) for l in open(sys.argv[1])]
link, faults = pages[0], pages[4]
ok = all(p['first'] > 0 and p['played'] and p['marked'] > 0 for p in pages)
win = link['ranks'].index(1)
ok = ok and link['words'][0].startswith('seat %d (' % win) and ' wins with %d points' % link['scores'][win] in link['words'][0]
ok = ok and link['words'][1][0].startswith('1st: seat %d' % win)
ok = ok and any('illegal: played a move that is not legal' in w for w in faults['words'][1])
w, h, iw, ih = link['size']
ok = ok and h > 0.6 * ih and w > 0.3 * iw
print('# link drawing %dx%d in %dx%d' % (w, h, iw, ih))
sys.exit(0 if ok else 1)" "$tmp/shown"
check "the matrix drawing colours every filled cell by who covered it" "$py" -c "
import json, sys
rows = json.loads(sys.argv[1])['drawn']['field']
sys.exit(0 if rows and not any('#' in r for r in rows) and any(c.isdigit() for r in rows for c in r) else 1)" \
	"$(sed -n 4p "$tmp/shown")"
field() { printf '%s\n' "$1" | "$py" -c "import json,sys; print(json.load(sys.stdin)['$2'])"; }
check "the faults game marks its faults on the score chart" [ "$(field "$(sed -n 5p "$tmp/shown")" faultmarks)" -gt 0 ]

# a tournament's report
check "the tournament writes report.html and every game's replay" \
	sh -c "[ -s '$tmp/tour/report.html' ] && [ \$(ls '$tmp/tour/games/'*.log.html | wc -l) = 6 ]"
check "Chromium opens the report without network or console errors" opened 6 6
check "the report shows standings.json's bots, ratings and game count, a plot and a heat map" "$py" -c "
import json, sys
st = json.load(open('$tmp/tour/standings.json'))
got = json.load(open('$tmp/report'))
want = [b['name'] for b in st['bots']]
ok = got['bots'] == want and got['elo'] == [round(b['elo']) for b in st['bots']] \
    and got['games'] == st['games'] and got['rating_bars'] == len(want) \
    and got['heat_cells'] == len(want) * (len(want) - 1) and got['game_links'] == st['games']
sys.exit(0 if ok else 1)"
check "the report shows the master seed and the sandbox line, red only when bots ran bare" "$py" -c "
import json, sys
st = json.load(open('$tmp/tour/standings.json'))
got = json.load(open('$tmp/report'))
bare = st['sandbox']['off'] + st['sandbox']['unavailable']
ok = 'seed 5 ' in got['header'] and got['sandbox'] == 'sandbox: ' + st['sandbox']['text'] \
    and got['sandbox_loud'] == (bare > 0) and st['games'] > 0
sys.exit(0 if ok else 1)"

check "the report carries the time control, date, referee version and each bot's program hash" "$py" -c "
import json, re, sys
st = json.load(open('$tmp/tour/standings.json'))
got = json.load(open('$tmp/report'))
log = open('$tmp/tour/games/000000.log').read()
shas = dict((m.group(1), m.group(2)) for m in re.finditer(r'^bot \\d+ (\\S+) (\\S+) ', log, re.M))
ok = re.search(r'written \\d{4}-\\d\\d-\\d\\d [\\d:]+ UTC', got['meta']) and 'referee 0.2' in got['meta'] \
    and 'time control bank:' in got['meta'] and 'fault policy ' in got['meta'] \
    and len(got['hashes']) == len(st['bots']) and all(h and len(h) == 64 for h in got['hashes']) \
    and all(shas[n] in got['hashes'] for n in shas)
sys.exit(0 if ok else 1)"
check "the report has the likelihood-of-superiority table and a log-scale time chart" "$py" -c "
import json, sys
got = json.load(open('$tmp/report'))
n = len(got['bots'])
sys.exit(0 if got['los_cells'] == n * (n - 1) and got['time_scale'] == 'log' else 1)"
check "each game row gives its seed (as games.csv) and links each seat's stderr file" "$py" -c "
import csv, json, os, sys
got = json.load(open('$tmp/report'))
rows = list(csv.DictReader(open('$tmp/tour/games.csv')))
seeds = sorted(set((r['id'], r['seed']) for r in rows))
links = got['stderr_links']
ok = sorted(got['seeds']) == sorted(s for _, s in seeds) and len(links) == len(rows) \\
    and all(os.path.exists(os.path.join('$tmp/tour', l)) for l in links) \\
    and all(l.endswith('.seat%s.stderr' % r['seat']) for l, r in zip(sorted(links), sorted(rows, key=lambda r: (r['log'], r['seat']))))
sys.exit(0 if ok and len(seeds) > 0 else 1)"
# 3 seats of rush: no W-D-L (2-seat games only), and the lower score wins
check "a 3-seat rush report: '-' for W-D-L (not undefined), and says the lower score wins" "$py" -c "
import json, sys
got = json.load(open('$tmp/report3'))
w2 = json.load(open('$tmp/report'))['wdl']
ok = got['wdl'] == ['-'] * 3 and 'lower score wins' in got['lower_wins'] and 'uncovered' in got['lower_wins'] \\
    and all(len(x.split('-')) == 3 for x in w2) and json.load(open('$tmp/report'))['lower_wins'] == ''
sys.exit(0 if ok else 1)"

# a bot's stderr, step by step, in the replay
check "the replay shows each decision's stderr, folded, at the step of its move" "$py" -c "
import json, re, sys
log = open('$tmp/errs.log').read()
moves = re.findall(r'^move 0 (\\S+) ', log, re.M)
got = json.load(open('$tmp/errs.shown'))['stderr']
texts = [t for _, _, _, t in got]
want = ['starting'] + ['thinking %d\\nchose %s' % (k + 1, m) for k, m in enumerate(moves)]
steps = [s for s, _, _, t in got if t.startswith('thinking')]
ok = texts == want and len(moves) > 3 and not any(o for _, o, _, _ in got) \\
    and got[1][2] == 'seat 0 stderr (2 lines)' and steps == sorted(steps) and len(set(steps)) == len(steps)
sys.exit(0 if ok else 1)"
check "its charts follow the window's width" "$py" -c "
import json, sys
w = json.load(open('$tmp/report'))['chart_widths']
sys.exit(0 if all(w[1][i] > w[0][i] + 300 for i in range(3)) and w[0][0] <= 700 else 1)"
check "its games table filters by what is typed and sorts by a clicked column, both ways" "$py" -c "
import json, sys
g = json.load(open('$tmp/report'))
up, down = g['plies_up'], g['plies_down']
ok = g['games_rows'] == 6 and 0 < g['filtered_rows'] < 6 and g['filtered_all_match'] \
    and g['filter_count_text'] == '%d of 6 games shown' % g['filtered_rows'] \
    and up == sorted(up) and down == sorted(up, reverse=True) and len(up) == 6 and up != down
sys.exit(0 if ok else 1)"

# an SPRT run's report, and a partial one (a bot that cannot start)
check "Chromium opens an SPRT report and a partial one without errors" opened 9 10
check "the SPRT section shows the LLR, bounds, pentanomial counts and decision of standings.json" "$py" -c "
import json, sys
st = json.load(open('$tmp/sprt/standings.json'))['sprt']
got = dict(json.loads(open('$tmp/report2').readline())['sprt'])
d = {'H1': 'H1 accepted', 'H0': 'H0 accepted'}.get(st['decision'], 'continue (undecided)')
ok = got['LLR'] == '%.2f' % st['llr'] and got['bounds'] == '%.2f … %.2f' % (st['lower'], st['upper']) \
    and got['pentanomial'] == '-'.join(map(str, st['pentanomial'])) and got['decision'] == d \
    and got['test'].startswith(st['first'] + ' against ' + st['second'])
sys.exit(0 if ok else 1)"
check "a partial report says so, and which bot could not start and why" "$py" -c "
import json, sys
got = json.loads(open('$tmp/report2').read().splitlines()[1])
ok = got['partial'].startswith('PARTIAL: ') and any('bot gone' in n and 'cannot start' in n and 'No such file' in n for n in got['notes'])
sys.exit(0 if ok else 1)"

# the command line
"$ref" view --html "$tmp/link.log" -o - >"$tmp/stdout.html" 2>/dev/null
check "view --html -o - writes the page to stdout" cmp -s "$tmp/stdout.html" "$tmp/link.html"
"$ref" view --html "$tmp/tetroll.log" 2>/dev/null
check "view --html without -o writes LOG.html" self_contained "$tmp/tetroll.log.html"
"$ref" view -o "$tmp/x.html" "$tmp/link.log" >/dev/null 2>&1
check "-o without --html is a usage error" [ $? = 2 ]
head -n 20 "$tmp/link.log" >"$tmp/cut.log"
"$ref" view --html "$tmp/cut.log" -o "$tmp/cut.html" 2>/dev/null
check "a log that ends before its result makes no page" [ $? = 1 -a ! -e "$tmp/cut.html" ]
exit $fail
