/*
 * db: the ladder's SQLite database. See db.h.
 *
 * The schema comes from build/ladder-schema.h, made by the Makefile from
 * ladder/schema.sql with scripts/embed.py.
 */
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/ladder-schema.h"

G_DEFINE_QUARK(tetrarena-ladder-db-error-quark, ladder_db_error)

#define VERSION_MARK "-- version "

/* The SQL of schema version `v` (newly allocated), or NULL past the last. */
static char *schema_version_sql(int v)
{
	g_autofree char *all = g_strndup((const char *)ladder_schema_sql, ladder_schema_sql_len);
	g_autofree char *mark = g_strdup_printf("\n" VERSION_MARK "%d\n", v);
	char *start = strstr(all, mark);

	if (!start)
		return NULL;
	start += strlen(mark);
	char *end = strstr(start, "\n" VERSION_MARK);
	return end ? g_strndup(start, end - start) : g_strdup(start);
}

int ladder_db_schema_latest(void)
{
	int v = 1;

	for (;;) {
		g_autofree char *sql = schema_version_sql(v + 1);
		if (!sql)
			return v;
		v++;
	}
}

gboolean ladder_db_file_error(int e, const char *what, GError **error)
{
	if (e == ENOSPC || e == EDQUOT) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_FULL,
			    "the disk is full (%s: %s)", what, g_strerror(e));
		return FALSE;
	}
	g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SQL, "%s: %s", what, g_strerror(e));
	return FALSE;
}

gboolean ladder_db_fail(LadderDb *d, int rc, const char *what, GError **error)
{
	int ext = d && d->db ? sqlite3_extended_errcode(d->db) : rc;
	const char *msg = d && d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc);

	if ((rc & 0xff) == SQLITE_FULL || (ext & 0xff) == SQLITE_FULL ||
	    (d && d->db && sqlite3_system_errno(d->db) == ENOSPC)) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_FULL,
			    "the disk is full (%s: %s)", what, msg);
		return FALSE;
	}
	g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SQL, "%s: %s", what, msg);
	return FALSE;
}

gboolean ladder_db_exec(LadderDb *d, const char *sql, GError **error)
{
	int rc = sqlite3_exec(d->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK || ladder_db_fail(d, rc, "database", error);
}

sqlite3_stmt *ladder_db_prepare(LadderDb *d, const char *sql, GError **error)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(d->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK) {
		ladder_db_fail(d, rc, "preparing a query", error);
		return NULL;
	}
	return st;
}

gboolean ladder_db_step_done(LadderDb *d, sqlite3_stmt *st, GError **error)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_reset(st);
	return rc == SQLITE_DONE || ladder_db_fail(d, rc, "writing the database", error);
}

gboolean ladder_db_begin(LadderDb *d, GError **error)
{
	return ladder_db_exec(d, "BEGIN IMMEDIATE", error);
}

gboolean ladder_db_commit(LadderDb *d, GError **error)
{
	if (ladder_db_exec(d, "COMMIT", error))
		return TRUE;
	ladder_db_rollback(d);
	return FALSE;
}

void ladder_db_rollback(LadderDb *d)
{
	if (!sqlite3_get_autocommit(d->db))
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
}

char *ladder_db_meta(LadderDb *d, const char *key)
{
	sqlite3_stmt *st = NULL;
	char *value = NULL;

	if (sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		value = g_strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return value;
}

gboolean ladder_db_set_meta(LadderDb *d, const char *key, const char *value, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", error);

	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

char *ladder_db_now(void)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();

	return g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
}

void ladder_db_free(LadderDb *d)
{
	if (!d)
		return;
	if (d->db)
		sqlite3_close(d->db);
	if (d->lock_fd >= 0)
		close(d->lock_fd);	/* the lock goes with it */
	g_free(d->dir);
	g_free(d);
}

/* Take the writer's lock, writing our pid and command into the file. */
static gboolean take_lock(LadderDb *d, GError **error)
{
	g_autofree char *path = g_build_filename(d->dir, LADDER_DB_LOCK, NULL);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		return ladder_db_file_error(errno, path, error);
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char holder[256] = "";
		ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		g_strchomp(holder);
		close(fd);
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_BUSY,
			    "%s is being written by another process (%s); one process writes a ladder: "
			    "stop it first, or read with `ladder standings`", d->dir,
			    holder[0] ? holder : "its pid unknown");
		return FALSE;
	}
	g_autofree char *who = g_strdup_printf("pid %d\n", (int)getpid());

	if (ftruncate(fd, 0) != 0 || pwrite(fd, who, strlen(who), 0) < 0) {
		int e = errno;
		close(fd);
		return ladder_db_file_error(e, path, error);
	}
	d->lock_fd = fd;
	return TRUE;
}

gboolean ladder_db_lock_note(LadderDb *d, const char *what, GError **error)
{
	g_autofree char *who = g_strdup_printf("pid %d %s\n", (int)getpid(), what);

	if (d->lock_fd < 0 || ftruncate(d->lock_fd, 0) != 0 || pwrite(d->lock_fd, who, strlen(who), 0) < 0)
		return ladder_db_file_error(d->lock_fd < 0 ? EBADF : errno, LADDER_DB_LOCK, error);
	return TRUE;
}

char *ladder_db_writer(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, LADDER_DB_LOCK, NULL);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char holder[256] = "";

	if (fd < 0)
		return NULL;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		close(fd);	/* nobody holds it (and our shared lock goes) */
		return NULL;
	}
	ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
	close(fd);
	holder[n > 0 ? n : 0] = '\0';
	g_strchomp(holder);
	return g_strdup(holder[0] ? holder : "its pid unknown");
}

static int schema_version(LadderDb *d)
{
	g_autofree char *v = ladder_db_meta(d, "schema_version");
	gint64 n = 0;

	if (!v || !g_ascii_string_to_signed(v, 10, 1, 1000000, &n, NULL))
		return 0;
	return (int)n;
}

/* Bring the database from version `from` to the latest, a version a
 * transaction. */
static gboolean migrate(LadderDb *d, int from, GError **error)
{
	int latest = ladder_db_schema_latest();

	for (int v = from + 1; v <= latest; v++) {
		g_autofree char *sql = schema_version_sql(v);
		g_autofree char *num = g_strdup_printf("%d", v);
		if (!ladder_db_begin(d, error))
			return FALSE;
		if (!ladder_db_exec(d, sql, error) || !ladder_db_set_meta(d, "schema_version", num, error)) {
			ladder_db_rollback(d);
			g_prefix_error(error, "%s: schema version %d: ", d->dir, v);
			return FALSE;
		}
		if (!ladder_db_commit(d, error))
			return FALSE;
	}
	return TRUE;
}

/* The database and its -wal, -shm and lock made 0600 where they are not
 * (a ladder made before they were). */
static void private_files(const char *db)
{
	static const char *const suffix[] = {"", "-wal", "-shm", NULL};
	struct stat st;

	for (int i = 0; suffix[i]; i++) {
		g_autofree char *p = g_strconcat(db, suffix[i], NULL);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077) && st.st_uid == geteuid())
			chmod(p, 0600);
	}
}

static LadderDb *open_db(const char *dir, gboolean write, gboolean create, GError **error)
{
	g_autoptr(LadderDb) d = g_new0(LadderDb, 1);
	g_autofree char *path = g_build_filename(dir, LADDER_DB_FILE, NULL);

	d->dir = g_strdup(dir);
	d->lock_fd = -1;
	gboolean exists = g_file_test(path, G_FILE_TEST_EXISTS);
	if (create && exists) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_EXISTS,
			    "%s already holds a ladder (%s)", dir, path);
		return NULL;
	}
	if (!create && !exists) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_MISSING,
			    "%s holds no ladder (no %s): make one with `referee ladder init %s --variant V`",
			    dir, LADDER_DB_FILE, dir);
		return NULL;
	}
	if (create && g_mkdir_with_parents(dir, 0755) != 0)
		return ladder_db_file_error(errno, dir, error), NULL;
	/* the directory is not listed to others (its pages stay reachable) */
	if (create && chmod(dir, 0711) != 0)
		return ladder_db_file_error(errno, dir, error), NULL;
	if (write && !take_lock(d, error))
		return NULL;
	/* the database (the master seed, every command) is the keeper's
	 * alone; SQLite gives its -wal and -shm the same mode */
	if (create) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return ladder_db_file_error(errno, path, error), NULL;
		close(fd);
	}
	if (write)
		private_files(path);
	int flags = write ? SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) : SQLITE_OPEN_READONLY;
	int rc = sqlite3_open_v2(path, &d->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ladder_db_fail(d, rc, path, error);
		return NULL;
	}
	sqlite3_busy_timeout(d->db, 10000);
	if (write && (!ladder_db_exec(d, "PRAGMA journal_mode = WAL", error) ||
		      !ladder_db_exec(d, "PRAGMA synchronous = FULL", error)))
		return NULL;
	if (!ladder_db_exec(d, "PRAGMA foreign_keys = ON", error))
		return NULL;
	int v = create ? 0 : schema_version(d);
	int latest = ladder_db_schema_latest();
	if (!create && v == 0) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SCHEMA,
			    "%s: not a ladder's database (no schema version)", path);
		return NULL;
	}
	if (v > latest) {
		g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SCHEMA,
			    "%s: schema version %d is newer than this referee's (%d): use a newer referee",
			    path, v, latest);
		return NULL;
	}
	if (v < latest) {
		if (!write) {
			g_set_error(error, LADDER_DB_ERROR, LADDER_DB_ERROR_SCHEMA,
				    "%s: schema version %d, older than this referee's %d: any writing command "
				    "(`ladder run`, `add`, `retire`) migrates it", path, v, latest);
			return NULL;
		}
		if (!migrate(d, v, error))
			return NULL;
	}
	return g_steal_pointer(&d);
}

LadderDb *ladder_db_create(const char *dir, GError **error)
{
	return open_db(dir, TRUE, TRUE, error);
}

LadderDb *ladder_db_open(const char *dir, gboolean write, GError **error)
{
	return open_db(dir, write, FALSE, error);
}

gboolean ladder_db_backup(const char *dir, const char *out, GError **error)
{
	g_autoptr(LadderDb) src = ladder_db_open(dir, FALSE, error);
	g_autoptr(LadderDb) dst = NULL;

	if (!src)
		return FALSE;
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return ladder_db_file_error(errno, out, error);
	close(fd);
	dst = g_new0(LadderDb, 1);
	dst->lock_fd = -1;
	dst->dir = g_path_get_dirname(out);
	int rc = sqlite3_open_v2(out, &dst->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	sqlite3_backup *b = rc == SQLITE_OK ? sqlite3_backup_init(dst->db, "main", src->db, "main") : NULL;
	if (b) {
		/* a step at a time, so a writer waits at most one step's pages;
		 * busy for a minute in all, it gives up */
		int busy = 0;
		while (((rc = sqlite3_backup_step(b, 256)) == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) &&
		       busy < 1200)
			if (rc != SQLITE_OK) {
				busy++;
				sqlite3_sleep(50);
			}
		sqlite3_backup_finish(b);
		if (rc == SQLITE_DONE)
			rc = sqlite3_errcode(dst->db);
	} else if (rc == SQLITE_OK) {
		rc = sqlite3_errcode(dst->db);
	}
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		ladder_db_fail(dst, rc, out, error);
		g_clear_pointer(&dst, ladder_db_free);
		unlink(out);
		return FALSE;
	}
	return TRUE;
}
