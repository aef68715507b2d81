/*
 * position: `referee position LOG --seat S (--step N | --all) [BOT]`, a
 * logged decision put to a bot again (a position debugger). The bot (the
 * logged one of that seat when BOT is not given) is sent exactly the lines
 * the seat received up to its N-th `go` (referee/position.h); printed are
 * its answer, its other lines (info) and stderr, the legal moves, the move
 * the logged bot played and whether the answer is legal. --all walks every
 * decision of the seat and lists those where the choice differs.
 * Exit status: 0 when every answer asked for is legal, 1 otherwise (or on
 * a failure), 2 on a usage error.
 *
 * A log is untrusted input: not jailed (--sandbox off, or auto where no
 * jail can be had), the logged command is run only with --trust-log;
 * otherwise BOT must name the bot again (cli_log_trusted()).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "referee/usage.h"
#include "referee/botspec.h"
#include "referee/gamelog.h"
#include "referee/position.h"
#include "referee/sandbox.h"

#define POSITION_SHOW_MOVES 200	/* legal moves printed at most */

/* A bot's text (or a log's: `how`) escaped for the terminal, as the log
 * escapes it (gamelog_escape()): in the buffer of slot 0-3, valid until
 * that slot's next use. */
static const char *shown(int slot, const char *text, GameLogEscape how)
{
	static char *kept[4];

	g_free(kept[slot]);
	kept[slot] = gamelog_escape(text, how);
	return kept[slot];
}

#define BOT(slot, text) shown(slot, text, 0)
#define LOGGED(slot, text) shown(slot, text, GAMELOG_ESCAPE_LOGGED)

/* `text` (escaped) cut to `max` bytes with "..." */
static void print_cut(const char *prefix, const char *text, gsize max, GameLogEscape how)
{
	g_autofree char *e = gamelog_escape(text, how);
	gsize len = strlen(e);

	printf("%s%.*s%s\n", prefix, (int)MIN(len, max), e, len > max ? "..." : "");
}

static void print_step(const PositionStep *s, int seat)
{
	printf("step %d of seat %d (log line %d), after the %u lines the seat received up to it:\n", s->step,
	       seat, s->lineno, s->sent);
	print_cut("  ", s->go, 300, GAMELOG_ESCAPE_LOGGED);
	if (s->answer)
		printf("answer: %s (%.1f ms), %s\n", BOT(0, s->answer), s->ms,
		       !s->known ? "legality unknown (the state did not parse)" : s->legal ? "legal" : "ILLEGAL");
	else
		printf("answer: none (%s)\n", s->why ? BOT(0, s->why) : "?");
	for (guint i = 0; i < s->said->len; i++)
		print_cut("its line: ", g_ptr_array_index(s->said, i), 300, 0);
	if (s->errtext && *s->errtext) {
		printf("its stderr:\n");
		g_auto(GStrv) lines = g_strsplit(s->errtext, "\n", -1);
		for (int i = 0; lines[i]; i++)
			if (lines[i][0] || lines[i + 1])
				printf("  | %s\n", BOT(0, lines[i]));
	} else {
		printf("its stderr: (nothing)\n");
	}
	if (s->known) {
		printf("legal moves (%u):", s->moves->len);
		for (guint i = 0; i < s->moves->len && i < POSITION_SHOW_MOVES; i++)
			printf(" %s", (const char *)g_ptr_array_index(s->moves, i));
		if (s->moves->len > POSITION_SHOW_MOVES)
			printf(" ... (%u more)", s->moves->len - POSITION_SHOW_MOVES);
		printf("\n");
	}
	printf("the logged bot played: %s\n", s->played ? LOGGED(0, s->played) : "(no move: see the log)");
	if (s->answer && s->played)
		printf("%s\n", s->same ? "the same move as the logged bot" : "a different move from the logged bot's");
}

int cmd_position(int argc, char **argv)
{
	int seat = 0, step = 0;
	gboolean all = FALSE, trust_log = FALSE;
	g_autofree char *sandbox_name = NULL;
	GOptionEntry entries[] = {
		{"seat", 0, 0, G_OPTION_ARG_INT, &seat, "the seat whose decisions to ask about (default 0)", "S"},
		{"step", 0, 0, G_OPTION_ARG_INT, &step, "its N-th decision (its N-th `go`, from 1)", "N"},
		{"all", 0, 0, G_OPTION_ARG_NONE, &all, "every decision of the seat: where the choice differs", NULL},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name, "jail the bot: auto (default), on, off", "MODE"},
		{"trust-log", 0, 0, G_OPTION_ARG_NONE, &trust_log, "not jailed, run the bot command the log names "
		 "all the same (without it, name the bot as BOT)", NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG [BOT] - put a logged decision to a bot again");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"The bot (BOT, a command line; by default the logged bot of the seat) is\n"
		"sent exactly the lines the seat received up to its N-th `go` and its\n"
		"answer, its other lines, its stderr, the legal moves and the logged\n"
		"bot's move are shown. With --all every decision is asked, in one\n"
		"process, and those where the answer differs are listed.\n"
		"Not jailed (--sandbox off), the logged command runs only with --trust-log:\n"
		"a log from elsewhere may name any command.\n"
		"Exit status 0 when every answer asked for is legal.\n"
		"Numbers: --seat 0..players-1 of the log; --step 1..the seat's `go` count.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc < 2 || argc > 3)
		return cli_usage_error("position: want LOG and at most one BOT");
	if (all == (step > 0))
		return cli_usage_error("position: want --step N (from 1) or --all");
	SandboxMode want = SANDBOX_AUTO, mode;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &want))
		return cli_usage_error("position: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	if (seat < 0 || seat >= log->config.nplayers)
		return cli_usage_error("position: the log has seats 0 to %d", log->config.nplayers - 1);
	g_autoptr(GError) err = NULL;
	if (!sandbox_resolve(want, &mode, &err)) {
		cli_error("position", err);
		return 1;
	}
	if (argc == 2 && mode == SANDBOX_OFF && !trust_log &&
	    !cli_log_trusted("position", argv[1], (const char *const *)log->command + seat, 1))
		return 1;
	const char *command = argc == 3 ? argv[2] : log->command[seat];
	g_autoptr(BotSpec) bs = bot_spec_new(command, NULL, &err);
	if (!bs) {
		cli_error("position", err);
		return 1;
	}
	if (argc == 2)
		bs->workdir = g_strdup(log->workdir[seat]);
	g_autoptr(GPtrArray) steps = position_run(log, seat, all ? 0 : step, bs, mode, &err);
	if (!steps) {
		cli_error("position", err);
		return 1;
	}
	printf("%s, seat %d (%s), asked of: %s\n", argv[1], seat, LOGGED(0, log->name[seat]), LOGGED(1, command));
	if (steps->len == 0) {
		printf("the bot stopped before its first decision (no hello or no answer)\n");
		return 1;
	}
	if (!all) {
		const PositionStep *s = g_ptr_array_index(steps, steps->len - 1);
		if (s->step != step) {
			printf("the bot stopped before step %d: %s\n", step, s->why ? BOT(0, s->why) : "?");
			return 1;
		}
		print_step(s, seat);
		return s->answer && (s->legal || !s->known) ? 0 : 1;
	}
	int differ = 0, bad = 0;
	for (guint i = 0; i < steps->len; i++) {
		const PositionStep *s = g_ptr_array_index(steps, i);
		gboolean ok = s->answer && (s->legal || !s->known);
		bad += !ok;
		if (ok && s->same)
			continue;
		differ++;
		if (s->answer)
			printf("  step %d (log line %d): logged %s, new %s%s\n", s->step, s->lineno,
			       s->played ? LOGGED(0, s->played) : "(none)", BOT(1, s->answer), ok ? "" : " (ILLEGAL)");
		else
			printf("  step %d (log line %d): logged %s, no new answer (%s)\n", s->step, s->lineno,
			       s->played ? LOGGED(0, s->played) : "(none)", s->why ? BOT(1, s->why) : "?");
	}
	printf("%u decisions of seat %d asked, %d answered otherwise than the logged bot, %d not legal or "
	       "not answered\n", steps->len, seat, differ, bad);
	return bad ? 1 : 0;
}
