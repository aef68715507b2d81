/*
 * bot-tetroll: a Tetroll player (tetrollai.c: sheet evaluation, expectimax
 * over the next rolls per placement, rollouts of the greedy policy among
 * the best placements, expectimax over rerolls), speaking protocol.md
 * through botio.c. It plays solo and 2-player games; it declines every
 * other variant.
 *
 *   bot-tetroll [--objective sputnik|mother-russia|conrad] [--level 1..5]
 *               [--race X] [--race-rollouts S] [--rollouts N] [--rollout-depth D] [--spend F]
 *               [--eval hand|fitted|margin] [--weights FILE] [--no-clock] [--seed N]
 *               [--analyse]
 *
 * --objective plays for one of the rulebook's solo objectives (tetrollai.h);
 * sputnik, the most points, is the default. --race X (0 to 10, default 0)
 * values the first prizes two players race for (TetrollAiParams.race; it
 * measured no gain, docs/ai/tetroll.md). At 2 players the rollouts play the
 * opponent's turns too and value the final margin m as S tanh(m / S), S
 * from --race-rollouts (0 to 1000, default TETROLLAI_RACE_SPREAD, 30; 0
 * turns the race off), there are twice as many, each stops after
 * TETROLLAI_RACE_DEPTH (4) of our turns, and sheets are valued by the
 * weights fitted to the margin (tetrollai_players; where the time turns
 * rollouts off, by the hand-set sum as alone).
 * --rollouts N (1 to TETROLLAI_MAX_ROLLOUTS) sets the rollouts per
 * candidate where the time turns them on (64 there by default, 128 at 2
 * players racing), their sheet cap scaled to match. --rollout-depth D (0
 * to TETROLLAI_MAX_DEPTH) stops each rollout after D of our turns and
 * counts the fitted forecast of the sheets it reached (0: played to the
 * end, the default alone; 4 at 2 players racing).
 * --spend F (0.25 to 2.5, default 1) scales what a move may spend: the
 * rollouts' sheet cap, and the clock net, F thirds of the move's time.
 * --eval fitted values a sheet by the weights fitted to final scores
 * (bots/tetroll-weights.h, scripts/tetroll-fit.py), --eval margin by those
 * fitted to the 2-player margin (bots/tetroll-margin.h; the default at 2
 * players racing, with rollouts), --eval hand by the hand-set sum (the default alone);
 * --weights FILE by weights read from FILE, in the fit's format. Levels
 * 1-4 always use the hand-set sum, as they were measured.
 * --no-clock stops a search on its sheet caps alone, never at the clock
 * net (a third of the move's time, times F): the same position and time to
 * move give the same move on any machine (tests compare games with it), and
 * a loaded machine may make the bot miss its time.
 *
 * Start reading at choose(): it sets the search from the time the referee
 * gives for the move (tetrollai_budget), hands the state rebuilt from `go`
 * to tetrollai_choose() and reports the sheets it valued in an `info` line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botio.h"
#include "botlevel.h"
#include "tetroll.h"
#include "tetrollai.h"

static const char *start(const Variant *v, const VariantConfig *cfg, int seat, void *ctx)
{
	(void)cfg;
	(void)seat;
	(void)ctx;
	return v == &variant_tetroll ? NULL : "bot-tetroll plays only tetroll";
}

static int level = BOTLEVEL_DEFAULT;
static int rollouts;	/* --rollouts, or 0 */
static bool no_clock;	/* --no-clock */
static bool analyse;	/* --analyse */
static double spend = 1;	/* --spend */
static double weights[TETROLLAI_FEATURES];	/* --weights FILE */

/* --weights FILE into weights[]; false (after one line on stderr) if it cannot. */
static bool read_weights(const char *path)
{
	char text[8192];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	const char *why = !f ? "cannot be read" : n == sizeof text - 1 ? "is too long" : NULL;

	if (f)
		fclose(f);
	text[n] = '\0';
	if (!why && memchr(text, '\0', n))
		why = "holds a NUL byte";
	if (!why)
		why = tetrollai_parse_weights(text, weights);
	if (why)
		fprintf(stderr, "bot-tetroll: --weights %s: %s\n", path, why);
	return !why;
}

/*
 * --analyse (for `referee review`): every legal move valued one roll ahead
 * (tetrollai_analyse) with the settings of a 5 s move and the hand-set
 * value, no clock and no eval cap (the same values on any machine), in
 * one `info analyse` line in points; the best of them is played.
 */
#define ANALYSE_MOVES (8 * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT)
static Move analyse_and_play(const Variant *v, const TetrollState *s, int seat, TetrollAi *ai)
{
	static Move moves[ANALYSE_MOVES];
	static double values[ANALYSE_MOVES];
	TetrollAi a = *ai;

	tetrollai_budget(&a, 5000);
	tetrollai_players(&a, s->nplayers);
	a.weights = NULL;
	a.eval_cap = 0;
	a.rollout_cap = 0;
	a.deadline = 0;
	a.noise = 0;
	int n = tetrollai_analyse(&a, s, seat, moves, values), best = 0;
	for (int i = 1; i < n; i++)
		if (values[i] > values[best])
			best = i;
	botio_analyse(v, s, seat, moves, values, n, "points");
	botio_info("evals %ld", a.evals - ai->evals);
	ai->evals = a.evals;
	return n > 0 ? moves[best] : tetrollai_choose(ai, s, seat);
}

static Move choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng, void *ctx)
{
	TetrollAi *ai = ctx;
	long before = ai->evals;

	if (analyse)
		return analyse_and_play(v, state, seat, ai);
	TetrollAiParams keep = ai->p;
	const double *fitted = ai->weights;
	tetrollai_budget(ai, ms_left);
	tetrollai_players(ai, ((const TetrollState *)state)->nplayers);
	if (rollouts > 0)
		tetrollai_set_rollouts(ai, rollouts);
	ai->rollout_cap = (long)(ai->rollout_cap * spend);
	ai->deadline = ms_left > 0 && !no_clock ? ai->clock_ms() + ms_left * spend / 3.0 : 0;
	tetrollai_level(ai, level);
	if (level < BOTLEVEL_MAX)
		ai->weights = NULL;	/* the levels were measured with the hand-set value */
	if (ai->noise > 0)
		ai->noise_key = rng_next(rng);
	Move m = tetrollai_choose(ai, state, seat);
	ai->p = keep;
	ai->weights = fitted;
	botio_info("evals %ld", ai->evals - before);
	return m;
}

int main(int argc, char **argv)
{
	TetrollAi ai;
	int n = 0;	/* argv compacted in place to what botio_main reads */

	tetrollai_init(&ai);
	if (!botlevel_take("bot-tetroll", &argc, argv, &level))
		return 2;
	for (int i = 0; i < argc; i++) {
		const char *name = NULL;
		const struct {
			const char *flag;
			double *to, min, max;
		} numbers[] = {
			{"--race", &ai.p.race, 0, 10},
			{"--race-rollouts", &ai.p.rollout_race, 0, 1000},
			{"--spend", &spend, 0.25, 2.5},
		};
		bool taken = false;
		for (size_t k = 0; k < sizeof(numbers) / sizeof(numbers[0]) && !taken; k++) {
			if (i == 0 || strcmp(argv[i], numbers[k].flag) || i + 1 == argc)
				continue;
			char *end;
			double x = strtod(argv[++i], &end);
			if (*end || !(x >= numbers[k].min && x <= numbers[k].max)) {
				fprintf(stderr, "bot-tetroll: bad %s %s (a number from %g to %g)\n", numbers[k].flag,
					argv[i], numbers[k].min, numbers[k].max);
				return 2;
			}
			*numbers[k].to = x;
			taken = true;
		}
		const struct {
			const char *flag;
			int *to, min, max;
		} counts[] = {
			{"--rollouts", &rollouts, 1, TETROLLAI_MAX_ROLLOUTS},
			{"--rollout-depth", &ai.p.rollout_depth, 0, TETROLLAI_MAX_DEPTH},
		};
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]) && !taken; k++) {
			if (i == 0 || strcmp(argv[i], counts[k].flag) || i + 1 == argc)
				continue;
			char *end;
			long x = strtol(argv[++i], &end, 10);
			if (*end || !*argv[i] || x < counts[k].min || x > counts[k].max) {
				fprintf(stderr, "bot-tetroll: bad %s %s (a whole number from %d to %d)\n", counts[k].flag,
					argv[i], counts[k].min, counts[k].max);
				return 2;
			}
			*counts[k].to = (int)x;
			taken = true;
		}
		if (taken)
			continue;
		if (i > 0 && !strcmp(argv[i], "--eval") && i + 1 < argc) {
			i++;
			static const struct {
				const char *name;
				const double *weights;
			} evals[] = {{"hand", NULL}, {"fitted", TETROLLAI_FITTED}, {"margin", tetrollai_margin}};
			size_t k = 0;
			while (k < sizeof(evals) / sizeof(evals[0]) && strcmp(argv[i], evals[k].name))
				k++;
			if (k == sizeof(evals) / sizeof(evals[0])) {
				fprintf(stderr, "bot-tetroll: bad --eval %s (hand, fitted or margin)\n", argv[i]);
				return 2;
			}
			ai.weights = evals[k].weights;
			continue;
		}
		if (i > 0 && !strcmp(argv[i], "--weights") && i + 1 < argc) {
			if (!read_weights(argv[++i]))
				return 2;
			ai.weights = weights;
			continue;
		}
		if (i > 0 && !strcmp(argv[i], "--no-clock")) {
			no_clock = true;
			continue;
		}
		if (i > 0 && !strcmp(argv[i], "--analyse")) {
			analyse = true;
			continue;
		}
		if (i > 0 && !strcmp(argv[i], "--objective") && i + 1 < argc)
			name = argv[++i];
		else if (i > 0 && !strncmp(argv[i], "--objective=", 12))
			name = argv[i] + 12;
		else {
			argv[n++] = argv[i];
			continue;
		}
		ai.p.objective = tetrollai_objective(name);
		if (ai.p.objective < 0) {
			fprintf(stderr, "bot-tetroll: bad --objective %s (sputnik, mother-russia, conrad)\n", name);
			return 2;
		}
	}
	argv[n] = NULL;
	BotioSpec spec = {
		.name = "bot-tetroll",
		.version = "5",
		.about = "Plays Tetroll: for points, rollouts of the greedy policy among the best placements\n"
			 "  at one roll (for an objective, expectimax two rolls deep); expectimax over rerolls;\n"
			 "  sheet evaluation;\n"
			 "  --objective sputnik|mother-russia|conrad  play for that solo objective\n"
			 "  --level L  strength, 1 (weakest) to 5 (the default, as above): 4 one roll\n"
			 "             ahead, no rollouts; 3 greedy; 2 and 1 greedy with noise\n"
			 "  --race X   2 players: value the first prizes both race for, X (0-10, default 0)\n"
			 "             times the opponent's loss (an experiment: no gain measured)\n"
			 "  --race-rollouts S  2 players: rollouts play the opponent's turns too and\n"
			 "             value the final margin m as S tanh(m / S) (default 30; 0: off,\n"
			 "             and with it the 2-player rollout depth and --eval margin)\n"
			 "  --rollouts N  rollouts per candidate where the move's time turns them on\n"
			 "             (from 2 s a move; 64 by default, 128 at 2 players racing;\n"
			 "             at most 256)\n"
			 "  --rollout-depth D  stop each rollout after D of our turns and count the\n"
			 "             fitted forecast of its sheets (0: to the end, the default\n"
			 "             alone; 4 at 2 players racing)\n"
			 "  --spend F  scale what a move may spend, F from 0.25 to 2.5 (default 1):\n"
			 "             the rollouts' sheet cap, and the clock net, F thirds of the move\n"
			 "  --eval hand|fitted|margin  value sheets by the hand-set sum (the default\n"
			 "             alone), the weights fitted to final scores or those fitted to\n"
			 "             the 2-player margin (the default at 2 players racing, from 2 s a\n"
			 "             move); level 5 only\n"
			 "  --weights FILE  value sheets by the weights in FILE (as tetroll-fit.py writes)\n"
			 "  --no-clock  stop searching on the sheet caps alone, never on the clock:\n"
			 "             the same moves on any machine (a loaded one may miss the time)\n"
			 "  --analyse  at each `go`, value every legal move one roll ahead (no clock,\n"
			 "             no cap) in points, in an `info analyse` line, and play the best\n"
			 "             (referee review)",
		.choose = choose,
		.start = start,
		.ctx = &ai,
	};
	return botio_main(&spec, n, argv);
}
