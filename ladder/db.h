/*
 * db: the ladder's SQLite database (DIR/ladder.db, ladder/schema.sql).
 *
 * One process writes a ladder: a writer holds an exclusive lock on
 * DIR/ladder.lock (flock, which the kernel drops when the process dies,
 * kill -9 included) that names its pid and command; a second writer is
 * refused with LADDER_DB_ERROR_BUSY naming them. Readers (standings,
 * pages, verify) take no lock: the database is in WAL mode, so they read
 * a consistent snapshot while the writer goes on.
 *
 * The schema is built into the binary from ladder/schema.sql, a list of
 * versions. Opening for writing brings an older database up to the
 * latest version, a version per transaction; a reader refuses an older
 * database (any writing command migrates it) and a newer one.
 *
 * Every sqlite failure becomes a GError naming the statement's purpose;
 * a full disk (SQLITE_FULL, or ENOSPC from a file beside the database) is
 * LADDER_DB_ERROR_FULL, whose message says so in words. A transaction that
 * fails is rolled back, so the database still opens.
 */
#ifndef TETRARENA_LADDER_DB_H
#define TETRARENA_LADDER_DB_H

#include <glib.h>
#include <sqlite3.h>

#define LADDER_DB_FILE "ladder.db"
#define LADDER_DB_LOCK "ladder.lock"

#define LADDER_DB_ERROR (ladder_db_error_quark())
GQuark ladder_db_error_quark(void);

typedef enum {
	LADDER_DB_ERROR_MISSING,	/* no ladder in that directory */
	LADDER_DB_ERROR_EXISTS,		/* init over an existing ladder */
	LADDER_DB_ERROR_BUSY,		/* another process writes it */
	LADDER_DB_ERROR_FULL,		/* the disk is full */
	LADDER_DB_ERROR_SCHEMA,		/* a schema version we cannot read */
	LADDER_DB_ERROR_SQL,		/* any other sqlite failure */
} LadderDbError;

typedef struct {
	sqlite3 *db;
	char *dir;		/* the ladder's directory */
	int lock_fd;		/* the writer's lock, or -1 for a reader */
} LadderDb;

/* The newest schema version ladder/schema.sql defines. */
int ladder_db_schema_latest(void);

/*
 * Create DIR (and its parents) and a new database in it at the latest
 * schema, opened for writing. LADDER_DB_ERROR_EXISTS when DIR already
 * holds one. NULL with error on failure.
 */
LadderDb *ladder_db_create(const char *dir, GError **error);

/* Open DIR's database; `write` takes the writer's lock and migrates.
 * NULL with error (MISSING, BUSY, SCHEMA, SQL). */
LadderDb *ladder_db_open(const char *dir, gboolean write, GError **error);
void ladder_db_free(LadderDb *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderDb, ladder_db_free)

/* Say in the writer's lock what holds it ("pid N WHAT"), e.g. "ladder
 * run". FALSE with error. */
gboolean ladder_db_lock_note(LadderDb *d, const char *what, GError **error);

/* What holds DIR's writer's lock ("pid N ...", newly allocated), or NULL
 * when no process does. */
char *ladder_db_writer(const char *dir);

/* Run SQL (one or more statements, no results). FALSE with error. */
gboolean ladder_db_exec(LadderDb *d, const char *sql, GError **error);

/* Prepare one statement; NULL with error. Finalize it with
 * sqlite3_finalize(). */
sqlite3_stmt *ladder_db_prepare(LadderDb *d, const char *sql, GError **error);

/* Step a statement that returns no rows (or ignore them), then reset it.
 * FALSE with error. */
gboolean ladder_db_step_done(LadderDb *d, sqlite3_stmt *st, GError **error);

/* Set error from the connection's last failure (rc), saying `what` was
 * being done; returns FALSE. */
gboolean ladder_db_fail(LadderDb *d, int rc, const char *what, GError **error);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK (the last ignores failures). */
gboolean ladder_db_begin(LadderDb *d, GError **error);
gboolean ladder_db_commit(LadderDb *d, GError **error);
void ladder_db_rollback(LadderDb *d);

/* A meta value (newly allocated), or NULL when unset. */
char *ladder_db_meta(LadderDb *d, const char *key);
gboolean ladder_db_set_meta(LadderDb *d, const char *key, const char *value, GError **error);

/* The current time as the database stores it: ISO 8601 UTC with seconds.
 * Newly allocated. */
char *ladder_db_now(void);

/*
 * Copy DIR's database into the new file `out` with SQLite's online backup
 * (sqlite3_backup_*), a consistent snapshot while `ladder run` and the
 * server go on writing: the copy opens as a ladder (put it at DIR/ladder.db
 * of a directory to use it). Made 0600; refused when `out` exists. FALSE
 * with error, and no `out` left behind.
 */
gboolean ladder_db_backup(const char *dir, const char *out, GError **error);

/* An error from a file next to the database (errno `e`): FULL for ENOSPC
 * and EDQUOT, else SQL. Returns FALSE. */
gboolean ladder_db_file_error(int e, const char *what, GError **error);

#endif
