/*
 * check-items: the items of `referee check` that drive one fresh process
 * by hand, line by line (start-up, stateless, tight-time, tight-worst,
 * realtime, memory, quit): check_direct(). Part of the check module, see
 * check.c and check-int.h.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "check-int.h"
#include "sandbox.h"
#include "text.h"

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

/* A timed item: ok, or a warning when it used the grace, or FAILED;
 * `took` against `limit` ms as its figure. */
static void timed(Check *c, gboolean ok, gboolean graced, const char *name, const char *what, const char *line,
		  const char *hint, double took, double limit)
{
	CheckVerdict v = !ok ? CHECK_FAILED : graced ? CHECK_WARN : CHECK_OK;

	check_item(c, v, name, what, line, v == CHECK_WARN ? grace_note : hint, took, limit, "ms");
}

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
			*why = check_control_text(line);
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
char *check_go_lines(const Check *c, const void *state, int p, gboolean moves, int ms, Move *scratch)
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
			check_pass(c, FALSE, "tight-worst", d, why,
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
	timed(c, TRUE, graced, "tight-worst", d, NULL, NULL, slowest, CHECK_TIGHT_MS);
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
	g_autofree char *go = check_go_lines(c, state, seat, moves, ms, scratch);
	for (int i = 0; i < CHECK_REALTIME_ACTIONS; i++) {
		gint64 at = g_get_monotonic_time();
		g_autofree char *reply = ask(c, b, go, ms, &took, &why);
		if (!reply) {
			check_pass(c, FALSE, "realtime", "a real-time `go` not answered in time", why,
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
		check_item(c, CHECK_OK, "realtime", d, NULL, NULL, mean, pace, "ms");
	} else {
		g_autofree char *d = g_strdup_printf("reaction %.1f ms on average (slowest %.1f ms) in %d actions "
						     "at the default pace of %d ms: %.1f ms over it, it would lose "
						     "%.0f actions per 100 against a bot inside the pace",
						     mean, slowest, CHECK_REALTIME_ACTIONS, pace, mean - pace, lost);
		check_item(c, CHECK_WARN, "realtime", d, NULL,
			  "a seat acts at most once a pace, and a bot answering within it is as fast as any: "
			   "answer within the pace (protocol.md, rush, \"The pace\")", mean, pace, "ms");
	}
	return TRUE;
}

/* The direct items (start-up, stateless, tight-time, tight-worst,
 * realtime, memory, quit), on one fresh process. */
void check_direct(Check *c, const BotSpec *bs)
{
	const Variant *v = c->v;
	g_autofree void *state = g_malloc0(v->state_size);
	g_autofree Move *scratch = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	Rng rng;
	int seat = -1;
	gboolean found = FALSE;

	if (!check_wanted(c, "start-up") && !check_wanted(c, "stateless") && !check_wanted(c, "tight-time") &&
	    !check_wanted(c, "tight-worst") && !check_wanted(c, "realtime") && !check_wanted(c, "memory") &&
	    !check_wanted(c, "quit") && !check_wanted(c, "talk-say") && !check_wanted(c, "talk-offer") &&
	    !check_wanted(c, "talk-gift") && !check_wanted(c, "talk-traded"))
		return;
	rng_seed(&rng, rng_derive(c->seed, "check", 0));
	for (int want = 8; !found; want /= 2) {
		found = midgame(c, state, want, &seat, scratch, &rng);
		if (want == 0)
			break;
	}
	if (!found) {
		check_pass(c, FALSE, "stateless", "no state to ask about (the game ends at once)", NULL, NULL);
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
		check_pass(c, FALSE, "start-up", err->message, NULL, check_fault_hint("start"));
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
		check_pass(c, FALSE, "start-up", "no hello to a fresh `game` line", hello ? hello : why,
		     check_fault_hint("start"));
		return;
	}
	TimeControl dtc;
	timectl_default(&dtc);
	if (check_wanted(c, "start-up")) {
		g_autofree char *d = g_strdup_printf("said hello %.1f ms after the start (%s), %.1f ms inside the "
						     "%" G_GINT64_FORMAT " ms start allowance (default %"
						     G_GINT64_FORMAT " ms)", started,
						     mode == SANDBOX_ON ? "jailed" : "not jailed: no jail here",
						     (double)c->tc.start - started, c->tc.start, dtc.start);
		gboolean slow = started > (double)c->tc.start / 2;
		check_item(c, slow ? CHECK_WARN : CHECK_OK, "start-up", d, NULL,
			   "more than half the start allowance: under load it may not be enough; load or compile "
			   "ahead of time", started, (double)c->tc.start, "ms");
	}
	gboolean moves = protocol_parse_hello(hello, &said) && said.moves;
	protocol_hello_clear(&said);

	/* stateless: the first `go` this process sees is from mid-game */
	int ms = (int)MIN(c->tc.bank, c->tc.move);
	g_autofree char *go = check_go_lines(c, state, seat, moves, ms, scratch);
	double took;
	g_autofree char *reply = ask(c, b, go, ms, &took, &why);
	Move m;
	if (check_wanted(c, "stateless")) {
		const char *hint = "answer every `go` from its state alone: a bot is not sent what came before";
		g_autofree char *desc = g_strdup_printf("a fresh process asked about a state from mid-game (seat %d)",
							seat);
		if (!reply) {
			check_pass(c, FALSE, "stateless", desc, why, hint);
			return;
		}
		gboolean legal = v->move_parse(state, seat, protocol_move_text(reply), &m) &&
				 variant_move_is_legal(v, state, seat, m, scratch);
		gboolean graced;
		g_autofree char *mg = margins(c, took, ms, &graced);
		g_autofree char *d2 = g_strdup_printf("%s, answered in %s", desc, mg);
		timed(c, legal, graced, "stateless", d2, reply, hint, took, ms);
	} else if (!reply) {
		return;
	}

	/* tight time: the same state with CHECK_TIGHT_MS */
	g_autofree char *tight = check_go_lines(c, state, seat, moves, CHECK_TIGHT_MS, scratch);
	if (check_wanted(c, "tight-time")) {
		g_autofree char *fast = ask(c, b, tight, CHECK_TIGHT_MS, &took, &why);
		gboolean graced;
		g_autofree char *mg = margins(c, took, CHECK_TIGHT_MS, &graced);
		g_autofree char *tdesc = fast ? g_strdup_printf("a `go %d` answered in %s", CHECK_TIGHT_MS, mg)
					      : g_strdup_printf("a `go %d` not answered in time", CHECK_TIGHT_MS);
		timed(c, fast != NULL, graced, "tight-time", tdesc, fast ? NULL : why,
		      "spend at most the MS of `go` (less a margin for start-up of the reply)", took, CHECK_TIGHT_MS);
		if (!fast)
			return;
	}
	if (check_wanted(c, "tight-worst") && !tight_repeat(c, b, tight))
		return;

	uint32_t mask;
	if (check_wanted(c, "realtime") && v->phase(state, &mask) == VARIANT_PHASE_REALTIME &&
	    !realtime(c, b, state, seat, moves, scratch))
		return;

	if (check_wanted(c, "memory")) {
		gint64 kib = peak_kib(bot_own_pid(b));
		BotLimits dl;
		bot_spec_limits_default(&dl);
		guint64 lim = bs->limits.memory;
		if (kib < 0) {
			check_pass(c, TRUE, "memory", "its peak not known here (no /proc entry of its process)", NULL, NULL);
		} else {
			g_autofree char *d = g_strdup_printf(
				"peak %.1f MiB resident (its main process, %s) against the memory limit of %s%"
				G_GUINT64_FORMAT " MiB (default %" G_GUINT64_FORMAT " MiB)", (double)kib / 1024,
				mode == SANDBOX_ON ? "jailed" : "not jailed", lim ? "" : "none, ",
				lim ? lim >> 20 : dl.memory >> 20, dl.memory >> 20);
			gboolean big = lim && (guint64)kib * 1024 > lim / 2;
			check_item(c, big ? CHECK_WARN : CHECK_OK, "memory", d, NULL,
				   "more than half the limit: the limit counts the heap, the games may grow it",
				   (double)kib, lim ? (double)(lim >> 10) : -1, "KiB");
		}
	}

	if (v->side && (check_wanted(c, "talk-say") || check_wanted(c, "talk-offer") || check_wanted(c, "talk-gift") ||
			check_wanted(c, "talk-traded")) && !check_talk(c, b, seat, moves, scratch))
		return;

	if (!check_wanted(c, "quit"))
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
	double waited = (double)(g_get_monotonic_time() - now) / 1000.0;
	g_autofree char *qdesc = gone ? g_strdup_printf("exited %.0f ms after `quit`", waited)
				      : g_strdup_printf("still running %d ms after `quit`", CHECK_QUIT_MS);
	check_item(c, gone ? CHECK_OK : CHECK_FAILED, "quit", qdesc, NULL,
		   "exit at once on `quit` (and at the end of input)", waited, CHECK_QUIT_MS, "ms");
}

