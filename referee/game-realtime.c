/*
 * game-realtime: a REALTIME phase (docs in protocol.md). Every seat keeps
 * an outstanding `go`, at most one per pace; every seat's first `go` goes
 * out in one pass once every bot said hello (the start line). Every move
 * read is held until its due moment: `pace` (a variant option, ms) after
 * the pass that sent its `go` began (`ready`), or, if it took the seat
 * longer, that moment plus the time from its own `go` to its move: the
 * `go`s of one pass count as sent at one moment, however long each took
 * to write, so a seat written to later is never behind. Each wake-up
 * reads everything the bots sent before it settles anything, so a referee
 * scheduled late still applies moves in the order of their due moments;
 * moves due within GAME_TIE_US of the earliest are one batch, applied
 * GAME_TIE_US after it in an order drawn from the game's seed, so neither
 * speed below the pace nor seat number decides ties. A move made illegal
 * by someone faster is answered `rejected`, not a fault.
 */
#include <string.h>

#include "game-int.h"

/*
 * Real time: seat p's move m (notation `text`, timed wall/cpu) takes effect
 * now, at the moment `at` of the pace schedule: applied when it is legal,
 * `rejected` when it was legal at its `go` but someone was faster, an
 * illegal move otherwise. The seat's next `go` is due at `at`.
 */
static void settle(Game *g, int p, Move m, const char *text, double wall, double cpu, gint64 at)
{
	Seat *s = &g->seat[p];
	uint32_t mask;

	s->next_go = at;
	g->v->phase(g->state, &mask);
	if (mask & (1u << p) && variant_move_is_legal(g->v, g->state, p, m, g->scratch)) {
		game_apply_move(g, p, m, FALSE, wall, cpu);
		/* In real time the others hear of it at once, even while
		 * their own `go` is outstanding. */
		for (int q = 0; q < g->n; q++)
			if (q != p && g->seat[q].bot)
				game_flush(g, q);
		return;
	}
	if (variant_move_is_legal(g->v, s->snapshot, p, m, g->scratch)) {
		game_reject(g, p, text, "overtaken");
		return;
	}
	game_fault(g, p, GAME_FAULT_ILLEGAL, NULL);
}

/*
 * Apply the moves held that are due: take the earliest due moment d; every
 * move due by d + GAME_TIE_US is simultaneous with it, and they take effect
 * together at d + GAME_TIE_US at the earliest, in an order that starts at a
 * seat drawn from the game's seed; then the next batch. True when any was.
 */
static gboolean release_held(Game *g, gint64 now)
{
	gboolean any = FALSE;
	uint32_t mask;

	for (;;) {
		if (g->v->phase(g->state, &mask) != VARIANT_PHASE_REALTIME)
			return any;
		gint64 first_due = GAME_FOREVER;
		for (int p = 0; p < g->n; p++)
			if (g->seat[p].held)
				first_due = MIN(first_due, g->seat[p].due);
		if (first_due == GAME_FOREVER || now < first_due + GAME_TIE_US)
			return any;
		uint32_t batch = 0;
		for (int p = 0; p < g->n; p++)
			if (g->seat[p].held && g->seat[p].due <= first_due + GAME_TIE_US)
				batch |= 1u << p;
		int start = __builtin_popcount(batch) > 1 ? (int)rng_below(&g->ties, (uint32_t)g->n) : 0;
		for (int i = 0; i < g->n; i++) {
			int p = (start + i) % g->n;
			Seat *s = &g->seat[p];
			if (!(batch & (1u << p)) || !s->held)
				continue;	/* (or stopped by an earlier one's fault) */
			s->held = FALSE;
			if (g->v->phase(g->state, &mask) != VARIANT_PHASE_REALTIME)
				return TRUE;
			settle(g, p, s->held_move, s->held_text, s->held_wall, s->held_cpu, now);
		}
		any = TRUE;
	}
}

/*
 * A real-time event read at `now`: a move is held until its due moment,
 * the pace after its `go`'s pass, or when it was read later than that,
 * less the time its `go` waited for the writes before it in the pass.
 */
static void realtime_event(Game *g, const Event *ev, gint64 now)
{
	Move m;
	double wall, cpu;
	int p = ev->seat;
	Seat *s = &g->seat[p];
	Reply r = game_handle_event(g, ev, &m, &wall, &cpu);

	if (r != REPLY_MOVE) {
		/* a fault costs the seat its turn of the pace */
		if (r == REPLY_FAULT && !s->awaiting && !s->held)
			s->next_go = MAX(now, s->ready);
		return;
	}
	s->held = TRUE;
	/* its reaction, from the moment its own `go` went out, counted from
	 * its pass: the later `go`s of a pass lose nothing by their writes */
	s->due = MAX(s->ready, s->go_pass + (now - s->go_time));
	s->held_move = m;
	s->held_wall = wall;
	s->held_cpu = cpu;
	g_strlcpy(s->held_text, protocol_move_text(ev->line), sizeof(s->held_text));
}

/* Everything the bots have sent by now, read and handled before any move
 * is settled: when the referee wakes late, every move that came meanwhile
 * is held for its own moment first. */
static void realtime_drain(Game *g)
{
	Event ev;

	for (int p = 0; p < g->n; p++) {
		Bot *b = g->seat[p].bot;
		if (b && !bot_eof(b))
			bot_read(b);
		if (b && bot_stderr_fd(b) >= 0)
			bot_drain_stderr(b);
	}
	gint64 now = g_get_monotonic_time();
	for (int p = 0; p < g->n; p++)
		while (g->seat[p].bot && game_take_event(g, p, &ev))
			realtime_event(g, &ev, now);
}

/*
 * Realtime: every seat of the mask keeps an outstanding `go`, at most one
 * per pace. Returns when the phase changes or the game limit passes (TRUE
 * then).
 */
gboolean game_realtime(Game *g, gint64 game_deadline)
{
	uint32_t mask;
	Event ev;

	if (!g->started) {
		/* The start line: every seat's first `go` in one pass, now. */
		gint64 now = g_get_monotonic_time();
		for (int p = 0; p < g->n; p++)
			g->seat[p].next_go = now;
		g->started = TRUE;
	}
	for (;;) {
		if (g->v->phase(g->state, &mask) != VARIANT_PHASE_REALTIME)
			return FALSE;
		realtime_drain(g);
		if (g->v->phase(g->state, &mask) != VARIANT_PHASE_REALTIME)
			return FALSE;
		gint64 now = g_get_monotonic_time();
		if (now >= game_deadline)
			return TRUE;
		if (release_held(g, now))
			continue;
		gint64 deadline = game_deadline, held_at = GAME_FOREVER;
		gboolean anyone = FALSE, stopped = FALSE;
		for (int p = 0; p < g->n && !stopped; p++) {
			Seat *s = &g->seat[p];
			if (!(mask & (1u << p)) || !s->bot)
				continue;
			anyone = TRUE;
			if (s->held) {
				held_at = MIN(held_at, s->due + GAME_TIE_US);
				continue;
			}
			if (!s->awaiting) {
				/* No new `go` to a bot that left its last one unread:
				 * each move limit that passes so is a timeout (and
				 * the cap of faults in a row retires it). */
				if (!game_read_its_go(g, p)) {
					if (now >= s->deadline) {
						game_timeout(g, p);
						s->deadline = now + (MIN(s->bank, game_seat_time(g->spec, p)->move * 1000) +
								     game_seat_time(g->spec, p)->grace * 1000);
						stopped = TRUE;
					} else
						deadline = MIN(deadline, s->deadline);
					continue;
				}
				if (now < s->next_go) {
					deadline = MIN(deadline, s->next_go);
					continue;
				}
				/* Its move takes effect the pace after this pass
				 * began, whenever its `go` went out: every `go` of
				 * a pass is on the same line (ties, protocol.md). */
				game_send_go(g, p);
				s->go_pass = now;
				s->ready = now + g->pace;
				if (g->go_write)
					g_usleep((gulong)g->go_write);
			}
			if (s->awaiting)
				deadline = MIN(deadline, s->deadline);
		}
		if (stopped)
			continue;	/* a seat was retired: look again */
		if (!anyone) {
			/* Nobody can act: let the variant end by halting. */
			return TRUE;
		}
		/* (test hook: the timer of a held move's moment wakes the
		 * referee late; a line that comes meanwhile still wakes it) */
		if (held_at < deadline)
			deadline = MIN(deadline, held_at + g->lag);
		game_wait_event(g, deadline, -1, &ev);
		if (ev.kind == EV_ABORT)
			return FALSE;
		now = g_get_monotonic_time();
		if (ev.kind == EV_NONE) {
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now) {
					game_timeout(g, p);
					g->seat[p].next_go = now;
				}
			continue;
		}
		realtime_event(g, &ev, now);
	}
}
