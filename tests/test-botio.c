/* Tests for bots/botio (the C bots' protocol side) and bots/randombot. */
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/botio.h"
#include "bots/randombot.h"
#include "link.h"
#include "variants.h"

static void test_game_full(void)
{
	BotGame g;
	char why[128] = "";

	g_assert_true(botio_parse_game("game 3 variant=link seat=1 players=3 "
				       "options=width:8,height:12,pieces:2 "
				       "time=bank:60000,inc:1000,move:5000,start:10000 future=7",
				       &g, why, sizeof(why)));
	g_assert_cmpint(g.number, ==, 3);
	g_assert_true(g.variant == &variant_link);
	g_assert_cmpint(g.seat, ==, 1);
	g_assert_cmpint(g.cfg.nplayers, ==, 3);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_WIDTH], ==, 8);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_HEIGHT], ==, 12);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_PIECES], ==, 2);
}

static void test_game_defaults(void)
{
	BotGame g;
	char why[128] = "";

	/* Fields in another order, no options: every option at its default. */
	g_assert_true(botio_parse_game("game 1 players=2 seat=0 variant=link", &g, why, sizeof(why)));
	g_assert_cmpint(g.seat, ==, 0);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_WIDTH], ==, 10);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_HEIGHT], ==, 20);
	g_assert_cmpint(g.cfg.opt[LINK_OPT_PIECES], ==, 5);
}

static void test_game_bad(void)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{"game 1 variant=nosuch seat=0 players=2", "unknown variant nosuch"},
		{"game 1 seat=0 players=2", "unknown variant (none)"},
		{"game 1 variant=link seat=2 players=2", "bad seat or players"},
		{"game 1 variant=link players=2", "bad seat or players"},
		{"game 1 variant=link seat=0 players=9", "bad seat or players"},
		{"game 1 variant=link seat=0 players=1", "player count out of range"},
		{"game 1 variant=link seat=0 players=2 options=depth:3", "option depth: unknown option"},
		{"game 1 variant=link seat=0 players=2 options=width:99",
		 "option width: option value is not a whole number within its bounds"},
		{"game 1 variant=link seat=0 players=2 options=width", "malformed option"},
		{"game x variant=link seat=0 players=2", "bad game number"},
		{"go 100 players=2", "not a game line"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		BotGame g;
		char why[128] = "";
		g_assert_false(botio_parse_game(cases[i].line, &g, why, sizeof(why)));
		g_assert_cmpstr(why, ==, cases[i].why);
	}
}

static void test_read_line(void)
{
	GString *in = g_string_new("one\r\ntwo\n\n");
	char *buf = g_malloc(BOTIO_LINE_MAX + 1);

	/* A line of exactly the limit (newline included) fits; one more does not. */
	for (int i = 0; i < BOTIO_LINE_MAX - 1; i++)
		g_string_append_c(in, 'a');
	g_string_append(in, "\n");
	for (int i = 0; i < BOTIO_LINE_MAX; i++)
		g_string_append_c(in, 'b');
	g_string_append(in, "\nlast");
	FILE *f = fmemopen(in->str, in->len, "r");
	g_assert_nonnull(f);
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpstr(buf, ==, "one");
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpstr(buf, ==, "two");
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpstr(buf, ==, "");
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpint(strlen(buf), ==, BOTIO_LINE_MAX - 1);
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpstr(buf, ==, "");
	g_assert_true(botio_read_line(f, buf));
	g_assert_cmpstr(buf, ==, "last");
	g_assert_false(botio_read_line(f, buf));
	fclose(f);
	g_free(buf);
	g_string_free(in, TRUE);
}

/* A choose that plays the first legal move and counts its calls. */
typedef struct {
	int calls;
	int seat, ms;
	Move scratch[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	bool illegal;		/* answer an illegal move instead */
} FirstBot;

static Move first_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
			 void *ctx)
{
	FirstBot *b = ctx;

	(void)rng;
	b->calls++;
	b->seat = seat;
	b->ms = ms_left;
	if (b->illegal)
		return link_move(PIECE_O, 0, 9);
	g_assert_cmpint(v->legal_moves(state, seat, b->scratch), >, 0);
	return b->scratch[0];
}

static const char *refuse_three(const Variant *v, const VariantConfig *cfg, int seat, void *ctx)
{
	(void)v;
	(void)seat;
	(void)ctx;
	return cfg->nplayers == 3 ? "two players only" : NULL;
}

/* Run a session over `script`; returns its output (free it). */
static char *run_session(const BotioSpec *spec, const char *script)
{
	char *out = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)script, strlen(script), "r");
	FILE *o = open_memstream(&out, &len);

	g_assert_nonnull(in);
	g_assert_nonnull(o);
	g_assert_cmpint(botio_run(spec, in, o), ==, 0);
	fclose(in);
	fclose(o);
	return out;
}

#define GO_LINK "go 4321 players=2 width=10 height=20 stage=place current=1 roll=O " \
	"scores=0,0 supply=I5O5T5L5S5,I5O5T5L5S5 retired=- board=x pieces=0:I0@0"

static void test_session(void)
{
	FirstBot bot = {0};
	BotioSpec spec = {.name = "first", .version = "2.1", .choose = first_choose,
			.start = refuse_three, .ctx = &bot, .seed = 1};
	const char *script =
		"tetrarena 1\n"
		"game 1 variant=link seat=1 players=2 options=width:10,height:20,pieces:5 time=x\n"
		"update chance roll O\n"
		"unknown words here\n"
		GO_LINK "\n"
		"result ranks=1,2 scores=1,0 faults=-,- reason=end\n"
		GO_LINK "\n"	/* after result: no game, no answer */
		"game 2 variant=link seat=0 players=3\n"
		"game 3 variant=rubbish seat=0 players=2\n"
		"quit\n"
		"game 4 variant=link seat=0 players=2\n";
	g_autofree char *out = run_session(&spec, script);

	g_assert_cmpstr(out, ==,
			"hello first 2.1 moves multi\n"
			"move O0@0\n"
			"decline two players only\n"
			"decline unknown variant rubbish\n");
	g_assert_cmpint(bot.calls, ==, 1);
	g_assert_cmpint(bot.seat, ==, 1);
	g_assert_cmpint(bot.ms, ==, 4321);
}

static void test_session_fallback(void)
{
	FirstBot bot = {.illegal = true};
	BotioSpec spec = {.name = "bad", .version = "1", .choose = first_choose, .ctx = &bot};
	const char *script =
		"game 1 variant=link seat=1 players=2\n"
		"moves O0@4\n"
		GO_LINK "\n"
		"moves O0@5\n"
		"go 10 players=2 garbage\n"	/* unparsable state: a listed move */
		"go 10 players=2 garbage\n";	/* and no list: an empty move */
	g_autofree char *out = run_session(&spec, script);

	g_assert_cmpstr(out, ==,
			"hello bad 1 moves multi\n"
			"move O0@4\n"
			"move O0@5\n"
			"move \n");
	g_assert_cmpint(bot.calls, ==, 1);
}

/*
 * Random self-play through every variant the engine knows: in each decision
 * state, the state goes through state_format and state_parse (as botio does
 * it) and randombot's move must be legal in the original state.
 */
static void test_random_legal(void)
{
	RandomBot bot;
	char text[BOTIO_LINE_MAX];
	int checked = 0;

	g_assert_true(randombot_init(&bot));
	for (const Variant *const *vp = variant_all(); *vp; vp++) {
		const Variant *v = *vp;
		void *state = g_malloc0(v->state_size), *copy = g_malloc0(v->state_size);
		Move *moves = g_new(Move, v->max_moves);
		for (int game = 0; game < 20; game++) {
			VariantConfig cfg;
			Rng chance, mine;
			int nplayers = v->min_players + game % (v->max_players - v->min_players + 1);
			variant_config_default(v, nplayers, &cfg);
			v->init(state, &cfg);
			rng_seed(&chance, (uint64_t)game);
			rng_seed(&mine, (uint64_t)game + 1000);
			for (int step = 0; step < 5000; step++) {
				uint32_t mask;
				VariantPhase ph = v->phase(state, &mask);
				if (ph == VARIANT_PHASE_OVER)
					break;
				if (ph == VARIANT_PHASE_CHANCE) {
					v->apply(state, VARIANT_CHANCE, v->chance_sample(state, &chance));
					continue;
				}
				Move joint[VARIANT_MAX_PLAYERS] = {0};
				for (int p = 0; p < nplayers; p++) {
					if (!(mask >> p & 1u))
						continue;
					Text t;
					text_init(&t, text, sizeof(text));
					v->state_format(state, p, &t);
					g_assert_false(t.overflow);
					memset(copy, 0, v->state_size);
					g_assert_true(v->state_parse(copy, &cfg, text));
					joint[p] = randombot_choose(v, copy, p, 1000, &mine, &bot);
					g_assert_true(variant_move_is_legal(v, state, p, joint[p], moves));
					checked++;
					if (ph == VARIANT_PHASE_TURN || ph == VARIANT_PHASE_REALTIME)
						break;
				}
				if (ph == VARIANT_PHASE_SIMULTANEOUS)
					v->apply_joint(state, joint, mask);
				else
					v->apply(state, variant_mask_player(mask & -mask), joint[variant_mask_player(mask & -mask)]);
			}
		}
		g_free(moves);
		g_free(copy);
		g_free(state);
	}
	randombot_release(&bot);
	g_test_message("%d random moves checked", checked);
	g_assert_cmpint(checked, >, 500);
}

/* A failed read of the referee's lines is said on stderr and ends the session with 1. */
static void test_session_read_error(void)
{
	if (g_test_subprocess()) {
		BotioSpec spec = {.name = "readbot", .version = "1", .choose = first_choose};
		FILE *in = fopen("/", "r");	/* a directory: reading it fails (EISDIR) */
		FILE *out = fopen("/dev/null", "w");
		g_assert_nonnull(in);
		g_assert_nonnull(out);
		g_assert_cmpint(botio_run(&spec, in, out), ==, 1);
		fclose(in);
		fclose(out);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
	g_test_trap_assert_stderr("readbot: reading the referee's lines: *\n");
}

/*
 * A bot that dies of a signal says so on stderr (the referee keeps that
 * file with the game's log), then dies of it as it would have.
 */
static void test_fatal_signal(void)
{
	if (g_test_subprocess()) {
		BotioSpec spec = {.name = "dyingbot", .version = "1"};
		char *argv[] = {"dyingbot", "--help", NULL};
		FILE *quiet = freopen("/dev/null", "w", stdout);
		g_assert_nonnull(quiet);
		g_assert_cmpint(botio_main(&spec, 2, argv), ==, 0);
		raise(SIGFPE);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("dyingbot: ended by signal 8\n*");	/* a sanitizer may add its report */
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/botio/game/full", test_game_full);
	g_test_add_func("/botio/game/defaults", test_game_defaults);
	g_test_add_func("/botio/game/bad", test_game_bad);
	g_test_add_func("/botio/line/bounded", test_read_line);
	g_test_add_func("/botio/session/script", test_session);
	g_test_add_func("/botio/session/fallback", test_session_fallback);
	g_test_add_func("/botio/session/fatal-signal", test_fatal_signal);
	g_test_add_func("/botio/session/read-error", test_session_read_error);
	g_test_add_func("/randombot/legal/every-variant", test_random_legal);
	return g_test_run();
}
