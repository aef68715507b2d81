/*
 * intake: the run takes its inbox's requests. See intake.h.
 */
#include "intake.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ladder/admit.h"
#include "ladder/events.h"
#include "ladder/inbox.h"

void ladder_bot_dir_remove(const char *ladder_dir, const char *path)
{
	g_autofree char *bots = g_build_filename(ladder_dir, "bots", NULL);
	g_autofree char *abs_bots = g_canonicalize_filename(bots, NULL);
	g_autofree char *prefix = g_strconcat(abs_bots, G_DIR_SEPARATOR_S, NULL);
	g_autofree char *abs = g_canonicalize_filename(path, NULL);

	if (!g_str_has_prefix(abs, prefix) || strchr(abs + strlen(prefix), G_DIR_SEPARATOR))
		return;
	const char *rm[] = {"rm", "-rf", "--", abs, NULL};
	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

static gboolean decided(LadderDb *d, const char *file)
{
	sqlite3_stmt *st = NULL;
	gboolean found = FALSE;

	if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM requests WHERE file = ?", -1, &st, NULL) != SQLITE_OK)
		return FALSE;
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* A decision with no entry made: its row alone, in a transaction. */
static gboolean decide(LadderDb *d, const char *file, const char *kind, const char *name, gint64 next_game,
		       const char *note, GError **error)
{
	if (!ladder_db_begin(d, error))
		return FALSE;
	if (!ladder_request_decided(d, file, kind, name, next_game, 0, note, error)) {
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

static gboolean retire(LadderDb *d, const char *file, const LadderRequest *r, gint64 next_game, gboolean *done,
		       GError **error)
{
	if (!ladder_db_begin(d, error))
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "UPDATE bots SET status = 'retired' WHERE name = ? AND status = 'active'",
					     error);
	gboolean ok = st != NULL;
	if (ok) {
		sqlite3_bind_text(st, 1, r->name, -1, SQLITE_STATIC);
		ok = ladder_db_step_done(d, st, error);
	}
	sqlite3_finalize(st);
	*done = ok && sqlite3_changes(d->db) > 0;
	if (ok)
		ok = ladder_request_decided(d, file, "retire", r->name, next_game, 0,
					    *done ? "retired" : "rejected: no active entry of that name", error);
	if (!ok) {
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

gboolean ladder_resume(LadderDb *d, const char *name, const char *request, gint64 next_game, gboolean *done,
		       GError **error)
{
	*done = FALSE;
	if (!ladder_db_begin(d, error))
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "UPDATE bots SET suspended = NULL, suspended_why = NULL, fault_run = 0 "
					     "WHERE name = ? AND status = 'active' AND suspended IS NOT NULL "
					     "RETURNING id, author", error);
	gboolean ok = st != NULL;
	gint64 id = 0;
	g_autofree char *author = NULL;
	if (ok) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			id = sqlite3_column_int64(st, 0);
			const unsigned char *a = sqlite3_column_text(st, 1);
			author = a ? g_strdup((const char *)a) : NULL;
		}
		ok = ladder_db_step_done(d, st, error);
	}
	sqlite3_finalize(st);
	*done = ok && id > 0;
	if (ok && *done)
		ok = ladder_event_add(d, "resumed", author, name, id, 0,
				      "resumed by the organizer: scheduled again", error);
	if (ok && request)
		ok = ladder_request_decided(d, request, "resume", name, next_game, *done ? id : 0,
					    *done ? "resumed" : "rejected: no suspended entry of that name", error);
	if (!ok) {
		*done = FALSE;
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

/* Whether an entry runs in `workdir` (a request may name another's),
 * as written or after links. */
static gboolean in_use(LadderDb *d, const char *workdir)
{
	g_autofree char *abs = g_canonicalize_filename(workdir, NULL);
	g_autofree char *real = realpath(abs, NULL);
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, NULL);

	for (guint i = 0; bots && i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		if (!b->workdir)
			continue;
		g_autofree char *babs = g_canonicalize_filename(b->workdir, NULL);
		g_autofree char *breal = realpath(babs, NULL);
		if (!strcmp(babs, abs) || (real && breal && !strcmp(real, breal)))
			return TRUE;
	}
	return bots == NULL;	/* when in doubt, keep it */
}

/* OUT: *done when admitted, *stopped when a stop interrupted it (not
 * decided). */
static gboolean add(LadderDb *d, const LadderSettings *s, const char *referee, const char *file,
		    const LadderRequest *r, gint64 next_game, gboolean quiet, volatile sig_atomic_t *stop,
		    gboolean *done, gboolean *stopped, GError **error)
{
	LadderSubmission sub = {r->name, r->command, r->workdir, r->author, r->description, file, next_game, stop};
	LadderAdmission a;
	g_autoptr(GError) err = NULL;

	if (!ladder_admit(d, s, referee, &sub, &a, &err)) {
		if (g_error_matches(err, LADDER_ERROR, LADDER_ERROR_STOPPED)) {
			*stopped = TRUE;
			return TRUE;
		}
		if (!g_error_matches(err, LADDER_ERROR, LADDER_ERROR_NAME)) {
			g_propagate_error(error, g_steal_pointer(&err));
			return FALSE;
		}
		/* the request's fault (the ladder is full): its decision */
		a.reason = g_strdup(err->message);
		if (!decide(d, file, "add", r->name, next_game, a.reason, error)) {
			ladder_admission_clear(&a);
			return FALSE;
		}
	}
	*done = a.admitted;
	if (!a.admitted && r->workdir && !in_use(d, r->workdir))
		ladder_bot_dir_remove(d->dir, r->workdir);
	if (!quiet && a.admitted)
		fprintf(stderr, "ladder: %s admitted as version %d (entry %" G_GINT64_FORMAT "), scheduled from game %"
			G_GINT64_FORMAT " on\n", r->name, a.version, a.id, next_game);
	else if (!quiet) {
		g_autofree char *shown = g_strescape(a.reason, NULL);
		fprintf(stderr, "ladder: %s rejected: %s\n", r->name, shown);
	}
	ladder_admission_clear(&a);
	return TRUE;
}

/* Decide the request at path (not decided yet). OUT: *done (an entry
 * changed), *stopped. */
static gboolean take(LadderDb *d, const LadderSettings *s, const char *referee, const char *file,
		     const char *path, gint64 next_game, gboolean quiet, volatile sig_atomic_t *stop,
		     gboolean *done, gboolean *stopped, GError **error)
{
	g_autoptr(GError) bad = NULL;
	g_autoptr(LadderRequest) r = ladder_request_read(path, &bad);

	if (!r) {
		if (!quiet) {
			g_autofree char *shown = g_strescape(bad->message, NULL);
			fprintf(stderr, "ladder: a queued request is refused: %s\n", shown);
		}
		return decide(d, file, "bad", "?", next_game, bad->message, error);
	}
	if (r->kind == LADDER_REQUEST_ADD)
		return add(d, s, referee, file, r, next_game, quiet, stop, done, stopped, error);
	if (r->kind == LADDER_REQUEST_RESUME) {
		if (!ladder_resume(d, r->name, file, next_game, done, error))
			return FALSE;
		if (!quiet)
			fprintf(stderr, "ladder: %s %s\n", r->name, *done ? "resumed: scheduled again" :
				"not resumed: no suspended entry of that name");
		return TRUE;
	}
	if (!retire(d, file, r, next_game, done, error))
		return FALSE;
	if (*done && !quiet)
		fprintf(stderr, "ladder: %s retired, from game %" G_GINT64_FORMAT " on\n", r->name, next_game);
	return TRUE;
}

gboolean ladder_intake(LadderDb *d, const LadderSettings *s, const char *referee, gint64 next_game,
		       gboolean quiet, volatile sig_atomic_t *stop, gboolean *changed, GError **error)
{
	g_autoptr(GPtrArray) files = ladder_inbox_list(d->dir);
	gboolean stopped = FALSE;

	for (guint i = 0; i < files->len && !(stop && *stop); i++) {
		const char *file = g_ptr_array_index(files, i);
		g_autofree char *path = g_build_filename(d->dir, LADDER_INBOX_DIR, file, NULL);
		gboolean done = FALSE;
		if (!decided(d, file)) {
			if (!take(d, s, referee, file, path, next_game, quiet, stop, &done, &stopped, error))
				return FALSE;
			*changed = *changed || done;
			if (stopped)
				break;	/* it stays queued */
		}
		if (g_unlink(path) != 0 && errno != ENOENT)
			return ladder_db_file_error(errno, path, error);
	}
	return TRUE;
}
