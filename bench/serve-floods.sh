#!/bin/sh
# serve-floods.sh: `referee serve` under a flood (docs/serve.md, Limits):
# 2,000 idle connections and 1,000 spectators that never read, from many
# loopback addresses (tests/serve-flood.py), while a game is played
# (a person's seat, tests/serve-client.py, against bin/bot-random). The
# server runs with its default limits but --idle-timeout 60 (the default
# 10 s would close the idle connections during the run). Reports the
# server's resident memory (before, with the crowd, at the peak, after),
# the most all spectators' queues held, the spectators dropped, and an
# honest request's latency (GET /api/games, then /api/stats while the
# game plays: median, p99, max). IDLE=N and SPECT=N change the 2,000 and
# 1,000; HONEST=N the requests timed before the game (200).
set -e
top=$(pwd)
idle=${IDLE:-2000}
spect=${SPECT:-1000}
tmp=$(mktemp -d /tmp/serve-floods.XXXXXX)
trap 'kill $pid 2>/dev/null; [ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
ulimit -n 8192
bin/referee serve --listen 127.0.0.1:0 -o "$tmp/games" --sandbox off --idle-timeout 60 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do
	url=$(sed -n 's/^serving \([^ ]*\) .*/\1/p' "$tmp/out")
	[ -n "$url" ] && break
	sleep 0.05
done
client() { python3 "$top/tests/serve-client.py" "$@"; }
rss() { awk "/^$1/ {print \$2}" /proc/$pid/status; }
echo "serve-floods: load before: $(cut -d' ' -f1-3 /proc/loadavg); nproc $(nproc)"
rss0=$(rss VmRSS)
loc=$(client start "$url" "variant=link&seat=person&seat=bot-random&seed=1")
gid=$(echo "$loc" | sed 's|^/games/\([a-z0-9]*\)/.*|\1|')
mkfifo "$tmp/hold"
python3 tests/serve-flood.py flood "$url" "$pid" "$idle" "$spect" "$gid" "${HONEST:-200}" <"$tmp/hold" >"$tmp/flood" &
fp=$!
exec 7>"$tmp/hold"
for _ in $(seq 1200); do
	grep -q '^rss' "$tmp/flood" && break
	sleep 0.05
done
client seat "$url" "$loc" >/dev/null
sleep 1
exec 7>&-
wait $fp
cat "$tmp/flood" >&2
awk -v r0="$rss0" -v idle="$idle" -v spect="$spect" '
	/^held/ { held = $2 " idle, " $3 " spectators" }
	/^honest / { before = sprintf("median %.1f ms, p99 %.1f ms, max %.1f ms over %d", $3, $4, $5, $2) }
	/^honest-during/ { during = sprintf("median %.1f ms, p99 %.1f ms, max %.1f ms over %d", $3, $4, $5, $2) }
	/^rss/ { n++; if (n == 1) crowd = $2; else { peak = $4 } }
	/^queued at most/ { q = $4 }
	/^stats/ { match($0, /"dropped": [0-9]+/); dropped = substr($0, RSTART + 11, RLENGTH - 11) }
	END {
		printf "serve-floods: held %s\n", held
		printf "serve-floods: RSS %d KiB before, %d KiB with the crowd, %d KiB at the peak\n", r0, crowd, peak
		printf "serve-floods: all queues held at most %.1f MiB; %s of %d spectators dropped\n", q / 1048576, dropped, spect
		printf "serve-floods: an honest request before the game: %s\n", before
		printf "serve-floods: while the game plays: %s\n", during
	}' "$tmp/flood"
for _ in $(seq 100); do
	client body "$url" /api/stats | grep -q '"open":1,' && break
	sleep 0.05
done
sleep 0.5
echo "serve-floods: RSS after they all went: $(rss VmRSS) KiB"
echo "serve-floods: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
