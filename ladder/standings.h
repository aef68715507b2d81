/*
 * standings: the ladder's table as text (`ladder standings`) and JSON
 * (`--json`, the quality script's input), from rate.h's batch fit with 200
 * bootstrap fits seeded by the master seed (the same games give the same
 * table). Rows are by rating, best first; each says the entry's label,
 * rating, 95% interval, finished games, when it last played, its version
 * and its state (active, suspended, retired, replaced: `status` and
 * `state` in JSON, the same word, with `suspended` the reason or null).
 * Bot-provided text is escaped in JSON (json_string) and shown
 * as is in text.
 */
#ifndef TETRARENA_LADDER_STANDINGS_H
#define TETRARENA_LADDER_STANDINGS_H

#include <glib.h>

#include "ladder/db.h"
#include "ladder/rate.h"

/* One row of the table. */
typedef struct {
	gint64 id;
	char *label;		/* NAME or NAME.vN */
	char *name;
	int version;
	const char *status;	/* "active", "suspended", "replaced", "retired" */
	char *suspended;	/* why it is suspended, or NULL */
	double elo, lo, hi;
	int games;
	char *last;		/* last played, or NULL */
} LadderRow;

typedef struct {
	GPtrArray *rows;	/* LadderRow*, best first */
	gint64 games;		/* finished games fitted */
	gint64 unfinished;
	char *variant;
	char *players;
	char *seed;
} LadderTableView;

void ladder_table_view_free(LadderTableView *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderTableView, ladder_table_view_free)

/* The table over finished games with id < below: over all of them
 * (G_MAXINT64), the cached fit when it covers every finished game, else a
 * fit now. NULL with error. */
LadderTableView *ladder_table_view(LadderDb *d, gint64 below, GError **error);

/* The table the pages show: the cached fit, even when it is behind while
 * a run holds the writer's lock (the run's ladder_standings_refresh()
 * bounds how far: `games` is then the games it covers); else as
 * ladder_table_view(). NULL with error. */
LadderTableView *ladder_table_view_cached(LadderDb *d, GError **error);

/*
 * Refit the cache (rate.h, ladder_ratings_store) when it is more than
 * `slack` finished games behind, or absent. Needs a writable database;
 * the run calls it after each game recorded, with slack 2% of the games,
 * and with 0 when it stops. FALSE with error.
 */
gboolean ladder_standings_refresh(LadderDb *d, gint64 slack, GError **error);

/* The same as text or one JSON object (newly allocated). NULL with error. */
char *ladder_standings_text(LadderDb *d, gint64 below, GError **error);
char *ladder_standings_json(LadderDb *d, gint64 below, GError **error);

#endif
