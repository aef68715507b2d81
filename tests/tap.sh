# tests/tap.sh: what every shell test starts with (POSIX sh, sourced as
# `. "${TETRARENA_TOP:-.}/tests/tap.sh"`).
#
# Sets top (the repository), build (the build directory), ref (bin/referee),
# scale (TETRARENA_TIME_SCALE), long and tmp (a fresh directory, removed on exit,
# TMPDIR a directory inside it; on exit, cleanup also ends every process
# the test left running);
# `ms N` prints N milliseconds stretched by the scale.
# long is 1 under `make check-long` (TETRARENA_LONG=1): a test that plays
# full-strength AI games says so on a line `# check-long: WHAT`, plays them
# at short time controls under `make check` and at full strength (the
# default time controls) under check-long; `long_or SHORT FULL` prints the
# one that applies. TAP helpers: ok DESC,
# not_ok DESC (also said on stderr, which prove shows, so a failure in a
# quiet CI log names itself), check DESC COMMAND..., skip WHY; they count into n and set
# fail, so a test ends with `exit $fail`. `need FILE...` stops the test with
# "Bail out!" when something it runs was not built: a missing program is a
# failure, never a skip.
top=$(cd "${TETRARENA_TOP:-.}" && pwd)
build=${TETRARENA_BUILD:-$top/build/opt}
ref=$top/bin/referee
scale=${TETRARENA_TIME_SCALE:-1}
ms() { awk "BEGIN { printf \"%d\", $1 * $scale }"; }
long=${TETRARENA_LONG:-0}
long_or() { if [ "$long" = 1 ]; then printf '%s' "$2"; else printf '%s' "$1"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX") || {
	echo "Bail out! cannot make a temporary directory"
	exit 1
}
# Every process the test starts carries TETRARENA_TEST_TMP (a jailed bot,
# whose environment the jail clears, through its bwrap): on any exit,
# cleanup ends what is still running (reap) and removes tmp. A test that
# sets its own EXIT trap ends it with cleanup. A signal exits, which runs it.
TETRARENA_TEST_TMP=$tmp
export TETRARENA_TEST_TMP
# reap: TERM, then after up to 2 s KILL, every process but this shell whose
# environment carries this test's TETRARENA_TEST_TMP or whose command line
# names a file in tmp. (The globs expand here, before grep forks: the
# list holds no helper of reap's own.)
reap() {
	{
		grep -lsxzF "TETRARENA_TEST_TMP=$tmp" /proc/[0-9]*/environ
		grep -lsaF "$tmp/" /proc/[0-9]*/cmdline
	} >"$tmp/.reap" 2>/dev/null
	reap_pids=$(sed -n 's|^/proc/\([0-9]*\)/.*|\1|p' "$tmp/.reap" | sort -u | grep -vx "$$")
	[ -n "$reap_pids" ] || return 0
	# shellcheck disable=SC2086
	kill $reap_pids 2>/dev/null
	reap_i=0
	while [ $reap_i -lt 20 ]; do
		reap_alive=
		for p in $reap_pids; do kill -0 "$p" 2>/dev/null && reap_alive="$reap_alive $p"; done
		[ -n "$reap_alive" ] || return 0
		sleep 0.1
		reap_i=$((reap_i + 1))
	done
	# shellcheck disable=SC2086
	kill -9 $reap_alive 2>/dev/null
	return 0
}
cleanup() {
	[ -d "$tmp" ] && reap
	[ -n "$KEEP_TMP" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
# What the programs under test put in TMPDIR (a `play` without --log writes
# its log there) goes with the test's directory.
mkdir "$tmp/tmp" && TMPDIR=$tmp/tmp && export TMPDIR
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; echo "# $(basename "$0") failed $n: $1" >&2; }
notok() { not_ok "$@"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# skip_all WHY: the whole test cannot run here (it needs root, a package, a
# daemon): a TAP skip with the reason, before any plan. Under
# TETRARENA_REQUIRE=1 (CI, where everything must run) it is a failure.
skip_all() {
	if [ "${TETRARENA_REQUIRE:-0}" = 1 ]; then
		echo "Bail out! $1 (TETRARENA_REQUIRE=1: nothing may skip)"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}
# clean JSON: a `play --json` result that ended by the rules without
# faults; otherwise its reason and faults, and the fault lines of the log
# beside it (NAME.log for NAME.json), go to stderr, where CI shows them.
clean() {
	grep -q '"reason":"end"' "$1" && ! grep -q '"faults":{"' "$1" && return 0
	echo "# $1: $(grep -o '"reason":"[^"]*"\|"faults":{[^}]*}' "$1" | tr '\n' ' ')" >&2
	[ -f "${1%.json}.log" ] && sed -n 's/^fault /# fault /p' "${1%.json}.log" >&2
	return 1
}
need() {
	for f; do
		[ -e "$f" ] || { echo "Bail out! $f is missing: run make first"; exit 1; }
	done
}
