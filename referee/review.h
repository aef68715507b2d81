/*
 * review: our AI as a coach (`referee review`). At each decision of a
 * seat in a logged game, what our AI would have played there and what the
 * played move cost by its judgement.
 *
 * The AI is one of our bots run with --analyse (review_ai_command): at
 * each `go` it writes one line
 *   info analyse unit=UNIT MOVE=VALUE MOVE=VALUE ...
 * valuing every legal move by a search with no clock (the same values on
 * any machine), higher better for the seat, and plays the best. The
 * decisions are put to it as `referee position --all` puts them
 * (position_run_with: one process, jailed as games are, fed the lines the
 * seat received), so after each decision it hears of the move the seat
 * really played. A decision's cost is the AI's value of its own choice
 * less its value of the played move: 0 when they are the same move (or
 * equally good), more the worse the played move was by its judgement.
 */
#ifndef TETRARENA_REFEREE_REVIEW_H
#define TETRARENA_REFEREE_REVIEW_H

#include <glib.h>

#include "gamelog.h"
#include "sandbox.h"

/* The error domain of review_run() (code 1: no AI for the variant, or
 * the AI gave no analysis). */
GQuark review_error_quark(void);

/* One decision of the seat. */
typedef struct {
	int step;		/* 1-based: the seat's step-th `go` */
	int lineno;		/* the `go`'s line in the log */
	char *played;		/* the move played (notation), or NULL: none logged */
	char *choice;		/* the AI's move (notation), or NULL: see why */
	char *why;		/* when something is missing: what happened */
	int moves;		/* legal moves the AI valued (0: no analysis) */
	gboolean valued;	/* both values below are the AI's */
	double choice_value;	/* the AI's value of its choice */
	double played_value;	/* the AI's value of the played move */
	double cost;		/* choice_value - played_value (>= 0) */
	int rank;		/* 1 + the moves the AI values above the played one */
} ReviewStep;

void review_step_free(ReviewStep *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ReviewStep, review_step_free)

/* A seat's game, reviewed. */
typedef struct {
	int seat;
	char *ai;		/* the AI's command line */
	char *unit;		/* the values' unit (win%, points), or NULL: none came */
	GPtrArray *steps;	/* ReviewStep*, one per decision in order, owned */
} Review;

void review_free(Review *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Review, review_free)

/*
 * The command line of our AI for `variant` with --analyse: the bot-NAME
 * program in `dir` (shell-quoted), or NULL when no AI of ours analyses
 * that variant (today link and tetroll). Newly allocated.
 */
char *review_ai_command(const char *variant, const char *dir);

/* The variants review_ai_command() knows, comma-separated (static). */
const char *review_variants(void);

/*
 * Review every decision of `seat` in `log` with the AI `command` (a bot
 * command line that writes `info analyse` lines, as above), jailed by
 * `mode`; progress (may be NULL) is called after each decision with its
 * step and the seat's count. Returns the review (owned), or NULL with
 * error set when the seat has no decision, the AI cannot be started, or
 * it analysed none of them. A decision it did not answer or value has its
 * why and no values; the walk stops where the AI ended.
 */
Review *review_run(const GameLog *log, int seat, const char *command, SandboxMode mode,
		   void (*progress)(int step, int count, void *data), void *data, GError **error);

#endif
