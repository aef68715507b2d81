/*
 * standings: what a tournament's games add up to, as a terminal table,
 * standings.json and games.csv.
 *
 * Computed from the journal's header and games only (sorted by id), so a
 * resumed run, a merge of shards and a single run give the same standings
 * from the same games; only the timing columns (wall time per move) differ
 * between runs.
 *
 * Per bot: games, points (2 players: a win 1, a draw 1/2), W-D-L (2
 * players), mean rank (more players), mean score, faults by kind, time per
 * move (mean over moves, maximum), and the rating of ratings.h with its 95%
 * interval. Solo play (one seat) is rated by comparing the bots' scores on
 * each seed: the bots that played one seed form one virtual game ranked by
 * score. Also: the probability that each bot is stronger than each other,
 * the seat advantage (each seat's share of opponents beaten, with its Elo
 * equivalent for 2 players), and a crosstable (per pair the games, W-D-L
 * and the row's share of them; at more than 2 seats W-D-L counts the
 * games the row's bot finished ahead of, level with and behind the
 * column's, and the JSON carries them all the same). With an SPRT in the header (sprt.h): its LLR, bounds,
 * pentanomial counts and decision on these games. Above all: the master
 * seed, and whether the games ran jailed (journal.h's `sandbox`), loudly
 * when some did not.
 */
#ifndef TETRARENA_TOURNAMENTS_STANDINGS_H
#define TETRARENA_TOURNAMENTS_STANDINGS_H

#include <glib.h>

#include "tournaments/journal.h"
#include "tournaments/ratings.h"
#include "tournaments/sprt.h"

typedef struct {
	const char *name;
	int games;
	double points;		/* wins + draws/2 (2 players) or opponents beaten */
	int wins, draws, losses;	/* 2 players */
	double mean_rank;
	double mean_score;
	int moves;
	double mean_ms, max_ms;	/* per move */
	int faults;		/* all kinds */
	GHashTable *fault_kinds;	/* kind -> GINT_TO_POINTER(count) */
} StandingsBot;

typedef struct {
	JournalHeader header;
	int nbots, ngames;
	StandingsBot *bot;	/* nbots, in header order */
	int *order;		/* bot indices best first */
	Ratings *ratings;
	double *seat_score;	/* header.nseats */
	/* Crosstable, nbots*nbots, row against column. */
	int *x_win, *x_draw, *x_loss;	/* at more seats: ahead, level, behind */
	double *x_share;		/* share finishing ahead (ties half) */
	int *x_games;
	GPtrArray *games;	/* JournalGame*, by id (a reference) */
	int sandbox[JOURNAL_SANDBOX_COUNT];	/* games by how their bots ran */
	gboolean has_sprt;	/* the header names an SPRT (2 bots, 2 seats) */
	SprtResult sprt;	/* its state on these games */
	gboolean partial;	/* the run stopped before its schedule was
				 * done (interrupted, a bot that cannot start):
				 * said at the top of every output */
	GPtrArray *notes;	/* char*, owned: why, one line each (never NULL) */
} Standings;

/*
 * Compute the standings of `games` (JournalGame*, sorted by id) under
 * `header`; `bootstrap` fits for the intervals. Never fails.
 */
Standings *standings_new(const JournalHeader *header, GPtrArray *games, int bootstrap);
void standings_free(Standings *s);

/* Add a line to s->notes (shown under the title in the text, as "notes"
 * in the JSON and the report). */
void standings_add_note(Standings *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Standings, standings_free)

/*
 * Whether the games ran jailed, for people: "on (...)" when every game
 * did, else "off (bots ran without a jail: WHY)" with the number of such
 * games when some did run jailed, and the games that recorded nothing.
 * Newly allocated.
 */
char *standings_sandbox_text(const Standings *s);

/*
 * The terminal table, crosstable, superiority, seat advantage and the
 * faulted games with their logs (under `outdir`) and replay commands.
 * `referee` is the command to print in replay lines. Newly allocated.
 */
char *standings_text(const Standings *s, const char *outdir, const char *referee);

/* standings.json: everything above as JSON (newly allocated), and the file. */
char *standings_json(const Standings *s);
gboolean standings_write_json(const Standings *s, const char *path, GError **error);

/* games.csv: one row per game and seat. */
gboolean standings_write_csv(const Standings *s, const char *path, GError **error);

#endif
