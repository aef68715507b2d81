/* Tests for engine/scan: canonical numbers, keys, names, hostile text. */
#include <glib.h>
#include <string.h>

#include "scan.h"

static void test_int(void)
{
	static const struct {
		const char *text;
		int lo, hi;
		gboolean ok;
		int value;
		int used;
	} cases[] = {
		{"0", 0, 9, TRUE, 0, 1},
		{"12@", 0, 99, TRUE, 12, 2},
		{"-3,", -9, 9, TRUE, -3, 2},
		{"-3", 0, 9, FALSE, 0, 0},	/* no sign where none can be */
		{"-0", 0, 9, FALSE, 0, 0},
		{"+3", 0, 9, FALSE, 0, 0},
		{"03", 0, 9, FALSE, 0, 0},	/* one spelling per number */
		{"10", 0, 9, FALSE, 0, 0},	/* out of bounds */
		{"999999", 0, 999999, TRUE, 999999, 6},
		{"1000000", 0, G_MAXINT, FALSE, 0, 0},	/* over 6 digits */
		{"", 0, 9, FALSE, 0, 0},
		{"x", 0, 9, FALSE, 0, 0},
		{"-", -9, 9, FALSE, 0, 0},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *p = cases[i].text;
		int v = -42;
		gboolean ok = scan_int(&p, cases[i].lo, cases[i].hi, &v);
		g_assert_cmpint(ok, ==, cases[i].ok);
		g_assert_cmpint((int)(p - cases[i].text), ==, cases[i].used);
		if (ok)
			g_assert_cmpint(v, ==, cases[i].value);
		else
			g_assert_cmpint(v, ==, -42);
	}
}

static void test_key_name_char(void)
{
	static const char *const names[] = {"roll", "rolloff", "place"};
	const char *text = "  stage=rolloff current=1";
	const char *p = text;
	int which = -1;

	g_assert_false(scan_key(&p, "stag"));
	g_assert_true(p == text);
	g_assert_true(scan_key(&p, "stage"));
	g_assert_true(scan_name(&p, names, 3, "", &which));
	g_assert_cmpint(which, ==, 1);	/* "roll" is followed by 'o': no match */
	g_assert_true(scan_key(&p, "current"));
	g_assert_false(scan_char(&p, '2'));
	g_assert_true(scan_char(&p, '1'));
	g_assert_false(scan_char(&p, '\0'));	/* never steps past the end */
	g_assert_cmpint(*p, ==, '\0');

	p = "place:3";
	g_assert_false(scan_name(&p, names, 3, "", &which));
	g_assert_true(scan_name(&p, names, 3, ":", &which));
	g_assert_cmpint(which, ==, 2);
	g_assert_cmpstr(p, ==, ":3");

	p = "a=1,2 b=3";
	g_assert_true(scan_key(&p, "a"));
	scan_skip_value(&p);
	g_assert_cmpstr(p, ==, " b=3");
}

static void test_field(void)
{
	const char *line = "players=2 width=10 scores=3,-1 roll= stage=place";
	size_t len = 99;

	g_assert_cmpstr(scan_field(line, "scores", &len), ==, "3,-1 roll= stage=place");
	g_assert_cmpuint(len, ==, 4);
	g_assert_cmpstr(scan_field(line, "players", NULL), ==, "2 width=10 scores=3,-1 roll= stage=place");
	g_assert_nonnull(scan_field(line, "roll", &len));	/* present but empty */
	g_assert_cmpuint(len, ==, 0);
	g_assert_cmpuint(strlen(scan_field(line, "stage", &len)), ==, 5);
	g_assert_null(scan_field(line, "play", NULL));	/* a prefix of a key is not the key */
	g_assert_null(scan_field(line, "place", NULL));	/* nor is a value */
	g_assert_null(scan_field("", "a", NULL));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/scan/int", test_int);
	g_test_add_func("/scan/key-name-char", test_key_name_char);
	g_test_add_func("/scan/field", test_field);
	return g_test_run();
}
