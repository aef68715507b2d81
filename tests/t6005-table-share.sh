#!/bin/sh
# t6005: scripts/table-share.sh, the share of first places at a full table
# (the 3-4 player tables of docs/ai/). Copies of one program in every seat
# share exactly the fair share: every seating of a seed is played, so each
# copy gets every seat's outcome once. bot-rush against two bot-randoms
# (3 players, lockstep) wins every game alone. Bad arguments get one line
# naming the problem.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$top/bin/referee" "$top/bin/bot-rush"

echo "1..4"
cd "$top" || exit 1
sh scripts/table-share.sh -v rush -p 3 -g 2 -j 2 -O lockstep=1 -o "$tmp/same" \
	bin/bot-rush bin/bot-rush >"$tmp/same.out" 2>"$tmp/err"
check "3 copies of bot-rush: 12 games, share exactly 1/3" \
	grep -q '^new: 12 games, won .* share of first places 0.333 \[.*\] (fair share 0.333), games with a fault 0$' "$tmp/same.out"
sh scripts/table-share.sh -v rush -p 3 -g 2 -j 2 -O lockstep=1 -o "$tmp/rand" \
	bin/bot-rush bin/bot-random >"$tmp/rand.out" 2>>"$tmp/err"
check "bot-rush against two bot-randoms: first alone in all 12 games" \
	grep -q '^new: 12 games, won 12 alone, 0 shared, share of first places 1.000 ' "$tmp/rand.out"
sh scripts/table-share.sh -v rush -p 9 bin/bot-rush bin/bot-rush >/dev/null 2>"$tmp/bad"
rc=$?
check "9 players: exit 2, one line naming the players" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$tmp/bad') = 1 ] && grep -q 'players' '$tmp/bad'"
sh scripts/table-share.sh -v rush bin/bot-rush >/dev/null 2>"$tmp/usage"
check "missing arguments: the usage line" grep -q '^usage: ' "$tmp/usage"
exit $fail
