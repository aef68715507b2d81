/*
 * prog-tetroll-solo: plays solo Tetroll games in-process, through the
 * variant table only, with the AI's choose function (tetrollai_choose, the
 * same as bin/bot-tetroll) or a uniformly random legal move (what
 * bin/bot-random plays), and prints one line per game:
 *
 *     seed=N score=S rows=R bonuses=B ordered=K turns=T values=V1,...,V6 prizes=P
 *
 * B counts completed bonus tracks, K the finished rows reading 1 2 3 4 5 6
 * from left to right, V1..V6 each bonus's end value, P the prize letters
 * of the `go` state (o open, x crossed, 1 first, 2 runner-up). scripts/tetroll-report.sh turns these lines into the
 * solo report. Game g is played with dice seed FIRST+g (rng_seed of it, as
 * the referee seeds a game) and the bot's own generator seeded with it too.
 *
 * Usage: prog-tetroll-solo ai|random GAMES [FIRST [PARAM=VALUE...]]
 * where PARAM names a TetrollAiParams field, for tuning, or is eval_cap
 * or rollout_cap (sheets per decision; the AI is set up as bin/bot-tetroll at 5 s a move
 * first), or is noise (the points of noise of levels 1 and 2, for calibrating them), or is level (1..5, as bin/bot-tetroll --level), or is budget (ms a move: the AI set up as bin/bot-tetroll given
 * that much, default 5000), or is players=2 (the AI plays both seats of a
 * 2-player game; the line is seat 0's), positions=FILE (each turn's
 * position: the final score of the seat to move, its score now and its
 * features, tetrollai_features; for scripts/tetroll-fit.py), margins
 * (with players=2 and positions=: each line goes on with the other seat's
 * final score, score now and features at the same moment, for
 * tetroll-fit.py --margin) or weights=FILE
 * (the sheet valued by those weights, as tetroll-fit.py writes them).
 * Debugging: TETROLL_EVALS=1 prints the sheets valued (in all and
 * the most in one decision) to stderr, TETROLL_SHEETS=1 each final sheet,
 * TETROLL_FIRST_DONE=1 the turn each game's first track was completed.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tetroll.h"
#include "bots/tetrollai.h"
#include "variant.h"

static Move moves[PIECE_ORIENTATIONS * TETROLL_MAX_WIDTH * TETROLL_MAX_HEIGHT];

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "ai") != 0 && strcmp(argv[1], "random") != 0)) {
		fprintf(stderr, "usage: prog-tetroll-solo ai|random GAMES [FIRST]\n");
		return 2;
	}
	bool ai_policy = strcmp(argv[1], "ai") == 0;
	long games = strtol(argv[2], NULL, 10), first = argc > 3 ? strtol(argv[3], NULL, 10) : 1;
	TetrollAi ai;
	long max_evals = 0;	/* the most sheets one decision valued */
	FILE *positions = NULL;	/* positions=FILE: each turn's features, then the final score */
	static double weights[TETROLLAI_FEATURES];	/* weights=FILE */
	/* a game's turns: seat, score now, features (and the other seat's, with margins) */
	static double seen[128][2 * TETROLLAI_FEATURES + 3];
	int players = 1;	/* players=2: the AI plays both seats (positions from both) */
	bool margins = false;	/* margins: positions also give the other seat's */

	tetrollai_init(&ai);
	int budget = 5000;	/* as bin/bot-tetroll at the default controls */
	int level = 5;		/* bot-tetroll --level */
	for (int i = 4; i < argc; i++) {	/* the objective first: the budget depends on it */
		if (strncmp(argv[i], "level=", 6) == 0)
			level = (int)strtol(argv[i] + 6, NULL, 10);
		else if (strncmp(argv[i], "objective=", 10) == 0)
			ai.p.objective = tetrollai_objective(argv[i] + 10);
		else if (strncmp(argv[i], "budget=", 7) == 0)
			budget = (int)strtol(argv[i] + 7, NULL, 10);
	}
	tetrollai_budget(&ai, budget);
	tetrollai_level(&ai, level);
	for (int i = 4; i < argc; i++) {
		if (strncmp(argv[i], "budget=", 7) == 0 || strncmp(argv[i], "level=", 6) == 0)
			continue;
		if (strcmp(argv[i], "players=2") == 0) {
			players = 2;
			continue;
		}
		if (strcmp(argv[i], "margins") == 0) {
			margins = true;
			continue;
		}
		static const struct {
			const char *name;
			size_t off;
		} fields[] = {
			{"row_weight", offsetof(TetrollAiParams, row_weight)},
			{"future_dup", offsetof(TetrollAiParams, future_dup)},
			{"dup_ring", offsetof(TetrollAiParams, dup_ring)},
			{"dead_cell", offsetof(TetrollAiParams, dead_cell)},
			{"bump", offsetof(TetrollAiParams, bump)},
			{"track", offsetof(TetrollAiParams, track)},
			{"reroll_cost", offsetof(TetrollAiParams, reroll_cost)},
			{"nofit", offsetof(TetrollAiParams, nofit)},
			{"covered", offsetof(TetrollAiParams, covered)},
			{"fill_power", offsetof(TetrollAiParams, fill_power)},
			{"track_power", offsetof(TetrollAiParams, track_power)},
			{"parity", offsetof(TetrollAiParams, parity)},
			{"odd_rows", offsetof(TetrollAiParams, odd_rows)},
			{"risk", offsetof(TetrollAiParams, risk)},
			{"parity_keep", offsetof(TetrollAiParams, parity_keep)},
			{"dice_risk", offsetof(TetrollAiParams, dice_risk)},
			{"mr_pending", offsetof(TetrollAiParams, mr_pending)},
			{"mr_margin", offsetof(TetrollAiParams, mr_margin)},
			{"mr_risk", offsetof(TetrollAiParams, mr_risk)},
			{"mr_fill", offsetof(TetrollAiParams, mr_fill)},
			{"conrad_row", offsetof(TetrollAiParams, conrad_row)},
			{"conrad_part", offsetof(TetrollAiParams, conrad_part)},
			{"mr_completed", offsetof(TetrollAiParams, mr_completed)},
			{"mr_win", offsetof(TetrollAiParams, mr_win)},
			{"mr_power", offsetof(TetrollAiParams, mr_power)},
			{"rollout_risk", offsetof(TetrollAiParams, rollout_risk)},
			{"rollout_prune", offsetof(TetrollAiParams, rollout_prune)},
		};
		const char *eq = strchr(argv[i], '=');
		bool found = false;
		for (size_t k = 0; eq && k < sizeof(fields) / sizeof(fields[0]); k++)
			if (strncmp(argv[i], fields[k].name, (size_t)(eq - argv[i])) == 0 &&
			    strlen(fields[k].name) == (size_t)(eq - argv[i])) {
				*(double *)((char *)&ai.p + fields[k].off) = strtod(eq + 1, NULL);
				found = true;
			}
		static const struct {
			const char *name;
			size_t off;
			int min, max;
		} ints[] = {
			{"late_cells", offsetof(TetrollAiParams, late_cells), 0, 1000},
			{"lookahead", offsetof(TetrollAiParams, lookahead), 0, 3},
			{"lookahead_width", offsetof(TetrollAiParams, lookahead_width), 1, TETROLLAI_MAX_WIDTH},
			{"deep_width", offsetof(TetrollAiParams, deep_width), 1, TETROLLAI_MAX_WIDTH},
			{"inner_width", offsetof(TetrollAiParams, inner_width), 1, TETROLLAI_MAX_WIDTH},
			{"dice_depth", offsetof(TetrollAiParams, dice_depth), 0, 3},
			{"narrow", offsetof(TetrollAiParams, narrow), 0, 1},
			{"reroll_aware", offsetof(TetrollAiParams, reroll_aware), 0, 1},
			{"mr_live", offsetof(TetrollAiParams, mr_live), 0, 3},
			{"max_rerolls", offsetof(TetrollAiParams, max_rerolls), 0, TETROLLAI_MAX_REROLLS},
			{"rollouts", offsetof(TetrollAiParams, rollouts), 0, TETROLLAI_MAX_ROLLOUTS},
			{"rollout_width", offsetof(TetrollAiParams, rollout_width), 1, TETROLLAI_MAX_WIDTH},
			{"followup_rollouts", offsetof(TetrollAiParams, followup_rollouts), 0, 1},
			{"rollout_depth", offsetof(TetrollAiParams, rollout_depth), 0, TETROLLAI_MAX_DEPTH},
		};
		for (size_t k = 0; eq && k < sizeof(ints) / sizeof(ints[0]); k++)
			if (strncmp(argv[i], ints[k].name, (size_t)(eq - argv[i])) == 0 &&
			    strlen(ints[k].name) == (size_t)(eq - argv[i])) {
				int v = (int)strtol(eq + 1, NULL, 10);
				*(int *)((char *)&ai.p + ints[k].off) = v;
				found = v >= ints[k].min && v <= ints[k].max;
			}
		if (eq && strncmp(argv[i], "eval_cap=", 9) == 0) {
			ai.eval_cap = strtol(eq + 1, NULL, 10);
			found = true;
		}
		if (eq && strncmp(argv[i], "noise=", 6) == 0) {	/* a level's noise, points */
			ai.noise = strtod(eq + 1, NULL);
			found = true;
		}
		if (eq && strncmp(argv[i], "rollout_cap=", 12) == 0) {
			ai.rollout_cap = strtol(eq + 1, NULL, 10);
			found = true;
		}
		if (eq && strncmp(argv[i], "positions=", 10) == 0) {
			positions = fopen(eq + 1, "w");
			if (!positions) {
				fprintf(stderr, "prog-tetroll-solo: cannot write %s\n", eq + 1);
				return 2;
			}
			found = true;
		}
		if (eq && strncmp(argv[i], "weights=", 8) == 0) {
			static char text[8192];	/* as scripts/tetroll-fit.py writes them: tetrollai_parse_weights */
			FILE *wf = fopen(eq + 1, "r");
			size_t n = wf ? fread(text, 1, sizeof text - 1, wf) : 0;
			const char *why = !wf ? "cannot be read" : n == sizeof text - 1 ? "too long" : NULL;
			if (wf)
				fclose(wf);
			text[n] = '\0';
			if (!why)
				why = tetrollai_parse_weights(text, weights);
			if (why) {
				fprintf(stderr, "prog-tetroll-solo: %s: %s\n", eq + 1, why);
				return 2;
			}
			ai.weights = weights;
			found = true;
		}
		if (eq && strncmp(argv[i], "objective=", 10) == 0) {
			ai.p.objective = tetrollai_objective(eq + 1);
			found = ai.p.objective >= 0;
		}
		if (!found) {
			fprintf(stderr, "prog-tetroll-solo: bad parameter %s\n", argv[i]);
			return 2;
		}
	}
	if (margins && (players != 2 || !positions)) {
		fprintf(stderr, "prog-tetroll-solo: margins needs players=2 and positions=FILE\n");
		return 2;
	}
	for (long g = 0; g < games; g++) {
		uint64_t seed = (uint64_t)(first + g);
		VariantConfig cfg;
		TetrollState s;
		Rng dice, mine;
		uint32_t mask;
		VariantPhase ph;
		bool first_done = false;
		int nseen = 0, last_turn = -1;

		variant_config_default(&variant_tetroll, players, &cfg);
		variant_tetroll.init(&s, &cfg);
		rng_seed(&dice, seed);
		rng_seed(&mine, seed ^ 0x5eedULL);
		while ((ph = variant_tetroll.phase(&s, &mask)) != VARIANT_PHASE_OVER) {
			if (ph == VARIANT_PHASE_CHANCE) {
				variant_tetroll.apply(&s, VARIANT_CHANCE,
						      variant_tetroll.chance_sample(&s, &dice));
				continue;
			}
			Move m;
			int p = s.current;
			if (positions && s.turns != last_turn && nseen < 128 &&
			    (s.stage == TETROLL_STAGE_DICE || s.stage == TETROLL_STAGE_PLACE)) {
				last_turn = s.turns;
				seen[nseen][0] = p;
				seen[nseen][1] = tetrollai_features(&ai, &s, p, &seen[nseen][2]);
				if (margins) {
					double *o = &seen[nseen][TETROLLAI_FEATURES + 2];
					o[0] = tetrollai_features(&ai, &s, 1 - p, o + 1);
				}
				nseen++;
			}
			if (ai_policy) {
				long before = ai.evals;
				ai.noise_key = rng_next(&mine);
				m = tetrollai_choose(&ai, &s, p);
				if (ai.evals - before > max_evals)
					max_evals = ai.evals - before;
			} else {
				int n = variant_tetroll.legal_moves(&s, p, moves);
				m = moves[rng_below(&mine, (uint32_t)n)];
			}
			if (!variant_move_is_legal(&variant_tetroll, &s, p, m, moves)) {
				fprintf(stderr, "prog-tetroll-solo: illegal move in game %ld\n", g);
				return 1;
			}
			variant_tetroll.apply(&s, p, m);
			if (getenv("TETROLL_FIRST_DONE") && !first_done)
				for (int b = 0; b < TETROLL_BONUSES; b++)
					if (s.sheet[0].prize[b] >= TETROLL_PRIZE_FIRST) {
						first_done = true;
						fprintf(stderr, "seed %llu turn %d: track #%d completed at score %d\n",
							(unsigned long long)seed, s.turns, b + 1, tetroll_score(&s, 0, NULL, (int[TETROLL_BONUSES]){0}));
					}
		}
		int score, rows, bonus[TETROLL_BONUSES], done = 0;
		score = tetroll_score(&s, 0, &rows, bonus);
		for (int i = 0; i < nseen; i++) {
			int p = (int)seen[i][0];
			for (int side = 0; side <= (int)margins; side++) {
				int q = side ? 1 - p : p;
				const double *v = &seen[i][side ? TETROLLAI_FEATURES + 2 : 1];
				fprintf(positions, side ? " %d" : "%d", tetroll_score(&s, q, NULL, (int[TETROLL_BONUSES]){0}));
				for (int k = 0; k <= TETROLLAI_FEATURES; k++)
					fprintf(positions, " %.6g", v[k]);
			}
			fputc('\n', positions);
		}
		for (int b = 0; b < TETROLL_BONUSES; b++)
			done += s.sheet[0].prize[b] >= TETROLL_PRIZE_FIRST;
		printf("seed=%llu score=%d rows=%d bonuses=%d ordered=%d turns=%d values=%d,%d,%d,%d,%d,%d prizes=",
		       (unsigned long long)seed, score, rows, done, tetrollai_ordered_rows(&s, 0), s.turns, bonus[0],
		       bonus[1], bonus[2], bonus[3], bonus[4], bonus[5]);
		for (int b = 0; b < TETROLL_BONUSES; b++)
			putchar("ox12"[s.sheet[0].prize[b]]);
		putchar('\n');
		if (getenv("TETROLL_SHEETS"))
			for (int y = s.height + TETROLL_ABOVE - 1; y >= 0; y--) {
				for (int x = 0; x < s.width; x++)
					putchar(s.sheet[0].cell[y][x] ? '0' + s.sheet[0].cell[y][x] : '.');
				if (y < s.height && tetroll_row_full(&s, 0, y))
					printf(" %d", tetroll_row_score(&s, 0, y));
				putchar('\n');
			}
	}
	if (getenv("TETROLL_EVALS"))
		fprintf(stderr, "evals %ld, at most %ld in one decision\n", ai.evals, max_evals);
	return 0;
}
