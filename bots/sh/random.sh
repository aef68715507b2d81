#!/bin/sh
# random.sh: a random bot in POSIX sh, for any variant. It asks for the
# `moves` feature and answers each `go` with one of the listed moves,
# drawn from a small linear congruential generator seeded by $1 (default
# 1), so a seed means the same moves. Needs no program but the shell.
#
#   bin/referee play --variant link --seed 1 "sh bots/sh/random.sh 7" bin/bot-random
seed=${1:-1}
case $seed in '' | *[!0-9]*) echo "usage: $0 [SEED]" >&2; exit 2 ;; esac
set -f
cr=$(printf '\r')
moves=
while IFS= read -r line; do
	line=${line%"$cr"}
	case $line in
	game\ *) moves=; echo "hello random-sh 1 moves multi" ;;
	moves\ *) moves=${line#moves } ;;
	go\ * | go)
		set -- $moves
		if [ $# -eq 0 ]; then
			echo "move none"
		else
			seed=$(((seed * 1103515245 + 12345) % 2147483648))
			shift $((seed / 65536 % $#))
			echo "move $1"
		fi
		moves= ;;
	quit) exit 0 ;;
	esac
done
