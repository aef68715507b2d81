/*
 * bench-ladder DIR: the ladder's costs on a big ladder (bench/bench-ladder-
 * gen.py makes one; bench/bench-ladder-scale.sh runs this). It prints the
 * time of the batch fit without bootstrap (what scheduling refits, every
 * so many games: ladder/run.c) and with it (the standings cache's refit),
 * and the time of one matchmaking call (ladder/match.h) over the active
 * entries with their ratings and games: mean, p99 and the slowest of
 * 2000 calls. Wall-clock time: on a loaded machine, the figures are upper
 * bounds. Speed is measured here, never asserted in tests.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ladder/db.h"
#include "ladder/ladder.h"
#include "ladder/match.h"
#include "ladder/rate.h"

#define CALLS 2000

static int cmp_gint64(const void *a, const void *b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-ladder DIR [BOOTSTRAP]\n");
		return 2;
	}
	int bootstrap = argc > 2 ? atoi(argv[2]) : RATINGS_BOOTSTRAP;
	g_autoptr(LadderDb) d = ladder_db_open(argv[1], FALSE, &err);
	if (!d) {
		fprintf(stderr, "bench-ladder: %s\n", err->message);
		return 1;
	}
	g_autoptr(GPtrArray) bots = ladder_bots_load(d, &err);
	if (!bots) {
		fprintf(stderr, "bench-ladder: %s\n", err->message);
		return 1;
	}
	gint64 t0 = g_get_monotonic_time();
	g_autoptr(LadderRatings) lr = ladder_ratings_compute(d, G_MAXINT64, 0, 0, &err);
	gint64 t1 = g_get_monotonic_time();
	if (!lr) {
		fprintf(stderr, "bench-ladder: %s\n", err->message);
		return 1;
	}
	printf("fit without bootstrap: %d entries, %d games: %.2f s\n", lr->nbots, lr->r->games, (t1 - t0) / 1e6);
	if (bootstrap > 0) {
		t0 = g_get_monotonic_time();
		g_autoptr(LadderRatings) full = ladder_ratings_compute(d, G_MAXINT64, bootstrap, 1, &err);
		t1 = g_get_monotonic_time();
		if (!full) {
			fprintf(stderr, "bench-ladder: %s\n", err->message);
			return 1;
		}
		printf("fit with %d bootstrap fits: %.2f s\n", bootstrap, (t1 - t0) / 1e6);
	}

	g_autofree LadderMatchEntry *e = g_new0(LadderMatchEntry, MAX(bots->len, 1));
	int n = 0;
	for (guint i = 0; i < bots->len && n < LADDER_MATCH_MAX; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		int k = ladder_ratings_index(lr, b->id);
		if (b->status != LADDER_BOT_ACTIVE)
			continue;
		e[n].id = b->id;
		e[n].played = k >= 0 ? lr->games[k] : 0;
		e[n].elo = k >= 0 ? lr->r->elo[k] : 0;
		n++;
	}
	gint64 took[CALLS];
	double sum = 0;
	for (int c = 0; c < CALLS; c++) {
		LadderTable t;
		gint64 a = g_get_monotonic_time();
		gboolean ok = ladder_match(e, n, 2, 4, 5, 1000000 + c, &t);
		took[c] = g_get_monotonic_time() - a;
		if (!ok) {
			fprintf(stderr, "bench-ladder: no table among %d entries\n", n);
			return 1;
		}
		e[t.entry[0]].played++;
		sum += (double)took[c];
	}
	qsort(took, CALLS, sizeof(*took), cmp_gint64);
	printf("matchmaking over %d entries: mean %.1f us, p99 %" G_GINT64_FORMAT " us, max %" G_GINT64_FORMAT
	       " us (%d calls)\n", n, sum / CALLS, took[CALLS * 99 / 100], took[CALLS - 1], CALLS);
	return 0;
}
