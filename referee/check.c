/*
 * check: `referee check` as a library, a bot's compliance with protocol.md
 * (see check.h). This file holds the run (check_run(): the variants, the
 * bots, the games' items handshake, game, multi and unknown), the items'
 * bookkeeping and the report with its JSON; check-items.c drives one
 * process by hand for the direct items and check-talk.c plays table talk,
 * sharing check-int.h.
 */
#include "check.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "check-int.h"
#include "game.h"
#include "gamelog.h"
#include "json.h"
#include "protocol.h"
#include "replay.h"
#include "variant.h"

G_DEFINE_QUARK(check-error-quark, check_error)

/* Lines of types no bot knows, sent before every `go` of the unknown item. */
static const char check_chatter[] = "ping 1\n# a comment from referee check\nnews future=1 more=2\n";

/* ---- items and the report ------------------------------------------- */

void check_item_free(CheckItem *it)
{
	if (!it)
		return;
	g_free(it->variant);
	g_free(it->name);
	g_free(it->what);
	g_free(it->line);
	g_free(it->after);
	g_free(it->hint);
	g_free(it);
}

CheckReport *check_report_new(void)
{
	CheckReport *r = g_new0(CheckReport, 1);

	r->items = g_ptr_array_new_with_free_func((GDestroyNotify)check_item_free);
	r->bots = g_new0(char *, 1);
	return r;
}

void check_report_free(CheckReport *r)
{
	if (!r)
		return;
	g_ptr_array_unref(r->items);
	g_strfreev(r->bots);
	g_free(r->dir);
	g_free(r);
}

const char *check_verdict_name(CheckVerdict v)
{
	static const char *const names[] = {"ok", "warn", "failed", "skip"};

	g_assert((unsigned)v < G_N_ELEMENTS(names));
	return names[v];
}

gboolean check_wanted(const Check *c, const char *name)
{
	return !c->spec->items || g_strv_contains(c->spec->items, name);
}

/* Append an item to the report, count it and tell the callback. */
static void add_item(Check *c, int bot, CheckVerdict verdict, const char *name, const char *what, const char *line,
		     const char *after, const char *hint, double figure, double limit, const char *unit)
{
	CheckItem *it = g_new0(CheckItem, 1);

	it->bot = bot;
	it->variant = c->v ? g_strdup(c->v->name) : NULL;
	it->players = c->v ? c->cfg.nplayers : 0;
	it->name = g_strdup(name);
	it->verdict = verdict;
	it->what = g_strdup(what);
	it->line = g_strdup(line);
	it->after = g_strdup(after);
	it->hint = g_strdup(hint);
	it->figure = figure;
	it->limit = limit;
	it->unit = unit;
	g_ptr_array_add(c->report->items, it);
	if (verdict == CHECK_FAILED)
		c->report->failed++;
	else if (verdict == CHECK_WARN)
		c->report->warned++;
	if (c->spec->progress)
		c->spec->progress(c->report, bot, it->variant, it->players, it, c->spec->data);
}

void check_item(Check *c, CheckVerdict verdict, const char *name, const char *what, const char *line,
		const char *hint, double figure, double limit, const char *unit)
{
	add_item(c, c->bot, verdict, name, what, verdict == CHECK_FAILED ? line : NULL, NULL,
		 verdict == CHECK_FAILED || verdict == CHECK_WARN ? hint : NULL, figure, limit, unit);
}

void check_pass(Check *c, gboolean ok, const char *name, const char *what, const char *line, const char *hint)
{
	check_item(c, ok ? CHECK_OK : CHECK_FAILED, name, what, line, hint, -1, -1, NULL);
}

void check_warn(Check *c, const char *name, const char *what, const char *note)
{
	check_item(c, CHECK_WARN, name, what, NULL, note, -1, -1, NULL);
}

char *check_control_text(const char *line)
{
	return g_strdup_printf("a line with a control byte, a `malformed` fault in a game: %.100s", line);
}

/* ---- the games' items ------------------------------------------------ */

const char *check_fault_hint(const char *kind)
{
	static const struct {
		const char *kind, *hint;
	} hints[] = {
		{"start", "answer `game` with `hello NAME VERSION [moves] [multi]` within the start "
			  "allowance, and flush standard output after every line"},
		{"declined", "it declined the game: play every variant you are offered, or decline only "
			     "those you cannot"},
		{"timeout", "answer every `go` with one `move` line within the MS it gives, and flush "
			    "standard output"},
		{"malformed", "a `move` names one move in the variant's notation (protocol.md), one per `go`"},
		{"line-too-long", "a line is at most 65536 bytes"},
		{"illegal", "play one of the moves of the `moves` line (ask for the `moves` feature in hello)"},
		{"crash", "the program exited or closed its output: its stderr is in the log's "
			  ".seatN.stderr files"},
		{"resigned", "it sent `resign`, which gives the game up: a program should play on"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(hints); i++)
		if (strcmp(hints[i].kind, kind) == 0)
			return hints[i].hint;
	return NULL;
}

/*
 * The first fault of the log at `path`: OUT *what ("fault KIND of seat P
 * (detail)"), *line (the seat's last line before it, or a note) and
 * *after (the referee's last line to it before that, cut at 100 bytes), all
 * newly allocated. FALSE when the log records none.
 */
static gboolean first_fault(const char *path, char **what, char **kind, char **line, char **after)
{
	g_autofree char *text = NULL;
	char *last[VARIANT_MAX_PLAYERS] = {0}, *sent[VARIANT_MAX_PLAYERS] = {0};
	gboolean found = FALSE;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i] && !found; i++) {
		int p = -1, off = 0;
		if (sscanf(lines[i], "< %d +%*d %n", &p, &off) == 1 && off > 0 && p >= 0 &&
		    p < VARIANT_MAX_PLAYERS)
			last[p] = lines[i] + off;
		else if (sscanf(lines[i], "> %d +%*d %n", &p, &off) == 1 && off > 0 && p >= 0 &&
			 p < VARIANT_MAX_PLAYERS)
			sent[p] = lines[i] + off;
		else if (sscanf(lines[i], "fault %d %n", &p, &off) == 1 && off > 0 && p >= 0 &&
			 p < VARIANT_MAX_PLAYERS) {
			const char *k = lines[i] + off;
			size_t klen = strcspn(k, " ");
			*kind = g_strndup(k, klen);
			*what = g_strdup_printf("fault %s of seat %d%s%s%s", *kind, p, k[klen] ? " (" : "",
						k[klen] ? k + klen + 1 : "", k[klen] ? ")" : "");
			*line = g_strdup(last[p] ? last[p] : "(none: it sent nothing)");
			*after = g_strdup_printf("%.100s%s", sent[p] ? sent[p] : "(nothing)",
						 sent[p] && strlen(sent[p]) > 100 ? "..." : "");
			found = TRUE;
		}
	}
	return found;
}

/* The first line of seat 0 in the log of type `verb`, or NULL. */
static char *log_line(const char *path, ProtocolVerb verb)
{
	g_autofree char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		int off = 0;
		if (sscanf(lines[i], "< 0 +%*d %n", &off) == 0 && off > 0 &&
		    protocol_verb(lines[i] + off) == verb)
			return g_strdup(lines[i] + off);
	}
	return NULL;
}

static gboolean log_verifies(const char *path, char **why)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) log = gamelog_read(path, &err);

	if (log && replay_verify(log, &err))
		return TRUE;
	*why = g_strdup(err->message);
	return FALSE;
}

/*
 * Play one game whose every seat is the bot: a kept process from
 * kept[p] when there is one (taken), else a new one. With keep, healthy
 * `multi` bots are handed back in kept[]. FALSE with error on a referee
 * failure.
 */
static gboolean play(Check *c, const BotSpec *bs, Bot **kept, gboolean keep, const char *chatter,
		     const char *log, guint64 seed, GameResult *res, GError **error)
{
	GameSpec spec;

	game_spec_init(&spec, c->v, c->cfg.nplayers, seed);
	spec.config = c->cfg;
	spec.time = c->tc;
	spec.log_path = log;
	spec.hide_dir = c->hide[0];
	spec.keep_bots = keep;
	spec.chatter = chatter;
	spec.moves_line_max = chatter ? CHECK_MOVES_LINE : 0;
	for (int p = 0; p < c->cfg.nplayers; p++) {
		spec.seats[p].spec = bs;
		spec.seats[p].bot = kept ? kept[p] : NULL;
		spec.seats[p].games = 2;	/* a process kept plays the multi item too */
		if (kept)
			kept[p] = NULL;
	}
	if (!game_run(&spec, res, error))
		return FALSE;
	for (int p = 0; keep && p < res->nseats; p++) {
		kept[p] = res->seat[p].bot;
		res->seat[p].bot = NULL;
	}
	return TRUE;
}

/*
 * For a malformed tetroll placement `K R@X:Y` whose K R is none of link's
 * 19 orientations (R counted as clockwise turns, as an old text of
 * protocol.md invited): a hint naming the notation, else NULL.
 */
static const char *notation_hint(const Check *c, const char *line)
{
	static const char *const orientations[] = {"I0", "I1", "O0", "T0", "T1", "T2", "T3", "J0", "J1",
						   "J2", "J3", "L0", "L1", "L2", "L3", "S0", "S1", "Z0", "Z1"};

	if (strcmp(c->v->name, "tetroll") != 0 || !line || protocol_verb(line) != PROTOCOL_MOVE)
		return NULL;
	const char *m = protocol_move_text(line);
	if (!m || !m[0] || !strchr("IOTJLSZ", m[0]) || !g_ascii_isdigit(m[1]) || m[2] != '@')
		return NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(orientations); i++)
		if (strncmp(m, orientations[i], 2) == 0)
			return NULL;
	return "tetroll's placement `K R@X:Y` takes K R from link's table of 19 orientations (I0 I1, O0, "
	       "T0-T3, J0-J3, L0-L3, S0 S1, Z0 Z1): R is not a count of clockwise turns from 0 to 3, "
	       "so I2, O1, S2 or Z3 do not exist (protocol.md, tetroll, \"A placement\")";
}

/* Report a game's item: no fault and a log that verifies. */
static void game_item(Check *c, const char *name, const char *what, const char *log,
		      const char *hint)
{
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL, *after = NULL, *why = NULL;

	if (first_fault(log, &fwhat, &kind, &line, &after)) {
		g_autofree char *desc = g_strdup_printf("%s: %s (log %s)", what, fwhat, log);
		const char *nh = strcmp(kind, "malformed") == 0 ? notation_hint(c, line) : NULL;
		if (nh)
			desc = (g_free(desc), g_strdup_printf("%s: tetroll notation: %s (log %s)", what, fwhat, log));
		add_item(c, c->bot, CHECK_FAILED, name, desc, line, after, nh ? nh : hint ? hint : check_fault_hint(kind),
			 -1, -1, NULL);
	} else if (!log_verifies(log, &why)) {
		g_autofree char *desc = g_strdup_printf("%s: the log does not verify: %s", what, why);
		check_pass(c, FALSE, name, desc, NULL, "report this: a game without faults must verify");
	} else {
		check_pass(c, TRUE, name, what, NULL, NULL);
	}
}

/* Every item for one bot. FALSE with error when the checker failed. */
static gboolean check_bot(Check *c, const char *command, GError **error)
{
	g_autoptr(BotSpec) bs = bot_spec_new(command, NULL, error);
	Bot *kept[VARIANT_MAX_PLAYERS] = {0};
	GameResult res;
	int index = c->bot + 1;

	if (!bs)
		return FALSE;
	if (c->spec->workdir)
		bs->workdir = g_strdup(c->spec->workdir);
	bs->confined = c->spec->confine;
	if (c->spec->progress)
		c->spec->progress(c->report, c->bot, c->v->name, c->cfg.nplayers, NULL, c->spec->data);
	int failed_before = c->report->failed;

	if (!check_wanted(c, "handshake") && !check_wanted(c, "game") && !check_wanted(c, "multi") &&
	    !check_wanted(c, "unknown")) {
		c->report->checked++;
		check_direct(c, bs);
		return TRUE;
	}
	/* handshake and a whole game */
	g_autofree char *log1 = g_strdup_printf("%s/bot%d-%s-game.log", c->dir, index, c->v->name);
	if (!play(c, bs, kept, TRUE, NULL, log1, c->seed, &res, error))
		return FALSE;
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL, *after = NULL;
	gboolean started = !(first_fault(log1, &fwhat, &kind, &line, &after) &&
			     (strcmp(kind, "start") == 0 || strcmp(kind, "declined") == 0));
	g_autofree char *hello = log_line(log1, PROTOCOL_HELLO);
	if (c->all && !started && strcmp(kind, "declined") == 0) {
		g_autofree char *d = g_strdup_printf("it declined %s: not checked (%s)", c->v->name, line);
		add_item(c, c->bot, CHECK_SKIP, "handshake", d, NULL, NULL, NULL, -1, -1, NULL);
		game_result_clear(&res);
		for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
			bot_free(kept[p]);
		return TRUE;
	}
	c->report->checked++;
	if (check_wanted(c, "handshake") && started)
		check_pass(c, TRUE, "handshake", hello, NULL, NULL);
	else if (check_wanted(c, "handshake"))
		add_item(c, c->bot, CHECK_FAILED, "handshake", fwhat, line, after, check_fault_hint(kind), -1, -1, NULL);
	gboolean multi = res.seat[0].bot || kept[0];
	game_result_clear(&res);
	g_autofree char *gwhat = g_strdup_printf("a whole game (seed %" G_GUINT64_FORMAT ")", c->seed);
	if (check_wanted(c, "game"))
		game_item(c, "game", gwhat, log1, NULL);

	/* multi: the same processes again */
	ProtocolHello said = {0};
	gboolean announced = hello && protocol_parse_hello(hello, &said) && said.multi;
	protocol_hello_clear(&said);
	if (!check_wanted(c, "multi")) {
		/* not asked for */
	} else if (!announced) {
		check_pass(c, TRUE, "multi", "not announced: every game gets a fresh process", NULL, NULL);
	} else {
		g_autofree char *log2 = g_strdup_printf("%s/bot%d-%s-multi.log", c->dir, index, c->v->name);
		if (!multi) {
			/* Not handed back without a fault: a `go` was still
			 * outstanding at the end (real time), so the referee
			 * would start fresh processes too. */
			check_pass(c, TRUE, "multi", "announced; not tried (the first game ended while a `go` was "
				   "outstanding: the next game gets fresh processes)", NULL, NULL);
		} else {
			if (!play(c, bs, kept, FALSE, NULL, log2, c->seed + 1, &res, error))
				return FALSE;
			game_result_clear(&res);
			game_item(c, "multi", "a second game in the same processes", log2,
				  "after `result` a multi bot waits for the next `game` line (or `quit`) and "
				  "plays it as a new game");
		}
	}
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		bot_free(kept[p]);

	/* unknown lines before every go (the hint only when the plain game
	 * passed: otherwise the fault is not about unknown lines) */
	gboolean plain_ok = c->report->failed == failed_before;
	if (!check_wanted(c, "unknown")) {
		check_direct(c, bs);
		return TRUE;
	}
	g_autofree char *log3 = g_strdup_printf("%s/bot%d-%s-unknown.log", c->dir, index, c->v->name);
	if (!play(c, bs, NULL, FALSE, check_chatter, log3, c->seed + 2, &res, error))
		return FALSE;
	game_result_clear(&res);
	game_item(c, "unknown",
		  "a game with lines of unknown types (ping, # comments, news) before each go, "
		  "and each moves list over several moves lines",
		  log3, plain_ok ? "ignore any line whose type you do not know, and any key=value field you "
				   "do not know; join consecutive moves lines into one list"
				 : NULL);

	check_direct(c, bs);
	return TRUE;
}

/*
 * Set c up for variant v: its players (0: 2 or the variant's range), its
 * options (with c->all, only those the variant has). FALSE with error
 * (CHECK_ERROR_USAGE); *skip instead when, with c->all, the variant cannot
 * have `players` seats.
 */
static gboolean configure(Check *c, const Variant *v, gboolean *skip, GError **error)
{
	int players = c->spec->players;
	const char *const *options = c->spec->options;

	*skip = FALSE;
	c->v = v;
	if (players == 0)
		players = CLAMP(2, v->min_players, v->max_players);
	if (players < v->min_players || players > v->max_players) {
		if (c->all) {
			*skip = TRUE;
			return TRUE;
		}
		g_set_error(error, CHECK_ERROR, CHECK_ERROR_USAGE, "%s takes %d to %d players", v->name,
			    v->min_players, v->max_players);
		return FALSE;
	}
	variant_config_default(v, players, &c->cfg);
	for (int i = 0; options && options[i]; i++) {
		g_autofree char *key = g_strdup(options[i]);
		char *eq = strchr(key, '=');
		VariantError ve = VARIANT_OK;
		if (eq) {
			*eq = '\0';
			if (c->all && variant_option_index(v, key) < 0)
				continue;
			ve = variant_option_set(v, &c->cfg, key, eq + 1);
		}
		if (!eq || ve != VARIANT_OK) {
			g_set_error(error, CHECK_ERROR, CHECK_ERROR_USAGE, "bad --option %s", options[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* Remove the run's directory and what is in it (the logs of items that
 * passed). */
static void remove_dir(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_remove(path);
	}
	g_rmdir(dir);
}

/* The variant of spec (NULL with "all"), after checking that every
 * variant to check can be configured. FALSE with error. */
static gboolean spec_valid(Check *c, const Variant **one, GError **error)
{
	const Variant *const *all = variant_all();
	gboolean skip;

	g_return_val_if_fail(c->spec->bots && c->spec->bots[0] && c->spec->variant, FALSE);
	*one = NULL;
	c->all = strcmp(c->spec->variant, "all") == 0;
	if (!c->all && !(*one = variant_find(c->spec->variant))) {
		g_set_error(error, CHECK_ERROR, CHECK_ERROR_USAGE, "no variant '%s'", c->spec->variant);
		return FALSE;
	}
	for (int k = 0; c->all ? all[k] != NULL : k == 0; k++)
		if (!configure(c, c->all ? all[k] : *one, &skip, error))
			return FALSE;
	return TRUE;
}

gboolean check_spec_valid(const CheckSpec *spec, GError **error)
{
	Check c = {.spec = spec};
	const Variant *one;

	return spec_valid(&c, &one, error);
}

gboolean check_run(const CheckSpec *spec, CheckReport *report, GError **error)
{
	Check c = {.spec = spec, .report = report, .seed = spec->seed, .tc = spec->time, .bot = -1};
	const Variant *const *all = variant_all();
	const Variant *one = NULL;
	gboolean skip;

	if (!spec_valid(&c, &one, error))
		return FALSE;
	g_strfreev(report->bots);
	report->bots = g_strdupv((char **)spec->bots);
	c.hide[0] = spec->hide;
	g_autoptr(GError) err = NULL;
	report->dir = g_dir_make_tmp("tetrarena-check-XXXXXX", &err);
	if (!report->dir) {
		g_set_error(error, CHECK_ERROR, CHECK_ERROR_FAILED, "%s", err->message);
		return FALSE;
	}
	c.dir = report->dir;
	for (int k = 0; c.all ? all[k] != NULL : k == 0; k++) {
		configure(&c, c.all ? all[k] : one, &skip, NULL);
		if (skip) {
			g_autofree char *d = g_strdup_printf("%d players cannot play it", spec->players);
			add_item(&c, -1, CHECK_SKIP, "players", d, NULL, NULL, NULL, -1, -1, NULL);
			continue;
		}
		for (int i = 0; spec->bots[i]; i++) {
			c.bot = i;
			if (!check_bot(&c, spec->bots[i], &err)) {
				g_set_error(error, CHECK_ERROR, CHECK_ERROR_FAILED, "%s", err->message);
				return FALSE;
			}
		}
	}
	c.bot = -1;
	if (c.all && report->checked == 0 && !report->failed) {
		c.v = NULL;
		add_item(&c, -1, CHECK_FAILED, NULL,
			 "no variant checked: every one was declined or cannot have the seats asked for", NULL, NULL,
			 NULL, -1, -1, NULL);
	}
	if (!report->failed) {
		remove_dir(report->dir);
		g_clear_pointer(&report->dir, g_free);
	}
	return TRUE;
}

/* ---- the report as JSON ---------------------------------------------- */

/* A string member, made valid UTF-8 (a bot's bytes may not be). */
static void member_string(GString *out, const char *key, const char *s, gboolean comma)
{
	g_autofree char *valid = s ? g_utf8_make_valid(s, -1) : NULL;

	g_string_append_printf(out, "%s\"%s\": ", comma ? ", " : "", key);
	json_string(out, valid);
}

static void member_figure(GString *out, const char *key, double x)
{
	g_string_append_printf(out, ", \"%s\": ", key);
	if (x < 0)
		g_string_append(out, "null");
	else
		json_double(out, x, 3);
}

char *check_report_json(const CheckReport *r, const GError *error)
{
	GString *out = g_string_new("{\"bots\": [");

	for (int i = 0; r->bots && r->bots[i]; i++) {
		g_autofree char *valid = g_utf8_make_valid(r->bots[i], -1);
		if (i)
			g_string_append(out, ", ");
		json_string(out, valid);
	}
	g_string_append_printf(out, "], \"checked\": %d, \"failed\": %d, \"warned\": %d", r->checked, r->failed,
			       r->warned);
	member_string(out, "logs", r->dir, TRUE);
	member_string(out, "error", error ? error->message : NULL, TRUE);
	g_string_append(out, ",\n \"items\": [");
	for (guint i = 0; i < r->items->len; i++) {
		const CheckItem *it = g_ptr_array_index(r->items, i);
		g_string_append_printf(out, "%s\n  {\"bot\": %d", i ? "," : "", it->bot);
		member_string(out, "variant", it->variant, TRUE);
		g_string_append_printf(out, ", \"players\": %d", it->players);
		member_string(out, "name", it->name, TRUE);
		member_string(out, "verdict", check_verdict_name(it->verdict), TRUE);
		member_string(out, "what", it->what, TRUE);
		member_string(out, "line", it->line, TRUE);
		member_string(out, "after", it->after, TRUE);
		member_string(out, "hint", it->hint, TRUE);
		member_figure(out, "figure", it->figure);
		member_figure(out, "limit", it->limit);
		member_string(out, "unit", it->unit, TRUE);
		g_string_append(out, "}");
	}
	g_string_append(out, "]}\n");
	return g_string_free(out, FALSE);
}

/* A string member of o, or NULL (absent or null). */
static char *get_string(JsonObject *o, const char *key)
{
	JsonNode *n = json_object_get_member(o, key);

	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
		       ? g_strdup(json_node_get_string(n))
		       : NULL;
}

/* A number member of o: an integer or a double, else def. */
static double get_number(JsonObject *o, const char *key, double def)
{
	JsonNode *n = json_object_get_member(o, key);

	if (!n || !JSON_NODE_HOLDS_VALUE(n))
		return def;
	GType t = json_node_get_value_type(n);
	return t == G_TYPE_INT64 ? (double)json_node_get_int(n) : t == G_TYPE_DOUBLE ? json_node_get_double(n) : def;
}

/* An integer member of o within int's range, else def. */
static int get_int(JsonObject *o, const char *key, int def)
{
	JsonNode *n = json_object_get_member(o, key);

	if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
		return def;
	gint64 v = json_node_get_int(n);
	return v >= G_MININT && v <= G_MAXINT ? (int)v : def;
}

/* An array member of o, or NULL. */
static JsonArray *get_array(JsonObject *o, const char *key)
{
	JsonNode *n = o ? json_object_get_member(o, key) : NULL;

	return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

CheckReport *check_report_from_json(const char *text, gsize len, char **stopped, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) perr = NULL;
	g_autoptr(CheckReport) r = check_report_new();

	*stopped = NULL;
	if (!json_parser_load_from_data(parser, text, (gssize)len, &perr)) {
		g_set_error(error, CHECK_ERROR, CHECK_ERROR_JSON, "not a check report: %s", perr->message);
		return NULL;
	}
	JsonNode *root = json_parser_get_root(parser);
	JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
	JsonArray *items = get_array(o, "items"), *bots = get_array(o, "bots");
	if (!items || !bots) {
		g_set_error(error, CHECK_ERROR, CHECK_ERROR_JSON, "not a check report: no items or bots");
		return NULL;
	}
	g_strfreev(r->bots);
	r->bots = g_new0(char *, json_array_get_length(bots) + 1);
	for (guint i = 0; i < json_array_get_length(bots); i++) {
		JsonNode *n = json_array_get_element(bots, i);
		if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
			g_set_error(error, CHECK_ERROR, CHECK_ERROR_JSON, "not a check report: bot %u", i);
			return NULL;
		}
		r->bots[i] = g_strdup(json_node_get_string(n));
	}
	r->checked = get_int(o, "checked", 0);
	r->failed = get_int(o, "failed", 0);
	r->warned = get_int(o, "warned", 0);
	r->dir = get_string(o, "logs");
	for (guint i = 0; i < json_array_get_length(items); i++) {
		JsonNode *n = json_array_get_element(items, i);
		if (!JSON_NODE_HOLDS_OBJECT(n)) {
			g_set_error(error, CHECK_ERROR, CHECK_ERROR_JSON, "not a check report: item %u", i);
			return NULL;
		}
		JsonObject *io = json_node_get_object(n);
		g_autofree char *verdict = get_string(io, "verdict");
		CheckItem *it = g_new0(CheckItem, 1);
		g_ptr_array_add(r->items, it);
		it->verdict = CHECK_FAILED;	/* a verdict not known fails */
		for (int v = CHECK_OK; v <= CHECK_SKIP; v++)
			if (verdict && strcmp(verdict, check_verdict_name(v)) == 0)
				it->verdict = v;
		it->bot = get_int(io, "bot", -1);
		if (it->bot < 0 || it->bot >= (int)json_array_get_length(bots))
			it->bot = -1;	/* the run's, or a bot the report does not name */
		it->variant = get_string(io, "variant");
		it->players = get_int(io, "players", 0);
		it->name = get_string(io, "name");
		it->what = get_string(io, "what");
		it->line = get_string(io, "line");
		it->after = get_string(io, "after");
		it->hint = get_string(io, "hint");
		it->figure = get_number(io, "figure", -1);
		it->limit = get_number(io, "limit", -1);
		g_autofree char *unit = get_string(io, "unit");
		it->unit = !unit ? NULL : strcmp(unit, "ms") == 0 ? "ms" : strcmp(unit, "KiB") == 0 ? "KiB" : NULL;
	}
	*stopped = get_string(o, "error");
	return g_steal_pointer(&r);
}
