#!/bin/sh
# t1005-prove-leftovers: tests/prove.sh, which make check runs the tests
# through, fails the run when a test leaves a process running (naming it
# and killing it), and passes a clean one, printing the slowest files.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
echo "1..5"
mark=3$$
# a test that does not end what it started (and uses no tap.sh)
printf '#!/bin/sh\necho 1..1\nsleep %s >/dev/null 2>&1 &\necho "ok 1 - left a sleep"\n' "$mark" >"$tmp/t-left.sh"
printf '#!/bin/sh\necho 1..1\necho "ok 1 - clean"\n' >"$tmp/t-clean.sh"
chmod +x "$tmp/t-left.sh" "$tmp/t-clean.sh"
sh "$top/tests/prove.sh" 1 "$tmp/t-left.sh" >"$tmp/left.out" 2>"$tmp/left.err"
st=$?
check "a test that leaves a process: the run fails (exit $st)" [ $st != 0 ]
check "the process is named" grep -q "sleep $mark" "$tmp/left.err"
check "and killed" sh -c "! pgrep -f '^sleep $mark\$' >/dev/null"
sh "$top/tests/prove.sh" 1 "$tmp/t-clean.sh" >"$tmp/clean.out" 2>"$tmp/clean.err"
st=$?
check "a clean test: the run passes (exit $st)" [ $st = 0 ]
check "the slowest files are printed" grep -q "the ten slowest files:" "$tmp/clean.out"
exit $fail
