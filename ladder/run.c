/*
 * run: the ladder's game loop. See run.h.
 *
 * The calling thread schedules, starts games on a GThreadPool and records
 * their results as they come back on an async queue; workers only play.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ladder/events.h"
#include "ladder/hook.h"
#include "ladder/intake.h"
#include "ladder/match.h"
#include "ladder/rate.h"
#include "ladder/standings.h"
#include "ladder/verify.h"
#include "referee/game.h"
#include "tournaments/slurm.h"

#define GAMES_DIR "games"

typedef struct {
	gint64 id;
	guint64 seed;
	char *kind;
	int n;
	gint64 bot[VARIANT_MAX_PLAYERS];
	gboolean replay;		/* left unfinished by an earlier run */
	GPtrArray *bots;		/* the entries when it started (a reference:
					 * an intake may replace Ctx.bots meanwhile) */
	/* filled by the worker */
	GameResult res;
	gboolean played;
	GError *err;
	char *log;			/* relative to the ladder's directory */
} Job;

typedef struct {
	LadderDb *d;
	const LadderSettings *s;
	GPtrArray *bots;		/* LadderBot* */
	GHashTable *played;		/* entry id -> games scheduled (gint64 in a pointer) */
	GAsyncQueue *done;		/* Job* */
	const LadderRunOptions *o;
	LadderHook *hook;		/* --on-event, or NULL */
	gint64 told;			/* the last event handed to it */
	LadderRatings *fit;		/* matchmaking's ratings, over the */
	gint64 fit_below;		/* finished games with id < this */
} Ctx;

static void job_free(Job *j)
{
	if (!j)
		return;
	if (j->played)
		game_result_clear(&j->res);
	g_clear_error(&j->err);
	g_free(j->kind);
	g_free(j->log);
	if (j->bots)
		g_ptr_array_unref(j->bots);
	g_free(j);
}

/* ---- playing (worker threads) ---------------------------------------------- */

static gboolean sync_file(const char *path, GError **error)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fdatasync(fd) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return ladder_db_file_error(e, path, error);
	}
	close(fd);
	return TRUE;
}

/* Play job j in this process: its log in dir's games/, flushed. Sets
 * j->log, j->res and j->played, or j->err. */
static void play_here(const char *dir, const LadderSettings *s, const LadderRunOptions *o, Job *j)
{
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	GameSpec spec;

	j->log = g_strdup_printf(GAMES_DIR "/%06" G_GINT64_FORMAT ".log", j->id);
	g_autofree char *path = g_build_filename(dir, j->log, NULL);
	if (!ladder_game_spec(s, j->n, j->seed, &spec, &j->err))
		return;
	for (int p = 0; p < j->n; p++) {
		const LadderBot *b = ladder_bots_find(j->bots, j->bot[p]);
		BotSpec *bs = b ? ladder_bot_spec(b, dir, &j->err) : NULL;
		if (!bs) {
			if (!j->err)
				g_set_error(&j->err, LADDER_ERROR, LADDER_ERROR_NAME, "game %" G_GINT64_FORMAT
					    ": entry %" G_GINT64_FORMAT " is unknown", j->id, j->bot[p]);
			return;
		}
		g_ptr_array_add(specs, bs);
		spec.seats[p].spec = bs;
	}
	spec.log_path = path;
	spec.hide_dir = dir;
	if (o && o->watch) {
		const char *names[VARIANT_MAX_PLAYERS];
		for (int p = 0; p < j->n; p++)
			names[p] = ladder_bots_find(j->bots, j->bot[p])->name;
		spec.log_tap = o->watch(o->watch_data, (int)j->id, names, j->n, path, &spec.log_tap_data);
	}
	if (!game_run(&spec, &j->res, &j->err)) {
		if (strstr(j->err->message, g_strerror(ENOSPC)) || strstr(j->err->message, "No space")) {
			g_autofree char *msg = g_strdup(j->err->message);
			g_clear_error(&j->err);
			g_set_error(&j->err, LADDER_DB_ERROR, LADDER_DB_ERROR_FULL, "the disk is full (%s)", msg);
		}
		return;
	}
	j->played = TRUE;
	sync_file(path, &j->err);
}

/* A Slurm job's result file, beside its log: what record() reads of a
 * GameResult, a line each: "plies N", "end N", then per seat "seat RANK
 * SCORE MOVES FIRST_FAULT" and its GAME_FAULT_COUNT fault counts. */
static char *result_path(const char *dir, gint64 id)
{
	g_autofree char *name = g_strdup_printf("%06" G_GINT64_FORMAT ".result", id);
	return g_build_filename(dir, GAMES_DIR, name, NULL);
}

static gboolean write_result(const char *dir, const Job *j, GError **error)
{
	g_autofree char *path = result_path(dir, j->id);
	GString *t = g_string_new(NULL);

	g_string_append_printf(t, "plies %d\nend %d\n", j->res.plies, (int)j->res.end);
	for (int p = 0; p < j->res.nseats; p++) {
		const GameSeatResult *r = &j->res.seat[p];
		g_string_append_printf(t, "seat %d %d %d %d", r->rank, r->score, r->moves, r->first_fault);
		for (int k = 0; k < GAME_FAULT_COUNT; k++)
			g_string_append_printf(t, " %d", r->faults[k]);
		g_string_append_c(t, '\n');
	}
	gboolean ok = g_file_set_contents(path, t->str, (gssize)t->len, error);	/* (atomic: a rename) */
	g_string_free(t, TRUE);
	return ok && sync_file(path, error);
}

/* Read it into j->res; FALSE when it is missing or not whole. */
static gboolean read_result(const char *dir, Job *j)
{
	g_autofree char *path = result_path(dir, j->id);
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, NULL) || len > 65536)
		return FALSE;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GameResult r;
	int end = -1, seats = 0;
	memset(&r, 0, sizeof(r));
	r.plies = -1;
	for (int i = 0; lines[i]; i++) {
		g_auto(GStrv) w = g_strsplit(lines[i], " ", -1);
		guint n = g_strv_length(w);
		if (n == 2 && strcmp(w[0], "plies") == 0)
			r.plies = atoi(w[1]);
		else if (n == 2 && strcmp(w[0], "end") == 0)
			end = atoi(w[1]);
		else if (n == 5 + GAME_FAULT_COUNT && strcmp(w[0], "seat") == 0 && seats < VARIANT_MAX_PLAYERS) {
			GameSeatResult *s = &r.seat[seats++];
			s->rank = atoi(w[1]);
			s->score = atoi(w[2]);
			s->moves = atoi(w[3]);
			s->first_fault = atoi(w[4]);
			for (int k = 0; k < GAME_FAULT_COUNT; k++)
				s->faults[k] = atoi(w[5 + k]);
			if (s->first_fault < -1 || s->first_fault >= GAME_FAULT_COUNT)
				return FALSE;
		}
	}
	if (r.plies < 0 || end < 0 || end > GAME_END_ABORTED || seats != j->n)
		return FALSE;
	r.end = (GameEnd)end;
	r.nseats = seats;
	j->res = r;
	j->log = g_strdup_printf(GAMES_DIR "/%06" G_GINT64_FORMAT ".log", j->id);
	j->played = TRUE;
	return TRUE;
}

#define SLURM_TRIES 4

/* Play job j as a Slurm job (`referee ladder play-game DIR ID`), waiting
 * for it to leave the queue; one that ends without its result (a node
 * that died, a job cancelled) is submitted again, SLURM_TRIES times in
 * all. */
static void play_slurm(Ctx *c, Job *j)
{
	const char *dir = c->d->dir;
	g_autofree char *path = result_path(dir, j->id);
	g_autofree char *sdir = g_build_filename(dir, "slurm", NULL);
	g_autofree char *name = g_strdup_printf("tetrarena-ladder-%06" G_GINT64_FORMAT, j->id);
	g_autofree char *out = g_strdup_printf("%s/game-%06" G_GINT64_FORMAT "-%%j.out", sdir, j->id);
	g_autofree char *qref = g_shell_quote(c->o->referee ? c->o->referee : "referee");
	g_autofree char *qdir = g_shell_quote(dir);
	g_autofree char *wrap = g_strdup_printf("exec %s ladder play-game %s %" G_GINT64_FORMAT, qref, qdir, j->id);
	const char *args[] = {"--job-name", name, "--output", out, "--wrap", wrap, NULL};

	g_mkdir_with_parents(sdir, 0755);
	for (int attempt = 1; attempt <= SLURM_TRIES; attempt++) {
		g_autofree char *job = NULL;
		int failing = 0;

		g_unlink(path);
		if (!slurm_sbatch("ladder", c->o->slurm_opts, args, &job)) {
			g_set_error(&j->err, LADDER_ERROR, LADDER_ERROR_SETTINGS, "game %" G_GINT64_FORMAT
				    ": sbatch failed (above)", j->id);
			return;
		}
		while (slurm_queued(job, &failing)) {
			if (failing > 120) {
				g_set_error(&j->err, LADDER_ERROR, LADDER_ERROR_SETTINGS, "game %" G_GINT64_FORMAT
					    ": squeue has failed for a minute", j->id);
				return;
			}
			g_usleep(500000);
		}
		g_autofree char *bad = NULL;
		if (read_result(dir, j)) {
			char *label[VARIANT_MAX_PLAYERS];
			int rank[VARIANT_MAX_PLAYERS], score[VARIANT_MAX_PLAYERS];
			for (int p = 0; p < j->n; p++) {
				const LadderBot *b = ladder_bots_find(j->bots, j->bot[p]);
				label[p] = b ? ladder_bot_label(b) : g_strdup("?");
				rank[p] = j->res.seat[p].rank;
				score[p] = j->res.seat[p].score;
			}
			bad = ladder_verify_game(dir, j->log, j->seed, j->n, label, rank, score);
			for (int p = 0; p < j->n; p++)
				g_free(label[p]);
			if (!bad)
				return;
			j->played = FALSE;
			g_clear_pointer(&j->log, g_free);
		}
		fprintf(stderr, "ladder: game %" G_GINT64_FORMAT ": Slurm job %s ended without its result (%s: "
			"%s/game-%06" G_GINT64_FORMAT "-%s.out); %s\n", j->id, job,
			bad ? bad : "a node lost, a job cancelled", sdir, j->id, job,
			attempt < SLURM_TRIES ? "played again" : "given up");
	}
	g_set_error(&j->err, LADDER_ERROR, LADDER_ERROR_SETTINGS, "game %" G_GINT64_FORMAT
		    ": %d Slurm jobs ended without its result", j->id, SLURM_TRIES);
}

static void play(gpointer data, gpointer user)
{
	Job *j = data;
	Ctx *c = user;

	if (c->o->slurm > 0)
		play_slurm(c, j);
	else
		play_here(c->d->dir, c->s, c->o, j);
	g_async_queue_push(c->done, j);
}

gboolean ladder_play_game(LadderDb *d, const LadderSettings *s, gint64 id, GError **error)
{
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	if (!bots)
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT g.seed, s.bot FROM games g JOIN seats s ON s.game = g.id "
					     "WHERE g.id = ? ORDER BY s.seat", error);
	if (!st)
		return FALSE;
	Job *j = g_new0(Job, 1);
	j->id = id;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW && j->n < VARIANT_MAX_PLAYERS) {
		j->seed = (guint64)sqlite3_column_int64(st, 0);
		j->bot[j->n++] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (j->n == 0) {
		job_free(j);
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME, "no game %" G_GINT64_FORMAT, id);
		return FALSE;
	}
	j->bots = g_ptr_array_ref(bots);
	play_here(d->dir, s, NULL, j);
	gboolean ok = !j->err && j->played && write_result(d->dir, j, error);
	if (j->err)
		g_propagate_error(error, g_steal_pointer(&j->err));
	job_free(j);
	return ok;
}

/* ---- the database side (the calling thread) ------------------------------- */

static gint64 played_of(Ctx *c, gint64 id)
{
	return GPOINTER_TO_SIZE(g_hash_table_lookup(c->played, &id));
}

static void add_played(Ctx *c, gint64 id)
{
	gint64 *key = g_new(gint64, 1);

	*key = id;
	g_hash_table_replace(c->played, key, GSIZE_TO_POINTER(played_of(c, id) + 1));
}

static gboolean load_played(Ctx *c, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(c->d, "SELECT bot, COUNT(*) FROM seats GROUP BY bot", error);

	if (!st)
		return FALSE;
	while (sqlite3_step(st) == SQLITE_ROW) {
		gint64 *key = g_new(gint64, 1);
		*key = sqlite3_column_int64(st, 0);
		g_hash_table_replace(c->played, key, GSIZE_TO_POINTER(sqlite3_column_int64(st, 1)));
	}
	sqlite3_finalize(st);
	return TRUE;
}

/* The games an earlier run left without a result, in id order. */
static GPtrArray *load_pending(Ctx *c, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)job_free);
	sqlite3_stmt *st = ladder_db_prepare(c->d, "SELECT g.id, g.seed, g.kind, s.seat, s.bot FROM games g "
					     "JOIN seats s ON s.game = g.id WHERE g.finished IS NULL "
					     "ORDER BY g.id, s.seat", error);
	Job *j = NULL;

	if (!st)
		return NULL;
	while (sqlite3_step(st) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(st, 0);
		if (!j || j->id != id) {
			j = g_new0(Job, 1);
			j->id = id;
			j->seed = (guint64)sqlite3_column_int64(st, 1);
			j->kind = g_strdup((const char *)sqlite3_column_text(st, 2));
			j->replay = TRUE;
			g_ptr_array_add(out, j);
		}
		if (j->n < VARIANT_MAX_PLAYERS)
			j->bot[j->n++] = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	return g_steal_pointer(&out);
}

static gint64 scalar(LadderDb *d, const char *sql)
{
	sqlite3_stmt *st = NULL;
	gint64 v = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Draw game `id`'s table and commit its row. OUT: *out, NULL when too few
 * entries are active. */
static gboolean schedule(Ctx *c, gint64 id, Job **out, GError **error)
{
	LadderMatchEntry e[LADDER_MATCH_MAX];
	int n = 0;
	LadderTable t;

	*out = NULL;
	gint64 below = ladder_match_below(id);
	if (!c->fit || c->fit_below != below) {
		g_clear_pointer(&c->fit, ladder_ratings_free);
		if (!(c->fit = ladder_ratings_compute(c->d, below, 0, 0, error)))
			return FALSE;
		c->fit_below = below;
	}
	const LadderRatings *lr = c->fit;
	for (guint i = 0; i < c->bots->len && n < LADDER_MATCH_MAX; i++) {
		const LadderBot *b = g_ptr_array_index(c->bots, i);
		if (b->status != LADDER_BOT_ACTIVE)
			continue;
		int k = ladder_ratings_index(lr, b->id);
		e[n].id = b->id;
		e[n].played = played_of(c, b->id);
		e[n].elo = k >= 0 ? lr->r->elo[k] : 0;
		n++;
	}
	if (!ladder_match(e, n, c->s->min_players, c->s->max_players, c->s->seed, id, &t))
		return TRUE;
	g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func((GDestroyNotify)job_free);
	Job *j = g_new0(Job, 1);
	g_ptr_array_add(keep, j);
	j->id = id;
	j->seed = ladder_game_seed(c->s->seed, id);
	j->kind = g_strdup(t.kind);
	j->n = t.n;
	for (int p = 0; p < t.n; p++)
		j->bot[p] = e[t.entry[p]].id;
	g_autofree char *now = ladder_db_now();
	if (!ladder_db_begin(c->d, error))
		return FALSE;
	sqlite3_stmt *g = ladder_db_prepare(c->d, "INSERT INTO games (id, seed, kind, scheduled) VALUES (?, ?, ?, ?)",
					    error);
	sqlite3_stmt *s = g ? ladder_db_prepare(c->d, "INSERT INTO seats (game, seat, bot) VALUES (?, ?, ?)", error)
			    : NULL;
	gboolean ok = g && s;
	if (ok) {
		sqlite3_bind_int64(g, 1, id);
		sqlite3_bind_int64(g, 2, (gint64)j->seed);
		sqlite3_bind_text(g, 3, j->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(g, 4, now, -1, SQLITE_STATIC);
		ok = ladder_db_step_done(c->d, g, error);
		for (int p = 0; ok && p < j->n; p++) {
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_int(s, 2, p);
			sqlite3_bind_int64(s, 3, j->bot[p]);
			ok = ladder_db_step_done(c->d, s, error);
		}
	}
	sqlite3_finalize(g);
	sqlite3_finalize(s);
	if (!ok) {
		ladder_db_rollback(c->d);
		return FALSE;
	}
	if (!ladder_db_commit(c->d, error))
		return FALSE;
	for (int p = 0; p < j->n; p++)
		add_played(c, j->bot[p]);
	*out = g_ptr_array_steal_index(keep, 0);
	return TRUE;
}

static void faults_text(const GameSeatResult *r, char *buf, size_t size)
{
	GString *s = g_string_new(NULL);

	for (int f = 0; f < GAME_FAULT_COUNT; f++)
		if (r->faults[f])
			g_string_append_printf(s, "%s%s:%d", s->len ? "+" : "", game_fault_name(f), r->faults[f]);
	g_strlcpy(buf, s->len ? s->str : "-", size);
	g_string_free(s, TRUE);
}

/* Inside record()'s transaction: each seat's run of faulted games grows
 * by one, or goes back to 0; an active entry whose run reaches the
 * setting is suspended, with its event. OUT: *suspended, TRUE when one
 * was. */
static gboolean fault_runs(Ctx *c, const Job *j, gboolean *suspended, GError **error)
{
	sqlite3_stmt *up = ladder_db_prepare(c->d, "UPDATE bots SET fault_run = CASE WHEN ? THEN fault_run + 1 ELSE 0 END "
					     "WHERE id = ? RETURNING fault_run, status = 'active' AND suspended IS NULL, "
					     "name, author", error);
	sqlite3_stmt *sus = up ? ladder_db_prepare(c->d, "UPDATE bots SET suspended = ?, suspended_why = ? WHERE id = ?",
						   error) : NULL;
	gboolean ok = up && sus;
	g_autofree char *now = ladder_db_now();

	for (int p = 0; ok && p < j->res.nseats; p++) {
		int fault = j->res.seat[p].first_fault;
		sqlite3_bind_int(up, 1, fault >= 0);
		sqlite3_bind_int64(up, 2, j->bot[p]);
		int rc = sqlite3_step(up);
		if (rc != SQLITE_ROW) {
			ok = ladder_db_fail(c->d, rc, "counting faulted games", error);
			break;
		}
		int run = sqlite3_column_int(up, 0);
		gboolean active = sqlite3_column_int(up, 1);
		g_autofree char *name = g_strdup((const char *)sqlite3_column_text(up, 2));
		const unsigned char *author_text = sqlite3_column_text(up, 3);
		g_autofree char *author = author_text ? g_strdup((const char *)author_text) : NULL;
		ok = ladder_db_step_done(c->d, up, error);
		if (!ok || fault < 0 || !active || c->s->suspend_after <= 0 || run < c->s->suspend_after)
			continue;
		g_autofree char *why = g_strdup_printf("suspended after %d faulted games in a row (the last: game %"
						       G_GINT64_FORMAT ", %s); a new version, or `ladder resume`, "
						       "lifts it", run, j->id, game_fault_name(fault));
		sqlite3_bind_text(sus, 1, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(sus, 2, why, -1, SQLITE_STATIC);
		sqlite3_bind_int64(sus, 3, j->bot[p]);
		ok = ladder_db_step_done(c->d, sus, error) &&
		     ladder_event_add(c->d, "suspended", author, name, j->bot[p], j->id, why, error);
		*suspended = *suspended || ok;
		if (ok)	/* (said even with -q: it is no line per game) */
			fprintf(stderr, "ladder: %s (entry %" G_GINT64_FORMAT ") %s\n", name, j->bot[p], why);
	}
	sqlite3_finalize(up);
	sqlite3_finalize(sus);
	return ok;
}

/* Inside record()'s transaction: an entry whose first rating point this
 * game made (rate.h's history) is ranked, with its event. */
static gboolean ranked(Ctx *c, const Job *j, GError **error)
{
	sqlite3_stmt *st = ladder_db_prepare(c->d, "SELECT h.bot, h.games, h.elo, h.lo, h.hi, b.name, b.version, b.author "
					     "FROM history h JOIN bots b ON b.id = h.bot WHERE h.game = ? AND NOT EXISTS "
					     "(SELECT 1 FROM history o WHERE o.bot = h.bot AND o.games < h.games)", error);
	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, j->id);
	typedef struct {
		gint64 bot;
		char *name, *author, *text;
	} Ranked;
	g_autoptr(GArray) found = g_array_new(FALSE, TRUE, sizeof(Ranked));
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *author = sqlite3_column_text(st, 7);
		Ranked r = {(gint64)sqlite3_column_int64(st, 0), g_strdup((const char *)sqlite3_column_text(st, 5)),
			    author ? g_strdup((const char *)author) : NULL,
			    g_strdup_printf("version %d rated %+.0f [%+.0f, %+.0f] after %d games",
					    sqlite3_column_int(st, 6), sqlite3_column_double(st, 2),
					    sqlite3_column_double(st, 3), sqlite3_column_double(st, 4),
					    sqlite3_column_int(st, 1))};
		g_array_append_val(found, r);
	}
	sqlite3_finalize(st);
	gboolean ok = rc == SQLITE_DONE || ladder_db_fail(c->d, rc, "reading the ratings", error);
	for (guint i = 0; i < found->len; i++) {
		Ranked *r = &g_array_index(found, Ranked, i);
		ok = ok && ladder_event_add(c->d, "ranked", r->author, r->name, r->bot, j->id, r->text, error);
		g_free(r->name);
		g_free(r->author);
		g_free(r->text);
	}
	return ok;
}

/* Hand the events recorded since the last call to the hook. */
static void tell(Ctx *c)
{
	if (!c->hook)
		return;
	g_autoptr(GPtrArray) ev = ladder_events_list(c->d, c->told, NULL, 1000, FALSE, NULL);
	for (guint i = 0; ev && i < ev->len; i++) {
		const LadderEvent *e = g_ptr_array_index(ev, i);
		ladder_hook_send(c->hook, e);
		c->told = e->id;
	}
	ladder_hook_poll(c->hook);
}

/* Commit a played game's result. OUT: *recorded, FALSE when it already had
 * one (nothing written); *suspended, TRUE when an entry was suspended by
 * it. */
static gboolean record(Ctx *c, Job *j, gboolean *recorded, gboolean *suspended, GError **error)
{
	g_autofree char *now = ladder_db_now();

	*recorded = FALSE;
	if (!ladder_db_begin(c->d, error))
		return FALSE;
	sqlite3_stmt *g = ladder_db_prepare(c->d, "UPDATE games SET finished = ?, log = ?, reason = ?, plies = ? "
					    "WHERE id = ? AND finished IS NULL", error);
	sqlite3_stmt *s = g ? ladder_db_prepare(c->d, "UPDATE seats SET rank = ?, score = ?, faults = ?, moves = ? "
						"WHERE game = ? AND seat = ?", error)
			    : NULL;
	gboolean ok = g && s;
	if (ok) {
		sqlite3_bind_text(g, 1, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(g, 2, j->log, -1, SQLITE_STATIC);
		sqlite3_bind_text(g, 3, game_end_name(j->res.end), -1, SQLITE_STATIC);
		sqlite3_bind_int(g, 4, j->res.plies);
		sqlite3_bind_int64(g, 5, j->id);
		ok = ladder_db_step_done(c->d, g, error);
		*recorded = ok && sqlite3_changes(c->d->db) == 1;
		for (int p = 0; ok && *recorded && p < j->res.nseats; p++) {
			char faults[128];
			faults_text(&j->res.seat[p], faults, sizeof(faults));
			sqlite3_bind_int(s, 1, j->res.seat[p].rank);
			sqlite3_bind_int(s, 2, j->res.seat[p].score);
			sqlite3_bind_text(s, 3, faults, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(s, 4, j->res.seat[p].moves);
			sqlite3_bind_int64(s, 5, j->id);
			sqlite3_bind_int(s, 6, p);
			ok = ladder_db_step_done(c->d, s, error);
		}
	}
	sqlite3_finalize(g);
	sqlite3_finalize(s);
	if (ok && *recorded)
		ok = ladder_ratings_history(c->d, j->id, error) && fault_runs(c, j, suspended, error) &&
		     ranked(c, j, error);
	if (!ok) {
		*recorded = FALSE;
		ladder_db_rollback(c->d);
		return FALSE;
	}
	if (!*recorded) {
		ladder_db_rollback(c->d);
		return TRUE;
	}
	if (!ladder_db_commit(c->d, error)) {
		*recorded = FALSE;
		return FALSE;
	}
	return TRUE;
}

static void say_game(Ctx *c, const Job *j)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "ladder: game %" G_GINT64_FORMAT " (%s%s):", j->id, j->kind,
			       j->replay ? ", replayed" : "");
	for (int p = 0; p < j->res.nseats; p++) {
		const LadderBot *b = ladder_bots_find(c->bots, j->bot[p]);
		g_autofree char *label = b ? ladder_bot_label(b) : g_strdup("?");
		g_string_append_printf(s, " %s#%d", label, j->res.seat[p].rank);
	}
	fprintf(stderr, "%s\n", s->str);
	g_string_free(s, TRUE);
}

static gint64 min_id(GHashTable *ids)
{
	gint64 m = G_MAXINT64;
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, ids);
	while (g_hash_table_iter_next(&it, &k, NULL))
		m = MIN(m, *(gint64 *)k);
	return m;
}

/* Load the entries again (*bots and c->bots). FALSE with *first. */
static gboolean reload(Ctx *c, GPtrArray **bots, GError **first)
{
	GPtrArray *fresh = ladder_bots_load(c->d, first);

	if (!fresh)
		return FALSE;
	g_ptr_array_unref(*bots);
	c->bots = *bots = fresh;
	return TRUE;
}

/* Decide the waiting requests (ladder_intake) and reload the entries when
 * one was admitted or retired (*bots and c->bots). FALSE when the run
 * stops: an error in *first, or a stop asked meanwhile. */
static gboolean intake(Ctx *c, GPtrArray **bots, gint64 next_id, GError **first)
{
	const LadderRunOptions *o = c->o;
	gboolean changed = FALSE;

	if (o->referee && !ladder_intake(c->d, c->s, o->referee, next_id, o->quiet, o->stop, &changed, first))
		return FALSE;
	if (o->stop && *o->stop)
		return FALSE;	/* asked during an admission */
	tell(c);
	return !changed || reload(c, bots, first);
}

gboolean ladder_run(LadderDb *d, const LadderSettings *s, const LadderRunOptions *o, LadderRunStats *stats,
		    GError **error)
{
	Ctx c = {d, s, NULL, NULL, NULL, o, NULL, ladder_events_last(d), NULL, 0};
	g_autoptr(GError) first = NULL;
	g_autofree char *games_dir = g_build_filename(d->dir, GAMES_DIR, NULL);
	gboolean starved = FALSE;

	memset(stats, 0, sizeof(*stats));
	if (g_mkdir_with_parents(games_dir, 0755) != 0)
		return ladder_db_file_error(errno, games_dir, error);
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	if (!bots)
		return FALSE;
	c.bots = bots;
	g_autoptr(GHashTable) played = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	c.played = played;
	if (!load_played(&c, error))
		return FALSE;
	g_autoptr(GPtrArray) pending = load_pending(&c, error);
	if (!pending)
		return FALSE;
	gint64 next_id = scalar(d, "SELECT COALESCE(MAX(id) + 1, 0) FROM games");
	gint64 finished_total = scalar(d, "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL");
	/* (a run killed before its last refresh left the cache behind) */
	if (!ladder_standings_refresh(d, 0, error))
		return FALSE;
	g_autoptr(GAsyncQueue) done = g_async_queue_new();
	c.done = done;
	GThreadPool *pool = g_thread_pool_new(play, &c, MAX(o->jobs, 1), FALSE, error);
	if (!pool)
		return FALSE;
	g_autoptr(GHashTable) inflight = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	guint next_pending = 0;
	if (o->on_event)
		c.hook = ladder_hook_new(o->on_event, LADDER_HOOK_DEADLINE_MS);

	/* Requests queued before this run are decided before it replays what
	 * an earlier run left unfinished (replays play the entries they were
	 * scheduled with), not only before its first new game: a run whose
	 * --games the replays fill decides them too. A stop or an error here
	 * stops the loop below before its first game. */
	if (pending->len > 0)
		(void)intake(&c, &bots, next_id, &first);
	for (;;) {
		gboolean stop = first || (o->stop && *o->stop) || (o->until && g_get_real_time() >= o->until) || starved;
		while (!stop && (int)g_hash_table_size(inflight) < MAX(o->jobs, 1)) {
			gint64 busy = g_hash_table_size(inflight);
			if (o->games && stats->finished + busy >= o->games)
				break;
			if (o->total && finished_total + busy >= o->total)
				break;
			Job *j = NULL;
			if (next_pending < pending->len) {
				j = g_ptr_array_index(pending, next_pending);
				g_ptr_array_index(pending, next_pending) = NULL;
				next_pending++;
			} else {
				if (min_id(inflight) < next_id - LADDER_MATCH_LAG)
					break;	/* its ratings need those games */
				if (!intake(&c, &bots, next_id, &first))
					break;
				if (!schedule(&c, next_id, &j, &first))
					break;
				if (!j) {
					starved = TRUE;
					break;
				}
				next_id++;
			}
			gint64 *key = g_new(gint64, 1);
			*key = j->id;
			g_hash_table_add(inflight, key);
			j->bots = g_ptr_array_ref(c.bots);
			g_thread_pool_push(pool, j, NULL);
		}
		if (g_hash_table_size(inflight) == 0)
			break;
		Job *j = g_async_queue_timeout_pop(done, 200000);
		if (!j)
			continue;
		g_hash_table_remove(inflight, &j->id);
		if (j->err && !first)
			first = g_steal_pointer(&j->err);
		if (j->played && !j->err && !first) {
			gboolean recorded = FALSE, suspended = FALSE;
			if (record(&c, j, &recorded, &suspended, &first) && recorded) {
				stats->finished++;
				finished_total++;
				if (j->replay)
					stats->replayed++;
				if (!o->quiet)
					say_game(&c, j);
				if (!first)
					ladder_standings_refresh(d, finished_total / 50, &first);
			}
			if (suspended && !reload(&c, &bots, &first))
				suspended = FALSE;
		}
		job_free(j);
		tell(&c);
	}
	g_thread_pool_free(pool, FALSE, TRUE);
	tell(&c);
	g_clear_pointer(&c.hook, ladder_hook_free);
	g_clear_pointer(&c.fit, ladder_ratings_free);
	if (!first)
		ladder_standings_refresh(d, 0, &first);
	if (first) {
		g_propagate_error(error, g_steal_pointer(&first));
		return FALSE;
	}
	if (starved && !(o->stop && *o->stop)) {
		gint64 active = 0;
		for (guint i = 0; i < bots->len; i++)
			active += ((LadderBot *)g_ptr_array_index(bots, i))->status == LADDER_BOT_ACTIVE;
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_NAME,
			    "%" G_GINT64_FORMAT " active entries (suspended ones are not scheduled), and a game needs %d: "
			    "add bots first", active, s->min_players);
		return FALSE;
	}
	return TRUE;
}
