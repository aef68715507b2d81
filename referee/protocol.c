/* protocol: the wire frame of protocol.md. See protocol.h. */
#include "protocol.h"

#include <string.h>

#include "wire.h"

static const char *const verb_names[] = {
	[PROTOCOL_OTHER] = "",
	[PROTOCOL_TETRARENA] = "tetrarena",
	[PROTOCOL_GAME] = "game",
	[PROTOCOL_MOVES] = "moves",
	[PROTOCOL_GO] = "go",
	[PROTOCOL_UPDATE] = "update",
	[PROTOCOL_REJECTED] = "rejected",
	[PROTOCOL_REFUSED] = "refused",
	[PROTOCOL_RESULT] = "result",
	[PROTOCOL_QUIT] = "quit",
	[PROTOCOL_HELLO] = "hello",
	[PROTOCOL_DECLINE] = "decline",
	[PROTOCOL_MOVE] = "move",
	[PROTOCOL_INFO] = "info",
	[PROTOCOL_RESIGN] = "resign",
};

static const char *const fault_names[PROTOCOL_FAULTS] = {
	"start", "declined", "timeout", "malformed", "line-too-long", "illegal", "crash", "resigned",
};

gboolean protocol_line_is(const char *line, const char *word)
{
	return wire_line_is(line, word);
}

const char *protocol_info_analysis(const char *line)
{
	if (protocol_verb(line) != PROTOCOL_INFO)
		return NULL;
	const char *text = protocol_args(line);
	return g_str_has_prefix(text, "analyse ") ? text + strlen("analyse ") : NULL;
}

ProtocolVerb protocol_verb(const char *line)
{
	/* (called for every line a bot sends: one look at the first byte) */
	switch (line[0]) {
	case 'd':
		return protocol_line_is(line, "decline") ? PROTOCOL_DECLINE : PROTOCOL_OTHER;
	case 'g':
		return protocol_line_is(line, "go") ? PROTOCOL_GO
		     : protocol_line_is(line, "game") ? PROTOCOL_GAME : PROTOCOL_OTHER;
	case 'h':
		return protocol_line_is(line, "hello") ? PROTOCOL_HELLO : PROTOCOL_OTHER;
	case 'i':
		return protocol_line_is(line, "info") ? PROTOCOL_INFO : PROTOCOL_OTHER;
	case 'm':
		return protocol_line_is(line, "move") ? PROTOCOL_MOVE
		     : protocol_line_is(line, "moves") ? PROTOCOL_MOVES : PROTOCOL_OTHER;
	case 'q':
		return protocol_line_is(line, "quit") ? PROTOCOL_QUIT : PROTOCOL_OTHER;
	case 'r':
		return protocol_line_is(line, "result") ? PROTOCOL_RESULT
		     : protocol_line_is(line, "resign") ? PROTOCOL_RESIGN
		     : protocol_line_is(line, "rejected") ? PROTOCOL_REJECTED
		     : protocol_line_is(line, "refused") ? PROTOCOL_REFUSED : PROTOCOL_OTHER;
	case 't':
		return protocol_line_is(line, "tetrarena") ? PROTOCOL_TETRARENA : PROTOCOL_OTHER;
	case 'u':
		return protocol_line_is(line, "update") ? PROTOCOL_UPDATE : PROTOCOL_OTHER;
	default:
		return PROTOCOL_OTHER;
	}
}

const char *protocol_verb_name(ProtocolVerb verb)
{
	g_return_val_if_fail((unsigned)verb < G_N_ELEMENTS(verb_names), "");
	return verb_names[verb];
}

const char *protocol_args(const char *line)
{
	const char *sp = strchr(line, ' ');

	return sp ? sp + 1 : "";
}

/* ---- referee to bot ---------------------------------------------------- */

const char *protocol_greeting(void)
{
	return "tetrarena " G_STRINGIFY(PROTOCOL_VERSION);
}

char *protocol_options_text(const Variant *v, const VariantConfig *cfg, char sep)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < v->n_options; i++)
		if (!(v->quiet_options >> i & 1u) || cfg->opt[i] != v->options[i].def)
			g_string_append_printf(s, "%s%s%c%d", s->len ? "," : "", v->options[i].key, sep, cfg->opt[i]);
	return g_string_free(s, FALSE);
}

char *protocol_game_line(const Variant *v, const VariantConfig *cfg, const TimeControl *tc, int seat,
			 int games)
{
	g_autofree char *opts = protocol_options_text(v, cfg, ':');
	g_autofree char *tctext = timectl_format(tc);

	return g_strdup_printf("game %d variant=%s seat=%d players=%d options=%s time=%s", games,
			       v->name, seat, cfg->nplayers, opts, tctext);
}

void protocol_append_go(GString *out, long ms, long bank, const char *state)
{
	g_string_append_printf(out, "go %ld bank=%ld %s\n", ms, bank, state);
}

gboolean protocol_parse_go(const char *line, long *ms, long *bank, const char **state)
{
	return wire_parse_go(line, ms, bank, state);
}

void protocol_append_moves(GString *out, const Variant *v, const void *state, int seat,
			   const Move *legal, int n, gsize line_max)
{
	char word[VARIANT_MOVE_TEXT_MAX];
	gsize start = out->len;

	if (line_max == 0 || line_max > PROTOCOL_LINE_MAX)
		line_max = PROTOCOL_LINE_MAX;
	g_string_append(out, "moves");
	for (int i = 0; i < n; i++) {
		Text t;
		text_init(&t, word, sizeof(word));
		v->move_format(state, seat, legal[i], &t);
		g_assert(!t.overflow);
		/* The line with this word, a space and its newline must fit;
		 * a line holds at least one word. */
		if (out->len - start + 1 + t.len + 1 > line_max && out->len - start > 5) {
			g_string_append(out, "\nmoves");
			start = out->len - 5;
		}
		g_string_append_c(out, ' ');
		g_string_append_len(out, word, (gssize)t.len);
	}
	g_string_append_c(out, '\n');
}

void protocol_join_moves(GString *joined, const char *line)
{
	g_string_append(joined, line + strlen("moves"));
}

gboolean protocol_parse_update(const char *line, ProtocolUpdate *kind, const char **rest)
{
	if (protocol_verb(line) != PROTOCOL_UPDATE)
		return FALSE;
	const char *args = protocol_args(line);
	if (g_str_has_prefix(args, "chance ")) {
		*kind = PROTOCOL_UPDATE_CHANCE;
		*rest = args + 7;
	} else if (g_str_has_prefix(args, "fault ")) {
		*kind = PROTOCOL_UPDATE_FAULT;
		*rest = args + 6;
	} else {
		*kind = PROTOCOL_UPDATE_MOVE;
		*rest = args;
	}
	return TRUE;
}

void protocol_update_move(Text *t, int seat, const char *move)
{
	text_puts(t, "update ");
	text_int(t, seat);
	text_putc(t, ' ');
	text_puts(t, move);
}

void protocol_update_chance(Text *t, const char *move)
{
	text_puts(t, "update chance ");
	text_puts(t, move);
}

void protocol_update_fault(Text *t, int seat, const char *kind)
{
	text_puts(t, "update fault ");
	text_int(t, seat);
	text_putc(t, ' ');
	text_puts(t, kind);
}

void protocol_rejected(Text *t, const char *move, const char *why)
{
	text_puts(t, "rejected ");
	text_puts(t, move);
	text_putc(t, ' ');
	text_puts(t, why);
}

void protocol_say(Text *t, int seat, const char *text)
{
	text_printf(t, "say %d %s", seat, text);
}

void protocol_offer(Text *t, int seat, char give, char want)
{
	text_printf(t, "offer %d %c %c", seat, give, want);
}

void protocol_gift(Text *t, int seat, char piece)
{
	text_printf(t, "gift %d %c", seat, piece);
}

void protocol_answer(Text *t, gboolean yes, int id)
{
	text_printf(t, "%s %d", yes ? "accept" : "refuse", id);
}

/* A number word (at most 9 digits) at *p, then a space or the end. */
static gboolean side_number(const char *p, int *n)
{
	gint64 v;
	size_t len = strspn(p, "0123456789");

	if (len == 0 || len > 9 || (p[len] != ' ' && p[len] != '\0'))
		return FALSE;
	g_autofree char *digits = g_strndup(p, len);
	if (!g_ascii_string_to_signed(digits, 10, 0, G_MAXINT, &v, NULL))
		return FALSE;
	*n = (int)v;
	return TRUE;
}

gboolean protocol_parse_offered(const char *line, int *id)
{
	return protocol_line_is(line, "offered") && side_number(protocol_args(line), id);
}

gboolean protocol_parse_answer(const char *line, gboolean *yes, int *id)
{
	*yes = protocol_line_is(line, "accept");
	if (!*yes && !protocol_line_is(line, "refuse"))
		return FALSE;
	return side_number(protocol_args(line), id);
}

void protocol_refused(Text *t, const char *line, const char *why)
{
	wire_refused(t, line, strcspn(line, " "), why);
}

gboolean protocol_parse_refused(const char *line, const char **verb, gsize *verb_len, const char **why)
{
	if (protocol_verb(line) != PROTOCOL_REFUSED)
		return FALSE;
	const char *args = protocol_args(line);
	const char *last = strrchr(line, ' ');
	if (!last)
		return FALSE;
	*verb = args;
	*verb_len = strcspn(args, " ");
	*why = last + 1;
	return TRUE;
}

char *protocol_result_fields(int n, const int *ranks, const int *scores, const char *const *faults,
			     const char *extra, const char *reason)
{
	GString *s = g_string_new("ranks=");

	for (int p = 0; p < n; p++)
		g_string_append_printf(s, "%s%d", p ? "," : "", ranks[p]);
	g_string_append(s, " scores=");
	for (int p = 0; p < n; p++)
		g_string_append_printf(s, "%s%d", p ? "," : "", scores[p]);
	g_string_append(s, " faults=");
	for (int p = 0; p < n; p++)
		g_string_append_printf(s, "%s%s", p ? "," : "", faults[p] ? faults[p] : "-");
	if (extra)
		g_string_append(s, extra);
	g_string_append_printf(s, " reason=%s", reason);
	return g_string_free(s, FALSE);
}

char *protocol_result_line(const char *fields)
{
	return g_strconcat("result ", fields, NULL);
}

void protocol_result_clear(ProtocolResult *res)
{
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		g_clear_pointer(&res->faults[p], g_free);
	g_clear_pointer(&res->reason, g_free);
	g_clear_pointer(&res->extra, g_strfreev);
	res->n = 0;
}

/* A result's field KEY of n values (n < 0: any number up to the most
 * seats), into res; FALSE with *why. */
static gboolean result_list(ProtocolResult *res, const char *key, const char *value, int *n, char **why)
{
	g_auto(GStrv) vals = g_strsplit(value, ",", -1);
	int got = (int)g_strv_length(vals);

	if (*n < 0 && got <= VARIANT_MAX_PLAYERS)
		*n = got;
	if (got != *n) {
		*why = g_strdup_printf("result %s has %d values for %d seats", key, got, *n);
		return FALSE;
	}
	for (int p = 0; p < got; p++) {
		gint64 v;
		if (strcmp(key, "faults") == 0) {
			res->faults[p] = g_strdup(vals[p]);
			continue;
		}
		if (!g_ascii_string_to_signed(vals[p], 10, G_MININT32, G_MAXINT32, &v, NULL)) {
			*why = g_strdup_printf("result %s: bad number '%s'", key, vals[p]);
			return FALSE;
		}
		(strcmp(key, "ranks") == 0 ? res->ranks : res->scores)[p] = (int)v;
	}
	return TRUE;
}

gboolean protocol_parse_result(const char *fields, int n, ProtocolResult *res, char **why)
{
	g_auto(GStrv) f = g_strsplit(fields, " ", -1);
	g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
	gboolean seen[3] = {0};
	static const char *const lists[] = {"ranks", "scores", "faults"};

	memset(res, 0, sizeof(*res));
	for (int i = 0; f[i]; i++) {
		char *eq = strchr(f[i], '=');
		if (!eq) {
			*why = g_strdup_printf("malformed result field '%s'", f[i]);
			goto bad;
		}
		*eq = '\0';
		int which = -1;
		for (int k = 0; k < 3; k++)
			if (strcmp(f[i], lists[k]) == 0)
				which = k;
		if (which >= 0) {
			if (!result_list(res, f[i], eq + 1, &n, why))
				goto bad;
			seen[which] = TRUE;
		} else if (strcmp(f[i], "reason") == 0) {
			g_free(res->reason);
			res->reason = g_strdup(eq + 1);
		} else {
			*eq = '=';
			g_ptr_array_add(extra, g_strdup(f[i]));
		}
	}
	if (!seen[0] || !seen[1] || !seen[2]) {
		*why = g_strdup("result lacks ranks=, scores= or faults=");
		goto bad;
	}
	res->n = n;
	g_ptr_array_add(extra, NULL);
	res->extra = (char **)g_ptr_array_free(g_steal_pointer(&extra), FALSE);
	return TRUE;
bad:
	protocol_result_clear(res);
	return FALSE;
}

const char *protocol_quit(void)
{
	return "quit";
}

/* ---- bot to referee ---------------------------------------------------- */

gboolean protocol_parse_hello(const char *line, ProtocolHello *hello)
{
	g_auto(GStrv) w = g_strsplit(line, " ", -1);

	if (g_strcmp0(w[0], "hello") != 0 || !w[1] || !w[2] || !w[1][0] || !w[2][0])
		return FALSE;
	*hello = (ProtocolHello){.name = g_strdup(w[1])};
	for (int i = 3; w[i]; i++) {
		hello->multi |= strcmp(w[i], "multi") == 0;
		hello->moves |= strcmp(w[i], "moves") == 0;
	}
	return TRUE;
}

void protocol_hello_clear(ProtocolHello *hello)
{
	g_clear_pointer(&hello->name, g_free);
}

char *protocol_hello_line(const char *name, const char *version, gboolean moves, gboolean multi)
{
	return g_strdup_printf("hello %s %s%s%s", name, version, moves ? " moves" : "", multi ? " multi" : "");
}

char *protocol_decline_line(const char *why)
{
	return g_strdup_printf("decline %s", why);
}

char *protocol_move_line(const char *move)
{
	size_t cap = strlen(move) + sizeof("move ");
	char *line = g_malloc(cap);
	Text t;

	text_init(&t, line, cap);
	wire_move(&t, move);
	return line;
}

const char *protocol_move_text(const char *line)
{
	return line[4] ? line + 5 : line + 4;
}

/* ---- faults ------------------------------------------------------------ */

const char *protocol_fault_name(int i)
{
	g_return_val_if_fail(i >= 0 && i < PROTOCOL_FAULTS, "");
	return fault_names[i];
}

int protocol_fault_from_name(const char *name)
{
	for (int i = 0; i < PROTOCOL_FAULTS; i++)
		if (g_strcmp0(name, fault_names[i]) == 0)
			return i;
	return -1;
}

const char *protocol_resign_line(void)
{
	return verb_names[PROTOCOL_RESIGN];
}
