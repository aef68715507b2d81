#!/bin/sh
# t4008: every example move of protocol.md is what the page says it is.
# tests/t4008-examples.py takes the examples out of the page: each move a
# transcript's bot sent and each move of a transcript's `moves` lines
# (legal in its `go`), and each row of the example tables that end every
# variant's notation section (legal, illegal or malformed in the state
# named above the table); tests/prog-engine judges each with the engine's
# own move_parse and legality, as the referee does. Then the test shows it
# can fail: a copy of the page with one verdict turned, one transcript move
# spoiled and one table without its state must each be caught.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
eng=$build/tests/prog-engine
ex=$top/tests/t4008-examples.py
need "$eng" "$top/protocol.md"
echo "1..9"

python3 "$ex" "$top/protocol.md" >"$tmp/rec" 2>"$tmp/rec.err"
check "the examples come out of protocol.md" test $? = 0
"$eng" judge <"$tmp/rec" >"$tmp/out"
st=$?
total=$(wc -l <"$tmp/rec")
check "all $total examples get the verdict protocol.md gives them" \
	test "$st" = 0 -a "$(grep -c '^PASS' "$tmp/out")" = "$total"
grep -v '^PASS' "$tmp/out" | sed 's/^/# /'
for v in link tetroll matrix rush; do
	rows=$(awk -F'\t' -v v="$v" '$2 == v && $4 != "legal"' "$tmp/rec" | wc -l)
	trans=$(awk -F'\t' -v v="$v" '$2 == v && $4 == "legal"' "$tmp/rec" | wc -l)
	check "$v: $trans legal examples and $rows refused ones" test "$rows" -ge 4 -a "$trans" -ge 8
done

# Self-tests: wrong examples are caught.
sed 's/^| `J0@2` | legal |/| `J0@2` | malformed |/' "$top/protocol.md" >"$tmp/turned.md"
python3 "$ex" "$tmp/turned.md" >"$tmp/turned.rec"
"$eng" judge <"$tmp/turned.rec" >"$tmp/turned.out"
st=$?
check "self-test: a turned verdict fails (J0@2 said malformed)" \
	sh -c "test $st = 1 && grep -q '^FAIL .* J0@2: expected malformed, got legal' '$tmp/turned.out'"
sed 's/^> move L1@0:0$/> move L5@0:0/' "$top/protocol.md" >"$tmp/spoilt.md"
python3 "$ex" "$tmp/spoilt.md" | "$eng" judge >"$tmp/spoilt.out"
check "self-test: a spoilt transcript move fails (L5@0:0 sent in tetroll)" \
	grep -q '^FAIL .* L5@0:0: expected legal, got malformed' "$tmp/spoilt.out"
sed '/^<!-- examples rush /d' "$top/protocol.md" >"$tmp/nostate.md"
check "self-test: an example table without its state is refused" \
	sh -c "! python3 '$ex' '$tmp/nostate.md' >/dev/null 2>&1"
exit $fail
