/*
 * view: `referee view [--step] [--no-colour] LOG`, a logged game move by
 * move on the terminal (replay_view(), referee/replay.h), or with --html
 * the same game as one self-contained web page (html_replay_page(),
 * referee/html.h) in LOG.html, -o FILE or on stdout (-o -).
 */
#include <stdio.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "referee/usage.h"
#include "referee/gamelog.h"
#include "referee/html.h"
#include "referee/replay.h"

/* view --html: write the replay page to `out` ("-" for stdout). */
static int view_html(const GameLog *log, const char *out)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *json = replay_json(log, &err);
	if (!json) {
		cli_error("view", err);
		return 1;
	}
	g_autofree char *base = g_path_get_basename(log->path);
	g_autofree char *title = g_strdup_printf("%s: %s", log->variant->title, base);
	g_autofree char *page = html_replay_page(title, json);
	if (g_strcmp0(out, "-") == 0) {
		fputs(page, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (!g_file_set_contents(out, page, -1, &err)) {
		cli_error("view", err);
		return 1;
	}
	return 0;
}

int cmd_view(int argc, char **argv)
{
	gboolean step = FALSE, colour = isatty(STDOUT_FILENO), no_colour = FALSE, html = FALSE;
	g_autofree char *out = NULL;
	GOptionEntry entries[] = {
		{"step", 0, 0, G_OPTION_ARG_NONE, &step, "wait for Enter between moves", NULL},
		{"no-colour", 0, 0, G_OPTION_ARG_NONE, &no_colour, "plain ASCII even on a terminal", NULL},
		{"html", 0, 0, G_OPTION_ARG_NONE, &html, "write a self-contained HTML replay (default LOG.html)", NULL},
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "with --html: the page's file (- for stdout)", "FILE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - show a logged game move by move");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"Plain: the header, then after each move its notation and the board (ANSI\n"
		"colours on a terminal). --html: one self-contained web page, stepped with\n"
		"buttons, slider and keys (docs/viewer.md). Numbers: none.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("view: want exactly one LOG");
	if (out && !html)
		return cli_usage_error("view: -o goes with --html");
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	if (html) {
		if (!out)
			out = g_strdup_printf("%s.html", argv[1]);
		return view_html(log, out);
	}
	g_autoptr(GError) err = NULL;
	if (!replay_view(log, colour && !no_colour, step, stdout, stdin, &err)) {
		fflush(stdout);
		cli_error("view", err);
		return 1;
	}
	return 0;
}
