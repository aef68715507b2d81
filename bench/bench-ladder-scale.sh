#!/bin/sh
# bench/bench-ladder-scale.sh [ENTRIES AUTHORS GAMES [REQUESTS]]: issue 54's
# scale. A fresh ladder is filled by bench/bench-ladder-gen.py (default 500
# entries, 200 authors, 200,000 finished games, straight into its
# database); one `ladder run --total 1` (no game: the ladder holds more)
# fills the standings' cache as a run does; bench-ladder times the fit
# matchmaking refits and one matchmaking call; then `referee serve
# --ladder` answers REQUESTS (default 200) requests of the standings page
# and of a bot's page each, one at a time over loopback, and their p50,
# p99 and slowest are printed. The load (uptime) is printed too: the
# figures are wall-clock times on whatever else the machine runs. The 50
# uploads at once need the web upload (another part of issue 54): not
# measured here.
build=${TETRARENA_BUILD:-build/opt}
top=${TETRARENA_TOP:-.}
ref=$top/bin/referee
set -e
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-ladder-scale.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
L=$tmp/ladder
echo "load: $(uptime)"
"$ref" ladder init "$L" --variant link --players 2-4 --seed 5 --sandbox off >/dev/null
t0=$(date +%s.%N)
python3 "$top/bench/bench-ladder-gen.py" "$L" "${1:-500}" "${2:-200}" "${3:-200000}"
t1=$(date +%s.%N)
"$ref" ladder run "$L" --total 1 -q 2>/dev/null
t2=$(date +%s.%N)
echo "generated in $(echo "$t1 - $t0" | bc) s; the standings' cache filled (one fit) in $(echo "$t2 - $t1" | bc) s"
"$build/bench/bench-ladder" "$L" 0
"$ref" serve --listen 127.0.0.1:0 -o "$tmp/games" --sandbox off --ladder "$L" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
url=
for _ in $(seq 100); do
	url=$(sed -n 's/^serving \([^ ]*\) .*/\1/p' "$tmp/serve.out")
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { echo "referee serve did not start: $(cat "$tmp/serve.err")"; exit 1; }
python3 - "$url" "${4:-200}" <<'PY'
import sys, time, urllib.request
url, n = sys.argv[1].rstrip("/"), int(sys.argv[2])
def bench(name, path):
    took = []
    for _ in range(n):
        t = time.monotonic()
        with urllib.request.urlopen(url + path, timeout=30) as r:
            body = r.read()
            assert r.status == 200, r.status
        took.append((time.monotonic() - t) * 1000)
    took.sort()
    print("%s (%s, %d bytes): p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d requests"
          % (name, path, len(body), took[n // 2], took[min(n - 1, n * 99 // 100)], took[-1], n))
bench("standings page", "/ladder/")
bench("a bot's page", "/ladder/bot-250.html")
PY
echo "load: $(uptime)"
