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
#include "variant.h"

#define CHECK_TIGHT_MS 100	/* the `go` of the tight-time item */
#define CHECK_QUIT_MS 500	/* how long a bot may take to exit on `quit` */
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
	int failed;		/* items failed, all bots */
} Check;

static void item(Check *c, gboolean ok, const char *name, const char *what, const char *line,
		 const char *hint)
{
	printf("  %-7s %-11s %s\n", ok ? "ok" : "FAILED", name, what);
	if (ok)
		return;
	c->failed++;
	if (line)
		printf("          the line: %s\n", line);
	if (hint)
		printf("          hint: %s\n", hint);
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
		fprintf(stderr, "referee: check: %s\n", err->message);
		return FALSE;
	}
	for (int p = 0; keep && p < res->nseats; p++) {
		kept[p] = res->seat[p].bot;
		res->seat[p].bot = NULL;
	}
	return TRUE;
}

/* Report a game's item: no fault and a log that verifies. */
static void game_item(Check *c, const char *name, const char *what, const char *log,
		      const char *hint)
{
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL, *why = NULL;

	if (first_fault(log, &fwhat, &kind, &line)) {
		g_autofree char *desc = g_strdup_printf("%s: %s (log %s)", what, fwhat, log);
		item(c, FALSE, name, desc, line, hint ? hint : fault_hint(kind));
	} else if (!log_verifies(log, &why)) {
		g_autofree char *desc = g_strdup_printf("%s: the log does not verify: %s", what, why);
		item(c, FALSE, name, desc, NULL, "report this: a game without faults must verify");
	} else {
		item(c, TRUE, name, what, NULL, NULL);
	}
}

/* ---- driving one process by hand ------------------------------------ */

/* The bot's next line before `deadline`, or NULL (*eof set once it closed
 * its output or sent an overlong line). Valid until the next call. */
static const char *next_line(Bot *b, gint64 deadline, gboolean *eof)
{
	const char *line;

	*eof = FALSE;
	for (;;) {
		BotLineStatus st = bot_next_line(b, &line);
		if (st == BOT_LINE_OK)
			return line;
		if (st == BOT_LINE_TOO_LONG || bot_eof(b)) {
			*eof = TRUE;
			return NULL;
		}
		gint64 now = g_get_monotonic_time();
		if (now >= deadline)
			return NULL;
		struct pollfd pfd[2] = {{.fd = bot_stdout_fd(b), .events = POLLIN},
					{.fd = bot_stderr_fd(b), .events = POLLIN}};
		nfds_t n = bot_stderr_fd(b) >= 0 ? 2 : 1;
		if (poll(pfd, n, (int)MIN((deadline - now + 999) / 1000, G_MAXINT32)) < 0 && errno != EINTR)
			return NULL;
		if (n == 2 && pfd[1].revents)
			bot_drain_stderr(b);
		if (pfd[0].revents)
			bot_read(b);
	}
}

/* Wait for a line of type `verb` (others are skipped; a decline stands
 * for a hello): a copy, or NULL
 * with *why (replaced, newly allocated) saying what happened instead: for
 * a bot that closed its output, how its process ended, waited for no
 * longer than the grace margin. */
static char *await(const Check *c, Bot *b, ProtocolVerb verb, gint64 deadline, char **why)
{
	gboolean eof;
	const char *line;

	while ((line = next_line(b, deadline, &eof)))
		if (protocol_verb(line) == verb ||
		    (verb == PROTOCOL_HELLO && protocol_verb(line) == PROTOCOL_DECLINE))
			return g_strdup(line);
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

/* The stateless, tight-time and quit items, on one fresh process. */
static void check_direct(Check *c, const BotSpec *bs)
{
	const Variant *v = c->v;
	g_autofree void *state = g_malloc0(v->state_size);
	g_autofree Move *scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	Rng rng;
	int seat = -1;
	gboolean found = FALSE;

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
	const SandboxLaunch launch = {.mode = mode, .hide = NULL, .cpu = -1};
	g_autoptr(Bot) b = bot_spawn(bs, errpath, &launch, &err);
	if (!b) {
		item(c, FALSE, "stateless", err->message, NULL, fault_hint("start"));
		return;
	}
	g_autofree char *game = protocol_game_line(v, &c->cfg, &c->tc, seat, 1);
	g_autofree char *head = g_strconcat(protocol_greeting(), "\n", game, "\n", NULL);
	gint64 now = g_get_monotonic_time();
	g_autofree char *why = NULL;
	g_autofree char *hello = NULL;
	if (bot_write(b, head, strlen(head), now + 1000000) == BOT_WRITE_OK)
		hello = await(c, b, PROTOCOL_HELLO, now + (c->tc.start + c->tc.grace) * 1000, &why);
	ProtocolHello said = {0};
	if (!hello || protocol_verb(hello) != PROTOCOL_HELLO) {
		item(c, FALSE, "stateless", "no hello to a fresh `game` line", hello ? hello : why,
		     fault_hint("start"));
		return;
	}
	gboolean moves = protocol_parse_hello(hello, &said) && said.moves;
	protocol_hello_clear(&said);

	/* stateless: the first `go` this process sees is from mid-game */
	int ms = (int)MIN(c->tc.bank, c->tc.move);
	g_autofree char *go = go_lines(c, state, seat, moves, ms, scratch);
	g_autofree char *reply = NULL;
	now = g_get_monotonic_time();
	if (bot_write(b, go, strlen(go), now + 1000000) == BOT_WRITE_OK)
		reply = await(c, b, PROTOCOL_MOVE, now + ((gint64)ms + c->tc.grace) * 1000, &why);
	Move m;
	g_autofree char *desc = g_strdup_printf("a fresh process asked about a state from mid-game (seat %d)", seat);
	if (!reply) {
		item(c, FALSE, "stateless", desc, why,
		     "answer every `go` from its state alone: a bot is not sent what came before");
		return;
	}
	gboolean legal = v->move_parse(state, seat, protocol_move_text(reply), &m) &&
			 variant_move_is_legal(v, state, seat, m, scratch);
	item(c, legal, "stateless", desc, reply,
	     "answer every `go` from its state alone: a bot is not sent what came before");

	/* tight time: the same state with CHECK_TIGHT_MS */
	g_autofree char *tight = go_lines(c, state, seat, moves, CHECK_TIGHT_MS, scratch);
	g_autofree char *fast = NULL;
	now = g_get_monotonic_time();
	if (bot_write(b, tight, strlen(tight), now + 1000000) == BOT_WRITE_OK)
		fast = await(c, b, PROTOCOL_MOVE, now + ((gint64)CHECK_TIGHT_MS + c->tc.grace) * 1000, &why);
	double took = (double)(g_get_monotonic_time() - now) / 1000.0;
	g_autofree char *tdesc = fast ? g_strdup_printf("a `go %d` answered in %.1f ms", CHECK_TIGHT_MS, took)
				      : g_strdup_printf("a `go %d` not answered in time", CHECK_TIGHT_MS);
	item(c, fast != NULL, "tight-time", tdesc, fast ? NULL : why,
	     "spend at most the MS of `go` (less a margin for start-up of the reply)");

	/* quit */
	now = g_get_monotonic_time();
	gboolean gone = FALSE;
	g_autofree char *quit = g_strconcat(protocol_quit(), "\n", NULL);
	if (bot_write(b, quit, strlen(quit), now + 1000000) == BOT_WRITE_OK) {
		/* (closing its input is part of bot_wait_exit: wait for the
		 * exit by polling instead, so `quit` alone is tested) */
		while (!(gone = bot_ended(b, g_get_monotonic_time())) && g_get_monotonic_time() < now + CHECK_QUIT_MS * 1000) {
			gboolean eof;
			next_line(b, MIN(g_get_monotonic_time() + 10000, now + CHECK_QUIT_MS * 1000), &eof);
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
		fprintf(stderr, "referee: check: %s\n", err->message);
		return FALSE;
	}
	printf("%s: %s, %d players\n", command, c->v->name, c->cfg.nplayers);
	int failed_before = c->failed;

	/* handshake and a whole game */
	g_autofree char *log1 = g_strdup_printf("%s/bot%d-game.log", c->dir, index);
	if (!play(c, bs, kept, TRUE, NULL, log1, c->seed, &res))
		return FALSE;
	g_autofree char *fwhat = NULL, *kind = NULL, *line = NULL;
	gboolean started = !(first_fault(log1, &fwhat, &kind, &line) &&
			     (strcmp(kind, "start") == 0 || strcmp(kind, "declined") == 0));
	g_autofree char *hello = log_line(log1, PROTOCOL_HELLO);
	item(c, started, "handshake", started ? hello : fwhat, started ? NULL : line,
	     started ? NULL : fault_hint(kind));
	gboolean multi = res.seat[0].bot || kept[0];
	game_result_clear(&res);
	g_autofree char *gwhat = g_strdup_printf("a whole game (seed %" G_GUINT64_FORMAT ")", c->seed);
	game_item(c, "game", gwhat, log1, NULL);

	/* multi: the same processes again */
	ProtocolHello said = {0};
	gboolean announced = hello && protocol_parse_hello(hello, &said) && said.multi;
	protocol_hello_clear(&said);
	if (!announced) {
		item(c, TRUE, "multi", "not announced: every game gets a fresh process", NULL, NULL);
	} else {
		g_autofree char *log2 = g_strdup_printf("%s/bot%d-multi.log", c->dir, index);
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
	g_autofree char *log3 = g_strdup_printf("%s/bot%d-unknown.log", c->dir, index);
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

int check_main(int argc, char **argv)
{
	g_autofree char *variant_name = NULL, *time_spec = NULL;
	g_auto(GStrv) options = NULL;
	gint64 seed = 1;
	int players = 0;
	GOptionEntry entries[] = {
		{"variant", 0, 0, G_OPTION_ARG_STRING, &variant_name, "the game (link, ...)", "NAME"},
		{"players", 0, 0, G_OPTION_ARG_INT, &players, "seats per game (default 2, or the variant's range)", "N"},
		{"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "the games' seed (default 1)", "N"},
		{"time", 0, 0, G_OPTION_ARG_STRING, &time_spec,
		 "time control, ms: bank:60000,inc:1000,move:5000,start:10000,grace:50,game:0", "SPEC"},
		{"option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options, "a variant option", "KEY=VALUE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("BOT... - check bots against the protocol");
	g_autoptr(GError) err = NULL;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Each BOT (a command line) plays games against copies of itself and is\n"
		"put through: handshake, a whole game, multi, unknown lines, a state from\n"
		"mid-game, a tight `go`, quit. Exit status 0 when every item passes.");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "referee: check: %s\n", err->message);
		return 2;
	}
	Check c = {0};
	c.v = variant_name ? variant_find(variant_name) : NULL;
	if (!c.v || argc < 2) {
		fprintf(stderr, "referee: check: want --variant NAME (a known one) and at least one BOT\n");
		return 2;
	}
	if (players == 0)
		players = CLAMP(2, c.v->min_players, c.v->max_players);
	if (players < c.v->min_players || players > c.v->max_players) {
		fprintf(stderr, "referee: check: %s takes %d to %d players\n", c.v->name, c.v->min_players,
			c.v->max_players);
		return 2;
	}
	variant_config_default(c.v, players, &c.cfg);
	for (int i = 0; options && options[i]; i++) {
		char *eq = strchr(options[i], '=');
		VariantError ve = VARIANT_OK;
		if (eq) {
			*eq = '\0';
			ve = variant_option_set(c.v, &c.cfg, options[i], eq + 1);
		}
		if (!eq || ve != VARIANT_OK) {
			fprintf(stderr, "referee: check: bad --option %s\n", options[i]);
			return 2;
		}
	}
	c.seed = (guint64)seed;
	timectl_default(&c.tc);
	if (time_spec && !timectl_parse(&c.tc, time_spec, &err)) {
		fprintf(stderr, "referee: check: --time: %s\n", err->message);
		return 2;
	}
	c.dir = g_dir_make_tmp("tetrarena-check-XXXXXX", &err);
	if (!c.dir) {
		fprintf(stderr, "referee: check: %s\n", err->message);
		return 1;
	}
	gboolean ran = TRUE;
	for (int i = 1; i < argc && ran; i++)
		ran = check_bot(&c, argv[i], i);
	if (!ran)
		c.failed++;
	if (c.failed) {
		printf("%d item%s FAILED; logs in %s\n", c.failed, c.failed == 1 ? "" : "s", c.dir);
	} else {
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
	return c.failed ? 1 : 0;
}
