/*
 * report: a tournament's report.html (docs/viewer.md), a self-contained
 * page made from what the standings writer put in standings.json and
 * games.csv: the standings, the ratings with their 95% intervals, the
 * crosstable as a heat map, score and time-per-move distributions per
 * bot, seat advantage, the faulted games, and a link to every game's
 * replay.
 */
#ifndef TETRARENA_TOURNAMENTS_REPORT_H
#define TETRARENA_TOURNAMENTS_REPORT_H

#include <glib.h>

/* Up to this many games, the replays are written with the report (about
 * 5 ms and 150-400 kB each), and an empty stderr file for each seat that
 * wrote nothing (the referee makes them lazily), so that every link of
 * the report leads somewhere; beyond it `referee view --html` makes a
 * replay on demand, and a quiet seat's stderr link finds no file. */
#define REPORT_REPLAYS_MAX 500

/*
 * Write OUTDIR/report.html from OUTDIR/standings.json and games.csv, and,
 * for at most REPORT_REPLAYS_MAX games, each game's replay beside its log
 * (games/NNNNNN.log.html) unless it is there already. `logs` lists the
 * games' log paths relative to OUTDIR. A game whose log is missing or
 * does not replay (said on stderr) gets no replay; the report links its
 * log instead.
 */
gboolean report_write(const char *outdir, const GPtrArray *logs, GError **error);

#endif
