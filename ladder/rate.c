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
