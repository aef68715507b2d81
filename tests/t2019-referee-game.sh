#!/bin/sh
# t2019-referee-game: test-referee-game but its kept-cpu cases (t2018 runs
# those alone): faults, logs, determinism, tampering, kept bots.
bin=${TETRARENA_BUILD:-${TETRARENA_TOP:-.}/build/opt}/tests/test-referee-game
[ -x "$bin" ] || { echo "Bail out! $bin is missing: run make first"; exit 1; }
exec "$bin" --skip-prefix /referee/game/kept-cpu
