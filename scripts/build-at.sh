#!/bin/sh
# build-at.sh REV: build the bots (and the referee) of any commit, for
# comparisons against any point in history, and print the directory that
# holds its programs (build/at/COMMIT/bin, an absolute path).
#
#   scripts/build-at.sh [-j JOBS] [-o DIR] REV
#
# The commit's tree is exported with `git archive` (no worktree, nothing in
# this checkout changes) into DIR/COMMIT/ (DIR default build/at) and built
# there with its own Makefile, `make -j JOBS` (default 2); the build's
# output goes to DIR/COMMIT.build.log. A second call
# for the same commit reuses the tree and only runs make again. The
# commit's `make deps` is told to check no package (DEPS= DEPS_TEST=): run
# `make deps` here first if something is missing. Exits 1 when REV names no
# commit or the build fails (the log's end is shown).
#
# Example: the bots of a commit against today's, through today's referee:
#
#   old=$(scripts/build-at.sh 27c3b5e) || exit 1
#   bin/referee play --variant link --seed 3 "$old/bot-link" bin/bot-link
set -u
jobs=2
dir=
usage() { echo "usage: $0 [-j JOBS] [-o DIR] REV" >&2; exit 2; }
while getopts j:o: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	o) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage
case $jobs in '' | *[!0-9]* | 0) usage ;; esac
top=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || exit 1
dir=${dir:-$top/build/at}
commit=$(git -C "$top" rev-parse --verify -q "$1^{commit}") || {
	echo "$0: $1 names no commit" >&2
	exit 1
}
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
src=$dir/$commit
if [ ! -f "$src/Makefile" ]; then
	rm -rf "$src.tmp" && mkdir -p "$src.tmp" || exit 1
	git -C "$top" archive --format=tar "$commit" | tar -x -C "$src.tmp" || {
		echo "$0: git archive $commit failed" >&2
		rm -rf "$src.tmp"
		exit 1
	}
	mv "$src.tmp" "$src" || exit 1
fi
# Only the build's own variables: the caller's make flags (a V=1, a
# SANITIZE=1, -j) and test settings are not passed down.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$src" -j "$jobs" DEPS= DEPS_TEST= \
	>"$src.build.log" 2>&1; then
	tail -20 "$src.build.log" >&2
	echo "$0: building $commit failed (log: $src.build.log)" >&2
	exit 1
fi
echo "$src/bin"
