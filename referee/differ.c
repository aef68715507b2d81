/*
 * differ: why a game and its rerun part (see differ.h).
 */
#include "differ.h"

#include <string.h>

#include "protocol.h"
#include "replay.h"

/* The event at index i, or NULL past the end. */
static const GameLogEvent *at(const GameLog *log, guint i)
{
	return i < log->events->len ? g_ptr_array_index(log->events, i) : NULL;
}

/* A decision of a seat: its move, in turn or in a round, or a fault. */
static gboolean is_decision(const GameLogEvent *e)
{
	return e && (e->kind == GAMELOG_MOVE || e->kind == GAMELOG_SUBMIT || e->kind == GAMELOG_FAULT ||
		     e->kind == GAMELOG_RANDOM || e->kind == GAMELOG_SUBMIT_RANDOM ||
		     e->kind == GAMELOG_MISSING || e->kind == GAMELOG_REJECTED);
}

/* The last line seat p sent before event i (its move or talk that made
 * the event), or NULL. */
static const GameLogEvent *arrival(const GameLog *log, guint i, int p)
{
	for (guint k = MIN(i, log->events->len); k-- > 0;) {
		const GameLogEvent *e = at(log, k);
		if (e->kind == GAMELOG_RECEIVED && e->seat == p)
			return e;
	}
	return NULL;
}

/* The last `go` sent to seat p before event i, or NULL. */
static const GameLogEvent *last_go(const GameLog *log, guint i, int p)
{
	for (guint k = MIN(i, log->events->len); k-- > 0;) {
		const GameLogEvent *e = at(log, k);
		if (e->kind == GAMELOG_SENT && e->seat == p && protocol_verb(e->text) == PROTOCOL_GO)
			return e;
	}
	return NULL;
}

/* The index of the first event from `from` on with e's key, or the length. */
static guint find_same(const GameLog *log, guint from, const GameLogEvent *e)
{
	g_autofree char *key = replay_event_key(e);

	for (guint k = from; k < log->events->len; k++) {
		g_autofree char *other = replay_event_key(at(log, k));
		if (strcmp(key, other) == 0)
			return k;
	}
	return log->events->len;
}

/* Seat p's time over its decisions before event i (ms), and how many. */
static double time_before(const GameLog *log, guint i, int p, int *count)
{
	double ms = 0;

	*count = 0;
	for (guint k = 0; k < i && k < log->events->len; k++) {
		const GameLogEvent *e = at(log, k);
		if (e->seat == p && (e->kind == GAMELOG_MOVE || e->kind == GAMELOG_SUBMIT)) {
			ms += e->wall_ms;
			(*count)++;
		}
	}
	return ms;
}

static const char *later(double delta)
{
	return delta >= 0 ? "later" : "earlier";
}

/* When event i's line (seat p) came, "+MS ms", or "?". */
static char *when(const GameLog *log, guint i, int p)
{
	const GameLogEvent *r = arrival(log, i, p);

	return r ? g_strdup_printf("+%.1f ms", r->us / 1000.0) : g_strdup("?");
}

/* "came at +X ms in the game, +Y ms in the rerun (D ms later)" for seat
 * p's line of event ia in a and of event ib in b (either may be past the
 * end: never). */
static void append_when(GString *s, const GameLog *a, guint ia, const GameLog *b, guint ib, int p)
{
	const GameLogEvent *ra = ia < a->events->len ? arrival(a, ia, p) : NULL;
	const GameLogEvent *rb = ib < b->events->len ? arrival(b, ib, p) : NULL;
	g_autofree char *wa = ia < a->events->len ? when(a, ia, p) : g_strdup("never");
	g_autofree char *wb = ib < b->events->len ? when(b, ib, p) : g_strdup("never");

	g_string_append_printf(s, "came at %s in the game, %s in the rerun", wa, wb);
	if (ra && rb)
		g_string_append_printf(s, " (%.1f ms %s)", ABS(rb->us - ra->us) / 1000.0, later((double)(rb->us - ra->us)));
	g_string_append_c(s, '\n');
}

/* The same seat did otherwise at the same point. */
static void same_seat(GString *s, const GameLog *a, guint ia, const GameLog *b, guint ib, int p)
{
	const GameLogEvent *ea = at(a, ia), *eb = at(b, ib);
	const GameLogEvent *ga = last_go(a, ia, p), *gb = last_go(b, ib, p);
	long msa = 0, bka = 0, msb = 0, bkb = 0;
	const char *sta = NULL, *stb = NULL;
	int na, nb;

	g_autofree char *ka = replay_event_key(ea), *kb = replay_event_key(eb);
	g_string_append_printf(s, "  seat %d (%s) did otherwise at the same point: '%s' in the game, '%s' in the rerun\n",
			       p, a->name[p], ka, kb);
	if (ga && gb && protocol_parse_go(ga->text, &msa, &bka, &sta) &&
	    protocol_parse_go(gb->text, &msb, &bkb, &stb)) {
		g_string_append_printf(s, "  it was shown %s both times (line %d; line %d), given %ld ms (bank %ld) in "
				       "the game, %ld ms (bank %ld) in the rerun\n",
				       strcmp(sta, stb) == 0 ? "the same position" : "another position",
				       ga->lineno, gb->lineno, msa, bka, msb, bkb);
	}
	if ((ea->kind == GAMELOG_MOVE || ea->kind == GAMELOG_SUBMIT) &&
	    (eb->kind == GAMELOG_MOVE || eb->kind == GAMELOG_SUBMIT))
		g_string_append_printf(s, "  it answered after %.1f ms in the game, %.1f ms in the rerun\n",
				       ea->wall_ms, eb->wall_ms);
	else if (ea->kind == GAMELOG_FAULT || eb->kind == GAMELOG_FAULT)
		g_string_append(s, "  a fault in one run and not in the other: timing decided it (an answer "
				   "near its time limit, a machine busier in one run)\n");
	double ta = time_before(a, ia, p, &na), tb = time_before(b, ib, p, &nb);
	if (na > 0 && na == nb)
		g_string_append_printf(s, "  its %d moves before took %.1f ms in the game, %.1f ms in the rerun: "
				       "its moves came %.1f ms %s in the rerun\n",
				       na, ta, tb, ABS(tb - ta), later(tb - ta));
	g_string_append(s, "  this answer ");
	append_when(s, a, ia, b, ib, p);
	if (ea->kind == GAMELOG_FAULT || eb->kind == GAMELOG_FAULT)
		return;
	if (sta && stb && strcmp(sta, stb) == 0 && msa == msb && bka == bkb)
		g_string_append(s, "  the same position and the same time, yet another answer: its choice depends on "
				   "more than those, the clock (a search bounded by time, as bin/bot-link's by "
				   "default) or randomness not drawn from its seed; a fixed depth (bot-link --depth "
				   "4) reruns the same\n");
	else
		g_string_append(s, "  a bot that decides by the clock (a search bounded by time, as bin/bot-link's "
				   "by default) answers otherwise when its time differs; a fixed depth (bot-link "
				   "--depth 4) reruns the same, and so does a bot whose choice depends on the "
				   "position and its seed alone\n");
}

/* Two seats' lines took effect in another order. */
static void other_order(GString *s, const GameLog *a, guint ia, const GameLog *b, guint ib)
{
	const GameLogEvent *ea = at(a, ia), *eb = at(b, ib);
	gboolean talk = ea->kind == GAMELOG_SIDE || eb->kind == GAMELOG_SIDE;

	g_string_append_printf(s, "  two seats' lines took effect in another order: seat %d's first in the game, "
			       "seat %d's in the rerun\n", ea->seat, eb->seat);
	/* each event in its own log, and where the other log has it */
	const GameLogEvent *ev[2] = {ea, eb};
	for (int k = 0; k < 2; k++) {
		int p = ev[k]->seat;
		guint in_a = k == 0 ? ia : find_same(a, ia, ev[k]);
		guint in_b = k == 1 ? ib : find_same(b, ib, ev[k]);
		g_autofree char *key = replay_event_key(ev[k]);
		g_string_append_printf(s, "  seat %d (%s) '%s' ", p, a->name[p], key);
		append_when(s, a, in_a, b, in_b, p);
	}
	if (talk)
		g_string_append(s, "  table talk is applied in the order it arrives: two bots' lines a few "
				   "milliseconds apart can come in the other order in a rerun (the bots' timing, "
				   "not the rules)\n");
	else
		g_string_append(s, "  in real time (and in a round) lines take effect in the order they arrive: "
				   "their timing, not the rules, decided it\n");
}

char *differ_explain(const GameLog *a, const GameLog *b)
{
	guint ia, ib;

	if (!replay_first_difference(a, b, &ia, &ib))
		return NULL;
	const GameLogEvent *ea = at(a, ia), *eb = at(b, ib);
	GString *s = g_string_new(NULL);
	g_autofree char *ka = ea ? replay_event_key(ea) : g_strdup("(end of log)");
	g_autofree char *kb = eb ? replay_event_key(eb) : g_strdup("(end of log)");

	g_string_append_printf(s, "%s:%d '%s' in the game, %s:%d '%s' in the rerun\n", a->path,
			       ea ? ea->lineno : 0, ka, b->path, eb ? eb->lineno : 0, kb);
	if (!ea || !eb) {
		g_string_append_printf(s, "  the %s ends there\n", ea ? "rerun" : "game's log");
	} else if (ea->seat >= 0 && ea->seat == eb->seat && is_decision(ea) && is_decision(eb)) {
		same_seat(s, a, ia, b, ib, ea->seat);
	} else if (ea->seat >= 0 && eb->seat >= 0 && ea->seat != eb->seat &&
		   ea->seat < a->config.nplayers && eb->seat < a->config.nplayers) {
		other_order(s, a, ia, b, ib);
	} else if (ea->seat >= 0 && ea->seat == eb->seat && ea->seat < a->config.nplayers) {
		g_string_append_printf(s, "  seat %d (%s): its line ", ea->seat, a->name[ea->seat]);
		append_when(s, a, ia, b, ib, ea->seat);
	} else {
		g_string_append(s, "  no seat's line to blame: the logs part on the referee's own record\n");
	}
	return g_string_free(s, FALSE);
}
