/* Tests for bots/linkmc (playouts of whole games for link at 3-4 players). */
#include <glib.h>

#include "bots/linkmc.h"
#include "link.h"

/* A link state for `players` seats, seat 0 to place a piece for `roll`. */
static void fixture(LinkState *s, int players, const char *roll, const char *pieces)
{
	VariantConfig cfg;
	GString *text = g_string_new(NULL);

	g_string_append_printf(text, "players=%d width=10 height=20 stage=place current=0 roll=%s scores=",
			       players, roll);
	for (int p = 0; p < players; p++)
		g_string_append(text, p ? ",0" : "0");
	g_string_append(text, " supply=");
	for (int p = 0; p < players; p++)
		g_string_append(text, p ? ",I5O5T5L5S5" : "I5O5T5L5S5");
	g_string_append_printf(text, " retired=- board=x pieces=%s", pieces);
	variant_config_default(&variant_link, players, &cfg);
	gboolean ok = variant_link.state_parse(s, &cfg, text->str);
	g_string_free(text, TRUE);
	g_assert_true(ok);
}

/* With two players there is nothing to model: the move is linkai's. */
static void test_two_players(void)
{
	LinkState s;
	LinkMc mc;
	LinkAi ai;
	Rng a, b;

	fixture(&s, 2, "T", "0:I0@0,1:O0@6,0:T0@0,1:S0@4,0:L1@8");
	linkmc_init(&mc);
	mc.search.depth = 3;
	linkai_init(&ai);
	ai.depth = 3;
	rng_seed(&a, 7);
	rng_seed(&b, 7);
	Move m = linkmc_choose(&variant_link, &s, 0, 1000000, &a, &mc);
	g_assert_cmpint(mc.played, ==, 0);
	g_assert_cmpint(m, ==, linkai_choose(&variant_link, &s, 0, 1000000, &b, &ai));
	/* --mc-players 2: played out there too */
	mc.min_players = 2;
	mc.playouts = 3;
	linkmc_choose(&variant_link, &s, 0, 1000000, &a, &mc);
	g_assert_cmpint(mc.played, ==, 3);
}

/*
 * With three players and time to spare every kept placement is played out
 * the set number of times, the move is one of the kept (linkai_rank's
 * best), and the same Rng gives the same move.
 */
static void test_three_players(void)
{
	LinkState s;
	LinkMc mc;
	LinkAiScored sc[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	Rng rng;

	fixture(&s, 3, "T", "0:I0@0,1:O0@6,2:T0@0,0:S0@4,1:L1@8,2:I1@3");
	linkmc_init(&mc);
	mc.playouts = 12;
	mc.keep = 4;
	rng_seed(&rng, 11);
	Move m = linkmc_choose(&variant_link, &s, 0, 1000000, &rng, &mc);
	g_assert_cmpint(mc.played, ==, 12);
	LinkAi ranker = mc.rank;
	int n = linkai_rank(&ranker, &s, 0, sc);
	g_assert_cmpint(n, >, mc.keep);
	bool kept = false;
	for (int i = 0; i < mc.keep; i++)
		kept |= sc[i].move == m;
	g_assert_true(kept);
	for (int i = 1; i < n; i++)
		g_assert_cmpint(sc[i - 1].value, >=, sc[i].value);
	rng_seed(&rng, 11);
	g_assert_cmpint(linkmc_choose(&variant_link, &s, 0, 1000000, &rng, &mc), ==, m);
	/* No time: one round of playouts still gives every candidate a count. */
	rng_seed(&rng, 11);
	linkmc_choose(&variant_link, &s, 0, 1, &rng, &mc);
	g_assert_cmpint(mc.played, ==, 1);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/linkmc/two-players", test_two_players);
	g_test_add_func("/linkmc/three-players", test_three_players);
	return g_test_run();
}
