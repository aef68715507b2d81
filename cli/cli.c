/*
 * cli: the helpers the subcommands share (cli/cli.h): usage errors, option
 * parsing and reading a log, each printing its message the same way, and
 * the program's own path for the commands a tournament suggests.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "referee: %s\n", msg);
	return EXIT_USAGE;
}

void cli_error(const char *what, const GError *err)
{
	g_autofree char *msg = gamelog_escape(err->message, GAMELOG_ESCAPE_LINES | GAMELOG_ESCAPE_LOGGED);

	fprintf(stderr, "referee: %s%s%s\n", what ? what : "", what ? ": " : "", msg);
}

gboolean cli_parse_options(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		fprintf(stderr, "referee: %s\n", err->message);
		return FALSE;
	}
	return TRUE;
}

GameLog *cli_load_log(const char *path)
{
	g_autoptr(GError) err = NULL;
	GameLog *log = gamelog_read(path, &err);

	if (!log)
		cli_error(NULL, err);
	return log;
}

gboolean cli_log_trusted(const char *what, const char *path, const char *const *commands, int n)
{
	int bots = 0;

	for (int i = 0; i < n; i++)
		bots += commands[i] && strcmp(commands[i], "human") != 0;
	if (!bots)
		return TRUE;
	g_autofree char *shown = g_strescape(path, NULL);
	fprintf(stderr, "referee: %s: not jailed (--sandbox off, or no jail here), the bot command%s %s names would "
		"run with all your rights, and a log from elsewhere may name any command: name %s again on the "
		"command line (%s), or give --trust-log if you trust the log\n", what, bots > 1 ? "s" : "", shown,
		bots > 1 ? "the bots" : "the bot", !strcmp(what, "rerun") ? "rerun LOG BOT..." : "position LOG BOT");
	for (int i = 0; i < n; i++)
		if (commands[i] && strcmp(commands[i], "human") != 0) {
			g_autofree char *c = g_strescape(commands[i], NULL);
			fprintf(stderr, "  %s\n", c);
		}
	return FALSE;
}

char *cli_program_path(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *cwd = g_get_current_dir();
	gsize n = strlen(cwd);

	if (!exe)
		return g_strdup("referee");
	if (!strncmp(exe, cwd, n) && exe[n] == '/')
		return g_strdup(exe + n + 1);
	return g_steal_pointer(&exe);
}
