/*
 * game-turn: a TURN phase: one `go` to the seat to move, its reply awaited
 * under its deadline (other seats' lines handled meanwhile), then its move
 * applied, or a fault charged and the policy's move played for it.
 */
#include "game-int.h"

/* Whether p may play m now: from the list sent with `moves` when it is
 * still current (the state has not changed since), else generated. */
static gboolean legal_now(Game *g, int p, Move m)
{
	if (g->legal_seat == p) {
		for (int i = 0; i < g->nlegal; i++)
			if (g->legal[i] == m)
				return TRUE;
		return FALSE;
	}
	return variant_move_is_legal(g->v, g->state, p, m, g->scratch);
}

void game_turn(Game *g, int p)
{
	Seat *s = &g->seat[p];
	Move m;
	double wall = 0, cpu = 0;
	Event ev;

	if (!s->bot) {
		/* No bot, yet asked (forfeit would have retired it): the random
		 * policy plays for it; otherwise a turn cannot be skipped, so
		 * the seat is retired now. */
		if (g->policy == VARIANT_FAULT_RANDOM && game_random_move(g, p, &m)) {
			game_apply_move(g, p, m, TRUE, 0, 0);
			return;
		}
		g->legal_seat = -1;
		g->v->retire(g->state, p);
		game_log_event(g, GAMELOG_RETIRE, p, NULL);
		return;
	}
	game_send_go(g, p);
	if (!s->awaiting) {
		/* the `go` could not be delivered: a fault was charged */
		game_policy_move(g, p);
		return;
	}
	while (s->awaiting) {
		game_wait_event(g, s->deadline, p, &ev);
		if (ev.kind == EV_ABORT)
			return;
		if (ev.kind == EV_NONE) {
			game_timeout(g, p);
			game_policy_move(g, p);
			return;
		}
		Reply r = game_handle_event(g, &ev, &m, &wall, &cpu);
		if (ev.seat != p) {
			/* Someone else faulted meanwhile: when that ended the game
			 * (or the turn), p's answer no longer counts. */
			uint32_t now_mask;
			if (r == REPLY_FAULT &&
			    (g->v->phase(g->state, &now_mask) != VARIANT_PHASE_TURN ||
			     variant_mask_player(now_mask) != p)) {
				s->awaiting = FALSE;
				s->stale++;
				return;
			}
			continue;
		}
		if (r == REPLY_FAULT) {
			if (g->seat[p].bot || g->policy == VARIANT_FAULT_RANDOM)
				game_policy_move(g, p);
			return;
		}
		if (r == REPLY_MOVE) {
			if (!legal_now(g, p, m)) {
				game_fault(g, p, GAME_FAULT_ILLEGAL, NULL);
				game_policy_move(g, p);
				return;
			}
			game_apply_move(g, p, m, FALSE, wall, cpu);
			return;
		}
	}
}
