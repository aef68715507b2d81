/*
 * bot-matrix: an AI for the Main Match (variant `matrix`), and an arena
 * that plays it in-process against random players or copies of itself.
 *
 * How it works. Each round every player places one piece on the same
 * board, and a cell scores only if nobody else covers it. So the bot first
 * predicts where the others will go (opponent_coverage): the pieces they
 * may hold follow from the deal rules (all distinct from ours, none
 * repeating its holder's last piece; optionally, piece_weights() counts
 * every deal that keeps all the rules); for each such piece it lists every
 * legal placement and mixes two policies, uniform (a random player) and a
 * softmax over a one-piece greedy score (a sensible player). How much each
 * opponent looks greedy is learnt during the game from their placements
 * (beliefs_update, a Bayesian log-odds per seat). The result is, per cell,
 * the probability that someone else covers it. Then each of our own
 * placements is valued (evaluate): expected unique cells, +5 for every row
 * our piece clears for sure, +5 times the chance that the others complete
 * a row we sit in, -3 if we touch a hole after the clear, and a little
 * for keeping the surface flat and low (optionally, end_value() weighs
 * ending the game when our move would end it). The best placement is
 * played; ties are broken by the bot's Rng mixed with its seat.
 *
 * Start reading at choose(). Two front ends share it: by default the bot
 * speaks the protocol (protocol.md) through botio (bots/botio.h); with
 * `--arena GAMES` it plays whole games in this process instead, the AI
 * against random players, copies of itself or its first version (quick
 * A/B measurements, scripts/matrix-report.sh -a), and re-verifies each
 * game by replaying its recorded moves through the variant table. Its
 * summary ends with a signature, a hash of every move of every game: for
 * a given command line it changes only when the rules or the AI's play
 * change (the determinism check of t7001).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botio.h"
#include "botlevel.h"
#include "matrixai.h"
#include "matrixsocial.h"
#include "matrix.h"
#include "rng.h"
#include "variants.h"

/* a level's noise in --help, spelt from its constant in matrixai.h */
#define NOISE_(x) #x
#define NOISE(x) NOISE_(x)

/* A random player: a uniformly random legal placement. */
static Move choose_random(const MatrixState *s, int me, Rng *rng)
{
	static Move moves[SRS_MAX_LANDINGS];
	int n = variant_matrix.legal_moves(s, me, moves);

	return n ? moves[rng_below(rng, (uint32_t)n)] : 0;
}

/* ---- arena -------------------------------------------------------------- */

#define ARENA_MAX_LOG 20000

typedef struct {
	int8_t player;		/* seat, or VARIANT_CHANCE */
	Move move;		/* 0 with player >= 0: missed */
} LogEntry;

/*
 * Replay a game's log through the variant table from a fresh state: every
 * chance move drawn again from the seed, every placement legal. True when
 * the replay ends with the same scores.
 */
static bool verify(const VariantConfig *cfg, uint64_t seed, const LogEntry *log, int nlog,
		   const int *scores)
{
	static MatrixState s;
	static Move scratch[SRS_MAX_LANDINGS];
	Rng rng;
	int i = 0, out[MATRIX_MAX_PLAYERS];
	uint32_t mask;

	rng_seed(&rng, seed);
	variant_matrix.init(&s, cfg);
	while (variant_matrix.phase(&s, &mask) != VARIANT_PHASE_OVER) {
		if (i >= nlog)
			return false;
		if (variant_matrix.phase(&s, &mask) == VARIANT_PHASE_CHANCE) {
			if (log[i].player != VARIANT_CHANCE ||
			    log[i].move != variant_matrix.chance_sample(&s, &rng))
				return false;
			variant_matrix.apply(&s, VARIANT_CHANCE, log[i++].move);
			continue;
		}
		Move joint[MATRIX_MAX_PLAYERS] = {0};
		uint32_t sub = 0;
		for (int p = 0; p < cfg->nplayers; p++) {
			if (!(mask >> p & 1u))
				continue;
			if (i >= nlog || log[i].player != p)
				return false;
			if (log[i].move) {
				if (!variant_move_is_legal(&variant_matrix, &s, p, log[i].move, scratch))
					return false;
				joint[p] = log[i].move;
				sub |= 1u << p;
			}
			i++;
		}
		variant_matrix.apply_joint(&s, joint, sub);
	}
	variant_matrix.scores(&s, out);
	for (int p = 0; p < cfg->nplayers; p++)
		if (out[p] != scores[p])
			return false;
	return i == nlog;
}

typedef struct {
	int games;
	uint64_t seed;
	int players;
	bool self;		/* opponents are copies of the AI, not random */
	bool verify;
	bool show;		/* print the final board of each game */
	bool transcript;	/* print the protocol lines seat 0 would see */
	bool versus;		/* opponents are the first version of the AI */
	bool frozen;		/* opponents are the AI before the lookahead */
	bool today;		/* opponents are matrixai_level1, the AI before level 2 */
	MatrixAiWeights ai;		/* the AI under test */
	int target;		/* the target option, 0 for its default */
} Arena;

static int arena(const Arena *a)
{
	static MatrixState s;
	static LogEntry log[ARENA_MAX_LOG];
	static MatrixAiBeliefs beliefs[MATRIX_MAX_PLAYERS];
	static char text[1 << 16];
	VariantConfig cfg;
	double points = 0, wins = 0, rounds = 0;
	uint64_t signature = 1469598103934665603ULL;	/* FNV-1a over every game's moves */
	int verified = 0, ends[MATRIX_END_RETIRED + 1] = {0};

	variant_config_default(&variant_matrix, a->players, &cfg);
	if (a->target)
		cfg.opt[MATRIX_OPT_TARGET] = a->target;
	for (int g = 0; g < a->games; g++) {
		uint64_t seed = rng_derive(a->seed, "matrix-arena", (uint64_t)g);
		int ai = g % a->players;	/* the AI's seat rotates */
		Rng deal, play;
		uint32_t mask;
		int nlog = 0, scores[MATRIX_MAX_PLAYERS], rank[MATRIX_MAX_PLAYERS];

		rng_seed(&deal, seed);
		rng_seed(&play, rng_derive(seed, "play", 0));
		variant_matrix.init(&s, &cfg);
		for (int p = 0; p < a->players; p++)
			matrixai_beliefs_init(&beliefs[p]);
		if (a->transcript) {
			printf("tetrarena 1\ngame %d variant=matrix seat=0 players=%d options=", g + 1,
			       a->players);
			for (int o = 0; o < MATRIX_OPT_COUNT; o++)
				printf("%s%s:%d", o ? "," : "", variant_matrix.options[o].key, cfg.opt[o]);
			printf(" time=bank:60000,inc:1000,move:5000,start:10000\n"
			       "hello bot-matrix 1.0 multi\n");
		}
		for (;;) {
			VariantPhase ph = variant_matrix.phase(&s, &mask);
			if (ph == VARIANT_PHASE_OVER || nlog + a->players + 1 > ARENA_MAX_LOG)
				break;
			if (ph == VARIANT_PHASE_CHANCE) {
				Move m = variant_matrix.chance_sample(&s, &deal);
				log[nlog++] = (LogEntry){VARIANT_CHANCE, m};
				variant_matrix.apply(&s, VARIANT_CHANCE, m);
				continue;
			}
			Move joint[MATRIX_MAX_PLAYERS] = {0};
			uint32_t sub = 0;
			for (int p = 0; p < a->players; p++) {
				if (!(mask >> p & 1u))
					continue;
				/* Each player decides on its own view of the state. */
				static MatrixState view;
				Text t;
				text_init(&t, text, sizeof(text));
				variant_matrix.state_format(&s, p, &t);
				if (t.overflow || !variant_matrix.state_parse(&view, &cfg, text)) {
					fprintf(stderr, "arena: state line does not parse\n");
					return 1;
				}
				if (p == ai || a->self)
					joint[p] = matrixai_choose(&view, p, &beliefs[p], &a->ai, &play);
				else if (a->versus)
					joint[p] = matrixai_choose(&view, p, &beliefs[p], &matrixai_first, &play);
				else if (a->frozen)
					joint[p] = matrixai_choose(&view, p, &beliefs[p], &matrixai_frozen, &play);
				else if (a->today)
					joint[p] = matrixai_choose(&view, p, &beliefs[p], &matrixai_level1, &play);
				else
					joint[p] = choose_random(&view, p, &play);
				if (joint[p])
					sub |= 1u << p;
				log[nlog++] = (LogEntry){(int8_t)p, joint[p]};
				if (a->transcript && p == 0) {
					char mv[VARIANT_MOVE_TEXT_MAX];
					Text tm;
					text_init(&tm, mv, sizeof(mv));
					variant_matrix.move_format(&s, p, joint[p], &tm);
					printf("go 5000 %s\nmove %s\n", text, mv);
				}
			}
			variant_matrix.apply_joint(&s, joint, sub);
			for (int p = 0; a->transcript && p < a->players; p++) {
				char mv[VARIANT_MOVE_TEXT_MAX];
				Text tm;
				text_init(&tm, mv, sizeof(mv));
				variant_matrix.move_format(&s, p, joint[p], &tm);
				if (joint[p])
					printf("update %d %s\n", p, mv);
				else
					printf("update fault %d timeout\n", p);
			}
		}
		if (variant_matrix.phase(&s, &mask) != VARIANT_PHASE_OVER) {
			fprintf(stderr, "arena: game %d did not finish\n", g);
			return 1;
		}
		variant_matrix.scores(&s, scores);
		variant_matrix.ranking(&s, rank);
		for (int i = 0; i < nlog; i++)
			for (int k = 0; k < 8; k++)
				signature = (signature ^ ((log[i].move >> (8 * k)) & 0xff)) * 1099511628211ULL;
		if (a->verify) {
			if (!verify(&cfg, seed, log, nlog, scores)) {
				fprintf(stderr, "arena: game %d does not verify\n", g);
				return 1;
			}
			verified++;
		}
		ends[s.end]++;
		rounds += s.round;
		printf("game %d seed=%016llx ai=%d rounds=%d end=%s scores=", g,
		       (unsigned long long)seed, ai, s.round, matrix_end_name(s.end));
		for (int p = 0; p < a->players; p++)
			printf("%s%d", p ? "," : "", scores[p]);
		printf(" ranks=");
		for (int p = 0; p < a->players; p++)
			printf("%s%d", p ? "," : "", rank[p]);
		printf("\n");
		if (a->show) {
			Text t;
			text_init(&t, text, sizeof(text));
			variant_matrix.render(&s, false, &t);
			fputs(text, stdout);
		}
		points += scores[ai];
		if (rank[ai] == 1) {
			int tied = 0;
			for (int p = 0; p < a->players; p++)
				tied += rank[p] == 1;
			wins += 1.0 / tied;	/* a shared win counts its share */
		}
	}
	printf("summary games=%d players=%d opponents=%s mean_points=%.2f win_rate=%.3f "
	       "mean_rounds=%.1f ends=target:%d,above:%d,stuck:%d,rounds:%d verified=%d "
	       "signature=%016llx\n",
	       a->games, a->players, a->self ? "self" : a->versus ? "first" : a->frozen ? "frozen" : a->today ? "level1" : "random",
	       points / a->games,
	       wins / a->games, rounds / a->games, ends[MATRIX_END_TARGET],
	       ends[MATRIX_END_ABOVE], ends[MATRIX_END_STUCK], ends[MATRIX_END_ROUNDS],
	       verified, (unsigned long long)signature);
	return 0;
}

/* ---- protocol ------------------------------------------------------------ */

/* botio's start hook: matrix only; a fresh memory for every game. */
static const char *protocol_start(const Variant *v, const VariantConfig *cfg, int seat,
				  void *ctx)
{
	(void)cfg;
	(void)seat;
	if (v != &variant_matrix)
		return "this bot plays only matrix";
	matrixai_beliefs_init(ctx);
	return NULL;
}

static MatrixAiWeights protocol_weights;	/* matrixai_level(--level) */

static Move protocol_choose(const Variant *v, const void *state, int seat, int ms_left,
			    Rng *rng, void *ctx)
{
	Rng own;

	(void)v;
	(void)ms_left;
	/*
	 * Ties are common (an O's four states, mirror images): copies of this
	 * bot started with the same seed must not break them alike, or they
	 * pile onto the same cells. Mix the seat into the tie-breaking.
	 */
	rng_seed(&own, rng_next(rng) ^ rng_derive((uint64_t)seat, "matrix-seat", 0));
	const MatrixState *s = state;
	if (s->stage == MATRIX_STAGE_PLACE && s->nheld[seat] != 1) {
		/* Several pieces (or none) after trades and gifts (matrixsocial.h). */
		Move best;
		matrixsocial_value(s, seat, s->held[seat], s->nheld[seat], &best);
		return best;
	}
	return matrixai_choose(state, seat, ctx, &protocol_weights, &own);
}

/* Bounded decimal from argv; exits with status 2 on a bad value. */
static long arg_long(const char *s, long lo, long hi)
{
	char *end = NULL;
	long v = strtol(s, &end, 0);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "bot-matrix: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bot-matrix [--no-talk] [--level L]  play over the protocol on stdin/stdout\n"
		"                                  (--no-talk: no trades or gifts; --level 1..5:\n"
		"                                  5, the default, the whole AI; matrixai.h)\n"
		"       bot-matrix --arena GAMES [--seed N] [--players N] [--self]\n"
		"                  [--verify] [--show] [--transcript] [--target N] [--versus]\n"
		"                  [--infer] [--end] [--no-learn] [--next TENTHS]\n"
		"                  [--level1 TENTHS] [--samples N] [--level2 0|1] [--frozen]\n"
		"                  [--today]\n"
		"  --arena plays GAMES in-process games: the AI against random players\n"
		"  (or, with --self, against copies of itself), its seat rotating, and\n"
		"  prints one line per game and a summary of the AI's points and wins.\n"
		"  --versus: the opponents are the first version of the AI.\n"
		"  --frozen: the opponents are the AI as frozen before issue 17.\n"
		"  --today: the opponents are the AI before level 2 (matrixai_level1).\n"
		"  --infer, --end, --no-learn: switch a feature of the AI under test;\n"
		"  --next, --level1, --samples, --level2 set its next-piece weight,\n"
		"  level-1 prior, sampled rounds and level 2 (matrixai.h).\n");
	exit(2);
}

int main(int argc, char **argv)
{
	Arena a = {.seed = 1, .players = 7, .ai = matrixai_default};
	bool arena_mode = false;
	int level;

	if (!botlevel_take("bot-matrix", &argc, argv, &level))
		return 2;
	a.ai = matrixai_level(level);
	protocol_weights = a.ai;

	for (int i = 1; i < argc; i++)
		arena_mode |= strcmp(argv[i], "--arena") == 0;
	for (int i = 1; arena_mode && i < argc; i++) {
		if (strcmp(argv[i], "--arena") == 0 && i + 1 < argc) {
			a.games = (int)arg_long(argv[++i], 1, 1000000);
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			a.seed = (uint64_t)arg_long(argv[++i], 0, INT64_MAX);
		} else if (strcmp(argv[i], "--players") == 0 && i + 1 < argc) {
			a.players = (int)arg_long(argv[++i], 2, MATRIX_MAX_PLAYERS);
		} else if (strcmp(argv[i], "--self") == 0) {
			a.self = true;
		} else if (strcmp(argv[i], "--verify") == 0) {
			a.verify = true;
		} else if (strcmp(argv[i], "--show") == 0) {
			a.show = true;
		} else if (strcmp(argv[i], "--temp") == 0 && i + 1 < argc) {
			a.ai.temp = arg_long(argv[++i], 1, 1000) / 10.0;
		} else if (strcmp(argv[i], "--bumpy") == 0 && i + 1 < argc) {
			a.ai.bumpy = arg_long(argv[++i], 0, 1000) / 100.0;
		} else if (strcmp(argv[i], "--height") == 0 && i + 1 < argc) {
			a.ai.height = arg_long(argv[++i], 0, 1000) / 100.0;
		} else if (strcmp(argv[i], "--rowprob") == 0 && i + 1 < argc) {
			a.ai.rowprob = arg_long(argv[++i], 0, 1000) / 10.0;
		} else if (strcmp(argv[i], "--infer") == 0) {
			a.ai.infer = true;
		} else if (strcmp(argv[i], "--end") == 0) {
			a.ai.end = true;
		} else if (strcmp(argv[i], "--no-learn") == 0) {
			a.ai.learn = false;
		} else if (strcmp(argv[i], "--next") == 0 && i + 1 < argc) {
			a.ai.next = arg_long(argv[++i], 0, 1000) / 10.0;
		} else if (strcmp(argv[i], "--level1") == 0 && i + 1 < argc) {
			a.ai.level1 = arg_long(argv[++i], 0, 10) / 10.0;
		} else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
			a.ai.samples = (int)arg_long(argv[++i], 0, 64);
		} else if (strcmp(argv[i], "--frozen") == 0) {
			a.frozen = true;
		} else if (strcmp(argv[i], "--today") == 0) {
			a.today = true;
		} else if (strcmp(argv[i], "--level2") == 0 && i + 1 < argc) {
			a.ai.level2 = (int)arg_long(argv[++i], 0, 2);
		} else if (strcmp(argv[i], "--versus") == 0) {
			a.versus = true;
		} else if (strcmp(argv[i], "--transcript") == 0) {
			a.transcript = true;
		} else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
			a.target = (int)arg_long(argv[++i], 1, 999);
		} else {
			usage();
		}
	}
	if (arena_mode)
		return arena(&a);
	/* Protocol mode: botio does the lines (and --seed, --help). */
	static MatrixAiBeliefs beliefs;
	static MatrixSocial social;
	/* --no-talk (first argument): ignore the table talk, for comparisons. */
	bool talk = !(argc > 1 && strcmp(argv[1], "--no-talk") == 0);
	if (!talk) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	/* Unbuffered: the table talk polls the descriptor (matrixsocial.c). */
	setvbuf(stdin, NULL, _IONBF, 0);
	matrixsocial_init(&social);
	BotioSpec spec = {
		.name = "bot-matrix",
		.version = "1",
		.about = "The Main Match AI (matrix). With --arena GAMES: in-process games, see --arena --help.\n"
			 "  --level L  strength, 1 (weakest) to 5 (the default, the whole AI): 4 to 1 the\n"
			 "             frozen level-0 AI, +-" NOISE(MATRIXAI_NOISE4) ", " NOISE(MATRIXAI_NOISE3) ", "
			 NOISE(MATRIXAI_NOISE2) " and " NOISE(MATRIXAI_NOISE1) " points\n"
			 "             of noise; 1 does not see the rows the others may complete",
		.choose = protocol_choose,
		.start = protocol_start,
		.ctx = &beliefs,
		.side = talk ? matrixsocial_side : NULL,
		.side_ctx = &social,
	};
	return botio_main(&spec, argc, argv);
}
