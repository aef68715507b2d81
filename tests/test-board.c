/* Tests for engine/board: fits, drops, clears, heights, as ASCII fixtures. */
#include <glib.h>

#include "board.h"

/* Build a board from rows drawn top first: '#' filled, '.' empty. */
static void board_from(Board *b, const char *const *rows, int nrows)
{
	int width = (int)strlen(rows[0]);

	board_init(b, width, nrows);
	for (int r = 0; r < nrows; r++) {
		g_assert_cmpint((int)strlen(rows[r]), ==, width);
		for (int x = 0; x < width; x++)
			if (rows[r][x] == '#')
				board_set(b, x, nrows - 1 - r, TRUE);
	}
}

static char *board_draw(const Board *b)
{
	GString *s = g_string_new(NULL);

	for (int y = b->height - 1; y >= 0; y--) {
		for (int x = 0; x < b->width; x++)
			g_string_append_c(s, board_get(b, x, y) ? '#' : '.');
		if (y)
			g_string_append_c(s, '/');
	}
	return g_string_free(s, FALSE);
}

static void test_init_sizes(void)
{
	Board b;

	for (int w = 6; w <= BOARD_MAX_WIDTH; w++) {
		board_init(&b, w, BOARD_MAX_HEIGHT);
		g_assert_cmpint(board_count(&b), ==, 0);
		board_set(&b, w - 1, BOARD_MAX_HEIGHT - 1, TRUE);
		g_assert_true(board_get(&b, w - 1, BOARD_MAX_HEIGHT - 1));
		g_assert_false(board_get(&b, w, 0));	/* outside reads empty */
		g_assert_cmpint(board_column_height(&b, w - 1), ==, BOARD_MAX_HEIGHT);
	}
}

static void test_fits(void)
{
	static const char *const rows[] = {
		"......",
		"#.....",
		"##..##",
	};
	Board b;
	const Orientation *o = piece_orientation(PIECE_O, 0);

	board_from(&b, rows, 3);
	g_assert_true(board_fits(&b, o, 2, 0));
	g_assert_false(board_fits(&b, o, 1, 0));	/* overlaps (1,0) */
	g_assert_false(board_fits(&b, o, 5, 0));	/* sticks out right */
	g_assert_false(board_fits(&b, o, 2, 2));	/* sticks out top */
	g_assert_true(board_fits_open_top(&b, o, 2, 2));
	g_assert_false(board_fits_open_top(&b, o, -1, 2));
	g_assert_false(board_fits_open_top(&b, o, 0, 1));	/* (0,1) filled */
}

static void test_drop(void)
{
	/* An overhang: the T must stop on it, not fall into the hole below. */
	static const char *const rows[] = {
		"......",
		"......",
		"......",
		".###..",
		"......",
		"#.....",
	};
	Board b;

	board_from(&b, rows, 6);
	/* I vertical in column 0 lands on the block at (0,0). */
	g_assert_cmpint(board_drop_y(&b, piece_orientation(PIECE_I, 1), 0), ==, 1);
	/* I vertical in column 2 stops on the overhang at y 2. */
	g_assert_cmpint(board_drop_y(&b, piece_orientation(PIECE_I, 1), 2), ==, 3);
	/* T pointing down (rot 2: stem below) at x 3: the bar's left cell, in
	 * column 3, meets the overhang (top at y 2), so the bar rests on y 3
	 * and the stem hangs into (4, 2) beside it, not down to the floor. */
	g_assert_cmpint(board_drop_y(&b, piece_orientation(PIECE_T, 2), 3), ==, 2);
	/* O at x 4 falls to the floor. */
	g_assert_cmpint(board_drop_y(&b, piece_orientation(PIECE_O, 0), 4), ==, 0);
	/* Outside the board. */
	g_assert_cmpint(board_drop_y(&b, piece_orientation(PIECE_O, 0), 5), ==, -1);
}

static void test_clear(void)
{
	static const char *const rows[] = {
		"..#...",
		"######",
		"#.#.#.",
		"######",
	};
	Board b;

	board_from(&b, rows, 4);
	g_assert_true(board_row_full(&b, 0));
	g_assert_false(board_row_full(&b, 1));
	uint64_t mask = board_clear_full_rows(&b);
	g_assert_cmpuint(mask, ==, 0x5);	/* rows 0 and 2 */
	g_autofree char *got = board_draw(&b);
	g_assert_cmpstr(got, ==, "....../....../..#.../#.#.#.");
	g_assert_cmpint(board_count(&b), ==, 4);
	g_assert_cmpint(board_column_height(&b, 2), ==, 2);
	g_assert_cmpint(board_column_height(&b, 1), ==, 0);
}

static void test_place(void)
{
	Board b;

	board_init(&b, 10, 20);
	board_place(&b, piece_orientation(PIECE_T, 0), 3, 0);
	g_assert_cmpint(board_count(&b), ==, 4);
	g_assert_true(board_get(&b, 4, 1));
	g_assert_false(board_get(&b, 3, 1));
	g_assert_cmpint(board_column_height(&b, 4), ==, 2);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/board/init/sizes", test_init_sizes);
	g_test_add_func("/board/fits", test_fits);
	g_test_add_func("/board/drop", test_drop);
	g_test_add_func("/board/clear", test_clear);
	g_test_add_func("/board/place", test_place);
	return g_test_run();
}
