#!/bin/sh
# t1003-protocol-words: no protocol word is written as a string literal in
# any C folder of the product (engine/, referee/, cli/, tournaments/,
# ladder/, server/, bots/...) outside the modules that own the wire:
# referee/protocol.c builds and parses every line of the referee, on the
# ground floor's engine/wire.c, which the engine and the bots share, and
# bots/botio.c is the bots' own (both allowed whole, `FILE *`, in
# tests/protocol-words.allow). Checked by scripts/protocol-words.py.
#
# How the list is defined: the words are read from protocol.c's own verb
# table (`verb_names[]`: every line type of protocol.md, either way) plus
# the hello's features (moves, multi), so a new verb is checked as soon as
# protocol.c knows it. A hit is a literal that is a word alone or starts
# with a word then a space, `%` or a newline ("go %ld", "quit"); comments
# and messages for people (FAIL, fault details, check's report, printf) are
# not hits. Words of other formats spelled the same (the log's record kinds
# move, rejected, result, refused, which gamelog owns; a time control's
# keys) are listed FILE WORD in tests/protocol-words.allow, each with why.
# Self-tests on fake trees show the check fails on a `go` built outside
# protocol.c, on a `hello` compared by hand, on a word of protocol.c's
# table it was not told of in advance, and on a line built in engine/ or
# in a bot's folder, and passes on prose, allowed pairs and a file allowed
# whole.
. "${TETRARENA_TOP:-.}/tests/tap.sh"
checker="python3 $top/scripts/protocol-words.py"
allow=$top/tests/protocol-words.allow
need "$top/scripts/protocol-words.py" "$allow" "$top/referee/protocol.c"

# fake DIR: a tree with a protocol.c whose verb table has go, hello, quit
fake() {
	mkdir -p "$1/referee"
	cat >"$1/referee/protocol.c" <<'EOC'
static const char *const verb_names[] = {
	[0] = "",
	[1] = "go",
	[2] = "hello",
	[3] = "quit",
};
void protocol_go(void) { printf_like("go %ld bank=%ld %s\n"); }
EOC
}

echo "1..9"
$checker --allow "$allow" "$top" >"$tmp/tree" 2>&1
st=$?
check "no protocol word as a literal in any C folder outside the wire's modules (exit $st)" [ $st = 0 ]
sed 's/^/# /' "$tmp/tree"

fake "$tmp/go"
printf '%s\n' 'void send(GString *s) { g_string_append_printf(s, "go %ld bank=%ld %s\n", a, b, c); }' \
	>"$tmp/go/referee/game.c"
$checker "$tmp/go" >"$tmp/go.out" 2>&1
st=$?
check "self-test: a go line built in game.c fails (exit 1, named)" \
	sh -c "[ $st = 1 ] && grep -q '^referee/game.c:1: go: ' '$tmp/go.out'"

fake "$tmp/hello"
printf '%s\n' 'int f(const char *l) {' '	return strcmp(w[0], "hello") == 0;' '}' >"$tmp/hello/referee/replay.c"
$checker "$tmp/hello" >"$tmp/hello.out" 2>&1
st=$?
check "self-test: a bare \"hello\" compared in replay.c fails" \
	sh -c "[ $st = 1 ] && grep -q '^referee/replay.c:2: hello: ' '$tmp/hello.out'"

fake "$tmp/new"
sed -i 's/\[3\] = "quit",/[3] = "quit",\n\t[4] = "ping",/' "$tmp/new/referee/protocol.c"
printf '%s\n' 'void f(void) { queue(g, p, "ping 1"); }' >"$tmp/new/referee/game.c"
$checker "$tmp/new" >"$tmp/new.out" 2>&1
st=$?
check "self-test: a verb newly added to protocol.c's table is checked too" \
	sh -c "[ $st = 1 ] && grep -q ': ping: ' '$tmp/new.out'"

fake "$tmp/prose"
cat >"$tmp/prose/referee/check.c" <<'EOC'
/* "go 5 bank=5 STATE" in a comment */
void f(void) {
	check_pass(c, ok, "quit", "exit on `quit`", NULL, NULL);
	FAIL("go to seat %d, which is not to move", p);
	const char *hint = "answer every `go` with one `move` line";
	g_autofree char *line = protocol_move_line(m);
}
EOC
$checker "$tmp/prose" >"$tmp/prose.out" 2>&1
check "self-test: comments, messages and prose about the protocol pass" \
	sh -c "[ $? = 0 ] && [ ! -s '$tmp/prose.out' ]"

fake "$tmp/allowed"
printf '%s\n' 'int k(const char *key) { return strcmp(key, "quit") == 0; }' >"$tmp/allowed/referee/timectl.c"
printf 'referee/timectl.c quit   # a key of another format\n' >"$tmp/allow"
$checker "$tmp/allowed" >/dev/null 2>&1
st1=$?
$checker --allow "$tmp/allow" "$tmp/allowed" >"$tmp/allowed.out" 2>&1
st2=$?
check "self-test: a FILE WORD pair of the allow list passes, and only with it" \
	sh -c "[ $st1 = 1 ] && [ $st2 = 0 ]"

printf '%s\n' 'void f(void) { queue(g, p, "quit"); }' >"$tmp/allowed/referee/game.c"
$checker --allow "$tmp/allow" "$tmp/allowed" >"$tmp/other.out" 2>&1
st=$?
check "self-test: the allowed word in another file still fails" \
	sh -c "[ $st = 1 ] && grep -q '^referee/game.c:1: quit: ' '$tmp/other.out'"
fake "$tmp/floors"
mkdir -p "$tmp/floors/engine" "$tmp/floors/bots/sub"
printf '%s\n' 'void f(Text *t) { text_printf(t, "go %ld", ms); }' >"$tmp/floors/engine/rush.c"
printf '%s\n' 'void f(FILE *o) { fputs("hello me 1\n", o); }' >"$tmp/floors/bots/sub/mybot.c"
$checker "$tmp/floors" >"$tmp/floors.out" 2>&1
st=$?
check "self-test: a line built in engine/ or in a bot's folder fails, each named" \
	sh -c "[ $st = 1 ] && grep -q '^engine/rush.c:1: go: ' '$tmp/floors.out' &&
		grep -q '^bots/sub/mybot.c:1: hello: ' '$tmp/floors.out'"
printf 'engine/rush.c *\nbots/sub/mybot.c *\n' >"$tmp/whole"
$checker --allow "$tmp/whole" "$tmp/floors" >"$tmp/whole.out" 2>&1
check "self-test: FILE * allows every word of that file" sh -c "[ $? = 0 ] && [ ! -s '$tmp/whole.out' ]"
exit $fail
