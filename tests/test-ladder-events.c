/*
 * test-ladder-events: authors' events (ladder/events.h) and the run's
 * hook (ladder/hook.h). An event names its author, or the entry's name
 * when it has none; its JSON line is one line whatever its text; the
 * Atom feed escapes everything and holds an author's events alone,
 * newest first; feed file names are safe and distinct. The hook gets
 * each event as one line on its stdin, several at once and queued; a
 * hook that never ends costs the sender nothing and is killed at its
 * deadline; one that fails is only said.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "ladder/db.h"
#include "ladder/events.h"
#include "ladder/hook.h"

typedef struct {
	char *dir;
	LadderDb *d;
} Fixture;

static void setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *path = NULL;

	(void)data;
	f->dir = g_dir_make_tmp("test-ladder-events-XXXXXX", &err);
	g_assert_no_error(err);
	path = g_build_filename(f->dir, "ladder", NULL);
	f->d = ladder_db_create(path, &err);
	g_assert_no_error(err);
}

static void teardown(Fixture *f, gconstpointer data)
{
	const char *rm[] = {"rm", "-rf", f->dir, NULL};

	(void)data;
	ladder_db_free(f->d);
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
	g_free(f->dir);
}

static void add(Fixture *f, const char *kind, const char *author, const char *name, const char *text)
{
	g_autoptr(GError) err = NULL;

	g_assert_true(ladder_event_add(f->d, kind, author, name, 0, 0, text, &err));
	g_assert_no_error(err);
}

static void test_author_and_json(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;

	(void)data;
	g_assert_cmpstr(ladder_event_author(NULL, "bot"), ==, "bot");
	g_assert_cmpstr(ladder_event_author("  ", "bot"), ==, "bot");
	g_assert_cmpstr(ladder_event_author("Ada", "bot"), ==, "Ada");
	add(f, "admitted", NULL, "bot", "line one\nline \"two\"\t\x01");
	add(f, "rejected", "Ada", "other", "rejected: no");
	g_assert_cmpint(ladder_events_last(f->d), ==, 2);
	g_autoptr(GPtrArray) all = ladder_events_list(f->d, 0, NULL, 10, FALSE, &err);
	g_assert_no_error(err);
	g_assert_cmpint(all->len, ==, 2);
	const LadderEvent *e = g_ptr_array_index(all, 0);
	g_assert_cmpstr(e->author, ==, "bot");
	g_autofree char *json = ladder_event_json(e);
	g_test_message("%s", json);
	g_assert_true(g_str_has_suffix(json, "}\n"));
	g_assert_true(strchr(json, '\n') == json + strlen(json) - 1);	/* one line */
	g_assert_nonnull(strstr(json, "\"kind\":\"admitted\""));
	g_assert_nonnull(strstr(json, "\"bot\":null"));
	g_assert_nonnull(strstr(json, "line one\\u000aline \\\"two\\\"\\u0009\\u0001"));
	g_autoptr(GPtrArray) after = ladder_events_list(f->d, 1, NULL, 10, FALSE, &err);
	g_assert_cmpint(after->len, ==, 1);
}

static void test_feed(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;

	(void)data;
	add(f, "admitted", "<script>Ada</script> & co", "bot", "admitted <b>as</b> version 1");
	add(f, "admitted", "Bea", "other", "admitted");
	add(f, "suspended", "<script>Ada</script> & co", "bot", "suspended\x02");
	g_autofree char *atom = ladder_events_atom(f->d, "<script>Ada</script> & co", "https://x/ladder/", &err);
	g_assert_no_error(err);
	g_test_message("%s", atom);
	g_assert_null(strstr(atom, "<script>"));
	g_assert_null(strstr(atom, "<b>"));
	g_assert_nonnull(strstr(atom, "&lt;script&gt;Ada&lt;/script&gt; &amp; co"));
	g_assert_null(strstr(atom, "\x02"));
	const char *sus = strstr(atom, "term=\"suspended\""), *adm = strstr(atom, "term=\"admitted\"");
	g_assert_true(sus && adm && sus < adm);	/* newest first */
	g_assert_null(strstr(atom, "Bea"));
	g_autofree char *empty = ladder_events_atom(f->d, "nobody", NULL, &err);
	g_assert_nonnull(strstr(empty, "</feed>"));
	g_assert_null(strstr(empty, "<entry>"));
	g_autofree char *f1 = ladder_events_feed_file("../../etc/passwd");
	g_autofree char *f2 = ladder_events_feed_file("etcpasswd");
	g_autofree char *f3 = ladder_events_feed_file("");
	g_assert_null(strchr(f1, '/'));
	g_assert_cmpstr(f1, !=, f2);
	g_assert_true(g_str_has_prefix(f1, "etcpasswd-") && g_str_has_suffix(f1, ".atom"));
	g_assert_cmpint(strlen(f3), ==, 8 + 5);
}

/* The lines of the file at path (0 when it cannot be read). */
static guint lines(const char *path)
{
	g_autofree char *text = NULL;
	guint n = 0;

	if (g_file_get_contents(path, &text, NULL, NULL))
		for (const char *p = text; *p; p++)
			n += *p == '\n';
	return n;
}

static void test_hook(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *out = g_build_filename(f->dir, "hook.out", NULL);
	g_autofree char *cmd = g_strdup_printf("cat >>'%s'", out);

	(void)data;
	for (int i = 0; i < 10; i++)
		add(f, "admitted", "Ada", "bot", "a line");
	g_autoptr(GPtrArray) ev = ladder_events_list(f->d, 0, NULL, 100, FALSE, &err);
	LadderHook *h = ladder_hook_new(cmd, 5000);
	for (guint i = 0; i < ev->len; i++)
		ladder_hook_send(h, g_ptr_array_index(ev, i));
	gint64 until = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
	while (lines(out) < 10 && g_get_monotonic_time() < until) {
		ladder_hook_poll(h);
		g_usleep(10000);
	}
	ladder_hook_free(h);
	g_assert_cmpuint(lines(out), ==, 10);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(out, &text, NULL, NULL));
	for (int i = 1; i <= 10; i++) {
		g_autofree char *id = g_strdup_printf("{\"id\":%d,", i);
		g_assert_nonnull(strstr(text, id));
	}

	/* one that never ends: sending costs nothing, it dies at its deadline */
	h = ladder_hook_new("sleep 30", 300);
	gint64 t0 = g_get_monotonic_time();
	ladder_hook_send(h, g_ptr_array_index(ev, 0));
	ladder_hook_poll(h);
	g_assert_cmpint(g_get_monotonic_time() - t0, <, 200000);
	ladder_hook_free(h);
	gint64 took = g_get_monotonic_time() - t0;
	g_test_message("a hook that sleeps: freed after %" G_GINT64_FORMAT " ms", took / 1000);
	g_assert_cmpint(took, >=, 300000);
	g_assert_cmpint(took, <, 3000000);

	/* one that fails, or cannot read its input: said, nothing else */
	h = ladder_hook_new("exit 7", 2000);
	ladder_hook_send(h, g_ptr_array_index(ev, 0));
	ladder_hook_free(h);
	h = ladder_hook_new("exec 0<&-; true", 2000);
	ladder_hook_send(h, g_ptr_array_index(ev, 0));
	ladder_hook_free(h);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	signal(SIGPIPE, SIG_IGN);
	g_test_add("/ladder/events/author-json", Fixture, NULL, setup, test_author_and_json, teardown);
	g_test_add("/ladder/events/feed", Fixture, NULL, setup, test_feed, teardown);
	g_test_add("/ladder/events/hook", Fixture, NULL, setup, test_hook, teardown);
	return g_test_run();
}
