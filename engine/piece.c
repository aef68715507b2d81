/* piece: constant orientation tables, generated once from the SRS spawn
 * states of rules.md by turning (x, y) -> (y, -x) and normalizing. */
#include "piece.h"

#include <assert.h>
#include <stddef.h>

static const Orientation orientations[PIECE_ORIENTATIONS] = {
	{PIECE_I, 0, 4, 1, {0, 1, 2, 3}, {0, 0, 0, 0}},
	{PIECE_I, 1, 1, 4, {0, 0, 0, 0}, {0, 1, 2, 3}},
	{PIECE_O, 0, 2, 2, {0, 1, 0, 1}, {0, 0, 1, 1}},
	{PIECE_T, 0, 3, 2, {0, 1, 2, 1}, {0, 0, 0, 1}},
	{PIECE_T, 1, 2, 3, {0, 0, 1, 0}, {0, 1, 1, 2}},
	{PIECE_T, 2, 3, 2, {1, 0, 1, 2}, {0, 1, 1, 1}},
	{PIECE_T, 3, 2, 3, {1, 0, 1, 1}, {0, 1, 1, 2}},
	{PIECE_J, 0, 3, 2, {0, 1, 2, 0}, {0, 0, 0, 1}},
	{PIECE_J, 1, 2, 3, {0, 0, 0, 1}, {0, 1, 2, 2}},
	{PIECE_J, 2, 3, 2, {2, 0, 1, 2}, {0, 1, 1, 1}},
	{PIECE_J, 3, 2, 3, {0, 1, 1, 1}, {0, 0, 1, 2}},
	{PIECE_L, 0, 3, 2, {0, 1, 2, 2}, {0, 0, 0, 1}},
	{PIECE_L, 1, 2, 3, {0, 1, 0, 0}, {0, 0, 1, 2}},
	{PIECE_L, 2, 3, 2, {0, 0, 1, 2}, {0, 1, 1, 1}},
	{PIECE_L, 3, 2, 3, {1, 1, 0, 1}, {0, 1, 2, 2}},
	{PIECE_S, 0, 3, 2, {0, 1, 1, 2}, {0, 0, 1, 1}},
	{PIECE_S, 1, 2, 3, {1, 0, 1, 0}, {0, 1, 1, 2}},
	{PIECE_Z, 0, 3, 2, {1, 2, 0, 1}, {0, 0, 1, 1}},
	{PIECE_Z, 1, 2, 3, {0, 0, 1, 1}, {0, 1, 1, 2}},
};

/* Index of each kind's first orientation, and one past the last. */
static const int8_t first[PIECE_COUNT + 1] = {0, 2, 3, 7, 11, 15, 17, 19};

static const char letters[PIECE_COUNT] = {'I', 'O', 'T', 'J', 'L', 'S', 'Z'};

char piece_letter(PieceKind kind)
{
	if (kind < 0 || kind >= PIECE_COUNT)
		return '?';
	return letters[kind];
}

PieceKind piece_from_letter(char c)
{
	if (c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	for (int k = 0; k < PIECE_COUNT; k++)
		if (letters[k] == c)
			return (PieceKind)k;
	return PIECE_NONE;
}

int piece_rotations(PieceKind kind)
{
	assert(kind >= 0 && kind < PIECE_COUNT);
	return first[kind + 1] - first[kind];
}

const Orientation *piece_orientation(PieceKind kind, int rot)
{
	assert(kind >= 0 && kind < PIECE_COUNT);
	assert(rot >= 0 && rot < piece_rotations(kind));
	return &orientations[first[kind] + rot];
}

const Orientation *piece_all_orientations(void)
{
	return orientations;
}

PieceKind piece_free(PieceKind kind)
{
	if (kind == PIECE_J)
		return PIECE_L;
	if (kind == PIECE_Z)
		return PIECE_S;
	return kind;
}

int piece_free_orientations(PieceKind shape, const Orientation **out)
{
	int n = 0;

	assert(piece_free(shape) == shape);
	for (int k = 0; k < PIECE_COUNT; k++) {
		if (piece_free((PieceKind)k) != shape)
			continue;
		for (int i = first[k]; i < first[k + 1]; i++)
			out[n++] = &orientations[i];
	}
	return n;
}
