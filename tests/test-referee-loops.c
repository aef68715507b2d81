/*
 * test-referee-loops: the simultaneous and real-time loops of game_run(),
 * on two toy variants defined here (the engine registers neither):
 *
 *   toysim  rounds of a simultaneous pick of 1..3; a player scores the
 *           number picked unless the other picked the same. A chance
 *           move before each round adds a bonus 0..2 to every score.
 *   toyrt   a pile of numbered tokens taken in real time: the only legal
 *           move is the lowest token left, so two fast bots race for it
 *           and the slower one is answered `rejected`. halt() ends it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "referee-testutil.h"
#include "referee/gamelog.h"
#include "referee/replay.h"

/* ---- toysim ------------------------------------------------------------ */

typedef struct {
	int n, rounds, round;
	int chance_done;	/* the round's bonus has been drawn */
	uint32_t retired;
	int score[VARIANT_MAX_PLAYERS];
} SimState;

static const VariantOption sim_options[] = {{"rounds", 5, 1, 100, "rounds to play"}};

static void sim_init(void *st, const VariantConfig *cfg)
{
	SimState *s = st;

	memset(s, 0, sizeof(*s));
	s->n = cfg->nplayers;
	s->rounds = cfg->opt[0];
}

static VariantPhase sim_phase(const void *st, uint32_t *mask)
{
	const SimState *s = st;

	*mask = 0;
	if (s->round >= s->rounds || s->retired == (1u << s->n) - 1)
		return VARIANT_PHASE_OVER;
	if (!s->chance_done)
		return VARIANT_PHASE_CHANCE;
	*mask = ((1u << s->n) - 1) & ~s->retired;
	return VARIANT_PHASE_SIMULTANEOUS;
}

static int sim_legal(const void *st, int player, Move *out)
{
	(void)st;
	int n = 0;
	for (int v = player == VARIANT_CHANCE ? 0 : 1; v <= 3 && (player != VARIANT_CHANCE || v <= 2); v++)
		out[n++] = (Move)v;
	return n;
}

static void sim_apply(void *st, int player, Move m)
{
	SimState *s = st;

	g_assert_cmpint(player, ==, VARIANT_CHANCE);
	for (int p = 0; p < s->n; p++)
		s->score[p] += (int)m;
	s->chance_done = 1;
}

static Move sim_chance(const void *st, Rng *rng)
{
	(void)st;
	return rng_below(rng, 3);
}

static void sim_joint(void *st, const Move *moves, uint32_t submitted)
{
	SimState *s = st;

	for (int p = 0; p < s->n; p++) {
		if (!(submitted & (1u << p)))
			continue;
		gboolean clash = FALSE;
		for (int q = 0; q < s->n; q++)
			if (q != p && submitted & (1u << q) && moves[q] == moves[p])
				clash = TRUE;
		if (!clash)
			s->score[p] += (int)moves[p];
	}
	s->round++;
	s->chance_done = 0;
}

static void sim_retire(void *st, int player)
{
	((SimState *)st)->retired |= 1u << player;
}

static void sim_scores(const void *st, int *out)
{
	const SimState *s = st;

	for (int p = 0; p < s->n; p++)
		out[p] = s->score[p];
}

/* Both toys rank by score, retired seats last, ties shared. */
static void toy_ranking(int n, uint32_t retired, const int *score, int *rank)
{
	for (int p = 0; p < n; p++) {
		rank[p] = 1;
		for (int q = 0; q < n; q++) {
			gboolean rp = retired >> p & 1, rq = retired >> q & 1;
			if ((rp && !rq) || (rp == rq && score[q] > score[p]))
				rank[p]++;
		}
	}
}

static void sim_ranking(const void *st, int *rank)
{
	const SimState *s = st;

	toy_ranking(s->n, s->retired, s->score, rank);
}

static void sim_format(const void *st, int player, Move m, Text *out)
{
	(void)st;
	text_printf(out, player == VARIANT_CHANCE ? "bonus %d" : "p%d", (int)m);
}

static bool sim_parse(const void *st, int player, const char *text, Move *out)
{
	(void)st;
	int v;
	char tail;
	if (sscanf(text, player == VARIANT_CHANCE ? "bonus %d%c" : "p%d%c", &v, &tail) != 1)
		return false;
	*out = (Move)v;
	return v >= 0 && v <= 3;
}

static void sim_state_format(const void *st, int viewer, Text *out)
{
	const SimState *s = st;

	(void)viewer;
	text_printf(out, "round=%d scores=", s->round);
	for (int p = 0; p < s->n; p++)
		text_printf(out, "%s%d", p ? "," : "", s->score[p]);
}

static bool sim_state_parse(void *st, const VariantConfig *cfg, const char *text)
{
	(void)st, (void)cfg, (void)text;
	return false;
}

static void sim_render(const void *st, bool colour, Text *out)
{
	(void)colour;
	sim_state_format(st, VARIANT_CHANCE, out);
	text_putc(out, '\n');
}

static const Variant toysim = {
	.name = "toysim", .title = "Toy simultaneous", .min_players = 2, .max_players = 4,
	.options = sim_options, .n_options = 1, .state_size = sizeof(SimState), .max_moves = 3,
	.chance_public = true, .fault_policy = VARIANT_FAULT_NOTHING,
	.init = sim_init, .phase = sim_phase, .legal_moves = sim_legal, .apply = sim_apply,
	.chance_sample = sim_chance, .apply_joint = sim_joint, .retire = sim_retire, .halt = NULL,
	.scores = sim_scores, .ranking = sim_ranking, .move_format = sim_format, .move_parse = sim_parse,
	.state_format = sim_state_format, .state_parse = sim_state_parse, .render = sim_render,
};

/* ---- toyrt ------------------------------------------------------------- */

typedef struct {
	int n, tokens, next;
	gboolean halted;
	uint32_t retired;
	int score[VARIANT_MAX_PLAYERS];
} RtState;

static const VariantOption rt_options[] = {{"tokens", 50, 1, 1000000000, "tokens in the pile"}};

static void rt_init(void *st, const VariantConfig *cfg)
{
	RtState *s = st;

	memset(s, 0, sizeof(*s));
	s->n = cfg->nplayers;
	s->tokens = cfg->opt[0];
}

static VariantPhase rt_phase(const void *st, uint32_t *mask)
{
	const RtState *s = st;

	*mask = 0;
	if (s->halted || s->next >= s->tokens || s->retired == (1u << s->n) - 1)
		return VARIANT_PHASE_OVER;
	*mask = ((1u << s->n) - 1) & ~s->retired;
	return VARIANT_PHASE_REALTIME;
}

static int rt_legal(const void *st, int player, Move *out)
{
	const RtState *s = st;

	if (player == VARIANT_CHANCE || s->next >= s->tokens || s->retired >> player & 1)
		return 0;
	out[0] = (Move)s->next;
	return 1;
}

static void rt_apply(void *st, int player, Move m)
{
	RtState *s = st;

	g_assert_cmpint((int)m, ==, s->next);
	s->next++;
	s->score[player]++;
}

static Move rt_chance(const void *st, Rng *rng)
{
	(void)st, (void)rng;
	return 0;
}

static void rt_retire(void *st, int player)
{
	((RtState *)st)->retired |= 1u << player;
}

static void rt_halt(void *st)
{
	((RtState *)st)->halted = TRUE;
}

static void rt_scores(const void *st, int *out)
{
	const RtState *s = st;

	for (int p = 0; p < s->n; p++)
		out[p] = s->score[p];
}

static void rt_ranking(const void *st, int *rank)
{
	const RtState *s = st;

	toy_ranking(s->n, s->retired, s->score, rank);
}

static void rt_format(const void *st, int player, Move m, Text *out)
{
	(void)st, (void)player;
	text_printf(out, "t%d", (int)m);
}

static bool rt_parse(const void *st, int player, const char *text, Move *out)
{
	(void)st, (void)player;
	int v;
	char tail;
	if (sscanf(text, "t%d%c", &v, &tail) != 1 || v < 0)
		return false;
	*out = (Move)v;
	return true;
}

static void rt_state_format(const void *st, int viewer, Text *out)
{
	const RtState *s = st;

	(void)viewer;
	text_printf(out, "next=%d tokens=%d", s->next, s->tokens);
}

static void rt_render(const void *st, bool colour, Text *out)
{
	(void)colour;
	rt_state_format(st, VARIANT_CHANCE, out);
	text_putc(out, '\n');
}

static const Variant toyrt = {
	.name = "toyrt", .title = "Toy real time", .min_players = 2, .max_players = 4,
	.options = rt_options, .n_options = 1, .state_size = sizeof(RtState), .max_moves = 1,
	.chance_public = true, .fault_policy = VARIANT_FAULT_FORFEIT,
	.init = rt_init, .phase = rt_phase, .legal_moves = rt_legal, .apply = rt_apply,
	.chance_sample = rt_chance, .apply_joint = NULL, .retire = rt_retire, .halt = rt_halt,
	.scores = rt_scores, .ranking = rt_ranking, .move_format = rt_format, .move_parse = rt_parse,
	.state_format = rt_state_format, .state_parse = sim_state_parse, .render = rt_render,
};

static const Variant *const toys[] = {&toysim, &toyrt, NULL};

/* ---- the tests ----------------------------------------------------------- */

static void setup(Fixture *f, const Variant *v)
{
	const TimeControl tc = {.bank = 100000, .inc = 0, .move = 300, .start = 2000, .grace = 50};

	test_fixture_init(f, v, 11, &tc, "loops");
}

static void teardown(Fixture *f)
{
	if (g_getenv("KEEPLOG")) {
		g_autofree char *t = NULL;
		g_file_get_contents(f->log, &t, NULL, NULL);
		g_printerr("%s", t);
	}
	test_fixture_clear(f);
}

static void run_and_verify(Fixture *f)
{
	g_autoptr(GError) err = NULL;

	g_assert_true(game_run(&f->spec, &f->res, &err));
	g_assert_no_error(err);
	g_assert_cmpint(test_count_survivors(f->marker), ==, 0);
	g_autoptr(GameLog) log = gamelog_read_with(f->log, toys, &err);
	g_assert_no_error(err);
	gboolean ok = replay_verify(log, &err);
	g_assert_no_error(err);
	g_assert_true(ok);
}

static void test_sim_rounds(void)
{
	Fixture f;

	setup(&f, &toysim);
	variant_option_set(&toysim, &f.spec.config, "rounds", "4");
	test_seat(&f, 0, "legal", 0);
	test_seat(&f, 1, "legal", 0);
	run_and_verify(&f);
	/* both pick 1 every round: they clash, only the bonuses count */
	g_assert_cmpint(f.res.seat[0].score, ==, f.res.seat[1].score);
	g_assert_cmpint(f.res.seat[0].first_fault, ==, -1);
	g_assert_cmpint(f.res.seat[1].first_fault, ==, -1);
	g_assert_cmpint(f.res.seat[0].moves, ==, 4);
	g_assert_cmpint(f.res.plies, ==, 8);
	/* Nobody hears of a move before the round is complete: before the
	 * r-th `joint` line, each seat has been told of r-1 rounds. */
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f.log, &text, NULL, NULL));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	int rounds = 0, told[2] = {0, 0};
	for (int i = 0; lines[i]; i++) {
		if (strcmp(lines[i], "joint") == 0) {
			g_assert_cmpint(told[0], ==, rounds);
			g_assert_cmpint(told[1], ==, rounds);
			rounds++;
		}
		told[0] += strstr(lines[i], "> 0 ") == lines[i] && strstr(lines[i], " update 1 p");
		told[1] += strstr(lines[i], "> 1 ") == lines[i] && strstr(lines[i], " update 0 p");
	}
	g_assert_cmpint(rounds, ==, 4);
	teardown(&f);
}

static void test_sim_fault_nothing(void)
{
	Fixture f;

	setup(&f, &toysim);
	test_seat(&f, 0, "hang", 1);
	test_seat(&f, 1, "legal", 0);
	run_and_verify(&f);
	/* policy `nothing`: the hung seat times out, misses the rounds after,
	 * and the game still ends */
	g_assert_cmpint(f.res.seat[0].faults[GAME_FAULT_TIMEOUT], >=, 1);
	g_assert_cmpint(f.res.seat[1].first_fault, ==, -1);
	g_assert_cmpint(f.res.seat[1].moves, ==, 5);
	g_assert_cmpint(f.res.seat[1].score, >, f.res.seat[0].score);
	teardown(&f);
}

static void test_sim_crash(void)
{
	Fixture f;

	setup(&f, &toysim);
	test_seat(&f, 0, "crash", 2);
	test_seat(&f, 1, "legal", 0);
	run_and_verify(&f);
	g_assert_cmpint(f.res.seat[0].first_fault, ==, GAME_FAULT_CRASH);
	g_assert_cmpint(f.res.seat[1].moves, ==, 5);
	teardown(&f);
}

static void test_rt_race(void)
{
	Fixture f;

	setup(&f, &toyrt);
	variant_option_set(&toyrt, &f.spec.config, "tokens", "200");
	test_seat(&f, 0, "legal", 0);
	test_seat(&f, 1, "legal", 0);
	run_and_verify(&f);
	g_assert_cmpint(f.res.seat[0].score + f.res.seat[1].score, ==, 200);
	/* a move overtaken by the other bot's is rejected, never a fault */
	g_assert_cmpint(f.res.seat[0].first_fault, ==, -1);
	g_assert_cmpint(f.res.seat[1].first_fault, ==, -1);
	g_assert_cmpint(f.res.end, ==, GAME_END_RULES);
	teardown(&f);
}

static void test_rt_limit(void)
{
	Fixture f;

	setup(&f, &toyrt);
	variant_option_set(&toyrt, &f.spec.config, "tokens", "1000000000");
	f.spec.time.game = (gint64)(300 * test_time_scale());
	test_seat(&f, 0, "legal", 0);
	test_seat(&f, 1, "info", 0);	/* a chatty bot must not starve the other */
	gint64 t0 = g_get_monotonic_time();
	run_and_verify(&f);
	g_assert_cmpint(f.res.end, ==, GAME_END_LIMIT);
	g_assert_cmpint(g_get_monotonic_time() - t0, <, (gint64)(3e6 * test_time_scale()));
	/* Neither bot is starved: each has moves taken in, applied or (when
	 * the other was faster for that token) rejected. */
	g_autofree char *text = NULL;
	g_assert_true(g_file_get_contents(f.log, &text, NULL, NULL));
	g_assert_true(f.res.seat[0].score > 0 || strstr(text, "\nrejected 0 ") != NULL);
	g_assert_true(f.res.seat[1].score > 0 || strstr(text, "\nrejected 1 ") != NULL);
	/* (how many tokens fit in the game's time is the machine's load, not
	 * a rule: bench-referee measures the pace) */
	g_assert_cmpint(f.res.seat[1].first_fault, ==, -1);
	teardown(&f);
}

static void test_rt_hang(void)
{
	Fixture f;

	setup(&f, &toyrt);
	variant_option_set(&toyrt, &f.spec.config, "tokens", "1000000000");
	f.spec.time.game = (gint64)(800 * test_time_scale());
	test_seat(&f, 0, "hang", 3);
	test_seat(&f, 1, "legal", 0);
	run_and_verify(&f);
	g_assert_cmpint(f.res.seat[0].first_fault, ==, GAME_FAULT_TIMEOUT);
	g_assert_cmpint(f.res.seat[0].rank, ==, 2);
	g_assert_cmpint(f.res.end, ==, GAME_END_LIMIT);
	teardown(&f);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/referee/loops/simultaneous/rounds", test_sim_rounds);
	g_test_add_func("/referee/loops/simultaneous/nothing", test_sim_fault_nothing);
	g_test_add_func("/referee/loops/simultaneous/crash", test_sim_crash);
	g_test_add_func("/referee/loops/realtime/race", test_rt_race);
	g_test_add_func("/referee/loops/realtime/limit", test_rt_limit);
	g_test_add_func("/referee/loops/realtime/hang", test_rt_hang);
	return g_test_run();
}
