/*
 * test-protocol: the lines the referee, the engine and the bots share
 * (engine/wire.h) and the result line parsed in one place
 * (protocol_parse_result(), referee/protocol.h).
 */
#include <string.h>

#include <glib.h>

#include "engine/wire.h"
#include "referee/protocol.h"

static void test_go(void)
{
	long ms = -1, bank = -1;
	const char *state = NULL;

	g_assert_true(wire_parse_go("go 500 bank=60000 players=2 x=1", &ms, &bank, &state));
	g_assert_cmpint(ms, ==, 500);
	g_assert_cmpint(bank, ==, 60000);
	g_assert_cmpstr(state, ==, "players=2 x=1");
	g_assert_true(protocol_parse_go("go 5 bank=7 s", &ms, &bank, &state));
	g_assert_cmpstr(state, ==, "s");
	static const char *const bad[] = {"go", "go 5", "go 5 bank=7", "go -5 bank=7 s", "go 5  bank=7 s",
					  "go 5 bank= s", "goo 5 bank=7 s", "go 99999999999999999999 bank=1 s"};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(wire_parse_go(bad[i], &ms, &bank, &state));

	/* leniently: each part skipped when there */
	g_assert_cmpstr(wire_go_state("go 250 bank=900 players=2", &ms), ==, "players=2");
	g_assert_cmpint(ms, ==, 250);
	g_assert_cmpstr(wire_go_state("bank=900 players=2", &ms), ==, "players=2");
	g_assert_cmpint(ms, ==, 0);
	g_assert_cmpstr(wire_go_state("players=2", NULL), ==, "players=2");
	g_assert_cmpstr(wire_go_state("go x players=2", &ms), ==, "players=2");
	g_assert_cmpint(ms, ==, 0);
	g_assert_cmpstr(wire_go_state("go", &ms), ==, "");
	g_assert_cmpstr(wire_go_state("go 2000000000 s", &ms), ==, "s");
	g_assert_cmpint(ms, ==, 0);	/* out of range */
}

static void test_lines(void)
{
	char buf[64];
	Text t;

	text_init(&t, buf, sizeof(buf));
	wire_move(&t, "I0@3");
	g_assert_cmpstr(buf, ==, "move I0@3");
	text_init(&t, buf, sizeof(buf));
	wire_refused(&t, "offer 1 T O", 5, "held");
	g_assert_cmpstr(buf, ==, "refused offer held");
	text_init(&t, buf, sizeof(buf));
	protocol_refused(&t, "gift 2 S", "dead");
	g_assert_cmpstr(buf, ==, "refused gift dead");
	g_autofree char *move = protocol_move_line("a1");
	g_assert_cmpstr(move, ==, "move a1");
	g_assert_true(wire_line_is("quit", "quit"));
	g_assert_true(wire_line_is("go 1", "go"));
	g_assert_false(wire_line_is("gone", "go"));
}

static void test_result(void)
{
	ProtocolResult r;
	g_autofree char *why = NULL;
	const int ranks[] = {2, 1}, scores[] = {-3, 12};
	const char *const faults[] = {"timeout", NULL};
	g_autofree char *fields = protocol_result_fields(2, ranks, scores, faults, " lines=4,7", "end");

	g_assert_true(protocol_parse_result(fields, 2, &r, &why));
	g_assert_cmpint(r.n, ==, 2);
	g_assert_cmpint(r.ranks[0], ==, 2);
	g_assert_cmpint(r.ranks[1], ==, 1);
	g_assert_cmpint(r.scores[0], ==, -3);
	g_assert_cmpint(r.scores[1], ==, 12);
	g_assert_cmpstr(r.faults[0], ==, "timeout");
	g_assert_cmpstr(r.faults[1], ==, "-");
	g_assert_cmpstr(r.reason, ==, "end");
	g_assert_cmpstr(r.extra[0], ==, "lines=4,7");
	g_assert_null(r.extra[1]);
	protocol_result_clear(&r);
	/* any number of seats */
	g_assert_true(protocol_parse_result(fields, -1, &r, &why));
	g_assert_cmpint(r.n, ==, 2);
	protocol_result_clear(&r);

	static const struct {
		const char *fields;
		int n;
		const char *why;
	} bad[] = {
		{"ranks=1,2 scores=1,2 faults=-,- oops", 2, "malformed result field 'oops'"},
		{"ranks=1,2 scores=1,2 faults=-,-", 3, "result ranks has 2 values for 3 seats"},
		{"ranks=1,x scores=1,2 faults=-,-", 2, "result ranks: bad number 'x'"},
		{"ranks=1,2 scores=1,2,3 faults=-,-", -1, "result scores has 3 values for 2 seats"},
		{"ranks=1,2 scores=1,2 reason=end", 2, "result lacks ranks=, scores= or faults="},
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *w = NULL;
		g_assert_false(protocol_parse_result(bad[i].fields, bad[i].n, &r, &w));
		g_assert_cmpstr(w, ==, bad[i].why);
		g_assert_null(r.reason);
		g_assert_null(r.extra);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/protocol/wire/go", test_go);
	g_test_add_func("/protocol/wire/lines", test_lines);
	g_test_add_func("/protocol/result", test_result);
	return g_test_run();
}
