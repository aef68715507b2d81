/*
 * test-referee-bot: bot processes and time controls: the environment and
 * descriptors a bot gets, its limits, line splitting with CR LF and the
 * line cap, stdin closing, how a bot's process ended (bare and jailed),
 * bots files and time control parsing.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "referee-testutil.h"
#include "referee/sandbox.h"
#include "referee/timectl.h"

/* Everything the bot prints, as lines, until EOF or 5 s (scaled). */
static GPtrArray *read_all(Bot *bot)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	gint64 deadline = g_get_monotonic_time() + (gint64)(5e6 * test_time_scale());

	for (;;) {
		const char *line;
		BotLineStatus st;
		while ((st = bot_next_line(bot, &line)) == BOT_LINE_OK)
			g_ptr_array_add(lines, g_strdup(line));
		if (st == BOT_LINE_TOO_LONG)
			g_ptr_array_add(lines, g_strdup("[too long]"));
		if (bot_eof(bot) || g_get_monotonic_time() > deadline)
			break;
		struct pollfd p = {.fd = bot_stdout_fd(bot), .events = POLLIN};
		poll(&p, 1, 100);
		bot_read(bot);
		bot_drain_stderr(bot);
	}
	return lines;
}

/* `sh -c script`, bare (launch NULL) or as `launch` says. */
static Bot *spawn_sh(const char *script, const BotLimits *limits, const SandboxLaunch *launch)
{
	g_autofree char *quoted = g_shell_quote(script);
	g_autofree char *cmd = g_strdup_printf("sh -c %s", quoted);
	g_autoptr(GError) err = NULL;
	g_autoptr(BotSpec) spec = bot_spec_new(cmd, "sh", &err);

	g_assert_no_error(err);
	if (limits)
		spec->limits = *limits;
	Bot *bot = bot_spawn(spec, NULL, launch, &err);
	g_assert_no_error(err);
	return bot;
}

static gboolean has_line(GPtrArray *lines, const char *want)
{
	for (guint i = 0; i < lines->len; i++)
		if (strcmp(g_ptr_array_index(lines, i), want) == 0)
			return TRUE;
	return FALSE;
}

static void test_environment(void)
{
	g_setenv("TETRARENA_SECRET", "leak", TRUE);
	Bot *bot = spawn_sh("env | sort", NULL, NULL);
	g_autoptr(GPtrArray) lines = read_all(bot);
	bot_free(bot);
	gboolean path = FALSE;
	for (guint i = 0; i < lines->len; i++) {
		const char *l = g_ptr_array_index(lines, i);
		g_assert_null(strstr(l, "TETRARENA_SECRET"));
		path |= g_str_has_prefix(l, "PATH=");
	}
	g_assert_true(path);
	g_assert_true(has_line(lines, "LANG=C"));
}

static void test_descriptors(void)
{
	/* A descriptor the referee holds open must not reach the bot. */
	int fds[2];
	g_assert_cmpint(pipe(fds), ==, 0);
	Bot *bot = spawn_sh("ls /proc/self/fd", NULL, NULL);
	g_autoptr(GPtrArray) lines = read_all(bot);
	bot_free(bot);
	close(fds[0]);
	close(fds[1]);
	/* 0 1 2 and the descriptor ls opened to read the directory */
	g_assert_cmpint(lines->len, <=, 4);
	g_assert_true(has_line(lines, "0") && has_line(lines, "1") && has_line(lines, "2"));
}

static void test_limits_and_group(void)
{
	BotLimits l;
	bot_spec_limits_default(&l);
	l.open_files = 17;
	l.memory = 300u << 20;
	l.cpu = 7;
	Bot *bot = spawn_sh("ulimit -n; ps -o pgid= -p $$ | tr -d ' '; echo $$; ulimit -t; ulimit -d; ulimit -Ht",
			    &l, NULL);
	g_autoptr(GPtrArray) lines = read_all(bot);
	bot_free(bot);
	g_assert_cmpint(lines->len, ==, 6);
	/* SIGXCPU at the cpu limit, SIGKILL a second later */
	g_assert_cmpstr(g_ptr_array_index(lines, 5), ==, "8");
	g_assert_cmpstr(g_ptr_array_index(lines, 0), ==, "17");
	/* its own process group, led by itself */
	g_assert_cmpstr(g_ptr_array_index(lines, 1), ==, g_ptr_array_index(lines, 2));
	g_assert_cmpstr(g_ptr_array_index(lines, 3), ==, "7");
	/* memory is the data limit (sh prints KiB), unless sanitizers need it off */
	if (g_strcmp0(g_getenv("TETRARENA_NO_MEMLIMIT"), "1") != 0)
		g_assert_cmpstr(g_ptr_array_index(lines, 4), ==, "307200");
}

static void test_lines(void)
{
	Bot *bot = spawn_sh("printf 'one\\r\\ntwo\\n\\nthree'", NULL, NULL);
	g_autoptr(GPtrArray) lines = read_all(bot);
	bot_free(bot);
	/* "three" has no newline: never a line */
	g_assert_cmpint(lines->len, ==, 3);
	g_assert_cmpstr(g_ptr_array_index(lines, 0), ==, "one");
	g_assert_cmpstr(g_ptr_array_index(lines, 1), ==, "two");
	g_assert_cmpstr(g_ptr_array_index(lines, 2), ==, "");
}

static void test_line_cap(void)
{
	/* A line of exactly 65535 bytes plus newline fits; one more does not. */
	Bot *bot = spawn_sh("head -c 65535 /dev/zero | tr '\\0' a; echo; head -c 65536 /dev/zero | tr '\\0' b; echo; echo after", NULL, NULL);
	g_autoptr(GPtrArray) lines = read_all(bot);
	bot_free(bot);
	g_assert_cmpint(lines->len, ==, 2);
	g_assert_cmpint(strlen(g_ptr_array_index(lines, 0)), ==, 65535);
	g_assert_cmpstr(g_ptr_array_index(lines, 1), ==, "[too long]");
}

static void test_write_closed(void)
{
	Bot *bot = spawn_sh("exec 0<&-; sleep 5", NULL, NULL);
	gint64 deadline = g_get_monotonic_time() + 2000000;
	BotWriteStatus st = BOT_WRITE_OK;
	/* the first writes may land before the bot closed its end */
	for (int i = 0; i < 200 && st == BOT_WRITE_OK; i++) {
		st = bot_write(bot, "hello\n", 6, deadline);
		g_usleep(5000);
	}
	g_assert_cmpint(st, ==, BOT_WRITE_CLOSED);
	bot_free(bot);
}

/* The modes a bot runs in here: bare, and jailed where bwrap works. */
static const SandboxLaunch bare = {.mode = SANDBOX_OFF, .cpu = -1};
static const SandboxLaunch jailed = {.mode = SANDBOX_ON, .cpu = -1};

static int nlaunches(void)
{
	return sandbox_unavailable() ? 1 : 2;
}

static const SandboxLaunch *launch_at(int i)
{
	return i == 0 ? &bare : &jailed;
}

/* bot_end_text() of a new bot running `script`, waiting up to `wait_s`
 * seconds (scaled). */
static char *end_of(const char *script, const BotLimits *limits, const SandboxLaunch *launch, double wait_s)
{
	Bot *bot = spawn_sh(script, limits, launch);
	char *text = bot_end_text(bot, g_get_monotonic_time() + (gint64)(wait_s * 1e6 * test_time_scale()));
	bot_free(bot);
	return text;
}

static void test_end_exit(void)
{
	for (int i = 0; i < nlaunches(); i++) {
		g_autofree char *text = end_of("exec >&-; exit 3", NULL, launch_at(i), 5);
		g_assert_cmpstr(text, ==, "exited with status 3");
	}
}

static void test_end_signal(void)
{
	for (int i = 0; i < nlaunches(); i++) {
		g_autofree char *text = end_of("exec >&-; kill -9 $$", NULL, launch_at(i), 5);
		g_assert_cmpstr(text, ==, "killed by signal 9 (SIGKILL)");
	}
}

/* A bot that closed its output and lives on is still running when the
 * wait ends, which is at its deadline, not later. */
static void test_end_running(void)
{
	for (int i = 0; i < nlaunches(); i++) {
		gint64 t0 = g_get_monotonic_time();
		g_autofree char *text = end_of("exec >&- 0<&-; exec sleep 30", NULL, launch_at(i), 0.2);
		gint64 took = g_get_monotonic_time() - t0;
		g_assert_null(text);
		g_assert_cmpint(took, >=, (gint64)(0.2e6 * test_time_scale()));
		g_assert_cmpint(took, <, (gint64)(1e6 * test_time_scale()));
	}
}

/* Its cpu limit ends a bot with SIGXCPU, which names the limit. */
static void test_end_cpu_limit(void)
{
	BotLimits l;
	bot_spec_limits_default(&l);
	l.cpu = 1;
	for (int i = 0; i < nlaunches(); i++) {
		g_autofree char *text = end_of("exec >&-; while :; do :; done", &l, launch_at(i), 20);
		g_assert_cmpstr(text, ==, "killed by signal 24 (SIGXCPU); CPU time limit");
	}
}

/* A bot that may be kept for 3 games, cpu 7: a finite hard limit of
 * 7 x 3 + 1 from the start, which renewal keeps while the soft one becomes
 * the CPU time it used (here some ms, rounded up to 1 s) plus 7; one
 * started for a single game keeps 7 and 8, its soft limit at most hard - 1. */
static void test_renew_cpu(void)
{
	static const struct {
		int games;
		const char *before, *after;	/* soft and hard */
	} cases[] = {{3, "7 22", "8 22"}, {1, "7 8", "7 8"}};
	BotLimits l;
	bot_spec_limits_default(&l);
	l.cpu = 7;
	for (int i = 0; i < nlaunches(); i++)
		for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
			SandboxLaunch keep = *launch_at(i);
			keep.games = cases[c].games;
			Bot *bot = spawn_sh("echo $(ulimit -St) $(ulimit -Ht); read x; echo $(ulimit -St) $(ulimit -Ht)",
					    &l, &keep);
			/* renewed while it waits between games, its clock standing */
			gint64 deadline = g_get_monotonic_time() + (gint64)(5e6 * test_time_scale());
			const char *line = NULL;
			while (bot_next_line(bot, &line) != BOT_LINE_OK && g_get_monotonic_time() < deadline) {
				struct pollfd p = {.fd = bot_stdout_fd(bot), .events = POLLIN};
				poll(&p, 1, 100);
				bot_read(bot);
			}
			g_assert_cmpstr(line, ==, cases[c].before);
			g_assert_true(bot_renew_cpu(bot));
			g_assert_cmpint(bot_write(bot, "go\n", 3, deadline), ==, BOT_WRITE_OK);
			g_autoptr(GPtrArray) lines = read_all(bot);
			bot_free(bot);
			g_assert_cmpint(lines->len, ==, 1);
			g_assert_cmpstr(g_ptr_array_index(lines, 0), ==, cases[c].after);
		}
}

/* A jail whose bwrap is killed before it could report says so. */
static void test_end_jail_killed(void)
{
	if (sandbox_unavailable()) {
		g_test_skip(sandbox_unavailable());
		return;
	}
	Bot *bot = spawn_sh("exec sleep 30", NULL, &jailed);
	g_assert_cmpint(kill(bot_pid(bot), SIGKILL), ==, 0);
	g_autofree char *text = bot_end_text(bot, g_get_monotonic_time() + (gint64)(5e6 * test_time_scale()));
	bot_free(bot);
	g_assert_cmpstr(text, ==, "jail killed by signal 9 (SIGKILL)");
}

static void test_start_failure(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(BotSpec) spec = bot_spec_new("no-such-program-here --flag", NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(spec->name, ==, "no-such-program-here");
	Bot *bot = bot_spawn(spec, NULL, NULL, &err);
	g_assert_null(bot);
	g_assert_nonnull(err);
	g_assert_nonnull(strstr(err->message, "not found"));
}

static void test_spec_names_and_hash(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = test_tmpdir();
	g_autofree char *script = g_build_filename(dir, "mybot.py", NULL);
	g_assert_true(g_file_set_contents(script, "print('hi')\n", -1, NULL));
	g_autofree char *cmd = g_strdup_printf("python3 -u %s", script);
	g_autoptr(BotSpec) spec = bot_spec_new(cmd, NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(spec->name, ==, "mybot.py");
	g_autofree char *h = bot_spec_hash(spec);
	/* sha256 of "print('hi')\n" */
	g_autofree char *want = g_compute_checksum_for_string(G_CHECKSUM_SHA256, "print('hi')\n", -1);
	g_assert_cmpstr(h, ==, want);
	g_assert_null(bot_spec_new("'unbalanced", NULL, &err));
	g_assert_nonnull(err);
	test_rmdir(dir);
}

static void test_bots_file(void)
{
	g_autofree char *dir = test_tmpdir();
	g_autofree char *path = g_build_filename(dir, "bots.ini", NULL);
	g_autoptr(GError) err = NULL;

	g_assert_true(g_file_set_contents(path,
		"[bot a]\ncommand=prog --x 'two words'\nworkdir=sub\nmemory=100\nopen-files=9\n", -1, NULL));
	g_autoptr(GHashTable) t = bot_spec_file_load(path, &err);
	g_assert_no_error(err);
	BotSpec *a = g_hash_table_lookup(t, "a");
	g_assert_nonnull(a);
	g_assert_cmpstr(a->argv[2], ==, "two words");
	g_assert_cmpuint(a->limits.memory, ==, 100u << 20);
	g_assert_cmpuint(a->limits.open_files, ==, 9);
	g_assert_true(g_str_has_suffix(a->workdir, "/sub"));

	g_assert_true(g_file_set_contents(path, "[bot a]\ncommand=x\ncpu=lots\n", -1, NULL));
	g_assert_null(bot_spec_file_load(path, &err));
	g_assert_nonnull(strstr(err->message, "cpu"));
	g_clear_error(&err);
	g_assert_true(g_file_set_contents(path, "[robot a]\ncommand=x\n", -1, NULL));
	g_assert_null(bot_spec_file_load(path, &err));
	g_assert_nonnull(strstr(err->message, "[robot a]"));
	g_clear_error(&err);
	g_assert_true(g_file_set_contents(path, "[bot a]\ncommand=x\ncolour=red\n", -1, NULL));
	g_assert_null(bot_spec_file_load(path, &err));
	g_assert_nonnull(strstr(err->message, "colour"));
	g_clear_error(&err);
	remove(path);
	test_rmdir(dir);
}

static void test_timectl(void)
{
	TimeControl tc;
	g_autoptr(GError) err = NULL;

	timectl_default(&tc);
	g_assert_cmpint(tc.bank, ==, 60000);
	g_assert_true(timectl_parse(&tc, "move:200,bank:1000,game:5000", &err));
	g_assert_cmpint(tc.move, ==, 200);
	g_assert_cmpint(tc.bank, ==, 1000);
	g_assert_cmpint(tc.game, ==, 5000);
	g_assert_cmpint(tc.inc, ==, 1000);
	g_autofree char *s = timectl_format(&tc);
	g_assert_cmpstr(s, ==, "bank:1000,inc:1000,move:200,start:10000");
	g_assert_false(timectl_parse(&tc, "tempo:3", &err));
	g_assert_nonnull(strstr(err->message, "tempo"));
	g_clear_error(&err);
	g_assert_false(timectl_parse(&tc, "bank:-5", &err));
	g_clear_error(&err);
	g_assert_false(timectl_parse(&tc, "bank", &err));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/referee/bot/environment", test_environment);
	g_test_add_func("/referee/bot/descriptors", test_descriptors);
	g_test_add_func("/referee/bot/limits-and-group", test_limits_and_group);
	g_test_add_func("/referee/bot/lines", test_lines);
	g_test_add_func("/referee/bot/line-cap", test_line_cap);
	g_test_add_func("/referee/bot/write-closed", test_write_closed);
	g_test_add_func("/referee/bot/end/exit", test_end_exit);
	g_test_add_func("/referee/bot/end/signal", test_end_signal);
	g_test_add_func("/referee/bot/end/running", test_end_running);
	g_test_add_func("/referee/bot/end/cpu-limit", test_end_cpu_limit);
	g_test_add_func("/referee/bot/renew-cpu", test_renew_cpu);
	g_test_add_func("/referee/bot/end/jail-killed", test_end_jail_killed);
	g_test_add_func("/referee/bot/start-failure", test_start_failure);
	g_test_add_func("/referee/bot/spec", test_spec_names_and_hash);
	g_test_add_func("/referee/bot/bots-file", test_bots_file);
	g_test_add_func("/referee/timectl", test_timectl);
	return g_test_run();
}
