/*
 * link: Tetris Link (rules.md, section `link`), as the const table
 * variant_link plus the state and helpers its AI bots search with.
 *
 * A game: players roll off in seat order until one rolls the logo; that
 * player starts. Each turn is a chance move (the die) and then, unless the
 * turn is skipped, one placement by the player. A placement is a one-sided
 * orientation of the rolled free shape (or any shape left in the supply on
 * the logo) and the column of its left edge; the piece falls straight down
 * and must end wholly inside the tower. The turn is skipped when the player
 * has none of the shape left or it fits nowhere. The game ends when no
 * player can place any piece left in their supply.
 *
 * Scoring: a player's link total is the sum of the sizes (in pieces) of
 * their groups of 3 or more edge-linked pieces; a move gains the change of
 * that total. It loses 1 point for one empty cell left under the piece in
 * its columns, 2 for two or more.
 *
 * Move packing: kind | rot << 4 | x << 8 (a placement); a chance move is
 * the die face 0..5 (I O T L S logo). Notation: `T0@3` is a T in rotation
 * 0 with its left edge in column 3; chance moves are `roll T` or `roll logo`.
 */
#ifndef TETRARENA_ENGINE_LINK_H
#define TETRARENA_ENGINE_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "piece.h"
#include "variant.h"

#define LINK_MAX_WIDTH 16
#define LINK_MAX_HEIGHT 40
#define LINK_MAX_PLAYERS 4
#define LINK_MAX_PIECES (LINK_MAX_WIDTH * LINK_MAX_HEIGHT / 4)
#define LINK_SHAPES 5		/* I O T L S, the die's shape faces */
#define LINK_FACE_LOGO 5	/* the sixth face */

/* Option indices in variant_link.options. */
enum { LINK_OPT_WIDTH, LINK_OPT_HEIGHT, LINK_OPT_PIECES, LINK_OPT_COUNT };

typedef enum {
	LINK_STAGE_ROLLOFF,	/* chance: `current` rolls for the start */
	LINK_STAGE_ROLL,	/* chance: `current` rolls for a shape */
	LINK_STAGE_PLACE,	/* `current` places a piece for `face` */
	LINK_STAGE_OVER,
} LinkStage;

typedef struct {
	int8_t owner;		/* seat */
	int8_t kind, rot;	/* one-sided orientation */
	int8_t x, y;		/* lower-left corner of its bounding box */
} LinkPiece;

typedef struct {
	int8_t nplayers, width, height, per_shape;
	int8_t stage;			/* LinkStage */
	int8_t current;			/* seat rolling or placing */
	int8_t face;			/* last die face for `current`, -1 none */
	int8_t starter;			/* who won the roll-off, -1 before */
	uint32_t retired;		/* bit per seat that forfeited */
	int16_t npieces;
	int16_t turns;			/* turns begun (rolls for a shape) */
	int16_t score[LINK_MAX_PLAYERS];
	int16_t link_total[LINK_MAX_PLAYERS];	/* sum of group sizes >= 3 */
	int8_t supply[LINK_MAX_PLAYERS][LINK_SHAPES];
	Board board;
	/* Height of each column: one above its highest filled cell. */
	int8_t colh[LINK_MAX_WIDTH];
	/* Piece index + 1 per cell, 0 when empty. */
	uint8_t cell[LINK_MAX_HEIGHT][LINK_MAX_WIDTH];
	LinkPiece piece[LINK_MAX_PIECES];
	/* Union-find over pieces, each set one linked group of one owner. */
	int16_t parent[LINK_MAX_PIECES];
	int16_t size[LINK_MAX_PIECES];
} LinkState;

extern const Variant variant_link;

/* The die face of a free shape (I O T L S -> 0..4). */
int link_shape_face(PieceKind free_shape);

/* Pack and unpack a placement. */
Move link_move(PieceKind kind, int rot, int x);
void link_move_unpack(Move m, PieceKind *kind, int *rot, int *x);

/*
 * Where a placement lands: OUT *y the row of its bounding box's bottom.
 * False when it leaves the tower (sideways or above the top).
 */
bool link_landing(const LinkState *s, Move m, int *y);

/* Empty cells a placement would leave under it (before the 0/1/2 cap). */
int link_gaps(const LinkState *s, Move m);

/* Points a placement by the current player would score, gain minus penalty. */
int link_move_points(const LinkState *s, Move m);

/* The size in pieces of `seat`'s largest group (0 with no pieces). */
int link_largest_group(const LinkState *s, int seat);

/* Whether `seat` could place any piece left in their supply. */
bool link_can_place_any(const LinkState *s, int seat);

#endif
