/*
 * accounts: authors, sessions, invites and uploads. See accounts.h.
 */
#include "accounts.h"

#include <string.h>

#include <sodium.h>

#include "ladder/ladder.h"

G_DEFINE_QUARK(tetrarena-ladder-accounts-error-quark, ladder_accounts_error)

/* libsodium once (it may be called again: it says so and does nothing). */
static gboolean sodium_ready(GError **error)
{
	if (sodium_init() < 0) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SQL, "libsodium cannot start");
		return FALSE;
	}
	return TRUE;
}

/* `n` random bytes as 2n hex digits (newly allocated). */
static char *random_hex(gsize n)
{
	guchar buf[64];
	char *hex = g_malloc(2 * n + 1);

	g_assert(n <= sizeof(buf));
	randombytes_buf(buf, n);
	sodium_bin2hex(hex, 2 * n + 1, buf, n);
	sodium_memzero(buf, sizeof(buf));
	return hex;
}

/* The stored form of a token or invite code: BLAKE2b-256, hex. */
static char *secret_hash(const char *secret)
{
	guchar h[crypto_generichash_BYTES];
	char *hex = g_malloc(2 * sizeof(h) + 1);

	crypto_generichash(h, sizeof(h), (const guchar *)secret, strlen(secret), NULL, 0);
	sodium_bin2hex(hex, 2 * sizeof(h) + 1, h, sizeof(h));
	return hex;
}

LadderDb *ladder_accounts_open(const char *dir, GError **error)
{
	g_autofree char *path = g_build_filename(dir, LADDER_DB_FILE, NULL);

	if (!sodium_ready(error))
		return NULL;
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_MISSING,
			    "%s holds no ladder (no %s): make one with `referee ladder init %s --variant V`", dir,
			    LADDER_DB_FILE, dir);
		return NULL;
	}
	g_autoptr(LadderDb) d = g_new0(LadderDb, 1);
	d->dir = g_strdup(dir);
	d->lock_fd = -1;
	int rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ladder_db_fail(d, rc, path, error);
		return NULL;
	}
	sqlite3_busy_timeout(d->db, 10000);
	if (!ladder_db_exec(d, "PRAGMA foreign_keys = ON", error))
		return NULL;
	g_autofree char *v = ladder_db_meta(d, "schema_version");
	gint64 n = 0;
	if (!v || !g_ascii_string_to_signed(v, 10, 1, 1000000, &n, NULL) || n < LADDER_ACCOUNTS_SCHEMA ||
	    n > ladder_db_schema_latest()) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SCHEMA,
			    "%s: schema version %s, not this referee's %d: %s", path, v ? v : "(none)",
			    ladder_db_schema_latest(),
			    n > 0 && n < LADDER_ACCOUNTS_SCHEMA ? "any writing command (`ladder run`, `add`, `retire`) "
			    "migrates it" : "use the referee that made it");
		return NULL;
	}
	return g_steal_pointer(&d);
}

gboolean ladder_signup_open(LadderDb *d)
{
	g_autofree char *mode = ladder_db_meta(d, "signup");

	return g_strcmp0(mode, "open") == 0;
}

gboolean ladder_set_signup(LadderDb *d, const char *mode, GError **error)
{
	if (strcmp(mode, "open") != 0 && strcmp(mode, "invite") != 0) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_SETTINGS, "signup=%s: want open or invite", mode);
		return FALSE;
	}
	return ladder_db_set_meta(d, "signup", mode, error);
}

char *ladder_invite_new(LadderDb *d, GError **error)
{
	g_autofree char *code = random_hex(16);
	g_autofree char *hash = secret_hash(code);
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO invites (hash, created) VALUES (?, ?)", error);

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok ? g_steal_pointer(&code) : NULL;
}

gboolean ladder_author_name_valid(const char *name)
{
	gsize n = strlen(name);

	if (n < 1 || n > 32)
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if (!g_ascii_isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return FALSE;
	return TRUE;
}

/* A query's single integer (or `none` when no row). */
static gint64 query_int(LadderDb *d, const char *sql, const char *text, gint64 num, gint64 none)
{
	sqlite3_stmt *st = NULL;
	gint64 v = none;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return none;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, num);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

gboolean ladder_author_check(LadderDb *d, const char *name, const char *password, const char *invite,
			     gboolean admin, GError **error)
{
	if (!sodium_ready(error))
		return FALSE;
	if (!ladder_author_name_valid(name)) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_NAME,
			    "a name is 1 to 32 letters, digits, '_' or '-'");
		return FALSE;
	}
	gsize plen = strlen(password);
	if (plen < LADDER_PASSWORD_MIN || plen > LADDER_PASSWORD_MAX) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_PASSWORD,
			    "a password is %d to %d characters", LADDER_PASSWORD_MIN, LADDER_PASSWORD_MAX);
		return FALSE;
	}
	if (!admin && !ladder_signup_open(d) && (!invite || !invite[0])) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE,
			    "this ladder takes new authors by invitation: ask its organizer for a code");
		return FALSE;
	}
	if (query_int(d, "SELECT count(*) FROM authors WHERE name = ?", name, 0, 1) != 0) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_NAME, "the name %s is taken", name);
		return FALSE;
	}
	return TRUE;
}

char *ladder_password_hash(const char *password)
{
	char hash[crypto_pwhash_STRBYTES];

	if (sodium_init() < 0 || crypto_pwhash_str(hash, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
						   crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
		return NULL;
	return g_strdup(hash);
}

gboolean ladder_password_verify(const char *hash, const char *password)
{
	/* an unknown name costs a hash too, so time tells nothing */
	static char dummy[crypto_pwhash_STRBYTES];
	static GMutex lock;

	if (sodium_init() < 0)
		return FALSE;
	if (!hash) {
		g_mutex_lock(&lock);
		if (!dummy[0] && crypto_pwhash_str(dummy, "not a password", 14, crypto_pwhash_OPSLIMIT_INTERACTIVE,
						   crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
			dummy[0] = '\0';
		g_mutex_unlock(&lock);
		volatile int spent = crypto_pwhash_str_verify(dummy, password, strlen(password));
		(void)spent;
		return FALSE;
	}
	return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

gint64 ladder_author_insert(LadderDb *d, const char *name, const char *hash, const char *invite, gboolean admin,
			    GError **error)
{
	g_autofree char *now = ladder_db_now();
	if (!ladder_db_begin(d, error))
		return 0;
	if (query_int(d, "SELECT count(*) FROM authors WHERE name = ?", name, 0, 1) != 0) {
		ladder_db_rollback(d);
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_NAME, "the name %s is taken", name);
		return 0;
	}
	if (!admin && !ladder_signup_open(d) && (!invite || !invite[0])) {
		ladder_db_rollback(d);
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE,
			    "this ladder takes new authors by invitation: ask its organizer for a code");
		return 0;
	}
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO authors (name, hash, admin, created) VALUES (?, ?, ?, ?)",
					     error);
	if (!st) {
		ladder_db_rollback(d);
		return 0;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, admin ? 1 : 0);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	gint64 id = ok ? sqlite3_last_insert_rowid(d->db) : 0;
	if (ok && !admin && !ladder_signup_open(d)) {
		g_autofree char *ih = secret_hash(invite);
		st = ladder_db_prepare(d, "UPDATE invites SET used_by = ? WHERE hash = ? AND used_by IS NULL", error);
		ok = st != NULL;
		if (ok) {
			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_text(st, 2, ih, -1, SQLITE_STATIC);
			ok = ladder_db_step_done(d, st, error);
			sqlite3_finalize(st);
		}
		if (ok && sqlite3_changes(d->db) != 1) {
			ladder_db_rollback(d);
			g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_INVITE,
				    "that invite code is not valid, or was used already");
			return 0;
		}
	}
	if (!ok) {
		ladder_db_rollback(d);
		return 0;
	}
	return ladder_db_commit(d, error) ? id : 0;
}

gint64 ladder_author_create(LadderDb *d, const char *name, const char *password, const char *invite,
			    gboolean admin, GError **error)
{
	if (!ladder_author_check(d, name, password, invite, admin, error))
		return 0;
	g_autofree char *hash = ladder_password_hash(password);
	if (!hash) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SQL, "hashing a password: out of memory");
		return 0;
	}
	return ladder_author_insert(d, name, hash, invite, admin, error);
}

gint64 ladder_login_wait(gint64 failures)
{
	if (failures < LADDER_LOGIN_FREE)
		return 0;
	return MIN((gint64)LADDER_LOGIN_FIRST_WAIT << MIN(failures - LADDER_LOGIN_FREE, 20), LADDER_LOGIN_MAX_WAIT);
}

LadderLogin ladder_login_begin(LadderDb *d, const char *name, gint64 now, gint64 *author, char **hash,
			       gint64 *retry_after, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT id, hash, next_try FROM authors WHERE name = ?", error);
	gint64 next_try = 0;

	*author = 0;
	*hash = NULL;
	if (!st)
		return LADDER_LOGIN_ERROR;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*author = sqlite3_column_int64(st, 0);
		*hash = g_strdup((const char *)sqlite3_column_text(st, 1));
		next_try = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (*author && now < next_try) {
		*retry_after = next_try - now;
		g_clear_pointer(hash, g_free);
		return LADDER_LOGIN_THROTTLED;
	}
	return LADDER_LOGIN_OK;
}

LadderLogin ladder_login_end(LadderDb *d, gint64 author, gboolean good, gint64 now, GError **error)
{
	if (!author)
		return LADDER_LOGIN_WRONG;
	gint64 failures = good ? 0 : query_int(d, "SELECT failures FROM authors WHERE id = ?", NULL, author, 0) + 1;
	gint64 wait = ladder_login_wait(failures);
	sqlite3_stmt *st = ladder_db_prepare(d, "UPDATE authors SET failures = ?, next_try = ? WHERE id = ?", error);
	if (!st)
		return LADDER_LOGIN_ERROR;
	sqlite3_bind_int64(st, 1, failures);
	sqlite3_bind_int64(st, 2, wait ? now + wait : 0);
	sqlite3_bind_int64(st, 3, author);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	if (!ok)
		return LADDER_LOGIN_ERROR;
	return good ? LADDER_LOGIN_OK : LADDER_LOGIN_WRONG;
}

LadderLogin ladder_login(LadderDb *d, const char *name, const char *password, gint64 now, gint64 *author,
			 gint64 *retry_after, GError **error)
{
	g_autofree char *hash = NULL;
	gint64 id = 0;
	LadderLogin r = ladder_login_begin(d, name, now, &id, &hash, retry_after, error);

	if (r != LADDER_LOGIN_OK)
		return r;
	gboolean good = ladder_password_verify(hash, password) && id;
	r = ladder_login_end(d, id, good, now, error);
	if (r == LADDER_LOGIN_OK)
		*author = id;
	return r;
}

char *ladder_session_new(LadderDb *d, gint64 author, gint64 now, GError **error)
{
	g_autofree char *token = random_hex(LADDER_TOKEN_HEX / 2);
	g_autofree char *hash = secret_hash(token);
	g_autofree char *purge = g_strdup_printf("DELETE FROM sessions WHERE expires <= %" G_GINT64_FORMAT, now);
	sqlite3_stmt *st = NULL;

	if (!ladder_db_exec(d, purge, error))	/* the expired go at each login */
		return NULL;
	st = ladder_db_prepare(d, "INSERT INTO sessions (hash, author, created, expires) VALUES (?, ?, ?, ?)", error);
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, author);
	sqlite3_bind_int64(st, 3, now);
	sqlite3_bind_int64(st, 4, now + LADDER_SESSION_TTL);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok ? g_steal_pointer(&token) : NULL;
}

void ladder_author_free(LadderAuthor *a)
{
	if (!a)
		return;
	g_free(a->name);
	g_free(a);
}

LadderAuthor *ladder_session_author(LadderDb *d, const char *token, gint64 now)
{
	sqlite3_stmt *st = NULL;
	LadderAuthor *a = NULL;

	if (!token || strlen(token) != LADDER_TOKEN_HEX)
		return NULL;
	g_autofree char *hash = secret_hash(token);
	if (sqlite3_prepare_v2(d->db, "SELECT a.id, a.name, a.admin FROM sessions s JOIN authors a ON a.id = s.author "
			       "WHERE s.hash = ? AND s.expires > ?", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if (sqlite3_step(st) == SQLITE_ROW) {
		a = g_new0(LadderAuthor, 1);
		a->id = sqlite3_column_int64(st, 0);
		a->name = g_strdup((const char *)sqlite3_column_text(st, 1));
		a->admin = sqlite3_column_int(st, 2) != 0;
	}
	sqlite3_finalize(st);
	return a;
}

gboolean ladder_session_end(LadderDb *d, const char *token, gint64 now, GError **error)
{
	g_autofree char *hash = secret_hash(token ? token : "");
	sqlite3_stmt *st = ladder_db_prepare(d, "DELETE FROM sessions WHERE hash = ? OR expires <= ?", error);

	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

gboolean ladder_owner_is(LadderDb *d, const char *name, gint64 author)
{
	return query_int(d, "SELECT author FROM owners WHERE name = ?", name, 0, 0) == author;
}

gboolean ladder_owner_claim(LadderDb *d, const char *name, gint64 author, GError **error)
{
	if (!ladder_db_begin(d, error))
		return FALSE;
	gint64 owner = query_int(d, "SELECT author FROM owners WHERE name = ?", name, 0, 0);
	if (owner == author) {
		ladder_db_rollback(d);
		return TRUE;
	}
	if (owner || query_int(d, "SELECT count(*) FROM bots WHERE name = ?", name, 0, 1) != 0) {
		ladder_db_rollback(d);
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER,
			    "the name %s is another author's entry: choose another", name);
		return FALSE;
	}
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO owners (name, author) VALUES (?, ?)", error);
	gboolean ok = st != NULL;
	if (ok) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, author);
		ok = ladder_db_step_done(d, st, error);
		sqlite3_finalize(st);
	}
	if (!ok) {
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

gint64 ladder_upload_record(LadderDb *d, gint64 author, const char *name, gint64 size, const char *request,
			    const char *refused, GError **error)
{
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO uploads (author, name, uploaded, size, request, refused) "
					     "VALUES (?, ?, ?, ?, ?, ?)", error);

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, size);
	sqlite3_bind_text(st, 5, request, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, refused, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok ? sqlite3_last_insert_rowid(d->db) : 0;
}

void ladder_upload_free(LadderUpload *u)
{
	if (!u)
		return;
	g_free(u->name);
	g_free(u->uploaded);
	g_free(u->note);
	g_free(u);
}

GPtrArray *ladder_uploads_of(LadderDb *d, gint64 author, guint max, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d,
		"SELECT u.id, u.name, u.uploaded, u.size, u.refused, r.file IS NOT NULL, r.bot, b.version, r.note "
		"FROM uploads u LEFT JOIN requests r ON r.file = u.request LEFT JOIN bots b ON b.id = r.bot "
		"WHERE u.author = ? ORDER BY u.id DESC LIMIT ?", error);
	GPtrArray *out = NULL;
	int rc;

	if (!st)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_upload_free);
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_int64(st, 2, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		LadderUpload *u = g_new0(LadderUpload, 1);
		u->id = sqlite3_column_int64(st, 0);
		u->name = g_strdup((const char *)sqlite3_column_text(st, 1));
		u->uploaded = g_strdup((const char *)sqlite3_column_text(st, 2));
		u->size = sqlite3_column_int64(st, 3);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
			u->state = LADDER_UPLOAD_REFUSED;
			u->note = g_strdup((const char *)sqlite3_column_text(st, 4));
		} else if (!sqlite3_column_int(st, 5)) {
			u->state = LADDER_UPLOAD_QUEUED;
		} else if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			u->state = LADDER_UPLOAD_ADMITTED;
			u->bot = sqlite3_column_int64(st, 6);
			u->version = sqlite3_column_int(st, 7);
		} else {
			u->state = LADDER_UPLOAD_REJECTED;
			u->note = g_strdup((const char *)sqlite3_column_text(st, 8));
		}
		g_ptr_array_add(out, u);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		g_ptr_array_unref(out);
		ladder_db_fail(d, rc, "reading the uploads", error);
		return NULL;
	}
	return out;
}

gboolean ladder_upload_owned(LadderDb *d, gint64 id, gint64 author)
{
	return query_int(d, "SELECT author FROM uploads WHERE id = ?", NULL, id, 0) == author && author;
}

gboolean ladder_seat_owned(LadderDb *d, gint64 game, int seat, gint64 author, char **log)
{
	sqlite3_stmt *st = NULL;
	gboolean owned = FALSE;

	if (sqlite3_prepare_v2(d->db, "SELECT g.log FROM games g JOIN seats s ON s.game = g.id JOIN bots b ON b.id = s.bot "
			       "JOIN owners o ON o.name = b.name WHERE g.id = ? AND s.seat = ? AND o.author = ? "
			       "AND g.log IS NOT NULL", -1, &st, NULL) != SQLITE_OK)
		return FALSE;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int(st, 2, seat);
	sqlite3_bind_int64(st, 3, author);
	if (sqlite3_step(st) == SQLITE_ROW) {
		owned = TRUE;
		*log = g_strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return owned;
}

GPtrArray *ladder_author_bots(LadderDb *d, gint64 author, GError **error)
{
	g_autoptr(GPtrArray) all = ladder_bots_load(d, error);
	GPtrArray *mine = NULL;

	if (!all)
		return NULL;
	mine = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_bot_free);
	for (guint i = 0; i < all->len; i++)
		if (ladder_owner_is(d, ((LadderBot *)g_ptr_array_index(all, i))->name, author))
			g_ptr_array_add(mine, g_ptr_array_steal_index(all, i--));
	return mine;
}

void ladder_author_game_free(LadderAuthorGame *g)
{
	if (!g)
		return;
	g_free(g->label);
	g_free(g->faults);
	g_free(g->log);
	g_free(g);
}

GPtrArray *ladder_author_games(LadderDb *d, gint64 author, guint max, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d,
		"SELECT s.game, s.seat, b.id, b.name, b.version, s.rank, s.score, s.faults, g.log "
		"FROM seats s JOIN games g ON g.id = s.game JOIN bots b ON b.id = s.bot "
		"JOIN owners o ON o.name = b.name WHERE o.author = ? ORDER BY s.game DESC, s.seat LIMIT ?", error);
	GPtrArray *out = NULL;
	int rc;

	if (!st)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_author_game_free);
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_int64(st, 2, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		LadderAuthorGame *g = g_new0(LadderAuthorGame, 1);
		LadderBot b = {.name = (char *)sqlite3_column_text(st, 3), .version = sqlite3_column_int(st, 4)};
		g->game = sqlite3_column_int64(st, 0);
		g->seat = sqlite3_column_int(st, 1);
		g->bot = sqlite3_column_int64(st, 2);
		g->label = ladder_bot_label(&b);
		g->rank = sqlite3_column_int(st, 5);
		g->score = sqlite3_column_int64(st, 6);
		g->faults = g_strdup((const char *)sqlite3_column_text(st, 7));
		g->log = g_strdup((const char *)sqlite3_column_text(st, 8));
		g_ptr_array_add(out, g);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		g_ptr_array_unref(out);
		ladder_db_fail(d, rc, "reading the games", error);
		return NULL;
	}
	return out;
}

/* The active entry of `name` (its id), or 0. */
static gint64 active_entry(LadderDb *d, const char *name)
{
	return query_int(d, "SELECT id FROM bots WHERE name = ? AND status = 'active'", name, 0, 0);
}

gint64 ladder_test_ask(LadderDb *d, gint64 author, const char *bot, const char *opponent, gint64 *bot_id,
		       gint64 *opponent_id, GError **error)
{
	gint64 mine = ladder_owner_is(d, bot, author) ? active_entry(d, bot) : 0;
	gint64 theirs = active_entry(d, opponent);

	if (!mine || !theirs) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME, "%s has no active entry%s", !mine ? bot : opponent,
			    !mine ? " of yours" : "");
		return 0;
	}
	if (query_int(d, "SELECT count(*) FROM tests WHERE author = ? AND finished IS NULL", NULL, author, 1) != 0) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER,
			    "your last test game is still being played: wait for its result");
		return 0;
	}
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autoptr(GDateTime) day = g_date_time_add_days(now, -1);
	g_autofree char *since = g_date_time_format(day, "%Y-%m-%dT%H:%M:%SZ");
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT count(*) FROM tests WHERE author = ? AND asked > ?", error);
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_text(st, 2, since, -1, SQLITE_STATIC);
	gint64 today = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : LADDER_TESTS_PER_DAY;
	sqlite3_finalize(st);
	if (today >= LADDER_TESTS_PER_DAY) {
		g_set_error(error, LADDER_ACCOUNTS_ERROR, LADDER_ACCOUNTS_ERROR_OWNER,
			    "%d test games a day: the next one can be asked for later", LADDER_TESTS_PER_DAY);
		return 0;
	}
	g_autofree char *asked = ladder_db_now();
	st = ladder_db_prepare(d, "INSERT INTO tests (author, bot, opponent, asked) VALUES (?, ?, ?, ?)", error);
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_int64(st, 2, mine);
	sqlite3_bind_int64(st, 3, theirs);
	sqlite3_bind_text(st, 4, asked, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	if (!ok)
		return 0;
	*bot_id = mine;
	*opponent_id = theirs;
	return sqlite3_last_insert_rowid(d->db);
}

gboolean ladder_test_done(LadderDb *d, gint64 id, const char *result, GError **error)
{
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "UPDATE tests SET finished = ?, result = ? WHERE id = ?", error);

	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, result, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

gboolean ladder_tests_abandon(LadderDb *d, GError **error)
{
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "UPDATE tests SET finished = ?, result = 'not played: the server "
					     "stopped; ask again' WHERE finished IS NULL", error);

	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

void ladder_test_free(LadderTest *t)
{
	if (!t)
		return;
	g_free(t->bot);
	g_free(t->opponent);
	g_free(t->asked);
	g_free(t->result);
	g_free(t);
}

GPtrArray *ladder_tests_of(LadderDb *d, gint64 author, guint max, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d,
		"SELECT t.id, a.name, a.version, b.name, b.version, t.asked, t.result FROM tests t "
		"JOIN bots a ON a.id = t.bot JOIN bots b ON b.id = t.opponent WHERE t.author = ? "
		"ORDER BY t.id DESC LIMIT ?", error);
	GPtrArray *out = NULL;
	int rc;

	if (!st)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_test_free);
	sqlite3_bind_int64(st, 1, author);
	sqlite3_bind_int64(st, 2, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		LadderTest *t = g_new0(LadderTest, 1);
		LadderBot a = {.name = (char *)sqlite3_column_text(st, 1), .version = sqlite3_column_int(st, 2)};
		t->id = sqlite3_column_int64(st, 0);
		t->bot = ladder_bot_label(&a);
		LadderBot b = {.name = (char *)sqlite3_column_text(st, 3), .version = sqlite3_column_int(st, 4)};
		t->opponent = ladder_bot_label(&b);
		t->asked = g_strdup((const char *)sqlite3_column_text(st, 5));
		t->result = g_strdup((const char *)sqlite3_column_text(st, 6));
		g_ptr_array_add(out, t);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		g_ptr_array_unref(out);
		ladder_db_fail(d, rc, "reading the test games", error);
		return NULL;
	}
	return out;
}

gboolean ladder_test_owned(LadderDb *d, gint64 id, gint64 author)
{
	return author && query_int(d, "SELECT author FROM tests WHERE id = ?", NULL, id, 0) == author;
}
