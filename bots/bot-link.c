/*
 * bot-link: a strong Tetris Link player (linkai.c: expectimax over the
 * next player's die roll), speaking protocol.md through botio.c.
 *
 * With --arena N it plays N games in this process against another bot
 * instead (arena.c), alternating seats, and prints the results and a
 * digest of every move: the quick measure of strength and the
 * determinism signature. Start reading at main().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "botclock.h"
#include "botio.h"
#include "botlevel.h"
#include "linkai.h"
#include "linkmc.h"
#include "randombot.h"

static const char *start(const Variant *v, const VariantConfig *cfg, int seat, void *ctx)
{
	(void)cfg;
	(void)seat;
	(void)ctx;
	return v == &variant_link ? NULL : "bot-link plays only link";
}

/* The player: the search, and the share of moves it leaves to chance. */
typedef struct {
	LinkAi *ai;
	LinkMc *mc;		/* playouts at 3-4 players (--mc), or NULL */
	int noise;		/* percent of moves played at random (--noise) */
	bool analyse;		/* --analyse */
	RandomBot random;
} LinkPlayer;

/*
 * --analyse (for `referee review`): every legal placement valued three
 * placements deep (two with --depth 2; linkai_analyse, no clock: the same
 * values on any machine), then again a placement deeper while the pass
 * before predicts the next (ANALYSE_GROWTH times its placements tried)
 * within ANALYSE_NODES, up to --depth (so deeper near the end of a game,
 * as linkai_choose's iterative deepening; by a count, not the clock),
 * as the chance of winning in percent (50 + the value / 1000: linkai.h's
 * 50000 x tanh of the margin, plus the margin in tenths as a tie-break),
 * in one `info analyse` line; the best of them is played.
 */
#define ANALYSE_NODES 1000000L	/* placements a deeper pass may try, predicted */
#define ANALYSE_GROWTH 25L	/* a pass one deeper is taken to try this many times more */
static Move analyse(const Variant *v, const LinkState *s, int seat, LinkAi *ai)
{
	LinkAiScored sc[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	Move moves[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	double values[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];
	int depth = ai->depth >= 3 ? 3 : 2;
	ai->nodes = 0;
	int n = linkai_analyse(ai, s, seat, depth, sc), best = 0;
	/* deeper while the pass before predicts the next to stay in budget */
	while (depth < ai->depth && ai->nodes * ANALYSE_GROWTH <= ANALYSE_NODES) {
		ai->nodes = 0;
		linkai_analyse(ai, s, seat, ++depth, sc);
	}

	for (int i = 0; i < n; i++) {
		moves[i] = sc[i].move;
		values[i] = 50.0 + sc[i].value / 1000.0;
		if (sc[i].value > sc[best].value)
			best = i;
	}
	botio_analyse(v, s, seat, moves, values, n, "win%");
	botio_info("depth %d nodes %ld", depth, ai->nodes);
	return n > 0 ? sc[best].move : 0;
}

/* linkai_choose (or, --noise percent of the time, a random legal move),
 * then an `info` line with the search's size for the log. */
static Move choose_and_tell(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
			    void *ctx)
{
	LinkPlayer *p = ctx;
	LinkAi *ai = p->ai;

	if (p->analyse)
		return analyse(v, state, seat, ai);
	if (p->noise > 0 && (int)rng_below(rng, 100) < p->noise) {
		botio_info("noise: a random move");
		return randombot_choose(v, state, seat, ms_left, rng, &p->random);
	}
	Move m = p->mc ? linkmc_choose(v, state, seat, ms_left, rng, p->mc)
		       : linkai_choose(v, state, seat, ms_left, rng, ai);

	if (p->mc && p->mc->played > 0) {
		botio_info("playouts %d", p->mc->played);
		return m;
	}
	const LinkAi *searched = p->mc ? &p->mc->search : ai;
	botio_info("depth %d nodes %ld", searched->searched, searched->nodes);
	return m;
}

/*
 * --positions: the position after every placement of an arena game, for
 * tuning the evaluation (scripts/link-texel.py). Held until the game ends,
 * then written one line each with the game's result.
 */
#define POSITIONS_MAX 512
typedef struct {
	double f[LINK_MAX_PLAYERS][LINKAI_F_COUNT];
	int next;		/* the seat that rolls next */
	int room;		/* empty cells above the stacks */
} Position;

typedef struct {
	ArenaPlayer inner;
	const LinkAi *ai;	/* whose open-cell counting the features use */
	Position *held;
	int *nheld;
} Recorder;

static Move record_choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
			  void *ctx)
{
	Recorder *r = ctx;
	Move m = r->inner.choose(v, state, seat, ms_left, rng, r->inner.ctx);
	LinkState t = *(const LinkState *)state;
	Move scratch[PIECE_ORIENTATIONS * LINK_MAX_WIDTH];

	if (*r->nheld >= POSITIONS_MAX || !variant_move_is_legal(v, &t, seat, m, scratch))
		return m;
	v->apply(&t, seat, m);
	Position *p = &r->held[(*r->nheld)++];
	linkai_features(r->ai, &t, p->f);
	p->next = t.current;
	p->room = linkai_room(&t);
	return m;
}

/* One line per held position: rank of each seat, next, room, then each seat's features. */
static void write_positions(FILE *out, const Position *held, int n, const ArenaResult *r, int players)
{
	for (int i = 0; i < n; i++) {
		for (int p = 0; p < players; p++)
			fprintf(out, "%d ", r->rank[p]);
		fprintf(out, "%d %d", held[i].next, held[i].room);
		for (int p = 0; p < players; p++)
			for (int k = 0; k < LINKAI_F_COUNT; k++)
				fprintf(out, " %g", held[i].f[p][k]);
		fputc('\n', out);
	}
}

static bool parse_int_arg(const char *s, int lo, int hi, int *out)
{
	char *end = NULL;

	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

/* Play `games` 2-player games of link against `opponent`; print the tally. */
static int arena(LinkAi *ai, LinkMc *mc, int games, const char *opponent, int players, int ms,
		 const char *opp_weights, int opp_depth, int opp_level, int first_seed, FILE *positions)
{
	static Position held[POSITIONS_MAX];
	int nheld = 0;
	Recorder rec[2];
	RandomBot rnd;
	LinkAi other;
	ArenaPlayer me = mc ? (ArenaPlayer){linkmc_choose, mc} : (ArenaPlayer){linkai_choose, ai}, them;
	int won = 0, tied = 0, lost = 0, illegal = 0;
	long my_points = 0, their_points = 0;
	uint64_t digest = 0;
	double t0 = botclock_ms();

	if (!randombot_init(&rnd))
		return 1;
	linkai_init(&other);
	if (opp_level)
		linkai_set_level(&other, opp_level);	/* its weights too: --opp-weights after */
	if (opp_weights && !linkai_set_weights(&other, opp_weights)) {
		fprintf(stderr, "bot-link: bad --opp-weights %s\n", opp_weights);
		randombot_release(&rnd);
		return 2;
	}
	if (!strcmp(opponent, "random")) {
		them = (ArenaPlayer){randombot_choose, &rnd};
	} else if (!strcmp(opponent, "greedy")) {
		other.depth = 1;
		them = (ArenaPlayer){linkai_choose, &other};
	} else if (!strcmp(opponent, "self")) {
		if (opp_depth)
			other.depth = opp_depth;
		them = (ArenaPlayer){linkai_choose, &other};
	} else if (!strcmp(opponent, "depth2")) {
		other.depth = 2;
		them = (ArenaPlayer){linkai_choose, &other};
	} else {
		fprintf(stderr, "bot-link: unknown opponent %s (random, greedy, depth2, self)\n", opponent);
		randombot_release(&rnd);
		return 2;
	}
	for (int g = 0; g < games; g++) {
		VariantConfig cfg;
		ArenaPlayer seats[VARIANT_MAX_PLAYERS];
		ArenaResult r;
		int mine = g % players;

		variant_config_default(&variant_link, players, &cfg);
		for (int p = 0; p < players; p++)
			seats[p] = p == mine ? me : them;
		if (positions) {
			rec[0] = (Recorder){me, ai, held, &nheld};
			rec[1] = (Recorder){them, ai, held, &nheld};
			for (int p = 0; p < players; p++)
				seats[p] = (ArenaPlayer){record_choose, &rec[p == mine ? 0 : 1]};
			nheld = 0;
		}
		if (!arena_play(&variant_link, &cfg, seats, (uint64_t)(g / players) + (uint64_t)first_seed, ms, &r)) {
			randombot_release(&rnd);
			return 1;
		}
		if (positions)
			write_positions(positions, held, nheld, &r, players);
		int best_other = 0;
		for (int p = 0; p < players; p++)
			if (p != mine && (best_other == 0 || r.rank[p] < best_other))
				best_other = r.rank[p];
		if (r.rank[mine] < best_other)
			won++;
		else if (r.rank[mine] == best_other)
			tied++;
		else
			lost++;
		my_points += r.score[mine];
		for (int p = 0; p < players; p++)
			if (p != mine)
				their_points += r.score[p];
		illegal += r.illegal;
		digest = digest * 31 + r.digest;
	}
	double secs = (botclock_ms() - t0) / 1e3;
	printf("games %d players %d opponent %s: won %d tied %d lost %d (win rate %.1f%%)\n",
	       games, players, opponent, won, tied, lost, 100.0 * won / games);
	printf("mean score: bot-link %.2f, opponent %.2f; illegal moves %d\n",
	       (double)my_points / games, (double)their_points / games / (players - 1), illegal);
	printf("signature %016llx, %.2f s\n", (unsigned long long)digest, secs);
	randombot_release(&rnd);
	return 0;
}

int main(int argc, char **argv)
{
	LinkAi ai;
	LinkMc mc;
	int mc_playouts = -1, mc_keep = LINKMC_KEEP, mc_min = LINKMC_MIN_PLAYERS;
	int games = 0, players = 2, ms = 5000, opp_depth = 0, opp_level = 0, first_seed = 1, level, noise = 0;
	const char *opponent = "random", *opp_weights = NULL, *positions = NULL;
	bool weights_given = false, analyse_each = false;
	char *rest[64];
	int nrest = 0;

	linkai_init(&ai);
	if (!botlevel_take("bot-link", &argc, argv, &level))
		return 2;
	linkai_set_level(&ai, level);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (i > 0 && has && !strcmp(a, "--arena") && parse_int_arg(argv[i + 1], 1, 1000000, &games)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--depth") && parse_int_arg(argv[i + 1], 1, LINKAI_MAX_DEPTH, &ai.depth)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--deeper") && parse_int_arg(argv[i + 1], 1, LINKAI_ROOT_DEEP, &ai.root_deeper)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--opp-depth") && parse_int_arg(argv[i + 1], 1, LINKAI_MAX_DEPTH, &opp_depth)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--opp-model") && parse_int_arg(argv[i + 1], LINKAI_OPP_PARANOID, LINKAI_OPP_MAXN, &ai.opp_model)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--mp-eval") && parse_int_arg(argv[i + 1], LINKAI_MP_LEADER, LINKAI_MP_FIELD, &ai.mp_eval)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--opp-level") && parse_int_arg(argv[i + 1], BOTLEVEL_MIN, BOTLEVEL_MAX, &opp_level)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--first-seed") && parse_int_arg(argv[i + 1], 1, 1000000000, &first_seed)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--ms") && parse_int_arg(argv[i + 1], 1, 1000000, &ms)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--players") && parse_int_arg(argv[i + 1], 2, LINK_MAX_PLAYERS, &players)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--mc") && parse_int_arg(argv[i + 1], 0, 100000, &mc_playouts)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--mc-keep") && parse_int_arg(argv[i + 1], 1, PIECE_ORIENTATIONS * LINK_MAX_WIDTH, &mc_keep)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--mc-players") && parse_int_arg(argv[i + 1], 2, LINK_MAX_PLAYERS, &mc_min)) {
			i++;
		} else if (i > 0 && has && !strcmp(a, "--noise") && parse_int_arg(argv[i + 1], 0, 100, &noise)) {
			i++;
		} else if (i > 0 && !strcmp(a, "--analyse")) {
			analyse_each = true;
		} else if (i > 0 && has && !strcmp(a, "--opponent")) {
			opponent = argv[++i];
		} else if (i > 0 && has && !strcmp(a, "--positions")) {
			positions = argv[++i];
		} else if (i > 0 && has && !strcmp(a, "--opp-weights")) {
			opp_weights = argv[++i];
		} else if (i > 0 && has && !strcmp(a, "--weights")) {
			weights_given = true;
			if (!linkai_set_weights(&ai, argv[++i])) {
				fprintf(stderr, "bot-link: bad --weights %s\n", argv[i]);
				return 2;
			}
		} else if (nrest < 63) {
			rest[nrest++] = argv[i];
		}
	}
	rest[nrest] = NULL;
	linkmc_init(&mc);
	mc.search = ai;
	mc.rank = ai;	/* --opp-model, --mp-eval */
	if (!weights_given)
		linkai_use_weights(&mc.rank, LINKAI_WEIGHTS_BEFORE);
	mc.keep = mc_keep;
	mc.min_players = mc_min;
	/* Playouts at 3-4 players are the full strength's; lower levels search. */
	if (mc_playouts < 0)
		mc_playouts = level == BOTLEVEL_MAX ? LINKMC_PLAYOUTS : 0;
	mc.playouts = mc_playouts;
	LinkMc *use_mc = mc_playouts > 0 ? &mc : NULL;
	if (games > 0) {
		FILE *out = NULL;
		if (positions && !(out = fopen(positions, "w"))) {
			fprintf(stderr, "bot-link: cannot write %s: %s\n", positions, strerror(errno));
			return 2;
		}
		int rc = arena(&ai, use_mc, games, opponent, players, ms, opp_weights, opp_depth, opp_level,
			       first_seed, out);
		if (out && fclose(out) != 0) {
			fprintf(stderr, "bot-link: cannot write %s: %s\n", positions, strerror(errno));
			return 1;
		}
		return rc;
	}
	LinkPlayer player = {&ai, use_mc, noise, analyse_each, {0}};
	if (noise > 0 && !randombot_init(&player.random)) {
		fprintf(stderr, "bot-link: out of memory\n");
		return 1;
	}
	BotioSpec spec = {
		.name = "bot-link",
		.version = "1",
		.about = "A Tetris Link player: expectimax over the next player's die roll;\n"
			 "at 3-4 players, playouts of whole games.\n"
			 "  --level L           strength, 1 (weakest) to 5 (the default, the full search):\n"
			 "                      4 two plies, 3 one (greedy), 2 and 1 greedy with noise\n"
			 "  --depth D           placements searched at most: 1 greedy, 2, 3, 4, ... 12\n"
			 "                      (default 12, by time: 4 in mid-game, deeper near the end)\n"
			 "  --deeper N          placements searched the fourth ply (default 3, at most 6)\n"
			 "  --noise PCT         play a random legal move PCT percent of the time (weaker)\n"
			 "  --analyse           at each `go`, value every legal placement three placements\n"
			 "                      deep (two with --depth 2; deeper near the end, by a count\n"
			 "                      of placements tried, never the clock) as a chance of\n"
			 "                      winning in percent, in an `info analyse` line, and play\n"
			 "                      the best (referee review)\n"
			 "  --opp-model M       other players' inner placements (linkai.h): 0 paranoid\n"
			 "                      (default), 1 paranoid among their own best 3, 2 their own\n"
			 "                      best only (max^n)\n"
			 "  --mp-eval E         with 2-3 opponents in play (linkai.h): 0 the margin over\n"
			 "                      the leader (default), 1 the chance of beating each,\n"
			 "                      2 the margin over their mean\n"
			 "  --mc N              at 3-4 players, play each of the best placements out\n"
			 "                      to the end N times (linkmc.h; default 150 at level 5,\n"
			 "                      within a tenth of the move's time); 0 searches instead\n"
			 "  --mc-keep K         placements played out (default 6)\n"
			 "  --mc-players P      play out only at tables of P players or more (default 3)\n"
			 "  --arena N           play N games in-process instead and print the tally\n"
			 "  --opponent NAME     arena opponent: random (default), greedy, depth2, self\n"
			 "  --players P         arena players per game (default 2)\n"
			 "  --weights LIST      evaluation weights (see linkai.h), comma-separated\n"
			 "  --positions FILE    with --arena: write every position after a placement\n"
			 "                      with the game's result (scripts/link-texel.py)\n"
			 "  --opp-weights LIST  the arena opponent's weights (greedy, self)\n"
			 "  --opp-depth D       the arena opponent's depth (self; default as --depth's)\n"
			 "  --opp-level L       the arena opponent's level (self; default 5)\n"
			 "  --first-seed N      the arena's first seed (default 1); seat-swapped pairs\n"
			 "  --ms MS             the time each arena move is given (default 5000)",
		.choose = choose_and_tell,
		.start = start,
		.ctx = &player,
	};
	int rc = botio_main(&spec, nrest, rest);
	if (noise > 0)
		randombot_release(&player.random);
	return rc;
}
