#!/bin/sh
# t3113: authors on a public ladder (`referee serve --ladder DIR`,
# server/accounts.h), with a real server, real SQLite and a browser's
# requests (tests/accounts-client.py, http.client): signup by invite, log
# in, upload a .tar.gz of a Python bot, its vetting shown, admitted after
# the run takes it, its games and its stderr on the author's page; a
# refused upload (unpacking) and a rejected one (vetting) show their
# reasons; another author can neither read your stderr nor fetch your
# upload, nor upload under your entry's name; a POST without the csrf
# field, with another's, or from another Origin is refused; a cookie set
# before login is not adopted, and one replayed after logout is refused;
# script in a bot's description is escaped on every page; an unrated test
# game's result shows on its author's page alone, and no rating counts it;
# a login brute force is throttled (per account and per address), and so
# are signups from one address; behind --https-proxy cookies are Secure
# and an http Origin is refused; `ladder backup` copies the database
# while the server writes it. And in Chromium
# (tests/browser.py accounts): a signup by the form, an upload by the
# form, the page showing its vetting, then admitted with its games, and
# a test game asked for by its form.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
. "$top/tests/ladder-lib.sh"
. "$top/tests/serve-lib.sh"

ac() { "$py" "$top/tests/accounts-client.py" "$url" "$@"; }
status() { head -c 3 "$1"; }

"$ref" ladder init "$L" --variant link --players 2 --time "$ladder_time" --seed 5 >/dev/null
"$ref" ladder add "$L" r1 "$top/bin/bot-random --seed 1" >/dev/null
echo "organizer-pass" | "$ref" ladder admin "$L" org >/dev/null
check "the organizer's account is made from the CLI" test "$(q "SELECT name, admin FROM authors")" = "org|1"
inv1=$("$ref" ladder invite "$L")
inv2=$("$ref" ladder invite "$L")
inv3=$("$ref" ladder invite "$L")
check "an invite is a one-time code, stored hashed: $inv1" \
	sh -c "echo '$inv1' | grep -qx '[0-9a-f]\{32\}' && test '$(q "SELECT count(*) FROM invites WHERE hash = '$inv1'")' = 0"
check "a password is stored as Argon2id" test "$(q "SELECT substr(hash, 1, 10) FROM authors")" = '$argon2id$'

# the bots: a Python bot (good), one that fails `referee check` (bad), one
# with a path out of its directory (slip)
mkdir -p "$tmp/good" "$tmp/bad" "$tmp/slip/x"
cp "$top/bots/python/linkbot.py" "$top/bots/python/tetrarena.py" "$tmp/good/"
printf '[bot]\ncommand = python3 linkbot.py\ndescription = <script>alert("pwn")</script> & <b>co</b>\n' >"$tmp/good/manifest.ini"
tar czf "$tmp/good.tar.gz" -C "$tmp/good" .
printf '#!/bin/sh\necho "I am not a bot" >&2\necho "what protocol?"\nexit 3\n' >"$tmp/bad/bot.sh"
printf '[bot]\ncommand = sh bot.sh\n' >"$tmp/bad/manifest.ini"
tar czf "$tmp/bad.tar.gz" -C "$tmp/bad" .
cp "$tmp/bad/manifest.ini" "$tmp/slip/x/"
echo gotcha >"$tmp/slip/evil"
(cd "$tmp/slip/x" && tar czPf "$tmp/slip.tar.gz" manifest.ini ../evil)

serve_start --ladder "$L"
A=$tmp/ada.json B=$tmp/bob.json

# Chromium signs cleo up and uploads pybot, then waits for the run below
mkdir "$tmp/shots"
if command -v chromium >/dev/null; then
	"$py" "$top/tests/browser.py" accounts "$url" "$tmp/shots" "$inv3" "$tmp/good.tar.gz" >"$tmp/browser.json" \
		2>"$tmp/browser.err" &
	browser_pid=$!
	for _ in $(seq 600); do
		[ "$(q "SELECT count(*) FROM uploads")" = 1 ] && break
		kill -0 $browser_pid 2>/dev/null || break
		sleep 0.1
	done
fi

# ---- signup and login -------------------------------------------------------
ac "$A" signup ada ada-password >"$tmp/r"
check "signup without an invite is refused, saying why: $(grep -o 'invitation[^<]*' "$tmp/r" | head -1)" \
	sh -c "test '$(status "$tmp/r")' = 400 && grep -q 'by invitation' '$tmp/r'"
ac "$A" get /signup >"$tmp/r"
check "the signup form asks the invite and carries csrf" \
	sh -c "grep -q 'name=\"invite\"' '$tmp/r' && grep -q 'name=\"csrf\" value=\"[0-9a-f]\{64\}\"' '$tmp/r'"
ac "$A" signup ada ada-password "$inv1" >"$tmp/r"
check "signup with an invite: logged in, to /me: $(cat "$tmp/r")" grep -qx '303 /me' "$tmp/r"
ac "$B" signup bob bob-password "$inv1" >"$tmp/r"
check "the same invite twice is refused" sh -c "test '$(status "$tmp/r")' = 400 && grep -q 'not valid' '$tmp/r'"
ac "$B" signup ADA bob-password "$inv2" >"$tmp/r"
check "a name taken (case ignored) is refused" grep -q 'taken' "$tmp/r"
ac "$B" signup bob bob-password "$inv2" >"$tmp/r"
check "bob signs up with the second invite" grep -qx '303 /me' "$tmp/r"
ac "$A" get /me >"$tmp/r"
check "ada's page: 200, her name" sh -c "test '$(status "$tmp/r")' = 200 && grep -q '<h1>ada</h1>' '$tmp/r'"
ada_cookie=$(ac "$A" cookie tetrarena_session)
check "the session cookie is a 64-hex token, stored only hashed" \
	sh -c "echo '$ada_cookie' | grep -qx '[0-9a-f]\{64\}' && test '$(q "SELECT count(*) FROM sessions WHERE hash = '$ada_cookie'")' = 0"
"$py" - "$url" >"$tmp/hdr" <<'PY'
import http.client, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
c.request("GET", "/login")
r = c.getresponse()
print("\n".join(v for k, v in r.getheaders() if k.lower() == "set-cookie"))
PY
check "cookies are HttpOnly and SameSite=Lax, not Secure without --https-proxy: $(cat "$tmp/hdr")" \
	sh -c "grep -q 'HttpOnly' '$tmp/hdr' && grep -q 'SameSite=Lax' '$tmp/hdr' && ! grep -q Secure '$tmp/hdr'"

# ---- uploads ------------------------------------------------------------------
ac "$A" upload good "$tmp/good.tar.gz" >"$tmp/r"
check "ada uploads a .tar.gz of a Python bot: $(cat "$tmp/r")" grep -q '^303 /me#upload-' "$tmp/r"
ac "$A" get /me >"$tmp/me1"
check "her page shows it queued for vetting" grep -q 'class="queued".*<strong>queued</strong>: vetting' "$tmp/me1"
ac "$A" upload-raw bad "$tmp/bad.tar.gz" >"$tmp/r"
check "the raw body upload (?name=&csrf=) is taken too: $(cat "$tmp/r")" grep -q '^303 /me#upload-' "$tmp/r"
ac "$A" upload slip "$tmp/slip.tar.gz" >"$tmp/r"
check "an archive with ../ is refused at once, the reason shown: $(grep -o 'Refused: [^<]*' "$tmp/r")" \
	sh -c "test '$(status "$tmp/r")' = 422 && grep -q 'Refused: .*\.\./evil' '$tmp/r'"
check "nothing of it is written outside" test ! -e "$L/evil" -a ! -e "$L/bots/evil"
ac "$B" upload good "$tmp/good.tar.gz" >"$tmp/r"
check "bob cannot upload under ada's entry's name" sh -c "test '$(status "$tmp/r")' = 403 && grep -q 'another author' '$tmp/r'"
ac "$B" upload r1 "$tmp/good.tar.gz" >"$tmp/r"
check "nor under the organizer's entry's" grep -q 'another author' "$tmp/r"

"$ref" ladder run "$L" --games 4 -q 2>"$tmp/run.err"
if [ -n "${browser_pid:-}" ]; then
	wait $browser_pid
	brc=$?
	bf() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])) or {}; print(d.get(sys.argv[2]))' "$tmp/browser.json" "$1"; }
	check "Chromium: signup and upload by the forms, to the author's page: $(cat "$tmp/browser.err")" \
		sh -c "test $brc = 0 && test '$(bf after_signup)' = /me && test '$(bf after_upload)' = /me"
	vetting=$(bf vetting)
	check "the page after the upload shows its vetting: $(echo "$vetting" | head -c 60)" \
		test "${vetting#queued: vetting}" != "$vetting"
	check "then it is admitted, its games listed with its stderr" \
		sh -c "test '$(bf admitted)' = True && test '$(bf stderr_links)' -ge 1"
	check "a test game asked for by its form shows its result: $(bf test_result)" \
		sh -c "echo '$(bf test_result)' | grep -q '^pybot (seat 0): rank'"
	check "its description is shown as text: $(bf description)" test "$(bf description)" = '<script>alert("pwn")</script> & <b>co</b>'
	[ -n "${KEEP_SHOTS:-}" ] && cp "$tmp/shots"/*.png "$KEEP_SHOTS"/
else
	skip "chromium is missing: no browser pass"
fi
ac "$A" get /me >"$tmp/me2"
check "after the run: admitted, shown on her page" grep -q 'class="admitted".*<strong>admitted</strong>' "$tmp/me2"
check "the rejected upload shows the reason, with the lines that failed" \
	sh -c "grep -q 'class=\"rejected\"' '$tmp/me2' && grep -q 'I am not a bot\|what protocol' '$tmp/me2'"
check "the refused one shows its reason" grep -q 'class="refused".*refused.*before vetting' "$tmp/me2"
check "her bot and its games are listed" sh -c "grep -q '<table id=\"bots\">' '$tmp/me2' && grep -q '<table id=\"games\">' '$tmp/me2'"
check "her events: admitted and rejected" sh -c "grep -q '<li class=\"admitted\">' '$tmp/me2' && grep -q '<li class=\"rejected\">' '$tmp/me2'"
ac "$A" get /me/feed.atom >"$tmp/r"
check "and her Atom feed" sh -c "test '$(status "$tmp/r")' = 200 && grep -q '<feed' '$tmp/r' && grep -q 'good' '$tmp/r'"
ac "$B" get /me/feed.atom >"$tmp/r"
check "bob's feed tells nothing of hers" sh -c "grep -q '<feed' '$tmp/r' && ! grep -q 'good' '$tmp/r'"
errlink=$(grep -o '/me/stderr/[0-9]*-[0-9]*' "$tmp/me2" | head -1)
ac "$A" get "$errlink" >"$tmp/r"
check "she reads her bot's stderr: $errlink" sh -c "test -n '$errlink' && test '$(status "$tmp/r")' = 200"
ac "$B" get "$errlink" >"$tmp/r"
check "bob cannot: $(head -c 40 "$tmp/r")" test "$(status "$tmp/r")" = 404
other=$(q "SELECT s.game || '-' || s.seat FROM seats s JOIN bots b ON b.id = s.bot WHERE b.name = 'r1' LIMIT 1")
ac "$A" get "/me/stderr/$other" >"$tmp/r"
check "nor can she read the organizer's bot's stderr ($other)" test "$(status "$tmp/r")" = 404
up=$(grep -o '/me/upload/[0-9]*' "$tmp/me2" | tail -1)
ac "$A" get "$up" >"$tmp/r"
check "she fetches her upload: $up" test "$(status "$tmp/r")" = 200
ac "$B" get "$up" >"$tmp/r"
check "bob cannot fetch her files" test "$(status "$tmp/r")" = 404
ac "$B" get /me >"$tmp/r"
check "bob's page shows none of hers" sh -c "! grep -q 'good' '$tmp/r' && ! grep -q '/me/stderr' '$tmp/r'"
good=$(q "SELECT id FROM bots WHERE name = 'good'")

# ---- an unrated test game --------------------------------------------------------
ngames=$(q "SELECT count(*) FROM games")
ac "$A" post /me/test "bot=good&opponent=r1" - "$(ac "$A" csrf /logout)" >"$tmp/r"
check "ada asks for a test game against r1: $(cat "$tmp/r")" grep -qx '303 /me#tests' "$tmp/r"
ac "$B" post /me/test "bot=good&opponent=r1" - "$(ac "$B" csrf /logout)" >"$tmp/r"
check "bob cannot, with her entry: $(head -c 60 "$tmp/r")" test "$(status "$tmp/r")" = 404
for _ in $(seq 300); do
	ac "$A" get /me >"$tmp/me-test"
	grep -q '<tr class="done">' "$tmp/me-test" && break
	sleep 0.2
done
check "its result shows on her page: $(grep -o '<tr class="done">.*' "$tmp/me-test" | sed 's/<[^>]*>/ /g' | head -c 150)" \
	grep -q '<tr class="done">.*good (seat 0): rank [0-9]*, score' "$tmp/me-test"
tlog=$(grep -o '/me/test/[0-9]*/log' "$tmp/me-test" | head -1)
ac "$A" get "$tlog" >"$tmp/r"
check "she reads its log: $tlog" sh -c "test -n '$tlog' && test '$(status "$tmp/r")' = 200 && grep -q '^end' '$tmp/r'"
ac "$B" get "$tlog" >"$tmp/r"
check "bob cannot" test "$(status "$tmp/r")" = 404
check "it is not a ladder game: no rating counts it" test "$(q "SELECT count(*) FROM games")" = "$ngames"

# ---- escaping ----------------------------------------------------------------------
ac "$A" get "/ladder/bot-$good.html" >"$tmp/botpage"
ac "$A" get /ladder/ >"$tmp/board"
ac "$A" get /ladder/rejected.html >"$tmp/rej"
for f in me2 botpage board rej; do
	check "no script from a description on $f" sh -c "! grep -q '<script>alert' '$tmp/$f' && ! grep -q '<b>co' '$tmp/$f'"
done
check "it is shown escaped on her page and the bot's" \
	sh -c "grep -q '&lt;script&gt;alert' '$tmp/me2' && grep -q '&lt;script&gt;alert' '$tmp/botpage'"

# ---- CSRF ------------------------------------------------------------------------
ac "$A" post /me/retire "name=good" - none >"$tmp/r"
check "a POST without csrf is refused: $(head -c 50 "$tmp/r")" test "$(status "$tmp/r")" = 403
ac "$A" post /me/retire "name=good" http://evil.example >"$tmp/r"
check "a POST from another Origin, with the right csrf, is refused" test "$(status "$tmp/r")" = 403
bob_csrf=$(ac "$B" csrf /logout)
ac "$A" post /me/retire "name=good" - "$bob_csrf" >"$tmp/r"
check "a POST with another session's csrf ($(echo "$bob_csrf" | head -c 8)...) is refused" test "$(status "$tmp/r")" = 403
ac "$A" post /login "name=ada&password=ada-password" - none >"$tmp/r"
check "a login without csrf is refused" test "$(status "$tmp/r")" = 403
check "nothing was retired" test "$(q "SELECT status FROM bots WHERE name = 'good'")" = active
ac "$A" retire good >"$tmp/r"
check "her own retire button works: $(cat "$tmp/r")" \
	sh -c "grep -qx '303 /me' '$tmp/r' && grep -q 'kind=retire' '$L'/inbox/*.req"
ac "$A" get /me >"$tmp/r"
check "her page says the retire is queued, its button gone" \
	sh -c "grep -q 'class=\"retiring\"' '$tmp/r' && ! grep -q 'name=\"name\" value=\"good\"' '$tmp/r'"

# ---- session fixation, logout --------------------------------------------------------
F=$tmp/fix.json
fixed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
ac "$F" setcookie tetrarena_session "$fixed"
ac "$F" get /me >"$tmp/r"
check "a cookie the server did not make logs nobody in" grep -qx '303 /login' "$tmp/r"
ac "$F" login ada ada-password >"$tmp/r"
new=$(ac "$F" cookie tetrarena_session)
check "login gives a new token, not the one pre-set" sh -c "grep -qx '303 /me' '$tmp/r' && test -n '$new' && test '$new' != '$fixed'"
ac "$F" setcookie tetrarena_session "$fixed"
ac "$F" get /me >"$tmp/r"
check "and the pre-set one still logs nobody in" grep -qx '303 /login' "$tmp/r"
ac "$A" logout >"$tmp/r"
check "logout: $(cat "$tmp/r")" grep -qx '303 /login' "$tmp/r"
R=$tmp/replay.json
ac "$R" setcookie tetrarena_session "$ada_cookie"
ac "$R" get /me >"$tmp/r"
check "her old cookie replayed after logout is refused" grep -qx '303 /login' "$tmp/r"

# ---- backup while serving --------------------------------------------------------------
"$ref" ladder backup "$L" "$tmp/copy.db" >/dev/null
copy=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT count(*) FROM authors").fetchone()[0], c.execute("PRAGMA integrity_check").fetchone()[0])' "$tmp/copy.db")
check "ladder backup copies the database while it is served: $copy" test "$copy" = "$(q "SELECT count(*) FROM authors") ok"
check "refused over an existing file" sh -c "! '$ref' ladder backup '$L' '$tmp/copy.db' 2>/dev/null"

# ---- behind an HTTPS proxy ---------------------------------------------------------------
"$ref" serve --ladder "$L" --listen 127.0.0.1:0 -o "$games" --https-proxy >"$tmp/serve2.out" 2>"$tmp/serve2.err" &
serve2_pid=$!
url1=$url
served_at "$tmp/serve2.out" 's/^serving \([^ ]*\) .*/\1/p'
url2=$url
"$py" - "$url2" >"$tmp/hdr2" <<'PY'
import http.client, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
c.request("GET", "/login")
r = c.getresponse()
print("\n".join(v for k, v in r.getheaders() if k.lower() == "set-cookie"))
PY
check "--https-proxy: cookies are Secure: $(cat "$tmp/hdr2")" grep -q '; Secure' "$tmp/hdr2"
H=$tmp/https.json
ac "$H" post /login "name=ada&password=ada-password" >"$tmp/r"
check "a form posted with an http Origin is refused there" test "$(status "$tmp/r")" = 403
host2=${url2#http://}
ac "$H" post /login "name=ada&password=ada-password" "https://${host2%/}" >"$tmp/r"
check "with its https Origin it is taken: $(cat "$tmp/r")" grep -qx '303 /me' "$tmp/r"
kill $serve2_pid 2>/dev/null
wait $serve2_pid 2>/dev/null
url=$url1

# ---- brute force (last: it throttles this address) ------------------------------------------
C=$tmp/carol.json
codes=
for i in 1 2 3 4 5; do
	ac "$C" login bob "wrong-$i" >"$tmp/r"
	codes="$codes$(status "$tmp/r") "
done
ac "$C" login bob bob-password >"$tmp/r"
check "five wrong passwords ($codes), then even the right one waits: $(head -c 60 "$tmp/r")" \
	sh -c "test '$codes' = '403 403 403 403 403 ' && test '$(status "$tmp/r")' = 429"
ac "$C" login ada ada-password >"$tmp/r"
check "and from this address, another account waits too" test "$(status "$tmp/r")" = 429
check "the account's failures are counted in the database" test "$(q "SELECT failures FROM authors WHERE name = 'bob'")" = 5

"$ref" ladder set "$L" signup=open >/dev/null
check "ladder set signup=open" test "$(q "SELECT value FROM meta WHERE key = 'signup'")" = open
D=$tmp/dave.json
ac "$D" signup dave dave-password >"$tmp/r"
check "open signup needs no invite" grep -qx '303 /me' "$tmp/r"
ac "$D" signup erin erin-password >/dev/null
ac "$D" signup frank frank-password >"$tmp/r"
check "the sixth account from one address in an hour waits: $(head -c 60 "$tmp/r")" test "$(status "$tmp/r")" = 429
check "ladder set refuses another value" sh -c "! '$ref' ladder set '$L' signup=maybe 2>/dev/null"
echo "1..$n"
exit $fail
