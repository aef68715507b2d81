/*
 * admit: the admission of a submission. See admit.h.
 */
#include "admit.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/rng.h"
#include "ladder/botdir.h"
#include "ladder/events.h"
#include "referee/game.h"

#define REASON_MAX 2000	/* bytes of a reason kept */

void ladder_admission_clear(LadderAdmission *a)
{
	g_clear_pointer(&a->reason, g_free);
}

/* The FAILED items of `referee check`'s output, each with its `the line:`,
 * as one reason. */
static char *check_failures(const char *out)
{
	g_autoptr(GString) r = g_string_new(NULL);
	g_auto(GStrv) lines = g_strsplit(out ? out : "", "\n", -1);

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];
		if (!strstr(l, "FAILED  "))
			continue;
		g_string_append_printf(r, "%s%s", r->len ? "; " : "", g_strstrip(lines[i]));
		for (int j = i + 1; lines[j] && g_ascii_isspace(lines[j][0]) && !strstr(lines[j], "FAILED  ") &&
				    !g_str_has_prefix(g_strchug(lines[j]), "ok "); j++)
			if (g_str_has_prefix(lines[j], "the line:"))
				g_string_append_printf(r, " (%s)", lines[j]);
		if (r->len > REASON_MAX)
			break;
	}
	return g_string_free(g_steal_pointer(&r), FALSE);
}

/* DIR/admission (absolute), made or kept closed to others (0700). NULL
 * with error. */
static char *admission_dir(LadderDb *d, GError **error)
{
	g_autofree char *tmp = g_build_filename(d->dir, "admission", NULL);
	g_autofree char *abs = g_canonicalize_filename(tmp, NULL);

	if (g_mkdir_with_parents(abs, 0700) != 0 || chmod(abs, 0700) != 0) {
		ladder_db_file_error(errno, abs, error);
		return NULL;
	}
	return g_steal_pointer(&abs);
}

/* Run `referee check`; NULL when every item passed, else the reason. */
static char *run_check(LadderDb *d, const LadderSettings *s, const char *referee, const char *command,
		       const char *workdir, GError **error)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *out = NULL, *err = NULL;
	int status = 0;

	g_ptr_array_add(argv, g_strdup(referee));
	g_ptr_array_add(argv, g_strdup("check"));
	g_ptr_array_add(argv, g_strdup_printf("--variant=%s", s->variant->name));
	g_ptr_array_add(argv, g_strdup_printf("--players=%d", s->min_players));
	if (s->time[0])
		g_ptr_array_add(argv, g_strdup_printf("--time=%s", s->time));
	g_auto(GStrv) opts = g_strsplit(s->options, ",", -1);
	for (int i = 0; opts[i]; i++)
		if (opts[i][0])
			g_ptr_array_add(argv, g_strdup_printf("--option=%s", opts[i]));
	/* the jail shows it its directory alone, and nothing of the ladder's */
	if (workdir) {
		g_ptr_array_add(argv, g_strdup_printf("--workdir=%s", workdir));
		g_ptr_array_add(argv, g_strdup("--confine"));
	}
	g_autofree char *abs_dir = g_canonicalize_filename(d->dir, NULL);
	g_ptr_array_add(argv, g_strdup_printf("--hide=%s", abs_dir));
	g_ptr_array_add(argv, g_strdup(command));
	g_ptr_array_add(argv, NULL);
	/* its logs, kept when an item fails, go beside the ladder's */
	g_autofree char *abs_tmp = admission_dir(d, error);
	if (!abs_tmp)
		return NULL;
	g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "TMPDIR", abs_tmp, TRUE);
	if (!g_spawn_sync(workdir, (char **)argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
			  &status, error))
		return NULL;
	if (g_spawn_check_wait_status(status, NULL))
		return NULL;
	g_autofree char *failed = check_failures(out);
	if (failed[0])
		return g_strdup_printf("referee check: %s", failed);
	g_strstrip(err);
	return g_strdup_printf("referee check failed: %s", err[0] ? err : "(no output)");
}

/* The validation game: every seat a copy. NULL when it went without a
 * fault, else the reason. */
static char *run_validation(LadderDb *d, const LadderSettings *s, const char *label, const char *command,
			    const char *workdir, gint64 nth, GError **error)
{
	g_autofree char *file = g_strdup_printf("%s-%" G_GINT64_FORMAT ".log", label, nth);
	g_autofree char *dir = NULL, *log = NULL;
	g_autoptr(GError) cerr = NULL;
	g_autoptr(BotSpec) bs = bot_spec_new(command, label, &cerr);
	GameSpec spec;
	GameResult res;

	if (!bs)
		return g_strdup_printf("its command does not parse: %s", cerr->message);
	if (workdir) {
		bs->workdir = g_strdup(workdir);
		bs->confined = TRUE;
	}
	dir = admission_dir(d, error);
	if (!dir)
		return NULL;
	log = g_build_filename(dir, file, NULL);
	/* the log is the keeper's alone (its stderr files are made so too) */
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, 0600) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		ladder_db_file_error(e, log, error);
		return NULL;
	}
	close(fd);
	if (!ladder_game_spec(s, s->max_players, rng_derive(s->seed, "ladder-admission", nth), &spec, error))
		return NULL;
	for (int p = 0; p < s->max_players; p++)
		spec.seats[p].spec = bs;
	spec.log_path = log;
	spec.hide_dir = d->dir;
	if (!game_run(&spec, &res, error))
		return NULL;
	g_autoptr(GString) why = g_string_new(NULL);
	for (int p = 0; p < res.nseats; p++) {
		if (res.seat[p].first_fault < 0)
			continue;
		g_autoptr(GPtrArray) faults = ladder_log_faults(log, p, 1);
		g_string_append_printf(why, "validation game against copies of itself: seat %d %s%s%s (log %s)", p,
				       game_fault_name(res.seat[p].first_fault), faults->len ? ": " : "",
				       faults->len ? (char *)g_ptr_array_index(faults, 0) : "", log);
		break;
	}
	game_result_clear(&res);
	return why->len ? g_string_free(g_steal_pointer(&why), FALSE) : NULL;
}

gboolean ladder_request_decided(LadderDb *d, const char *file, const char *kind, const char *name,
				gint64 next_game, gint64 bot, const char *note, GError **error)
{
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO requests (file, kind, name, decided, next_game, bot, note) "
					     "VALUES (?, ?, ?, ?, ?, ?, ?)", error);
	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, next_game);
	if (bot > 0)
		sqlite3_bind_int64(st, 6, bot);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_text(st, 7, note, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

static gboolean record_rejection(LadderDb *d, const LadderSubmission *sub, const char *reason, GError **error)
{
	g_autofree char *now = ladder_db_now();
	if (!ladder_db_begin(d, error))
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO rejections (name, command, added, reason) "
					     "VALUES (?, ?, ?, ?)", error);
	gboolean ok = st != NULL;
	if (ok) {
		sqlite3_bind_text(st, 1, sub->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, sub->command, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, reason, -1, SQLITE_STATIC);
		ok = ladder_db_step_done(d, st, error);
	}
	sqlite3_finalize(st);
	if (ok) {
		g_autofree char *text = g_strdup_printf("rejected: %s", reason);
		ok = ladder_event_add(d, "rejected", sub->author, sub->name, 0, 0, text, error);
	}
	if (ok && sub->request)
		ok = ladder_request_decided(d, sub->request, "add", sub->name, sub->next_game, 0, reason, error);
	if (!ok) {
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

static gint64 scalar(LadderDb *d, const char *sql, const char *arg)
{
	sqlite3_stmt *st = NULL;
	gint64 v = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Insert the name's next version, replacing the active one. */
static gboolean record_entry(LadderDb *d, const LadderSubmission *sub, LadderAdmission *out, GError **error)
{
	const char *name = sub->name, *command = sub->command, *workdir = sub->workdir;
	g_autofree char *now = ladder_db_now();
	g_autoptr(GError) cerr = NULL;
	g_autoptr(BotSpec) bs = bot_spec_new(command, name, &cerr);
	g_autofree char *sha = NULL;

	if (bs && workdir) {
		/* the hash of what runs: resolve relative files in its directory */
		g_autofree char *here = g_get_current_dir();
		if (chdir(workdir) == 0) {
			sha = bot_spec_hash(bs);
			if (chdir(here) != 0)
				return ladder_db_file_error(errno, here, error);
		}
	}
	if (!sha)
		sha = bs ? bot_spec_hash(bs) : g_strdup("-");
	int version = (int)scalar(d, "SELECT COALESCE(MAX(version), 0) FROM bots WHERE name = ?", name) + 1;
	if (!ladder_db_begin(d, error))
		return FALSE;
	sqlite3_stmt *up = ladder_db_prepare(d, "UPDATE bots SET status = 'replaced' WHERE name = ? "
					     "AND status = 'active'", error);
	sqlite3_stmt *ins = up ? ladder_db_prepare(d, "INSERT INTO bots (name, version, command, workdir, sha256, "
						   "added, status, author, description) VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?)", error)
			       : NULL;
	gboolean ok = up && ins;
	if (ok) {
		sqlite3_bind_text(up, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 2, version);
		sqlite3_bind_text(ins, 3, command, -1, SQLITE_STATIC);
		if (workdir)
			sqlite3_bind_text(ins, 4, workdir, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 4);
		sqlite3_bind_text(ins, 5, sha, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, sub->author, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 8, sub->description, -1, SQLITE_STATIC);
		ok = ladder_db_step_done(d, up, error) && ladder_db_step_done(d, ins, error);
	}
	gint64 id = sqlite3_last_insert_rowid(d->db);
	if (ok) {
		g_autofree char *text = g_strdup_printf("admitted as version %d (entry %" G_GINT64_FORMAT ")%s", version,
							id, version > 1 ? ", replacing the previous version" : "");
		ok = ladder_event_add(d, "admitted", sub->author, name, id, 0, text, error);
	}
	if (ok && sub->request)
		ok = ladder_request_decided(d, sub->request, "add", name, sub->next_game, id, NULL, error);
	sqlite3_finalize(up);
	sqlite3_finalize(ins);
	if (!ok) {
		ladder_db_rollback(d);
		return FALSE;
	}
	if (!ladder_db_commit(d, error))
		return FALSE;
	out->admitted = TRUE;
	out->version = version;
	out->id = id;
	return TRUE;
}

gboolean ladder_admit(LadderDb *d, const LadderSettings *s, const char *referee, const LadderSubmission *sub,
		      LadderAdmission *out, GError **error)
{
	const char *name = sub->name, *command = sub->command, *workdir = sub->workdir;

	memset(out, 0, sizeof(*out));
	if (!ladder_name_valid(name)) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME,
			    "bad name '%s': 1 to 32 letters, digits, '_' or '-'", name);
		return FALSE;
	}
	gint64 entries = scalar(d, "SELECT COUNT(*) FROM bots", NULL);
	if (entries >= LADDER_MAX_BOTS) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME,
			    "the ladder holds %d entries, its most (every version counts)", LADDER_MAX_BOTS);
		return FALSE;
	}
	gint64 nth = scalar(d, "SELECT COUNT(*) FROM bots", NULL) + scalar(d, "SELECT COUNT(*) FROM rejections", NULL);
	g_autofree char *label = g_strdup_printf("%s.admission", name);
	g_autoptr(GError) cerr = NULL;
	g_autoptr(BotSpec) bs = bot_spec_new(command, name, &cerr);
	char *reason = bs ? NULL : g_strdup_printf("its command does not parse: %s", cerr->message);

	/* what it brings and names, before it runs (ladder/botdir.h) */
	g_autoptr(GError) refused = NULL;
	if (!reason && workdir &&
	    (!ladder_bot_dir_valid(d->dir, workdir, &refused) || !ladder_bot_dir_check(workdir, &s->caps, &refused)))
		reason = g_strdup(refused->message);
	if (!reason && !ladder_command_check(command, workdir, d->dir, &refused))
		reason = g_strdup(refused->message);
	if (!reason) {
		reason = run_check(d, s, referee, command, workdir, error);
		if (!reason && error && *error)
			return FALSE;
	}
	if (!reason) {
		reason = run_validation(d, s, label, command, workdir, nth, error);
		if (!reason && error && *error)
			return FALSE;
	}
	if (sub->stop && *sub->stop) {
		g_free(reason);
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_STOPPED, "%s: stopped during its admission: not decided",
			    name);
		return FALSE;
	}
	if (reason) {
		if (strlen(reason) > REASON_MAX)
			memcpy(reason + REASON_MAX - 4, "...", 4);
		out->reason = g_utf8_make_valid(reason, -1);
		g_free(reason);
		return record_rejection(d, sub, out->reason, error);
	}
	return record_entry(d, sub, out, error);
}
