#!/bin/sh
# t1004-help: every subcommand's --help names every option its
# GOptionContext has (read from its source: cli/NAME.c, or referee/NAME.c
# where the subcommand hands its command line on), says the ranges of its
# numbers, and where it takes a variant lists every variant with its
# options and their ranges; docs/referee.1 names every option in its
# subcommand's section and every variant option with its range, and reads
# as a man page (groff without warnings, man -l) where those are installed.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
man1=$top/docs/referee.1
subs=$("$ref" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
variants=$("$ref" --version | sed -n 's/^variants: //p')
echo "1..$(($(echo $subs | wc -w) * 4 + 7))"
check "the command lists its subcommands" [ "$(echo $subs | wc -w)" -ge 9 ]

# options SUB: the long names of SUB's option entries, hidden ones apart
options() {
	src=$top/cli/$1.c
	grep -q 'G_OPTION_ARG' "$src" || src=$top/referee/$1.c
	[ -f "$src" ] || return 0
	grep -E '^[[:space:]]*\{ *"[a-z-]+", *([0-9]|'"'.'"'), *[A-Z_0-9|]+, *G_OPTION_ARG' "$src" |
		grep -v G_OPTION_FLAG_HIDDEN | sed 's/^[^"]*"\([a-z-]*\)".*/\1/'
}
# section SUB: the man page's section of SUB, from `.SS SUB` to the next,
# its \- as -
section() {
	awk -v s="$1" '/^\.S[SH] / { on = ($1 == ".SS" && $2 == s) } on' "$man1" | sed 's/\\-/-/g'
}

for s in $subs; do
	"$ref" "$s" --help >"$tmp/$s.help" 2>&1
	check "$s --help exits 0" [ $? = 0 ]
	missing=
	for o in $(options "$s"); do
		grep -q -- "--$o[ =]" "$tmp/$s.help" || missing="$missing --$o"
	done
	check "$s --help names every option of its source ($(options "$s" | wc -l))${missing:+, missing:$missing}" \
		[ -z "$missing" ]
	missing=
	section "$s" >"$tmp/$s.man"
	for o in $(options "$s"); do
		grep -q -- "--$o\\([^a-z-]\\|\$\\)" "$tmp/$s.man" ||
			missing="$missing --$o"
	done
	check "docs/referee.1 has a section for $s naming each of its options${missing:+, missing:$missing}" \
		[ -s "$tmp/$s.man" -a -z "$missing" ]
	check "$s --help says the ranges of its numbers" grep -q 'Numbers' "$tmp/$s.help"
done

# the subcommands that take a variant list them all, with ranges
missing=
for s in play check tournament; do
	for v in $variants; do
		grep -q "^  $v  *[0-9]-[0-9] players" "$tmp/$s.help" || missing="$missing $s:$v"
	done
done
check "play, check and tournament --help list every variant with its players${missing:+, missing:$missing}" \
	[ -z "$missing" ]
grep -o '[a-z0-9]*=-\?[0-9]* \[-\?[0-9]*\.\.[0-9]*\]' "$tmp/play.help" | sort -u >"$tmp/ranges"
missing=
while read -r item; do
	grep -qF "$item" "$man1" || missing="$missing $item"
done <"$tmp/ranges"
check "every variant option with its default and range ($(wc -l <"$tmp/ranges")) is in the man page${missing:+, missing:$missing}" \
	[ "$(wc -l <"$tmp/ranges")" -ge 20 -a -z "$missing" ]
check "the time control's keys and their range in play --help" \
	grep -q 'bank:60000 inc:1000 move:5000 start:10000 grace:50' "$tmp/play.help"

if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$man1" >"$tmp/groff.err" 2>&1
	check "groff -man reads docs/referee.1 without a warning" [ $? = 0 -a ! -s "$tmp/groff.err" ]
else
	check "docs/referee.1 has .TH, NAME, SYNOPSIS, DESCRIPTION (no groff here)" \
		sh -c "grep -q '^\\.TH REFEREE 1' '$man1' && grep -q '^\\.SH NAME' '$man1' && grep -q '^\\.SH SYNOPSIS' '$man1' && grep -q '^\\.SH DESCRIPTION' '$man1'"
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$man1" >"$tmp/man.out" 2>"$tmp/man.err"
	check "man -l shows it (NAME, SYNOPSIS, COMMANDS)" \
		sh -c "grep -q '^NAME' '$tmp/man.out' && grep -q '^SYNOPSIS' '$tmp/man.out' && grep -q '^COMMANDS' '$tmp/man.out'"
else
	skip "no man here"
fi
# docs/ladder.md's Limits agree with its inbox section: a running ladder
# takes submissions (queued), it does not refuse them
sed -n '/^## Limits/,/^## /p' "$top/docs/ladder.md" >"$tmp/limits"
check "docs/ladder.md Limits: submissions during a run are queued in the inbox" \
	sh -c "grep -q 'inbox' '$tmp/limits' && ! grep -q 'does not pick' '$tmp/limits'"
exit $fail
