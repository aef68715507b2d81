/*
 * game-fault: a bot's misbehaviour as a game result. A fault is charged
 * and logged, every seat told (`update fault`), and the policy applied to
 * the seat: a crash, a resignation, an overlong line, a failed start or a decline end the
 * bot, as does the cap of faults in a row; under forfeit every fault
 * does. A seat whose bot is gone is retired (not asked again, scores
 * nothing more, ranks last), except under `random`, where the referee
 * plays its moves from the fault stream of the seed.
 */
#include <string.h>

#include "game-int.h"

static void kill_seat(Game *g, int p)
{
	Seat *s = &g->seat[p];

	if (s->bot) {
		bot_free(s->bot);
		s->bot = NULL;
	}
	s->awaiting = FALSE;
	s->held = FALSE;
	g_string_truncate(s->pending, 0);
	s->logged = 0;
}

/*
 * Seat p's bot is stopped for good (a crash, the cap of faults in a row,
 * any fault under forfeit): the seat is retired, under every policy (not
 * asked again, scores nothing more, ranks last; a game of two ends),
 * except under `random`, where the seat stays `out` and the referee plays
 * its moves from then on.
 */
void game_retire(Game *g, int p)
{
	Seat *s = &g->seat[p];

	if (s->out)
		return;
	s->out = TRUE;
	if (g->policy == VARIANT_FAULT_RANDOM && s->bot == NULL) {
		game_log_event(g, GAMELOG_OUT, p, NULL);	/* moves played for it from now on */
		return;
	}
	g->legal_seat = -1;
	g->v->retire(g->state, p);
	game_log_event(g, GAMELOG_RETIRE, p, NULL);
}

/*
 * Charge fault `kind` to seat p and apply the policy's consequence on the
 * seat itself: a crash, an overlong line, a failed start or a decline
 * always ends the bot; under forfeit every fault retires the seat. What to
 * do with the current decision (random move, missing) is the caller's.
 */
void game_fault(Game *g, int p, GameFault kind, const char *detail)
{
	Seat *s = &g->seat[p];

	s->faults[kind]++;
	if (s->first_fault < 0)
		s->first_fault = (int)kind;
	/* Name the limit it ran into, when its sandbox saw one. */
	const char *breach = s->bot && (kind == GAME_FAULT_CRASH || kind == GAME_FAULT_TIMEOUT ||
					kind == GAME_FAULT_START)
		? bot_breach(s->bot) : NULL;
	if (g->log) {
		g_autofree char *text = g_strdup_printf("%s%s%s%s%s", protocol_fault_name(kind),
							detail ? " " : "", detail ? detail : "",
							breach ? (detail ? "; " : " ") : "", breach ? breach : "");
		game_log_event(g, GAMELOG_FAULT, p, text);
	}
	gboolean ends_bot = kind == GAME_FAULT_CRASH || kind == GAME_FAULT_RESIGNED || kind == GAME_FAULT_LINE_TOO_LONG ||
			    kind == GAME_FAULT_START || kind == GAME_FAULT_DECLINED;
	uint32_t mask;
	/* A turn cannot be "missing": there, `nothing` means forfeit. */
	if (g->policy == VARIANT_FAULT_NOTHING && g->v->phase(g->state, &mask) == VARIANT_PHASE_TURN)
		ends_bot = TRUE;
	/* A seat that faults again and again is done with, whatever the
	 * policy: it cannot make a game last rounds x the move limit. */
	if (g->spec->max_faults > 0 && ++s->in_a_row >= g->spec->max_faults)
		ends_bot = TRUE;
	if (ends_bot || g->policy == VARIANT_FAULT_FORFEIT)
		kill_seat(g, p);
	if (kind == GAME_FAULT_TIMEOUT && s->bot)
		s->stale++;
	s->awaiting = FALSE;
	if (!s->bot)
		game_retire(g, p);
	char line[96];
	Text t;
	text_init(&t, line, sizeof(line));
	protocol_update_fault(&t, p, protocol_fault_name(kind));
	if (g->round_open) {
		g_string_append(g->held, line);
		g_string_append_c(g->held, '\n');
		return;
	}
	game_queue_others(g, -1, line);	/* the seat itself is told too */
}

void game_release_faults(Game *g)
{
	g->round_open = FALSE;
	for (char *line = g->held->str, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		game_queue_others(g, -1, line);
	}
	g_string_truncate(g->held, 0);
}

/*
 * Charge fault `kind` to seat p, whose bot was found gone (`what`: its
 * output or input closed), saying how its process ended. The wait for that
 * is bounded by the grace margin (at least GAME_END_WAIT_MIN ms, for the
 * moment between a bot's pipes closing and its exit), so that a bot that
 * closed its pipes but lives on costs the game no more; that bot is "still
 * running" and, as a crash or a failed start ends the bot, killed.
 */
void game_fault_gone(Game *g, int p, GameFault kind, const char *what)
{
	gint64 deadline = g_get_monotonic_time() + MAX(game_seat_time(g->spec, p)->grace, GAME_END_WAIT_MIN) * 1000;
	g_autofree char *end = bot_end_text(g->seat[p].bot, deadline);
	g_autofree char *detail = g_strdup_printf("%s; %s", what, end ? end : "still running; killed");

	game_fault(g, p, kind, detail);
}

/*
 * Seat p's bot does not read its input: it let GAME_OUTPUT_CAP bytes pile
 * up. Nothing can be said to it any more, so it is stopped. In real time
 * its seat is retired under every policy, so that the others play on and
 * a game of two ends at once; elsewhere the policy decides, as for a crash.
 */
void game_stop_not_reading(Game *g, int p)
{
	Seat *s = &g->seat[p];
	uint32_t mask;
	gboolean realtime = g->v->phase(g->state, &mask) == VARIANT_PHASE_REALTIME;

	kill_seat(g, p);
	if (realtime)
		s->out = TRUE;	/* retired below, whatever the policy */
	game_fault(g, p, GAME_FAULT_TIMEOUT, "not reading its input");
	if (realtime) {
		g->legal_seat = -1;
		g->v->retire(g->state, p);
		game_log_event(g, GAMELOG_RETIRE, p, NULL);
	}
}

/* Seat p's `go` ran out of time: a timeout, said to be a bot that does
 * not read when it left that `go` unread. */
void game_timeout(Game *g, int p)
{
	game_fault(g, p, GAME_FAULT_TIMEOUT, game_read_its_go(g, p) ? NULL : "not reading its input");
}

/* A uniformly random legal move for p from the fault stream; false if none. */
gboolean game_random_move(Game *g, int p, Move *m)
{
	int n = g->v->legal_moves(g->state, p, g->scratch);

	if (n <= 0)
		return FALSE;
	*m = g->scratch[rng_below(&g->fault_rng, (uint32_t)n)];
	return TRUE;
}

/* Play the random-policy move for p, if that is the policy. */
void game_policy_move(Game *g, int p)
{
	Move m;

	if (g->policy == VARIANT_FAULT_RANDOM && game_random_move(g, p, &m))
		game_apply_move(g, p, m, TRUE, 0, 0);
}
