#!/bin/sh
# t3003-tournament-examples: every example tournament file in tournaments/
# runs to standings with ratings and intervals (one seed per seating, two
# games at once), with our real bots.
# check-long: the files' own time controls (full strength) and boards; make
# check plays at 250 ms a move, link on 10 rows (shorter games), and
# real-time rush at a 10 ms pace.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
need "$ref"
cd "$top" || exit 1
files=$(ls tournaments/*.ini)
echo "1..$(($(echo "$files" | wc -l) * 2))"
# tour FILE: its tournament into $tmp/NAME, its exit status in $tmp/NAME.st
tour() {
	name=$(basename "$1" .ini)
	case $name in
	rush-lockstep) short= ;;
	rush) short="--option pace=10" ;;
	link*) short="-t bank:$(ms 20000),inc:$(ms 500),move:$(ms 250),start:$(ms 5000) --option height=10" ;;
	*) short="-t bank:$(ms 20000),inc:$(ms 500),move:$(ms 250),start:$(ms 5000)" ;;
	esac
	# shellcheck disable=SC2046
	"$ref" tournament "$1" $(long_or "$short" "") -q --games 1 -j 2 --bootstrap 50 -o "$tmp/$name" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.st"
}
# two files at a time (their games wait on clocks more than they compute),
# but real-time rush alone: its pace is measured on the wall clock
i=0
for f in $files; do
	case $f in *rush.ini) continue ;; esac
	tour "$f" &
	i=$((i + 1))
	[ $((i % 2)) = 0 ] && wait
done
wait
tour tournaments/rush.ini
for f in $files; do
	name=$(basename "$f" .ini)
	st=$(cat "$tmp/$name.st")
	n=$((n + 2))
	if [ $st = 0 ]; then echo "ok $((n - 1)) - $f runs to the end"; else
		echo "not ok $((n - 1)) - $f runs to the end (exit $st)"; sed 's/^/# /' "$tmp/$name.err"; fi
	if grep -q "95% interval" "$tmp/$name.out" && grep -q '"elo_low"' "$tmp/$name/standings.json" &&
		[ "$(grep -c '^  *[0-9]* [^ ]* *[-+][0-9]* *\[[-+][0-9]*, [-+][0-9]*\]' "$tmp/$name.out")" -ge 2 ]; then
		echo "ok $n - $f: standings with ratings and intervals"
	else
		echo "not ok $n - $f: standings with ratings and intervals"
		sed 's/^/# /' "$tmp/$name.out"
	fi
done
