/* check: `referee check`, a bot's compliance with protocol.md. See check.h. */
#include "check.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "bot.h"
#include "game.h"
#include "gamelog.h"
#include "protocol.h"
#include "replay.h"
#include "sandbox.h"
#include "rng.h"
#include "text.h"
#include "timectl.h"
#include "usage.h"
#include "variant.h"

#define CHECK_TIGHT_MS 100	/* the `go` of the tight-time item */
#define CHECK_TIGHT_REPEAT 10	/* tight `go`s of the tight-repeat item */
#define CHECK_REALTIME_ACTIONS 20	/* paced `go`s of the realtime item */
/* How long a bot may take to exit on `quit`: a game waits 200 ms
 * (GAME_QUIT_GRACE_MS) and then kills it without a fault, so this item
 * looks for a bot that ignores `quit`, not a slow one: on a loaded
 * machine (ASan, a busy ladder) an instant exit took over 500 ms. */
#define CHECK_QUIT_MS 2000
#define CHECK_STATE_MAX (1 << 16)

/* The unknown item sends `moves` lists split over lines of at most this
 * many bytes, as the referee does past the line limit. */
#define CHECK_MOVES_LINE 256

/* Lines of types no bot knows, sent before every `go` of the unknown item. */
static const char check_chatter[] = "ping 1\n# a comment from referee check\nnews future=1 more=2\n";

typedef struct {
	const Variant *v;
	VariantConfig cfg;
	guint64 seed;
	TimeControl tc;
	char *dir;		/* logs of this run */
	char **items;		/* only these items (NULL: all) */
	char *workdir;		/* the bots' working directory, or NULL */
	gboolean confine;	/* BotSpec.confined: a stranger's bot */
	const char *hide[2];	/* a directory no bot sees (NULL-terminated) */
	gboolean all;		/* --variant all: a declined variant is skipped */
	int checked;		/* bot and variant pairs checked (not skipped) */
	int failed;		/* items failed, all bots */
	int warned;		/* items passed with a warning, all bots */
} Check;

/* Whether item `name` is to run. */
static gboolean wanted(const Check *c, const char *name)
{
	return !c->items || g_strv_contains((const char *const *)c->items, name);
}

/* An item that passed but deserves attention: `note` says why. */
/* A report's text, which may hold a bot's words or a log's, escaped for
 * the terminal as the log escapes a bot's line (gamelog_escape()). */
static char *shown(const char *text)
{
	return gamelog_escape(text, GAMELOG_ESCAPE_LINES | GAMELOG_ESCAPE_LOGGED);
}

/* Why a line with control bytes (now '?') fails: a game faults it. */
static char *control_text(const char *line)
{
	return g_strdup_printf("a line with a control byte, a `malformed` fault in a game: %.100s", line);
}

/* An error on stderr, escaped as shown() does. */
static void say_error(const GError *err)
{
	g_autofree char *m = shown(err->message);

	fprintf(stderr, "referee: check: %s\n", m);
}

static void item_warn(Check *c, const char *name, const char *what, const char *note)
{
	g_autofree char *w = shown(what), *n = shown(note);

	printf("  %-7s %-11s %s\n", "warn", name, w);
	printf("          note: %s\n", n);
	c->warned++;
}

/*
 * How an answer `took` ms against a `limit` of ms and the grace: the two
 * margins, separately (newly allocated). *graced: it used the grace.
 */
static char *margins(const Check *c, double took, double limit, gboolean *graced)
{
	double grace = (double)c->tc.grace;

	*graced = took > limit;
	if (!*graced)
		return g_strdup_printf("%.1f ms: %.1f ms inside the %.0f ms move time, the %.0f ms grace untouched",
				       took, limit - took, limit, grace);
	if (took <= limit + grace)
		return g_strdup_printf("%.1f ms: %.1f ms over the %.0f ms move time, inside the grace with "
				       "%.1f ms of its %.0f ms left", took, took - limit, limit,
				       limit + grace - took, grace);
	return g_strdup_printf("%.1f ms: %.1f ms over the %.0f ms move time and %.1f ms past the %.0f ms grace",
			       took, took - limit, limit, took - limit - grace, grace);
}

/* The note of an answer that used the grace. */
static const char grace_note[] =
	"it used the grace, a margin for the referee's scheduling that is never announced: under "
	"load the same answer times out; keep a margin inside the MS of `go`";

static void item(Check *c, gboolean ok, const char *name, const char *what, const char *line,
		 const char *hint)
{
	g_autofree char *w = shown(what), *l = shown(line), *h = shown(hint);

	printf("  %-7s %-11s %s\n", ok ? "ok" : "FAILED", name, w);
	if (ok)
		return;
	c->failed++;
	if (l)
		printf("          the line: %s\n", l);
	if (h)
		printf("          hint: %s\n", h);
}

static const char *fault_hint(const char *kind)
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
 * (detail)") and *line (the seat's last line before it, or a note), both
 * newly allocated. FALSE when the log records none.
 */
static gboolean first_fault(const char *path, char **what, char **kind, char **line)
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
			*line = g_strdup_printf("%s\n          after the referee's: %.100s%s",
						last[p] ? last[p] : "(none: it sent nothing)",
						sent[p] ? sent[p] : "(nothing)",
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
 * `multi` bots are handed back in kept[]. FALSE on a referee failure.
 */
static gboolean play(Check *c, const BotSpec *bs, Bot **kept, gboolean keep, const char *chatter,
		     const char *log, guint64 seed, GameResult *res)
{
	GameSpec spec;
	g_autoptr(GError) err = NULL;

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
	if (!game_run(&spec, res, &err)) {
		say_error(err);
		return FALSE;
	}
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
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL, *why = NULL;

	if (first_fault(log, &fwhat, &kind, &line)) {
		g_autofree char *desc = g_strdup_printf("%s: %s (log %s)", what, fwhat, log);
		const char *nh = strcmp(kind, "malformed") == 0 ? notation_hint(c, line) : NULL;
		if (nh)
			desc = (g_free(desc), g_strdup_printf("%s: tetroll notation: %s (log %s)", what, fwhat, log));
		item(c, FALSE, name, desc, line, nh ? nh : hint ? hint : fault_hint(kind));
	} else if (!log_verifies(log, &why)) {
		g_autofree char *desc = g_strdup_printf("%s: the log does not verify: %s", what, why);
		item(c, FALSE, name, desc, NULL, "report this: a game without faults must verify");
	} else {
		item(c, TRUE, name, what, NULL, NULL);
	}
}

/* ---- driving one process by hand ------------------------------------ */


/* Wait for a line of type `verb` (others are skipped; a decline stands
 * for a hello): a copy, or NULL
 * with *why (replaced, newly allocated) saying what happened instead: for
 * a bot that closed its output, how its process ended, waited for no
 * longer than the grace margin. */
static char *await(const Check *c, Bot *b, ProtocolVerb verb, gint64 deadline, char **why)
{
	gboolean eof, control;
	const char *line;

	while ((line = bot_wait_line(b, deadline, &eof, &control))) {
		if (control) {
			g_free(*why);
			*why = control_text(line);
			return NULL;
		}
		if (protocol_verb(line) == verb ||
		    (verb == PROTOCOL_HELLO && protocol_verb(line) == PROTOCOL_DECLINE))
			return g_strdup(line);
	}
	g_autofree char *end = eof ? bot_end_text(b, g_get_monotonic_time() + c->tc.grace * 1000) : NULL;
	g_free(*why);
	*why = !eof ? g_strdup("nothing in time")
		    : g_strdup_printf("it closed its output; %s", end ? end : "still running");
	return NULL;
}

/*
 * A state in the middle of a game: random moves (the generator `rng`)
 * from the start for `want` decisions, then the first decision point of a
 * seat that has a legal move. OUT: state, *seat. FALSE when the game ended
 * first.
 */
static gboolean midgame(const Check *c, void *state, int want, int *seat, Move *scratch, Rng *rng)
{
	const Variant *v = c->v;
	int made = 0;

	v->init(state, &c->cfg);
	for (int guard = 0; guard < 100000; guard++) {
		uint32_t mask;
		VariantPhase ph = v->phase(state, &mask);
		if (ph == VARIANT_PHASE_OVER)
			return FALSE;
		if (ph == VARIANT_PHASE_CHANCE) {
			v->apply(state, VARIANT_CHANCE, v->chance_sample(state, rng));
			continue;
		}
		if (made >= want)
			for (int p = 0; p < c->cfg.nplayers; p++)
				if (mask & (1u << p) && v->legal_moves(state, p, scratch) > 0) {
					*seat = p;
					return TRUE;
				}
		if (ph == VARIANT_PHASE_SIMULTANEOUS) {
			Move moves[VARIANT_MAX_PLAYERS] = {0};
			uint32_t sub = 0;
			for (int p = 0; p < c->cfg.nplayers; p++) {
				int n = mask & (1u << p) ? v->legal_moves(state, p, scratch) : 0;
				if (n > 0) {
					moves[p] = scratch[rng_below(rng, (uint32_t)n)];
					sub |= 1u << p;
				}
			}
			v->apply_joint(state, moves, sub);
		} else {
			/* a turn's one seat, or a random one of real time's */
			int p, k = (int)rng_below(rng, (uint32_t)__builtin_popcount(mask));
			for (p = 0; !(mask & (1u << p)) || k-- > 0; p++)
				;
			int n = v->legal_moves(state, p, scratch);
			if (n <= 0)
				return FALSE;
			v->apply(state, p, scratch[rng_below(rng, (uint32_t)n)]);
		}
		made++;
	}
	return FALSE;
}

/* `moves` (when wanted) and `go MS bank=MS STATE` for seat p of state. */
static char *go_lines(const Check *c, const void *state, int p, gboolean moves, int ms, Move *scratch)
{
	g_autofree char *buf = g_malloc(CHECK_STATE_MAX);
	GString *out = g_string_new(NULL);
	Text t;

	if (moves) {
		int n = c->v->legal_moves(state, p, scratch);
		protocol_append_moves(out, c->v, state, p, scratch, n, 0);
	}
	text_init(&t, buf, CHECK_STATE_MAX);
	c->v->state_format(state, p, &t);
	protocol_append_go(out, ms, ms, buf);
	return g_string_free(out, FALSE);
}

/* Send `lines` (a `go` and what comes with it) and wait for the move, no
 * longer than ms plus the grace: a copy, or NULL with *why set. OUT:
 * *took, the ms from the write to the answer (or to giving up). */
static char *ask(const Check *c, Bot *b, const char *lines, int ms, double *took, char **why)
{
	char *reply = NULL;
	gint64 now = g_get_monotonic_time();

	if (bot_write(b, lines, strlen(lines), now + 1000000) == BOT_WRITE_OK)
		reply = await(c, b, PROTOCOL_MOVE, now + ((gint64)ms + c->tc.grace) * 1000, why);
	else {
		g_free(*why);
		*why = g_strdup("it stopped reading its input");
	}
	*took = (double)(g_get_monotonic_time() - now) / 1000.0;
	return reply;
}

/* Peak resident memory of process pid in KiB (VmHWM), or -1. */
static gint64 peak_kib(pid_t pid)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/status", (int)pid);
	g_autofree char *text = NULL;

	if (pid <= 0 || !g_file_get_contents(path, &text, NULL, NULL))
		return -1;
	const char *hwm = strstr(text, "\nVmHWM:");
	gint64 kib = -1;
	if (hwm && sscanf(hwm + 7, "%" G_GINT64_FORMAT, &kib) != 1)
		kib = -1;
	return kib;
}

/* The tight-worst item: CHECK_TIGHT_REPEAT tight `go`s, the slowest
 * reported. FALSE when one went unanswered (the process is then out of
 * step for further items). */
static gboolean tight_repeat(Check *c, Bot *b, const char *tight)
{
	double slowest = 0, sum = 0, took;
	g_autofree char *why = NULL;
	int i;

	for (i = 0; i < CHECK_TIGHT_REPEAT; i++) {
		g_autofree char *reply = ask(c, b, tight, CHECK_TIGHT_MS, &took, &why);
		if (!reply) {
			g_autofree char *d = g_strdup_printf("the `go %d` number %d of %d not answered in time",
							     CHECK_TIGHT_MS, i + 1, CHECK_TIGHT_REPEAT);
			item(c, FALSE, "tight-worst", d, why,
			     "spend at most the MS of `go`, every time: the slowest answer decides");
			return FALSE;
		}
		slowest = MAX(slowest, took);
		sum += took;
	}
	gboolean graced;
	g_autofree char *m = margins(c, slowest, CHECK_TIGHT_MS, &graced);
	g_autofree char *d = g_strdup_printf("%d x `go %d`, mean %.1f ms, the slowest %s", CHECK_TIGHT_REPEAT,
					     CHECK_TIGHT_MS, sum / CHECK_TIGHT_REPEAT, m);
	if (graced)
		item_warn(c, "tight-worst", d, grace_note);
	else
		item(c, TRUE, "tight-worst", d, NULL, NULL);
	return TRUE;
}

/*
 * The realtime item: `go`s of a real-time state paced as in a game (the
 * next not before the pace after the last), the bot's reaction time
 * against the variant's default pace. A seat acts at most once a pace, so
 * a reaction r > pace costs 1 - pace / r of its actions.
 */
static gboolean realtime(Check *c, Bot *b, const void *state, int seat, gboolean moves, Move *scratch)
{
	VariantConfig def;
	int idx = variant_option_index(c->v, "pace");
	double took, sum = 0, paced = 0, slowest = 0;
	g_autofree char *why = NULL;

	variant_config_default(c->v, c->cfg.nplayers, &def);
	int pace = idx >= 0 ? def.opt[idx] : 0;
	int ms = (int)MIN(c->tc.bank, c->tc.move);
	g_autofree char *go = go_lines(c, state, seat, moves, ms, scratch);
	for (int i = 0; i < CHECK_REALTIME_ACTIONS; i++) {
		gint64 at = g_get_monotonic_time();
		g_autofree char *reply = ask(c, b, go, ms, &took, &why);
		if (!reply) {
			item(c, FALSE, "realtime", "a real-time `go` not answered in time", why,
			     "answer every `go` at once: in real time the others do not wait");
			return FALSE;
		}
		sum += took;
		paced += MAX(took, (double)pace);
		slowest = MAX(slowest, took);
		gint64 next = at + (gint64)pace * 1000;
		if (g_get_monotonic_time() < next)
			g_usleep((gulong)(next - g_get_monotonic_time()));
	}
	double mean = sum / CHECK_REALTIME_ACTIONS;
	double lost = paced > 0 ? 100.0 * (1.0 - (double)pace * CHECK_REALTIME_ACTIONS / paced) : 0;
	if (lost < 0.5) {
		g_autofree char *d = g_strdup_printf("reaction %.1f ms on average (slowest %.1f ms) in %d actions "
						     "at the default pace of %d ms: %.1f ms inside it, no action lost",
						     mean, slowest, CHECK_REALTIME_ACTIONS, pace, pace - mean);
		item(c, TRUE, "realtime", d, NULL, NULL);
	} else {
		g_autofree char *d = g_strdup_printf("reaction %.1f ms on average (slowest %.1f ms) in %d actions "
						     "at the default pace of %d ms: %.1f ms over it, it would lose "
						     "%.0f actions per 100 against a bot inside the pace",
						     mean, slowest, CHECK_REALTIME_ACTIONS, pace, mean - pace, lost);
		item_warn(c, "realtime", d,
			  "a seat acts at most once a pace, and a bot answering within it is as fast as any: "
			  "answer within the pace (protocol.md, rush, \"The pace\")");
	}
	return TRUE;
}

/* ---- table talk (a variant with side actions: matrix) ----------------- */

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
			*why = control_text(line);
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
		item(c, FALSE, name, d, why, hint);
	} else if (seen->refused->len) {
		g_autofree char *d = g_strdup_printf("%s: a side line refused", what);
		item(c, FALSE, name, d, seen->refused->str, hint);
	} else if (!talk_legal(c, state, seat, reply, scratch)) {
		g_autofree char *held = state_field(c, state, seat, "held");
		g_autofree char *d = g_strdup_printf("%s: an illegal move (it holds %s)", what, held ? held : "?");
		item(c, FALSE, name, d, reply, hint);
	} else {
		item(c, TRUE, name, what, NULL, NULL);
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
static gboolean check_talk(Check *c, Bot *b, int seat, gboolean moves, Move *scratch)
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
		item(c, TRUE, "talk-say", "no round where it may talk: the talk items not tried", NULL, NULL);
		return TRUE;
	}
	VariantSide out;
	char side[VARIANT_SIDE_LINE_MAX];
	Text t;
	g_autofree char *why = NULL;

	/* (1) a message from a partner */
	if (wanted(c, "talk-say")) {
		TalkSeen seen = {.refused = g_string_new(NULL)};
		memcpy(st, first, v->state_size);
		text_init(&t, side, sizeof(side));
		protocol_say(&t, seat, "greetings from referee check");
		v->side(st, q, side, &out);
		g_autofree char *go = go_lines(c, st, seat, moves, ms, scratch);
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
		if (!wanted(c, name))
			continue;
		TalkSeen seen = {.refused = g_string_new(NULL)};
		memcpy(st, first, v->state_size);
		text_init(&t, side, sizeof(side));
		if (k)
			protocol_gift(&t, seat, theirs);
		else
			protocol_offer(&t, seat, theirs, mine);
		v->side(st, q, side, &out);
		g_autofree char *go = go_lines(c, st, seat, moves, ms, scratch);
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
	if (!wanted(c, "talk-traded"))
		return TRUE;
	TalkSeen seen = {.refused = g_string_new(NULL)};
	const char *name = "talk-traded";
	memcpy(st, first, v->state_size);
	g_autofree char *go = go_lines(c, st, seat, moves, ms, scratch);
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
	g_autofree char *fresh = go_lines(c, st, seat, moves, ms, scratch);
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

/* The direct items (start-up, stateless, tight-time, tight-worst,
 * realtime, memory, quit), on one fresh process. */
static void check_direct(Check *c, const BotSpec *bs)
{
	const Variant *v = c->v;
	g_autofree void *state = g_malloc0(v->state_size);
	g_autofree Move *scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	Rng rng;
	int seat = -1;
	gboolean found = FALSE;

	if (!wanted(c, "start-up") && !wanted(c, "stateless") && !wanted(c, "tight-time") &&
	    !wanted(c, "tight-worst") && !wanted(c, "realtime") && !wanted(c, "memory") &&
	    !wanted(c, "quit") && !wanted(c, "talk-say") && !wanted(c, "talk-offer") &&
	    !wanted(c, "talk-gift") && !wanted(c, "talk-traded"))
		return;
	rng_seed(&rng, rng_derive(c->seed, "check", 0));
	for (int want = 8; !found; want /= 2) {
		found = midgame(c, state, want, &seat, scratch, &rng);
		if (want == 0)
			break;
	}
	if (!found) {
		item(c, FALSE, "stateless", "no state to ask about (the game ends at once)", NULL, NULL);
		return;
	}
	g_autofree char *errpath = g_build_filename(c->dir, "direct.stderr", NULL);
	g_autoptr(GError) err = NULL;
	/* jailed as in a game, when the machine can */
	SandboxMode mode = SANDBOX_OFF;
	sandbox_resolve(SANDBOX_AUTO, &mode, NULL);
	const SandboxLaunch launch = {.mode = mode, .hide = c->hide, .cpu = -1};
	gint64 spawned = g_get_monotonic_time();
	g_autoptr(Bot) b = bot_spawn(bs, errpath, &launch, &err);
	if (!b) {
		item(c, FALSE, "start-up", err->message, NULL, fault_hint("start"));
		return;
	}
	g_autofree char *game = protocol_game_line(v, &c->cfg, &c->tc, seat, 1);
	g_autofree char *head = g_strconcat(protocol_greeting(), "\n", game, "\n", NULL);
	gint64 now = g_get_monotonic_time();
	g_autofree char *why = NULL;
	g_autofree char *hello = NULL;
	if (bot_write(b, head, strlen(head), now + 1000000) == BOT_WRITE_OK)
		hello = await(c, b, PROTOCOL_HELLO, now + (c->tc.start + c->tc.grace) * 1000, &why);
	double started = (double)(g_get_monotonic_time() - spawned) / 1000.0;
	ProtocolHello said = {0};
	if (!hello || protocol_verb(hello) != PROTOCOL_HELLO) {
		item(c, FALSE, "start-up", "no hello to a fresh `game` line", hello ? hello : why,
		     fault_hint("start"));
		return;
	}
	TimeControl dtc;
	timectl_default(&dtc);
	if (wanted(c, "start-up")) {
		g_autofree char *d = g_strdup_printf("said hello %.1f ms after the start (%s), %.1f ms inside the "
						     "%" G_GINT64_FORMAT " ms start allowance (default %"
						     G_GINT64_FORMAT " ms)", started,
						     mode == SANDBOX_ON ? "jailed" : "not jailed: no jail here",
						     (double)c->tc.start - started, c->tc.start, dtc.start);
		if (started > (double)c->tc.start / 2)
			item_warn(c, "start-up", d, "more than half the start allowance: under load it may not be "
				  "enough; load or compile ahead of time");
		else
			item(c, TRUE, "start-up", d, NULL, NULL);
	}
	gboolean moves = protocol_parse_hello(hello, &said) && said.moves;
	protocol_hello_clear(&said);

	/* stateless: the first `go` this process sees is from mid-game */
	int ms = (int)MIN(c->tc.bank, c->tc.move);
	g_autofree char *go = go_lines(c, state, seat, moves, ms, scratch);
	double took;
	g_autofree char *reply = ask(c, b, go, ms, &took, &why);
	Move m;
	if (wanted(c, "stateless")) {
		const char *hint = "answer every `go` from its state alone: a bot is not sent what came before";
		g_autofree char *desc = g_strdup_printf("a fresh process asked about a state from mid-game (seat %d)",
							seat);
		if (!reply) {
			item(c, FALSE, "stateless", desc, why, hint);
			return;
		}
		gboolean legal = v->move_parse(state, seat, protocol_move_text(reply), &m) &&
				 variant_move_is_legal(v, state, seat, m, scratch);
		gboolean graced;
		g_autofree char *mg = margins(c, took, ms, &graced);
		g_autofree char *d2 = g_strdup_printf("%s, answered in %s", desc, mg);
		if (legal && graced)
			item_warn(c, "stateless", d2, grace_note);
		else
			item(c, legal, "stateless", d2, reply, hint);
	} else if (!reply) {
		return;
	}

	/* tight time: the same state with CHECK_TIGHT_MS */
	g_autofree char *tight = go_lines(c, state, seat, moves, CHECK_TIGHT_MS, scratch);
	if (wanted(c, "tight-time")) {
		g_autofree char *fast = ask(c, b, tight, CHECK_TIGHT_MS, &took, &why);
		gboolean graced;
		g_autofree char *mg = margins(c, took, CHECK_TIGHT_MS, &graced);
		g_autofree char *tdesc = fast ? g_strdup_printf("a `go %d` answered in %s", CHECK_TIGHT_MS, mg)
					      : g_strdup_printf("a `go %d` not answered in time", CHECK_TIGHT_MS);
		if (fast && graced)
			item_warn(c, "tight-time", tdesc, grace_note);
		else
			item(c, fast != NULL, "tight-time", tdesc, fast ? NULL : why,
			     "spend at most the MS of `go` (less a margin for start-up of the reply)");
		if (!fast)
			return;
	}
	if (wanted(c, "tight-worst") && !tight_repeat(c, b, tight))
		return;

	uint32_t mask;
	if (wanted(c, "realtime") && v->phase(state, &mask) == VARIANT_PHASE_REALTIME &&
	    !realtime(c, b, state, seat, moves, scratch))
		return;

	if (wanted(c, "memory")) {
		gint64 kib = peak_kib(bot_own_pid(b));
		BotLimits dl;
		bot_spec_limits_default(&dl);
		guint64 lim = bs->limits.memory;
		if (kib < 0) {
			item(c, TRUE, "memory", "its peak not known here (no /proc entry of its process)", NULL, NULL);
		} else {
			g_autofree char *d = g_strdup_printf(
				"peak %.1f MiB resident (its main process, %s) against the memory limit of %s%"
				G_GUINT64_FORMAT " MiB (default %" G_GUINT64_FORMAT " MiB)", (double)kib / 1024,
				mode == SANDBOX_ON ? "jailed" : "not jailed", lim ? "" : "none, ",
				lim ? lim >> 20 : dl.memory >> 20, dl.memory >> 20);
			if (lim && (guint64)kib * 1024 > lim / 2)
				item_warn(c, "memory", d, "more than half the limit: the limit counts the heap, "
					  "the games may grow it");
			else
				item(c, TRUE, "memory", d, NULL, NULL);
		}
	}

	if (v->side && (wanted(c, "talk-say") || wanted(c, "talk-offer") || wanted(c, "talk-gift") ||
			wanted(c, "talk-traded")) && !check_talk(c, b, seat, moves, scratch))
		return;

	if (!wanted(c, "quit"))
		return;
	/* quit */
	now = g_get_monotonic_time();
	gboolean gone = FALSE;
	g_autofree char *quit = g_strconcat(protocol_quit(), "\n", NULL);
	if (bot_write(b, quit, strlen(quit), now + 1000000) == BOT_WRITE_OK) {
		/* (closing its input is part of bot_wait_exit: wait for the
		 * exit by polling instead, so `quit` alone is tested) */
		while (!(gone = bot_ended(b, g_get_monotonic_time())) && g_get_monotonic_time() < now + CHECK_QUIT_MS * 1000) {
			gboolean eof;
			bot_wait_line(b, MIN(g_get_monotonic_time() + 10000, now + CHECK_QUIT_MS * 1000), &eof, NULL);
			if (eof)
				g_usleep(5000);
		}
	} else {
		gone = TRUE;	/* it had exited already */
	}
	g_autofree char *qdesc = gone ? g_strdup_printf("exited %.0f ms after `quit`",
							 (double)(g_get_monotonic_time() - now) / 1000.0)
				      : g_strdup_printf("still running %d ms after `quit`", CHECK_QUIT_MS);
	item(c, gone, "quit", qdesc, NULL, "exit at once on `quit` (and at the end of input)");
}

/* Every item for one bot. */
static gboolean check_bot(Check *c, const char *command, int index)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(BotSpec) bs = bot_spec_new(command, NULL, &err);
	Bot *kept[VARIANT_MAX_PLAYERS] = {0};
	GameResult res;

	if (!bs) {
		say_error(err);
		return FALSE;
	}
	if (c->workdir)
		bs->workdir = g_strdup(c->workdir);
	bs->confined = c->confine;
	printf("%s: %s, %d players\n", command, c->v->name, c->cfg.nplayers);
	int failed_before = c->failed;

	if (!wanted(c, "handshake") && !wanted(c, "game") && !wanted(c, "multi") && !wanted(c, "unknown")) {
		c->checked++;
		check_direct(c, bs);
		return TRUE;
	}
	/* handshake and a whole game */
	g_autofree char *log1 = g_strdup_printf("%s/bot%d-%s-game.log", c->dir, index, c->v->name);
	if (!play(c, bs, kept, TRUE, NULL, log1, c->seed, &res))
		return FALSE;
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL;
	gboolean started = !(first_fault(log1, &fwhat, &kind, &line) &&
			     (strcmp(kind, "start") == 0 || strcmp(kind, "declined") == 0));
	g_autofree char *hello = log_line(log1, PROTOCOL_HELLO);
	if (c->all && !started && strcmp(kind, "declined") == 0) {
		g_autofree char *l = shown(line);
		printf("  %-7s %-11s it declined %s: not checked (%.*s)\n", "skip", "handshake", c->v->name,
		       (int)strcspn(l, "\n"), l);
		game_result_clear(&res);
		for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
			bot_free(kept[p]);
		return TRUE;
	}
	c->checked++;
	if (wanted(c, "handshake"))
		item(c, started, "handshake", started ? hello : fwhat, started ? NULL : line,
		     started ? NULL : fault_hint(kind));
	gboolean multi = res.seat[0].bot || kept[0];
	game_result_clear(&res);
	g_autofree char *gwhat = g_strdup_printf("a whole game (seed %" G_GUINT64_FORMAT ")", c->seed);
	if (wanted(c, "game"))
		game_item(c, "game", gwhat, log1, NULL);

	/* multi: the same processes again */
	ProtocolHello said = {0};
	gboolean announced = hello && protocol_parse_hello(hello, &said) && said.multi;
	protocol_hello_clear(&said);
	if (!wanted(c, "multi")) {
		/* not asked for */
	} else if (!announced) {
		item(c, TRUE, "multi", "not announced: every game gets a fresh process", NULL, NULL);
	} else {
		g_autofree char *log2 = g_strdup_printf("%s/bot%d-%s-multi.log", c->dir, index, c->v->name);
		if (!multi) {
			/* Not handed back without a fault: a `go` was still
			 * outstanding at the end (real time), so the referee
			 * would start fresh processes too. */
			item(c, TRUE, "multi", "announced; not tried (the first game ended while a `go` was "
			     "outstanding: the next game gets fresh processes)", NULL, NULL);
		} else {
			if (!play(c, bs, kept, FALSE, NULL, log2, c->seed + 1, &res))
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
	gboolean plain_ok = c->failed == failed_before;
	if (!wanted(c, "unknown")) {
		check_direct(c, bs);
		return TRUE;
	}
	g_autofree char *log3 = g_strdup_printf("%s/bot%d-%s-unknown.log", c->dir, index, c->v->name);
	if (!play(c, bs, NULL, FALSE, check_chatter, log3, c->seed + 2, &res))
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
 * options (with c->all, only those the variant has). FALSE after saying
 * why on stderr (a usage error); *skip instead when, with c->all, the
 * variant cannot have `players` seats.
 */
static gboolean configure(Check *c, const Variant *v, int players, char **options, gboolean *skip)
{
	*skip = FALSE;
	c->v = v;
	if (players == 0)
		players = CLAMP(2, v->min_players, v->max_players);
	if (players < v->min_players || players > v->max_players) {
		if (c->all) {
			*skip = TRUE;
			return TRUE;
		}
		fprintf(stderr, "referee: check: %s takes %d to %d players\n", v->name, v->min_players,
			v->max_players);
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
			fprintf(stderr, "referee: check: bad --option %s\n", options[i]);
			return FALSE;
		}
	}
	return TRUE;
}

int check_main(int argc, char **argv)
{
	g_autofree char *variant_name = NULL, *time_spec = NULL;
	g_auto(GStrv) options = NULL;
	g_autofree char *items = NULL, *workdir = NULL, *hide = NULL;
	gboolean confine = FALSE;
	gint64 seed = 1;
	int players = 0;
	GOptionEntry entries[] = {
		{"variant", 0, 0, G_OPTION_ARG_STRING, &variant_name,
		 "the game (link, ...), or all: every one the bot does not decline", "NAME"},
		{"players", 0, 0, G_OPTION_ARG_INT, &players, "seats per game (default 2, or the variant's range)", "N"},
		{"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "the games' seed (default 1)", "N"},
		{"time", 0, 0, G_OPTION_ARG_STRING, &time_spec,
		 "time control, ms: bank:60000,inc:1000,move:5000,start:10000,grace:50,game:0", "SPEC"},
		{"option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options, "a variant option", "KEY=VALUE"},
		{"items", 0, 0, G_OPTION_ARG_STRING, &items, "only these items (comma-separated)", "ITEM,..."},
		{"workdir", 0, 0, G_OPTION_ARG_FILENAME, &workdir,
		 "the bots' working directory (bound in the jail, as a bots file's workdir=)", "DIR"},
		{"confine", 0, 0, G_OPTION_ARG_NONE, &confine,
		 "jailed, show the bots of the host's files only --workdir: bind what their commands name only "
		 "inside it (a ladder's submitted bot)", NULL},
		{"hide", 0, 0, G_OPTION_ARG_FILENAME, &hide,
		 "jailed, bind nothing in DIR but --workdir, whatever the commands name (a ladder's own directory)",
		 "DIR"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("BOT... - check bots against the protocol");
	g_autoptr(GError) err = NULL;

	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"Each BOT (a command line) plays games against copies of itself and is\n"
		"put through: handshake, game, multi, unknown (lines of unknown types),\n"
		"start-up (time to hello, jailed), stateless (a state from mid-game),\n"
		"tight-time (a `go 100`), tight-worst (ten, the slowest), realtime (rush:\n"
		"reaction against the default pace), memory (peak, jailed), talk-say,\n"
		"talk-offer, talk-gift, talk-traded (matrix: table talk from the\n"
		"other seats, played by the checker), quit.\n"
		"Timed items give the margin against the move time and the grace apart;\n"
		"an answer inside the grace, a slow start or a reaction over the pace is\n"
		"a warning, not a failure. Exit status 0 when every item passes.\n"
		"Numbers: --players the variant's range (default 2, or its least);\n"
		"--seed 0..9223372036854775807.", TRUE, TRUE);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		say_error(err);
		return 2;
	}
	Check c = {0};
	c.all = variant_name && strcmp(variant_name, "all") == 0;
	const Variant *one = variant_name && !c.all ? variant_find(variant_name) : NULL;
	if ((!one && !c.all) || argc < 2) {
		fprintf(stderr, "referee: check: want --variant NAME (a known one, or all) and at least one BOT\n");
		return 2;
	}
	const Variant *const *all = variant_all();
	gboolean skip;
	for (int k = 0; c.all ? all[k] != NULL : k == 0; k++)
		if (!configure(&c, c.all ? all[k] : one, players, options, &skip))
			return 2;
	c.seed = (guint64)seed;
	if (items)
		c.items = g_strsplit(items, ",", -1);
	c.workdir = workdir;
	c.confine = confine;
	c.hide[0] = hide;
	timectl_default(&c.tc);
	if (time_spec && !timectl_parse(&c.tc, time_spec, &err)) {
		fprintf(stderr, "referee: check: --time: %s\n", err->message);
		return 2;
	}
	c.dir = g_dir_make_tmp("tetrarena-check-XXXXXX", &err);
	if (!c.dir) {
		say_error(err);
		return 1;
	}
	gboolean ran = TRUE;
	printf("note: bots run with a clean environment (PATH, HOME, TMPDIR, LANG=C): parameters passed in\n"
	       "      other environment variables do not reach them; pass them on the command line\n");
	for (int k = 0; ran && (c.all ? all[k] != NULL : k == 0); k++) {
		configure(&c, c.all ? all[k] : one, players, options, &skip);
		if (skip) {
			printf("%s: %d players cannot play it: not checked\n", c.v->name, players);
			continue;
		}
		for (int i = 1; i < argc && ran; i++)
			ran = check_bot(&c, argv[i], i);
	}
	if (!ran)
		c.failed++;
	if (ran && c.all && c.checked == 0 && !c.failed) {
		printf("  FAILED  no variant checked: every one was declined or cannot have the seats asked for\n");
		c.failed++;
	}
	if (c.failed) {
		printf("%d item%s FAILED; logs in %s\n", c.failed, c.failed == 1 ? "" : "s", c.dir);
	} else {
		if (c.warned)
			printf("every item passed, %d with a warning\n", c.warned);
		else
			printf("every item passed\n");
		g_autoptr(GDir) d = g_dir_open(c.dir, 0, NULL);
		const char *name;
		while (d && (name = g_dir_read_name(d))) {
			g_autofree char *path = g_build_filename(c.dir, name, NULL);
			g_remove(path);
		}
		g_rmdir(c.dir);
	}
	g_free(c.dir);
	g_strfreev(c.items);
	return c.failed ? 1 : 0;
}
