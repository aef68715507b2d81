/*
 * game-io: the game's bot line I/O glue. Lines for a seat are queued and
 * flushed without ever blocking (what a full pipe does not take waits for
 * room), each logged once as it goes; a bot's lines are taken one at a
 * time as events, at most GAME_INFO_MAX ignored lines per move and
 * GAME_TEXT_MAX bytes of its own text a game reaching the log; waiting is
 * one poll() over every live bot, reading each ready descriptor once per
 * round so that no bot starves another; `go` (with its `moves`) is sent
 * and the reply that comes back is clocked and read as a move. The log's
 * lines are gamelog's and the wire's protocol's: this file only moves
 * them.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <string.h>

#include "game-int.h"

/* The log writer is gamelog.c's; these add the game's clock. */
void game_log_event(Game *g, GameLogKind kind, int seat, const char *text)
{
	gamelog_write_event(g->log, kind, seat, text);
}

/* One line of traffic (kept ASCII: gamelog.h). */
static void log_traffic(Game *g, char dir, int seat, const char *text, size_t len)
{
	gamelog_write_traffic(g->log, dir, seat, g_get_monotonic_time() - g->t0, text, len);
}

/* A timed event: "KIND SEAT NOTATION wall=MS cpu=MS". */
void game_log_timed(Game *g, GameLogKind kind, int seat, const char *text, double wall, double cpu)
{
	gamelog_write_timed(g->log, kind, seat, text, wall, cpu);
}

const char *game_fmt_move(Game *g, int player, Move m)
{
	Text t;

	text_init(&t, g->text, g->text_cap);
	g->v->move_format(g->state, player, m, &t);
	return g->text;
}

/* Queue a line for seat p (sent with its next flush). */
void game_queue(Game *g, int p, const char *line)
{
	Seat *s = &g->seat[p];

	if (!s->bot)
		return;
	g_string_append(s->pending, line);
	g_string_append_c(s->pending, '\n');
}

void game_queue_others(Game *g, int except, const char *line)
{
	for (int p = 0; p < g->n; p++)
		if (p != except)
			game_queue(g, p, line);
}

/*
 * Write what seat p's pipe takes of its queued lines now, logging each
 * line once, never waiting. False if the bot is gone (a fault is charged
 * when it closed its input, or when it let GAME_OUTPUT_CAP bytes pile up).
 */
gboolean game_flush(Game *g, int p)
{
	Seat *s = &g->seat[p];

	if (!s->bot)
		return FALSE;
	if (g->log && s->logged < s->pending->len) {
		const char *q = s->pending->str + s->logged;
		const char *nl;
		while ((nl = strchr(q, '\n'))) {
			log_traffic(g, '>', p, q, (size_t)(nl - q));
			q = nl + 1;
		}
	}
	s->logged = s->pending->len;
	if (s->pending->len == 0)
		return TRUE;
	gssize n = bot_write_some(s->bot, s->pending->str, s->pending->len);
	if (n < 0) {
		g_string_truncate(s->pending, 0);
		s->logged = 0;
		game_fault_gone(g, p, g->starting ? GAME_FAULT_START : GAME_FAULT_CRASH, "input closed");
		return FALSE;
	}
	g_string_erase(s->pending, 0, n);
	s->logged -= (gsize)n;
	if (s->pending->len > GAME_OUTPUT_CAP) {
		game_stop_not_reading(g, p);
		return FALSE;
	}
	return TRUE;
}

/* Whether seat p's bot has read its last `go` (stream offset go_end). */
gboolean game_read_its_go(const Game *g, int p)
{
	const Seat *s = &g->seat[p];

	return !s->bot || bot_consumed(s->bot) >= s->go_end;
}

gboolean game_text_counts(const char *line)
{
	ProtocolVerb verb = protocol_verb(line);

	return !((verb == PROTOCOL_MOVE || verb == PROTOCOL_HELLO) && strlen(line) <= GAME_TEXT_EXEMPT);
}

LineKind game_line_kind(const Game *g, const char *line)
{
	if (protocol_verb(line) == PROTOCOL_MOVE)
		return LINE_MOVE;
	if (g->v->side && g->v->side_verbs)
		for (const char *const *w = g->v->side_verbs; *w; w++)
			if (protocol_line_is(line, *w))
				return LINE_SIDE;
	return LINE_OTHER;
}

/* A buffered event of seat p, if any. */
gboolean game_take_event(Game *g, int p, Event *ev)
{
	Seat *s = &g->seat[p];
	const char *line;

	if (!s->bot)
		return FALSE;
	BotLineStatus st = bot_next_line(s->bot, &line);
	s->unlogged = FALSE;
	switch (st) {
	case BOT_LINE_CONTROL:
	case BOT_LINE_OK:
		*ev = (Event){EV_LINE, p, line, st == BOT_LINE_CONTROL};
		/* At most GAME_INFO_MAX info and other ignored lines per move
		 * reach the log (side lines have their own cap, GAME_SIDE_MAX). */
		if (st == BOT_LINE_OK &&
		    (game_line_kind(g, line) == LINE_OTHER || (!s->awaiting && game_line_kind(g, line) != LINE_SIDE)) &&
		    ++s->info > GAME_INFO_MAX) {
			s->info_dropped++;
			return TRUE;
		}
		/* ... and at most GAME_TEXT_MAX bytes of them a game, but for
		 * its hellos and moves (game_text_counts()): past it they go
		 * unlogged, and a side line is refused as a flood */
		if (game_text_counts(line) && s->text >= GAME_TEXT_MAX) {
			s->text_dropped++;
			s->unlogged = TRUE;
			return TRUE;
		}
		if (game_text_counts(line))
			s->text += strlen(line) + 1;
		log_traffic(g, '<', p, line, strlen(line));
		return TRUE;
	case BOT_LINE_TOO_LONG:
		if (g->log) {
			char note[48];
			g_snprintf(note, sizeof(note), "[line over %d bytes]", BOT_LINE_MAX);
			log_traffic(g, '<', p, note, strlen(note));
		}
		*ev = (Event){EV_TOO_LONG, p, NULL, FALSE};
		return TRUE;
	case BOT_LINE_NONE:
		break;
	}
	if (bot_eof(s->bot)) {
		*ev = (Event){EV_EOF, p, NULL, FALSE};
		return TRUE;
	}
	return FALSE;
}

/*
 * The next event from any live bot, or EV_NONE once `deadline` passes.
 * Buffered lines are handed out round-robin; each poll round reads every
 * ready descriptor once. `hint` is the seat whose reply is awaited (or
 * -1): before sleeping, its stdout alone is looked at, which costs one
 * read rather than a poll and a read.
 */
void game_run_only(Game *g, uint32_t mask)
{
	static gint off = -1;
	if (off < 0)
		g_atomic_int_set(&off, g_strcmp0(g_getenv("TETRARENA_NO_FREEZE"), "1") == 0);
	if (off)
		mask = ~0u;
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].bot && (mask & (1u << p)))
			bot_freeze(g->seat[p].bot, FALSE);
	g->freeze_mask = ~mask;
	g->freeze_at = mask == ~0u ? 0 : g_get_monotonic_time() + GAME_FREEZE_AFTER_US;
}

/* The freeze game_run_only() set up, once it is due. */
static void freeze_if_due(Game *g, gint64 now)
{
	if (!g->freeze_at || now < g->freeze_at)
		return;
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].bot && (g->freeze_mask & (1u << p)))
			bot_freeze(g->seat[p].bot, TRUE);
	g->freeze_at = 0;
}

void game_wait_event(Game *g, gint64 deadline, int hint, Event *ev)
{
	/* The awaited reply first: on one CPU it is usually in the pipe by
	 * now, since the bot ran as soon as its `go` was written. */
	Bot *hb = hint >= 0 ? g->seat[hint].bot : NULL;
	gboolean looked = FALSE;
	if (g->aborted) {
		ev->kind = EV_ABORT;
		return;
	}
	if (hb) {
		if (game_take_event(g, hint, ev))
			return;
		/* (a bot that floods lines must still run out of time) */
		if (g_get_monotonic_time() >= deadline) {
			ev->kind = EV_NONE;
			return;
		}
		looked = TRUE;
		if (bot_read(hb) != BOT_READ_NONE && game_take_event(g, hint, ev))
			return;
	}
	for (;;) {
		for (int i = 0; i < g->n; i++) {
			int p = (g->rr + i) % g->n;
			if (game_take_event(g, p, ev)) {
				g->rr = (p + 1) % g->n;
				return;
			}
		}
		struct pollfd fds[3 * VARIANT_MAX_PLAYERS + 1];
		int who[3 * VARIANT_MAX_PLAYERS + 1];
		int nfds = 0;
		for (int p = 0; p < g->n; p++) {
			Bot *b = g->seat[p].bot;
			if (!b)
				continue;
			if (!bot_eof(b)) {
				fds[nfds] = (struct pollfd){.fd = bot_stdout_fd(b), .events = POLLIN};
				who[nfds++] = p;
			}
			if (bot_stderr_fd(b) >= 0) {
				fds[nfds] = (struct pollfd){.fd = bot_stderr_fd(b), .events = POLLIN};
				who[nfds++] = p + VARIANT_MAX_PLAYERS;
			}
			/* queued output waits for room in the pipe */
			if (g->seat[p].pending->len && bot_stdin_fd(b) >= 0) {
				fds[nfds] = (struct pollfd){.fd = bot_stdin_fd(b), .events = POLLOUT};
				who[nfds++] = p + 2 * VARIANT_MAX_PLAYERS;
			}
		}
		/* (last: the seats' descriptors are read first) */
		if (g->spec->abort_fd >= 0) {
			fds[nfds] = (struct pollfd){.fd = g->spec->abort_fd, .events = POLLIN};
			who[nfds++] = -1;
		}
		gint64 now = g_get_monotonic_time();
		if (now >= deadline) {
			ev->kind = EV_NONE;
			return;
		}
		freeze_if_due(g, now);
		gint64 until = g->freeze_at ? MIN(deadline, g->freeze_at) : deadline;
		gint64 left_ms = (until - now + 999) / 1000;
		/* Instant bots answer within microseconds: look a few times,
		 * yielding the CPU between looks, before sleeping, because
		 * waking a sleeping (virtual) CPU costs more than the round
		 * trip. */
		int r = 0;
		gboolean got = FALSE;
		gint64 spin_until = g->freeze_at ? MIN(now + GAME_SPIN_US, g->freeze_at) : now + GAME_SPIN_US;
		hb = hint >= 0 ? g->seat[hint].bot : NULL;
		for (int spin = 0; spin < g->spin && r == 0 && !got; spin++) {
			if (spin && g_get_monotonic_time() >= spin_until)
				break;
			if (spin || looked)
				sched_yield();
			looked = FALSE;
			if (hb && !bot_eof(hb))
				got = bot_read(hb) != BOT_READ_NONE;
			else
				r = poll(fds, (nfds_t)nfds, 0);
		}
		if (got)
			continue;
		if (r == 0)
			r = poll(fds, (nfds_t)nfds, (int)MIN(left_ms, G_MAXINT32));
		if (r < 0 && errno != EINTR) {
			ev->kind = EV_NONE;
			return;
		}
		int faulted = -1;
		for (int i = 0; r > 0 && i < nfds; i++) {
			if (who[i] < 0) {
				if (fds[i].revents) {
					g->aborted = TRUE;
					ev->kind = EV_ABORT;
					return;
				}
				continue;
			}
			int p = who[i] % VARIANT_MAX_PLAYERS;
			Bot *b = g->seat[p].bot;
			if (!fds[i].revents || !b)
				continue;	/* (a bot stopped in this round is gone) */
			if (who[i] >= 2 * VARIANT_MAX_PLAYERS) {
				if (!game_flush(g, p))
					faulted = p;
			} else if (who[i] >= VARIANT_MAX_PLAYERS) {
				bot_drain_stderr(b);
			} else {
				bot_read(b);
			}
		}
		if (faulted >= 0) {
			*ev = (Event){.kind = EV_FAULT, .seat = faulted};
			return;
		}
	}
}

/* The state line of the game as seat p sees it, in g->text, which grows
 * until it fits. */
static const char *state_text(Game *g, int p)
{
	Text t;

	for (;;) {
		text_init(&t, g->text, g->text_cap);
		g->v->state_format(g->state, p, &t);
		if (!t.overflow)
			return g->text;
		g->text_cap *= 2;
		g->text = g_realloc(g->text, g->text_cap);
	}
}

/* Queue `moves` (if wanted) and `go` for seat p and send them. */
void game_send_go(Game *g, int p)
{
	Seat *s = &g->seat[p];
	const TimeControl *tc = game_seat_time(g->spec, p);

	if (!s->bot)
		return;
	if (g->spec->chatter)
		g_string_append(s->pending, g->spec->chatter);
	if (bot_wants_moves(s->bot)) {
		int n = g->v->legal_moves(g->state, p, g->legal);
		g->nlegal = n;
		g->legal_seat = p;
		protocol_append_moves(s->pending, g->v, g->state, p, g->legal, n, g->spec->moves_line_max);
	}
	gint64 limit = MIN(s->bank, tc->move * 1000);
	if (limit < 0)
		limit = 0;
	protocol_append_go(s->pending, (long)(limit / 1000), (long)(MAX(s->bank, 0) / 1000), state_text(g, p));
	s->info = 0;
	s->side = 0;
	s->nogo_fault = FALSE;
	s->awaiting = TRUE;
	s->go_end = bot_written(s->bot) + s->pending->len;
	if (s->snapshot)
		memcpy(s->snapshot, g->state, g->v->state_size);
	bot_stderr_mark(s->bot, ++s->gos);
	game_flush(g, p);
	/* The move is timed from the moment the `go` went out, or from the
	 * end of the round's talk window (game-round.c): talk is free. */
	s->go_time = MAX(g_get_monotonic_time(), g->window_end);
	s->deadline = s->human ? GAME_FOREVER : s->go_time + limit + tc->grace * 1000;
}

/* Account the time of seat p's reply that just arrived. */
static void clock_reply(Game *g, int p, double *wall_ms, double *cpu_ms)
{
	Seat *s = &g->seat[p];
	gint64 now = g_get_monotonic_time();
	gint64 used = MAX(now - s->go_time, 0);	/* 0 in a talk window */

	s->awaiting = FALSE;
	if (!s->human) {
		s->bank -= used;
		if (s->bank < 0)
			s->bank = 0;
		s->bank += game_seat_time(g->spec, p)->inc * 1000;
	}
	*wall_ms = (double)used / 1000.0;
	double cpu = bot_cpu_ms(s->bot);
	*cpu_ms = cpu >= 0 && s->cpu_last >= 0 ? cpu - s->cpu_last : 0;
	s->cpu_last = cpu;
	s->moves++;
	s->total_ms += *wall_ms;
	s->cpu_ms += *cpu_ms;
	if (*wall_ms > s->max_ms)
		s->max_ms = *wall_ms;
}

/*
 * Interpret an event for the seats that are awaiting replies. On
 * REPLY_MOVE, *wall and *cpu hold the move's times. The move's legality is
 * the caller's business (realtime may reject rather than fault).
 */
Reply game_handle_event(Game *g, const Event *ev, Move *move, double *wall, double *cpu)
{
	int p = ev->seat;
	Seat *s = &g->seat[p];

	switch (ev->kind) {
	case EV_NONE:
	case EV_ABORT:
		return REPLY_NONE;
	case EV_EOF:
		game_fault_gone(g, p, GAME_FAULT_CRASH, "output closed");
		return REPLY_FAULT;
	case EV_TOO_LONG:
		game_fault(g, p, GAME_FAULT_LINE_TOO_LONG, NULL);
		return REPLY_FAULT;
	case EV_FAULT:
		return REPLY_FAULT;	/* charged already */
	case EV_LINE:
		break;
	}
	const char *line = ev->line;
	if (ev->bad) {
		game_fault(g, p, GAME_FAULT_MALFORMED, "control byte in line");
		return REPLY_FAULT;
	}
	/* A person gives up: as a crash under the policy, named for what it is. */
	if (protocol_verb(line) == PROTOCOL_RESIGN) {
		game_fault(g, p, GAME_FAULT_RESIGNED, NULL);
		return REPLY_FAULT;
	}
	/* Forward compatibility: info, empty lines, comments, unknown line
	 * types, and side actions out of their time are ignored. */
	if (game_line_kind(g, line) != LINE_MOVE)
		return REPLY_NONE;
	if (s->stale > 0) {
		s->stale--;	/* the late answer to a `go` that timed out */
		return REPLY_NONE;
	}
	if (!s->awaiting) {
		/* One such fault per `go`: a flood of moves is one fault, and
		 * brings no more `go`s than one. */
		if (s->nogo_fault)
			return REPLY_NONE;
		s->nogo_fault = TRUE;
		game_fault(g, p, GAME_FAULT_MALFORMED, "move without go");
		return REPLY_FAULT;
	}
	clock_reply(g, p, wall, cpu);
	if (!g->v->move_parse(g->state, p, protocol_move_text(line), move)) {
		game_fault(g, p, GAME_FAULT_MALFORMED, "bad notation");
		return REPLY_FAULT;
	}
	return REPLY_MOVE;
}
