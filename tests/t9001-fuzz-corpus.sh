#!/bin/sh
# Every fuzz harness replays its whole corpus (tests/fuzz/corpus/NAME/):
# the seeds and every input that once crashed a reader. Built with the
# project's compiler (and with ASan and UBSan under SANITIZE=1).
. "${TETRARENA_TOP:-.}/tests/tap.sh"

for src in "$top"/tests/fuzz/fuzz-*.c; do
	name=$(basename "$src" .c)
	name=${name#fuzz-}
	case $name in main | util) continue ;; esac
	need "$build/fuzz/fuzz-$name"
	[ -d "$top/tests/fuzz/corpus/$name" ] || { not_ok "$name has a corpus"; continue; }
	if "$build/fuzz/fuzz-$name" "$top/tests/fuzz/corpus/$name" >"$tmp/out" 2>&1; then
		ok "$name replays $(ls "$top/tests/fuzz/corpus/$name" | wc -l) inputs"
	else
		sed 's/^/# /' "$tmp/out" | tail -30
		not_ok "$name replays its corpus"
	fi
done
echo "1..$n"
exit $fail
