#!/bin/sh
# bench/run.sh: the benchmarks of `make bench` (speed is measured here,
# never asserted in tests). Each bench/bench-*.c program prints its own
# report; the referee's needs the fake bot.
build=${TETRARENA_BUILD:-build/opt}
set -e
echo "== referee (bench/bench-referee.c) =="
"$build/bench/bench-referee" "$build/tests/prog-fakebot" "${BENCH_GAMES:-400}"
for b in "$build"/bench/bench-*; do
	case $b in
	*/bench-referee) ;;
	*/bench-filter) ;;	# run by bench-sandbox.sh
	*/bench-ladder) ;;	# run by bench-ladder-scale.sh
	*.o|*.d) ;;
	*) [ -x "$b" ] && { echo "== $(basename "$b") =="; "$b"; } ;;
	esac
done
for s in bench/bench-*.sh; do
	[ -f "$s" ] && { echo "== $(basename "$s") =="; sh "$s"; }
done
