/* Tests for engine/piece: orientation counts and shapes. */
#include <glib.h>

#include "piece.h"

static void test_rotation_counts(void)
{
	/* rules.md: under rotation I 2, O 1, T 4, S 2, Z 2, L 4, J 4. */
	static const int want[PIECE_COUNT] = {2, 1, 4, 4, 4, 2, 2};
	int total = 0;

	for (int k = 0; k < PIECE_COUNT; k++) {
		g_assert_cmpint(piece_rotations((PieceKind)k), ==, want[k]);
		total += want[k];
	}
	g_assert_cmpint(total, ==, PIECE_ORIENTATIONS);
}

static void test_free_counts(void)
{
	/* With reflection the five free shapes have I 2, O 1, T 4, S 4, L 8. */
	const Orientation *os[8];

	g_assert_cmpint(piece_free_orientations(PIECE_I, os), ==, 2);
	g_assert_cmpint(piece_free_orientations(PIECE_O, os), ==, 1);
	g_assert_cmpint(piece_free_orientations(PIECE_T, os), ==, 4);
	g_assert_cmpint(piece_free_orientations(PIECE_S, os), ==, 4);
	g_assert_cmpint(piece_free_orientations(PIECE_L, os), ==, 8);
	g_assert_cmpint(piece_free(PIECE_J), ==, PIECE_L);
	g_assert_cmpint(piece_free(PIECE_Z), ==, PIECE_S);
	g_assert_cmpint(piece_free(PIECE_T), ==, PIECE_T);
}

/* Draw an orientation as rows, top first, for comparison with a picture. */
static char *draw(const Orientation *o)
{
	GString *s = g_string_new(NULL);

	for (int y = o->height - 1; y >= 0; y--) {
		for (int x = 0; x < o->width; x++) {
			gboolean on = FALSE;
			for (int i = 0; i < 4; i++)
				on |= o->x[i] == x && o->y[i] == y;
			g_string_append_c(s, on ? '#' : '.');
		}
		if (y)
			g_string_append_c(s, '/');
	}
	return g_string_free(s, FALSE);
}

static void test_shapes(void)
{
	/* Spawn states of rules.md, and clockwise turns of them. */
	static const struct {
		PieceKind kind;
		int rot;
		const char *picture;
	} cases[] = {
		{PIECE_T, 0, ".#./###"}, {PIECE_T, 1, "#./##/#."},
		{PIECE_T, 2, "###/.#."}, {PIECE_T, 3, ".#/##/.#"},
		{PIECE_L, 0, "..#/###"}, {PIECE_L, 1, "#./#./##"},
		{PIECE_J, 0, "#../###"}, {PIECE_J, 1, "##/#./#."},
		{PIECE_S, 0, ".##/##."}, {PIECE_Z, 0, "##./.##"},
		{PIECE_S, 1, "#./##/.#"}, {PIECE_Z, 1, ".#/##/#."},
		{PIECE_I, 0, "####"}, {PIECE_I, 1, "#/#/#/#"}, {PIECE_O, 0, "##/##"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = draw(piece_orientation(cases[i].kind, cases[i].rot));
		g_assert_cmpstr(got, ==, cases[i].picture);
	}
}

static void test_distinct_and_normalized(void)
{
	const Orientation *all = piece_all_orientations();

	for (int i = 0; i < PIECE_ORIENTATIONS; i++) {
		int minx = 9, miny = 9, maxx = -1, maxy = -1;
		for (int c = 0; c < 4; c++) {
			minx = MIN(minx, all[i].x[c]);
			miny = MIN(miny, all[i].y[c]);
			maxx = MAX(maxx, all[i].x[c]);
			maxy = MAX(maxy, all[i].y[c]);
		}
		g_assert_cmpint(minx, ==, 0);
		g_assert_cmpint(miny, ==, 0);
		g_assert_cmpint(maxx + 1, ==, all[i].width);
		g_assert_cmpint(maxy + 1, ==, all[i].height);
		for (int j = 0; j < i; j++) {
			g_autofree char *a = draw(&all[i]);
			g_autofree char *b = draw(&all[j]);
			g_assert_cmpstr(a, !=, b);
		}
	}
}

static void test_letters(void)
{
	for (int k = 0; k < PIECE_COUNT; k++) {
		g_assert_cmpint(piece_from_letter(piece_letter((PieceKind)k)), ==, k);
		g_assert_cmpint(piece_from_letter((char)g_ascii_tolower(piece_letter((PieceKind)k))), ==, k);
	}
	g_assert_cmpint(piece_from_letter('X'), ==, PIECE_NONE);
	g_assert_cmpint(piece_letter(PIECE_NONE), ==, '?');
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/piece/rotations/count", test_rotation_counts);
	g_test_add_func("/piece/free/count", test_free_counts);
	g_test_add_func("/piece/shapes", test_shapes);
	g_test_add_func("/piece/distinct", test_distinct_and_normalized);
	g_test_add_func("/piece/letters", test_letters);
	return g_test_run();
}
