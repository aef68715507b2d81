# tests/serve-lib.sh: what the `referee serve` tests share (sourced after
# tap.sh). serve_start [ARGS...] starts `referee serve --listen
# 127.0.0.1:0 -o $tmp/games ARGS` in the background and sets url (the
# address it printed) and games (its log directory); the server is
# stopped when the test exits. client runs tests/serve-client.py. py is
# python3 itself, found once: a version manager's python3 (pyenv's shim)
# is a script that costs more than the Python it starts, and the tests
# start Python in their polling loops.
games=$tmp/games
py=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$py" ] || py=python3
serve_pid=
serve_start() {
	"$ref" serve --listen 127.0.0.1:0 -o "$games" --sandbox off "$@" >"$tmp/serve.out" 2>"$tmp/serve.err" &
	serve_pid=$!
	trap 'kill $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null; [ -n "$KEEP_TMP" ] || rm -rf "$tmp"' EXIT
	for _ in $(seq 100); do
		url=$(sed -n 's/^serving \([^ ]*\) .*/\1/p' "$tmp/serve.out" 2>/dev/null)
		[ -n "$url" ] && return 0
		sleep 0.05
	done
	echo "Bail out! referee serve did not start: $(cat "$tmp/serve.err")"
	exit 1
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
