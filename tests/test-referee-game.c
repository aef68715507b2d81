/*
 * test-referee-game: game_run() on Tetris Link against the fake bot:
 * every fault ends as its named fault, no game hangs, nothing outlives
 * the game, stderr is capped, logs verify, the same seed gives the same
 * game, and a tampered log fails verification at the right line.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "referee-testutil.h"
#include "referee/gamelog.h"
#include "referee/replay.h"
#include "link.h"


static void fixture_setup(Fixture *f, gconstpointer data)
{
	/* A small tower, for short games. */
	const TimeControl tc = {.bank = 600, .inc = 0, .move = 300, .start = 2000, .grace = 50};

	(void)data;
	test_fixture_init(f, &variant_link, 7, &tc, "marker");
	variant_option_set(&variant_link, &f->spec.config, "height", "8");
	variant_option_set(&variant_link, &f->spec.config, "width", "6");
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	(void)data;
	test_fixture_clear(f);
}

/* Descriptors this process has open. */
static int count_fds(void)
{
	GDir *d = g_dir_open("/proc/self/fd", 0, NULL);
	int n = 0;

	g_assert_nonnull(d);
	while (g_dir_read_name(d))
		n++;
	g_dir_close(d);
	return n;
}

static void run(Fixture *f)
{
	g_autoptr(GError) err = NULL;
	int fds = count_fds();

	g_assert_true(game_run(&f->spec, &f->res, &err));
	g_assert_no_error(err);
	/* no descriptor leaked (kept bots hold theirs) */
	if (!f->spec.keep_bots)
		g_assert_cmpint(count_fds(), ==, fds);
	g_assert_cmpint(test_count_survivors(f->marker), ==, 0);
}

static void assert_verifies(const char *path)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) log = gamelog_read(path, &err);

	g_assert_no_error(err);
	g_assert_true(log->complete);
	g_assert_true(replay_verify(log, &err));
	g_assert_no_error(err);
}

static void test_legal(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "legal", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.nseats, ==, 2);
	g_assert_cmpint(f->res.end, ==, GAME_END_RULES);
	for (int p = 0; p < 2; p++) {
		g_assert_cmpint(f->res.seat[p].first_fault, ==, -1);
		g_assert_cmpint(f->res.seat[p].moves, >, 0);
		g_assert_cmpstr(f->res.seat[p].name, ==, "legal");
	}
	g_assert_cmpint(f->res.seat[0].rank + f->res.seat[1].rank, <=, 3);
	assert_verifies(f->log);
}

/* Each move's CPU time is the bot's own, to the microsecond: a bot that
 * burns 10 ms of CPU per move is charged at least that, an instant one
 * little but not nothing. */
static void test_cpu_time(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "busy", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	for (int p = 0; p < 2; p++)
		g_assert_cmpint(f->res.seat[p].first_fault, ==, -1);
	const GameSeatResult *busy = &f->res.seat[0], *quick = &f->res.seat[1];
	g_assert_cmpint(busy->moves, >, 0);
	g_assert_cmpfloat(busy->cpu_ms, >=, 10.0 * busy->moves);
	g_assert_cmpfloat(busy->cpu_ms, <=, busy->mean_ms * busy->moves + 50 * test_time_scale());
	g_assert_cmpfloat(quick->cpu_ms, >, 0);
	g_assert_cmpfloat(quick->cpu_ms, <, busy->cpu_ms);
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) log = gamelog_read(f->log, &err);
	g_assert_no_error(err);
	int logged = 0;
	for (guint i = 0; i < log->events->len; i++) {
		const GameLogEvent *ev = g_ptr_array_index(log->events, i);
		if (ev->kind == GAMELOG_MOVE && ev->seat == 0) {
			g_assert_cmpfloat(ev->cpu_ms, >=, 10.0);
			logged++;
		}
	}
	g_assert_cmpint(logged, ==, busy->moves);
	/* every timed line has both times in ms with three decimals */
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f->log, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	int timed = 0;
	for (int i = 0; lines[i]; i++)
		if (g_str_has_prefix(lines[i], "move ")) {
			g_assert_true(g_regex_match_simple("^move [01] [A-Z][0-3]@[0-9]+ wall=[0-9]+\\.[0-9]{3} "
							   "cpu=[0-9]+\\.[0-9]{3}$",
							   lines[i], 0, 0));
			timed++;
		}
	g_assert_cmpint(timed, ==, busy->moves + quick->moves);
	assert_verifies(f->log);
}

typedef struct {
	const char *mode;
	GameFault fault;
} FaultCase;

static const FaultCase fault_cases[] = {
	{"illegal", GAME_FAULT_ILLEGAL},
	{"garbage", GAME_FAULT_TIMEOUT},	/* an unknown line is ignored */
	{"badmove", GAME_FAULT_MALFORMED},
	{"crash", GAME_FAULT_CRASH},
	{"abort", GAME_FAULT_CRASH},
	{"sigkill", GAME_FAULT_CRASH},
	{"hang", GAME_FAULT_TIMEOUT},
	{"slow", GAME_FAULT_TIMEOUT},
	{"flood", GAME_FAULT_LINE_TOO_LONG},
	{"nonewline", GAME_FAULT_TIMEOUT},
	{"closeout", GAME_FAULT_CRASH},
	{"grandchild", GAME_FAULT_TIMEOUT},
	{"decline", GAME_FAULT_DECLINED},
	{"nohello", GAME_FAULT_START},
};

static void test_fault(Fixture *f, gconstpointer data)
{
	const FaultCase *c = data;
	gint64 t0 = g_get_monotonic_time();

	GameFault want = c->fault;

	/* Jailed, the bot is its PID namespace's init: when it exits, the
	 * child holding its output dies with it, so the exit shows at once;
	 * but bwrap, which waits for it, holds its pipes too, so output
	 * closed by a bot that lives on shows only at its deadline. */
	if (strcmp(c->mode, "grandchild") == 0 && !sandbox_unavailable())
		want = GAME_FAULT_CRASH;
	if (strcmp(c->mode, "closeout") == 0 && !sandbox_unavailable())
		want = GAME_FAULT_TIMEOUT;
	/* A fault that is a wait lasts the allowance it waits out: those
	 * allowances shortened (an instant bot still starts and answers
	 * well inside them). */
	if (want == GAME_FAULT_START)
		f->spec.time.start = (gint64)(500 * test_time_scale());
	if (want == GAME_FAULT_TIMEOUT)
		f->spec.time.move = (gint64)(150 * test_time_scale());
	test_seat(f, 0, c->mode, 2);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.seat[0].first_fault, ==, want);
	g_assert_cmpint(f->res.seat[0].faults[want], ==, 1);
	g_assert_cmpint(f->res.seat[1].first_fault, ==, -1);
	/* forfeit: the faulty seat ranks last */
	g_assert_cmpint(f->res.seat[0].rank, ==, 2);
	g_assert_cmpint(f->res.seat[1].rank, ==, 1);
	/* and the game ends at once: the last seat left does not play alone
	 * (it moved at most once more than the faulty seat's 2 moves) */
	g_assert_cmpint(f->res.seat[1].moves, <=, 3);
	/* no hang: the game ends within its own time budget */
	g_assert_cmpint(g_get_monotonic_time() - t0, <, (gint64)(5e6 * test_time_scale()));
	assert_verifies(f->log);
}

/* A crash fault's detail: how the bot's process ended. */
typedef struct {
	const char *mode;
	SandboxMode sandbox;
	const char *line;	/* the fault line the log must hold */
} DetailCase;

static const DetailCase detail_cases[] = {
	{"crash", SANDBOX_OFF, "fault 0 crash output closed; exited with status 3"},
	{"crash", SANDBOX_ON, "fault 0 crash output closed; exited with status 3"},
	{"sigkill", SANDBOX_OFF, "fault 0 crash output closed; killed by signal 9 (SIGKILL)"},
	{"sigkill", SANDBOX_ON, "fault 0 crash output closed; killed by signal 9 (SIGKILL)"},
	/* (only bare: jailed, bwrap holds the output, so this is a timeout) */
	{"closeout", SANDBOX_OFF, "fault 0 crash output closed; still running; killed"},
};

static void test_fault_detail(Fixture *f, gconstpointer data)
{
	const DetailCase *c = data;

	if (c->sandbox == SANDBOX_ON && sandbox_unavailable()) {
		g_test_skip(sandbox_unavailable());
		return;
	}
	f->spec.sandbox = c->sandbox;
	test_seat(f, 0, c->mode, 2);
	test_seat(f, 1, "legal", 0);
	gint64 t0 = g_get_monotonic_time();
	run(f);
	/* a bot that lives on is waited for no longer than the grace */
	g_assert_cmpint(g_get_monotonic_time() - t0, <, (gint64)(2e6 * test_time_scale()));
	g_assert_cmpint(f->res.seat[0].first_fault, ==, GAME_FAULT_CRASH);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f->log, &text, NULL, NULL));
	g_autofree char *want = g_strdup_printf("\n%s\n", c->line);
	g_assert_nonnull(strstr(text, want));
	assert_verifies(f->log);

	/* The detail is words for people: a log with the old one ("output
	 * closed" alone) verifies and records the same game. */
	g_autofree char *old_path = g_build_filename(f->dir, "old.log", NULL);
	char *at = strstr(text, want) + strlen("\nfault 0 crash output closed");
	memmove(at, strchr(at, '\n'), strlen(strchr(at, '\n')) + 1);
	g_assert_true(g_file_set_contents(old_path, text, -1, NULL));
	assert_verifies(old_path);
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) a = gamelog_read(f->log, &err);
	g_autoptr(GameLog) b = gamelog_read(old_path, &err);
	g_assert_no_error(err);
	g_assert_true(replay_compare(a, b, &err));
	g_assert_no_error(err);
}

static void test_start_missing(Fixture *f, gconstpointer data)
{
	(void)data;
	g_autoptr(GError) err = NULL;
	BotSpec *bs = bot_spec_new("/nonexistent/bot --x", NULL, &err);

	g_assert_no_error(err);
	g_ptr_array_add(f->specs, bs);
	f->spec.seats[0].spec = bs;
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.seat[0].first_fault, ==, GAME_FAULT_START);
	g_assert_cmpint(f->res.seat[1].rank, ==, 1);
	assert_verifies(f->log);
}

/* Unknown line types, empty lines and `#` comments are logged and
 * ignored, never a fault (the protocol grows by adding line types). */
static void test_chatter(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "chatter", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.seat[0].first_fault, ==, -1);
	g_assert_cmpint(f->res.seat[0].moves, >, 2);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f->log, &text, NULL, NULL));
	g_assert_true(g_regex_match_simple("^< 0 \\+[0-9]+ ping 1$", text, G_REGEX_MULTILINE, 0));
	g_assert_true(g_regex_match_simple("^< 0 \\+[0-9]+ # thinking$", text, G_REGEX_MULTILINE, 0));
	g_assert_true(g_regex_match_simple("^< 0 \\+[0-9]+ $", text, G_REGEX_MULTILINE, 0));
	/* every go carries the bank beside the time for the move */
	g_assert_true(g_regex_match_simple("^> 0 \\+[0-9]+ go [0-9]+ bank=[0-9]+ players=", text,
					   G_REGEX_MULTILINE, 0));
	assert_verifies(f->log);
}

static void test_stderr_cap(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "stderr", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.seat[0].first_fault, ==, -1);
	g_autofree char *errpath = g_strdup_printf("%s.seat0.stderr", f->log);
	GStatBuf st;
	g_assert_cmpint(g_stat(errpath, &st), ==, 0);
	g_assert_cmpint(st.st_size, >=, BOT_STDERR_CAP);
	g_assert_cmpint(st.st_size, <, BOT_STDERR_CAP + 200);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(errpath, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "more bytes of stderr dropped"));
	assert_verifies(f->log);
}

static void test_random_policy(Fixture *f, gconstpointer data)
{
	(void)data;
	f->spec.policy = VARIANT_FAULT_RANDOM;
	test_seat(f, 0, "illegal", 1);
	test_seat(f, 1, "legal", 0);
	run(f);
	/* the bot stays and keeps faulting; its moves are played for it */
	g_assert_cmpint(f->res.seat[0].faults[GAME_FAULT_ILLEGAL], >, 1);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f->log, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "\nrandom 0 "));
	assert_verifies(f->log);
}

/* `nothing` on one-player turns forfeits: the seat is retired, not played. */
static void test_nothing_policy(Fixture *f, gconstpointer data)
{
	(void)data;
	f->spec.policy = VARIANT_FAULT_NOTHING;
	test_seat(f, 0, "decline", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_assert_cmpint(f->res.seat[0].first_fault, ==, GAME_FAULT_DECLINED);
	g_assert_cmpint(f->res.seat[0].rank, ==, 2);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f->log, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "\nretire 0\n"));
	g_assert_null(strstr(text, "\nrandom 0 "));
	assert_verifies(f->log);
}

/* Same seed, same bots: the same game, times apart. */
static void test_determinism(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "legal", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	g_autofree char *again = g_build_filename(f->dir, "again.log", NULL);
	GameResult r2;
	g_autoptr(GError) err = NULL;
	f->spec.log_path = again;
	g_assert_true(game_run(&f->spec, &r2, &err));
	game_result_clear(&r2);
	g_autoptr(GameLog) a = gamelog_read(f->log, &err);
	g_autoptr(GameLog) b = gamelog_read(again, &err);
	g_assert_no_error(err);
	g_assert_true(replay_compare(a, b, &err));
	g_assert_no_error(err);
}

/* Replace the first line starting with `prefix` by `with`; OUT: its number. */
static int tamper(const char *path, const char *prefix, const char *(*edit)(const char *line))
{
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	int at = 0;
	for (int i = 0; lines[i]; i++)
		if (!at && g_str_has_prefix(lines[i], prefix)) {
			char *n = g_strdup(edit(lines[i]));
			g_free(lines[i]);
			lines[i] = n;
			at = i + 1;
		}
	g_assert_cmpint(at, >, 0);
	g_autofree char *out = g_strjoinv("\n", lines);
	g_assert_true(g_file_set_contents(path, out, -1, NULL));
	return at;
}

static const char *edit_move(const char *line)
{
	(void)line;
	return "move 0 I0@15 wall=0.1 cpu=0";	/* never inside the tower */
}

static const char *edit_score(const char *line)
{
	static char buf[256];
	const char *s = strstr(line, "scores=");
	g_assert_nonnull(s);
	/* scores=A,...: make A one more */
	int a = (int)g_ascii_strtoll(s + 7, NULL, 10);
	const char *rest = strchr(s, ',');
	g_snprintf(buf, sizeof(buf), "%.*sscores=%d%s", (int)(s - line), line, a + 1, rest);
	return buf;
}

static const char *edit_chance(const char *line)
{
	return strcmp(line, "chance roll I") == 0 ? "chance roll O" : "chance roll I";
}

static void check_tamper(Fixture *f, const char *prefix, const char *(*edit)(const char *))
{
	test_seat(f, 0, "legal", 0);
	test_seat(f, 1, "legal", 0);
	run(f);
	int at = tamper(f->log, prefix, edit);
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) log = gamelog_read(f->log, &err);
	g_assert_no_error(err);
	g_assert_false(replay_verify(log, &err));
	g_assert_nonnull(err);
	g_autofree char *want = g_strdup_printf(":%d: ", at);
	g_test_message("verify says: %s", err->message);
	g_assert_nonnull(strstr(err->message, want));
}

static void test_tamper_score(Fixture *f, gconstpointer data)
{
	(void)data;
	check_tamper(f, "result ", edit_score);
}

static void test_tamper_chance(Fixture *f, gconstpointer data)
{
	(void)data;
	check_tamper(f, "chance ", edit_chance);
}

static void test_tamper_move(Fixture *f, gconstpointer data)
{
	(void)data;
	check_tamper(f, "move 0 ", edit_move);
}

/* Bots that said `multi` are handed back and play the next game. */
static void test_keep_bots(Fixture *f, gconstpointer data)
{
	(void)data;
	test_seat(f, 0, "multi", 0);
	test_seat(f, 1, "multi", 0);
	f->spec.keep_bots = TRUE;
	f->spec.seats[0].games = f->spec.seats[1].games = 2;
	g_autoptr(GError) err = NULL;
	g_assert_true(game_run(&f->spec, &f->res, &err));
	g_assert_nonnull(f->res.seat[0].bot);
	g_assert_nonnull(f->res.seat[1].bot);
	GameSpec s2 = f->spec;
	g_autofree char *log2 = g_build_filename(f->dir, "game2.log", NULL);
	s2.log_path = log2;
	s2.seed = 8;
	for (int p = 0; p < 2; p++) {
		s2.seats[p].bot = f->res.seat[p].bot;
		f->res.seat[p].bot = NULL;
	}
	s2.keep_bots = FALSE;
	GameResult r2;
	g_assert_true(game_run(&s2, &r2, &err));
	g_assert_cmpint(r2.seat[0].first_fault, ==, -1);
	g_assert_cmpint(r2.seat[1].first_fault, ==, -1);
	g_assert_null(r2.seat[0].bot);
	game_result_clear(&r2);
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(log2, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, " game 2 variant=link"));
	g_assert_null(strstr(text, "tetrarena 1"));
	g_assert_cmpint(test_count_survivors(f->marker), ==, 0);
	assert_verifies(log2);
}

/* A kept bot's cpu limit counts afresh for each game, within cpu x games
 * + 1 s in all. The `burn` bot, with cpu = 1 s, burns k times `n` ms of
 * CPU time in its k-th game; the `hog` burns without end from its n-th,
 * ignoring SIGXCPU. Each in one process from game to game. */
typedef struct {
	const char *name;
	SandboxMode sandbox;
	const char *mode;
	long n;
	int games;		/* played, the bots kept from one to the next */
	int crash;		/* the game it crashes in, or 0 */
	const char *end;	/* how, in the crash fault */
	int xcpu;		/* SIGXCPU noted by the hog in that game */
} KeptCpuCase;

static const KeptCpuCase kept_cpu_cases[] = {
	/* 0.2, 0.4 and 0.6 s: 1.2 s in all, less than 1 s in each game */
	{"renewed-off", SANDBOX_OFF, "burn", 200, 3, 0, NULL, 0},
	{"renewed-on", SANDBOX_ON, "burn", 200, 3, 0, NULL, 0},
	/* 0.7 s, then 1.4 s: more than its second game allows (2 s in all:
	 * its first game's second, rounded up, and 1); the kernel charges
	 * CPU time by ticks, which under load overcounts a busy process by a
	 * tenth of a second and more, hence the margin below 1 s */
	{"still-binds", SANDBOX_AUTO, "burn", 700, 2, 2, "killed by signal 24 (SIGXCPU); CPU time limit", 0},
	/* hard limit 1 x 2 + 1 = 3 s; its second game's soft one 2 s (a
	 * few ms rounded up, plus 1): SIGXCPU at 2 s, SIGKILL at 3 s */
	{"hog-killed", SANDBOX_AUTO, "hog", 2, 2, 2, "killed by signal 9 (SIGKILL)", 1},
};

/* How many lines of `path` are `line`. */
static int count_lines(const char *path, const char *line)
{
	g_autofree char *text = NULL;
	int n = 0;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++)
		n += strcmp(lines[i], line) == 0;
	return n;
}

static void test_kept_cpu(Fixture *f, gconstpointer data)
{
	const KeptCpuCase *c = data;
	/* time for the burns, even on a loaded machine */
	const TimeControl tc = {.bank = 30000, .inc = 0, .move = 15000, .start = 5000, .grace = 50};

	if (c->sandbox == SANDBOX_ON && sandbox_unavailable()) {
		g_test_skip(sandbox_unavailable());
		return;
	}
	f->spec.sandbox = c->sandbox;
	f->spec.time = tc;
	timectl_scale(&f->spec.time, test_time_scale());
	f->spec.keep_bots = TRUE;
	test_seat(f, 0, c->mode, (int)c->n);
	BotSpec *burner = g_ptr_array_index(f->specs, 0);
	burner->limits.cpu = 1;
	test_seat(f, 1, "multi", 0);
	f->spec.seats[0].games = f->spec.seats[1].games = c->games;
	for (int k = 1; k <= c->games; k++) {
		g_autofree char *log = g_strdup_printf("%s/game%d.log", f->dir, k);
		g_autofree char *err0 = g_strdup_printf("%s.seat0.stderr", log);
		g_autoptr(GError) err = NULL;
		GameResult r;
		f->spec.log_path = log;
		g_assert_true(game_run(&f->spec, &r, &err));
		g_assert_no_error(err);
		g_assert_cmpint(r.seat[1].first_fault, ==, -1);
		if (k == c->crash) {
			g_assert_cmpint(r.seat[0].first_fault, ==, GAME_FAULT_CRASH);
			g_autofree char *text = NULL;
			g_autofree char *want = g_strdup_printf("\nfault 0 crash output closed; %s\n", c->end);
			g_assert_true(g_file_get_contents(log, &text, NULL, NULL));
			g_assert_nonnull(strstr(text, want));
			g_assert_cmpint(count_lines(err0, "SIGXCPU"), ==, c->xcpu);
		} else {
			g_assert_cmpint(r.seat[0].first_fault, ==, -1);
			if (strcmp(c->mode, "burn") == 0)
				g_assert_cmpfloat(r.seat[0].cpu_ms, >=, (double)(k * c->n));
			/* the same process */
			g_assert_nonnull(r.seat[0].bot);
		}
		assert_verifies(log);
		for (int p = 0; p < 2; p++) {
			f->spec.seats[p].bot = r.seat[p].bot;
			r.seat[p].bot = NULL;
		}
		game_result_clear(&r);
		f->spec.log_path = f->log;
	}
	for (int p = 0; p < 2; p++)
		bot_free(g_steal_pointer(&f->spec.seats[p].bot));
	g_assert_cmpint(test_count_survivors(f->marker), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn, data) g_test_add(path, Fixture, data, fixture_setup, fn, fixture_teardown)
	ADD("/referee/game/legal", test_legal, NULL);
	ADD("/referee/game/cpu-time", test_cpu_time, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(fault_cases); i++) {
		g_autofree char *path = g_strdup_printf("/referee/game/fault/%s", fault_cases[i].mode);
		ADD(path, test_fault, &fault_cases[i]);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(detail_cases); i++) {
		g_autofree char *path = g_strdup_printf("/referee/game/fault-detail/%s-%s", detail_cases[i].mode,
							sandbox_mode_name(detail_cases[i].sandbox));
		ADD(path, test_fault_detail, &detail_cases[i]);
	}
	ADD("/referee/game/fault/start-missing", test_start_missing, NULL);
	ADD("/referee/game/stderr-cap", test_stderr_cap, NULL);
	ADD("/referee/game/chatter", test_chatter, NULL);
	ADD("/referee/game/policy-random", test_random_policy, NULL);
	ADD("/referee/game/policy-nothing", test_nothing_policy, NULL);
	ADD("/referee/game/determinism", test_determinism, NULL);
	ADD("/referee/game/tamper/score", test_tamper_score, NULL);
	ADD("/referee/game/tamper/chance", test_tamper_chance, NULL);
	ADD("/referee/game/tamper/move", test_tamper_move, NULL);
	ADD("/referee/game/keep-bots", test_keep_bots, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(kept_cpu_cases); i++) {
		g_autofree char *path = g_strdup_printf("/referee/game/kept-cpu/%s", kept_cpu_cases[i].name);
		ADD(path, test_kept_cpu, &kept_cpu_cases[i]);
	}
	return g_test_run();
}
