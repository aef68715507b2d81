/*
 * accounts: the authors of a public ladder (`referee serve --ladder DIR`),
 * their sessions, invites and uploads, in the ladder's database (the
 * tables of schema version 4, ladder/schema.sql). Only this module's SQL
 * touches them; the pages and the HTTP are server/accounts.h's.
 *
 * The server writes these tables while `ladder run` writes the others:
 * ladder_accounts_open() opens DIR/ladder.db for writing without the
 * writer's lock (ladder/db.h), SQLite's own locking (WAL, a busy timeout)
 * keeping each short transaction whole. Nothing here writes the bots,
 * games or requests: an upload reaches the ladder through its inbox.
 *
 * Secrets: a password is stored as libsodium's crypto_pwhash_str (Argon2id,
 * the interactive limits); a session's token (32 random bytes, 64 hex
 * digits) and an invite's code (16 random bytes) only as their BLAKE2b
 * hash. A token is handed out once, at login; it ends at its expiry or at
 * logout, after which the same token finds nothing.
 *
 * Logins are throttled per account here (and per address by the caller,
 * in memory): LADDER_LOGIN_FREE failures in a row are free, then each
 * further one waits twice as long as the last (30 s, 1 min, 2 min ... at
 * most LADDER_LOGIN_MAX_WAIT), no password being checked meanwhile; a
 * success clears the account's count.
 */
#ifndef TETRARENA_LADDER_ACCOUNTS_H
#define TETRARENA_LADDER_ACCOUNTS_H

#include <glib.h>

#include "ladder/db.h"

#define LADDER_ACCOUNTS_ERROR (ladder_accounts_error_quark())
GQuark ladder_accounts_error_quark(void);

typedef enum {
	LADDER_ACCOUNTS_ERROR_NAME,	/* a name that is invalid or taken */
	LADDER_ACCOUNTS_ERROR_PASSWORD,	/* too short or too long */
	LADDER_ACCOUNTS_ERROR_INVITE,	/* an invite is needed, or not valid */
	LADDER_ACCOUNTS_ERROR_OWNER,	/* an entry's name another holds */
} LadderAccountsError;

#define LADDER_ACCOUNTS_SCHEMA 5	/* the schema version with the tables */
#define LADDER_PASSWORD_MIN 8		/* bytes */
#define LADDER_PASSWORD_MAX 256
#define LADDER_TOKEN_HEX 64		/* a session token's length */
#define LADDER_SESSION_TTL (14 * 24 * 3600)	/* seconds */
#define LADDER_LOGIN_FREE 5		/* failures before the waits */
#define LADDER_LOGIN_FIRST_WAIT 30	/* seconds, after the free ones */
#define LADDER_LOGIN_MAX_WAIT 3600	/* seconds */

/* Open DIR's database for the accounts (read-write, no writer's lock).
 * NULL with error (LADDER_DB_ERROR_*: MISSING, or SCHEMA when older than
 * LADDER_ACCOUNTS_SCHEMA: any writing `ladder` command migrates it). */
LadderDb *ladder_accounts_open(const char *dir, GError **error);

/* Whether signup is open (meta signup=open), else by invite only. */
gboolean ladder_signup_open(LadderDb *d);

/* Set signup to "open" or "invite". FALSE with error (SETTINGS for
 * another word). */
gboolean ladder_set_signup(LadderDb *d, const char *mode, GError **error);

/* A new one-time invite code (newly allocated, 32 hex digits); only its
 * hash is stored. NULL with error. */
char *ladder_invite_new(LadderDb *d, GError **error);

/* Whether `name` may be an author's: 1-32 letters, digits, '_' or '-'. */
gboolean ladder_author_name_valid(const char *name);

/*
 * A new author `name` with `password`; `invite` is the code when signup
 * asks one (consumed in the same transaction), or NULL when it is open or
 * the organizer makes the account (`admin`). Returns its id, or 0 with
 * error (NAME: invalid or taken, case ignored; PASSWORD; INVITE).
 */
gint64 ladder_author_create(LadderDb *d, const char *name, const char *password, const char *invite,
			    gboolean admin, GError **error);

/*
 * ladder_author_create() in three steps, so that the costly hash may run
 * on another thread (it touches no database): check what can be checked
 * before (FALSE with error as above), hash the password (libsodium's
 * string, newly allocated; NULL when out of memory), then insert with the
 * hash, checking the name and consuming the invite again in the
 * transaction (0 with error as above).
 */
gboolean ladder_author_check(LadderDb *d, const char *name, const char *password, const char *invite,
			     gboolean admin, GError **error);
char *ladder_password_hash(const char *password);
gint64 ladder_author_insert(LadderDb *d, const char *name, const char *hash, const char *invite, gboolean admin,
			    GError **error);

/* Whether `password` matches `hash` (a stored one), as costly when `hash`
 * is NULL (no such author: FALSE). Thread-safe; touches no database. */
gboolean ladder_password_verify(const char *hash, const char *password);

/* How long a login waits after `failures` failures in a row (seconds;
 * 0 for the first LADDER_LOGIN_FREE). The server's per-address throttle
 * uses it too. */
gint64 ladder_login_wait(gint64 failures);

typedef enum {
	LADDER_LOGIN_OK,
	LADDER_LOGIN_WRONG,	/* no such author or a wrong password (not said which) */
	LADDER_LOGIN_THROTTLED,	/* too many failures: *retry_after seconds */
	LADDER_LOGIN_ERROR,	/* the database failed: error set */
} LadderLogin;

/* Check name and password at `now` (unix seconds), counting a failure
 * against the account. OUT: *author (its id) on OK, *retry_after on
 * THROTTLED. */
LadderLogin ladder_login(LadderDb *d, const char *name, const char *password, gint64 now, gint64 *author,
			 gint64 *retry_after, GError **error);

/*
 * ladder_login() in three steps, the costly check between them on any
 * thread: begin gives OK with OUT: *author (0: no such name) and *hash
 * (newly allocated, or NULL), or THROTTLED (*retry_after) or ERROR; then
 * ladder_password_verify(*hash, password); then end records the outcome
 * (`good`: it matched and *author is not 0) and gives OK, WRONG or ERROR.
 */
LadderLogin ladder_login_begin(LadderDb *d, const char *name, gint64 now, gint64 *author, char **hash,
			       gint64 *retry_after, GError **error);
LadderLogin ladder_login_end(LadderDb *d, gint64 author, gboolean good, gint64 now, GError **error);

/* A new session for `author` until now + LADDER_SESSION_TTL: its token
 * (newly allocated, LADDER_TOKEN_HEX hex digits). NULL with error. */
char *ladder_session_new(LadderDb *d, gint64 author, gint64 now, GError **error);

typedef struct {
	gint64 id;
	char *name;
	gboolean admin;
} LadderAuthor;

void ladder_author_free(LadderAuthor *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderAuthor, ladder_author_free)

/* The author whose live session `token` is (any text: a cookie), or
 * NULL. */
LadderAuthor *ladder_session_author(LadderDb *d, const char *token, gint64 now);

/* End the session of `token` (and every one expired at `now`). FALSE
 * with error. */
gboolean ladder_session_end(LadderDb *d, const char *token, gint64 now, GError **error);

/*
 * Let `author` upload entry `name`: TRUE when they hold it, or it is free
 * (no owner and no entry of that name in the ladder: it becomes theirs).
 * FALSE with error (OWNER) when another author or the organizer holds it.
 */
gboolean ladder_owner_claim(LadderDb *d, const char *name, gint64 author, GError **error);

/* Whether `author` holds entry `name`. */
gboolean ladder_owner_is(LadderDb *d, const char *name, gint64 author);

/* Record an upload: `request` the inbox file it became, or NULL with
 * `refused` the reason. Returns its id, or 0 with error. */
gint64 ladder_upload_record(LadderDb *d, gint64 author, const char *name, gint64 size, const char *request,
			    const char *refused, GError **error);

typedef enum {
	LADDER_UPLOAD_REFUSED,	/* before admission (refused says why) */
	LADDER_UPLOAD_QUEUED,	/* waiting in the inbox for the run */
	LADDER_UPLOAD_ADMITTED,	/* bot, version */
	LADDER_UPLOAD_REJECTED,	/* by admission (note says why) */
} LadderUploadState;

typedef struct {
	gint64 id;
	char *name;
	char *uploaded;
	gint64 size;
	LadderUploadState state;
	char *note;		/* the reason when REFUSED or REJECTED, or NULL */
	gint64 bot;		/* ADMITTED: the entry */
	int version;
} LadderUpload;

void ladder_upload_free(LadderUpload *u);

/* `author`'s uploads, newest first (at most `max`; a GPtrArray owning
 * LadderUpload*). NULL with error. */
GPtrArray *ladder_uploads_of(LadderDb *d, gint64 author, guint max, GError **error);

/* Whether upload `id` is `author`'s. */
gboolean ladder_upload_owned(LadderDb *d, gint64 id, gint64 author);

/* Whether seat `seat` of game `game` was played by an entry `author`
 * holds, and then OUT: *log, the game's log (relative to DIR, newly
 * allocated). */
gboolean ladder_seat_owned(LadderDb *d, gint64 game, int seat, gint64 author, char **log);

/* The entries of the names `author` holds, by name then version (a
 * GPtrArray owning LadderBot*, ladder/ladder.h). NULL with error. */
GPtrArray *ladder_author_bots(LadderDb *d, gint64 author, GError **error);

typedef struct {
	gint64 game;
	int seat;
	gint64 bot;		/* the entry in that seat */
	char *label;		/* its label, "NAME" or "NAME.vN" */
	int rank;		/* 0 while unfinished */
	gint64 score;
	char *faults;		/* or NULL */
	char *log;		/* relative to DIR, or NULL while unfinished */
} LadderAuthorGame;

void ladder_author_game_free(LadderAuthorGame *g);

/* The newest `max` seats the entries of `author` played (a GPtrArray
 * owning LadderAuthorGame*), newest first. NULL with error. */
GPtrArray *ladder_author_games(LadderDb *d, gint64 author, guint max, GError **error);

/* Test games: at most LADDER_TESTS_PER_DAY asked by an author in 24 h,
 * one at a time. */
#define LADDER_TESTS_PER_DAY 10

/*
 * Ask for a test game of `author`'s entry `bot` (a name they hold, its
 * active version) against the active version of `opponent`. Returns the
 * test's id and OUT: *bot_id, *opponent_id (the entries), or 0 with error
 * (NAME: no such active entry, or not theirs; OWNER: one is unfinished,
 * or the day's are used up).
 */
gint64 ladder_test_ask(LadderDb *d, gint64 author, const char *bot, const char *opponent, gint64 *bot_id,
		       gint64 *opponent_id, GError **error);

/* Record test `id`'s result (one line for people). FALSE with error. */
gboolean ladder_test_done(LadderDb *d, gint64 id, const char *result, GError **error);

/* Mark every unfinished test as not played (a server that stopped during
 * them). FALSE with error. */
gboolean ladder_tests_abandon(LadderDb *d, GError **error);

typedef struct {
	gint64 id;
	char *bot;		/* its label, "NAME" or "NAME.vN" */
	char *opponent;		/* likewise */
	char *asked;
	char *result;		/* NULL while it plays */
} LadderTest;

void ladder_test_free(LadderTest *t);

/* `author`'s test games, newest first (at most `max`; a GPtrArray owning
 * LadderTest*). NULL with error. */
GPtrArray *ladder_tests_of(LadderDb *d, gint64 author, guint max, GError **error);

/* Whether test `id` is `author`'s. */
gboolean ladder_test_owned(LadderDb *d, gint64 id, gint64 author);

#endif
