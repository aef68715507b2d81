/*
 * tetroll: Tetroll, the roll-and-write game (rules.md, section `tetroll`),
 * as the const table variant_tetroll plus the state and helpers its AI
 * searches with.
 *
 * A game: 1 or 2 players, one sheet each, shared 4d6. Seat 0 starts; turns
 * alternate between the players whose game has not ended. A turn is a
 * chain of decisions by the same player with chance moves between them:
 *
 *   roll     chance: the dice to be rolled (4, or the rerolled subset);
 *   dice     `keep`, or `reroll:VALUES:bN`: reroll the dice showing VALUES
 *            and pay by crossing out the first prize of bonus #N (one of
 *            the player's unfinished bonuses whose first prize is still
 *            open). Skipped when no bonus can pay;
 *   place    a placement of the shape the dice select (on a joker, of any
 *            shape), written with the shape's number (6 on a joker);
 *   copy     the cell for a copy space's number;
 *   ring     one ring of bonus #3's prize (asked once per ring);
 *   write    one number and cell of bonus #6's prize (once per number).
 *
 * After `keep`, when the selected shape (on a joker, every shape) fits
 * nowhere, that player's game ends; the other player goes on alone.
 *
 * Effects: writing a number on a special space acts at once (copy, one or
 * two rings of that number's bonus); a filled row scores 10 minus every
 * number already seen earlier in the row, and each such repeat marks a
 * ring of its bonus; a track filled wins its first prize (crossing out the
 * other player's) or the runner-up prize; #3 and #6 prizes act at once.
 * Decisions triggered by one write are resolved before the decisions that
 * were already pending (depth first), in the order they were triggered.
 *
 * Sheet geometry: rows 0..height-1 are the grid; rows height..height+2 are
 * above the dashed line, where up to 3 cells of a piece may stick out; they
 * hold numbers but belong to no row and trigger nothing.
 *
 * Move packing (low 4 bits the kind, see TetrollMoveKind): keep; reroll
 * with a mask over the sorted dice (bits 4..7) and the paying bonus (bits
 * 8..11); place with PieceKind (4..7), rotation (8..11), x (12..17), y of
 * the bounding box's bottom (18..23); copy with x, y (12..17, 18..23);
 * ring with the bonus (4..7); write with the number (4..7), x, y. A chance
 * move is the count of dice (bits 0..3) and their values in the following
 * nibbles. Notation: `keep`, `reroll:366:b2`, `T1@2:5`, `copy@3:7`,
 * `ring:4`, `write:5@3:7`, chance `roll:2336`.
 */
#ifndef TETRARENA_ENGINE_TETROLL_H
#define TETRARENA_ENGINE_TETROLL_H

#include <stdbool.h>
#include <stdint.h>

#include "piece.h"
#include "variant.h"

#define TETROLL_MAX_WIDTH 10
#define TETROLL_MAX_HEIGHT 20
#define TETROLL_ABOVE 3				/* rows above the dashed line */
#define TETROLL_ROWS (TETROLL_MAX_HEIGHT + TETROLL_ABOVE)
#define TETROLL_MAX_PLAYERS 2
#define TETROLL_BONUSES 6
#define TETROLL_DICE 4
#define TETROLL_QUEUE 48			/* pending decisions, more than any chain */
#define TETROLL_MAX_RINGS 20

/* Option indices in variant_tetroll.options. */
enum {
	TETROLL_OPT_WIDTH,
	TETROLL_OPT_HEIGHT,
	TETROLL_OPT_RINGS1,	/* ring counts of bonuses #1..#6 follow in order */
	TETROLL_OPT_RINGS2,
	TETROLL_OPT_RINGS3,
	TETROLL_OPT_RINGS4,
	TETROLL_OPT_RINGS5,
	TETROLL_OPT_RINGS6,
	TETROLL_OPT_RUNNER1,	/* bonus #1's runner-up prize */
	TETROLL_OPT_SPECIALS,	/* 1: the default special-space map, 0: none */
	TETROLL_OPT_COUNT
};

typedef enum {
	TETROLL_STAGE_ROLL,	/* chance: `nroll` dice */
	TETROLL_STAGE_DICE,	/* keep or reroll */
	TETROLL_STAGE_PLACE,	/* place the selected shape */
	TETROLL_STAGE_COPY,	/* queue[0] is a copy */
	TETROLL_STAGE_RING,	/* queue[0] is bonus #3's rings */
	TETROLL_STAGE_WRITE,	/* queue[0] is bonus #6's numbers */
	TETROLL_STAGE_OVER,
} TetrollStage;

typedef enum {
	TETROLL_MOVE_KEEP = 1,
	TETROLL_MOVE_REROLL,
	TETROLL_MOVE_PLACE,
	TETROLL_MOVE_COPY,
	TETROLL_MOVE_RING,
	TETROLL_MOVE_WRITE,
} TetrollMoveKind;

typedef enum {
	TETROLL_TASK_COPY = 1,	/* n: the number to copy */
	TETROLL_TASK_RING,	/* n: rings of other bonuses still to mark */
	TETROLL_TASK_WRITE,	/* n: numbers still to write */
} TetrollTaskKind;

/* A bonus's first prize and what its owner won. */
typedef enum {
	TETROLL_PRIZE_OPEN,	/* track unfinished, first prize available */
	TETROLL_PRIZE_CROSSED,	/* unfinished, first prize crossed out */
	TETROLL_PRIZE_FIRST,	/* finished first: first prize won */
	TETROLL_PRIZE_RUNNER,	/* finished later: runner-up prize won */
} TetrollPrize;

typedef enum {
	TETROLL_SPACE_PLAIN,
	TETROLL_SPACE_RING,
	TETROLL_SPACE_DOUBLE,
	TETROLL_SPACE_COPY,
} TetrollSpace;

/* The game status of one seat. */
typedef enum {
	TETROLL_PLAYING,
	TETROLL_ENDED,		/* the selected shape fitted nowhere */
	TETROLL_RETIRED,	/* forfeited: ranked last */
} TetrollStatus;

typedef struct {
	int8_t kind;		/* TetrollTaskKind */
	int8_t n;
} TetrollTask;

typedef struct {
	uint8_t cell[TETROLL_ROWS][TETROLL_MAX_WIDTH];	/* 0 empty, else 1..6 */
	uint16_t bits[TETROLL_ROWS];			/* bit x set iff cell filled */
	int8_t rings[TETROLL_BONUSES];			/* marked, capped at the track */
	int8_t prize[TETROLL_BONUSES];			/* TetrollPrize */
	int8_t status;					/* TetrollStatus */
	int8_t spare;					/* zero: no padding byte */
} TetrollSheet;

typedef struct {
	int8_t nplayers, width, height, specials, runner1;
	int8_t track[TETROLL_BONUSES];	/* ring counts of the tracks */
	int8_t stage;			/* TetrollStage */
	int8_t current;			/* seat whose turn it is */
	int8_t ndice;			/* dice kept (sorted ascending) */
	int8_t nroll;			/* roll stage: dice to roll */
	int8_t dice[TETROLL_DICE];
	int8_t nqueue;
	TetrollTask queue[TETROLL_QUEUE];	/* pending decisions, front first */
	int16_t turns;			/* turns begun */
	TetrollSheet sheet[TETROLL_MAX_PLAYERS];
} TetrollState;

extern const Variant variant_tetroll;

/* The shape number the dice select: 1..5, or 6 for a joker. Dice sorted. */
int tetroll_dice_shape(const int8_t dice[TETROLL_DICE]);

/* The free shape of shape number 1..5 (I O T L S). */
PieceKind tetroll_shape_piece(int number);

/* The special space at grid cell (x, y) of this game's sheets. */
TetrollSpace tetroll_space(const TetrollState *s, int x, int y);

/* Score of a full row (10 minus every repeat), from the grid's numbers. */
int tetroll_row_score(const TetrollState *s, int seat, int y);

/* Whether grid row y of `seat` is completely filled. */
bool tetroll_row_full(const TetrollState *s, int seat, int y);

/*
 * Score breakdown of `seat` as if the game ended now: OUT rows (sum of the
 * full rows) and bonus[6] (each bonus's end value). Returns the total.
 */
int tetroll_score(const TetrollState *s, int seat, int *rows, int bonus[TETROLL_BONUSES]);

/* Whether the placement (orientation o with lower-left corner x, y) is legal for `seat`. */
bool tetroll_fits(const TetrollState *s, int seat, const Orientation *o, int x, int y);

/* Whether free shape `shape` (I O T L S) has any legal placement for `seat`. */
bool tetroll_shape_fits(const TetrollState *s, int seat, PieceKind shape);

/* Whether `seat` may pay a reroll with bonus index b (0..5). */
bool tetroll_can_pay(const TetrollState *s, int seat, int b);

/* Pack and unpack moves. */
Move tetroll_move_place(PieceKind kind, int rot, int x, int y);
Move tetroll_move_reroll(unsigned mask, int bonus);
Move tetroll_move_copy(int x, int y);
Move tetroll_move_ring(int bonus);
Move tetroll_move_write(int number, int x, int y);
Move tetroll_move_keep(void);
static inline int tetroll_move_kind(Move m) { return (int)(m & 0xf); }

/* Chance move for rolling n dice with these values. */
Move tetroll_move_roll(int n, const int *values);

/*
 * Every placement of `seat` for free shape `shape` as place moves. OUT: out,
 * room for 8 * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT moves. Returns the count.
 */
int tetroll_placements(const TetrollState *s, int seat, PieceKind shape, Move *out);

#endif
