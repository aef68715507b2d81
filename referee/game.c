/*
 * game: one game through the variant table. See game.h for the contract
 * and docs/gamelog.md for the log it writes.
 *
 * The loop asks the variant for the phase and acts: CHANCE draws from
 * `chance` (seeded with the game seed, so verify can redraw it), TURN sends
 * one `go` and waits for that seat, SIMULTANEOUS sends `go` to the whole
 * mask and waits for all under one deadline, REALTIME keeps a `go`
 * outstanding for every seat of the mask and applies moves as they come.
 * Waiting is one poll() over every live bot's stdout and stderr, reading
 * each ready descriptor once per round so that no bot starves another.
 *
 * Invariants: a Seat with bot == NULL is never written to or read from;
 * `out` seats are retired in the state (or, under the random policy, have
 * their moves played for them); `pending` holds the lines queued for a
 * seat and not yet taken by its pipe: updates wait there for the seat's
 * next `go` so that each move costs one write, and what a full pipe does
 * not take waits for room (poll POLLOUT). Nothing here ever blocks on a
 * write, so one bot cannot delay another's `go` by more than the time to
 * write a line. A bot that has not read its last `go` by that `go`'s
 * deadline does not read its input: that is a timeout, and in real time it
 * gets no new `go` (a timeout per move limit) until it reads.
 *
 * Real time (docs in protocol.md): every seat's first `go` goes out in one
 * pass once every bot said hello (the start line), and the game clock
 * starts then. Every move read is held until its due moment: `pace` (a
 * variant option, ms) after its `go` went out (`ready`), or when it was
 * read if later. Each wake-up reads everything the bots sent before it
 * settles anything, so a referee scheduled late still applies moves in the
 * order of their due moments; moves due within GAME_TIE_US of the earliest
 * are one batch, applied GAME_TIE_US after it in an order drawn from the
 * game's seed, so neither speed below the pace nor seat number decides
 * ties.
 */
#include "game.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gamelog.h"
#include "protocol.h"

#define TETRARENA_REFEREE_VERSION "0.1"
#define GAME_INFO_MAX 64		/* info lines logged per move */
#define GAME_QUIT_GRACE_MS 200
#define GAME_FOREVER (G_MAXINT64 / 4)
/* Bytes queued for a bot that does not read before it is stopped. */
#define GAME_OUTPUT_CAP (4 << 20)
/* Non-blocking looks (each after sched_yield) before poll() sleeps:
 * measured in `make bench`, about 50 us of looking saves a (virtual) CPU
 * wake-up that costs more than an instant bot's whole reply. */
#define GAME_SPIN_POLLS 50
/* Real time: moves due within this many us of each other are
 * simultaneous (protocol.md, Ties). */
#define GAME_TIE_US 1000
/* Least ms to wait for the exit of a bot whose pipes closed. */
#define GAME_END_WAIT_MIN 10

G_DEFINE_QUARK(tetrarena-game-error, game_error)

/* GameFault is protocol.md's list, whose names protocol.c keeps. */
G_STATIC_ASSERT(GAME_FAULT_COUNT == PROTOCOL_FAULTS);

const char *game_fault_name(GameFault f)
{
	return protocol_fault_name((int)f);
}

const char *game_end_name(GameEnd e)
{
	static const char *const names[] = {"end", "faults", "limit"};
	return names[e];
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
}

typedef struct {
	Bot *bot;		/* NULL when not running */
	char *name;
	gboolean out;		/* retired, or dead under the random policy */
	gboolean human;
	gint64 bank;		/* us */
	gboolean awaiting;	/* a `go` is outstanding */
	gint64 go_time, deadline;	/* us, monotonic */
	int stale;		/* replies owed to `go`s that timed out */
	int info;		/* info lines seen for this move */
	int side;		/* side lines seen for this move */
	int info_dropped;	/* info lines over the cap, not logged */
	guint64 text;		/* bytes of its lines logged (game.h, GAME_TEXT_MAX) */
	int text_dropped;	/* lines past GAME_TEXT_MAX, not logged */
	gboolean unlogged;	/* the line just taken was not logged */
	double cpu_last;	/* bot_cpu_ms() at the hello or the last move */
	GString *pending;	/* queued, not yet taken by the pipe */
	gsize logged;		/* bytes at the front of pending already logged */
	guint64 go_end;		/* stream offset just past its last `go` */
	gboolean nogo_fault;	/* charged a `move` without `go` since its last */
	/* real time */
	gint64 next_go;		/* us: its next `go` not before (the pace) */
	gint64 ready;		/* us: its move takes effect not before (the
				 * pace after its `go` went out) */
	gboolean held;		/* a move read and waiting for its moment */
	gint64 due;		/* us: that moment, ready or when it was read */
	Move held_move;
	double held_wall, held_cpu;
	char held_text[VARIANT_MOVE_TEXT_MAX];
	void *snapshot;		/* realtime: the state its `go` showed */
	int faults[GAME_FAULT_COUNT];
	int first_fault;
	int in_a_row;		/* faults since its last accepted move */
	int moves;
	double total_ms, max_ms, cpu_ms;
	/* simultaneous round */
	gboolean has_move;
	Move move;
	double move_ms, move_cpu;
} Seat;

typedef struct {
	const GameSpec *spec;
	const Variant *v;
	int n;
	int policy;
	SandboxMode sandbox;	/* resolved: on or off */
	gboolean starting;	/* before every hello: a bot that is gone is `start` */
	void *state;
	Move *scratch;
	Rng chance, fault_rng;
	Seat seat[VARIANT_MAX_PLAYERS];
	GameLogWriter *log;	/* NULL: no log */
	gint64 t0;
	int rr;			/* round-robin start for fairness (seeded) */
	Rng ties;		/* orders moves due at the same moment */
	gint64 pace;		/* us between a seat's actions in real time */
	gboolean started;	/* the real-time start line was crossed */
	gint64 lag;		/* us: the test hook TETRARENA_TEST_LAG_MS */
	int spin;		/* non-blocking polls before sleeping */
	int plies;
	Move *legal;		/* legal moves of legal_seat in the current state */
	int nlegal, legal_seat;	/* legal_seat -1: the cache is stale */
	char *text;		/* scratch for notation and state */
	char *sha256[VARIANT_MAX_PLAYERS];	/* programs' hashes, for kept bots */
	size_t text_cap;
} Game;

/* ---- the log ---------------------------------------------------------- */

/* The log writer is gamelog.c's; these add the game's clock. */
static void log_event(Game *g, GameLogKind kind, int seat, const char *text)
{
	gamelog_write_event(g->log, kind, seat, text);
}

/* One line of traffic (kept ASCII: gamelog.h). */
static void log_traffic(Game *g, char dir, int seat, const char *text, size_t len)
{
	gamelog_write_traffic(g->log, dir, seat, g_get_monotonic_time() - g->t0, text, len);
}

/* A timed event: "KIND SEAT NOTATION wall=MS cpu=MS". */
static void log_timed(Game *g, GameLogKind kind, int seat, const char *text, double wall, double cpu)
{
	gamelog_write_timed(g->log, kind, seat, text, wall, cpu);
}

/* ---- notation --------------------------------------------------------- */

static const char *fmt_move(Game *g, int player, Move m)
{
	Text t;

	text_init(&t, g->text, g->text_cap);
	g->v->move_format(g->state, player, m, &t);
	return g->text;
}

/* ---- sending ---------------------------------------------------------- */

static void fault(Game *g, int p, GameFault kind, const char *detail);
static void fault_gone(Game *g, int p, GameFault kind, const char *what);

/* Queue a line for seat p (sent with its next flush). */
static void queue(Game *g, int p, const char *line)
{
	Seat *s = &g->seat[p];

	if (!s->bot)
		return;
	g_string_append(s->pending, line);
	g_string_append_c(s->pending, '\n');
}

static void queue_others(Game *g, int except, const char *line)
{
	for (int p = 0; p < g->n; p++)
		if (p != except)
			queue(g, p, line);
}

static void stop_not_reading(Game *g, int p);

/*
 * Write what seat p's pipe takes of its queued lines now, logging each
 * line once, never waiting. False if the bot is gone (a fault is charged
 * when it closed its input, or when it let GAME_OUTPUT_CAP bytes pile up).
 */
static gboolean flush(Game *g, int p)
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
		fault_gone(g, p, g->starting ? GAME_FAULT_START : GAME_FAULT_CRASH, "input closed");
		return FALSE;
	}
	g_string_erase(s->pending, 0, n);
	s->logged -= (gsize)n;
	if (s->pending->len > GAME_OUTPUT_CAP) {
		stop_not_reading(g, p);
		return FALSE;
	}
	return TRUE;
}

/* Whether seat p's bot has read its last `go` (stream offset go_end). */
static gboolean read_its_go(const Game *g, int p)
{
	const Seat *s = &g->seat[p];

	return !s->bot || bot_consumed(s->bot) >= s->go_end;
}

/* ---- faults ----------------------------------------------------------- */

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
static void retire(Game *g, int p)
{
	Seat *s = &g->seat[p];

	if (s->out)
		return;
	s->out = TRUE;
	if (g->policy == VARIANT_FAULT_RANDOM && s->bot == NULL) {
		log_event(g, GAMELOG_OUT, p, NULL);	/* moves played for it from now on */
		return;
	}
	g->legal_seat = -1;
	g->v->retire(g->state, p);
	log_event(g, GAMELOG_RETIRE, p, NULL);
}

/*
 * Charge fault `kind` to seat p and apply the policy's consequence on the
 * seat itself: a crash, an overlong line, a failed start or a decline
 * always ends the bot; under forfeit every fault retires the seat. What to
 * do with the current decision (random move, missing) is the caller's.
 */
static void fault(Game *g, int p, GameFault kind, const char *detail)
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
		log_event(g, GAMELOG_FAULT, p, text);
	}
	gboolean ends_bot = kind == GAME_FAULT_CRASH || kind == GAME_FAULT_LINE_TOO_LONG ||
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
		retire(g, p);
	char line[96];
	Text t;
	text_init(&t, line, sizeof(line));
	protocol_update_fault(&t, p, protocol_fault_name(kind));
	queue_others(g, -1, line);	/* the seat itself is told too */
}

/*
 * Charge fault `kind` to seat p, whose bot was found gone (`what`: its
 * output or input closed), saying how its process ended. The wait for that
 * is bounded by the grace margin (at least GAME_END_WAIT_MIN ms, for the
 * moment between a bot's pipes closing and its exit), so that a bot that
 * closed its pipes but lives on costs the game no more; that bot is "still
 * running" and, as a crash or a failed start ends the bot, killed.
 */
static void fault_gone(Game *g, int p, GameFault kind, const char *what)
{
	gint64 deadline = g_get_monotonic_time() + MAX(g->spec->time.grace, GAME_END_WAIT_MIN) * 1000;
	g_autofree char *end = bot_end_text(g->seat[p].bot, deadline);
	g_autofree char *detail = g_strdup_printf("%s; %s", what, end ? end : "still running; killed");

	fault(g, p, kind, detail);
}

/*
 * Seat p's bot does not read its input: it let GAME_OUTPUT_CAP bytes pile
 * up. Nothing can be said to it any more, so it is stopped. In real time
 * its seat is retired under every policy, so that the others play on and
 * a game of two ends at once; elsewhere the policy decides, as for a crash.
 */
static void stop_not_reading(Game *g, int p)
{
	Seat *s = &g->seat[p];
	uint32_t mask;
	gboolean realtime = g->v->phase(g->state, &mask) == VARIANT_PHASE_REALTIME;

	kill_seat(g, p);
	if (realtime)
		s->out = TRUE;	/* retired below, whatever the policy */
	fault(g, p, GAME_FAULT_TIMEOUT, "not reading its input");
	if (realtime) {
		g->legal_seat = -1;
		g->v->retire(g->state, p);
		log_event(g, GAMELOG_RETIRE, p, NULL);
	}
}

/* Seat p's `go` ran out of time: a timeout, said to be a bot that does
 * not read when it left that `go` unread. */
static void timeout(Game *g, int p)
{
	fault(g, p, GAME_FAULT_TIMEOUT, read_its_go(g, p) ? NULL : "not reading its input");
}

/* ---- waiting ---------------------------------------------------------- */

typedef enum {
	EV_NONE,	/* the deadline passed */
	EV_LINE,	/* seat sent a line (already logged) */
	EV_EOF,		/* seat closed its output */
	EV_TOO_LONG,	/* seat sent a line over the limit */
	EV_FAULT,	/* seat was charged a fault while its output was written */
} EventKind;

typedef struct {
	EventKind kind;
	int seat;
	const char *line;
	gboolean bad;	/* the line held control bytes (now '?'): malformed */
} Event;

gboolean game_text_counts(const char *line)
{
	ProtocolVerb verb = protocol_verb(line);

	return !((verb == PROTOCOL_MOVE || verb == PROTOCOL_HELLO) && strlen(line) <= GAME_TEXT_EXEMPT);
}

typedef enum {
	LINE_MOVE,	/* `move ...`: an answer to `go` */
	LINE_SIDE,	/* a side action of the variant (table talk) */
	LINE_OTHER,	/* info, an empty line, a `#` comment, an unknown type:
			 * logged (up to GAME_INFO_MAX per move) and ignored */
} LineKind;

static LineKind line_kind(const Game *g, const char *line)
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
static gboolean take_event(Game *g, int p, Event *ev)
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
		    (line_kind(g, line) == LINE_OTHER || (!s->awaiting && line_kind(g, line) != LINE_SIDE)) &&
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
static void wait_event(Game *g, gint64 deadline, int hint, Event *ev)
{
	/* The awaited reply first: on one CPU it is usually in the pipe by
	 * now, since the bot ran as soon as its `go` was written. */
	Bot *hb = hint >= 0 ? g->seat[hint].bot : NULL;
	gboolean looked = FALSE;
	if (hb) {
		if (take_event(g, hint, ev))
			return;
		/* (a bot that floods lines must still run out of time) */
		if (g_get_monotonic_time() >= deadline) {
			ev->kind = EV_NONE;
			return;
		}
		looked = TRUE;
		if (bot_read(hb) != BOT_READ_NONE && take_event(g, hint, ev))
			return;
	}
	for (;;) {
		for (int i = 0; i < g->n; i++) {
			int p = (g->rr + i) % g->n;
			if (take_event(g, p, ev)) {
				g->rr = (p + 1) % g->n;
				return;
			}
		}
		struct pollfd fds[3 * VARIANT_MAX_PLAYERS];
		int who[3 * VARIANT_MAX_PLAYERS];
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
		gint64 now = g_get_monotonic_time();
		if (now >= deadline) {
			ev->kind = EV_NONE;
			return;
		}
		gint64 left_ms = (deadline - now + 999) / 1000;
		/* Instant bots answer within microseconds: look a few times,
		 * yielding the CPU between looks, before sleeping, because
		 * waking a sleeping (virtual) CPU costs more than the round
		 * trip. */
		int r = 0;
		gboolean got = FALSE;
		hb = hint >= 0 ? g->seat[hint].bot : NULL;
		for (int spin = 0; spin < g->spin && r == 0 && !got; spin++) {
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
			int p = who[i] % VARIANT_MAX_PLAYERS;
			Bot *b = g->seat[p].bot;
			if (!fds[i].revents || !b)
				continue;	/* (a bot stopped in this round is gone) */
			if (who[i] >= 2 * VARIANT_MAX_PLAYERS) {
				if (!flush(g, p))
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

/* ---- asking for moves -------------------------------------------------- */

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
static void send_go(Game *g, int p)
{
	Seat *s = &g->seat[p];
	const TimeControl *tc = &g->spec->time;

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
	flush(g, p);
	/* The move is timed from the moment the `go` went out. */
	s->go_time = g_get_monotonic_time();
	s->deadline = s->human ? GAME_FOREVER : s->go_time + limit + tc->grace * 1000;
}

/* Account the time of seat p's reply that just arrived. */
static void clock_reply(Game *g, int p, double *wall_ms, double *cpu_ms)
{
	Seat *s = &g->seat[p];
	gint64 now = g_get_monotonic_time();
	gint64 used = now - s->go_time;

	s->awaiting = FALSE;
	if (!s->human) {
		s->bank -= used;
		if (s->bank < 0)
			s->bank = 0;
		s->bank += g->spec->time.inc * 1000;
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

typedef enum {
	REPLY_NONE,	/* nothing relevant (info, stale reply): keep waiting */
	REPLY_MOVE,	/* *move holds a well-formed move of the awaited seat */
	REPLY_FAULT,	/* a fault was charged */
} Reply;

/*
 * Interpret an event for the seats that are awaiting replies. On
 * REPLY_MOVE, *wall and *cpu hold the move's times. The move's legality is
 * the caller's business (realtime may reject rather than fault).
 */
static Reply handle_event(Game *g, const Event *ev, Move *move, double *wall, double *cpu)
{
	int p = ev->seat;
	Seat *s = &g->seat[p];

	switch (ev->kind) {
	case EV_NONE:
		return REPLY_NONE;
	case EV_EOF:
		fault_gone(g, p, GAME_FAULT_CRASH, "output closed");
		return REPLY_FAULT;
	case EV_TOO_LONG:
		fault(g, p, GAME_FAULT_LINE_TOO_LONG, NULL);
		return REPLY_FAULT;
	case EV_FAULT:
		return REPLY_FAULT;	/* charged already */
	case EV_LINE:
		break;
	}
	const char *line = ev->line;
	if (ev->bad) {
		fault(g, p, GAME_FAULT_MALFORMED, "control byte in line");
		return REPLY_FAULT;
	}
	/* Forward compatibility: info, empty lines, comments, unknown line
	 * types, and side actions out of their time are ignored. */
	if (line_kind(g, line) != LINE_MOVE)
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
		fault(g, p, GAME_FAULT_MALFORMED, "move without go");
		return REPLY_FAULT;
	}
	clock_reply(g, p, wall, cpu);
	if (!g->v->move_parse(g->state, p, protocol_move_text(line), move)) {
		fault(g, p, GAME_FAULT_MALFORMED, "bad notation");
		return REPLY_FAULT;
	}
	return REPLY_MOVE;
}

/* Answer seat p's move `notation`, legal at its `go` but no longer,
 * `rejected NOTATION WHY`: no fault, and not a move after all. */
static void reject(Game *g, int p, const char *notation, const char *why)
{
	char line[VARIANT_MOVE_TEXT_MAX + 64];
	Text t;

	text_init(&t, line, sizeof(line));
	protocol_rejected(&t, notation, why);
	queue(g, p, line);
	log_event(g, GAMELOG_REJECTED, p, notation);
	g->seat[p].moves--;
}

/* A uniformly random legal move for p from the fault stream; false if none. */
static gboolean random_move(Game *g, int p, Move *m)
{
	int n = g->v->legal_moves(g->state, p, g->scratch);

	if (n <= 0)
		return FALSE;
	*m = g->scratch[rng_below(&g->fault_rng, (uint32_t)n)];
	return TRUE;
}

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

/* ---- applying --------------------------------------------------------- */

/* Apply seat p's move m: its bot's (timed wall/cpu), or the random
 * policy's. */
static void apply_move(Game *g, int p, Move m, gboolean random, double wall, double cpu)
{
	char line[VARIANT_MOVE_TEXT_MAX + 32];
	const char *text = fmt_move(g, p, m);

	if (random) {
		log_event(g, GAMELOG_RANDOM, p, text);
	} else {
		log_timed(g, GAMELOG_MOVE, p, text, wall, cpu);
		g->seat[p].in_a_row = 0;
	}
	Text t;
	text_init(&t, line, sizeof(line));
	protocol_update_move(&t, p, text);
	queue_others(g, p, line);
	g->legal_seat = -1;
	g->v->apply(g->state, p, m);
	g->plies++;
}

static void do_chance(Game *g)
{
	Move m = g->v->chance_sample(g->state, &g->chance);
	const char *text = fmt_move(g, VARIANT_CHANCE, m);
	char line[VARIANT_MOVE_TEXT_MAX + 32];

	log_event(g, GAMELOG_CHANCE, -1, text);
	if (g->v->chance_public) {
		Text t;
		text_init(&t, line, sizeof(line));
		protocol_update_chance(&t, text);
		queue_others(g, -1, line);
	}
	g->legal_seat = -1;
	g->v->apply(g->state, VARIANT_CHANCE, m);
	g->plies++;
}

/* Play the random-policy move for p, if that is the policy. */
static void policy_move(Game *g, int p)
{
	Move m;

	if (g->policy == VARIANT_FAULT_RANDOM && random_move(g, p, &m))
		apply_move(g, p, m, TRUE, 0, 0);
}

/*
 * Only the seats in `mask` run: every other seat's bot is frozen whole
 * (its cgroup's freezer, where the machine has one), so that in a turn
 * a bot cannot think, or spin, on its opponents' time. Simultaneous and
 * real-time phases run every seat; so does the end of the game.
 */
static void run_only(Game *g, uint32_t mask)
{
	/* (TETRARENA_NO_FREEZE=1: off, for measuring what it is worth) */
	static gint off = -1;
	if (off < 0)
		g_atomic_int_set(&off, g_strcmp0(g_getenv("TETRARENA_NO_FREEZE"), "1") == 0);
	if (off)
		mask = ~0u;
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].bot)
			bot_freeze(g->seat[p].bot, !(mask & (1u << p)));
}

static void do_turn(Game *g, int p)
{
	Seat *s = &g->seat[p];
	Move m;
	double wall = 0, cpu = 0;
	Event ev;

	if (!s->bot) {
		/* No bot, yet asked (forfeit would have retired it): the random
		 * policy plays for it; otherwise a turn cannot be skipped, so
		 * the seat is retired now. */
		if (g->policy == VARIANT_FAULT_RANDOM && random_move(g, p, &m)) {
			apply_move(g, p, m, TRUE, 0, 0);
			return;
		}
		g->legal_seat = -1;
		g->v->retire(g->state, p);
		log_event(g, GAMELOG_RETIRE, p, NULL);
		return;
	}
	send_go(g, p);
	if (!s->awaiting) {
		/* the `go` could not be delivered: a fault was charged */
		policy_move(g, p);
		return;
	}
	while (s->awaiting) {
		wait_event(g, s->deadline, p, &ev);
		if (ev.kind == EV_NONE) {
			timeout(g, p);
			policy_move(g, p);
			return;
		}
		Reply r = handle_event(g, &ev, &m, &wall, &cpu);
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
				policy_move(g, p);
			return;
		}
		if (r == REPLY_MOVE) {
			if (!legal_now(g, p, m)) {
				fault(g, p, GAME_FAULT_ILLEGAL, NULL);
				policy_move(g, p);
				return;
			}
			apply_move(g, p, m, FALSE, wall, cpu);
			return;
		}
	}
}

/* Send a side action's lines, each to its seat, at once. */
static void side_send(Game *g, const VariantSide *out)
{
	for (int i = 0; i < out->n; i++) {
		int to = out->to[i];
		if (to < 0 || to >= g->n || !g->seat[to].bot)
			continue;
		queue(g, to, out->line[i]);
		flush(g, to);
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

	if (line_kind(g, line) != LINE_SIDE)
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
		queue(g, p, answer);
		flush(g, p);
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
		log_event(g, GAMELOG_CLOSE, p, NULL);
		g->v->side_close(g->state, p, &out);
		side_send(g, &out);
	}
}

/* A `move` of seat p whose round is closed (it moved, or its `go` timed
 * out): discarded, never judged as the answer to a later `go`. */
static gboolean closed_move(Game *g, int p, const char *line)
{
	Seat *s = &g->seat[p];

	if (s->awaiting || line_kind(g, line) != LINE_MOVE)
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
		while (take_event(g, p, &ev)) {
			if (ev.kind == EV_LINE && side_line(g, p, ev.line, ev.bad))
				continue;
			if (ev.kind == EV_LINE && closed_move(g, p, ev.line))
				continue;
			handle_event(g, &ev, &m, &wall, &cpu);
		}
	}
}

static void do_simultaneous(Game *g, uint32_t mask)
{
	uint32_t closed = 0;
	Move moves[VARIANT_MAX_PLAYERS] = {0};
	uint32_t submitted = 0;
	Event ev;

	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		s->has_move = FALSE;
		s->move_ms = s->move_cpu = 0;
		if (mask & (1u << p) && s->bot)
			send_go(g, p);
	}
	/* One deadline for the round: the latest of the seats'. */
	gboolean over = FALSE;
	for (;;) {
		uint32_t still;
		if (g->v->phase(g->state, &still) != VARIANT_PHASE_SIMULTANEOUS) {
			over = TRUE;
			break;
		}
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
		wait_event(g, deadline, -1, &ev);
		if (ev.kind == EV_NONE) {
			gint64 now = g_get_monotonic_time();
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now)
					timeout(g, p);
			continue;
		}
		Move m;
		double wall, cpu;
		int p = ev.seat;
		if (ev.kind == EV_LINE && (side_line(g, p, ev.line, ev.bad) || closed_move(g, p, ev.line)))
			continue;
		if (handle_event(g, &ev, &m, &wall, &cpu) != REPLY_MOVE)
			continue;
		if (!variant_move_is_legal(g->v, g->state, p, m, g->scratch)) {
			/* Legal at its `go`, stale since because a trade or gift
			 * completed meanwhile: not the bot's fault; asked again. */
			if (g->seat[p].snapshot &&
			    variant_move_is_legal(g->v, g->seat[p].snapshot, p, m, g->scratch)) {
				reject(g, p, protocol_move_text(ev.line), "traded");
				send_go(g, p);
				continue;
			}
			fault(g, p, GAME_FAULT_ILLEGAL, NULL);
			continue;
		}
		g->seat[p].has_move = TRUE;
		g->seat[p].in_a_row = 0;
		g->seat[p].move = m;
		g->seat[p].move_ms = wall;
		g->seat[p].move_cpu = cpu;
	}
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
		if (!s->has_move && g->policy == VARIANT_FAULT_RANDOM && random_move(g, p, &m)) {
			s->has_move = TRUE;
			s->move = m;
			log_event(g, GAMELOG_SUBMIT_RANDOM, p, fmt_move(g, p, m));
		} else if (s->has_move) {
			log_timed(g, GAMELOG_SUBMIT, p, fmt_move(g, p, s->move), s->move_ms, s->move_cpu);
		} else {
			log_event(g, GAMELOG_MISSING, p, NULL);
		}
		if (s->has_move) {
			submitted |= 1u << p;
			moves[p] = s->move;
		}
	}
	log_event(g, GAMELOG_JOINT, -1, NULL);
	/* Everyone learns the round's moves only after it is complete. */
	for (int p = 0; p < g->n; p++)
		if (submitted & (1u << p)) {
			char u[VARIANT_MOVE_TEXT_MAX + 32];
			Text t;
			text_init(&t, u, sizeof(u));
			protocol_update_move(&t, p, fmt_move(g, p, moves[p]));
			queue_others(g, p, u);
		}
	g->legal_seat = -1;
	g->v->apply_joint(g->state, moves, submitted);
	g->plies++;
}

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
		apply_move(g, p, m, FALSE, wall, cpu);
		/* In real time the others hear of it at once, even while
		 * their own `go` is outstanding. */
		for (int q = 0; q < g->n; q++)
			if (q != p && g->seat[q].bot)
				flush(g, q);
		return;
	}
	if (variant_move_is_legal(g->v, s->snapshot, p, m, g->scratch)) {
		reject(g, p, text, "overtaken");
		return;
	}
	fault(g, p, GAME_FAULT_ILLEGAL, NULL);
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
 * the pace after its `go` or `now` when it was read later than that (so
 * a move read late never goes before one held for an earlier moment).
 */
static void realtime_event(Game *g, const Event *ev, gint64 now)
{
	Move m;
	double wall, cpu;
	int p = ev->seat;
	Seat *s = &g->seat[p];
	Reply r = handle_event(g, ev, &m, &wall, &cpu);

	if (r != REPLY_MOVE) {
		/* a fault costs the seat its turn of the pace */
		if (r == REPLY_FAULT && !s->awaiting && !s->held)
			s->next_go = MAX(now, s->ready);
		return;
	}
	s->held = TRUE;
	s->due = MAX(s->ready, now);
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
		while (g->seat[p].bot && take_event(g, p, &ev))
			realtime_event(g, &ev, now);
}

/*
 * Realtime: every seat of the mask keeps an outstanding `go`, at most one
 * per pace. Returns when the phase changes or the game limit passes (TRUE
 * then).
 */
static gboolean do_realtime(Game *g, gint64 game_deadline)
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
				if (!read_its_go(g, p)) {
					if (now >= s->deadline) {
						timeout(g, p);
						s->deadline = now + (MIN(s->bank, g->spec->time.move * 1000) +
								     g->spec->time.grace * 1000);
						stopped = TRUE;
					} else
						deadline = MIN(deadline, s->deadline);
					continue;
				}
				if (now < s->next_go) {
					deadline = MIN(deadline, s->next_go);
					continue;
				}
				/* Its move takes effect the pace after this `go`
				 * went out, whenever that is. */
				send_go(g, p);
				s->ready = s->go_time + g->pace;
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
		wait_event(g, deadline, -1, &ev);
		now = g_get_monotonic_time();
		if (ev.kind == EV_NONE) {
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now) {
					timeout(g, p);
					g->seat[p].next_go = now;
				}
			continue;
		}
		realtime_event(g, &ev, now);
	}
}

/* ---- start and end ----------------------------------------------------- */

static void write_header(Game *g)
{
	const GameSpec *spec = g->spec;
	g_auto(GStrv) chatter = g_strsplit(spec->chatter ? spec->chatter : "", "\n", -1);
	g_autofree char *cwd = g_get_current_dir();
	GameLog h = {
		.referee_version = TETRARENA_REFEREE_VERSION,
		.protocol = PROTOCOL_VERSION,
		.variant = g->v,
		.config = spec->config,
		.seed = spec->seed,
		.time = spec->time,
		.policy = g->policy,
		.sandbox = (int)g->sandbox,
		.max_faults = spec->max_faults,
		.chatter = chatter,
	};

	/* (chatter lines each end in a newline: the split's last is empty) */
	guint nchat = g_strv_length(chatter);
	if (nchat && !chatter[nchat - 1][0])
		g_clear_pointer(&chatter[nchat - 1], g_free);
	for (int p = 0; p < g->n; p++) {
		const BotSpec *bs = spec->seats[p].bot ? bot_spec(spec->seats[p].bot) : spec->seats[p].spec;
		g->sha256[p] = bs->sha256 ? g_strdup(bs->sha256) : bot_spec_hash(bs);
		h.name[p] = bs->name;
		h.sha256[p] = bs->human ? "-" : g->sha256[p];
		h.command[p] = g_strdup(bs->human ? "human" : bs->command);
		g_strdelimit(h.command[p], "\r\n", ' ');
		h.workdir[p] = bs->workdir ? bs->workdir : cwd;
	}
	gamelog_write_header(g->log, &h);
	for (int p = 0; p < g->n; p++)
		g_free(h.command[p]);
}

static char *stderr_path(const GameSpec *spec, int p)
{
	if (spec->stderr_dir) {
		char name[32];
		g_snprintf(name, sizeof(name), "seat%d.stderr", p);
		return g_build_filename(spec->stderr_dir, name, NULL);
	}
	if (spec->log_path)
		return g_strdup_printf("%s.seat%d.stderr", spec->log_path, p);
	return NULL;
}

/* Start every bot and collect the hellos under one deadline. */
static void start_bots(Game *g)
{
	const GameSpec *spec = g->spec;
	const TimeControl *tc = &spec->time;
	char *spawn_error[VARIANT_MAX_PLAYERS] = {0};
	char *errpath[VARIANT_MAX_PLAYERS] = {0};
	/* What no bot may see: the log, every seat's stderr file (made now,
	 * so that each can be hidden from the bots started before it) and the
	 * caller's directory. */
	const char *hide[VARIANT_MAX_PLAYERS + 3];
	int nhide = 0;
	if (spec->log_path)
		hide[nhide++] = spec->log_path;
	for (int p = 0; p < g->n; p++) {
		errpath[p] = stderr_path(spec, p);
		if (errpath[p] && g->sandbox == SANDBOX_ON && !spec->seats[p].bot) {
			int fd = open(errpath[p], O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
			if (fd >= 0)
				close(fd);
			hide[nhide++] = errpath[p];
		}
	}
	if (spec->hide_dir)
		hide[nhide++] = spec->hide_dir;
	hide[nhide] = NULL;
	SandboxLaunch launch = {.mode = g->sandbox, .hide = hide, .cpu = spec->cpu, .games = 1};

	g->starting = TRUE;
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		if (spec->seats[p].bot) {
			s->bot = spec->seats[p].bot;
			/* each game's stderr in its own file, and its cpu
			 * limit afresh */
			bot_set_stderr(s->bot, errpath[p], NULL);
			bot_renew_cpu(s->bot);
		} else {
			GError *err = NULL;
			if (spec->keep_bots)
				launch.games = spec->seats[p].games;
			s->bot = bot_spawn(spec->seats[p].spec, errpath[p], &launch, &err);
			if (!s->bot) {
				spawn_error[p] = g_strdup(err->message);
				g_error_free(err);
				continue;
			}
			queue(g, p, protocol_greeting());
		}
		s->human = bot_spec(s->bot)->human;
		if (g->sha256[p] && !bot_spec(s->bot)->sha256)
			bot_set_sha256(s->bot, g->sha256[p]);
		bot_set_games(s->bot, bot_games(s->bot) + 1);
		char *line = protocol_game_line(g->v, &spec->config, tc, p, bot_games(s->bot));
		queue(g, p, line);
		g_free(line);
	}
	for (int p = 0; p < g->n; p++)
		g_free(errpath[p]);
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		if (!s->bot)
			continue;
		s->go_time = g_get_monotonic_time();
		s->deadline = s->human ? GAME_FOREVER : s->go_time + (tc->start + tc->grace) * 1000;
		s->awaiting = TRUE;
		flush(g, p);
	}
	for (int p = 0; p < g->n; p++)
		if (spawn_error[p]) {
			fault(g, p, GAME_FAULT_START, spawn_error[p]);
			g_free(spawn_error[p]);
		}
	for (;;) {
		gint64 deadline = 0;
		gboolean waiting = FALSE;
		for (int p = 0; p < g->n; p++)
			if (g->seat[p].awaiting) {
				waiting = TRUE;
				deadline = MAX(deadline, g->seat[p].deadline);
			}
		if (!waiting)
			break;
		Event ev;
		wait_event(g, deadline, -1, &ev);
		if (ev.kind == EV_NONE) {
			gint64 now = g_get_monotonic_time();
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now)
					fault(g, p, GAME_FAULT_START, "no hello in time");
			continue;
		}
		int p = ev.seat;
		Seat *s = &g->seat[p];
		if (ev.kind == EV_EOF) {
			fault_gone(g, p, s->awaiting ? GAME_FAULT_START : GAME_FAULT_CRASH, "output closed");
			continue;
		}
		if (ev.kind == EV_TOO_LONG) {
			fault(g, p, GAME_FAULT_LINE_TOO_LONG, NULL);
			continue;
		}
		if (ev.kind == EV_FAULT)
			continue;
		const char *line = ev.line;
		if (ev.bad) {
			fault(g, p, GAME_FAULT_MALFORMED, "control byte in line");
			continue;
		}
		ProtocolVerb verb = protocol_verb(line);
		if (verb != PROTOCOL_HELLO && verb != PROTOCOL_DECLINE)
			continue;	/* info, comments, unknown lines: ignored */
		if (!s->awaiting) {
			fault(g, p, GAME_FAULT_MALFORMED, "unexpected line");
			continue;
		}
		if (verb == PROTOCOL_DECLINE) {
			fault(g, p, GAME_FAULT_DECLINED, NULL);
			continue;
		}
		ProtocolHello hello;
		if (!protocol_parse_hello(line, &hello)) {
			fault(g, p, GAME_FAULT_MALFORMED, "expected hello");
			continue;
		}
		bot_set_multi(s->bot, hello.multi, hello.moves);
		bot_set_hello_name(s->bot, hello.name);
		protocol_hello_clear(&hello);
		s->awaiting = FALSE;
		/* a move's CPU time counts from here: start-up is not a move */
		s->cpu_last = bot_cpu_ms(s->bot);
	}
	g->starting = FALSE;
}

static void finish(Game *g, GameResult *result)
{
	const GameSpec *spec = g->spec;
	int scores[VARIANT_MAX_PLAYERS], ranks[VARIANT_MAX_PLAYERS];
	int live = 0;

	g->v->scores(g->state, scores);
	g->v->ranking(g->state, ranks);
	for (int p = 0; p < g->n; p++)
		if (!g->seat[p].out)
			live++;
	if (result->end == GAME_END_RULES && live == 0)
		result->end = GAME_END_FAULTS;
	const char *faults[VARIANT_MAX_PLAYERS];
	for (int p = 0; p < g->n; p++)
		faults[p] = g->seat[p].first_fault < 0 ? NULL : protocol_fault_name(g->seat[p].first_fault);
	char extra[1024] = "";
	if (g->v->result_extra) {
		Text t;
		text_init(&t, extra, sizeof(extra));
		g->v->result_extra(g->state, &t);
	}
	g_autofree char *fields = protocol_result_fields(g->n, ranks, scores, faults, extra,
							 game_end_name(result->end));
	g_autofree char *line = protocol_result_line(fields);
	log_event(g, GAMELOG_RESULT, -1, fields);

	gint64 deadline = g_get_monotonic_time() + GAME_QUIT_GRACE_MS * 1000;
	gboolean keep[VARIANT_MAX_PLAYERS] = {0};
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		if (!s->bot)
			continue;
		queue(g, p, line);
		keep[p] = spec->keep_bots && bot_multi(s->bot) && s->first_fault < 0 && !s->awaiting &&
			  s->stale == 0;
		if (!keep[p])
			queue(g, p, protocol_quit());
		/* The last lines may wait for room until the grace runs out. */
		if (flush(g, p) && s->pending->len &&
		    bot_write(s->bot, s->pending->str, s->pending->len, deadline) == BOT_WRITE_OK)
			g_string_truncate(s->pending, 0);
	}
	/* Let the bots exit on their own, then kill whatever is left. */
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].bot && !keep[p])
			bot_wait_exit(g->seat[p].bot, deadline);
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].info_dropped)
			gamelog_write_comment(g->log, "seat %d: %d info lines over %d per move not logged", p,
				   g->seat[p].info_dropped, GAME_INFO_MAX);
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].text_dropped)
			gamelog_write_comment(g->log, "seat %d: %d lines past the %d bytes of bot text a game logs, not logged",
				   p, g->seat[p].text_dropped, GAME_TEXT_MAX);
	gamelog_write_end(g->log);

	result->nseats = g->n;
	result->plies = g->plies;
	result->log_path = g_strdup(spec->log_path);
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		GameSeatResult *r = &result->seat[p];
		r->name = g_strdup(s->name);
		r->score = scores[p];
		r->rank = ranks[p];
		memcpy(r->faults, s->faults, sizeof(r->faults));
		r->first_fault = s->first_fault;
		r->moves = s->moves;
		r->mean_ms = s->moves ? s->total_ms / s->moves : 0;
		r->max_ms = s->max_ms;
		r->cpu_ms = s->cpu_ms;
		if (keep[p]) {
			r->bot = s->bot;
			s->bot = NULL;
		}
	}
}

static void game_release(Game *g)
{
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		bot_free(s->bot);
		g_free(s->name);
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
}

gboolean game_run(const GameSpec *spec, GameResult *result, GError **error)
{
	const Variant *v = spec->variant;
	Game g = {0};
	VariantError verr;

	memset(result, 0, sizeof(*result));
	signal(SIGPIPE, SIG_IGN);
	g.n = spec->config.nplayers;
	if ((verr = variant_config_check(v, &spec->config)) != VARIANT_OK) {
		g_set_error(error, GAME_ERROR, GAME_ERROR_SPEC, "%s: %s", v->name, variant_error_string(verr));
		for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
			bot_free(spec->seats[p].bot);
		return FALSE;
	}
	if (spec->time.grace < GAME_GRACE_MIN) {
		g_set_error(error, GAME_ERROR, GAME_ERROR_SPEC,
			    "time control: grace %" G_GINT64_FORMAT " ms is below the least, %d ms "
			    "(a scheduling margin that small charges false timeouts on a loaded machine)",
			    spec->time.grace, GAME_GRACE_MIN);
		for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
			bot_free(spec->seats[p].bot);
		return FALSE;
	}
	for (int p = 0; p < g.n; p++) {
		const GameSeat *s = &spec->seats[p];
		g_return_val_if_fail(s->bot || (s->spec && (!spec->keep_bots || s->games >= 1)), FALSE);
	}
	if (!sandbox_resolve(spec->sandbox, &g.sandbox, error)) {
		for (int p = 0; p < g.n; p++)
			bot_free(spec->seats[p].bot);
		return FALSE;
	}
	if (spec->log_path) {
		g.log = gamelog_writer_new(spec->log_path, error);
		if (!g.log) {
			for (int p = 0; p < g.n; p++)
				bot_free(spec->seats[p].bot);
			return FALSE;
		}
	}
	g.spec = spec;
	g.v = v;
	g.policy = spec->policy == GAME_POLICY_VARIANT ? (int)v->fault_policy : spec->policy;
	g.state = g_malloc0(v->state_size);
	g.scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	g.legal = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	g.legal_seat = -1;
	g.spin = GAME_SPIN_POLLS;
	g.text_cap = 1 << 16;
	g.text = g_malloc(g.text_cap);
	rng_seed(&g.chance, spec->seed);
	rng_seed(&g.fault_rng, rng_derive(spec->seed, "fault", 0));
	/* Ties between seats are broken in an order drawn from the seed: the
	 * first seat looked at, then each batch of moves due together. */
	rng_seed(&g.ties, rng_derive(spec->seed, "ties", 0));
	g.rr = (int)rng_below(&g.ties, (uint32_t)g.n);
	/* Test hook: a referee whose timer wakes it this many ms late for
	 * each real-time moment it waits for (as on a loaded machine;
	 * tests/t6004-rush-late-referee.sh). */
	const char *lag = g_getenv("TETRARENA_TEST_LAG_MS");
	gint64 lag_ms = 0;
	if (lag && g_ascii_string_to_signed(lag, 10, 0, 10000, &lag_ms, NULL))
		g.lag = lag_ms * 1000;
	int pace_index = variant_option_index(v, "pace");
	g.pace = pace_index >= 0 ? (gint64)spec->config.opt[pace_index] * 1000 : 0;
	g.t0 = g_get_monotonic_time();
	for (int p = 0; p < g.n; p++) {
		Seat *s = &g.seat[p];
		const BotSpec *bs = spec->seats[p].bot ? bot_spec(spec->seats[p].bot) : spec->seats[p].spec;
		s->name = g_strdup(bs->name);
		s->first_fault = -1;
		s->bank = spec->time.bank * 1000;
		s->pending = g_string_new(NULL);
	}
	v->init(g.state, &spec->config);
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
		write_header(&g);
	start_bots(&g);

	result->end = GAME_END_RULES;
	/* The game clock starts once every bot said hello (the start line). */
	gint64 game_deadline = spec->time.game > 0 ? g_get_monotonic_time() + spec->time.game * 1000
						   : GAME_FOREVER;
	for (;;) {
		uint32_t mask;
		VariantPhase phase = v->phase(g.state, &mask);
		if (phase == VARIANT_PHASE_OVER)
			break;
		if (game_deadline != GAME_FOREVER && v->halt && g_get_monotonic_time() >= game_deadline) {
			g.legal_seat = -1;
			v->halt(g.state);
			log_event(&g, GAMELOG_HALT, -1, NULL);
			result->end = GAME_END_LIMIT;
			continue;
		}
		switch (phase) {
		case VARIANT_PHASE_CHANCE:
			do_chance(&g);
			break;
		case VARIANT_PHASE_TURN:
			run_only(&g, mask);
			do_turn(&g, variant_mask_player(mask));
			break;
		case VARIANT_PHASE_SIMULTANEOUS: {
			/* Every seat of the round stopped and nothing plays for it
			 * (policy `nothing`): no round could ever change the state,
			 * so end the game as real time does, rather than spin. */
			gboolean anyone = g.policy == VARIANT_FAULT_RANDOM;
			for (int p = 0; p < g.n; p++)
				if (mask & (1u << p) && g.seat[p].bot)
					anyone = TRUE;
			if (!anyone && v->halt) {
				v->halt(g.state);
				log_event(&g, GAMELOG_HALT, -1, NULL);
				result->end = GAME_END_FAULTS;
				break;
			}
			/* With side actions a trade may outdate a move: each `go`
			 * keeps the state it showed. */
			for (int p = 0; p < g.n && v->side; p++)
				if (!g.seat[p].snapshot)
					g.seat[p].snapshot = g_malloc0(v->state_size);
			run_only(&g, ~0u);
			do_simultaneous(&g, mask);
			break;
		}
		case VARIANT_PHASE_REALTIME:
			for (int p = 0; p < g.n; p++)
				if (!g.seat[p].snapshot)
					g.seat[p].snapshot = g_malloc0(v->state_size);
			run_only(&g, ~0u);
			if (do_realtime(&g, game_deadline)) {
				if (!v->halt) {
					g_set_error(error, GAME_ERROR, GAME_ERROR_VARIANT, "%s: real-time phase with no way to halt",
						    v->name);
					gamelog_writer_close(g.log, NULL);
					game_release(&g);
					if (pinned)
						sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
					return FALSE;
				}
				g.legal_seat = -1;
				v->halt(g.state);
				log_event(&g, GAMELOG_HALT, -1, NULL);
				result->end = GAME_END_LIMIT;
			}
			break;
		case VARIANT_PHASE_OVER:
			break;
		}
	}
	run_only(&g, ~0u);
	finish(&g, result);
	game_release(&g);
	if (pinned)
		sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
	if (!gamelog_writer_close(g.log, error)) {
		game_result_clear(result);
		return FALSE;
	}
	return TRUE;
}

void game_result_clear(GameResult *result)
{
	for (int i = 0; i < result->nseats; i++) {
		g_free(result->seat[i].name);
		bot_free(result->seat[i].bot);
	}
	g_free(result->log_path);
	memset(result, 0, sizeof(*result));
}
