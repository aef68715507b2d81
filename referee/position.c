/* position: a logged decision put to a bot again. See position.h. */
#include "position.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bot.h"
#include "protocol.h"
#include "text.h"
#include "variant.h"

#define POSITION_STATE_MAX (1 << 16)
#define POSITION_ERR_MAX (64 * 1024)	/* stderr shown per decision */

G_DEFINE_QUARK(tetrarena-position-error-quark, position_error)

void position_step_free(PositionStep *s)
{
	if (!s)
		return;
	g_free(s->go);
	g_free(s->played);
	g_free(s->answer);
	g_free(s->why);
	g_free(s->errtext);
	if (s->said)
		g_ptr_array_unref(s->said);
	if (s->moves)
		g_ptr_array_unref(s->moves);
	g_free(s);
}

int position_count(const GameLog *log, int seat)
{
	int n = 0;

	for (guint i = 0; i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (e->kind == GAMELOG_SENT && e->seat == seat && protocol_verb(e->text) == PROTOCOL_GO)
			n++;
	}
	return n;
}


/* Wait for a line of type `verb` (a decline stands for a hello), keeping
 * the others in `said` (may be NULL): a copy, or NULL with *why. */
static char *await(Bot *b, ProtocolVerb verb, gint64 deadline, GPtrArray *said, char **why, gboolean *ended)
{
	gboolean eof;
	const char *line;

	while ((line = bot_wait_line(b, deadline, &eof, NULL))) {
		ProtocolVerb got = protocol_verb(line);
		if (got == verb || (verb == PROTOCOL_HELLO && got == PROTOCOL_DECLINE))
			return g_strdup(line);
		if (said)
			g_ptr_array_add(said, g_strdup(line));
	}
	*ended = eof;
	g_autofree char *end = eof ? bot_end_text(b, g_get_monotonic_time() + 200000) : NULL;
	*why = !eof ? g_strdup("no answer in time")
		    : g_strdup_printf("it closed its output; %s", end ? end : "still running");
	return NULL;
}

/* The stderr file's bytes from *offset on (at most POSITION_ERR_MAX),
 * advancing *offset to its end; NULL when there are none. */
static char *stderr_since(Bot *b, const char *path, gsize *offset)
{
	g_autofree char *text = NULL;
	gsize len = 0;

	bot_drain_stderr(b);
	if (!g_file_get_contents(path, &text, &len, NULL) || len <= *offset)
		return NULL;
	gsize from = *offset, n = MIN(len - from, POSITION_ERR_MAX);
	*offset = len;
	return g_strndup(text + from, n);
}

/* The legal moves of the `go` line's state for seat, and the answer's
 * legality and sameness with the logged move. */
static void judge(const GameLog *log, int seat, PositionStep *s)
{
	const Variant *v = log->variant;
	long ms, bank;
	const char *st;
	g_autofree void *state = g_malloc0(v->state_size);
	g_autofree Move *scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	char buf[256];
	Text t;
	Move mine = 0, theirs = 0;

	s->moves = g_ptr_array_new_with_free_func(g_free);
	if (!protocol_parse_go(s->go, &ms, &bank, &st) || !v->state_parse(state, &log->config, st))
		return;
	s->known = TRUE;
	int n = v->legal_moves(state, seat, scratch);
	for (int i = 0; i < n; i++) {
		text_init(&t, buf, sizeof(buf));
		v->move_format(state, seat, scratch[i], &t);
		g_ptr_array_add(s->moves, g_strdup(buf));
	}
	gboolean parsed = s->answer && v->move_parse(state, seat, s->answer, &mine);
	s->legal = parsed && variant_move_is_legal(v, state, seat, mine, scratch);
	s->same = parsed && s->played && v->move_parse(state, seat, s->played, &theirs) && mine == theirs;
}

/* The `moves` lines of the `go` line's state for seat into out (none
 * when the state does not parse: the bot then gets the bare `go`). */
static void moves_lines(const GameLog *log, int seat, const char *go, GString *out)
{
	const Variant *v = log->variant;
	long ms, bank;
	const char *st;
	g_autofree void *state = g_malloc0(v->state_size);
	g_autofree Move *legal = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);

	if (!protocol_parse_go(go, &ms, &bank, &st) || !v->state_parse(state, &log->config, st))
		return;
	int n = v->legal_moves(state, seat, legal);
	protocol_append_moves(out, v, state, seat, legal, n, 0);
}

/* The logged bot's answer to the `go` at event index i: its first move
 * line before the seat's next `go`, or NULL. */
static char *logged_answer(const GameLog *log, int seat, guint i)
{
	for (guint j = i + 1; j < log->events->len; j++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, j);
		if (e->seat != seat)
			continue;
		if (e->kind == GAMELOG_SENT && protocol_verb(e->text) == PROTOCOL_GO)
			return NULL;
		if (e->kind == GAMELOG_RECEIVED && protocol_verb(e->text) == PROTOCOL_MOVE)
			return g_strdup(protocol_move_text(e->text));
	}
	return NULL;
}

GPtrArray *position_run(const GameLog *log, int seat, int last, const BotSpec *bs, SandboxMode mode,
			GError **error)
{
	return position_run_with(log, seat, last, bs, mode, NULL, error);
}

GPtrArray *position_run_with(const GameLog *log, int seat, int last, const BotSpec *bs, SandboxMode mode,
			     const PositionOptions *opt, GError **error)
{
	static const PositionOptions none = {0};
	int count = position_count(log, seat);

	if (seat < 0 || seat >= log->config.nplayers || count == 0) {
		g_set_error(error, position_error_quark(), 1, "%s: seat %d has no decision (no `go` line)",
			    log->path, seat);
		return NULL;
	}
	if (last > count) {
		g_set_error(error, position_error_quark(), 1, "%s: seat %d has %d decisions, not %d", log->path,
			    seat, count, last);
		return NULL;
	}
	if (!opt)
		opt = &none;
	g_autofree char *dir = g_dir_make_tmp("tetrarena-position-XXXXXX", error);
	if (!dir)
		return NULL;
	g_autofree char *errpath = g_build_filename(dir, "stderr", NULL);
	SandboxLaunch launch = {.mode = mode, .hide = NULL, .cpu = -1};
	g_autoptr(Bot) b = bot_spawn(bs, errpath, &launch, error);
	if (!b) {
		g_rmdir(dir);
		return NULL;
	}
	g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func((GDestroyNotify)position_step_free);
	gsize erroff = 0;
	guint sent = 0;
	gboolean ended = FALSE;
	g_autofree char *nohello = NULL;
	gboolean wants_moves = FALSE;	/* the new bot's hello asks for `moves` */
	for (guint i = 0; i < log->events->len && !ended && (last == 0 || (int)steps->len < last); i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (e->kind != GAMELOG_SENT || e->seat != seat)
			continue;
		ProtocolVerb verb = protocol_verb(e->text);
		if (verb == PROTOCOL_MOVES)
			continue;	/* the logged bot's; the new bot's come with its go */
		g_autoptr(GString) line = g_string_new(NULL);
		if (verb == PROTOCOL_GO && wants_moves)
			moves_lines(log, seat, e->text, line);
		sent++;
		for (const char *c = line->str; *c; c++)
			sent += *c == '\n';
		g_string_append_printf(line, "%s\n", e->text);
		gint64 now = g_get_monotonic_time();
		gboolean wrote = bot_write(b, line->str, line->len, now + 1000000) == BOT_WRITE_OK;
		if (verb == PROTOCOL_GAME && wrote) {
			g_autofree char *hello = await(b, PROTOCOL_HELLO, now + (log->time.start + log->time.grace) * 1000,
						       NULL, &nohello, &ended);
			ProtocolHello said;
			if (hello && protocol_parse_hello(hello, &said)) {
				wants_moves = said.moves;
				protocol_hello_clear(&said);
			}
			if (hello)
				g_clear_pointer(&nohello, g_free);
			continue;
		}
		if (verb != PROTOCOL_GO)
			continue;
		PositionStep *s = g_new0(PositionStep, 1);
		g_ptr_array_add(steps, s);
		s->step = (int)steps->len;
		s->lineno = e->lineno;
		s->sent = sent;
		s->go = g_strdup(e->text);
		s->played = logged_answer(log, seat, i);
		s->said = g_ptr_array_new_with_free_func(g_free);
		long ms = 0, bank = 0;
		const char *st;
		protocol_parse_go(e->text, &ms, &bank, &st);
		g_autofree char *reply = NULL;
		if (!wrote)
			s->why = g_strdup("it stopped reading its input");
		else if (nohello)
			s->why = g_strdup_printf("no hello to `game`: %s", nohello);
		else
			reply = await(b, PROTOCOL_MOVE, now + (MAX((gint64)ms + log->time.grace, opt->min_ms)) * 1000,
				      s->said, &s->why, &ended);
		s->ms = (double)(g_get_monotonic_time() - now) / 1000.0;
		if (reply)
			s->answer = g_strdup(protocol_move_text(reply));
		if (!wrote || nohello)
			ended = TRUE;
		s->errtext = stderr_since(b, errpath, &erroff);
		judge(log, seat, s);
		if (opt->progress)
			opt->progress(s->step, last ? last : count, opt->data);
	}
	bot_quit(g_steal_pointer(&b), 200);
	g_remove(errpath);
	g_rmdir(dir);
	return g_steal_pointer(&steps);
}
