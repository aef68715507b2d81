/*
 * srs: the Super Rotation System of guideline Tetris, and the move
 * generator that finds every final position a piece can reach under it.
 *
 * A position is a piece kind, an SRS rotation state (0 spawn, R after one
 * clockwise turn, 2, L) and the board cell of its rotation point. The cells
 * of each state relative to the rotation point are those of rules.md: state
 * 0 as listed there, each clockwise turn (x, y) -> (y, -x). I and O turn
 * about the centre of their 4x4 and 2x2 boxes, as in the guideline, which
 * the standard kick tables assume: their R, 2 and L cells are the turned
 * cells shifted by one column or row (O then covers the same four cells in
 * every state, and "never kicks": its only test is (0, 0)).
 *
 * A rotation tries the five standard offsets of its kick table (JLSTZ or I)
 * in order and keeps the first at which the piece fits.
 *
 * Collision: a cell collides when it is beside the board, below row 0, at
 * or above the board's height (the top of the buffer), or filled.
 *
 * Nothing here allocates or keeps state; the generator uses a fixed amount
 * of stack.
 */
#ifndef TETRARENA_ENGINE_SRS_H
#define TETRARENA_ENGINE_SRS_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "piece.h"

enum { SRS_ROT_0, SRS_ROT_R, SRS_ROT_2, SRS_ROT_L, SRS_ROTS };

/* Most final positions srs_landings() can report for any board. */
#define SRS_MAX_LANDINGS (SRS_ROTS * (BOARD_MAX_WIDTH + 4) * BOARD_MAX_HEIGHT)

typedef struct {
	int8_t kind;	/* PieceKind */
	int8_t rot;	/* SRS_ROT_0 .. SRS_ROT_L */
	int8_t x, y;	/* rotation point */
} SrsPos;

/* The letter of a rotation state: '0', 'R', '2', 'L'. */
char srs_rot_letter(int rot);

/* The rotation state of a letter ('0' 'R' '2' 'L', or '1' '3'), or -1. */
int srs_rot_from_letter(char c);

/* OUT: the four cells of `kind` in state `rot` relative to its rotation point. */
void srs_offsets(PieceKind kind, int rot, int dx[4], int dy[4]);

/* OUT: the four board cells of position p. */
void srs_cells(const SrsPos *p, int x[4], int y[4]);

/* Whether p collides with the board (see above). */
bool srs_collides(const Board *b, const SrsPos *p);

/*
 * Turn p clockwise (dir 1) or counter-clockwise (dir -1) with wall kicks.
 * On success p is updated and true returned; when every test collides p is
 * unchanged and false returned. p must not collide.
 */
bool srs_rotate(const Board *b, SrsPos *p, int dir);

/*
 * The spawn position of `kind`: state 0 with its rotation point at (x, y),
 * risen row by row while it collides. False when it collides all the way
 * to the top of the board (OUT *out is then undefined).
 */
bool srs_spawn(const Board *b, PieceKind kind, int x, int y, SrsPos *out);

/*
 * Whether p, which does not collide, is resting under the resting rule: at
 * least one of its cells lies directly on top of a filled cell (the floor
 * does not count).
 */
bool srs_rests(const Board *b, const SrsPos *p);

/*
 * Every final position reachable from `spawn` by left, right, soft drop
 * (one row down) and both rotations: positions that do not collide and
 * cannot move down. With `resting`, only those for which srs_rests() holds.
 * Each (rot, x, y) appears once; the order is that of a breadth-first
 * search and depends only on the board and the spawn. OUT: out[], room for
 * SRS_MAX_LANDINGS. Returns the count. The board's height must be at most
 * 62 rows.
 */
int srs_landings(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out);

/*
 * The first generator, kept as the reference srs_landings() is tested and
 * benchmarked against (test-srs, bench-srs): the same output in the same
 * order, slower.
 */
int srs_landings_reference(const Board *b, const SrsPos *spawn, bool resting, SrsPos *out);

/* Whether position p is among srs_landings(b, spawn, resting). */
bool srs_reachable(const Board *b, const SrsPos *spawn, bool resting, const SrsPos *p);

#endif
