/*
 * replay: verify, view and compare game logs. See replay.h.
 *
 * One stepping function applies a log's events to a state with every
 * check; verify runs it to the end, view prints between steps.
 */
#include "replay.h"

#include <string.h>

#include "game.h"
#include "text.h"

typedef struct {
	const GameLog *log;
	const Variant *v;
	void *state;
	Move *scratch;
	Rng chance, fault_rng;
	Move joint[VARIANT_MAX_PLAYERS];
	uint32_t submitted;
	int first_fault[VARIANT_MAX_PLAYERS];
	gboolean halted, result_seen;
	char *said[VARIANT_MAX_PLAYERS];	/* the seat's last `move` line not yet played */
	int said_line[VARIANT_MAX_PLAYERS];	/* its line number */
	char text[1 << 16];
} Replay;

static void replay_init(Replay *r, const GameLog *log)
{
	r->log = log;
	r->v = log->variant;
	r->state = g_malloc0(r->v->state_size);
	r->scratch = g_new(Move, r->v->max_moves > 0 ? r->v->max_moves : 1);
	rng_seed(&r->chance, log->seed);
	rng_seed(&r->fault_rng, rng_derive(log->seed, "fault", 0));
	r->submitted = 0;
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		r->first_fault[p] = -1;
	r->halted = r->result_seen = FALSE;
	r->v->init(r->state, &log->config);
}

static void replay_release(Replay *r)
{
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		g_free(r->said[p]);
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
		g_set_error(error, GAME_ERROR, 0, "%s:%d: %s", r->log->path, e->lineno, why_); \
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
	const char *state = e->text + 3;

	if ((ph != VARIANT_PHASE_TURN && ph != VARIANT_PHASE_REALTIME && ph != VARIANT_PHASE_SIMULTANEOUS) ||
	    !(mask & (1u << e->seat)))
		FAIL("go to seat %d, which is not to move (phase %s)", e->seat, phase_name(ph));
	for (int field = 0; field < 2 && state; field++) {
		state = strchr(state, ' ');
		if (state)
			state++;
	}
	if (!state)
		FAIL("a go line without its state");
	Text t;
	text_init(&t, r->text, sizeof(r->text));
	r->v->state_format(r->state, e->seat, &t);
	if (strcmp(state, r->text) != 0)
		FAIL("the go to seat %d does not carry the state of the game here", e->seat);
	return TRUE;
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

/* Compare "ranks=1,2 scores=.. faults=.. reason=.." with the state. */
static gboolean check_result(Replay *r, const GameLogEvent *e, GError **error)
{
	int n = r->log->config.nplayers;
	int scores[VARIANT_MAX_PLAYERS], ranks[VARIANT_MAX_PLAYERS];
	uint32_t mask;
	VariantPhase ph = r->v->phase(r->state, &mask);

	if (ph != VARIANT_PHASE_OVER)
		FAIL("result recorded while the game is not over (phase %s)", phase_name(ph));
	r->v->scores(r->state, scores);
	r->v->ranking(r->state, ranks);
	g_auto(GStrv) f = g_strsplit(e->text, " ", -1);
	gboolean seen[3] = {0};
	for (int i = 0; f[i]; i++) {
		char *eq = strchr(f[i], '=');
		if (!eq)
			FAIL("malformed result field '%s'", f[i]);
		*eq = '\0';
		const char *key = f[i];
		g_auto(GStrv) vals = g_strsplit(eq + 1, ",", -1);
		int which = strcmp(key, "ranks") == 0 ? 0 : strcmp(key, "scores") == 0 ? 1
			: strcmp(key, "faults") == 0 ? 2 : -1;
		if (which < 0)
			continue;
		seen[which] = TRUE;
		if ((int)g_strv_length(vals) != n)
			FAIL("result %s has %u values for %d seats", key, g_strv_length(vals), n);
		for (int p = 0; p < n; p++) {
			if (which == 2) {
				const char *want = r->first_fault[p] < 0 ? "-" : game_fault_name(r->first_fault[p]);
				if (strcmp(vals[p], want) != 0)
					FAIL("seat %d's first fault is %s, the result says %s", p, want, vals[p]);
				continue;
			}
			gint64 v;
			if (!g_ascii_string_to_signed(vals[p], 10, G_MININT32, G_MAXINT32, &v, NULL))
				FAIL("result %s: bad number '%s'", key, vals[p]);
			int want = which == 0 ? ranks[p] : scores[p];
			if (v != want)
				FAIL("seat %d's %s is %d by the rules, the result says %s", p,
				     which == 0 ? "rank" : "score", want, vals[p]);
		}
	}
	if (!seen[0] || !seen[1] || !seen[2])
		FAIL("result lacks ranks=, scores= or faults=");
	return check_result_extra(r, e, error);
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
	return TRUE;
}

/* Apply one event with every check. */
static gboolean replay_step(Replay *r, const GameLogEvent *e, GError **error)
{
	uint32_t mask;
	VariantPhase ph = r->v->phase(r->state, &mask);
	Move m;

	if (r->result_seen && e->kind != GAMELOG_SENT && e->kind != GAMELOG_RECEIVED)
		FAIL("an event after the result");
	switch (e->kind) {
	case GAMELOG_CHANCE:
		if (ph != VARIANT_PHASE_CHANCE)
			FAIL("a chance move in phase %s", phase_name(ph));
		m = r->v->chance_sample(r->state, &r->chance);
		if (strcmp(fmt(r, VARIANT_CHANCE, m), e->text) != 0)
			FAIL("chance move '%s' is not the seed's '%s'", e->text, r->text);
		r->v->apply(r->state, VARIANT_CHANCE, m);
		return TRUE;
	case GAMELOG_MOVE:
	case GAMELOG_RANDOM:
		if ((ph != VARIANT_PHASE_TURN && ph != VARIANT_PHASE_REALTIME) || !(mask & (1u << e->seat)))
			FAIL("seat %d may not move now (phase %s)", e->seat, phase_name(ph));
		if (!check_move(r, e, e->kind == GAMELOG_RANDOM, &m, error))
			return FALSE;
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
		r->v->apply_joint(r->state, r->joint, r->submitted);
		r->submitted = 0;
		return TRUE;
	case GAMELOG_RETIRE:
		r->v->retire(r->state, e->seat);
		return TRUE;
	case GAMELOG_SENT:
		if (g_str_has_prefix(e->text, "go "))
			return check_go(r, e, ph, mask, error);
		return TRUE;
	case GAMELOG_RECEIVED:
		if (g_str_has_prefix(e->text, "move ") || strcmp(e->text, "move") == 0) {
			g_free(r->said[e->seat]);
			r->said[e->seat] = g_strdup(e->text + (e->text[4] ? 5 : 4));
			r->said_line[e->seat] = e->lineno;
		}
		return TRUE;
	case GAMELOG_FAULT:
		g_clear_pointer(&r->said[e->seat], g_free);
		if (r->first_fault[e->seat] < 0)
			r->first_fault[e->seat] = game_fault_from_name(e->text);
		return TRUE;
	case GAMELOG_REJECTED:
		if (!r->v->move_parse(r->state, e->seat, e->text, &m) && !r->said[e->seat])
			FAIL("'%s' is not a move of seat %d", e->text, e->seat);
		g_clear_pointer(&r->said[e->seat], g_free);
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
		r->result_seen = TRUE;
		return TRUE;
	}
	return TRUE;
}

static gboolean replay_finish(Replay *r, GError **error)
{
	if (!r->result_seen) {
		g_set_error(error, GAME_ERROR, 0, "%s: the log ends before its result%s", r->log->path,
			    r->log->complete ? "" : " (cut short)");
		return FALSE;
	}
	return TRUE;
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
	for (int p = 0; p < log->config.nplayers; p++)
		fprintf(out, "seat %d: %s (%s)\n", p, log->name[p], log->command[p]);
	show(r, colour, out);
	for (guint i = 0; ok && i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		ok = replay_step(r, e, error);
		if (!ok)
			break;
		switch (e->kind) {
		case GAMELOG_CHANCE:
			fprintf(out, "\nchance: %s\n", e->text);
			continue;	/* the board did not change */
		case GAMELOG_MOVE:
			fprintf(out, "\nseat %d (%s): %s  (%.1f ms)\n", e->seat, log->name[e->seat], e->text,
				e->wall_ms);
			break;
		case GAMELOG_RANDOM:
			fprintf(out, "\nseat %d: %s (played by the fault policy)\n", e->seat, e->text);
			break;
		case GAMELOG_SUBMIT:
		case GAMELOG_SUBMIT_RANDOM:
			fprintf(out, "seat %d submits %s\n", e->seat, e->text);
			continue;
		case GAMELOG_MISSING:
			fprintf(out, "seat %d submits nothing\n", e->seat);
			continue;
		case GAMELOG_JOINT:
			fprintf(out, "\nround played\n");
			break;
		case GAMELOG_FAULT:
			fprintf(out, "\nseat %d: fault %s\n", e->seat, e->text);
			continue;
		case GAMELOG_RETIRE:
			fprintf(out, "seat %d is out of the game\n", e->seat);
			continue;
		case GAMELOG_HALT:
			fprintf(out, "\nthe game's time ran out\n");
			break;
		case GAMELOG_RESULT:
			fprintf(out, "\nresult: %s\n", e->text);
			continue;
		case GAMELOG_SIDE:
			fprintf(out, "seat %d: %s\n", e->seat, e->text);
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
	replay_release(r);
	g_free(r);
	return ok;
}

/* The game-defining part of an event, times left out. */
static char *event_key(const GameLogEvent *e)
{
	static const char *const kinds[] = {
		"chance", "move", "random", "submit", "submit-random", "missing", "joint",
		"retire", "out", "fault", "rejected", "halt", "result", "side", "close", ">", "<",
	};
	return g_strdup_printf("%s %d %s", kinds[e->kind], e->seat, e->text ? e->text : "");
}

/* The next event of `log` from *i on that rerun compares (`close` lines
 * only say when a seat's move came, which timing decides), or NULL. */
static const GameLogEvent *next_compared(const GameLog *log, guint *i)
{
	while (*i < log->events->len) {
		const GameLogEvent *e = g_ptr_array_index(log->events, (*i)++);
		if (e->kind != GAMELOG_CLOSE && e->kind != GAMELOG_SENT && e->kind != GAMELOG_RECEIVED)
			return e;
	}
	return NULL;
}

gboolean replay_compare(const GameLog *a, const GameLog *b, GError **error)
{
	guint ia = 0, ib = 0;

	for (;;) {
		const GameLogEvent *ea = next_compared(a, &ia);
		const GameLogEvent *eb = next_compared(b, &ib);
		if (!ea && !eb)
			return TRUE;
		g_autofree char *ka = ea ? event_key(ea) : g_strdup("(end of log)");
		g_autofree char *kb = eb ? event_key(eb) : g_strdup("(end of log)");
		if (strcmp(ka, kb) != 0) {
			g_set_error(error, GAME_ERROR, 0, "%s:%d '%s' differs from %s:%d '%s'", a->path,
				    ea ? ea->lineno : 0, ka, b->path, eb ? eb->lineno : 0, kb);
			return FALSE;
		}
	}
}
