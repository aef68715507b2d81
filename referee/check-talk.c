/*
 * check-talk: the table-talk items of `referee check` (talk-say,
 * talk-offer, talk-gift, talk-traded; a variant with side actions:
 * matrix): check_talk(). Part of the check module, see check.c and
 * check-int.h.
 */
#include <string.h>

#include <glib.h>

#include "check-int.h"
#include "text.h"

/* Field `key` of seat p's state text in state: a copy (its value up to
 * the next space), or NULL. */
static char *state_field(const Check *c, const void *state, int p, const char *key)
{
	g_autofree char *buf = g_malloc(CHECK_STATE_MAX);
	g_autofree char *pat = g_strdup_printf(" %s=", key);
	Text t;

	text_init(&t, buf, CHECK_STATE_MAX);
	c->v->state_format(state, p, &t);
	const char *f = strstr(buf, pat);
	return f ? g_strndup(f + strlen(pat), strcspn(f + strlen(pat), " ")) : NULL;
}

/* Send the lines of out routed to seat, from index `from` on. */
static void send_side(Bot *b, const VariantSide *out, int seat, int from)
{
	GString *s = g_string_new(NULL);

	for (int i = from; i < out->n; i++)
		if (out->to[i] == seat)
			g_string_append_printf(s, "%s\n", out->line[i]);
	bot_write(b, s->str, s->len, g_get_monotonic_time() + 1000000);
	g_string_free(s, TRUE);
}

/* What the bot did with the talk of an item. */
typedef struct {
	GString *refused;	/* its side lines the rules refused, with why */
	int accepted, refused_ids;	/* offers it accepted, refused (applied) */
	int sent;		/* side lines it sent */
} TalkSeen;

/*
 * Send `lines` (a `go`, then what the checker's seats say) and wait for
 * the move as ask() does, meanwhile applying every side line of the bot
 * to `state` through the variant and answering it as the referee would.
 * A copy of the move, or NULL with *why set.
 */
static char *talk_ask(const Check *c, Bot *b, void *state, int seat, const char *lines, int ms,
		      TalkSeen *seen, char **why)
{
	gint64 now = g_get_monotonic_time(), deadline = now + ((gint64)ms + c->tc.grace) * 1000;
	gboolean eof = FALSE;
	const char *line;

	if (bot_write(b, lines, strlen(lines), now + 1000000) != BOT_WRITE_OK) {
		g_free(*why);
		*why = g_strdup("it stopped reading its input");
		return NULL;
	}
	gboolean control;
	while ((line = bot_wait_line(b, deadline, &eof, &control))) {
		if (control) {
			g_free(*why);
			*why = check_control_text(line);
			return NULL;
		}
		if (protocol_verb(line) == PROTOCOL_MOVE) {
			/* still alive after the talk it read? (a grace's wait) */
			g_autofree char *move = g_strdup(line);
			gint64 until = g_get_monotonic_time() + c->tc.grace * 1000;
			while (bot_wait_line(b, until, &eof, NULL))
				;
			if (!eof)
				return g_steal_pointer(&move);
			g_autofree char *end = bot_end_text(b, g_get_monotonic_time() + c->tc.grace * 1000);
			g_free(*why);
			*why = g_strdup_printf("it closed its output after `%s`; %s", move, end ? end : "still running");
			return NULL;
		}
		VariantSide out;
		g_autofree char *copy = g_strdup(line);
		VariantSideResult r = c->v->side(state, seat, copy, &out);
		if (r == VARIANT_SIDE_NONE)
			continue;
		seen->sent++;
		gboolean yes;
		int id;
		if (r == VARIANT_SIDE_REFUSED)
			g_string_append_printf(seen->refused, "%s%s (refused: %s)", seen->refused->len ? "; " : "",
					       copy, out.reason);
		else if (protocol_parse_answer(copy, &yes, &id))
			*(yes ? &seen->accepted : &seen->refused_ids) += 1;
		send_side(b, &out, seat, 0);
	}
	g_autofree char *end = eof ? bot_end_text(b, g_get_monotonic_time() + c->tc.grace * 1000) : NULL;
	g_free(*why);
	*why = !eof ? g_strdup("no move in time")
		    : g_strdup_printf("it closed its output; %s", end ? end : "still running");
	return NULL;
}

/* Whether `reply` is a legal move of seat in state. */
static gboolean talk_legal(const Check *c, const void *state, int seat, const char *reply, Move *scratch)
{
	Move m;

	return reply && c->v->move_parse(state, seat, protocol_move_text(reply), &m) &&
	       variant_move_is_legal(c->v, state, seat, m, scratch);
}

/* Judge a talk item: a legal move for the state after the talk, every
 * side line of the bot applied. */
static void talk_item(Check *c, const char *name, const char *what, const void *state, int seat,
		      const char *reply, const char *why, const TalkSeen *seen, const char *hint, Move *scratch)
{
	if (!reply) {
		g_autofree char *d = g_strdup_printf("%s: no move (%s)", what, why);
		check_pass(c, FALSE, name, d, why, hint);
	} else if (seen->refused->len) {
		g_autofree char *d = g_strdup_printf("%s: a side line refused", what);
		check_pass(c, FALSE, name, d, seen->refused->str, hint);
	} else if (!talk_legal(c, state, seat, reply, scratch)) {
		g_autofree char *held = state_field(c, state, seat, "held");
		g_autofree char *d = g_strdup_printf("%s: an illegal move (it holds %s)", what, held ? held : "?");
		check_pass(c, FALSE, name, d, reply, hint);
	} else {
		check_pass(c, TRUE, name, what, NULL, NULL);
	}
}

/* The first seat other than `seat` that `seat` may talk to in state
 * (its `talk` field), or -1. */
static int talk_partner(const Check *c, const void *state, int seat)
{
	g_autofree char *talk = state_field(c, state, seat, "talk");

	for (int q = 0; talk && q < c->cfg.nplayers; q++) {
		g_autofree char *qs = g_strdup_printf("%d", q);
		g_auto(GStrv) list = g_strsplit(talk, ",", -1);
		if (q != seat && (strcmp(talk, "all") == 0 || g_strv_contains((const char *const *)list, qs)))
			return q;
	}
	return -1;
}

/* The letter of the first piece seat p holds in state, or 0. */
static char held_piece(const Check *c, const void *state, int p)
{
	g_autofree char *held = state_field(c, state, p, "held");

	return held && held[0] != '-' ? held[0] : 0;
}

/*
 * The talk items, a variant with side actions (matrix): the checker plays
 * the other seats of a first round (where everyone may talk) and the bot
 * in `seat` gets a message, a trade offer, a gift, and a trade completed
 * while it thinks. FALSE when the process is out of step (no move).
 */
gboolean check_talk(Check *c, Bot *b, int seat, gboolean moves, Move *scratch)
{
	const Variant *v = c->v;
	g_autofree void *first = g_malloc0(v->state_size);
	g_autofree void *st = g_malloc(v->state_size);
	uint32_t mask = 0;
	Rng rng;
	int ms = (int)MIN(c->tc.bank, c->tc.move);
	const char *hint = "a side line is answered `ok VERB ...` or `refused VERB WHY`; ignore the lines of "
			   "talk you do not use, answer `offered ID ...` with `accept ID` or `refuse ID` or not at "
			   "all, and after `held` move the pieces held (protocol.md, matrix, \"Table talk\")";

	rng_seed(&rng, rng_derive(c->seed, "check-talk", 0));
	v->init(first, &c->cfg);
	while (v->phase(first, &mask) == VARIANT_PHASE_CHANCE)
		v->apply(first, VARIANT_CHANCE, v->chance_sample(first, &rng));
	int q = talk_partner(c, first, seat);
	char mine = held_piece(c, first, seat), theirs = q >= 0 ? held_piece(c, first, q) : 0;
	if (v->phase(first, &mask) != VARIANT_PHASE_SIMULTANEOUS || !(mask & (1u << seat)) || q < 0 ||
	    !mine || !theirs) {
		check_pass(c, TRUE, "talk-say", "no round where it may talk: the talk items not tried", NULL, NULL);
		return TRUE;
	}
	VariantSide out;
	char side[VARIANT_SIDE_LINE_MAX];
	Text t;
	g_autofree char *why = NULL;

	/* (1) a message from a partner */
	if (check_wanted(c, "talk-say")) {
		TalkSeen seen = {.refused = g_string_new(NULL)};
		memcpy(st, first, v->state_size);
		text_init(&t, side, sizeof(side));
		protocol_say(&t, seat, "greetings from referee check");
		v->side(st, q, side, &out);
		g_autofree char *go = check_go_lines(c, st, seat, moves, ms, scratch);
		GString *lines = g_string_new(go);
		for (int i = 0; i < out.n; i++)
			if (out.to[i] == seat)
				g_string_append_printf(lines, "%s\n", out.line[i]);
		g_autofree char *reply = talk_ask(c, b, st, seat, lines->str, ms, &seen, &why);
		g_autofree char *d = g_strdup_printf("a `heard %d ...` message after `go`: %s", q,
						     seen.sent ? "it talked back" : "it ignored it");
		talk_item(c, "talk-say", d, st, seat, reply, why, &seen, hint, scratch);
		g_string_free(seen.refused, TRUE);
		g_string_free(lines, TRUE);
		if (!reply)
			return FALSE;
	}

	/* (2) a trade offered to it, (3) a gift: answered or ignored, then a
	 * legal move for what it holds (several pieces after a gift accepted) */
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "talk-gift" : "talk-offer";
		if (!check_wanted(c, name))
			continue;
		TalkSeen seen = {.refused = g_string_new(NULL)};
		memcpy(st, first, v->state_size);
		text_init(&t, side, sizeof(side));
		if (k)
			protocol_gift(&t, seat, theirs);
		else
			protocol_offer(&t, seat, theirs, mine);
		v->side(st, q, side, &out);
		g_autofree char *go = check_go_lines(c, st, seat, moves, ms, scratch);
		GString *lines = g_string_new(go);
		int id = -1;
		for (int i = 0; i < out.n; i++)
			if (out.to[i] == seat) {
				g_string_append_printf(lines, "%s\n", out.line[i]);
				protocol_parse_offered(out.line[i], &id);
			}
		g_autofree char *reply = talk_ask(c, b, st, seat, lines->str, ms, &seen, &why);
		g_autofree char *held = state_field(c, st, seat, "held");
		g_autofree char *d = g_strdup_printf(
			"`offered %d %d %c %c` after `go`: %s, then %s holding %s", id, q, theirs, k ? '-' : mine,
			seen.accepted ? "accepted" : seen.refused_ids ? "turned down" : "ignored",
			reply ? "a move" : "no move", held ? held : "?");
		talk_item(c, name, d, st, seat, reply, why, &seen, hint, scratch);
		g_string_free(seen.refused, TRUE);
		g_string_free(lines, TRUE);
		if (!reply)
			return FALSE;
	}

	/* (4) a gift accepted for it while it thinks: its move is outdated,
	 * `rejected MOVE traded`, a fresh `moves`/`go` with two pieces */
	if (!check_wanted(c, "talk-traded"))
		return TRUE;
	TalkSeen seen = {.refused = g_string_new(NULL)};
	const char *name = "talk-traded";
	memcpy(st, first, v->state_size);
	g_autofree char *go = check_go_lines(c, st, seat, moves, ms, scratch);
	g_autofree char *reply = talk_ask(c, b, st, seat, go, ms, &seen, &why);
	if (!talk_legal(c, st, seat, reply, scratch)) {
		talk_item(c, name, "the `go` before the trade", st, seat, reply, why, &seen, hint, scratch);
		g_string_free(seen.refused, TRUE);
		return reply != NULL;
	}
	/* the gift, made and accepted on the state it thinks about (as when
	 * the bot's own offer is accepted while it thinks): it gets what the
	 * referee routes to it then, less the answer to a line it did not send */
	GString *lines = g_string_new(NULL);
	int id = -1;
	memcpy(st, first, v->state_size);
	text_init(&t, side, sizeof(side));
	protocol_gift(&t, seat, theirs);
	v->side(st, q, side, &out);
	for (int i = 0; i < out.n; i++)
		if (out.to[i] == seat && protocol_parse_offered(out.line[i], &id))
			g_string_append_printf(lines, "%s\n", out.line[i]);
	text_init(&t, side, sizeof(side));
	protocol_answer(&t, TRUE, id);
	gboolean done = v->side(st, seat, side, &out) == VARIANT_SIDE_DONE;
	for (int i = 1; done && i < out.n; i++)
		if (out.to[i] == seat)
			g_string_append_printf(lines, "%s\n", out.line[i]);
	char rej[VARIANT_SIDE_LINE_MAX];
	text_init(&t, rej, sizeof(rej));
	protocol_rejected(&t, protocol_move_text(reply), "traded");
	g_string_append_printf(lines, "%s\n", rej);
	g_autofree char *fresh = check_go_lines(c, st, seat, moves, ms, scratch);
	g_string_append(lines, fresh);
	g_autofree char *held = state_field(c, st, seat, "held");
	g_autofree char *again = talk_ask(c, b, st, seat, lines->str, ms, &seen, &why);
	g_autofree char *d = g_strdup_printf("a gift of %d accepted while it thought, `%s`, a fresh `go` holding %s: "
					     "%s", q, rej, held ? held : "?", again ? "a move" : "no move");
	talk_item(c, name, d, st, seat, again, why, &seen,
		  "after `rejected MOVE traded` read the fresh `moves` and `go` and place every piece held "
		  "(protocol.md, matrix, \"Table talk\")", scratch);
	g_string_free(seen.refused, TRUE);
	g_string_free(lines, TRUE);
	return again != NULL;
}
