#!/bin/sh
# t2026-old-logs: logs of an earlier referee still verify. Referee 0.1 sent
# a simultaneous round's `update fault` lines at once; from 0.2 on they are
# held until the round is in (t2024), and verify holds them only for a log
# whose `referee` line is 0.2 or later (docs/gamelog.md, Referee versions).
# tests/data/old-logs/ holds a matrix and a lockstep rush game played by
# the 0.1 referee (its README says how), where seat 2 hears of seats 0's
# and 1's faults while its own `go` is open. Each verifies and reruns
# with the current referee; the same log called 0.2 (or 0.10, 1.0, or a
# version that is no number: the strict order) fails verify at its first
# `update fault` line, and called 0.1.5 or 0.0 verifies.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
fake=$build/tests/prog-fakebot
data=$top/tests/data/old-logs
need "$ref" "$fake" "$data/matrix-faults-0.1.log" "$data/rush-lockstep-faults-0.1.log"

# early SEAT LOG: the `update fault` lines sent to SEAT while its `go` was
# open (as t2024 counts them)
early() {
	awk -v s="$1" '
		$1 == ">" && $2 == s && $4 == "go" { open = 1 }
		$1 == "<" && $2 == s && $4 == "move" { open = 0 }
		$1 == "fault" && $2 == s { open = 0 }
		$1 == "joint" || $1 == "result" { open = 0 }
		$1 == ">" && $2 == s && $4 == "update" && $5 == "fault" && open { print }
	' "$2"
}

# as VERSION LOG: a copy of LOG whose `referee` line says VERSION
as() {
	sed "2s/^referee .*/referee $1/" "$2" >"$tmp/as.log"
	[ "$(sed -n 2p "$tmp/as.log")" = "referee $1" ] || echo "# as $1: no referee line" >&2
}

echo "1..18"
for game in matrix rush-lockstep; do
	log=$data/$game-faults-0.1.log
	case $game in
	matrix) bad=O0@0,0 ;;
	rush-lockstep) bad=place:I0@0,0 ;;
	esac
	early 2 "$log" >"$tmp/early"
	check "$game: a 0.1 log in which seat 2 hears of faults while its go is open ($(wc -l <"$tmp/early") lines)" \
		sh -c "[ \"\$(sed -n 2p '$log')\" = 'referee 0.1' ] && [ -s '$tmp/early' ]"
	"$ref" verify "$log" >"$tmp/verify.out" 2>&1
	check "$game: it verifies with this referee" [ $? = 0 ] || sed 's/^/# /' "$tmp/verify.out" >&2
	# its first `update fault` line, sent while its round was open: a
	# 0.2 referee would have held it
	first=$(grep -n -m1 '^> [0-9]* +[0-9]* update fault ' "$log" | cut -d: -f1)
	for v in 0.2 0.10 1.0 garbled; do
		as "$v" "$log"
		"$ref" verify "$tmp/as.log" >"$tmp/verify.out" 2>&1
		rc=$?
		check "$game: called $v, it fails verify at line $first, an update fault" \
			sh -c "[ $rc = 1 ] && grep -q ':$first: .update fault ' '$tmp/verify.out'" ||
			sed 's/^/# /' "$tmp/verify.out" >&2
	done
	for v in 0.1.5 0.0; do
		as "$v" "$log"
		"$ref" verify "$tmp/as.log" >"$tmp/verify.out" 2>&1
		check "$game: called $v, it verifies" [ $? = 0 ] || sed 's/^/# /' "$tmp/verify.out" >&2
	done
	# the logged commands are the 0.1 build's: this build's fakebot instead
	"$ref" rerun --sandbox off "$log" "$fake illegal:$bad" "$fake badmove" \
		"$fake lag 0 $(ms 50)" >"$tmp/rerun.out" 2>&1
	check "$game: a rerun with this referee compares the same" [ $? = 0 ] ||
		sed 's/^/# /' "$tmp/rerun.out" >&2
done
exit $fail
