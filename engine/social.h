/*
 * social: the Main Match's table talk (rules.md, section `matrix`, social
 * layer; issue 8), as rules over a MatrixState, reached through the side
 * action pointers of variant_matrix.
 *
 * During a round (the place stage) a seat may, before its move:
 *
 *   say SEAT TEXT          talk: round 1 to anyone, later only to the two
 *                          seats the deal links it to (matrix_partners());
 *   offer SEAT GIVE WANT   a trade, to a seat it may talk to: it gives
 *                          piece GIVE (held now), wants WANT;
 *   gift SEAT PIECE        to anyone, talk limits or not; at most
 *                          MATRIX_GIFTS gifts sent per seat per game (a
 *                          refused gift still counts);
 *   accept ID / refuse ID  answer an offer or gift made to it;
 *   tome                   take the challenge tome (round 1 only, once).
 *
 * A seat has at most one offer or gift open to each other seat (so at most
 * MATRIX_MAX_OPEN in all, and a close sends at most 12 lines).
 *
 * An accepted trade swaps the two pieces, an accepted gift moves the piece;
 * both are checked again when accepted (each side still holds its piece,
 * the receiver of a gift holds at most MATRIX_MAX_HELD). A seat's round is
 * closed when its move arrives (or it faults, or has no bot): its pieces
 * are then fixed, every offer and gift open between it and another seat
 * ends (`closed ID moved`) and its later side actions are refused. Offers
 * and gifts still open at the end of the round lapse.
 *
 * Answers and routed lines (protocol.md, `matrix`, table talk): the sender
 * gets `ok VERB [ID]` or `refused VERB REASON`; others get `heard FROM
 * TEXT`, `offered ID FROM GIVE WANT` (WANT `-` for a gift), `traded ID FROM
 * GIVE TO WANT`, `held PIECES`, `closed ID WHY`.
 *
 * Several pieces: a seat holding k pieces places all k in one move, in
 * piece order (I O T J L S Z), each a legal placement on the round's board
 * as if alone (resting on cells already on the board, not on its own other
 * pieces), no two overlapping. A seat holding none moves `-` and scores 0.
 *
 * The tome: a taker's view shows, from round 2 on, `tome=` its pieces for
 * every dealt round from the current one (at least the rest of the block,
 * and each new block of 7 as soon as it is dealt). A taker whose pieces
 * were in fewer than MATRIX_TOME_LINES cleared rows at the end cannot win
 * (social_cannot_win(); matrix ranks and awards apply it).
 */
#ifndef TETRARENA_ENGINE_SOCIAL_H
#define TETRARENA_ENGINE_SOCIAL_H

#include <stdbool.h>

#include "matrix.h"

/* Whether `from` may talk to (and offer a trade to) `to` now. */
bool social_may_talk(const MatrixState *s, int from, int to);

/* The first words of the side actions, NULL-terminated (Variant.side_verbs). */
extern const char *const social_verbs[];

/* The side action `text` of `player` (Variant.side). */
VariantSideResult social_side(void *state, int player, const char *text, VariantSide *out);

/* Close `player`'s round (Variant.side_close). */
void social_close(void *state, int player, VariantSide *out);

/* Whether m places exactly the pieces `player` holds, legally (Variant.move_legal). */
bool social_move_legal(const void *state, int player, Move m);

/*
 * Legal moves of a seat holding zero or several pieces: the empty move for
 * none; else at most `max` combinations, first in lexicographic order of
 * the single placements. OUT: out[max]. Returns the count.
 */
int social_legal_moves(const MatrixState *s, int player, Move *out, int max);

/* Reset the round's social state (called when a round begins). */
void social_round_begin(MatrixState *s);

/* Whether `player` took the tome and has not met its challenge. */
bool social_cannot_win(const MatrixState *s, int player);

/*
 * The final ranks when the tome's penalty matters: the best-scoring active
 * seats that may win rank 1; every other seat ranks after them, by score
 * (ties share), retired seats last as usual. False (rank untouched) when
 * no active seat is penalised, or when none may win (then nobody is
 * singled out: plain ranks, though no ToL is awarded).
 */
bool social_ranking(const MatrixState *s, int *rank);

/* Append the viewer's social fields to a state line (` held=... gifts=...
 * talk=... tome=...`). viewer VARIANT_CHANCE gets every seat's. */
void social_format(const MatrixState *s, int viewer, Text *out);

/* Read the social fields back (held=, gifts=, tome=) where present. */
bool social_parse(MatrixState *s, const char *text);

#endif
