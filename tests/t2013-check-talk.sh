#!/bin/sh
# t2013-check-talk: `referee check --variant matrix` has table-talk items
# (talk-say, talk-offer, talk-gift, talk-traded), the checker playing the
# other seats: bin/bot-matrix (which answers offers and accepts gifts) and
# bin/bot-random (which ignores talk) pass them; a bot that crashes on an
# `offered` line fails talk-offer, naming the offer, how its process ended,
# and a hint.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-matrix" "$top/bin/bot-random"
export TMPDIR="$tmp"
items=talk-say,talk-offer,talk-gift,talk-traded
time="move:$(ms 1000),start:$(ms 5000),grace:$(ms 50)"

cat >"$tmp/touchy.sh" <<'EOB'
#!/bin/sh
# plays the first legal move; dies on a trade offer
first=
while read -r line; do
	case $line in
	game*) echo "hello touchy 1 moves" ;;
	moves*) [ -z "$first" ] && { set -- $line; first=$2; } ;;
	go*) echo "move $first"; first= ;;
	offered*) echo "touchy: an offer, I give up" >&2; exit 3 ;;
	quit*) exit 0 ;;
	esac
done
EOB
chmod +x "$tmp/touchy.sh"

echo "1..4"
for b in bot-matrix bot-random; do
	"$ref" check --variant matrix --time "$time" --items $items "$top/bin/$b" >"$tmp/$b" 2>&1
	st=$?
	check "$b passes the talk items (exit $st)" sh -c "[ $st = 0 ] && for i in talk-say talk-offer talk-gift talk-traded; do grep -q \"^  ok      \$i \" '$tmp/$b' || exit 1; done"
	sed 's/^/# /' "$tmp/$b"
done
"$ref" check --variant matrix --time "$time" --items $items "$tmp/touchy.sh" >"$tmp/touchy" 2>&1
st=$?
sed 's/^/# /' "$tmp/touchy"
check "a bot that dies on \`offered\` fails talk-offer (exit $st)" \
	sh -c "[ $st = 1 ] && grep -q '^  FAILED  talk-offer  .offered [0-9]* [0-9]* [IOTJLSZ] [IOTJLSZ]. after .go.: .*no move' '$tmp/touchy'"
check "... with how it ended and a hint" \
	sh -c "grep -q '^          the line: it closed its output' '$tmp/touchy' && grep -q '^          hint: .*answer .offered ID' '$tmp/touchy'"
