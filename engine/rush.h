/*
 * rush: Tetris, the 1989 real-time board game (rules.md, section `rush`),
 * as the const table variant_rush plus the state and helpers its AI bots
 * search with.
 *
 * Each player has a board (default 10 x 20); a shared box holds `box`
 * copies of each of the seven one-sided shapes. A player holds at most one
 * block in the hand and has one giveaway slot that opponents fill. The
 * actions:
 *
 *   take:K        take a K from the box; only with an empty hand and an
 *                 empty slot, while the box holds a K;
 *   place:KR@X,Y  place the active block (the hand's, else the slot's) in
 *                 rotation R with its bounding box's lower-left corner at
 *                 (X, Y); K must name the active block;
 *   give:S        give the hand's block to seat S, whose slot is empty (a
 *                 slot block can never be passed on);
 *   discard       put the active block aside; legal only when it fits
 *                 nowhere on the player's board.
 *
 * A placement lies wholly inside the board on empty squares and covers a
 * bottom-row square or shares an edge with a block already placed; only
 * rotations are allowed, so L and J are different blocks. Enclosed gaps may
 * be filled later: nothing falls.
 *
 * The game ends when a block covers a top-row square, when the box is empty
 * and nobody holds a block (in hand or slot), or when halt() is called (the
 * time limit). A player's score is the number of uncovered squares of the
 * whole board; fewest wins, ties are shared, retired players rank last.
 *
 * Modes (option `lockstep`):
 *   0  real time: one REALTIME phase whose mask holds every active player
 *      with a legal action; each action is applied alone, in arrival order.
 *      The option `pace` (ms, default 100) is the referee's: a seat's move
 *      takes effect no sooner than `pace` after its `go` (variant.h).
 *   1  lockstep: each tick is a SIMULTANEOUS phase; every move is judged
 *      against the state at the start of the tick. When more players take a
 *      shape than the box holds, or two or more give to the same seat, the
 *      tick goes to a CHANCE phase whose move is a priority order of the
 *      seats (`order:2,0,1`); the tick is then resolved in that order, and a
 *      move that lost its conflict does nothing. Otherwise the tick is
 *      resolved at once.
 *
 * Move packing: type in bits 0-3 (RushMoveType), kind bits 4-7, rotation
 * bits 8-11, x bits 12-19, y bits 20-27; give's seat in bits 4-7. A chance
 * move packs the order, seat of priority i in bits 4i..4i+3.
 */
#ifndef TETRARENA_ENGINE_RUSH_H
#define TETRARENA_ENGINE_RUSH_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "piece.h"
#include "variant.h"

#define RUSH_MAX_WIDTH 16
#define RUSH_MAX_HEIGHT 40
#define RUSH_MAX_PLAYERS 4
#define RUSH_MAX_BOX 99
/* Placements of one block: at most 4 rotations at every corner. */
#define RUSH_MAX_PLACEMENTS (4 * RUSH_MAX_WIDTH * RUSH_MAX_HEIGHT)

/* Option indices in variant_rush.options. */
enum { RUSH_OPT_WIDTH, RUSH_OPT_HEIGHT, RUSH_OPT_BOX, RUSH_OPT_LOCKSTEP, RUSH_OPT_PACE, RUSH_OPT_COUNT };

typedef enum {
	RUSH_MOVE_TAKE,
	RUSH_MOVE_PLACE,
	RUSH_MOVE_GIVE,
	RUSH_MOVE_DISCARD,
} RushMoveType;

typedef enum {
	RUSH_STATUS_PLAY,	/* players act */
	RUSH_STATUS_RESOLVE,	/* lockstep: chance orders a conflicted tick */
	RUSH_STATUS_OVER,
} RushStatus;

typedef enum {
	RUSH_END_NONE,
	RUSH_END_TOP,		/* a block covered a top-row square */
	RUSH_END_EMPTY,		/* box empty and nobody holds a block */
	RUSH_END_LIMIT,		/* halt(): the time limit ran out */
	RUSH_END_RETIRED,	/* every player retired */
} RushEnd;

typedef struct {
	int8_t nplayers, width, height, per_shape, lockstep;
	int8_t status;			/* RushStatus */
	int8_t end;			/* RushEnd */
	uint8_t tetris;			/* seats that covered a top-row square */
	uint32_t retired;		/* seats that forfeited */
	int32_t tick;			/* lockstep ticks resolved, or real-time actions */
	int8_t box[PIECE_COUNT];	/* copies left of each shape */
	int8_t hand[RUSH_MAX_PLAYERS];	/* PieceKind held, PIECE_NONE if none */
	int8_t slot[RUSH_MAX_PLAYERS];	/* PieceKind given, PIECE_NONE if none */
	int16_t taken[RUSH_MAX_PLAYERS], placed[RUSH_MAX_PLAYERS];
	int16_t given[RUSH_MAX_PLAYERS], discarded[RUSH_MAX_PLAYERS];
	uint32_t pending_mask;		/* RESOLVE: seats whose pending move counts */
	Move pending[RUSH_MAX_PLAYERS];	/* RESOLVE: the tick's moves */
	Board board[RUSH_MAX_PLAYERS];
	/* PieceKind + 1 per square, 0 when uncovered (agrees with board). */
	uint8_t cell[RUSH_MAX_PLAYERS][RUSH_MAX_HEIGHT][RUSH_MAX_WIDTH];
} RushState;

extern const Variant variant_rush;

/* Pack and unpack moves. */
Move rush_move_take(PieceKind kind);
Move rush_move_place(PieceKind kind, int rot, int x, int y);
Move rush_move_give(int seat);
Move rush_move_discard(void);
RushMoveType rush_move_type(Move m);
/* A placement's fields; m must be a place move. */
void rush_move_unpack(Move m, PieceKind *kind, int *rot, int *x, int *y);
/* A give's seat; m must be a give move. */
int rush_move_target(Move m);

/*
 * Whether orientation o at (x, y) is a legal placement on board b: inside,
 * on empty squares, covering row 0 or sharing an edge with a filled square.
 */
bool rush_can_place(const Board *b, const Orientation *o, int x, int y);

/*
 * Every legal placement of `kind` on b, as place moves into out (room for
 * RUSH_MAX_PLACEMENTS); returns the count. Order: rotation, then y, then x.
 */
int rush_placements(const Board *b, PieceKind kind, Move *out);

/* Whether `kind` has a legal placement on b. */
bool rush_fits(const Board *b, PieceKind kind);

/* The block `seat` must play now (hand, else slot), or PIECE_NONE. */
PieceKind rush_active_block(const RushState *s, int seat);

/* Uncovered squares of `seat`'s board. */
int rush_uncovered(const RushState *s, int seat);

/* Whether `seat` is still in the game (not retired). */
bool rush_active(const RushState *s, int seat);

#endif
