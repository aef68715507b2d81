/*
 * matrixsocial: the Main Match AI's table talk (issue 8; protocol.md,
 * `matrix`, table talk), as a botio side hook for bot-matrix.
 *
 * The policy, judged by the immediate value of a holding (the best score
 * its pieces can make this round placed alone: unique cells, +5 a cleared
 * row, -3 a hole; -5 when they cannot all be placed; 0 for no piece):
 *
 *   - offers: in round 1 (free talk), if another piece is worth more than
 *     its own by more than a point, it offers its piece for that one to
 *     every other seat (only the holder can accept, at most one trade
 *     happens); later, it offers to the partner who now holds its
 *     last-round piece (the deal says who) when that piece is worth more,
 *     and (with 7 players) to the other partner for the best of the pieces
 *     it may hold (every piece but ours and our last-round one);
 *   - answers: it accepts an offer or gift exactly when the new holding is
 *     worth more than the current one, and refuses otherwise;
 *   - gifts: when its holding is worth -5 (cannot be placed) and gifts
 *     are left, it gives its piece to the lowest-scoring other seat: given
 *     away, the piece costs it nothing;
 *   - says: it answers the first `say` of each partner in a round (round
 *     1: anyone) with one line, what it holds and the piece it would take
 *     for it; it never starts a conversation (two bots never chat on);
 *   - it listens for a short window (and while its offers are open, up to
 *     a quarter of its time, at most 150 ms) before moving; at a table
 *     with a talk window (option `talk`, MatrixState.talk_ms: a person is
 *     there) it listens through the window, answering as above, and moves
 *     100 ms before it ends (the window's time is not clocked).
 *
 * People and bots are the same to it: it offers, gives and answers alike.
 *
 * It never breaks a limit: it talks only to seats in `talk=`, gives only
 * while `gifts=` is above 0, offers only pieces it holds. The referee
 * would refuse anything else anyway.
 */
#ifndef TETRARENA_BOTS_MATRIXSOCIAL_H
#define TETRARENA_BOTS_MATRIXSOCIAL_H

#include <stdio.h>

#include "matrix.h"

/* What the hook remembers between rounds. */
typedef struct {
	int round;		/* the round of the last `go` seen, from 1 */
	int piece;		/* the piece dealt then, or -1 */
} MatrixSocial;

/* Forget everything (a new game). */
void matrixsocial_init(MatrixSocial *m);

/*
 * The immediate value for seat `me` of holding pieces held[0..n-1] (any
 * order) on s's board, and OUT *best (may be NULL) the move that makes it
 * (0 when n is 0 or nothing is legal).
 */
double matrixsocial_value(const MatrixState *s, int me, const int8_t *held, int n, Move *best);

/* The botio side hook (BotSide); ctx is a MatrixSocial. */
void matrixsocial_side(const Variant *v, void *state, int seat, const char *text, int ms_left,
		       FILE *in, FILE *out, void *ctx);

#endif
