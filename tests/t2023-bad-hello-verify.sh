#!/bin/sh
# t2023-bad-hello-verify: verify agrees with the referee on a seat whose
# hello is malformed (issue 50, item 6). The referee faults such a hello
# (`malformed`), takes none of it (no `moves` lines, whatever it asked
# for) and faults a later hello as an unexpected line; the bot plays on
# under the `nothing` policy. The log shows a control byte as '?', so the
# hello parses there: verify must not hold the referee to its `moves`.
# A hello with a control byte in its name, one with an empty name, and
# one with an empty name followed by a good one, in rush (real time), rush
# lockstep and matrix: the seat is faulted for it and plays on without
# `moves` lines, and every log verifies.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
rnd=$top/bin/bot-random
need "$ref" "$rnd"
time="bank:$(ms 60000),inc:$(ms 1000),move:$(ms 5000),start:$(ms 10000),game:$(ms 60000)"

# hello_as TEXT FILE: bot-random (whose hello asks for `moves`) in FILE,
# its hello replaced by printf TEXT (with a leading `+`: TEXT, then its own
# hello). The shell's read takes a line at a time, as the bot writes it.
hello_as() {
	case $1 in
	+*) first="printf '${1#+}\\n'; printf '%s\\n' \"\$l\"" ;;
	*) first="printf '$1\\n'" ;;
	esac
	cat >"$tmp/$2" <<-END
	#!/bin/sh
	$rnd | {
		IFS= read -r l && $first
		while IFS= read -r l; do printf '%s\\n' "\$l"; done
	}
	END
	chmod +x "$tmp/$2"
	echo "$tmp/$2"
}
hello_as 'hello bad\001name 1 moves' ctrl >/dev/null
hello_as 'hello  1 moves' empty >/dev/null
hello_as '+hello  1 moves' again >/dev/null

echo "1..18"
for mode in rush lockstep matrix; do
	case $mode in
	rush) opts="--variant rush --option pace=10" ;;
	lockstep) opts="--variant rush --option lockstep=1" ;;
	matrix) opts="--variant matrix" ;;
	esac
	for bad in ctrl empty again; do
		# shellcheck disable=SC2086
		"$ref" play $opts --seed 3 --sandbox off --time "$time" --log "$tmp/$mode-$bad.log" \
			"$tmp/$bad" "$rnd --seed 2" >"$tmp/$mode-$bad.out" 2>&1
		check "$mode, $bad hello: seat 0 is faulted malformed for its hello and plays on" \
			sh -c "grep -A1 '^< 0 .* hello ' '$tmp/$mode-$bad.log' | grep -q '^fault 0 malformed' &&
			grep -q '^< 0 .* move ' '$tmp/$mode-$bad.log' &&
			! grep -q '^> 0 .* moves ' '$tmp/$mode-$bad.log'"
		check "$mode, $bad hello: the log verifies" sh -c "'$ref' verify '$tmp/$mode-$bad.log' >/dev/null"
	done
done
exit $fail
