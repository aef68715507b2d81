/*
 * matrix: the Main Match (rules.md, section `matrix`; seed 004), as the
 * const table variant_matrix plus the helpers its AI bots search with.
 *
 * A game is a sequence of rounds. Before the first round, and before every
 * round whose next round is not yet dealt, comes a chance move that deals
 * a whole block of 7 rounds (see deal.h). Then all active players place at
 * once (a simultaneous phase): each submits one final SRS position for the
 * piece they hold (see srs.h: reachable from the spawn, unable to move
 * down, resting on a filled cell). apply_joint() resolves the round:
 *
 *   - every cell of every placed piece is filled (cells covered by several
 *     players are shared); +1 per cell of a player's piece nobody else
 *     covered;
 *   - full rows clear and the rows above shift down; +5 per cleared row
 *     holding a cell of the player's piece;
 *   - -3, once, if a cell of the player's piece, after the shift, shares an
 *     edge with a hole: an empty cell whose neighbours inside the field
 *     (matrix and buffer) are all filled;
 *   - -5 and nothing placed for a player who submitted nothing or an
 *     illegal placement.
 *
 * The game ends after the round in which a player reaches `target` points
 * (49) or places a piece wholly above the matrix (every cell at y >=
 * height, judged where it was placed, before the clear). Two safety ends
 * the rulebook does not need: no active player has any legal placement at
 * the start of a round, or `rounds` rounds were played. Most points wins;
 * tied leaders share rank 1; retired players rank last.
 *
 * Hidden information: chance moves are secret (chance_public false). A
 * player's view shows the board, every score, the last round's placements
 * and score changes, and only their own current and next piece. Parsed
 * back (state_parse), a player's view gives every seat that player's
 * current and next piece, since the line does not say whose view it is:
 * legal_moves() is then right for the viewer only. The chance view
 * (state_format with VARIANT_CHANCE) holds the whole known deal and
 * parses back to the same line.
 *
 * Move packing: up to MATRIX_MAX_HELD placements of 16 bits each, lowest
 * first; a placement is (kind + 1) << 13 | rot << 11 | (x + 2) << 6 | y, a
 * slot of 0 is empty. A player holds one piece unless trades and gifts
 * (the social layer, below) gave it several (placed together, in piece
 * order) or none (the empty move 0, `-`).
 * Notation: `T0@4,1` is a T in SRS state 0 (0 R 2 L) with its rotation
 * point at x 4, y 1; several placements are joined by `+`. The chance move
 * is the 64-bit seed of a block, `deal 0123456789abcdef`.
 */
#ifndef TETRARENA_ENGINE_MATRIX_H
#define TETRARENA_ENGINE_MATRIX_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "deal.h"
#include "piece.h"
#include "srs.h"
#include "variant.h"

#define MATRIX_MAX_PLAYERS 7
#define MATRIX_MAX_WIDTH 12
#define MATRIX_MAX_ROWS 62		/* matrix and buffer together */
#define MATRIX_MAX_HELD 4		/* placements one move can carry */
#define MATRIX_DEAL_SPAN (2 * DEAL_BLOCK)	/* rounds of deal kept */
#define MATRIX_MISS_PENALTY 5
#define MATRIX_HOLE_PENALTY 3
#define MATRIX_ROW_POINTS 5
#define MATRIX_GIFTS 3			/* gifts per player per game (issue 8) */

/* Option indices in variant_matrix.options. */
enum {
	MATRIX_OPT_WIDTH,
	MATRIX_OPT_HEIGHT,
	MATRIX_OPT_BUFFER,
	MATRIX_OPT_TARGET,
	MATRIX_OPT_ROUNDS,
	MATRIX_OPT_TALK,
	MATRIX_OPT_COUNT
};

typedef enum {
	MATRIX_STAGE_DEAL,	/* chance: deal the next block */
	MATRIX_STAGE_PLACE,	/* simultaneous: everyone active places */
	MATRIX_STAGE_OVER,
} MatrixStage;

typedef enum {
	MATRIX_END_NONE,
	MATRIX_END_TARGET,	/* someone reached the target */
	MATRIX_END_ABOVE,	/* someone placed wholly above the matrix */
	MATRIX_END_STUCK,	/* nobody active could place */
	MATRIX_END_ROUNDS,	/* the round limit */
	MATRIX_END_HALT,	/* halted from outside */
	MATRIX_END_RETIRED,	/* fewer than one active player left */
} MatrixEnd;

#define MATRIX_MAX_OPEN (MATRIX_MAX_PLAYERS * (MATRIX_MAX_PLAYERS - 1))	/* one per ordered pair */
#define MATRIX_TOME_LINES 7		/* the challenge tome's cleared lines */

/* An open offer (want >= 0) or gift (want -1) of this round (the social layer, below). */
typedef struct {
	int16_t id;
	int8_t from, to;	/* seats */
	int8_t give, want;	/* pieces: from gives `give`, wants `want` */
} MatrixOffer;

/* What one round did to one player. */
typedef struct {
	int8_t unique;	/* cells of the piece nobody else covered */
	int8_t rows;	/* cleared rows holding a cell of the piece */
	int8_t hole;	/* 1 when the piece touches a hole after the clear */
	int8_t above;	/* 1 when a piece lies wholly above the matrix */
	int8_t missed;	/* 1 when nothing was placed */
	int16_t delta;	/* the score change */
} MatrixOutcome;

typedef struct {
	int8_t nplayers, width, height, buffer;
	int16_t target, max_rounds;
	int32_t talk_ms;		/* option `talk`: the round's talk window (the referee's) */
	int8_t stage;			/* MatrixStage */
	int8_t end;			/* MatrixEnd */
	int16_t round;			/* rounds played = index of the current round */
	int16_t dealt;			/* rounds dealt so far */
	uint32_t retired;		/* bit per seat out of the game */
	/* Round r's deal at deal[r % MATRIX_DEAL_SPAN]; -1 where not known. */
	int8_t deal[MATRIX_DEAL_SPAN][MATRIX_MAX_PLAYERS];
	/* Pieces each player must place this round, sorted by kind: the deal
	 * when the round begins, then as trades and gifts leave them. */
	int8_t held[MATRIX_MAX_PLAYERS][MATRIX_MAX_HELD];
	int8_t nheld[MATRIX_MAX_PLAYERS];
	/* Social layer (the social layer, below). */
	int8_t gifts_left[MATRIX_MAX_PLAYERS];	/* MATRIX_GIFTS at the start */
	int8_t tome[MATRIX_MAX_PLAYERS];	/* 1 when the challenge tome is taken */
	int16_t lines[MATRIX_MAX_PLAYERS];	/* cleared rows holding their cells */
	int16_t score[MATRIX_MAX_PLAYERS];
	Board board;			/* the field: matrix plus buffer */
	/* The last round played (when round > 0). */
	Move last_move[MATRIX_MAX_PLAYERS];	/* 0 when nothing was placed */
	MatrixOutcome last[MATRIX_MAX_PLAYERS];
	int8_t last_cleared;		/* rows cleared */
	/* Social layer of this round (the social layer, below). */
	MatrixOffer open[MATRIX_MAX_OPEN];
	int8_t nopen;
	int16_t next_id;		/* ids of offers and gifts, per game */
	uint32_t closed;		/* seats that moved (or faulted) this round */
} MatrixState;

extern const Variant variant_matrix;

/* Pack one placement into slot 0 of a move. */
Move matrix_move(const SrsPos *p);

/* Add placement p to a move in its first empty slot; false when full. */
bool matrix_move_add(Move *m, const SrsPos *p);

/* OUT: the placements of a move (up to MATRIX_MAX_HELD); returns the count. */
int matrix_move_positions(Move m, SrsPos *out);

/* The spawn position of `kind` on s's board; false when it cannot spawn. */
bool matrix_spawn(const MatrixState *s, PieceKind kind, SrsPos *out);

/*
 * Every legal placement of one piece on s's board. OUT: out[], room for
 * SRS_MAX_LANDINGS. Returns the count.
 */
int matrix_placements(const MatrixState *s, PieceKind kind, SrsPos *out);

/* The piece `player` must place in the current round, or PIECE_NONE. */
PieceKind matrix_piece(const MatrixState *s, int player);

/* The piece `player` is dealt in the next round, or PIECE_NONE. */
PieceKind matrix_next_piece(const MatrixState *s, int player);

/*
 * Resolve one round on `board` (a field whose lower `height` rows are the
 * matrix): moves[i] for i < n, 0 for nothing placed; the placements must
 * fit the board. OUT: out[i] per player, and *after the board after the
 * clear (may be NULL). Returns the number of rows cleared.
 */
int matrix_resolve(const Board *board, int height, int n, const Move *moves,
		   MatrixOutcome *out, Board *after);

/*
 * OUT: the field's holes as bit rows (hole[y] bit x): empty cells whose
 * neighbours inside the field are all filled.
 */
void matrix_holes(const Board *b, BoardRow *hole);

/*
 * The rulebook's tokens at the end: OUT tol[p] (2 for the only leader, 1
 * each for tied leaders) and tod[p] (1 for every negative score, or if
 * none, for every lowest score). A retired player ranks last and so is
 * never a leader (no ToL); its ToD is judged on its score like everyone
 * else's.
 */
void matrix_awards(const MatrixState *s, int *tol, int *tod);

/*
 * The seats `player` may talk to this round under the rulebook's limited
 * communication (the social layer, issue 8): the one who was dealt
 * player's current piece last round, and the one who is dealt player's
 * last-round piece now. Judged on the deal, not on trades. OUT: out[2];
 * returns the count: 0 in round 1 (talk is free) or outside the place
 * stage, 2 with seven players (the deal has no swaps, so they differ),
 * possibly fewer with fewer players (a piece nobody held).
 */
int matrix_partners(const MatrixState *s, int player, int *out);

/* The name of an end reason: "target", "above", ... or "-". */
const char *matrix_end_name(int end);

/* ==== the social layer ==================================================
 * The social layer: the Main Match's table talk, as rules over a
 * MatrixState, reached through the side action pointers of variant_matrix.
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
 * (matrix_cannot_win(); matrix ranks and awards apply it).
 */

/* Whether `from` may talk to (and offer a trade to) `to` now. */
bool matrix_may_talk(const MatrixState *s, int from, int to);

/* Whether m places exactly the pieces `player` holds, legally (Variant.move_legal). */
bool matrix_move_legal(const void *state, int player, Move m);

/*
 * Legal moves of a seat holding zero or several pieces: the empty move for
 * none; else at most `max` combinations, first in lexicographic order of
 * the single placements. OUT: out[max]. Returns the count.
 */
int matrix_held_moves(const MatrixState *s, int player, Move *out, int max);

/* Reset the round's social state (called when a round begins). */
void matrix_social_begin(MatrixState *s);

/* Whether `player` took the tome and has not met its challenge. */
bool matrix_cannot_win(const MatrixState *s, int player);

#endif
