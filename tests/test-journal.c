/*
 * test-journal: game lines round-trip; a journal resumes with every
 * finished game, cuts a torn last line, refuses another tournament's
 * journal, a second writer and a damaged line in the middle; a game's
 * sandbox round-trips (and is absent from older lines); the header alone
 * is read as journal_open() will find it.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tournaments/journal.h"

static void header_init(JournalHeader *h, const char *fingerprint)
{
	static char *bots[] = { "alpha", "beta", "gamma", NULL };

	memset(h, 0, sizeof(*h));
	h->fingerprint = (char *)fingerprint;
	h->variant = (char *)"link";
	h->nseats = 2;
	h->total = 12;
	h->seed = 99;
	h->per_seating = 2;
	h->bots = bots;
}

static JournalGame make_game(int id)
{
	JournalGame g = { .id = id, .round = id / 6, .seed = G_GUINT64_CONSTANT(18446744073709551615) - (guint64)id,
			  .nseats = 2, .bot = { id % 3, (id + 1) % 3 }, .plies = 40 + id, .wall_ms = 12 };

	g.seat[0] = (JournalSeat){ .rank = 1, .score = 14, .moves = 20, .mean_ms = 1.25, .max_ms = 3.5 };
	g.seat[1] = (JournalSeat){ .rank = 2, .score = -3, .moves = 19, .mean_ms = 0.5, .max_ms = 900.125 };
	g_strlcpy(g.seat[1].faults, "timeout:1+illegal:2", sizeof(g.seat[1].faults));
	g_strlcpy(g.end, "faults", sizeof(g.end));
	g_snprintf(g.log, sizeof(g.log), "games/%06d.log", id);
	return g;
}

static void assert_same_game(const JournalGame *a, const JournalGame *b)
{
	g_assert_cmpint(a->id, ==, b->id);
	g_assert_cmpint(a->round, ==, b->round);
	g_assert_true(a->seed == b->seed);
	g_assert_cmpint(a->nseats, ==, b->nseats);
	for (int k = 0; k < a->nseats; k++) {
		g_assert_cmpint(a->bot[k], ==, b->bot[k]);
		g_assert_cmpint(a->seat[k].rank, ==, b->seat[k].rank);
		g_assert_cmpint(a->seat[k].score, ==, b->seat[k].score);
		g_assert_cmpint(a->seat[k].moves, ==, b->seat[k].moves);
		g_assert_cmpfloat(a->seat[k].mean_ms, ==, b->seat[k].mean_ms);
		g_assert_cmpfloat(a->seat[k].max_ms, ==, b->seat[k].max_ms);
		g_assert_cmpstr(a->seat[k].faults, ==, b->seat[k].faults);
	}
	g_assert_cmpstr(a->end, ==, b->end);
	g_assert_cmpstr(a->log, ==, b->log);
	g_assert_cmpint(a->plies, ==, b->plies);
	g_assert_cmpint(a->sandbox, ==, b->sandbox);
}

static void test_roundtrip(void)
{
	JournalGame g = make_game(7), back;
	g_autofree char *line = journal_game_format(&g);
	g_autoptr(GError) error = NULL;

	g_assert_true(g_str_has_suffix(line, "\n"));
	line[strlen(line) - 1] = '\0';
	g_assert_true(journal_game_parse(line, &back, &error));
	g_assert_no_error(error);
	assert_same_game(&g, &back);
	/* One changed character breaks the check. */
	line[10] = line[10] == '1' ? '2' : '1';
	g_assert_false(journal_game_parse(line, &back, &error));
	g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT);
}

static char *temp_path(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-journal-XXXXXX", &error);

	g_assert_no_error(error);
	return g_build_filename(dir, JOURNAL_FILE, NULL);
}

static void remove_path(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);

	g_unlink(path);
	g_rmdir(dir);
}

static void test_resume(void)
{
	g_autofree char *path = temp_path();
	JournalHeader h;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) games = NULL;
	Journal *j;

	header_init(&h, "00ff");
	j = journal_open(path, &h, &games, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(games->len, ==, 0);
	g_clear_pointer(&games, g_ptr_array_unref);
	/* Out of order on purpose: readers sort by id. */
	for (int id = 5; id >= 0; id--) {
		JournalGame g = make_game(id);

		g_assert_true(journal_append(j, &g, &error));
	}
	/* A second writer is refused while the first holds the lock. */
	g_assert_null(journal_open(path, &h, NULL, &error));
	g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_BUSY);
	g_clear_error(&error);
	journal_free(j);

	/* A torn line at the end, as a kill during a write leaves it. */
	{
		JournalGame g = make_game(6);
		g_autofree char *line = journal_game_format(&g);
		g_autofree char *data = NULL;
		g_autofree char *torn = NULL;
		gsize len;

		g_assert_true(g_file_get_contents(path, &data, &len, NULL));
		torn = g_malloc(len + 31);
		memcpy(torn, data, len);
		memcpy(torn + len, line, 30);
		torn[len + 30] = '\0';
		g_assert_true(g_file_set_contents(path, torn, -1, NULL));
	}
	j = journal_open(path, &h, &games, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(games->len, ==, 6);
	for (int id = 0; id < 6; id++) {
		JournalGame want = make_game(id);

		assert_same_game(&want, g_ptr_array_index(games, id));
	}
	g_clear_pointer(&games, g_ptr_array_unref);
	{
		/* The torn bytes are gone: appending makes a clean line. */
		JournalGame g = make_game(6);
		JournalHeader back = { 0 };

		g_assert_true(journal_append(j, &g, &error));
		/* A duplicate keeps the first record. */
		g.seat[0].score = 1000;
		g_assert_true(journal_append(j, &g, &error));
		journal_free(j);
		g_assert_true(journal_read(path, &back, &games, NULL, &error));
		g_assert_no_error(error);
		g_assert_cmpuint(games->len, ==, 7);
		g_assert_cmpint(((JournalGame *)g_ptr_array_index(games, 6))->seat[0].score, ==, 14);
		g_assert_cmpstr(back.fingerprint, ==, "00ff");
		g_assert_cmpstr(back.bots[2], ==, "gamma");
		g_assert_cmpint(back.total, ==, 12);
		g_assert_true(back.seed == 99);
		journal_header_clear(&back);
	}

	/* Another tournament's fingerprint is refused. */
	header_init(&h, "abcd");
	g_assert_null(journal_open(path, &h, NULL, &error));
	g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH);
	remove_path(path);
}

static void test_damaged_middle(void)
{
	g_autofree char *path = temp_path();
	JournalHeader h, back = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) games = NULL;
	g_autofree char *data = NULL;
	Journal *j;
	char *p;

	header_init(&h, "1234");
	j = journal_open(path, &h, NULL, &error);
	for (int id = 0; id < 3; id++) {
		JournalGame g = make_game(id);

		g_assert_true(journal_append(j, &g, &error));
	}
	journal_free(j);
	g_assert_true(g_file_get_contents(path, &data, NULL, NULL));
	p = strstr(data, "scores=14");
	p[7] = '5';
	g_assert_true(g_file_set_contents(path, data, -1, NULL));
	g_assert_false(journal_read(path, &back, &games, NULL, &error));
	g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT);
	g_assert_nonnull(strstr(error->message, ":2:"));
	remove_path(path);
}

/* Killed while writing the header: the journal starts afresh. */
static void test_torn_header(void)
{
	g_autofree char *path = temp_path();
	JournalHeader h;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) games = NULL;
	Journal *j;

	g_assert_true(g_file_set_contents(path, "tetrarena-journal 1 finger", -1, NULL));
	header_init(&h, "77");
	j = journal_open(path, &h, &games, &error);
	g_assert_no_error(error);
	g_assert_nonnull(j);
	g_assert_cmpuint(games->len, ==, 0);
	journal_free(j);
	{
		JournalHeader back = { 0 };

		g_clear_pointer(&games, g_ptr_array_unref);
		g_assert_true(journal_read(path, &back, &games, NULL, &error));
		g_assert_cmpstr(back.fingerprint, ==, "77");
		journal_header_clear(&back);
	}
	remove_path(path);
}

/* How the bots ran is kept per game; a line without it (an older
 * referee's) reads as unknown. */
static void test_sandbox(void)
{
	for (int m = JOURNAL_SANDBOX_UNKNOWN; m < JOURNAL_SANDBOX_COUNT; m++) {
		JournalGame g = make_game(3), back;
		g_autofree char *line = NULL;
		g_autofree char *want = g_strdup_printf(" sandbox=%s ", journal_sandbox_name(m));
		g_autoptr(GError) error = NULL;

		g.sandbox = (JournalSandbox)m;
		line = journal_game_format(&g);
		g_assert_true((strstr(line, want) != NULL) == (m != JOURNAL_SANDBOX_UNKNOWN));
		g_assert_null(m == JOURNAL_SANDBOX_UNKNOWN ? strstr(line, "sandbox=") : NULL);
		line[strlen(line) - 1] = '\0';
		g_assert_true(journal_game_parse(line, &back, &error));
		g_assert_no_error(error);
		assert_same_game(&g, &back);
	}
	/* An unknown value is damage, not a default (the same line with a
	 * known one parses). */
	for (int bad = 0; bad <= 1; bad++) {
		g_autofree char *body = g_strdup_printf("game id=1 round=0 seed=5 bots=0,1 ranks=1,2 sandbox=%s",
							bad ? "maybe" : "off");
		g_autofree char *line = NULL;
		JournalGame back;
		g_autoptr(GError) error = NULL;
		guint32 h = 2166136261u;

		for (const char *p = body; *p; p++)
			h = (h ^ (guint8)*p) * 16777619u;
		line = g_strdup_printf("%s check=%08x", body, h);
		g_assert_true(journal_game_parse(line, &back, &error) == !bad);
		if (bad)
			g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT);
		else
			g_assert_cmpint(back.sandbox, ==, JOURNAL_SANDBOX_OFF);
	}
}

/* The header alone: absent, torn (journal_open() starts afresh), whole,
 * or not a journal. */
static void test_read_header(void)
{
	g_autofree char *path = temp_path();
	JournalHeader h, back;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) games = NULL;
	gboolean found = TRUE;
	Journal *j;

	g_assert_true(journal_read_header(path, &back, &found, &error));
	g_assert_false(found);
	g_assert_true(g_file_set_contents(path, "tetrarena-journal 1 finger", -1, NULL));
	g_assert_true(journal_read_header(path, &back, &found, &error));
	g_assert_false(found);
	g_unlink(path);
	header_init(&h, "abc");
	h.seed = G_GUINT64_CONSTANT(9007199254740991);
	j = journal_open(path, &h, &games, &error);
	g_assert_nonnull(j);
	journal_free(j);
	g_assert_true(journal_read_header(path, &back, &found, &error));
	g_assert_no_error(error);
	g_assert_true(found);
	g_assert_cmpstr(back.fingerprint, ==, "abc");
	g_assert_true(back.seed == G_GUINT64_CONSTANT(9007199254740991));
	journal_header_clear(&back);
	g_assert_true(g_file_set_contents(path, "hello\n", -1, NULL));
	g_assert_false(journal_read_header(path, &back, &found, &error));
	g_assert_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT);
	g_assert_false(found);
	remove_path(path);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/journal/roundtrip", test_roundtrip);
	g_test_add_func("/journal/resume", test_resume);
	g_test_add_func("/journal/damaged-middle", test_damaged_middle);
	g_test_add_func("/journal/torn-header", test_torn_header);
	g_test_add_func("/journal/sandbox", test_sandbox);
	g_test_add_func("/journal/read-header", test_read_header);
	return g_test_run();
}
