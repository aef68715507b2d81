/*
 * sprt: the sequential probability ratio test of a two-bot tournament, in
 * the pentanomial model for paired games (as fishtest and fastchess use it).
 *
 * H0: the first bot is elo0 Elo stronger than the second; H1: elo1 (logistic
 * Elo: a score fraction s means 400 log10(s / (1 - s))). The test stops
 * when the log-likelihood ratio of H1 against H0 leaves the band
 * (log(beta / (1 - alpha)), log((1 - beta) / alpha)): above it H1 is
 * accepted, below it H0; alpha and beta are the error rates of the two
 * kinds.
 *
 * A pair is the two games of one round of a 2-bot, 2-seat schedule: the
 * same seed with the bots in both seats, so the seat and the luck of the
 * deal cancel within it. Its score for the first bot (a win 1, a draw 1/2)
 * is 0, 1/2, 1, 3/2 or 2 out of 2: the pentanomial counts n[0..4]. The LLR
 * is the generalised one: for each hypothesis the distribution over the
 * five outcomes closest to the observed frequencies (most likely) among
 * those whose mean score is the hypothesis's, and the LLR is the observed
 * counts' log-likelihood under the H1 distribution less that under H0.
 * Empty outcomes get a count of 1e-3 so the fit is defined from the first
 * pair.
 *
 * The test runs over pairs in round order and stops at the first pair
 * after which the LLR leaves the band: so the decision, and the pairs it
 * used, depend only on which games were played, not on the order they
 * finished in (a resumed or concurrent run decides the same).
 */
#ifndef TETRARENA_TOURNAMENTS_SPRT_H
#define TETRARENA_TOURNAMENTS_SPRT_H

#include <glib.h>

#include "tournaments/journal.h"

#define SPRT_ERROR (sprt_error_quark())
GQuark sprt_error_quark(void);
typedef enum {
	SPRT_ERROR_PARSE,	/* a bad parameter text */
} SprtError;

typedef struct {
	double elo0, elo1;	/* elo0 < elo1 */
	double alpha, beta;	/* in (0, 0.5] */
} SprtParams;

typedef enum { SPRT_CONTINUE, SPRT_H0, SPRT_H1 } SprtDecision;

/*
 * Parse "elo0=A,elo1=B,alpha=X,beta=Y" (any order; alpha and beta default
 * to 0.05; ':' may stand for '='). FALSE with SPRT_ERROR_PARSE on an
 * unknown or repeated key, a bad number, elo0 >= elo1, or alpha or beta
 * outside (0, 0.5].
 */
gboolean sprt_parse(const char *text, SprtParams *out, GError **error);

/* The canonical text of p (round-trips through sprt_parse). Newly allocated. */
char *sprt_format(const SprtParams *p);

/* OUT: the LLR band's bounds. */
void sprt_bounds(const SprtParams *p, double *lower, double *upper);

/* The LLR of pentanomial counts n[0..4] (pairs scoring 0, 1/2, .. 2). */
double sprt_llr(const SprtParams *p, const int n[5]);

/* The decision for an LLR. */
SprtDecision sprt_decide(const SprtParams *p, double llr);

/* "H0 accepted", "H1 accepted", "continue". */
const char *sprt_decision_name(SprtDecision d);

/* A pair's outcome from the first bot's scores in its two games. */
typedef struct {
	int round;
	int outcome;		/* 0..4: the first bot's pair score in halves */
} SprtPair;

/*
 * The pairs of a 2-bot, 2-seat tournament's games (JournalGame*, in any
 * order): every round of which both games are there, scored for bot 0
 * (the lower rank wins a game, equal ranks draw), sorted by round. A new
 * GArray of SprtPair.
 */
GArray *sprt_pairs(GPtrArray *games);

typedef struct {
	SprtParams params;
	double lower, upper;
	int penta[5];		/* counts of the pairs used */
	int pairs;		/* pairs used (up to the decision) */
	double llr;		/* after those pairs */
	SprtDecision decision;
} SprtResult;

/*
 * Run the test over `pairs` (sorted by round; a gap in the rounds ends
 * the sequence, since the pairs after it are not yet the next ones). OUT:
 * *out, the state at the decision, or after the last pair.
 */
void sprt_run(const SprtParams *p, const SprtPair *pairs, int npairs, SprtResult *out);

#endif
