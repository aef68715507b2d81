#!/bin/sh
# t2021-log-trust: a log is untrusted input. Its seat 0 names a command
# that leaves a mark on the host (`sh -c 'touch MARK; exec BOT'`): not
# jailed (--sandbox off), `referee rerun` and `referee position` refuse to
# run it (exit 1, one message naming --trust-log and the command, no mark
# made); with --trust-log they run it; with the bots named again on the
# command line they run those instead; jailed, they run it as ever (the
# jail keeps the mark off the host).
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
need "$ref" "$fake"
echo "1..12"
time="bank:$(ms 20000),inc:0,move:$(ms 2000),start:$(ms 5000),grace:$(ms 100)"
mark=$tmp/PWNED
crafted="sh -c 'touch \"\$1\"; exec \"\$0\" legal' $fake $mark"
"$ref" play --variant link --option width=6 --option height=8 --seed 4 --time "$time" --sandbox off \
	--log "$tmp/g.log" "$crafted" "$fake legal" >/dev/null 2>&1
check "a game whose seat 0 leaves a mark" sh -c "'$ref' verify '$tmp/g.log' >/dev/null 2>&1 && [ -e '$mark' ]"
rm -f "$mark"

refused() { # OUT: exit 1, the message, no mark
	rc=$1
	sed 's/^/# /' "$2"
	[ "$rc" = 1 ] && grep -q "^referee: $3: not jailed .*give --trust-log" "$2" && grep -q 'touch' "$2" && [ ! -e "$mark" ]
}
"$ref" rerun --sandbox off "$tmp/g.log" >"$tmp/r.out" 2>&1
check "rerun --sandbox off refuses the log's command, no mark made" refused $? "$tmp/r.out" rerun
"$ref" position --sandbox off "$tmp/g.log" --seat 0 --step 1 >"$tmp/p.out" 2>&1
check "position --sandbox off refuses it too" refused $? "$tmp/p.out" position

"$ref" rerun --sandbox off --trust-log "$tmp/g.log" >"$tmp/rt.out" 2>&1
check "rerun --trust-log runs it: the same game (exit $?)" grep -q '^same' "$tmp/rt.out"
check "and the mark is made" [ -e "$mark" ]
rm -f "$mark"
"$ref" position --sandbox off --trust-log "$tmp/g.log" --seat 0 --step 1 >"$tmp/pt.out" 2>&1
check "position --trust-log runs it (exit $?)" sh -c "grep -q '^answer: .*legal' '$tmp/pt.out' && [ -e '$mark' ]"
rm -f "$mark"

"$ref" rerun --sandbox off "$tmp/g.log" "$fake legal" "$fake legal" >"$tmp/rn.out" 2>&1
check "rerun with the bots named again runs them (exit $?), not the log's" \
	sh -c "grep -q '^same\|^different' '$tmp/rn.out' && [ ! -e '$mark' ]"
"$ref" rerun --sandbox off "$tmp/g.log" "$fake legal" >"$tmp/r1.out" 2>&1
check "one BOT for two seats is a usage error (exit $?)" grep -q 'want one BOT a seat: the log has 2, not 1' "$tmp/r1.out"
"$ref" position --sandbox off "$tmp/g.log" --seat 0 --step 1 "$fake legal" >"$tmp/pn.out" 2>&1
check "position with the bot named runs it (exit $?)" sh -c "grep -q '^answer: .*legal' '$tmp/pn.out' && [ ! -e '$mark' ]"

why=$("$ref" play --sandbox on --variant link --seed 1 --log "$tmp/probe.log" "$fake legal 0" "$fake legal 0" 2>&1 >/dev/null)
if grep -q "^sandbox on" "$tmp/probe.log" 2>/dev/null; then
	"$ref" rerun --sandbox on "$tmp/g.log" >"$tmp/rj.out" 2>&1
	check "jailed, rerun runs the log's command as ever (exit $?)" grep -q '^same' "$tmp/rj.out"
	"$ref" position --sandbox on "$tmp/g.log" --seat 0 --step 1 >"$tmp/pj.out" 2>&1
	check "and so does position (exit $?)" grep -q '^answer: .*legal' "$tmp/pj.out"
	check "the jail kept the mark off the host" [ ! -e "$mark" ]
else
	skip "jailed: no jail here ($why)"
	skip "jailed: no jail here"
	skip "jailed: no jail here"
fi
exit $fail
