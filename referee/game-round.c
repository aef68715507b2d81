/*
 * game-round: a SIMULTANEOUS phase: `go` to every seat of the round at
 * once, one deadline for all, moves held until the round is complete and
 * then applied together (apply_joint) and broadcast; the round's faults
 * are announced then too, before its moves (game_fault() holds them while
 * g->round_open), so that nobody hears of a seat's fault while its own
 * move is still open. Meanwhile a variant
 * with side actions (table talk) gets every other line of a seat through
 * Variant.side, which says what to answer and route, and Variant.side_close
 * once a seat is no longer awaited; a move outdated by a trade is answered
 * `rejected` and asked again. What comes for a closed round is drained
 * before the next one, so nothing is judged in the wrong round.
 *
 * A table with a talk window (option `talk`, protocol.md): for its first
 * `talk` ms a round stays open to everyone. A move sent in it is
 * provisional (a later one replaces it, the seat's talk stays open, its
 * clock does not run); when the window ends, or once every seat of the
 * round has a move, the moves in are final (a move a trade made stale is
 * `rejected` and asked again) and those seats' talk closes.
 */
#include <string.h>

#include "game-int.h"

/* Send a side action's lines, each to its seat, at once. */
static void side_send(Game *g, const VariantSide *out)
{
	for (int i = 0; i < out->n; i++) {
		int to = out->to[i];
		if (to < 0 || to >= g->n || !g->seat[to].bot)
			continue;
		game_queue(g, to, out->line[i]);
		game_flush(g, to);
	}
}

/*
 * A line of seat p during a simultaneous round that may be a side action
 * (variant.h): checked and applied by the variant, logged as an event,
 * its answers routed. FALSE when it is none (a move, info, or anything the
 * variant does not know: handled as before).
 */
static gboolean side_line(Game *g, int p, const char *line, gboolean control)
{
	VariantSide out;

	if (game_line_kind(g, line) != LINE_SIDE)
		return FALSE;
	const char *why = NULL;
	if (++g->seat[p].side > GAME_SIDE_MAX || g->seat[p].unlogged)
		why = "flood";
	else if (control)
		why = "bad-text";	/* its control bytes are '?' by now */
	for (const char *c = line; *c && !why; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			why = "bad-text";	/* only printable ASCII is ever applied */
	if (why) {
		/* Answered, not applied, not an event: verify never sees it
		 * (the log shows the line as traffic), and nothing changed. */
		char answer[64];
		Text t;
		text_init(&t, answer, sizeof(answer));
		protocol_refused(&t, line, why);
		game_queue(g, p, answer);
		game_flush(g, p);
		return TRUE;
	}
	VariantSideResult r = g->v->side(g->state, p, line, &out);
	if (r == VARIANT_SIDE_NONE)
		return FALSE;
	g->legal_seat = -1;
	gamelog_write_side(g->log, p, r == VARIANT_SIDE_DONE ? NULL : out.reason, line);
	/* the event repeats the line: it counts against the seat's text again */
	if (game_text_counts(line))
		g->seat[p].text += strlen(line) + 1;
	side_send(g, &out);
	return TRUE;
}

/* Close the side actions of every seat of the mask that is no longer
 * awaiting its move (moved, faulted, or never asked). */
static void side_close_done(Game *g, uint32_t mask, uint32_t *closed)
{
	VariantSide out;

	if (!g->v->side_close)
		return;
	for (int p = 0; p < g->n; p++) {
		if (!(mask & (1u << p)) || (*closed & (1u << p)) || g->seat[p].awaiting)
			continue;
		*closed |= 1u << p;
		game_log_event(g, GAMELOG_CLOSE, p, NULL);
		g->v->side_close(g->state, p, &out);
		side_send(g, &out);
	}
}

/* A `move` of seat p whose round is closed (it moved, or its `go` timed
 * out): discarded, never judged as the answer to a later `go`. */
static gboolean closed_move(Game *g, int p, const char *line)
{
	Seat *s = &g->seat[p];

	if (s->awaiting || game_line_kind(g, line) != LINE_MOVE)
		return FALSE;
	if (s->stale > 0)
		s->stale--;
	else
		gamelog_write_comment(g->log, "seat %d: a move for a closed round, discarded", p);
	return TRUE;
}

/*
 * The round is closed: what the bots sent for it and the referee has not
 * read yet (a side line right after a `move`, a move owed to a `go` that
 * timed out) is read now and answered or discarded, so that nothing sent
 * for a closed round is judged in the next one. Side lines are refused
 * `moved` (the variant's answer for a closed seat).
 */
static void drain_round(Game *g)
{
	Event ev;
	Move m;
	double wall, cpu;

	for (int p = 0; p < g->n; p++) {
		Bot *b = g->seat[p].bot;
		if (b && !bot_eof(b))
			bot_read(b);
		while (game_take_event(g, p, &ev)) {
			if (ev.kind == EV_LINE && side_line(g, p, ev.line, ev.bad))
				continue;
			if (ev.kind == EV_LINE && closed_move(g, p, ev.line))
				continue;
			game_handle_event(g, &ev, &m, &wall, &cpu);
		}
	}
}

/* The talk window ends (its time is up, or every seat of the round has a
 * move): the provisional moves are final, but one a trade made stale,
 * which is rejected and asked again (clocked from now). */
static void window_close(Game *g, uint32_t mask)
{
	g->window_end = 0;
	gamelog_write_comment(g->log, "the talk window closes");
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		if (!(mask & (1u << p)) || !s->awaiting || !s->has_move)
			continue;
		if (variant_move_is_legal(g->v, g->state, p, s->move, g->scratch)) {
			s->awaiting = FALSE;
			continue;
		}
		s->has_move = FALSE;
		game_reject(g, p, game_fmt_move(g, p, s->move), "traded");
		game_send_go(g, p);
	}
}

/* Whether every seat of the round still awaited has a provisional move. */
static gboolean window_all_in(Game *g, uint32_t mask)
{
	for (int p = 0; p < g->n; p++)
		if (mask & (1u << p) && g->seat[p].awaiting && !g->seat[p].has_move)
			return FALSE;
	return TRUE;
}

/* The round of game_round(), open from its first `go`: faults are held
 * until the round is in (released before its moves are announced). */
static void round_play(Game *g, uint32_t mask)
{
	uint32_t closed = 0;
	Move moves[VARIANT_MAX_PLAYERS] = {0};
	uint32_t submitted = 0;
	Event ev;

	g->window_end = g->talk > 0 ? g_get_monotonic_time() + g->talk : 0;
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		s->has_move = FALSE;
		s->move_ms = s->move_cpu = 0;
		if (mask & (1u << p) && s->bot)
			game_send_go(g, p);
	}
	/* One deadline for the round: the latest of the seats'. */
	gboolean over = FALSE;
	for (;;) {
		uint32_t still;
		if (g->v->phase(g->state, &still) != VARIANT_PHASE_SIMULTANEOUS) {
			over = TRUE;
			break;
		}
		if (g->window_end && (g_get_monotonic_time() >= g->window_end || window_all_in(g, mask & still)))
			window_close(g, mask & still);
		/* (a seat retired meanwhile is no longer in the round) */
		side_close_done(g, mask & still, &closed);
		gint64 deadline = 0;
		gboolean waiting = FALSE;
		for (int p = 0; p < g->n; p++)
			if (g->seat[p].awaiting && mask & (1u << p)) {
				waiting = TRUE;
				deadline = MAX(deadline, g->seat[p].deadline);
			}
		if (!waiting)
			break;
		if (g->window_end)
			deadline = MIN(deadline, g->window_end);
		game_wait_event(g, deadline, -1, &ev);
		if (ev.kind == EV_ABORT)
			return;
		if (ev.kind == EV_NONE) {
			gint64 now = g_get_monotonic_time();
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now)
					game_timeout(g, p);
			continue;
		}
		Move m;
		double wall, cpu;
		int p = ev.seat;
		if (ev.kind == EV_LINE && (side_line(g, p, ev.line, ev.bad) || closed_move(g, p, ev.line)))
			continue;
		/* In the talk window a seat with a move is still awaited: a
		 * later move replaces it (its clock and count taken once). */
		Seat *s = &g->seat[p];
		gboolean again = g->window_end && s->awaiting && s->has_move && ev.kind == EV_LINE &&
				 !ev.bad && game_line_kind(g, ev.line) == LINE_MOVE;
		gint64 bank = s->bank;
		if (again) {
			s->has_move = FALSE;
			s->moves--;
		}
		Reply reply = game_handle_event(g, &ev, &m, &wall, &cpu);
		if (again)
			s->bank = bank;
		if (reply != REPLY_MOVE)
			continue;
		if (!variant_move_is_legal(g->v, g->state, p, m, g->scratch)) {
			/* Legal at its `go`, stale since because a trade or gift
			 * completed meanwhile: not the bot's fault; asked again. */
			if (g->seat[p].snapshot &&
			    variant_move_is_legal(g->v, g->seat[p].snapshot, p, m, g->scratch)) {
				game_reject(g, p, protocol_move_text(ev.line), "traded");
				game_send_go(g, p);
				continue;
			}
			game_fault(g, p, GAME_FAULT_ILLEGAL, NULL);
			continue;
		}
		g->seat[p].has_move = TRUE;
		g->seat[p].in_a_row = 0;
		g->seat[p].move = m;
		g->seat[p].move_ms = wall;
		g->seat[p].move_cpu = cpu;
		/* provisional until the window closes: still awaited */
		if (g->window_end)
			g->seat[p].awaiting = TRUE;
	}
	g->window_end = 0;
	drain_round(g);
	/* A retirement during the round can end the game (one seat left):
	 * then there is no round to complete. */
	if (over)
		return;
	uint32_t still;
	if (g->v->phase(g->state, &still) != VARIANT_PHASE_SIMULTANEOUS)
		return;
	for (int p = 0; p < g->n; p++) {
		if (!(mask & still & (1u << p)))
			continue;	/* not in the round, or retired during it */
		Seat *s = &g->seat[p];
		Move m;
		if (!s->has_move && g->policy == VARIANT_FAULT_RANDOM && game_random_move(g, p, &m)) {
			s->has_move = TRUE;
			s->move = m;
			game_log_event(g, GAMELOG_SUBMIT_RANDOM, p, game_fmt_move(g, p, m));
		} else if (s->has_move) {
			game_log_timed(g, GAMELOG_SUBMIT, p, game_fmt_move(g, p, s->move), s->move_ms, s->move_cpu);
		} else {
			game_log_event(g, GAMELOG_MISSING, p, NULL);
		}
		if (s->has_move) {
			submitted |= 1u << p;
			moves[p] = s->move;
		}
	}
	game_log_event(g, GAMELOG_JOINT, -1, NULL);
	/* Everyone learns the round's faults and moves only after it is
	 * complete. */
	game_release_faults(g);
	for (int p = 0; p < g->n; p++)
		if (submitted & (1u << p)) {
			char u[VARIANT_MOVE_TEXT_MAX + 32];
			Text t;
			text_init(&t, u, sizeof(u));
			protocol_update_move(&t, p, game_fmt_move(g, p, moves[p]));
			game_queue_others(g, p, u);
		}
	g->legal_seat = -1;
	g->v->apply_joint(g->state, moves, submitted);
	g->plies++;
}

void game_round(Game *g, uint32_t mask)
{
	g->round_open = TRUE;
	round_play(g, mask);
	g->window_end = 0;
	/* (a round that ended the game, or was aborted, has no moves to
	 * announce: its faults go before the result) */
	game_release_faults(g);
}
