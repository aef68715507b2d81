/*
 * test-ladder-accounts: authors' accounts (ladder/accounts.h) on a real
 * database. A password is kept as Argon2id and checked; an invite works
 * once; signup asks one unless open; names are unique whatever their
 * case; a session's token finds its author until it expires or ends, and
 * only its hash is stored; a token that is not one finds nobody; the
 * login throttle waits 30 s after five failures, doubling, capped at an
 * hour, checks no password meanwhile, and a success clears it; an entry's
 * name is its first uploader's, never another's nor the organizer's; test
 * games are asked for one at a time, a day's number at most, with the
 * author's own active entry against an active one.
 */
#include <glib.h>
#include <string.h>

#include "ladder/accounts.h"
#include "ladder/db.h"
#include "ladder/ladder.h"

typedef struct {
	char *dir;
	char *ladder;
	LadderDb *d;
} Fixture;

static void setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;

	(void)data;
	f->dir = g_dir_make_tmp("test-ladder-accounts-XXXXXX", &err);
	g_assert_no_error(err);
	f->ladder = g_build_filename(f->dir, "ladder", NULL);
	LadderDb *w = ladder_db_create(f->ladder, &err);
	g_assert_no_error(err);
	ladder_db_free(w);
	f->d = ladder_accounts_open(f->ladder, &err);
	g_assert_no_error(err);
}

static void teardown(Fixture *f, gconstpointer data)
{
	const char *rm[] = {"rm", "-rf", f->dir, NULL};

	(void)data;
	ladder_db_free(f->d);
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
	g_free(f->ladder);
	g_free(f->dir);
}

static char *one(Fixture *f, const char *sql)
{
	sqlite3_stmt *st = ladder_db_prepare(f->d, sql, NULL);
	char *v = NULL;

	g_assert_nonnull(st);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = g_strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static void test_signup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;

	(void)data;
	g_assert_false(ladder_signup_open(f->d));
	g_assert_cmpint(ladder_author_create(f->d, "ada", "long enough", NULL, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE);
	g_clear_error(&err);
	g_autofree char *code = ladder_invite_new(f->d, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(strlen(code), ==, 32);
	g_autofree char *wrong = g_strdup(code);
	wrong[0] = wrong[0] == '0' ? '1' : '0';
	g_assert_cmpint(ladder_author_create(f->d, "ada", "long enough", wrong, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE);
	g_clear_error(&err);
	g_assert_cmpint(ladder_author_create(f->d, "ada", "short", code, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_PASSWORD);
	g_clear_error(&err);
	g_assert_cmpint(ladder_author_create(f->d, "a/b", "long enough", code, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_NAME);
	g_clear_error(&err);
	gint64 ada = ladder_author_create(f->d, "ada", "long enough", code, FALSE, &err);
	g_assert_no_error(err);
	g_assert_cmpint(ada, >, 0);
	/* the code is spent, and never stored as itself */
	g_assert_cmpint(ladder_author_create(f->d, "bob", "long enough", code, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE);
	g_clear_error(&err);
	g_autofree char *stored = one(f, "SELECT hash FROM invites");
	g_assert_cmpstr(stored, !=, code);
	g_autofree char *pw = one(f, "SELECT hash FROM authors WHERE name = 'ada'");
	g_assert_true(g_str_has_prefix(pw, "$argon2id$"));
	/* open signup needs no code; names are unique whatever their case */
	g_assert_true(ladder_set_signup(f->d, "open", &err));
	g_assert_false(ladder_set_signup(f->d, "sometimes", &err));
	g_clear_error(&err);
	g_assert_cmpint(ladder_author_create(f->d, "ADA", "long enough", NULL, FALSE, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_NAME);
	g_clear_error(&err);
	g_assert_cmpint(ladder_author_create(f->d, "bob", "long enough", NULL, FALSE, &err), >, ada);
	g_assert_no_error(err);
}

static void test_sessions(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;
	gint64 now = 1000000, author = 0, wait = 0;

	(void)data;
	gint64 ada = ladder_author_create(f->d, "ada", "long enough", NULL, TRUE, &err);
	g_assert_no_error(err);
	g_assert_cmpint(ladder_login(f->d, "ada", "long enough", now, &author, &wait, &err), ==, LADDER_LOGIN_OK);
	g_assert_cmpint(author, ==, ada);
	g_autofree char *t1 = ladder_session_new(f->d, ada, now, &err);
	g_autofree char *t2 = ladder_session_new(f->d, ada, now, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(strlen(t1), ==, LADDER_TOKEN_HEX);
	g_assert_cmpstr(t1, !=, t2);
	g_autoptr(LadderAuthor) who = ladder_session_author(f->d, t1, now + 1);
	g_assert_nonnull(who);
	g_assert_cmpstr(who->name, ==, "ada");
	g_assert_true(who->admin);
	g_autofree char *sql = g_strdup_printf("SELECT count(*) FROM sessions WHERE hash = '%s'", t1);
	g_autofree char *raw = one(f, sql);
	g_assert_cmpstr(raw, ==, "0");
	/* not a token, expired, ended */
	g_assert_null(ladder_session_author(f->d, "0123", now));
	g_assert_null(ladder_session_author(f->d, NULL, now));
	g_assert_null(ladder_session_author(f->d, t1, now + LADDER_SESSION_TTL));
	g_assert_true(ladder_session_end(f->d, t1, now, &err));
	g_assert_null(ladder_session_author(f->d, t1, now + 1));
	g_autoptr(LadderAuthor) still = ladder_session_author(f->d, t2, now + 1);
	g_assert_nonnull(still);
}

static void test_throttle(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;
	gint64 now = 1000000, author = 0, wait = 0;

	(void)data;
	g_assert_cmpint(ladder_login_wait(4), ==, 0);
	g_assert_cmpint(ladder_login_wait(5), ==, 30);
	g_assert_cmpint(ladder_login_wait(6), ==, 60);
	g_assert_cmpint(ladder_login_wait(1000), ==, LADDER_LOGIN_MAX_WAIT);
	ladder_author_create(f->d, "ada", "long enough", NULL, TRUE, &err);
	g_assert_no_error(err);
	g_assert_cmpint(ladder_login(f->d, "nobody", "long enough", now, &author, &wait, &err), ==, LADDER_LOGIN_WRONG);
	for (int i = 0; i < LADDER_LOGIN_FREE; i++)
		g_assert_cmpint(ladder_login(f->d, "ada", "wrong", now, &author, &wait, &err), ==, LADDER_LOGIN_WRONG);
	/* the right password now waits, and is not even checked */
	g_assert_cmpint(ladder_login(f->d, "ada", "long enough", now + 29, &author, &wait, &err), ==,
			LADDER_LOGIN_THROTTLED);
	g_assert_cmpint(wait, ==, 1);
	/* after the wait a failure doubles it */
	g_assert_cmpint(ladder_login(f->d, "ada", "wrong", now + 30, &author, &wait, &err), ==, LADDER_LOGIN_WRONG);
	g_assert_cmpint(ladder_login(f->d, "ada", "long enough", now + 31, &author, &wait, &err), ==,
			LADDER_LOGIN_THROTTLED);
	g_assert_cmpint(wait, ==, 59);
	/* a success clears it */
	g_assert_cmpint(ladder_login(f->d, "ada", "long enough", now + 90, &author, &wait, &err), ==, LADDER_LOGIN_OK);
	g_assert_cmpint(ladder_login(f->d, "ada", "wrong", now + 91, &author, &wait, &err), ==, LADDER_LOGIN_WRONG);
	g_assert_cmpint(ladder_login(f->d, "ada", "long enough", now + 91, &author, &wait, &err), ==, LADDER_LOGIN_OK);
	g_assert_no_error(err);
}

static void test_owners(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;

	(void)data;
	g_assert_true(ladder_set_signup(f->d, "open", &err));
	gint64 ada = ladder_author_create(f->d, "ada", "long enough", NULL, FALSE, &err);
	gint64 bob = ladder_author_create(f->d, "bob", "long enough", NULL, FALSE, &err);
	g_assert_no_error(err);
	g_assert_true(ladder_db_exec(f->d, "INSERT INTO bots (name, version, command, sha256, added, status) "
				     "VALUES ('house', 1, 'x', 'y', 'z', 'active')", &err));
	g_assert_true(ladder_owner_claim(f->d, "mybot", ada, &err));
	g_assert_true(ladder_owner_claim(f->d, "mybot", ada, &err));
	g_assert_no_error(err);
	g_assert_true(ladder_owner_is(f->d, "mybot", ada));
	g_assert_false(ladder_owner_claim(f->d, "mybot", bob, &err));
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER);
	g_clear_error(&err);
	g_assert_false(ladder_owner_claim(f->d, "house", bob, &err));
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER);
	g_clear_error(&err);
	/* uploads: one refused, one queued, each its author's alone */
	gint64 u1 = ladder_upload_record(f->d, ada, "mybot", 10, NULL, "bad archive", &err);
	gint64 u2 = ladder_upload_record(f->d, ada, "mybot", 20, "0001-1.req", NULL, &err);
	g_assert_no_error(err);
	g_assert_true(ladder_upload_owned(f->d, u1, ada));
	g_assert_false(ladder_upload_owned(f->d, u1, bob));
	g_autoptr(GPtrArray) ups = ladder_uploads_of(f->d, ada, 10, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(ups->len, ==, 2);
	LadderUpload *newest = g_ptr_array_index(ups, 0), *oldest = g_ptr_array_index(ups, 1);
	g_assert_cmpint(newest->id, ==, u2);
	g_assert_cmpint(newest->state, ==, LADDER_UPLOAD_QUEUED);
	g_assert_cmpint(oldest->state, ==, LADDER_UPLOAD_REFUSED);
	g_assert_cmpstr(oldest->note, ==, "bad archive");
	g_autoptr(GPtrArray) none = ladder_uploads_of(f->d, bob, 10, &err);
	g_assert_cmpuint(none->len, ==, 0);
}

static void test_tests(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) err = NULL;
	gint64 mine = 0, theirs = 0;

	(void)data;
	g_assert_true(ladder_set_signup(f->d, "open", &err));
	gint64 ada = ladder_author_create(f->d, "ada", "long enough", NULL, FALSE, &err);
	g_assert_no_error(err);
	g_assert_true(ladder_db_exec(f->d, "INSERT INTO bots (name, version, command, sha256, added, status) VALUES "
				     "('house', 1, 'x', 'y', 'z', 'active'), ('mine', 1, 'x', 'y', 'z', 'active')", &err));
	g_assert_cmpint(ladder_test_ask(f->d, ada, "mine", "house", &mine, &theirs, &err), ==, 0);
	g_assert_error(err, LADDER_ERROR, LADDER_ERROR_NAME);	/* not hers yet */
	g_clear_error(&err);
	g_assert_true(ladder_db_exec(f->d, "INSERT INTO owners (name, author) VALUES ('mine', 1)", &err));
	g_assert_cmpint(ladder_test_ask(f->d, ada, "mine", "nobody", &mine, &theirs, &err), ==, 0);
	g_assert_error(err, LADDER_ERROR, LADDER_ERROR_NAME);
	g_clear_error(&err);
	for (int i = 0; i < LADDER_TESTS_PER_DAY; i++) {
		gint64 id = ladder_test_ask(f->d, ada, "mine", "house", &mine, &theirs, &err);
		g_assert_no_error(err);
		g_assert_cmpint(id, >, 0);
		g_assert_cmpint(mine, ==, 2);
		g_assert_cmpint(theirs, ==, 1);
		/* one at a time */
		g_assert_cmpint(ladder_test_ask(f->d, ada, "mine", "house", &mine, &theirs, &err), ==, 0);
		g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER);
		g_clear_error(&err);
		g_assert_true(ladder_test_done(f->d, id, "mine (seat 0): rank 1", &err));
	}
	g_assert_cmpint(ladder_test_ask(f->d, ada, "mine", "house", &mine, &theirs, &err), ==, 0);
	g_assert_error(err, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER);	/* the day's are used */
	g_clear_error(&err);
	g_autoptr(GPtrArray) tests = ladder_tests_of(f->d, ada, 100, &err);
	g_assert_cmpuint(tests->len, ==, LADDER_TESTS_PER_DAY);
	g_assert_cmpstr(((LadderTest *)g_ptr_array_index(tests, 0))->opponent, ==, "house");
	g_assert_true(ladder_test_owned(f->d, 1, ada));
	g_assert_false(ladder_test_owned(f->d, 1, ada + 1));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/ladder-accounts/signup", Fixture, NULL, setup, test_signup, teardown);
	g_test_add("/ladder-accounts/sessions", Fixture, NULL, setup, test_sessions, teardown);
	g_test_add("/ladder-accounts/throttle", Fixture, NULL, setup, test_throttle, teardown);
	g_test_add("/ladder-accounts/owners", Fixture, NULL, setup, test_owners, teardown);
	g_test_add("/ladder-accounts/tests", Fixture, NULL, setup, test_tests, teardown);
	return g_test_run();
}
