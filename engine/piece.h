/*
 * piece: the seven one-sided tetrominoes and their orientations.
 *
 * Coordinates: x grows to the right, y grows upward, both from 0. An
 * orientation is a piece turned clockwise `rot` times from its spawn state
 * (the SRS state 0 of rules.md) and then shifted so that its lowest cell
 * sits on y 0 and its leftmost cell on x 0. Orientations that cover the same
 * cells are one orientation: I, S and Z have 2, O has 1, T, J and L have 4,
 * 19 in all.
 *
 * Games that allow flipping (link, tetroll) play the five free shapes I O T
 * L S: a flipped L is a J and a flipped S is a Z, so the free shape L has 8
 * orientations (its own 4 and J's) and S has 4. piece_free() names the free
 * shape a one-sided piece belongs to.
 *
 * Everything here is constant data: no state, no allocation.
 */
#ifndef TETRARENA_ENGINE_PIECE_H
#define TETRARENA_ENGINE_PIECE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
	PIECE_I,
	PIECE_O,
	PIECE_T,
	PIECE_J,
	PIECE_L,
	PIECE_S,
	PIECE_Z,
	PIECE_COUNT,
	PIECE_NONE = -1
} PieceKind;

#define PIECE_ORIENTATIONS 19	/* distinct one-sided orientations in all */

typedef struct {
	int8_t kind;		/* PieceKind of this orientation */
	int8_t rot;		/* clockwise turns from spawn, 0..piece_rotations-1 */
	int8_t width, height;	/* bounding box */
	int8_t x[4], y[4];	/* cells, sorted by y then x, min x = min y = 0 */
} Orientation;

/* The letter of a piece, 'I' 'O' 'T' 'J' 'L' 'S' 'Z'; '?' for anything else. */
char piece_letter(PieceKind kind);

/* The piece named by a letter (upper or lower case), or PIECE_NONE. */
PieceKind piece_from_letter(char c);

/* How many distinct orientations a one-sided piece has (1, 2 or 4). */
int piece_rotations(PieceKind kind);

/*
 * The orientation of `kind` after `rot` clockwise turns; rot must be below
 * piece_rotations(kind). Never NULL for valid arguments.
 */
const Orientation *piece_orientation(PieceKind kind, int rot);

/* All 19 orientations, grouped by kind in PieceKind order, rot ascending. */
const Orientation *piece_all_orientations(void);

/*
 * The free shape a one-sided piece belongs to when flipping is allowed:
 * J -> L, Z -> S, every other piece itself.
 */
PieceKind piece_free(PieceKind kind);

/*
 * The orientations of a free shape when flipping is allowed, written to
 * `out` (room for 8). Returns the count: I 2, O 1, T 4, L 8,
 * S 4, in PieceKind order (J before L, S before Z). `shape` must be one of
 * I O T L S.
 */
int piece_free_orientations(PieceKind shape, const Orientation **out);

#endif
