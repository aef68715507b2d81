#!/bin/sh
# t2012-referee-position: `referee position LOG --seat S --step N [BOT]`
# puts a logged decision to a bot again. bin/bot-link searches to a depth
# chosen by time unless told a depth, so its game is played with --depth 2
# (a fixed search, far inside the move time): asked again, it answers
# every decision exactly as logged (--step and --all); bin/bot-random at
# the same step gives its own legal answer beside the logged move; a bot
# that echoes its input on stderr shows the seat's logged lines exactly,
# and its bad answer is called ILLEGAL (exit 1).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-link" "$top/bin/bot-random"
link="$top/bin/bot-link --depth 2"
echo "1..11"
"$ref" play --variant link --seed 5 --log "$tmp/g.log" "$link" "$top/bin/bot-random" >"$tmp/play" 2>&1
check "a game of bot-link --depth 2 against bot-random" [ -s "$tmp/g.log" ]
# the move seat 0 answered to its 5th go, from the log itself
logged=$(awk '$1 == ">" && $2 == 0 && $4 == "go" { n++ } $1 == "<" && $2 == 0 && $4 == "move" && n == 5 && !done { print $5; done = 1 }' "$tmp/g.log")
"$ref" position "$tmp/g.log" --seat 0 --step 5 >"$tmp/link" 2>&1
st=$?
check "bot-link asked step 5 again: exit $st, its answer is the logged $logged" \
	sh -c "[ $st = 0 ] && [ -n '$logged' ] && grep -q '^answer: $logged ([0-9.]* ms), legal\$' '$tmp/link'"
check "... the logged move and the verdict shown" \
	sh -c "grep -q '^the logged bot played: $logged\$' '$tmp/link' && grep -q '^the same move as the logged bot\$' '$tmp/link'"
check "... its info line and the legal moves" \
	sh -c "grep -q '^its line: info ' '$tmp/link' && grep -Eq '^legal moves \([0-9]+\): .* $logged( |\$)' '$tmp/link'"
"$ref" position "$tmp/g.log" --seat 0 --all >"$tmp/all" 2>&1
check "--all: every decision of bot-link answered as logged (exit $?)" \
	grep -Eq '^[0-9]+ decisions of seat 0 asked, 0 answered otherwise than the logged bot, 0 not legal' "$tmp/all"
"$ref" position "$tmp/g.log" --seat 0 --step 5 "$top/bin/bot-random" >"$tmp/random" 2>&1
check "bot-random at the same step: its own legal answer (exit $?)" \
	sh -c "grep -Eq '^answer: [A-Z][0-9]@[0-9]+ \([0-9.]* ms\), legal\$' '$tmp/random' && grep -q '^the logged bot played: $logged\$' '$tmp/random'"
"$ref" position "$tmp/g.log" --seat 0 --all "$top/bin/bot-random" >"$tmp/rall" 2>&1
check "--all with bot-random lists the steps where it differs" \
	sh -c "grep -Eq '^  step [0-9]+ \(log line [0-9]+\): logged [^ ]+, new ' '$tmp/rall' && ! grep -q ' 0 answered otherwise' '$tmp/rall'"

# a bot that writes every line it receives to stderr and answers `x`
cat >"$tmp/echo.sh" <<'EOS'
#!/bin/sh
while IFS= read -r line; do
	printf '%s\n' "$line" >&2
	case $line in
	game*) echo "hello echo 1" ;;
	go*) echo "move x" ;;
	quit*) exit 0 ;;
	esac
done
EOS
chmod +x "$tmp/echo.sh"
"$ref" position "$tmp/g.log" --seat 0 --step 5 "$tmp/echo.sh" >"$tmp/echo" 2>&1
st=$?
# (the `moves` lines follow the new bot's hello: this one asks for none)
awk '$1 == ">" && $2 == 0 { go = $4 == "go"; if (n == 4 && $4 != "moves") { sub(/^> 0 \+[0-9]+ /, ""); print } if (go) n++ }' "$tmp/g.log" >"$tmp/want"
sed -n 's/^  | //p' "$tmp/echo" >"$tmp/got"
check "the lines after its 4th go up to its 5th, exactly as logged but the moves it did not ask for ($(wc -l <"$tmp/want") lines)" \
	sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
# a bot that asks for `moves`, on a log whose bot asked for none (bot-random
# with the feature taken off its hello): it gets them, the legal moves of
# each state, as bot-link's game logged them (the stderr shown is what came
# after the step before)
sed 's/echo "hello echo 1"/echo "hello echo 1 moves"/' "$tmp/echo.sh" >"$tmp/echom.sh"
chmod +x "$tmp/echom.sh"
"$ref" play --sandbox off --variant link --seed 5 --log "$tmp/nomoves.log" \
	"sh -c '$top/bin/bot-random --seed 1 | sed -u \"s/^hello \\(.*\\) moves/hello \\1/\"'" "$top/bin/bot-random" >/dev/null 2>&1
"$ref" position "$tmp/nomoves.log" --seat 0 --step 3 "$tmp/echom.sh" >"$tmp/echom" 2>&1
check "a log without moves lines: none in it for seat 0 ($(grep -c '^> 0 [^ ]* moves ' "$tmp/nomoves.log"))" \
	sh -c "grep -q '^> 0 .* go ' '$tmp/nomoves.log' && ! grep -q '^> 0 [^ ]* moves ' '$tmp/nomoves.log'"
"$ref" position "$tmp/g.log" --seat 0 --step 5 "$tmp/echom.sh" >"$tmp/echog" 2>&1
sed -n 's/^  | \(moves .*\)/\1/p' "$tmp/echog" >"$tmp/gotm"
awk '$1 == ">" && $2 == 0 && $4 == "go" { n++ } $1 == ">" && $2 == 0 && $4 == "moves" && n == 4 { sub(/^> 0 \+[0-9]+ /, ""); print }' "$tmp/g.log" >"$tmp/wantm"
check "a bot whose hello asks for moves gets them before its go, as in a logged game that had them ($(wc -l <"$tmp/wantm") line)" \
	sh -c "grep -q '^  | moves ' '$tmp/echom' && [ -s '$tmp/wantm' ] && cmp -s '$tmp/wantm' '$tmp/gotm'"
# a bot that exits before its first decision: one clear line, exit 1
"$ref" position "$tmp/g.log" --seat 0 --step 5 "sh -c 'exit 3'" >"$tmp/dead" 2>&1
st=$?
check "a bot that exits at once: 'stopped before its first decision', exit 1 (exit $st)" \
	sh -c "[ $st = 1 ] && grep -q 'stopped before its first decision' '$tmp/dead'"
exit $fail
