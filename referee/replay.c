/*
 * replay: verify, view and compare game logs. See replay.h.
 *
 * One stepping function applies a log's events to a state with every
 * check; verify runs it to the end, view prints between steps. The replay
 * as JSON (view --html) is replay-json.c's, on the same steps (the
 * private replay-int.h).
 */
#include "replay.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "game.h"
#include "protocol.h"
#include "replay-int.h"
#include "text.h"

G_DEFINE_QUARK(tetrarena-replay-error-quark, replay_error)

/* The first referee version that holds a simultaneous round's faults
 * until the round is in (referee/version.h). */
#define HOLD_FAULTS_MAJOR 0
#define HOLD_FAULTS_MINOR 2

/*
 * Whether the referee of version `version` (a log's `referee` line:
 * MAJOR.MINOR as numbers, so 0.10 is after 0.2; a further .PATCH, -TAG or
 * +TAG ignored) held a round's faults: as of 0.2. A missing or garbled
 * version is taken for the current referee's, whose order is the strict
 * one.
 */
static gboolean holds_faults(const char *version)
{
	char *end;

	if (!version || !g_ascii_isdigit(*version))
		return TRUE;
	guint64 major = g_ascii_strtoull(version, &end, 10);
	if (*end != '.' || !g_ascii_isdigit(end[1]))
		return TRUE;
	guint64 minor = g_ascii_strtoull(end + 1, &end, 10);
	if (*end != '\0' && *end != '.' && *end != '-' && *end != '+')
		return TRUE;
	return major > HOLD_FAULTS_MAJOR || (major == HOLD_FAULTS_MAJOR && minor >= HOLD_FAULTS_MINOR);
}

void replay_init(Replay *r, const GameLog *log)
{
	r->log = log;
	r->v = log->variant;
	r->state = g_malloc0(r->v->state_size);
	r->scratch = g_new(Move, r->v->max_moves > 0 ? r->v->max_moves : 1);
	rng_seed(&r->chance, log->seed);
	rng_seed(&r->fault_rng, rng_derive(log->seed, "fault", 0));
	r->submitted = 0;
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++) {
		r->first_fault[p] = -1;
		r->wants_moves[p] = -1;
		r->moves[p] = g_string_new(NULL);
	}
	r->halted = r->result_seen = FALSE;
	r->hold_faults = holds_faults(log->referee_version);
	r->v->init(r->state, &log->config);
}

void replay_release(Replay *r)
{
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++) {
		g_free(r->said[p]);
		g_queue_clear_full(&r->told[p], g_free);
		g_queue_clear_full(&r->side_heard[p], g_free);
		g_string_free(r->moves[p], TRUE);
	}
	g_queue_clear_full(&r->held, g_free);
	g_free(r->state);
	g_free(r->scratch);
}

static const char *fmt(Replay *r, int player, Move m)
{
	Text t;

	text_init(&t, r->text, sizeof(r->text));
	r->v->move_format(r->state, player, m, &t);
	return r->text;
}

#define FAIL(...)                                                                          \
	do {                                                                               \
		g_autofree char *why_ = g_strdup_printf(__VA_ARGS__);                     \
		g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "%s:%d: %s", r->log->path, e->lineno, why_); \
		return FALSE;                                                              \
	} while (0)

static const char *phase_name(VariantPhase ph)
{
	static const char *const names[] = {"turn", "chance", "simultaneous", "realtime", "over"};
	return names[ph];
}

/* A bot's move event must be what the seat's own last `< SEAT move X`
 * line said: the same text, or notation that means the same move. A
 * person's moves come from the terminal, with no traffic. */
static gboolean heard(Replay *r, const GameLogEvent *e, Move m, GError **error)
{
	Move said;
	g_autofree char *line = g_steal_pointer(&r->said[e->seat]);

	if (g_strcmp0(r->log->command[e->seat], "human") == 0)
		return TRUE;
	if (!line)
		FAIL("seat %d sent no move line for its move %s", e->seat, e->text);
	if (strcmp(line, e->text) != 0 &&
	    (!r->v->move_parse(r->state, e->seat, line, &said) || said != m))
		FAIL("seat %d's move is %s, but its line (line %d) said 'move %s'", e->seat, e->text,
		     r->said_line[e->seat], line);
	return TRUE;
}

/* A `go` the referee sent must be to a seat that is to move, with the
 * state as it stands: "go MS bank=MS STATE". */
static gboolean check_go(Replay *r, const GameLogEvent *e, VariantPhase ph, uint32_t mask,
			 GError **error)
{
	long ms, bank;
	const char *state;

	if ((ph != VARIANT_PHASE_TURN && ph != VARIANT_PHASE_REALTIME && ph != VARIANT_PHASE_SIMULTANEOUS) ||
	    !(mask & (1u << e->seat)))
		FAIL("go to seat %d, which is not to move (phase %s)", e->seat, phase_name(ph));
	if (!protocol_parse_go(e->text, &ms, &bank, &state))
		FAIL("a go line without its state");
	/* the line the referee builds with this state, the times as sent */
	Text t;
	text_init(&t, r->text, sizeof(r->text));
	r->v->state_format(r->state, e->seat, &t);
	g_autoptr(GString) want = g_string_new(NULL);
	protocol_append_go(want, ms, bank, r->text);
	g_string_truncate(want, want->len - 1);
	if (strcmp(e->text, want->str) != 0)
		FAIL("the go to seat %d does not carry the state of the game here", e->seat);
	r->closed &= ~(1u << e->seat);	/* asked (again): its move counts */
	return TRUE;
}

/* The referee tells every seat but `except` (-1: all) of an event with an
 * `update` line: owed from here on, sent in this order. */
static void tell(Replay *r, int except, const char *line)
{
	for (int p = 0; p < r->log->config.nplayers; p++)
		if (p != except)
			g_queue_push_tail(&r->told[p], g_strdup(line));
}

/* The round is in: the faults held in it are owed to every seat now, in
 * the order they came. */
static void release_held(Replay *r)
{
	char *line;

	r->round_open = FALSE;
	while ((line = g_queue_pop_head(&r->held))) {
		tell(r, -1, line);
		g_free(line);
	}
}

static gboolean is_side_line(const Replay *r, const char *line)
{
	if (!r->v->side || !r->v->side_verbs)
		return FALSE;
	for (const char *const *w = r->v->side_verbs; *w; w++)
		if (protocol_line_is(line, *w))
			return TRUE;
	return FALSE;
}

/* A `moves` line: a bot that asked for none gets none; the list may go on
 * over several lines (protocol_append_moves()), joined here and held against
 * the legal moves at the `go`. */
static gboolean take_moves(Replay *r, const GameLogEvent *e, GError **error)
{
	int p = e->seat;

	if (r->wants_moves[p] == 0)
		FAIL("moves sent to seat %d, whose hello did not ask for them", p);
	if (strlen(e->text) + 1 > PROTOCOL_LINE_MAX)
		FAIL("a moves line to seat %d over %d bytes", p, PROTOCOL_LINE_MAX);
	protocol_join_moves(r->moves[p], e->text);
	if (r->nmoves[p]++ == 0)
		r->moves_line[p] = e->lineno;
	return TRUE;
}

/* At a `go`: the `moves` lines before it list exactly the seat's legal
 * moves here, in the engine's order; a bot that asked for them got them. */
static gboolean check_moves(Replay *r, const GameLogEvent *e, GError **error)
{
	int p = e->seat;
	int n = r->v->legal_moves(r->state, p, r->scratch);

	if (r->nmoves[p] == 0) {
		if (r->wants_moves[p] == 1)
			FAIL("a go to seat %d without the moves its hello asked for", p);
		return TRUE;
	}
	/* the lines the referee builds here, joined as the bot joins them */
	g_autoptr(GString) lines = g_string_new(NULL);
	g_autoptr(GString) want = g_string_new(NULL);
	protocol_append_moves(lines, r->v, r->state, p, r->scratch, n, 0);
	g_auto(GStrv) each = g_strsplit(lines->str, "\n", -1);
	for (int i = 0; each[i] && each[i][0]; i++)
		protocol_join_moves(want, each[i]);
	gboolean same = strcmp(r->moves[p]->str, want->str) == 0;
	g_string_truncate(r->moves[p], 0);
	r->nmoves[p] = 0;
	if (!same) {
		/* named at the (first) moves line, not at the go */
		g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "%s:%d: the moves sent to seat %d are not its legal moves here",
			    r->log->path, r->moves_line[p], p);
		return FALSE;
	}
	return TRUE;
}

/* The greeting: `tetrarena 1` (to a bot just started) then the `game`
 * line the header gives, N being the bot's count of games. */
static gboolean check_greeting(Replay *r, const GameLogEvent *e, GError **error)
{
	int p = e->seat;

	if (strcmp(e->text, protocol_greeting()) == 0) {
		if (r->greeted[p])
			FAIL("'%s' to seat %d after its greeting", e->text, p);
		r->greeted[p] = 1;
		return TRUE;
	}
	gint64 games = 0;
	const char *count = protocol_args(e->text);
	const char *sp = strchr(count, ' ');
	g_autofree char *n = sp ? g_strndup(count, (gsize)(sp - count)) : NULL;
	if (!n || !g_ascii_string_to_signed(n, 10, 1, G_MAXINT, &games, NULL))
		FAIL("a game line to seat %d without its game count", p);
	g_autofree char *want =
		protocol_game_line(r->v, &r->log->config, gamelog_seat_time(r->log, p), p, (int)games);
	if (r->greeted[p] == 2)
		FAIL("a second game line to seat %d", p);
	if (strcmp(want, e->text) != 0)
		FAIL("the game line to seat %d should be '%s' by the header", p, want);
	r->greeted[p] = 2;
	return TRUE;
}

/* `refused VERB bad-text` or `refused VERB flood`: the answer to a side
 * line that was never applied (no event). It answers the seat's oldest
 * side line not yet judged, and must be the right answer to it. */
static gboolean check_refusal(Replay *r, const GameLogEvent *e, const char *why, GError **error)
{
	int p = e->seat;
	g_autofree char *entry = g_queue_pop_head(&r->side_heard[p]);
	const char *heard = entry ? strchr(entry, ' ') + 1 : NULL;	/* "LINENO TEXT" */
	const char *verb_at, *said_why;
	gsize verb;

	protocol_parse_refused(e->text, &verb_at, &verb, &said_why);

	/* past GAME_TEXT_MAX the seat's side lines are refused unlogged */
	if (!heard && strcmp(why, "flood") == 0 && r->said_bytes[p] >= GAME_TEXT_MAX)
		return TRUE;
	if (!heard)
		FAIL("'%s' to seat %d answers no side line of it", e->text, p);
	if (strncmp(heard, verb_at, verb) != 0 || (heard[verb] != ' ' && heard[verb] != '\0'))
		FAIL("'%s' to seat %d does not answer its line '%s'", e->text, p, heard);
	gboolean flood = r->sides[p] > GAME_SIDE_MAX;
	if (strcmp(why, "flood") == 0 && !flood)
		FAIL("'%s': seat %d sent %d side lines since its go, no flood", e->text, p, r->sides[p]);
	if (strcmp(why, "bad-text") == 0 && (flood || (!strchr(heard, '?') && !strstr(heard, "\\x"))))
		FAIL("'%s': seat %d's line '%s' is %s", e->text, p, heard,
		     flood ? "past the side line cap (flood)" : "printable ASCII");
	return TRUE;
}

/* A line the referee sent. Each kind is checked against the game: the
 * greeting against the header, a `go` against the state (check_go), its
 * `moves` against the legal moves, chatter against the header, `quit`
 * after the result; everything else (updates, side answers, the result)
 * must be the next line the seat is owed. */
static gboolean check_sent(Replay *r, const GameLogEvent *e, VariantPhase ph, uint32_t mask,
			   GError **error)
{
	int p = e->seat;
	int nchat = (int)g_strv_length(r->log->chatter);

	if (r->results[p] == 2)
		FAIL("'%s' to seat %d after its quit", e->text, p);
	ProtocolVerb verb = protocol_verb(e->text);
	if (strcmp(e->text, protocol_greeting()) == 0 || verb == PROTOCOL_GAME)
		return check_greeting(r, e, error);
	if (r->greeted[p] < 2)
		FAIL("'%s' to seat %d before its game line", e->text, p);
	gboolean go = verb == PROTOCOL_GO && e->text[2] == ' ';
	if (go || verb == PROTOCOL_MOVES) {
		if (r->chat[p] != nchat)
			FAIL("the %s to seat %d without the header's chatter lines before it",
			     protocol_verb_name(go ? PROTOCOL_GO : PROTOCOL_MOVES), p);
		if (r->bad_hello[p])
			FAIL("a %s to seat %d, whose hello (line %d) is malformed and not faulted",
			     protocol_verb_name(go ? PROTOCOL_GO : PROTOCOL_MOVES), p, r->bad_hello[p]);
		if (!go)
			return take_moves(r, e, error);
		if (!check_go(r, e, ph, mask, error) || !check_moves(r, e, error))
			return FALSE;
		if (ph == VARIANT_PHASE_SIMULTANEOUS)
			r->round_open = r->hold_faults;
		else if (r->round_open)
			release_held(r);	/* (a round that ended its phase) */
		r->chat[p] = 0;
		r->sides[p] = 0;
		r->went[p] = TRUE;
		return TRUE;
	}
	if (r->chat[p] < nchat && strcmp(e->text, r->log->chatter[r->chat[p]]) == 0) {
		r->chat[p]++;
		return TRUE;
	}
	if (strcmp(e->text, protocol_quit()) == 0) {
		if (r->results[p] != 1)
			FAIL("quit to seat %d before its result", p);
		r->results[p] = 2;
		return TRUE;
	}
	const char *verb_at, *why;
	gsize verb_len;
	if (verb == PROTOCOL_REFUSED && e->text[7] == ' ' &&
	    protocol_parse_refused(e->text, &verb_at, &verb_len, &why) &&
	    (strcmp(why, "bad-text") == 0 || strcmp(why, "flood") == 0))
		return check_refusal(r, e, why, error);
	g_autofree char *want = g_queue_pop_head(&r->told[p]);
	if (!want)
		FAIL("'%s' to seat %d: nothing happened that it should be told", e->text, p);
	if (strcmp(want, e->text) != 0)
		FAIL("'%s' to seat %d: the next thing it should be told is '%s'", e->text, p, want);
	if (protocol_verb(want) == PROTOCOL_RESULT)
		r->results[p] = 1;
	return TRUE;
}

/* A line a bot sent: its hello says whether it wants `moves` lines; its
 * `move` is held against the move event; a side line against the side
 * event or the refusal that answers it. Other lines are the bot's own
 * words (info, comments): nothing in the game depends on them. */
static void check_received(Replay *r, const GameLogEvent *e)
{
	int p = e->seat;

	if (game_text_counts(e->text))
		r->said_bytes[p] += strlen(e->text) + 1;
	r->heard_line[p] = e->lineno;

	ProtocolVerb verb = protocol_verb(e->text);
	ProtocolHello hello;
	if (verb == PROTOCOL_MOVE && (r->closed >> p & 1u)) {
		/* a move for a closed round: discarded, it says nothing */
	} else if (verb == PROTOCOL_MOVE) {
		g_free(r->said[p]);
		r->said[p] = g_strdup(protocol_move_text(e->text));
		r->said_line[p] = e->lineno;
	} else if (verb == PROTOCOL_HELLO && r->wants_moves[p] < 0 && !r->bad_hello[p] && !r->went[p]) {
		if (!protocol_parse_hello(e->text, &hello)) {
			r->bad_hello[p] = e->lineno;
			return;
		}
		r->wants_moves[p] = hello.moves;
		r->hello_line[p] = e->lineno;
		protocol_hello_clear(&hello);
	} else if (is_side_line(r, e->text)) {
		g_queue_push_tail(&r->side_heard[p], g_strdup_printf("%d %s", e->lineno, e->text));
		r->sides[p]++;
	}
}

/*
 * Whether fault e is the referee's answer to the seat's hello (game-start.c):
 * a hello that does not parse ("expected hello"), or one that held a
 * control byte, which the log shows as '?' and so parses here (the
 * `malformed` fault right after it: before its first `go` nothing else
 * the seat says makes one but a later line, logged in between). Either
 * way the referee took no hello: the seat asked for no `moves`, and a
 * later hello is an unexpected line.
 */
static gboolean hello_faulted(const Replay *r, const GameLogEvent *e)
{
	int p = e->seat;

	if (r->bad_hello[p])
		return TRUE;
	return r->wants_moves[p] >= 0 && r->hello_line[p] == r->heard_line[p] &&
	       protocol_fault_from_name(e->text) == GAME_FAULT_MALFORMED;
}

/* Parse and check a player's move; the random policy's must match its draw. */
static gboolean check_move(Replay *r, const GameLogEvent *e, gboolean random, Move *m, GError **error)
{
	if (!r->v->move_parse(r->state, e->seat, e->text, m))
		FAIL("'%s' is not a move of seat %d here", e->text, e->seat);
	if (!variant_move_is_legal(r->v, r->state, e->seat, *m, r->scratch))
		FAIL("%s by seat %d is not legal here", e->text, e->seat);
	if (!random && !heard(r, e, *m, error))
		return FALSE;
	if (random) {
		int n = r->v->legal_moves(r->state, e->seat, r->scratch);
		Move want = r->scratch[rng_below(&r->fault_rng, (uint32_t)n)];
		if (want != *m) {
			g_autofree char *w = g_strdup(fmt(r, e->seat, want));
			FAIL("the random policy's move for seat %d should be %s, not %s", e->seat, w, e->text);
		}
	}
	return TRUE;
}

/* Every field the variant adds to a result (result_extra) must stand in
 * the logged result line with the value the rules give. */
static gboolean check_result_extra(Replay *r, const GameLogEvent *e, GError **error)
{
	char extra[1024];
	Text t;

	if (!r->v->result_extra)
		return TRUE;
	text_init(&t, extra, sizeof(extra));
	r->v->result_extra(r->state, &t);
	g_auto(GStrv) want = g_strsplit(g_strstrip(extra), " ", -1);
	g_auto(GStrv) got = g_strsplit(e->text, " ", -1);
	for (int i = 0; want[i]; i++) {
		if (!*want[i])
			continue;
		if (!g_strv_contains((const char *const *)got, want[i]))
			FAIL("the result should say %s by the rules", want[i]);
	}
	return TRUE;
}

/* Whether a result's fields say reason=aborted (a game stopped from
 * outside). */
static gboolean result_aborted(const char *fields)
{
	ProtocolResult res;
	g_autofree char *why = NULL;

	if (!protocol_parse_result(fields, -1, &res, &why))
		return FALSE;
	gboolean aborted = g_strcmp0(res.reason, "aborted") == 0;
	protocol_result_clear(&res);
	return aborted;
}

/* FAIL, after releasing what check_result() parsed. */
#define FAIL_OUT(...)                                                                      \
	do {                                                                               \
		g_autofree char *why_ = g_strdup_printf(__VA_ARGS__);                     \
		g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "%s:%d: %s", r->log->path, e->lineno, why_); \
		goto out;                                                                  \
	} while (0)

/* Compare "ranks=1,2 scores=.. faults=.. reason=.." with the state. */
static gboolean check_result(Replay *r, const GameLogEvent *e, GError **error)
{
	int n = r->log->config.nplayers;
	int scores[VARIANT_MAX_PLAYERS], ranks[VARIANT_MAX_PLAYERS];
	uint32_t mask;
	VariantPhase ph = r->v->phase(r->state, &mask);
	ProtocolResult res;
	g_autofree char *why = NULL;

	if (!protocol_parse_result(e->text, n, &res, &why))
		FAIL("%s", why);
	/* an aborted game (stopped from outside) ends where it stands */
	gboolean aborted = g_strcmp0(res.reason, "aborted") == 0;
	gboolean ok = FALSE;
	if (ph != VARIANT_PHASE_OVER && !aborted)
		FAIL_OUT("result recorded while the game is not over (phase %s)", phase_name(ph));
	r->v->scores(r->state, scores);
	r->v->ranking(r->state, ranks);
	/* the game's time ran out (a halt): limit, or faults when no seat
	 * could play on; else end, or faults */
	if (res.reason && strcmp(res.reason, r->halted ? "limit" : "end") != 0 &&
	    strcmp(res.reason, "faults") != 0 && !aborted)
		FAIL_OUT("the result's reason is %s, but the game %s", res.reason,
			 r->halted ? "was halted (limit or faults)" : "was not halted (end or faults)");
	for (int p = 0; p < n; p++)
		if (res.ranks[p] != ranks[p])
			FAIL_OUT("seat %d's rank is %d by the rules, the result says %d", p, ranks[p], res.ranks[p]);
	for (int p = 0; p < n; p++)
		if (res.scores[p] != scores[p])
			FAIL_OUT("seat %d's score is %d by the rules, the result says %d", p, scores[p], res.scores[p]);
	for (int p = 0; p < n; p++) {
		const char *want = r->first_fault[p] < 0 ? "-" : game_fault_name(r->first_fault[p]);
		if (strcmp(res.faults[p], want) != 0)
			FAIL_OUT("seat %d's first fault is %s, the result says %s", p, want, res.faults[p]);
	}
	ok = check_result_extra(r, e, error);
out:
	protocol_result_clear(&res);
	return ok;
}

/* The side line of a bot that a side event judges: its oldest side line
 * not yet judged with this text (lines before it the variant did not take
 * as side actions). A person's lines come from the terminal. */
static gboolean heard_side(Replay *r, const GameLogEvent *e, const char *action, GError **error)
{
	int p = e->seat;
	int first = 0;

	if (g_strcmp0(r->log->command[p], "human") == 0)
		return TRUE;
	while (!g_queue_is_empty(&r->side_heard[p])) {
		g_autofree char *line = g_queue_pop_head(&r->side_heard[p]);
		char *text = strchr(line, ' ') + 1;	/* "LINENO TEXT" */
		if (!first)
			first = atoi(line);
		if (strcmp(text, action) == 0)
			return TRUE;
	}
	if (first)
		FAIL("seat %d never sent the side line '%s' (its oldest side line not yet judged, line %d, says otherwise)",
		     p, action, first);
	FAIL("seat %d never sent the side line '%s'", p, action);
}

/* The answers of a side action or a close are owed to their seats. */
static void owe_side(Replay *r, const VariantSide *out)
{
	for (int i = 0; i < out->n; i++)
		if (out->to[i] >= 0 && out->to[i] < r->log->config.nplayers)
			g_queue_push_tail(&r->told[out->to[i]], g_strdup(out->line[i]));
}

/*
 * A side action (`ok TEXT` or `refused REASON TEXT`): the rules must agree
 * that it is allowed, or refused for that same reason. Every limit of the
 * variant's side actions is checked this way.
 */
static gboolean replay_side(Replay *r, const GameLogEvent *e, VariantPhase ph, GError **error)
{
	gboolean ok = g_str_has_prefix(e->text, "ok ");
	const char *action = e->text + (ok ? 3 : 8);
	g_autofree char *reason = NULL;
	VariantSide out;

	if (!r->v->side || ph != VARIANT_PHASE_SIMULTANEOUS)
		FAIL("a side action of seat %d outside a simultaneous round", e->seat);
	if (!ok) {
		const char *sp = strchr(action, ' ');
		if (!sp)
			FAIL("a refused side action without its reason");
		reason = g_strndup(action, (gsize)(sp - action));
		action = sp + 1;
	}
	/* the event repeats the seat's line: it counts again (game.c) */
	if (game_text_counts(action))
		r->said_bytes[e->seat] += strlen(action) + 1;
	VariantSideResult res = r->v->side(r->state, e->seat, action, &out);
	if (res == VARIANT_SIDE_NONE)
		FAIL("'%s' is not a side action", action);
	if (ok && res != VARIANT_SIDE_DONE)
		FAIL("'%s' by seat %d breaks a rule (%s), yet the log says it was done", action,
		     e->seat, out.reason);
	if (!ok && res == VARIANT_SIDE_DONE)
		FAIL("'%s' by seat %d is allowed, yet the log says it was refused (%s)", action,
		     e->seat, reason);
	if (!ok && strcmp(reason, out.reason) != 0)
		FAIL("'%s' by seat %d is refused for %s, the log says %s", action, e->seat,
		     out.reason, reason);
	if (!heard_side(r, e, action, error))
		return FALSE;
	owe_side(r, &out);
	return TRUE;
}

/* An `illegal` fault: the seat's move line was a move, not legal here.
 * (A line that is not a move at all is `malformed`.) A person's moves
 * come from the terminal. */
static gboolean said_illegal(Replay *r, int p)
{
	Move m;

	if (g_strcmp0(r->log->command[p], "human") == 0)
		return TRUE;
	return r->said[p] && r->v->move_parse(r->state, p, r->said[p], &m) &&
	       !variant_move_is_legal(r->v, r->state, p, m, r->scratch);
}

/* Apply one event with every check. */
gboolean replay_step(Replay *r, const GameLogEvent *e, GError **error)
{
	uint32_t mask;
	VariantPhase ph = r->v->phase(r->state, &mask);
	Move m;
	char line[VARIANT_MOVE_TEXT_MAX + 64];	/* what the referee tells */
	Text t;

	text_init(&t, line, sizeof(line));
	if (r->result_seen && e->kind != GAMELOG_SENT && e->kind != GAMELOG_RECEIVED)
		FAIL("an event after the result");
	switch (e->kind) {
	case GAMELOG_CHANCE:
		if (ph != VARIANT_PHASE_CHANCE)
			FAIL("a chance move in phase %s", phase_name(ph));
		m = r->v->chance_sample(r->state, &r->chance);
		if (strcmp(fmt(r, VARIANT_CHANCE, m), e->text) != 0)
			FAIL("chance move '%s' is not the seed's '%s'", e->text, r->text);
		if (r->v->chance_public)
		{
			protocol_update_chance(&t, e->text);
			tell(r, -1, line);
		}
		r->v->apply(r->state, VARIANT_CHANCE, m);
		return TRUE;
	case GAMELOG_MOVE:
	case GAMELOG_RANDOM:
		if ((ph != VARIANT_PHASE_TURN && ph != VARIANT_PHASE_REALTIME) || !(mask & (1u << e->seat)))
			FAIL("seat %d may not move now (phase %s)", e->seat, phase_name(ph));
		if (!check_move(r, e, e->kind == GAMELOG_RANDOM, &m, error))
			return FALSE;
		protocol_update_move(&t, e->seat, e->text);
		tell(r, e->seat, line);
		r->v->apply(r->state, e->seat, m);
		return TRUE;
	case GAMELOG_SUBMIT:
	case GAMELOG_SUBMIT_RANDOM:
	case GAMELOG_MISSING:
		if (ph != VARIANT_PHASE_SIMULTANEOUS || !(mask & (1u << e->seat)))
			FAIL("seat %d submits outside a simultaneous round of its own", e->seat);
		if (e->kind == GAMELOG_MISSING)
			return TRUE;
		if (!check_move(r, e, e->kind == GAMELOG_SUBMIT_RANDOM, &m, error))
			return FALSE;
		r->joint[e->seat] = m;
		r->submitted |= 1u << e->seat;
		return TRUE;
	case GAMELOG_JOINT:
		if (ph != VARIANT_PHASE_SIMULTANEOUS)
			FAIL("a joint round in phase %s", phase_name(ph));
		release_held(r);	/* the round's faults, then its moves */
		for (int p = 0; p < r->log->config.nplayers; p++)
			if (r->submitted & (1u << p)) {
				text_init(&t, line, sizeof(line));
				protocol_update_move(&t, p, fmt(r, p, r->joint[p]));
				tell(r, p, line);
			}
		r->v->apply_joint(r->state, r->joint, r->submitted);
		r->submitted = 0;
		r->closed = 0;
		return TRUE;
	case GAMELOG_RETIRE:
		r->v->retire(r->state, e->seat);
		return TRUE;
	case GAMELOG_SENT:
		return check_sent(r, e, ph, mask, error);
	case GAMELOG_RECEIVED:
		check_received(r, e);
		return TRUE;
	case GAMELOG_FAULT:
		if (protocol_fault_from_name(e->text) == GAME_FAULT_ILLEGAL && !said_illegal(r, e->seat))
			FAIL("an illegal-move fault of seat %d, but its last move line (line %d) is %s",
			     e->seat, r->said_line[e->seat],
			     r->said[e->seat] ? "a legal move here, or no move" : "missing");
		g_clear_pointer(&r->said[e->seat], g_free);
		if (!r->went[e->seat] && hello_faulted(r, e))
			r->wants_moves[e->seat] = 0;	/* the referee took no hello */
		r->bad_hello[e->seat] = 0;
		protocol_update_fault(&t, e->seat, e->text);
		if (r->round_open)
			g_queue_push_tail(&r->held, g_strdup(line));
		else
			tell(r, -1, line);
		if (r->first_fault[e->seat] < 0)
			r->first_fault[e->seat] = protocol_fault_from_name(e->text);
		return TRUE;
	case GAMELOG_REJECTED:
		/* a move legal at its `go` but overtaken since: the seat said
		 * it, it is not legal now, and the seat is told so */
		if (!r->v->move_parse(r->state, e->seat, e->text, &m))
			FAIL("'%s' is not a move of seat %d", e->text, e->seat);
		if (variant_move_is_legal(r->v, r->state, e->seat, m, r->scratch))
			FAIL("%s by seat %d is legal here, yet the log says it was rejected", e->text, e->seat);
		if (!heard(r, e, m, error))
			return FALSE;
		/* stale by a trade in a round, by another seat's move in real time */
		protocol_rejected(&t, e->text, ph == VARIANT_PHASE_SIMULTANEOUS ? "traded" : "overtaken");
		g_queue_push_tail(&r->told[e->seat], g_strdup(line));
		return TRUE;
	case GAMELOG_OUT:
		return TRUE;
	case GAMELOG_SIDE:
		return replay_side(r, e, ph, error);
	case GAMELOG_CLOSE: {
		VariantSide out;
		if (!r->v->side_close || ph != VARIANT_PHASE_SIMULTANEOUS || !(mask & (1u << e->seat)))
			FAIL("seat %d's side actions close outside a simultaneous round of its own", e->seat);
		r->v->side_close(r->state, e->seat, &out);
		owe_side(r, &out);
		r->closed |= 1u << e->seat;
		return TRUE;
	}
	case GAMELOG_HALT:
		if (!r->v->halt)
			FAIL("halt in a variant that cannot halt");
		r->v->halt(r->state);
		r->halted = TRUE;
		return TRUE;
	case GAMELOG_RESULT:
		if (!check_result(r, e, error))
			return FALSE;
		{
			g_autofree char *result = protocol_result_line(e->text);
			release_held(r);
			tell(r, -1, result);
		}
		r->result_seen = TRUE;
		return TRUE;
	}
	return TRUE;
}

gboolean replay_finish(Replay *r, GError **error)
{
	const GameLog *log = r->log;

	if (!r->result_seen) {
		g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "%s: the log ends before its result%s", log->path,
			    log->complete ? "" : " (cut short)");
		return FALSE;
	}
	/* Every traffic line the referee wrote is there, as its `traffic`
	 * lines count them (a log of a referee before them has none: it is
	 * taken as it is). A line deleted or added, anywhere, shows here. */
	if (!log->counted)
		return TRUE;
	guint count[2][VARIANT_MAX_PLAYERS] = {{0}};
	for (guint i = 0; i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if ((e->kind == GAMELOG_SENT || e->kind == GAMELOG_RECEIVED) && e->seat >= 0 &&
		    e->seat < VARIANT_MAX_PLAYERS)
			count[e->kind == GAMELOG_SENT ? 0 : 1][e->seat]++;
	}
	for (int p = 0; p < log->config.nplayers; p++) {
		if (!(log->counted & (1u << p))) {
			g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "%s: no traffic line for seat %d",
				    log->path, p);
			return FALSE;
		}
		for (int d = 0; d < 2; d++) {
			guint want = d ? log->received[p] : log->sent[p];
			if (count[d][p] != want) {
				g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID,
					    "%s: the log holds %u lines %s seat %d, its traffic line counts %u: "
					    "a line was deleted or added", log->path, count[d][p],
					    d ? "from" : "to", p, want);
				return FALSE;
			}
		}
	}
	return TRUE;
}

gboolean replay_aborted(const GameLog *log)
{
	for (guint i = log->events->len; i-- > 0;) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (e->kind == GAMELOG_RESULT)
			return result_aborted(e->text);
	}
	return FALSE;
}

gboolean replay_verify(const GameLog *log, GError **error)
{
	Replay *r = g_new0(Replay, 1);
	gboolean ok = TRUE;

	replay_init(r, log);
	for (guint i = 0; ok && i < log->events->len; i++)
		ok = replay_step(r, g_ptr_array_index(log->events, i), error);
	if (ok)
		ok = replay_finish(r, error);
	replay_release(r);
	g_free(r);
	return ok;
}

static void show(Replay *r, gboolean colour, FILE *out)
{
	char *buf = g_malloc(1 << 16);
	Text t;

	text_init(&t, buf, 1 << 16);
	r->v->render(r->state, colour, &t);
	fputs(buf, out);
	g_free(buf);
}

gboolean replay_view(const GameLog *log, gboolean colour, gboolean step, FILE *out, FILE *in,
		     GError **error)
{
	Replay *r = g_new0(Replay, 1);
	gboolean ok = TRUE;

	replay_init(r, log);
	fprintf(out, "%s, seed %" G_GUINT64_FORMAT ", %d players\n", log->variant->title, log->seed,
		log->config.nplayers);
	/* a log's text is shown escaped (gamelog_escape()): a log made by
	 * hand may hold anything */
	char *name[VARIANT_MAX_PLAYERS] = {0};
	for (int p = 0; p < log->config.nplayers; p++) {
		name[p] = gamelog_escape(log->name[p], GAMELOG_ESCAPE_LOGGED);
		g_autofree char *command = gamelog_escape(log->command[p], GAMELOG_ESCAPE_LOGGED);
		fprintf(out, "seat %d: %s (%s)\n", p, name[p], command);
	}
	show(r, colour, out);
	for (guint i = 0; ok && i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		ok = replay_step(r, e, error);
		if (!ok)
			break;
		g_autofree char *text = gamelog_escape(e->text, GAMELOG_ESCAPE_LOGGED);
		switch (e->kind) {
		case GAMELOG_CHANCE:
			fprintf(out, "\nchance: %s\n", text);
			continue;	/* the board did not change */
		case GAMELOG_MOVE:
			fprintf(out, "\nseat %d (%s): %s  (%.1f ms)\n", e->seat, name[e->seat], text,
				e->wall_ms);
			break;
		case GAMELOG_RANDOM:
			fprintf(out, "\nseat %d: %s (played by the fault policy)\n", e->seat, text);
			break;
		case GAMELOG_SUBMIT:
		case GAMELOG_SUBMIT_RANDOM:
			fprintf(out, "seat %d submits %s\n", e->seat, text);
			continue;
		case GAMELOG_MISSING:
			fprintf(out, "seat %d submits nothing\n", e->seat);
			continue;
		case GAMELOG_JOINT:
			fprintf(out, "\nround played\n");
			break;
		case GAMELOG_FAULT:
			fprintf(out, "\nseat %d: fault %s\n", e->seat, text);
			continue;
		case GAMELOG_RETIRE:
			fprintf(out, "seat %d is out of the game\n", e->seat);
			continue;
		case GAMELOG_HALT:
			fprintf(out, "\nthe game's time ran out\n");
			break;
		case GAMELOG_RESULT:
			fprintf(out, "\nresult: %s\n", text);
			continue;
		case GAMELOG_SIDE:
			fprintf(out, "seat %d: %s\n", e->seat, text);
			continue;
		default:
			continue;
		}
		show(r, colour, out);
		if (step) {
			fflush(out);
			char buf[256];
			if (!fgets(buf, sizeof(buf), in))
				step = FALSE;
		}
	}
	if (ok)
		ok = replay_finish(r, error);
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		g_free(name[p]);
	replay_release(r);
	g_free(r);
	return ok;
}

char *replay_event_key(const GameLogEvent *e)
{
	return g_strdup_printf("%s %d %s", gamelog_kind_name(e->kind), e->seat, e->text ? e->text : "");
}

/* Whether rerun compares event e (`close` lines only say when a seat's
 * move came, which timing decides; traffic is the bots' words). */
static gboolean compared(const GameLogEvent *e)
{
	return e->kind != GAMELOG_CLOSE && e->kind != GAMELOG_SENT && e->kind != GAMELOG_RECEIVED;
}

/* A fault or what follows from one for its seat alone. */
static gboolean fault_kind(const GameLogEvent *e)
{
	return e->kind == GAMELOG_FAULT || e->kind == GAMELOG_RETIRE || e->kind == GAMELOG_OUT;
}

typedef struct {
	guint index;	/* in log->events */
	const GameLogEvent *e;
} Compared;

static int by_seat(gconstpointer a, gconstpointer b)
{
	const Compared *x = a, *y = b;

	if (x->e->seat != y->e->seat)
		return x->e->seat < y->e->seat ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The events of `log` that rerun compares, in order, but for runs of
 * faults (and the retirements they bring) with nothing else in between:
 * those are by seat, each seat's in their order. Faults of several seats
 * in one simultaneous round come in the order their lines arrived, which
 * timing decides (their announcement waits for the round: protocol.md),
 * so a rerun of the same game may log them in another order.
 */
static GArray *compared_events(const GameLog *log)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(Compared));

	for (guint i = 0; i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (compared(e))
			g_array_append_val(out, ((Compared){i, e}));
	}
	for (guint i = 0; i < out->len;) {
		guint j = i;
		while (j < out->len && fault_kind(g_array_index(out, Compared, j).e))
			j++;
		if (j - i > 1)
			qsort(&g_array_index(out, Compared, i), j - i, sizeof(Compared), by_seat);
		i = j > i ? j : i + 1;
	}
	return out;
}

gboolean replay_first_difference(const GameLog *a, const GameLog *b, guint *at_a, guint *at_b)
{
	g_autoptr(GArray) ca = compared_events(a);
	g_autoptr(GArray) cb = compared_events(b);

	for (guint i = 0;; i++) {
		const Compared *ea = i < ca->len ? &g_array_index(ca, Compared, i) : NULL;
		const Compared *eb = i < cb->len ? &g_array_index(cb, Compared, i) : NULL;
		if (!ea && !eb)
			return FALSE;
		g_autofree char *ka = ea ? replay_event_key(ea->e) : NULL;
		g_autofree char *kb = eb ? replay_event_key(eb->e) : NULL;
		if (g_strcmp0(ka, kb) != 0) {
			*at_a = ea ? ea->index : a->events->len;
			*at_b = eb ? eb->index : b->events->len;
			return TRUE;
		}
	}
}

gboolean replay_compare(const GameLog *a, const GameLog *b, GError **error)
{
	guint ia, ib;

	if (!replay_first_difference(a, b, &ia, &ib))
		return TRUE;
	const GameLogEvent *ea = ia < a->events->len ? g_ptr_array_index(a->events, ia) : NULL;
	const GameLogEvent *eb = ib < b->events->len ? g_ptr_array_index(b->events, ib) : NULL;
	g_autofree char *ka = ea ? replay_event_key(ea) : g_strdup("(end of log)");
	g_autofree char *kb = eb ? replay_event_key(eb) : g_strdup("(end of log)");
	g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_DIFFERS, "%s:%d '%s' differs from %s:%d '%s'", a->path,
		    ea ? ea->lineno : 0, ka, b->path, eb ? eb->lineno : 0, kb);
	return FALSE;
}
