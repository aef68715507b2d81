/*
 * drawing: the replay page's drawing data. See drawing.h.
 */
#include "drawing.h"

#include <string.h>

#include "json.h"
#include "matrix.h"
#include "srs.h"
#include "tetroll.h"
#include "text.h"

static void owners_clear(Drawing *d)
{
	memset(d->cell, -1, sizeof(d->cell));
}

void drawing_init(Drawing *d, const Variant *v, const void *state)
{
	owners_clear(d);
	d->round = 0;
	d->lost = false;
	if (v == &variant_matrix) {
		const MatrixState *m = state;

		d->round = m->round;
		/* The starting field's cells are nobody's. */
		for (int y = 0; y < m->board.height; y++)
			for (int x = 0; x < m->board.width; x++)
				if (board_get(&m->board, x, y))
					d->cell[y][x] = DRAWING_START;
	}
}

/* The matrix round just played: mark its placements, clear full rows as
 * matrix_resolve() does, and check the field against the engine's. */
static void owners_round(Drawing *d, const MatrixState *m)
{
	Board b = m->board;
	BoardRow placed[BOARD_MAX_HEIGHT] = {0};
	uint64_t cleared;

	for (int y = 0; y < b.height; y++) {
		b.rows[y] = 0;
		for (int x = 0; x < b.width; x++)
			if (d->cell[y][x] >= 0)
				b.rows[y] |= (BoardRow)(1u << x);
	}
	for (int p = 0; p < m->nplayers; p++) {
		SrsPos pos[MATRIX_MAX_HELD];
		int n = matrix_move_positions(m->last_move[p], pos);

		for (int k = 0; k < n; k++) {
			int cx[4], cy[4];

			srs_cells(&pos[k], cx, cy);
			for (int i = 0; i < 4; i++) {
				/* Outside, or filled before this round: not this field. */
				if (!board_inside(&b, cx[i], cy[i]) || board_get(&b, cx[i], cy[i])) {
					d->lost = true;
					return;
				}
				int8_t *c = &d->cell[cy[i]][cx[i]];
				*c = *c >= 0 ? DRAWING_SHARED : (int8_t)p;
				placed[cy[i]] |= (BoardRow)(1u << cx[i]);
			}
		}
	}
	for (int y = 0; y < b.height; y++)
		b.rows[y] |= placed[y];
	cleared = board_clear_full_rows(&b);
	for (int y = 0, to = 0; y < b.height; y++) {
		if (cleared >> y & 1u)
			continue;
		if (to != y)
			memcpy(d->cell[to], d->cell[y], sizeof(d->cell[y]));
		to++;
	}
	for (int y = b.height - __builtin_popcountll(cleared); y < b.height; y++)
		memset(d->cell[y], -1, sizeof(d->cell[y]));
	d->lost = memcmp(b.rows, m->board.rows, sizeof(BoardRow) * (size_t)b.height) != 0;
}

void drawing_layout(const Variant *v, const void *state, GString *s)
{
	if (v != &variant_tetroll)
		return;
	const TetrollState *t = state;
	static const char mark[] = {
		[TETROLL_SPACE_PLAIN] = '.', [TETROLL_SPACE_RING] = 'r',
		[TETROLL_SPACE_DOUBLE] = 'd', [TETROLL_SPACE_COPY] = 'c',
	};

	g_string_append(s, ",\"layout\":\"");
	for (int y = t->height - 1; y >= 0; y--) {
		for (int x = 0; x < t->width; x++)
			g_string_append_c(s, mark[tetroll_space(t, x, y)]);
		if (y)
			g_string_append_c(s, '/');
	}
	g_string_append_c(s, '"');
}

void drawing_step(Drawing *d, const Variant *v, const void *state, GString *s)
{
	char buf[1 << 14];
	Text t;

	text_init(&t, buf, sizeof(buf));
	v->state_format(state, VARIANT_CHANCE, &t);
	g_string_append(s, ",\"st\":");
	json_string(s, buf);
	if (v != &variant_matrix)
		return;
	const MatrixState *m = state;
	if (!d->lost && m->round != d->round) {
		if (m->round == d->round + 1)
			owners_round(d, m);
		else
			d->lost = true;
	}
	d->round = m->round;
	g_string_append(s, ",\"own\":\"");
	for (int y = m->board.height - 1; y >= 0; y--) {
		for (int x = 0; x < m->board.width; x++) {
			int c = d->cell[y][x];
			if (!board_get(&m->board, x, y))
				g_string_append_c(s, '.');
			else if (d->lost || c < 0)
				g_string_append_c(s, '#');
			else
				g_string_append_c(s, c == DRAWING_SHARED ? '*' : c == DRAWING_START ? '+' :
						     (char)('0' + c));
		}
		if (y)
			g_string_append_c(s, '/');
	}
	g_string_append_c(s, '"');
}
