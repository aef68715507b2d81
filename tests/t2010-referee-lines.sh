#!/bin/sh
# t2010-referee-lines: no line the referee writes can be cut. Every bot of
# these games runs behind a tee that keeps the bytes it received: every
# line is at most 65536 bytes with its newline (protocol.md, Lines) and the
# stream ends with a newline. The Main Match seat that holds 4 pieces after
# three gifts, whose move the gifts outdated (issue 34: seed 11, round 4),
# gets its fresh `moves` list over several `moves` lines and its own `go`
# line, plays on without a fault, and the log verifies; a log with one of
# those `moves` lines deleted does not, nor one with any other traffic line
# deleted (an update the referee sent, an `info` a bot sent) or added: the
# `traffic` lines before `end` count each seat's lines both ways.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
soc="$build/tests/prog-socialbot"
rnd="$top/bin/bot-random"
fake="$build/tests/prog-fakebot"
need "$ref" "$soc" "$rnd"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000)"

# teed NAME BOT: the command line of BOT that keeps its input in
# $tmp/wire.NAME (a name each: it runs in a $(...) subshell, where a
# counter would not count)
teed() { echo "sh -c 'tee $tmp/wire.$1 | exec $2'"; }
# wire_ok NAME: every received stream wire.NAME*: lines <= 65536 bytes with
# their newline, a final newline
wire_ok() {
	for f in "$tmp"/wire."$1"*; do
		[ -s "$f" ] || { echo "# $f is empty" >&2; return 1; }
		[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] ||
			{ echo "# $f does not end with a newline" >&2; return 1; }
		awk -v f="$f" 'length($0) + 1 > 65536 { print "# " f ":" NR ": " length($0) + 1 " bytes" > "/dev/stderr"; bad = 1 } END { exit bad }' "$f" || return 1
	done
}

# Every variant and mode, each seat behind a tee (wire.all-*): the games
# at once, beside the checks of the Main Match game.
# check-long: rush in real time at its default pace; make check plays it at
# a 10 ms pace.
"$ref" play --variant link --seed 3 --sandbox off --time "$time" \
	"$(teed all-link0 "$rnd")" "$(teed all-link1 "$rnd --seed 2")" >/dev/null 2>&1 &
g1=$!
"$ref" play --variant tetroll --seed 3 --sandbox off --time "$time" \
	"$(teed all-tetroll0 "$rnd")" "$(teed all-tetroll1 "$rnd --seed 2")" >/dev/null 2>&1 &
g2=$!
# shellcheck disable=SC2046
"$ref" play --variant rush $(long_or "--option pace=10" "") --seed 3 --sandbox off --time "$time" \
	"$(teed all-rush0 "$rnd")" "$(teed all-rush1 "$rnd --seed 2")" >/dev/null 2>&1 &
g3=$!
"$ref" play --variant rush --option lockstep=1 --seed 3 --sandbox off --time "$time" \
	"$(teed all-lock0 "$rnd")" "$(teed all-lock1 "$rnd --seed 2")" "$(teed all-lock2 "$rnd --seed 3")" >/dev/null 2>&1 &
g4=$!
"$ref" play --variant matrix --seed 6 --sandbox off --time "$time" \
	"$(teed all-matrix0 "$soc")" "$(teed all-matrix1 "$soc --give")" "$(teed all-matrix2 "$rnd")" >/dev/null 2>&1 &
g5=$!

echo "1..14"
"$ref" play --variant matrix --seed 11 --sandbox off --time "$time" --log "$tmp/four.log" \
	"$(teed four0 "$soc --stale")" "$soc --give-to 0 --from 4" "$soc --give-to 0 --from 4" \
	"$soc --give-to 0 --from 4" >"$tmp/four.out" 2>&1
check "the game runs" [ $? = 0 ]
check "seat 0 holds 4 pieces after the gifts, its move is outdated: rejected traded" \
	sh -c "grep -q 'held=[IOTJLSZ][IOTJLSZ][IOTJLSZ][IOTJLSZ] ' '$tmp/four.log' && grep -q '^rejected 0 ' '$tmp/four.log'"
# After each `rejected`: 2 or more `moves` lines, then the `go`, each its own line.
check "the fresh list goes over several moves lines, then a go line of its own" \
	awk '/^> 0 [^ ]* rejected / { r = 1; m = 0; next }
	     r && /^> 0 [^ ]* moves / { m++; next }
	     r && /^> 0 [^ ]* go [0-9]+ bank=/ { if (m >= 2) good++; r = 0; next }
	     r && /^> 0 / { bad = 1 }
	     END { exit !(good >= 1 && !bad) }' "$tmp/four.log"
check "no fault in the game, seat 0 placed 4 pieces in one move" \
	sh -c "! grep -q '^fault' '$tmp/four.log' && grep -q '^submit 0 [^ +]*+[^ +]*+[^ +]*+[^ +]* ' '$tmp/four.log'"
check "the log verifies" sh -c "\"\$0\" verify \"\$1\" >/dev/null" "$ref" "$tmp/four.log"
awk '/^> 0 [^ ]* moves / && !done { getline; done = 1 } { print }' "$tmp/four.log" >"$tmp/cut.log"
check "a log with one of those moves lines deleted fails verify" \
	sh -c "! '$ref' verify '$tmp/cut.log' 2>&1 | grep -q ok"
check "every line seat 0 received fits, and its stream ends with a newline" wire_ok four
# any traffic line deleted or added: an `info` the bot sent, an update the
# referee sent, a copy of a line; the traffic line itself deleted
"$ref" play --variant link --seed 4 --time "$time" --log "$tmp/t.log" "$fake info 0" "$rnd" >/dev/null 2>&1
cut_first() { # PATTERN OUT: the log without the first line matching
	awk -v re="$1" '$0 ~ re && !done { done = 1; next } { print }' "$tmp/t.log" >"$2"
}
cut_first '^< 0 [^ ]* info ' "$tmp/t-info.log"
cut_first '^> 1 [^ ]* update ' "$tmp/t-update.log"
cut_first '^traffic 1 ' "$tmp/t-count.log"
awk '/^< 0 [^ ]* info / && !done { print; done = 1 } { print }' "$tmp/t.log" >"$tmp/t-twice.log"
fails() { ! "$ref" verify "$1" >/dev/null 2>&1; }
check "the whole log verifies, with its traffic counts" \
	sh -c "\"\$0\" verify \"\$1\" >/dev/null && grep -q '^traffic 0 ' \"\$1\"" "$ref" "$tmp/t.log"
check "an info line deleted: verify fails" fails "$tmp/t-info.log"
check "an update to a seat deleted: verify fails" fails "$tmp/t-update.log"
check "an info line doubled: verify fails" fails "$tmp/t-twice.log"
check "a seat's traffic line deleted: verify fails" fails "$tmp/t-count.log"

ran=0
for g in $g1 $g2 $g3 $g4 $g5; do
	wait "$g" || ran=1
done
[ $ran = 0 ]
check "games of link, tetroll, rush (both modes) and matrix run" [ $? = 0 ]
check "every line any bot received fits, and every stream ends with a newline" wire_ok all-
exit $fail
