/*
 * check: `referee check --variant V [options] BOT...`, bots put through
 * the protocol item by item (compliance). The items are check_run()'s
 * (referee/check.h); this file parses the command line and prints them as
 * they come, or with --json the whole report as one JSON object (what the
 * ladder's admission reads).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "referee/check.h"
#include "referee/gamelog.h"
#include "referee/timectl.h"
#include "referee/usage.h"
#include "engine/variant.h"

/* A report's text, which may hold a bot's words or a log's, escaped for
 * the terminal as the log escapes a bot's line (gamelog_escape()). */
static char *shown(const char *text)
{
	return gamelog_escape(text, GAMELOG_ESCAPE_LINES | GAMELOG_ESCAPE_LOGGED);
}

/* An error on stderr, escaped as shown() does. */
static void say_error(const GError *err)
{
	g_autofree char *m = shown(err->message);

	fprintf(stderr, "referee: check: %s\n", m);
}

/* Print an item (or, item NULL, the heading of a bot on a variant) as it
 * is decided. */
static void print_item(const CheckReport *r, int bot, const char *variant, int players, const CheckItem *it,
		       gpointer data)
{
	(void)data;
	if (!it) {
		printf("%s: %s, %d players\n", r->bots[bot], variant, players);
		return;
	}
	g_autofree char *w = shown(it->what), *l = shown(it->line), *a = shown(it->after), *h = shown(it->hint);
	switch (it->verdict) {
	case CHECK_SKIP:
		if (it->bot < 0)
			printf("%s: %s: not checked\n", it->variant, it->what);
		else
			printf("  %-7s %-11s %s\n", "skip", it->name, w);
		break;
	case CHECK_WARN:
		printf("  %-7s %-11s %s\n", "warn", it->name, w);
		printf("          note: %s\n", h);
		break;
	case CHECK_OK:
		printf("  %-7s %-11s %s\n", "ok", it->name, w);
		break;
	case CHECK_FAILED:
		if (!it->name) {
			printf("  FAILED  %s\n", w);
			break;
		}
		printf("  %-7s %-11s %s\n", "FAILED", it->name, w);
		if (l)
			printf("          the line: %s\n", l);
		if (a)
			printf("          after the referee's: %s\n", a);
		if (h)
			printf("          hint: %s\n", h);
		break;
	}
	fflush(stdout);
}

int cmd_check(int argc, char **argv)
{
	g_autofree char *variant_name = NULL, *time_spec = NULL;
	g_auto(GStrv) options = NULL;
	g_autofree char *items = NULL, *workdir = NULL, *hide = NULL;
	gboolean confine = FALSE, json = FALSE;
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
		{"json", 0, 0, G_OPTION_ARG_NONE, &json,
		 "print the report as one JSON object at the end (the items, their verdicts and figures), "
		 "nothing else on standard output", NULL},
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
		return EXIT_USAGE;
	}
	gboolean all = variant_name && strcmp(variant_name, "all") == 0;
	if ((!all && !(variant_name && variant_find(variant_name))) || argc < 2) {
		fprintf(stderr, "referee: check: want --variant NAME (a known one, or all) and at least one BOT\n");
		return EXIT_USAGE;
	}
	g_auto(GStrv) only = items ? g_strsplit(items, ",", -1) : NULL;
	CheckSpec spec = {
		.bots = (const char *const *)argv + 1,
		.variant = variant_name,
		.players = players,
		.seed = (guint64)seed,
		.options = (const char *const *)options,
		.items = (const char *const *)only,
		.workdir = workdir,
		.confine = confine,
		.hide = hide,
		.progress = json ? NULL : print_item,
	};
	timectl_default(&spec.time);
	if (time_spec && !timectl_parse(&spec.time, time_spec, &err)) {
		fprintf(stderr, "referee: check: --time: %s\n", err->message);
		return EXIT_USAGE;
	}
	if (!check_spec_valid(&spec, &err)) {
		say_error(err);
		return EXIT_USAGE;
	}
	g_autoptr(CheckReport) r = check_report_new();
	if (!json)
		printf("note: bots run with a clean environment (PATH, HOME, TMPDIR, LANG=C): parameters passed in\n"
		       "      other environment variables do not reach them; pass them on the command line\n");
	gboolean ran = check_run(&spec, r, &err);
	if (!ran && g_error_matches(err, CHECK_ERROR, CHECK_ERROR_USAGE)) {
		say_error(err);
		return EXIT_USAGE;
	}
	if (json) {
		g_autofree char *text = check_report_json(r, err);
		fputs(text, stdout);
		if (!ran)
			say_error(err);
		return ran && !r->failed ? 0 : 1;
	}
	if (!ran) {
		say_error(err);
		if (!r->dir)
			return 1;
		r->failed++;
	}
	if (r->failed) {
		printf("%d item%s FAILED; logs in %s\n", r->failed, r->failed == 1 ? "" : "s", r->dir);
	} else if (r->warned) {
		printf("every item passed, %d with a warning\n", r->warned);
	} else {
		printf("every item passed\n");
	}
	return r->failed ? 1 : 0;
}
