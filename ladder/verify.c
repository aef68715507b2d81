/*
 * verify: logs against rules and database. See verify.h.
 */
#include "verify.h"

#include <string.h>

#include "ladder/ladder.h"
#include "referee/gamelog.h"
#include "referee/protocol.h"
#include "referee/replay.h"

void ladder_verify_clear(LadderVerify *v)
{
	g_clear_pointer(&v->problems, g_ptr_array_unref);
}

typedef struct {
	gint64 id;
	guint64 seed;
	char *log;
	int n;
	char *label[VARIANT_MAX_PLAYERS];
	int rank[VARIANT_MAX_PLAYERS];
	int score[VARIANT_MAX_PLAYERS];
	gboolean unranked;
} Game;

static void game_free(Game *g)
{
	g_free(g->log);
	for (int p = 0; p < g->n; p++)
		g_free(g->label[p]);
	g_free(g);
}

static char *check_game(const char *dir, const Game *g)
{
	g_autofree char *path = g_build_filename(dir, g->log, NULL);
	g_autoptr(GError) err = NULL;

	if (g->unranked)
		return g_strdup("finished, but a seat has no rank");
	g_autoptr(GameLog) log = gamelog_read(path, &err);
	if (!log)
		return g_strdup(err->message);
	if (!replay_verify(log, &err))
		return g_strdup(err->message);
	if (log->seed != g->seed)
		return g_strdup_printf("%s: seed %" G_GUINT64_FORMAT ", the database says %" G_GUINT64_FORMAT,
				       g->log, log->seed, g->seed);
	if (log->config.nplayers != g->n)
		return g_strdup_printf("%s: %d seats, the database says %d", g->log, log->config.nplayers, g->n);
	for (int p = 0; p < g->n; p++)
		if (g_strcmp0(log->name[p], g->label[p]) != 0)
			return g_strdup_printf("%s: seat %d is %s, the database says %s", g->log, p, log->name[p],
					       g->label[p]);
	const GameLogEvent *res = NULL;
	for (guint i = 0; i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (e->kind == GAMELOG_RESULT)
			res = e;
	}
	ProtocolResult r;
	g_autofree char *why = NULL;
	if (!res || !protocol_parse_result(res->text, g->n, &r, &why))
		return g_strdup_printf("%s: no result line for %d seats", g->log, g->n);
	char *problem = NULL;
	for (int p = 0; p < g->n && !problem; p++)
		if (r.ranks[p] != g->rank[p] || r.scores[p] != g->score[p])
			problem = g_strdup_printf("%s: seat %d rank %d score %d, the database says rank %d score %d",
						  g->log, p, r.ranks[p], r.scores[p], g->rank[p], g->score[p]);
	protocol_result_clear(&r);
	return problem;
}

char *ladder_verify_game(const char *dir, const char *log, guint64 seed, int n, char *const *label,
			 const int *rank, const int *score)
{
	Game g;

	memset(&g, 0, sizeof(g));
	g.seed = seed;
	g.log = (char *)log;
	g.n = MIN(n, VARIANT_MAX_PLAYERS);
	for (int p = 0; p < g.n; p++) {
		g.label[p] = label[p];
		g.rank[p] = rank[p];
		g.score[p] = score[p];
	}
	return check_game(dir, &g);
}

gboolean ladder_verify(LadderDb *d, LadderVerify *v, GError **error)
{
	memset(v, 0, sizeof(*v));
	v->problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, error);
	if (!bots)
		return FALSE;
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT g.id, g.seed, g.log, g.finished, s.seat, s.bot, s.rank, s.score "
					     "FROM games g JOIN seats s ON s.game = g.id ORDER BY g.id, s.seat", error);
	if (!st)
		return FALSE;
	g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func((GDestroyNotify)game_free);
	Game *g = NULL;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 3) == SQLITE_NULL) {
			if (!g || g->id != id) {
				v->unfinished++;
				g = g_new0(Game, 1);
				g->id = id;
				g_ptr_array_add(games, g);
				g->log = NULL;
			}
			continue;
		}
		if (!g || g->id != id) {
			g = g_new0(Game, 1);
			g->id = id;
			g->seed = (guint64)sqlite3_column_int64(st, 1);
			const char *log = (const char *)sqlite3_column_text(st, 2);
			g->log = g_strdup(log ? log : "(no log)");
			g_ptr_array_add(games, g);
		}
		if (g->n >= VARIANT_MAX_PLAYERS)
			continue;
		const LadderBot *b = ladder_bots_find(bots, sqlite3_column_int64(st, 5));
		g->label[g->n] = b ? ladder_bot_label(b) : g_strdup("?");
		g->unranked |= sqlite3_column_type(st, 6) == SQLITE_NULL;
		g->rank[g->n] = sqlite3_column_int(st, 6);
		g->score[g->n] = sqlite3_column_int(st, 7);
		g->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ladder_db_fail(d, rc, "reading the games", error);
	/* the database's own pages and indexes */
	st = ladder_db_prepare(d, "PRAGMA integrity_check", error);
	if (!st)
		return FALSE;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		if (g_strcmp0(r, "ok") != 0)
			g_ptr_array_add(v->problems, g_strdup_printf("integrity_check: %s", r ? r : "?"));
		else
			v->integrity_ok = TRUE;
	}
	sqlite3_finalize(st);
	for (guint i = 0; i < games->len; i++) {
		const Game *x = g_ptr_array_index(games, i);
		if (!x->log)
			continue;
		char *why = check_game(d->dir, x);
		if (why)
			g_ptr_array_add(v->problems, g_strdup_printf("game %" G_GINT64_FORMAT ": %s", x->id, why));
		else
			v->verified++;
		g_free(why);
	}
	return TRUE;
}
