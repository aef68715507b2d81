# tests/serve-lib.sh: what the `referee serve` tests share (sourced after
# tap.sh). serve_start [ARGS...] starts `referee serve --listen
# 127.0.0.1:0 -o $tmp/games ARGS` in the background and sets url (the
# address it printed) and games (its log directory); the server is
# stopped when the test exits. served_at FILE SED waits (up to 5 s) for
# the line of FILE that the sed expression turns into the address a
# server (serve, tournament --serve, ladder run --serve) says it serves,
# and sets url (1 if none came). sse_whole FILE: a spectator's record
# (serve-client.py sse) holds a whole game: its `game` first, more than
# 10 steps numbered 0, 1, ... in order, and its `end`. client runs tests/serve-client.py. py is
# python3 itself, found once: a version manager's python3 (pyenv's shim)
# is a script that costs more than the Python it starts, and the tests
# start Python in their polling loops.
games=$tmp/games
py=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$py" ] || py=python3
serve_pid=
serve_start() {
	"$ref" serve --listen 127.0.0.1:0 -o "$games" --sandbox off "$@" >"$tmp/serve.out" 2>"$tmp/serve.err" &
	serve_pid=$!
	trap 'kill $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null; cleanup' EXIT
	served_at "$tmp/serve.out" 's/^serving \([^ ]*\) .*/\1/p' && return 0
	echo "Bail out! referee serve did not start: $(cat "$tmp/serve.err")"
	exit 1
}
served_at() {
	for _ in $(seq 100); do
		url=$(sed -n "$2" "$1" 2>/dev/null)
		[ -n "$url" ] && return 0
		sleep 0.05
	done
	return 1
}
client() { "$py" "$top/tests/serve-client.py" "$@"; }
# serve_wait ID: until game ID is over (its log complete), at most 60 s.
serve_wait() {
	for _ in $(seq 1200); do
		grep -q '^end$' "$games/$1.log" 2>/dev/null && client get "$url" /api/games | grep -q . &&
			"$py" -c "import json,sys,urllib.request as u; g=[x for x in json.load(u.urlopen(sys.argv[1]+'api/games')) if x['id']==sys.argv[2]]; sys.exit(0 if g and g[0]['state']=='over' else 1)" "$url" "$1" && return 0
		sleep 0.05
	done
	return 1
}
sse_whole() {
	"$py" - "$1" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1])]
ids = [int(e[1]) for e in ev if e[0] == "step"]
assert ev and ev[0][0] == "game" and ids == list(range(len(ids))) and len(ids) > 10 and ev[-2][0] == "end", ev[:3]
PY
}
