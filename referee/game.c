/*
 * game: one game through the variant table. See game.h for the contract
 * and docs/gamelog.md for the log it writes. This file is the phase loop
 * and what every phase shares (applying a move, a chance move); the
 * module's other pieces, one job each, share game-int.h:
 *
 *   game-start.c     the log header, starting bots, the hellos
 *   game-io.c        bot line I/O: queue, flush, events, waiting, `go`
 *   game-fault.c     faults, retirement, the fault policies
 *   game-turn.c      TURN: one seat to move
 *   game-round.c     SIMULTANEOUS: rounds and side actions (table talk)
 *   game-realtime.c  REALTIME: paced moves in arrival order
 *   game-result.c    the result line, quit, the GameResult
 *
 * The loop asks the variant for the phase and acts: CHANCE draws from
 * `chance` (seeded with the game seed, so verify can redraw it), TURN sends
 * one `go` and waits for that seat, SIMULTANEOUS sends `go` to the whole
 * mask and waits for all under one deadline, REALTIME keeps a `go`
 * outstanding for every seat of the mask and applies moves as they come.
 */
#include <sched.h>
#include <signal.h>
#include <string.h>

#include "game-int.h"

G_DEFINE_QUARK(tetrarena-game-error, game_error)

/* GameFault is protocol.md's list, whose names protocol.c keeps. */
G_STATIC_ASSERT(GAME_FAULT_COUNT == PROTOCOL_FAULTS);

const char *game_fault_name(GameFault f)
{
	return protocol_fault_name((int)f);
}

const char *game_end_name(GameEnd e)
{
	static const char *const names[] = {"end", "faults", "limit", "aborted"};
	return names[e];
}

const TimeControl *game_seat_time(const GameSpec *spec, int p)
{
	return p >= 0 && p < VARIANT_MAX_PLAYERS && spec->seats[p].timed ? &spec->seats[p].time : &spec->time;
}

void game_spec_init(GameSpec *spec, const Variant *v, int nplayers, guint64 seed)
{
	memset(spec, 0, sizeof(*spec));
	spec->variant = v;
	variant_config_default(v, nplayers, &spec->config);
	spec->seed = seed;
	timectl_default(&spec->time);
	spec->policy = GAME_POLICY_VARIANT;
	spec->cpu = -1;
	spec->sandbox = SANDBOX_AUTO;
	spec->max_faults = GAME_MAX_FAULTS;
	spec->abort_fd = -1;
}

/* Answer seat p's move `notation`, legal at its `go` but no longer,
 * `rejected NOTATION WHY`: no fault, and not a move after all. */
void game_reject(Game *g, int p, const char *notation, const char *why)
{
	char line[VARIANT_MOVE_TEXT_MAX + 64];
	Text t;

	text_init(&t, line, sizeof(line));
	protocol_rejected(&t, notation, why);
	game_queue(g, p, line);
	game_log_event(g, GAMELOG_REJECTED, p, notation);
	g->seat[p].moves--;
}

/* Apply seat p's move m: its bot's (timed wall/cpu), or the random
 * policy's. */
void game_apply_move(Game *g, int p, Move m, gboolean random, double wall, double cpu)
{
	char line[VARIANT_MOVE_TEXT_MAX + 32];
	const char *text = game_fmt_move(g, p, m);

	if (random) {
		game_log_event(g, GAMELOG_RANDOM, p, text);
	} else {
		game_log_timed(g, GAMELOG_MOVE, p, text, wall, cpu);
		g->seat[p].in_a_row = 0;
	}
	Text t;
	text_init(&t, line, sizeof(line));
	protocol_update_move(&t, p, text);
	game_queue_others(g, p, line);
	g->legal_seat = -1;
	g->v->apply(g->state, p, m);
	g->plies++;
}

static void game_chance(Game *g)
{
	Move m = g->v->chance_sample(g->state, &g->chance);
	const char *text = game_fmt_move(g, VARIANT_CHANCE, m);
	char line[VARIANT_MOVE_TEXT_MAX + 32];

	game_log_event(g, GAMELOG_CHANCE, -1, text);
	if (g->v->chance_public) {
		Text t;
		text_init(&t, line, sizeof(line));
		protocol_update_chance(&t, text);
		game_queue_others(g, -1, line);
	}
	g->legal_seat = -1;
	g->v->apply(g->state, VARIANT_CHANCE, m);
	g->plies++;
}

static void game_release(Game *g)
{
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		bot_free(s->bot);
		g_free(s->name);
		g_free(s->hello);
		if (s->pending)
			g_string_free(s->pending, TRUE);
		g_free(s->snapshot);
	}
	g_free(g->state);
	g_free(g->scratch);
	g_free(g->legal);
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		g_free(g->sha256[p]);
	g_free(g->text);
	if (g->held)
		g_string_free(g->held, TRUE);
}

/* Check the spec and open what the game needs outside itself (the
 * sandbox mode resolved, the log). FALSE with error set, and nothing to
 * undo, when the game cannot be played. */
static gboolean game_open(Game *g, const GameSpec *spec, GError **error)
{
	const Variant *v = spec->variant;
	VariantError verr;

	if ((verr = variant_config_check(v, &spec->config)) != VARIANT_OK) {
		g_set_error(error, GAME_ERROR, GAME_ERROR_SPEC, "%s: %s", v->name, variant_error_string(verr));
		return FALSE;
	}
	if (spec->time.grace < GAME_GRACE_MIN) {
		g_set_error(error, GAME_ERROR, GAME_ERROR_SPEC,
			    "time control: grace %" G_GINT64_FORMAT " ms is below the least, %d ms "
			    "(a scheduling margin that small charges false timeouts on a loaded machine)",
			    spec->time.grace, GAME_GRACE_MIN);
		return FALSE;
	}
	for (int p = 0; p < spec->config.nplayers; p++)
		if (game_seat_time(spec, p)->grace < GAME_GRACE_MIN) {
			g_set_error(error, GAME_ERROR, GAME_ERROR_SPEC,
				    "seat %d's time control: grace %" G_GINT64_FORMAT " ms is below the least, %d ms",
				    p, game_seat_time(spec, p)->grace, GAME_GRACE_MIN);
			return FALSE;
		}
	for (int p = 0; p < spec->config.nplayers; p++) {
		const GameSeat *s = &spec->seats[p];
		g_return_val_if_fail(s->bot || (s->spec && (!spec->keep_bots || s->games >= 1)), FALSE);
	}
	if (!sandbox_resolve(spec->sandbox, &g->sandbox, error))
		return FALSE;
	if (spec->log_path && spec->log_async && !spec->log_tap) {
		g->log = gamelog_writer_new_async(spec->log_path);
	} else if (spec->log_path) {
		/* (watched: the tap reads it line by line, on the game's thread) */
		g->log = gamelog_writer_new_tapped(spec->log_path, spec->log_tap, spec->log_tap_data, error);
		if (!g->log)
			return FALSE;
	}
	return TRUE;
}

/* The game's state, seats and random streams, from the spec. */
static void game_init(Game *g, const GameSpec *spec)
{
	const Variant *v = spec->variant;

	g->n = spec->config.nplayers;
	g->spec = spec;
	g->v = v;
	g->policy = spec->policy == GAME_POLICY_VARIANT ? (int)v->fault_policy : spec->policy;
	g->state = g_malloc0(v->state_size);
	g->scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	g->legal = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	g->legal_seat = -1;
	g->spin = GAME_SPIN_POLLS;
	g->text_cap = 1 << 16;
	g->text = g_malloc(g->text_cap);
	rng_seed(&g->chance, spec->seed);
	rng_seed(&g->fault_rng, rng_derive(spec->seed, "fault", 0));
	/* Ties between seats are broken in an order drawn from the seed: the
	 * first seat looked at, then each batch of moves due together. */
	rng_seed(&g->ties, rng_derive(spec->seed, "ties", 0));
	g->rr = (int)rng_below(&g->ties, (uint32_t)g->n);
	/* Test hook: a referee whose timer wakes it this many ms late for
	 * each real-time moment it waits for (as on a loaded machine;
	 * tests/t6004-rush-late-referee.sh). */
	const char *lag = g_getenv("TETRARENA_TEST_LAG_MS");
	gint64 lag_ms = 0;
	if (lag && g_ascii_string_to_signed(lag, 10, 0, 10000, &lag_ms, NULL))
		g->lag = lag_ms * 1000;
	/* Test hook: each real-time `go` takes this many ms to write (as a
	 * pipe write can on a loaded machine; tests/t6007-rush-tie-load.sh). */
	const char *slow = g_getenv("TETRARENA_TEST_GO_WRITE_MS");
	gint64 slow_ms = 0;
	if (slow && g_ascii_string_to_signed(slow, 10, 0, 10000, &slow_ms, NULL))
		g->go_write = slow_ms * 1000;
	int pace_index = variant_option_index(v, "pace");
	g->pace = pace_index >= 0 ? (gint64)spec->config.opt[pace_index] * 1000 : 0;
	int talk_index = variant_option_index(v, "talk");
	g->talk = talk_index >= 0 && v->side ? (gint64)spec->config.opt[talk_index] * 1000 : 0;
	g->t0 = g_get_monotonic_time();
	g->held = g_string_new(NULL);
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		const BotSpec *bs = spec->seats[p].bot ? bot_spec(spec->seats[p].bot) : spec->seats[p].spec;
		s->name = g_strdup(bs->name);
		s->first_fault = -1;
		s->bank = game_seat_time(spec, p)->bank * 1000;
		s->pending = g_string_new(NULL);
	}
	v->init(g->state, &spec->config);
}

/* The halt of the game's time limit (or of a phase nobody can act in):
 * the variant ends the game. */
static void halt(Game *g, GameResult *result, GameEnd why)
{
	g->legal_seat = -1;
	g->v->halt(g->state);
	game_log_event(g, GAMELOG_HALT, -1, NULL);
	result->end = why;
}

/* The phase loop, to the end of the game. FALSE with error set when the
 * variant cannot be driven. */
static gboolean game_phases(Game *g, GameResult *result, GError **error)
{
	const Variant *v = g->v;

	result->end = GAME_END_RULES;
	/* The game clock starts once every bot said hello (the start line). */
	gint64 game_deadline = g->spec->time.game > 0 ? g_get_monotonic_time() + g->spec->time.game * 1000
						      : GAME_FOREVER;
	for (;;) {
		uint32_t mask;
		VariantPhase phase = v->phase(g->state, &mask);
		if (phase == VARIANT_PHASE_OVER)
			return TRUE;
		if (g->aborted) {
			result->end = GAME_END_ABORTED;
			return TRUE;
		}
		if (game_deadline != GAME_FOREVER && v->halt && g_get_monotonic_time() >= game_deadline) {
			halt(g, result, GAME_END_LIMIT);
			continue;
		}
		switch (phase) {
		case VARIANT_PHASE_CHANCE:
			game_chance(g);
			break;
		case VARIANT_PHASE_TURN:
			game_run_only(g, mask);
			game_turn(g, variant_mask_player(mask));
			break;
		case VARIANT_PHASE_SIMULTANEOUS: {
			/* Every seat of the round stopped and nothing plays for it
			 * (policy `nothing`): no round could ever change the state,
			 * so end the game as real time does, rather than spin. */
			gboolean anyone = g->policy == VARIANT_FAULT_RANDOM;
			for (int p = 0; p < g->n; p++)
				if (mask & (1u << p) && g->seat[p].bot)
					anyone = TRUE;
			if (!anyone && v->halt) {
				halt(g, result, GAME_END_FAULTS);
				break;
			}
			/* With side actions a trade may outdate a move: each `go`
			 * keeps the state it showed. */
			for (int p = 0; p < g->n && v->side; p++)
				if (!g->seat[p].snapshot)
					g->seat[p].snapshot = g_malloc0(v->state_size);
			game_run_only(g, ~0u);
			game_round(g, mask);
			break;
		}
		case VARIANT_PHASE_REALTIME:
			for (int p = 0; p < g->n; p++)
				if (!g->seat[p].snapshot)
					g->seat[p].snapshot = g_malloc0(v->state_size);
			game_run_only(g, ~0u);
			if (game_realtime(g, game_deadline)) {
				if (!v->halt) {
					g_set_error(error, GAME_ERROR, GAME_ERROR_VARIANT,
						    "%s: real-time phase with no way to halt", v->name);
					return FALSE;
				}
				halt(g, result, GAME_END_LIMIT);
			}
			break;
		case VARIANT_PHASE_OVER:
			break;
		}
	}
}

gboolean game_run(const GameSpec *spec, GameResult *result, GError **error)
{
	Game g = {0};

	memset(result, 0, sizeof(*result));
	signal(SIGPIPE, SIG_IGN);
	if (!game_open(&g, spec, error)) {
		/* the bots handed in are the call's, played or not */
		for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
			bot_free(spec->seats[p].bot);
		return FALSE;
	}
	game_init(&g, spec);
	/* The referee's thread joins its bots on their CPU for the game. */
	cpu_set_t old_cpus;
	gboolean pinned = FALSE;
	if (spec->cpu >= 0 && sched_getaffinity(0, sizeof(old_cpus), &old_cpus) == 0) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(spec->cpu, &one);
		/* (a thread that is there already, as a tournament's are, stays) */
		if (!CPU_EQUAL(&one, &old_cpus))
			pinned = sched_setaffinity(0, sizeof(one), &one) == 0;
	}
	if (g.log)
		game_write_header(&g);
	game_start_bots(&g);
	gboolean ok = game_phases(&g, result, error);
	if (ok) {
		game_run_only(&g, ~0u);
		game_finish(&g, result);
	}
	/* One way out: bots and state freed, the thread unpinned, the log
	 * closed (a log that could not be written whole fails the game). */
	game_release(&g);
	if (pinned)
		sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
	if (spec->log_async && !spec->log_tap)
		gamelog_writer_close_later(g.log);	/* settled by the caller */
	else if (!gamelog_writer_close(g.log, ok ? error : NULL) && ok) {
		game_result_clear(result);
		ok = FALSE;
	}
	return ok;
}
