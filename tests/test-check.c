/*
 * test-check: `referee check` as a library (referee/check.h): check_run()
 * on bin/bot-random passes every item, each with its verdict, and the
 * timed ones with their figures; on a fake bot that crashes, the game item
 * fails with the line and the hint and the logs are kept; the report
 * survives its JSON; a spec that cannot be checked is a usage error.
 */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "referee/check.h"
#include "referee-testutil.h"

typedef struct {
	int headings;		/* progress calls with no item */
	int items;		/* progress calls with an item */
} Seen;

static void progress(const CheckReport *r, int bot, const char *variant, int players, const CheckItem *it,
		     gpointer data)
{
	Seen *seen = data;

	g_assert_nonnull(r->bots[bot >= 0 ? bot : 0]);
	g_assert_cmpstr(variant, ==, "link");
	g_assert_cmpint(players, ==, 2);
	if (it)
		seen->items++;
	else
		seen->headings++;
}

static char *random_bot(void)
{
	const char *top = g_getenv("TETRARENA_TOP");

	return g_strdup_printf("%s/bin/bot-random", top ? top : ".");
}

static const CheckItem *find_item(const CheckReport *r, const char *name)
{
	for (guint i = 0; i < r->items->len; i++) {
		const CheckItem *it = g_ptr_array_index(r->items, i);
		if (g_strcmp0(it->name, name) == 0)
			return it;
	}
	return NULL;
}

static void spec_init(CheckSpec *spec, const char *const *bots)
{
	memset(spec, 0, sizeof(*spec));
	spec->bots = bots;
	spec->variant = "link";
	spec->seed = 1;
	timectl_default(&spec->time);
	spec->time.grace = (gint64)(200 * test_time_scale());
}

static void test_random(void)
{
	g_autofree char *bot = random_bot();
	const char *bots[] = {bot, NULL};
	static const char *const names[] = {"handshake", "game", "multi", "unknown", "start-up", "stateless",
					    "tight-time", "tight-worst", "memory", "quit"};
	CheckSpec spec;
	Seen seen = {0};
	g_autoptr(CheckReport) r = check_report_new();
	g_autoptr(GError) err = NULL;

	spec_init(&spec, bots);
	spec.progress = progress;
	spec.data = &seen;
	g_assert_true(check_run(&spec, r, &err));
	g_assert_no_error(err);
	g_assert_cmpint(r->failed, ==, 0);
	g_assert_cmpint(r->checked, ==, 1);
	g_assert_null(r->dir);	/* removed: nothing failed */
	g_assert_cmpint(r->items->len, ==, G_N_ELEMENTS(names));
	g_assert_cmpint(seen.headings, ==, 1);
	g_assert_cmpint(seen.items, ==, (int)r->items->len);
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		const CheckItem *it = g_ptr_array_index(r->items, i);
		g_assert_cmpstr(it->name, ==, names[i]);
		g_assert_cmpint(it->bot, ==, 0);
		g_assert_cmpstr(it->variant, ==, "link");
		/* a loaded machine may push a timed answer into the grace */
		g_assert_true(it->verdict == CHECK_OK || it->verdict == CHECK_WARN);
		g_assert_null(it->line);
		g_assert_null(it->after);
	}
	const CheckItem *quit = find_item(r, "quit"), *mem = find_item(r, "memory");
	const CheckItem *tight = find_item(r, "tight-time"), *hs = find_item(r, "handshake");
	g_assert_cmpstr(quit->unit, ==, "ms");
	g_assert_cmpfloat(quit->figure, >=, 0);
	g_assert_cmpfloat(quit->limit, ==, 2000);
	g_assert_cmpstr(tight->unit, ==, "ms");
	g_assert_cmpfloat(tight->limit, ==, 100);
	g_assert_cmpfloat(tight->figure, >=, 0);
	g_assert_true(g_str_has_prefix(hs->what, "hello bot-random "));
	g_assert_null(hs->unit);
	g_assert_cmpfloat(hs->figure, ==, -1);
	if (mem->unit) {	/* (unknown without /proc) */
		g_assert_cmpstr(mem->unit, ==, "KiB");
		g_assert_cmpfloat(mem->figure, >, 0);
	}
}

/* Remove a run's kept directory of logs. */
static void remove_logs(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_remove(path);
	}
	g_rmdir(dir);
}

static void test_crash(void)
{
	g_autofree char *bot = test_fakebot("crash", 3, "test-check-crash");
	const char *bots[] = {bot, NULL};
	const char *items[] = {"handshake", "game", "quit", NULL};
	CheckSpec spec;
	g_autoptr(CheckReport) r = check_report_new();
	g_autoptr(GError) err = NULL;

	spec_init(&spec, bots);
	spec.items = items;
	g_assert_true(check_run(&spec, r, &err));
	g_assert_cmpint(r->failed, ==, 1);
	g_assert_cmpint(r->items->len, ==, 3);
	const CheckItem *hs = g_ptr_array_index(r->items, 0), *game = g_ptr_array_index(r->items, 1);
	g_assert_cmpstr(hs->name, ==, "handshake");
	g_assert_cmpint(hs->verdict, ==, CHECK_OK);
	g_assert_cmpstr(game->name, ==, "game");
	g_assert_cmpint(game->verdict, ==, CHECK_FAILED);
	g_assert_nonnull(strstr(game->what, "fault crash of seat"));
	g_assert_nonnull(game->line);
	g_assert_true(g_str_has_prefix(game->line, "move "));	/* its last line before the crash */
	g_assert_null(strchr(game->line, '\n'));
	g_assert_true(g_str_has_prefix(game->after, "go "));	/* the referee's last line to it */
	g_assert_nonnull(strstr(game->hint, "exited or closed its output"));
	g_assert_nonnull(r->dir);	/* the logs are kept */
	g_assert_true(g_file_test(r->dir, G_FILE_TEST_IS_DIR));

	/* the JSON the ladder reads: the same items back */
	g_autofree char *json = check_report_json(r, NULL);
	g_autofree char *stopped = NULL;
	g_autoptr(CheckReport) back = check_report_from_json(json, strlen(json), &stopped, &err);
	g_assert_no_error(err);
	g_assert_null(stopped);
	g_assert_cmpint(back->failed, ==, 1);
	g_assert_cmpstr(back->dir, ==, r->dir);
	g_assert_cmpstr(back->bots[0], ==, bot);
	g_assert_cmpint(back->items->len, ==, r->items->len);
	for (guint i = 0; i < r->items->len; i++) {
		const CheckItem *a = g_ptr_array_index(r->items, i), *b = g_ptr_array_index(back->items, i);
		g_assert_cmpstr(a->name, ==, b->name);
		g_assert_cmpint(a->verdict, ==, b->verdict);
		g_assert_cmpstr(a->what, ==, b->what);
		g_assert_cmpstr(a->line, ==, b->line);
		g_assert_cmpstr(a->after, ==, b->after);
		g_assert_cmpstr(a->hint, ==, b->hint);
		g_assert_cmpstr(a->unit, ==, b->unit);
		g_assert_cmpfloat(a->figure - b->figure, <, 0.001);
		g_assert_cmpfloat(b->figure - a->figure, <, 0.001);
	}
	remove_logs(r->dir);
}

static void test_json_bad(void)
{
	static const char *const bad[] = {"", "[]", "{\"items\": []}", "{\"bots\": [], \"items\": [1]}",
					  "{\"bots\": [\"x\"], \"items\": [{\"verdict\": \"ok\""};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) err = NULL;
		g_autofree char *stopped = NULL;
		g_autoptr(CheckReport) r = check_report_from_json(bad[i], strlen(bad[i]), &stopped, &err);
		g_assert_null(r);
		g_assert_error(err, CHECK_ERROR, CHECK_ERROR_JSON);
	}
	/* a verdict it does not know counts as failed */
	const char *odd = "{\"bots\": [\"x\"], \"error\": \"gone\", \"items\": [{\"name\": \"game\", \"verdict\": \"maybe\"}]}";
	g_autoptr(GError) err = NULL;
	g_autofree char *stopped = NULL;
	g_autoptr(CheckReport) r = check_report_from_json(odd, strlen(odd), &stopped, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(stopped, ==, "gone");
	g_assert_cmpint(((CheckItem *)g_ptr_array_index(r->items, 0))->verdict, ==, CHECK_FAILED);
}

static void test_usage(void)
{
	const char *bots[] = {"true", NULL};
	const char *bad_option[] = {"width=x", NULL};
	CheckSpec spec;

	spec_init(&spec, bots);
	spec.players = 9;
	g_autoptr(GError) err = NULL;
	g_assert_false(check_spec_valid(&spec, &err));
	g_assert_error(err, CHECK_ERROR, CHECK_ERROR_USAGE);
	g_assert_cmpstr(err->message, ==, "link takes 2 to 4 players");
	g_clear_error(&err);
	spec.players = 0;
	spec.options = bad_option;
	g_autoptr(CheckReport) r = check_report_new();
	g_assert_false(check_run(&spec, r, &err));
	g_assert_error(err, CHECK_ERROR, CHECK_ERROR_USAGE);
	g_assert_cmpint(r->items->len, ==, 0);
	g_assert_null(r->dir);
	g_clear_error(&err);
	spec.options = NULL;
	spec.variant = "no-such-game";
	g_assert_false(check_spec_valid(&spec, &err));
	g_assert_error(err, CHECK_ERROR, CHECK_ERROR_USAGE);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	signal(SIGPIPE, SIG_IGN);
	g_test_add_func("/check/usage", test_usage);
	g_test_add_func("/check/json/bad", test_json_bad);
	g_test_add_func("/check/random", test_random);
	g_test_add_func("/check/crash", test_crash);
	return g_test_run();
}
