/* Tests for engine/text: building, integers as printf writes them, and
 * truncation that always leaves a terminated string and says so. */
#include <glib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

static void test_build(void)
{
	char buf[64];
	Text t;

	text_init(&t, buf, sizeof(buf));
	g_assert_cmpstr(buf, ==, "");
	text_puts(&t, "go ");
	text_int(&t, 250);
	text_putc(&t, ' ');
	text_printf(&t, "%s=%d", "x", -4);
	g_assert_cmpstr(buf, ==, "go 250 x=-4");
	g_assert_cmpuint(t.len, ==, strlen(buf));
	g_assert_false(t.overflow);
}

static void test_int(void)
{
	static const long values[] = {0, 1, 9, 10, 99, 100, -1, -10, 123456789, LONG_MAX, LONG_MIN};

	for (size_t i = 0; i < G_N_ELEMENTS(values); i++) {
		char buf[32], want[32];
		Text t;
		text_init(&t, buf, sizeof(buf));
		text_int(&t, values[i]);
		snprintf(want, sizeof(want), "%ld", values[i]);
		g_assert_cmpstr(buf, ==, want);
		g_assert_false(t.overflow);
	}
}

/* Whatever does not fit is cut, the string stays terminated, and the
 * overflow flag is set, for every way of writing. */
static void test_overflow(void)
{
	char buf[6];
	Text t;

	text_init(&t, buf, sizeof(buf));
	text_puts(&t, "abc");
	text_int(&t, 12345);
	g_assert_cmpstr(buf, ==, "abc12");
	g_assert_true(t.overflow);

	text_init(&t, buf, sizeof(buf));
	text_printf(&t, "%d", 1234567);
	g_assert_cmpstr(buf, ==, "12345");
	g_assert_true(t.overflow);

	text_init(&t, buf, sizeof(buf));
	for (int i = 0; i < 10; i++)
		text_putc(&t, 'x');
	g_assert_cmpstr(buf, ==, "xxxxx");
	g_assert_cmpuint(t.len, ==, 5);
	g_assert_true(t.overflow);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/text/build", test_build);
	g_test_add_func("/text/int", test_int);
	g_test_add_func("/text/overflow", test_overflow);
	return g_test_run();
}
