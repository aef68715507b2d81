#!/bin/sh
# t2018-referee-kept-cpu: test-referee-game's kept-cpu cases alone (a kept
# bot's CPU limit counts afresh each game, and still binds). They give
# bots CPU limits a fraction of a second above what they burn, which a
# busy neighbour can cross, so `make check` runs this file in its serial
# pass (TEST_ALONE) and t2019 the rest of test-referee-game in parallel.
bin=${TETRARENA_BUILD:-${TETRARENA_TOP:-.}/build/opt}/tests/test-referee-game
[ -x "$bin" ] || { echo "Bail out! $bin is missing: run make first"; exit 1; }
exec "$bin" -p /referee/game/kept-cpu
