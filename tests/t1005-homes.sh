#!/bin/sh
# t1005-homes: two jobs each have one home. SQL lives only in ladder/ (no
# sqlite3 call and no SQL statement as a literal in any other C folder of
# the product: cli/ladder.c asks ladder/ functions), and command lines are
# parsed only in cli/ (no GOptionContext made or parsed elsewhere: the
# libraries take specs, such as check_run()'s CheckSpec). Self-tests on
# fake trees: each check fails on a stray, naming it, and passes a clean
# tree.
. "${TETRARENA_TOP:-.}/tests/tap.sh"

# strays ROOT: "FILE:LINE: what" for every stray of the product's C files
# (tests/, bench/, build/ and the frozen bots/baseline/ left out).
strays() {
	(cd "$1" && find . -name '*.[ch]' -not -path './tests/*' -not -path './bench/*' \
		-not -path './build/*' -not -path './bots/baseline/*' -not -path './.*' | sed 's|^\./||' | sort |
		while read -r f; do
			case $f in
			ladder/*) ;;
			*) grep -Hn -E 'sqlite3_|"(SELECT|INSERT|UPDATE|DELETE|CREATE|BEGIN|COMMIT) ' "$f" |
				sed 's/$/ (SQL outside ladder\/)/' ;;
			esac
			case $f in
			cli/*) ;;
			*) grep -Hn -E 'g_option_context_(new|parse)' "$f" | sed 's/$/ (options parsed outside cli\/)/' ;;
			esac
		done)
}

echo "1..3"
strays "$top" >"$tmp/tree"
check "no SQL outside ladder/, no command line parsed outside cli/" [ ! -s "$tmp/tree" ]
sed 's/^/# /' "$tmp/tree"

mkdir -p "$tmp/fake/cli" "$tmp/fake/ladder" "$tmp/fake/referee"
printf '%s\n' 'int f(sqlite3 *db) { return sqlite3_exec(db, "SELECT 1", 0, 0, 0); }' >"$tmp/fake/cli/ladder.c"
printf '%s\n' 'void g(void) { GOptionContext *c = g_option_context_new("x"); }' >"$tmp/fake/referee/check.c"
strays "$tmp/fake" >"$tmp/fake.out"
check "self-test: SQL in cli/ and options parsed in referee/ are named" \
	sh -c "grep -q '^cli/ladder.c:1:.*SQL outside ladder' '$tmp/fake.out' &&
		grep -q '^referee/check.c:1:.*options parsed outside cli' '$tmp/fake.out'"

mkdir -p "$tmp/clean/cli" "$tmp/clean/ladder"
cp "$tmp/fake/cli/ladder.c" "$tmp/clean/ladder/db.c"
cp "$tmp/fake/referee/check.c" "$tmp/clean/cli/check.c"
strays "$tmp/clean" >"$tmp/clean.out"
check "self-test: the same in ladder/ and cli/ pass" [ ! -s "$tmp/clean.out" ]
exit $fail
