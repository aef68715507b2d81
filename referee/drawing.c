/*
 * drawing: the replay page's drawing data. See drawing.h.
 */
#include "drawing.h"

#include <string.h>

#include "json.h"
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
	if (v->field) {
		VariantField f;

		v->field(state, &f);
		d->round = f.round;
		/* The starting field's cells are nobody's. */
		for (int y = 0; y < f.board->height; y++)
			for (int x = 0; x < f.board->width; x++)
				if (board_get(f.board, x, y))
					d->cell[y][x] = DRAWING_START;
	}
}

/* The round just played on a shared field: mark its placements, clear full
 * rows as the engine does (the Main Match's matrix_resolve()), and check the
 * field against the engine's. */
static void owners_round(Drawing *d, const Variant *v, const void *state, const VariantField *f)
{
	Board b = *f->board;
	BoardRow placed[BOARD_MAX_HEIGHT] = {0};
	uint64_t cleared;

	for (int y = 0; y < b.height; y++) {
		b.rows[y] = 0;
		for (int x = 0; x < b.width; x++)
			if (d->cell[y][x] >= 0)
				b.rows[y] |= (BoardRow)(1u << x);
	}
	for (int p = 0; p < f->nplayers; p++) {
		int cx[VARIANT_MAX_ROUND_CELLS], cy[VARIANT_MAX_ROUND_CELLS];
		int n = v->round_cells(state, p, cx, cy);

		for (int i = 0; i < n; i++) {
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
	d->lost = memcmp(b.rows, f->board->rows, sizeof(BoardRow) * (size_t)b.height) != 0;
}

void drawing_layout(const Variant *v, const void *state, GString *s)
{
	char buf[1 << 14];
	Text t;

	if (!v->layout)
		return;
	text_init(&t, buf, sizeof(buf));
	v->layout(state, &t);
	g_string_append(s, ",\"layout\":\"");
	g_string_append(s, buf);
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
	if (!v->field)
		return;
	VariantField f;
	v->field(state, &f);
	if (!d->lost && f.round != d->round) {
		if (f.round == d->round + 1)
			owners_round(d, v, state, &f);
		else
			d->lost = true;
	}
	d->round = f.round;
	g_string_append(s, ",\"own\":\"");
	for (int y = f.board->height - 1; y >= 0; y--) {
		for (int x = 0; x < f.board->width; x++) {
			int c = d->cell[y][x];
			if (!board_get(f.board, x, y))
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
