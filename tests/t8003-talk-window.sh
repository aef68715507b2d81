#!/bin/sh
# t8003-talk-window: a matrix table with a talk window (option `talk`):
# a scripted person (tests/talk-person.py) moves at once, then talks with
# six bot-matrix each round and moves again: its move stays open (the
# later one is played), its offers are answered,
# a gift of its lands, a bot offers it a trade, a `say` gets a reply. The
# rounds of 20 in which each happens are counted and printed; the log
# verifies, and a rerun plays the same window (the same game, or talk in
# another order, which the rerun names). Seven bots with talk=0 (the
# default) place the same moves as with talk unset and record no window.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-matrix"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
ai="$top/bin/bot-matrix"
person="python3 $top/tests/talk-person.py $tmp/stats"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"
talk=$(ms 150)
# levels 1-4 with the person (level 5, slower to think, in the others)
bots="$ai --level 1|$ai --level 2 --seed 3|$ai --level 3 --seed 4|$ai --level 4 --seed 5|$ai --level 2 --seed 6|$ai --level 3 --seed 7"
table() { # LOG OPTION PERSON-OR-BOT [SEED]
	log=$1 opt=$2 first=$3 seed=${4:-4}
	IFS='|'
	# shellcheck disable=SC2086
	set -- $bots
	unset IFS
	"$ref" play --sandbox off --variant matrix --seed "$seed" --time "$time" --option target=999 $opt \
		--json --log "$log" "$first" "$@" >"$log.json" 2>"$log.err"
}
rounds() { awk -v w="$1" '$2 == w' "$tmp/stats" | wc -l; }

echo "1..10"
: >"$tmp/stats"
table "$tmp/talk.log" "--option rounds=20 --option talk=$talk" "$person" 7
check "a person and six bots, a talk window of $talk ms: no fault, ended by the rules" clean "$tmp/talk.log.json"
nr=$(grep -c '^joint' "$tmp/talk.log")
say=$(rounds say) offer=$(rounds offer) gift=$(rounds gift) botoffer=$(rounds bot-offer)
echo "# rounds of $nr: a say answered in $say, the person's offer answered in $offer," \
	"a bot offered the person a trade in $botoffer, a gift landed in $gift (3 gifts)"
check "the person's move stays open: nothing it sends is refused 'moved'" \
	sh -c "! grep -q '^> 0 +[0-9]* refused [a-z]* moved' '$tmp/talk.log'"
check "a say gets a reply in most rounds ($say of $nr)" [ $((say * 2)) -gt "$nr" ]
check "an offer to a bot gets an answer in most rounds ($offer of $nr)" [ $((offer * 2)) -gt "$nr" ]
check "a bot makes the person an offer ($botoffer rounds) and a gift lands ($gift)" \
	[ "$botoffer" -gt 0 -a "$gift" -gt 0 ]
# the person's second move of a round (sent after its talk) is the one played
changed=$(awk '/^> 0 \+[0-9]* go / { n = 0 } /^< 0 \+[0-9]* move / { m[++n] = $5 }
	/^submit 0 / { if (n >= 2 && $3 == m[n] && m[1] != m[n]) c++ } END { print c + 0 }' "$tmp/talk.log")
check "a move sent in the window is replaced by the later one ($changed rounds)" [ "$changed" -gt 0 ]
check "the log records the window and verifies" \
	sh -c "grep -q '^# the talk window closes' '$tmp/talk.log' && '$ref' verify '$tmp/talk.log' >/dev/null 2>&1"
# A rerun of a short game with the window: the same game, or the talk in
# another order (bots' timing), never another rule.
table "$tmp/short.log" "--option rounds=3 --option talk=$talk" "$ai --level 5 --seed 2"
"$ref" rerun --sandbox off --trust-log --log "$tmp/again.log" "$tmp/short.log" >"$tmp/rerun.out" 2>&1
status=$?
check "a rerun plays the window again (exit $status)" \
	sh -c "grep -q 'talk:$talk' '$tmp/again.log' && grep -q '^# the talk window closes' '$tmp/again.log' &&
		{ [ $status = 0 ] || grep -q 'table talk is applied in the order it arrives' '$tmp/rerun.out'; }"
# Without a window nothing changes: the same moves, no window in the log.
table "$tmp/zero.log" "--option rounds=4 --option talk=0" "$ai --level 5 --seed 2"
table "$tmp/unset.log" "--option rounds=4" "$ai --level 5 --seed 2"
moves() { grep -E '^(submit|joint|chance|result|missing|fault)' "$1" | sed 's/ wall=.*//'; }
check "talk=0: no window in the log" sh -c "! grep -q 'talk window' '$tmp/zero.log'"
moves "$tmp/zero.log" >"$tmp/zero.moves"
moves "$tmp/unset.log" >"$tmp/unset.moves"
check "talk=0 plays as with talk unset (the same moves)" \
	sh -c "[ -s '$tmp/zero.moves' ] && cmp -s '$tmp/zero.moves' '$tmp/unset.moves'"
[ "$fail" = 0 ]
