#!/bin/sh
# bin/bot-random over a scripted protocol session: it answers `hello`,
# a legal `move` for each `go` (without the referee's `moves` list, so the
# move is its own), declines an unknown variant, and stops at `quit`.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
bot="$top/bin/bot-random"
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

echo "1..8"
empty='players=2 width=10 height=20 stage=place current=0 scores=0,0 supply=I5O5T5L5S5,I5O5T5L5S5 retired=- board=x pieces=-'
cat >"$tmp/in" <<EOS
tetrarena 1
game 1 variant=link seat=0 players=2 options=width:10,height:20,pieces:5 time=bank:60000,inc:1000,move:5000,start:10000
update chance roll O
go 5000 ${empty%% scores*} roll=O scores${empty#* scores}
update 0 O0@3
some-future-line with=fields
go 5000 ${empty%% scores*} roll=I scores${empty#* scores}
result ranks=1,2 scores=0,0 faults=-,- reason=end
game 2 variant=no-such-game seat=1 players=2 options= time=bank:1
quit
game 3 variant=link seat=0 players=2
EOS
"$bot" --seed 7 <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
check "exits 0" "[ $? -eq 0 ]"
check "four replies" "[ \$(wc -l <'$tmp/out') -eq 4 ]"
check "hello with features" "[ \"\$(sed -n 1p '$tmp/out')\" = 'hello bot-random 1 moves multi' ]"
check "legal O move" "sed -n 2p '$tmp/out' | grep -Eqx 'move O0@[0-8]'"
check "legal I move" "sed -n 3p '$tmp/out' | grep -Eqx 'move (I0@[0-6]|I1@[0-9])'"
check "declines unknown variant" "sed -n 4p '$tmp/out' | grep -q '^decline '"
check "nothing on stderr" "[ ! -s '$tmp/err' ]"
"$bot" --seed 7 <"$tmp/in" >"$tmp/again" 2>/dev/null
check "same seed, same moves" "cmp -s '$tmp/out' '$tmp/again'"
