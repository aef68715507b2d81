/*
 * rate: standings and rating history from the database. See rate.h.
 */
#include "rate.h"

#include <string.h>

#include "engine/variant.h"

void ladder_ratings_free(LadderRatings *lr)
{
	if (!lr)
		return;
	g_free(lr->id);
	g_free(lr->games);
	if (lr->last)
		for (int i = 0; i < lr->nbots; i++)
			g_free(lr->last[i]);
	g_free(lr->last);
	ratings_free(lr->r);
	g_free(lr);
}

int ladder_ratings_index(const LadderRatings *lr, gint64 id)
{
	for (int i = 0; i < lr->nbots; i++)
		if (lr->id[i] == id)
			return i;
	return -1;
}

/*
 * The fit over the entries that played (lr->games[i] > 0) alone, spread
 * back over every entry. An entry with no game carries only the prior,
 * so in the fit it would sit at the phantom's strength with the prior's
 * wide spread, and the ratings, centred on the mean of all the entries,
 * would take that spread in: five such entries widened an 18-0 pair's
 * intervals from [+90, +475] to [-128, +693] with no game played. Left
 * out, they change nothing; they are shown at 0 (the played entries'
 * mean) with no interval (lo = hi = 0) and even odds against everyone.
 * The games' indices are rewritten in place.
 */
static Ratings *fit_played(const LadderRatings *lr, RatingsGame *games, int ngames, int bootstrap, guint64 seed)
{
	int n = MAX(lr->nbots, 1);
	g_autofree int *packed = g_new(int, n), *full = g_new(int, n);
	int np = 0;

	for (int i = 0; i < lr->nbots; i++) {
		packed[i] = lr->games[i] > 0 ? np : -1;
		if (lr->games[i] > 0)
			full[np++] = i;
	}
	for (int g = 0; g < ngames; g++)
		for (int k = 0; k < games[g].n; k++)
			games[g].bot[k] = packed[games[g].bot[k]];
	g_autoptr(Ratings) fit = ratings_fit(MAX(np, 1), games, ngames, bootstrap, seed);
	Ratings *r = g_new0(Ratings, 1);
	r->nbots = n;
	r->elo = g_new0(double, n);
	r->lo = g_new0(double, n);
	r->hi = g_new0(double, n);
	r->los = g_new0(double, (size_t)n * n);
	r->games = fit->games;
	for (int i = 0; i < n * n; i++)
		r->los[i] = i % (n + 1) ? 0.5 : 0.0;
	for (int a = 0; a < np; a++) {
		int i = full[a];
		r->elo[i] = fit->elo[a];
		r->lo[i] = fit->lo[a];
		r->hi[i] = fit->hi[a];
		for (int b = 0; b < np; b++)
			r->los[(size_t)i * n + full[b]] = fit->los[(size_t)a * np + b];
	}
	return r;
}

LadderRatings *ladder_ratings_compute(LadderDb *d, gint64 below, int bootstrap, guint64 seed,
				      GError **error)
{
	g_autoptr(LadderRatings) lr = g_new0(LadderRatings, 1);
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT id FROM bots ORDER BY id", error);
	int rc;

	if (!st)
		return NULL;
	g_autoptr(GArray) ids = g_array_new(FALSE, FALSE, sizeof(gint64));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(st, 0);
		g_array_append_val(ids, id);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ladder_db_fail(d, rc, "reading the entries", error), NULL;
	lr->nbots = MIN((int)ids->len, RATINGS_MAX_BOTS);
	lr->id = g_memdup2(ids->data, sizeof(gint64) * MAX(lr->nbots, 1));
	lr->games = g_new0(int, MAX(lr->nbots, 1));
	lr->last = g_new0(char *, MAX(lr->nbots, 1));
	st = ladder_db_prepare(d, "SELECT s.game, s.bot, s.rank, g.finished FROM seats s JOIN games g ON g.id = s.game "
			       "WHERE g.finished IS NOT NULL AND s.game < ? ORDER BY s.game, s.seat", error);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, below);
	g_autoptr(GArray) games = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	gint64 cur = -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 game = sqlite3_column_int64(st, 0);
		int i = ladder_ratings_index(lr, sqlite3_column_int64(st, 1));
		if (game != cur) {
			RatingsGame g;
			memset(&g, 0, sizeof(g));
			g_array_append_val(games, g);
			cur = game;
		}
		RatingsGame *g = &g_array_index(games, RatingsGame, games->len - 1);
		if (i < 0 || g->n >= VARIANT_MAX_PLAYERS)
			continue;
		g->bot[g->n] = i;
		g->rank[g->n] = sqlite3_column_int(st, 2);
		g->n++;
		lr->games[i]++;
		const char *when = (const char *)sqlite3_column_text(st, 3);
		if (when && (!lr->last[i] || strcmp(when, lr->last[i]) > 0)) {
			g_free(lr->last[i]);
			lr->last[i] = g_strdup(when);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ladder_db_fail(d, rc, "reading the games", error), NULL;
	lr->r = fit_played(lr, (RatingsGame *)games->data, (int)games->len, bootstrap, seed);
	return g_steal_pointer(&lr);
}

gboolean ladder_ratings_history(LadderDb *d, gint64 game, GError **error)
{
	g_autofree char *every_text = ladder_db_meta(d, "history_every");
	gint64 every = 10;
	g_autoptr(LadderRatings) lr = NULL;

	if (every_text && !g_ascii_string_to_signed(every_text, 10, 1, 1000000, &every, NULL))
		every = 10;
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT bot FROM seats WHERE game = ?", error);
	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, game);
	g_autoptr(GArray) bots = g_array_new(FALSE, FALSE, sizeof(gint64));
	while (sqlite3_step(st) == SQLITE_ROW) {
		gint64 b = sqlite3_column_int64(st, 0);
		g_array_append_val(bots, b);
	}
	sqlite3_finalize(st);
	sqlite3_stmt *ins = ladder_db_prepare(d, "INSERT OR IGNORE INTO history (bot, games, game, elo, lo, hi) "
					      "VALUES (?, ?, ?, ?, ?, ?)", error);
	if (!ins)
		return FALSE;
	gboolean ok = TRUE;
	for (guint k = 0; ok && k < bots->len; k++) {
		gint64 b = g_array_index(bots, gint64, k);
		if (!lr) {
			/* only when some entry reached a multiple of K */
			sqlite3_stmt *c = ladder_db_prepare(d, "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game "
							    "WHERE s.bot = ? AND g.finished IS NOT NULL", error);
			if (!c) {
				ok = FALSE;
				break;
			}
			sqlite3_bind_int64(c, 1, b);
			gint64 n = sqlite3_step(c) == SQLITE_ROW ? sqlite3_column_int64(c, 0) : 0;
			sqlite3_finalize(c);
			if (n == 0 || n % every != 0)
				continue;
			lr = ladder_ratings_compute(d, G_MAXINT64, 0, 0, error);
			if (!lr) {
				ok = FALSE;
				break;
			}
		}
		int i = ladder_ratings_index(lr, b);
		if (i < 0 || lr->games[i] == 0 || lr->games[i] % every != 0)
			continue;
		sqlite3_bind_int64(ins, 1, b);
		sqlite3_bind_int64(ins, 2, lr->games[i]);
		sqlite3_bind_int64(ins, 3, game);
		sqlite3_bind_double(ins, 4, lr->r->elo[i]);
		sqlite3_bind_double(ins, 5, lr->r->lo[i]);
		sqlite3_bind_double(ins, 6, lr->r->hi[i]);
		ok = ladder_db_step_done(d, ins, error);
	}
	sqlite3_finalize(ins);
	return ok;
}

gint64 ladder_finished_games(LadderDb *d)
{
	sqlite3_stmt *st = NULL;
	gint64 n = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT COUNT(*) FROM games WHERE finished IS NOT NULL", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

char *ladder_games_key(LadderDb *d)
{
	sqlite3_stmt *st = NULL;
	char *key = NULL;

	if (sqlite3_prepare_v2(d->db, "SELECT COALESCE(MAX(id), -1), (SELECT COUNT(*) FROM games WHERE finished IS NULL) "
			       "FROM games", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		key = g_strdup_printf("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, (gint64)sqlite3_column_int64(st, 0),
				      (gint64)sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return key ? key : g_strdup("");
}

gboolean ladder_ratings_store(LadderDb *d, const LadderRatings *lr, gint64 finished, GError **error)
{
	char text[32];

	if (!ladder_db_begin(d, error))
		return FALSE;
	sqlite3_stmt *ins = NULL;
	gboolean ok = ladder_db_exec(d, "DELETE FROM ratings", error) &&
		      (ins = ladder_db_prepare(d, "INSERT INTO ratings (bot, elo, lo, hi, games, last) "
						  "VALUES (?, ?, ?, ?, ?, ?)", error)) != NULL;
	for (int i = 0; ok && i < lr->nbots; i++) {
		if (lr->games[i] == 0)
			continue;
		sqlite3_bind_int64(ins, 1, lr->id[i]);
		sqlite3_bind_double(ins, 2, lr->r->elo[i]);
		sqlite3_bind_double(ins, 3, lr->r->lo[i]);
		sqlite3_bind_double(ins, 4, lr->r->hi[i]);
		sqlite3_bind_int(ins, 5, lr->games[i]);
		sqlite3_bind_text(ins, 6, lr->last[i], -1, SQLITE_STATIC);
		ok = ladder_db_step_done(d, ins, error);
	}
	sqlite3_finalize(ins);
	if (ok) {
		g_snprintf(text, sizeof(text), "%" G_GINT64_FORMAT, finished);
		ok = ladder_db_set_meta(d, "ratings_finished", text, error);
	}
	if (ok) {
		g_snprintf(text, sizeof(text), "%d", lr->r->games);
		ok = ladder_db_set_meta(d, "ratings_games", text, error);
	}
	if (ok) {
		g_autofree char *key = ladder_games_key(d);
		ok = ladder_db_set_meta(d, "ratings_key", key, error);
	}
	if (!ok) {
		ladder_db_rollback(d);
		return FALSE;
	}
	return ladder_db_commit(d, error);
}

LadderRatings *ladder_ratings_cached(LadderDb *d, gint64 *finished, gboolean *current)
{
	g_autofree char *f = ladder_db_meta(d, "ratings_finished");
	g_autofree char *key = ladder_db_meta(d, "ratings_key");
	g_autofree char *now = ladder_games_key(d);
	g_autofree char *rated = ladder_db_meta(d, "ratings_games");
	sqlite3_stmt *st = NULL;

	if (!f || !rated || !g_ascii_string_to_signed(f, 10, 0, G_MAXINT64, finished, NULL))
		return NULL;
	*current = key && strcmp(key, now) == 0;
	if (sqlite3_prepare_v2(d->db, "SELECT b.id, r.elo, r.lo, r.hi, r.games, r.last FROM bots b "
			       "LEFT JOIN ratings r ON r.bot = b.id ORDER BY b.id", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_autoptr(GArray) vals = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) games = g_array_new(FALSE, FALSE, sizeof(int));
	g_autoptr(GPtrArray) last = g_ptr_array_new();
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(st, 0);
		int n = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 4);
		g_array_append_val(rows, id);
		g_array_append_val(games, n);
		for (int k = 1; k <= 3; k++) {
			double v = sqlite3_column_double(st, k);
			g_array_append_val(vals, v);
		}
		g_ptr_array_add(last, g_strdup((const char *)sqlite3_column_text(st, 5)));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		g_ptr_array_foreach(last, (GFunc)(void (*)(void))g_free, NULL);
		return NULL;
	}
	LadderRatings *lr = g_new0(LadderRatings, 1);
	int n = (int)rows->len;
	lr->nbots = n;
	lr->id = g_memdup2(rows->data, sizeof(gint64) * MAX(n, 1));
	lr->games = g_memdup2(games->data, sizeof(int) * MAX(n, 1));
	lr->last = g_new0(char *, MAX(n, 1));
	lr->r = g_new0(Ratings, 1);
	lr->r->nbots = n;
	lr->r->games = (int)g_ascii_strtoll(rated, NULL, 10);
	lr->r->elo = g_new0(double, MAX(n, 1));
	lr->r->lo = g_new0(double, MAX(n, 1));
	lr->r->hi = g_new0(double, MAX(n, 1));
	for (int i = 0; i < n; i++) {
		lr->last[i] = g_ptr_array_index(last, i);
		lr->r->elo[i] = g_array_index(vals, double, 3 * i);
		lr->r->lo[i] = g_array_index(vals, double, 3 * i + 1);
		lr->r->hi[i] = g_array_index(vals, double, 3 * i + 2);
	}
	return lr;
}
