/*
 * test-tournament: the run loop with a fake runner (results drawn from the
 * game seed, no processes): a run plays the whole schedule; running again
 * plays nothing; a run that stops part way and resumes ends with the same
 * games and standings; shards merged give the same standings as one run.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "engine/rng.h"
#include "tournaments/journal.h"
#include "tournaments/tournament.h"

typedef struct {
	int fail_after;		/* games before the runner starts failing, -1 never */
} FakeWorker;

static gint games_played;
static gint fail_after = -1;
static gint hang_game = -1;	/* this game id sleeps HANG_MS */
static gint hang_until_quiet;	/* ... or until no other game started for QUIET_MS */
static gint games_started;	/* every call of fake_play */
static gint pinned_games;	/* games the run gave a CPU */
#define HANG_MS 2500
#define QUIET_MS 250
/* With left_seen set: the `left` each bot was given, in the order its
 * games started. */
static GMutex left_lock;
static GArray *left_seen[4];

static gboolean fake_prepare(TournamentConfig *cfg, char **canonical, GError **error)
{
	(void)cfg;
	(void)error;
	*canonical = g_strdup("fake");
	return TRUE;
}

static gpointer fake_worker_new(const TournamentConfig *cfg, int worker)
{
	(void)cfg;
	(void)worker;
	return g_new0(FakeWorker, 1);
}

/* A bot's strength: ant 0, bee 1, cat 2, dog 3 (whatever its index). */
static int strength(const TournamentConfig *cfg, int bot)
{
	static const char *const names[] = { "ant", "bee", "cat", "dog" };
	const char *name = g_ptr_array_index(cfg->bot_names, bot);

	for (int i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return i;
	g_assert_not_reached();
}

/* A slow game: HANG_MS; with hang_until_quiet it ends sooner, once the
 * other workers have started no game for QUIET_MS (they are done or wait
 * on the slow one), both stretched by TETRARENA_TIME_SCALE. */
static void hang(void)
{
	const char *env = g_getenv("TETRARENA_TIME_SCALE");
	double scale = env && g_ascii_strtod(env, NULL) > 0 ? g_ascii_strtod(env, NULL) : 1;
	gint64 start = g_get_monotonic_time(), quiet_since = start;
	gint64 end = start + (gint64)(HANG_MS * 1000 * scale), quiet = (gint64)(QUIET_MS * 1000 * scale);
	int seen = g_atomic_int_get(&games_started);

	for (gint64 now = start; now < end; now = g_get_monotonic_time()) {
		int count = g_atomic_int_get(&games_started);

		if (count != seen) {
			seen = count;
			quiet_since = now;
		} else if (g_atomic_int_get(&hang_until_quiet) && now - quiet_since >= quiet) {
			return;
		}
		g_usleep(10 * 1000);
	}
}

/* The higher sum of a die and the bot's strength twice wins. */
static gboolean fake_play(gpointer state, const TournamentConfig *cfg, const ScheduleGame *g,
			  const int *left, const char *log_path, int cpu, JournalGame *out, GError **error)
{
	Rng rng;
	int score[VARIANT_MAX_PLAYERS];

	(void)state;
	g_mutex_lock(&left_lock);
	for (int k = 0; left_seen[0] && k < g->nseats; k++)
		g_array_append_val(left_seen[g->bot[k]], left[k]);
	g_mutex_unlock(&left_lock);
	(void)log_path;
	if (cpu >= 0)
		g_atomic_int_inc(&pinned_games);
	if (fail_after >= 0 && g_atomic_int_add(&games_played, 1) >= fail_after) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_RUN, "fake failure");
		return FALSE;
	}
	g_atomic_int_inc(&games_started);
	if (g->id == g_atomic_int_get(&hang_game))
		hang();
	rng_seed(&rng, g->seed ^ (uint64_t)g->bot[0] * 7919);
	for (int k = 0; k < g->nseats; k++)
		score[k] = (int)rng_below(&rng, 6) + strength(cfg, g->bot[k]) * 2 + (k == 0);
	for (int k = 0; k < g->nseats; k++) {
		out->seat[k].score = score[k];
		out->seat[k].rank = 1;
		for (int o = 0; o < g->nseats; o++)
			if (score[o] > score[k])
				out->seat[k].rank++;
		out->seat[k].moves = 10;
		out->seat[k].mean_ms = 1.0;
		out->seat[k].max_ms = 2.0;
		if (g->bot[k] == 0 && score[k] == 0)
			g_strlcpy(out->seat[k].faults, "timeout:1", sizeof(out->seat[k].faults));
	}
	g_strlcpy(out->end, "end", sizeof(out->end));
	out->plies = 20;
	return TRUE;
}

static const TournamentRunner fake_runner = {
	.prepare = fake_prepare,
	.worker_new = fake_worker_new,
	.worker_free = g_free,
	.play = fake_play,
};

static int run_variant(const char *variant, int pin, const char *dir, int players, const char *shard,
		       int concurrency, int watchdog)
{
	g_autoptr(TournamentConfig) cfg = tournament_config_new();
	static const char *const names[] = { "ant", "bee", "cat", "dog", NULL };

	cfg->variant_name = g_strdup(variant);
	if (pin >= 0)
		cfg->pin = pin;
	cfg->nseats = players;
	cfg->games = 3;
	cfg->seed = 5;
	cfg->seed_set = TRUE;
	cfg->concurrency = concurrency;
	cfg->output = g_strdup(dir);
	cfg->progress = FALSE;
	cfg->print = FALSE;
	cfg->bootstrap = 30;
	cfg->watchdog_s = watchdog;
	if (shard)
		g_assert_cmpint(sscanf(shard, "%d/%d", &cfg->shard_index, &cfg->shard_count), ==, 2);
	for (int i = 0; names[i]; i++)
		g_assert_true(tournament_config_add_bot(cfg, names[i], "fake", NULL));
	int status = tournament_run(cfg, &fake_runner);
	if (watchdog > 0) {
		/* A game the watchdog abandoned still runs on its thread and
		 * reads cfg when it wakes: kept until the process exits, as
		 * the referee's process keeps it. */
		static GPtrArray *kept;

		if (!kept)
			kept = g_ptr_array_new();
		g_ptr_array_add(kept, g_steal_pointer(&cfg));
	}
	return status;
}

static int run_tournament_watchdog(const char *dir, int players, const char *shard,
				   int concurrency, int watchdog)
{
	return run_variant("link", -1, dir, players, shard, concurrency, watchdog);
}

static int run_tournament(const char *dir, int players, const char *shard, int concurrency)
{
	return run_tournament_watchdog(dir, players, shard, concurrency, 0);
}

static char *read_file(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *data = NULL;

	g_assert_true(g_file_get_contents(path, &data, NULL, NULL));
	return data;
}

static int journal_games(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, JOURNAL_FILE, NULL);
	g_autoptr(GPtrArray) games = NULL;
	g_autoptr(GError) error = NULL;
	JournalHeader h = { 0 };

	g_assert_true(journal_read(path, &h, &games, NULL, &error));
	for (guint i = 1; i < games->len; i++)
		g_assert_cmpint(((JournalGame *)g_ptr_array_index(games, i - 1))->id, <,
				((JournalGame *)g_ptr_array_index(games, i))->id);
	journal_header_clear(&h);
	return (int)games->len;
}

static void remove_tree(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			remove_tree(p);
		else
			g_unlink(p);
	}
	g_rmdir(dir);
}

static gint cmp_int_desc(gconstpointer a, gconstpointer b)
{
	return *(const int *)b - *(const int *)a;
}

static void check_variant(int players, int total)
{
	g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);
	g_autofree char *one = g_build_filename(top, "one", NULL);
	g_autofree char *cut = g_build_filename(top, "cut", NULL);
	g_autofree char *s0 = g_build_filename(top, "s0", NULL);
	g_autofree char *s1 = g_build_filename(top, "s1", NULL);
	g_autofree char *s2 = g_build_filename(top, "s2", NULL);
	g_autofree char *merged = g_build_filename(top, "merged", NULL);
	g_autofree char *want = NULL;
	g_autofree char *got = NULL;

	g_assert_cmpint(run_tournament(one, players, NULL, 2), ==, 0);
	g_assert_cmpint(journal_games(one), ==, total);
	want = read_file(one, "standings.json");
	g_assert_nonnull(strstr(want, "\"elo_low\""));

	/* Again: nothing to play, same standings. */
	g_atomic_int_set(&games_played, 0);
	fail_after = 0;
	g_assert_cmpint(run_tournament(one, players, NULL, 2), ==, 0);
	fail_after = -1;
	got = read_file(one, "standings.json");
	g_assert_cmpstr(got, ==, want);
	g_clear_pointer(&got, g_free);

	/* Stopped part way by a failure, then resumed. */
	g_atomic_int_set(&games_played, 0);
	fail_after = total / 3;
	g_assert_cmpint(run_tournament(cut, players, NULL, 2), ==, 1);
	fail_after = -1;
	g_assert_cmpint(journal_games(cut) > 0 ? 1 : 0, ==, 1);
	g_assert_cmpint(journal_games(cut), <, total);
	g_assert_cmpint(run_tournament(cut, players, NULL, 1), ==, 0);
	g_assert_cmpint(journal_games(cut), ==, total);
	got = read_file(cut, "standings.json");
	g_assert_cmpstr(got, ==, want);
	g_clear_pointer(&got, g_free);

	/* Three shards, merged. */
	g_assert_cmpint(run_tournament(s0, players, "0/3", 1), ==, 0);
	g_assert_cmpint(run_tournament(s1, players, "1/3", 2), ==, 0);
	g_assert_cmpint(run_tournament(s2, players, "2/3", 1), ==, 0);
	g_assert_cmpint(journal_games(s0) + journal_games(s1) + journal_games(s2), ==, total);
	{
		char *dirs[] = { s2, s0, s1, NULL };

		g_assert_cmpint(tournament_merge(dirs, merged, -1, "referee", FALSE), ==, 0);
	}
	g_assert_cmpint(journal_games(merged), ==, total);
	got = read_file(merged, "standings.json");
	g_assert_cmpstr(got, ==, want);
	remove_tree(top);
}

/* By default a turn-based game (one bot thinks at a time) runs on one
 * CPU and a real-time one does not; either way can be forced. */
static void test_pin(void)
{
	static const struct {
		const char *variant;
		int pin, pinned;
	} cases[] = {
		{"link", -1, 1}, {"rush", -1, 0}, {"link", 0, 0}, {"rush", 1, 1},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *dir = g_dir_make_tmp("tetrarena-pin-XXXXXX", NULL);
		g_atomic_int_set(&pinned_games, 0);
		g_assert_cmpint(run_variant(cases[i].variant, cases[i].pin, dir, 2, NULL, 2, 0), ==, 0);
		int n = journal_games(dir);
		g_assert_cmpint(n, >, 0);
		g_assert_cmpint(g_atomic_int_get(&pinned_games), ==, cases[i].pinned ? n : 0);
		remove_tree(dir);
	}
}

static void test_two_player(void)
{
	check_variant(2, 6 * 2 * 3);
}

static void test_four_player(void)
{
	check_variant(4, 24 * 3);
}

static void test_three_of_four(void)
{
	check_variant(3, 4 * 6 * 3);
}

/* A hung game is abandoned by the watchdog; the others are played, and a
 * second run plays the missing one. */
static void test_watchdog(void)
{
	g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);

	g_atomic_int_set(&hang_game, 3);
	g_assert_cmpint(run_tournament_watchdog(top, 2, NULL, 2, 1), ==, 1);
	g_atomic_int_set(&hang_game, -1);
	g_assert_cmpint(journal_games(top), ==, 35);
	g_assert_cmpint(run_tournament_watchdog(top, 2, NULL, 2, 1), ==, 0);
	g_assert_cmpint(journal_games(top), ==, 36);
	remove_tree(top);
}

/* Another tournament's output directory is refused. */
static void test_mismatch(void)
{
	g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);

	g_assert_cmpint(run_tournament(top, 2, NULL, 1), ==, 0);
	g_assert_cmpint(run_tournament(top, 3, NULL, 1), ==, 1);
	remove_tree(top);
}

/* A 2-bot tournament with --sprt: bee (strength 1) against ant (0). */
static int run_sprt(const char *dir, const char *first, const char *second, int concurrency)
{
	g_autoptr(TournamentConfig) cfg = tournament_config_new();

	cfg->variant_name = g_strdup("link");
	cfg->nseats = 2;
	cfg->games = 500;
	cfg->seed = 1;
	cfg->seed_set = TRUE;
	cfg->concurrency = concurrency;
	cfg->output = g_strdup(dir);
	cfg->progress = FALSE;
	cfg->print = FALSE;
	cfg->bootstrap = 0;
	cfg->sprt = g_strdup("elo0=0,elo1=30");
	g_assert_true(tournament_config_add_bot(cfg, first, "fake", NULL));
	g_assert_true(tournament_config_add_bot(cfg, second, "fake", NULL));
	return tournament_run(cfg, &fake_runner);
}

/*
 * --sprt stops well before the schedule's 1000 games with the decision the
 * strengths call for, in the standings; running again plays nothing more;
 * a test over more than two bots is refused.
 */
static void test_sprt(void)
{
	static const struct { const char *first, *second, *decision; } cases[] = {
		{ "bee", "ant", "\"decision\": \"H1\"" },	/* the stronger first */
		{ "ant", "bee", "\"decision\": \"H0\"" },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		int alone = 0;

		for (int workers = 1; workers <= 2; workers++) {
			g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);
			g_autofree char *json = NULL;
			g_autofree char *journal = NULL;
			int n;

			/* With two workers, game 1 is slow: until the other
			 * worker has started nothing for QUIET_MS (it went as
			 * far ahead as it may), at most HANG_MS. */
			g_atomic_int_set(&hang_game, workers == 2 ? 1 : -1);
			g_atomic_int_set(&hang_until_quiet, 1);
			g_assert_cmpint(run_sprt(top, cases[c].first, cases[c].second, workers), ==, 0);
			g_atomic_int_set(&hang_until_quiet, 0);
			g_atomic_int_set(&hang_game, -1);
			n = journal_games(top);
			g_test_message("%s first, %d worker(s): %d games", cases[c].first, workers, n);
			g_assert_cmpint(n, <, 400);
			/* Two workers decide on the same pairs, and play on by at
			 * most the rounds a worker may run ahead of the oldest
			 * game in flight: the slow game once let the other
			 * worker play the whole schedule first. */
			if (workers == 1)
				alone = n;
			else
				g_assert_cmpint(n, <=, alone + 2 * (2 * 2 + 1) * 2);
			json = read_file(top, "standings.json");
			g_assert_nonnull(strstr(json, cases[c].decision));
			journal = read_file(top, JOURNAL_FILE);
			g_assert_nonnull(strstr(journal, " sprt=elo0=0,elo1=30,alpha=0.05,beta=0.05 "));
			g_assert_cmpint(run_sprt(top, cases[c].first, cases[c].second, workers), ==, 0);
			g_assert_cmpint(journal_games(top), ==, n);
			remove_tree(top);
		}
	}
	{
		g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);
		g_autoptr(TournamentConfig) cfg = tournament_config_new();

		cfg->variant_name = g_strdup("link");
		cfg->output = g_strdup(top);
		cfg->progress = FALSE;
		cfg->sprt = g_strdup("elo0=0,elo1=30");
		g_assert_true(tournament_config_add_bot(cfg, "ant", "fake", NULL));
		g_assert_true(tournament_config_add_bot(cfg, "bee", "fake", NULL));
		g_assert_true(tournament_config_add_bot(cfg, "cat", "fake", NULL));
		cfg->nseats = 2;
		g_assert_cmpint(tournament_run(cfg, &fake_runner), ==, 2);
		remove_tree(top);
	}
}

static void test_config_file(void)
{
	g_autofree char *top = g_dir_make_tmp("test-tournament-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(top, "t.ini", NULL);
	g_autoptr(TournamentConfig) cfg = tournament_config_new();
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path,
		"[tournament]\nvariant = link\nplayers = 3\ngames = 4\nseed = 77\n"
		"concurrency = 2\noutput = out\npin = true\nsprt = elo0=-5,elo1=5\n\n"
		"[bots]\nalpha = bin/bot-random --seed 1\nbeta = python3 bots/x.py\n", -1, NULL));
	g_assert_true(tournament_config_load(cfg, path, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(cfg->variant_name, ==, "link");
	g_assert_cmpint(cfg->nseats, ==, 3);
	g_assert_cmpint(cfg->games, ==, 4);
	g_assert_true(cfg->seed == 77);
	g_assert_true(cfg->seed_set);
	g_assert_cmpint(cfg->pin, ==, 1);
	g_assert_cmpstr(cfg->sprt, ==, "elo0=-5,elo1=5");
	g_assert_cmpuint(cfg->bot_names->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(cfg->bot_commands, 0), ==, "bin/bot-random --seed 1");

	g_assert_true(g_file_set_contents(path, "[tournament]\nvarient = link\n", -1, NULL));
	g_assert_false(tournament_config_load(cfg, path, &error));
	g_assert_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG);
	g_clear_error(&error);
	g_assert_true(g_file_set_contents(path, "[bots]\nbad name! = x\n", -1, NULL));
	g_assert_false(tournament_config_load(cfg, path, &error));
	g_clear_error(&error);
	g_unlink(path);
	g_rmdir(top);
}

/* Each game tells the runner how many games its bots have left in the
 * run, this one included: what a process started for it may play. Each
 * of the 4 bots plays 3 opponents x 2 seatings x 3 seeds = 18 games, and
 * is told 18, 17, ... 1 as they start, with 1 or 2 games at once. */
static void test_games_left(void)
{
	for (int concurrency = 1; concurrency <= 2; concurrency++) {
		g_autofree char *dir = g_dir_make_tmp("tetrarena-left-XXXXXX", NULL);
		for (int b = 0; b < 4; b++)
			left_seen[b] = g_array_new(FALSE, FALSE, sizeof(int));
		g_assert_cmpint(run_tournament(dir, 2, NULL, concurrency), ==, 0);
		for (int b = 0; b < 4; b++) {
			g_assert_cmpuint(left_seen[b]->len, ==, 18);
			/* two games at once record in the order they get
			 * here, not always the order they started */
			g_array_sort(left_seen[b], cmp_int_desc);
			for (int i = 0; i < 18; i++)
				g_assert_cmpint(g_array_index(left_seen[b], int, i), ==, 18 - i);
			g_array_free(left_seen[b], TRUE);
			left_seen[b] = NULL;
		}
		remove_tree(dir);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tournament/pin", test_pin);
	g_test_add_func("/tournament/two-player", test_two_player);
	g_test_add_func("/tournament/four-player", test_four_player);
	g_test_add_func("/tournament/three-of-four", test_three_of_four);
	g_test_add_func("/tournament/mismatch", test_mismatch);
	g_test_add_func("/tournament/watchdog", test_watchdog);
	g_test_add_func("/tournament/config-file", test_config_file);
	g_test_add_func("/tournament/sprt", test_sprt);
	g_test_add_func("/tournament/games-left", test_games_left);
	return g_test_run();
}
