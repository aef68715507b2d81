/*
 * serve: `referee serve [--listen HOST:PORT] [--public[=NAME]] [--bots FILE]`
 * [limits]:
 * play our bots (and a bots file's) in the browser, and watch every game
 * live; or `referee serve --ladder DIR`: a ladder's pages, live from its
 * database, with the authors' pages (sign up, log in, upload: server/
 * accounts.h; --https-proxy when a TLS proxy fronts it). The server is server/server.h's; this file reads the options,
 * finds the opponents (bin/bot-* beside this program, our AIs at each
 * level, then the file's bots), prints the address and runs the main loop until Ctrl-C.
 */
#include <errno.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "ladder/db.h"
#include "referee/botspec.h"
#include "referee/sandbox.h"
#include "referee/usage.h"
#include "server/server.h"

/* Our bots: the bot-* programs beside this program, by name. */
static void our_bots(GPtrArray *out)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *dir = exe ? g_path_get_dirname(exe) : g_strdup("bin");
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	while (d && (name = g_dir_read_name(d)))
		if (g_str_has_prefix(name, "bot-"))
			g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	for (guint i = 0; i < names->len; i++) {
		name = *(const char **)&names->pdata[i];
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *quoted = g_shell_quote(path);
		if (!g_file_test(path, G_FILE_TEST_IS_EXECUTABLE))
			continue;
		BotSpec *b = bot_spec_new(quoted, name, NULL);
		if (b)
			g_ptr_array_add(out, b);
		/* our AIs' weaker levels (docs/ai/README.md, Levels): NAME-level1..4,
		 * NAME itself being level 5 */
		static const char *const ais[] = {"bot-link", "bot-tetroll", "bot-rush", "bot-matrix", NULL};
		if (!g_strv_contains(ais, name))
			continue;
		for (int level = 1; level < 5; level++) {
			g_autofree char *command = g_strdup_printf("%s --level %d", quoted, level);
			g_autofree char *label = g_strdup_printf("%s-level%d", name, level);
			if ((b = bot_spec_new(command, label, NULL)))
				g_ptr_array_add(out, b);
		}
	}
}

/* --public, and --public=NAME (any number): the names are kept. */
static GPtrArray *public_names;
static gboolean public_ok;

static gboolean public_option(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)data, (void)error;
	public_ok = TRUE;
	if (value)
		g_ptr_array_add(public_names, g_strdup(value));
	return TRUE;
}

/* Every connection is a file descriptor: take what the hard limit allows
 * (the server fits its cap on connections under it: server/conns.h). */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static gboolean stop(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

int cmd_serve(int argc, char **argv)
{
	g_autofree char *listen = NULL, *bots_file = NULL, *output = NULL, *sandbox_name = NULL, *ladder = NULL;
	int queue_kib = 0, budget_mib = 0, max_conns = 0, per_client = 0, max_spect = 0, spect_per_client = 0;
	int idle_s = 0, header_s = 0, body_s = 0, stall_s = 0;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	public_names = names;
	public_ok = FALSE;
	int seat_grace = 0;
	gboolean https_proxy = FALSE;
	GOptionEntry entries[] = {
		{"listen", 'l', 0, G_OPTION_ARG_STRING, &listen, "the address to serve (default 127.0.0.1:8080; port 0: any free one)", "HOST:PORT"},
		{"public", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer)public_option, "allow an address other than loopback (nothing there is protected); --public=NAME, any number of times: also a name it is reached by (a Host header)", "NAME"},
		{"bots", 0, 0, G_OPTION_ARG_FILENAME, &bots_file, "more opponents: a bots file ([bot NAME] groups, or [bots])", "FILE"},
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "where games' logs go (default: a new directory in /tmp)", "DIR"},
		{"ladder", 0, 0, G_OPTION_ARG_FILENAME, &ladder, "serve this ladder's pages instead of the start page (docs/ladder.md)", "DIR"},
		{"https-proxy", 0, 0, G_OPTION_ARG_NONE, &https_proxy, "with --ladder: it sits behind an HTTPS proxy "
		 "(cookies Secure, forms' Origin https, the client's address from X-Forwarded-For)", NULL},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name, "jail the opponents: auto (default), on, off", "MODE"},
		{"max-connections", 0, 0, G_OPTION_ARG_INT, &max_conns, "connections open at once (default 4096, fitted under the descriptor limit)", "N"},
		{"max-per-client", 0, 0, G_OPTION_ARG_INT, &per_client, "connections from one client address (default 256)", "N"},
		{"max-spectators", 0, 0, G_OPTION_ARG_INT, &max_spect, "spectators at once (default 1024)", "N"},
		{"max-spectators-per-client", 0, 0, G_OPTION_ARG_INT, &spect_per_client, "spectators from one client address (default 64)", "N"},
		{"spectator-queue", 0, 0, G_OPTION_ARG_INT, &queue_kib, "KiB queued for a spectator before it is dropped (default 256)", "KIB"},
		{"spectator-budget", 0, 0, G_OPTION_ARG_INT, &budget_mib, "MiB queued for all spectators together (default 64)", "MIB"},
		{"idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle_s, "close a connection where nothing moves for S seconds (default 10)", "S"},
		{"header-timeout", 0, 0, G_OPTION_ARG_INT, &header_s, "a request's headers within S seconds of the connection's opening (default 10)", "S"},
		{"body-timeout", 0, 0, G_OPTION_ARG_INT, &body_s, "a request's body within S seconds of its headers (default 10)", "S"},
		{"stall-timeout", 0, 0, G_OPTION_ARG_INT, &stall_s, "drop a spectator whose stream makes no progress for S seconds (default 20)", "S"},
		{"seat-grace", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &seat_grace, "seconds every person's seat waits for its page to come back (tests; 0: by its clock)", "S"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- play our bots in the browser, and watch games live");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"Open the address it prints: choose a game, the opponents and the seats, and play\n"
		"by clicking; every game the server runs can be watched live. docs/serve.md.\n\n"
		"Numbers: --listen's PORT 0..65535 (0: any free port); --max-connections,\n"
		"--max-per-client, --max-spectators, --max-spectators-per-client 1..1000000;\n"
		"--spectator-queue 1..1048576 KiB; --spectator-budget 1..65536 MiB; the\n"
		"timeouts 1..3600 s (0 or absent: the default). The start page takes a seed\n"
		"0..18446744073709551615 and the time control below.", FALSE, TRUE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc > 1)
		return cli_usage_error("serve: unexpected argument '%s'", argv[1]);
	SandboxMode sandbox = SANDBOX_AUTO;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &sandbox))
		return cli_usage_error("serve: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	if (seat_grace < 0 || seat_grace > 86400)
		return cli_usage_error("serve: --seat-grace wants 0 to 86400 s");
	if (queue_kib < 0 || queue_kib > 1024 * 1024)
		return cli_usage_error("serve: --spectator-queue wants 1 to 1048576 KiB");
	if (budget_mib < 0 || budget_mib > 65536)
		return cli_usage_error("serve: --spectator-budget wants 1 to 65536 MiB");
	const struct {
		const char *name;
		int v, max;
	} nums[] = {
		{"--max-connections", max_conns, 1000000}, {"--max-per-client", per_client, 1000000},
		{"--max-spectators", max_spect, 1000000}, {"--max-spectators-per-client", spect_per_client, 1000000},
		{"--idle-timeout", idle_s, 3600}, {"--header-timeout", header_s, 3600},
		{"--body-timeout", body_s, 3600}, {"--stall-timeout", stall_s, 3600},
	};
	for (gsize i = 0; i < G_N_ELEMENTS(nums); i++)
		if (nums[i].v < 0 || nums[i].v > nums[i].max)
			return cli_usage_error("serve: %s wants 1 to %d", nums[i].name, nums[i].max);
	g_ptr_array_add(names, NULL);
	raise_nofile();

	g_autoptr(GPtrArray) opponents = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	our_bots(opponents);
	if (bots_file) {
		g_autoptr(GError) err = NULL;
		g_autoptr(GPtrArray) more = bot_spec_file_load_list(bots_file, &err);
		if (!more) {
			fprintf(stderr, "referee: %s\n", err->message);
			return 1;
		}
		for (guint i = 0; i < more->len; i++)
			g_ptr_array_add(opponents, bot_spec_copy(g_ptr_array_index(more, i)));
	}
	if (!output) {
		g_autoptr(GError) err = NULL;
		output = g_dir_make_tmp("tetrarena-serve-XXXXXX", &err);
		if (!output) {
			fprintf(stderr, "referee: %s\n", err->message);
			return 1;
		}
	} else if (g_mkdir_with_parents(output, 0755) != 0) {
		fprintf(stderr, "referee: cannot make %s: %s\n", output, g_strerror(errno));
		return 1;
	}
	g_autofree char *dir = g_canonicalize_filename(output, NULL);
	g_autofree char *ladder_dir = ladder ? g_canonicalize_filename(ladder, NULL) : NULL;
	if (ladder_dir) {	/* a ladder that cannot be read is said now, not at each page */
		g_autoptr(GError) err = NULL;
		g_autoptr(LadderDb) d = ladder_db_open(ladder_dir, FALSE, &err);
		if (!d) {
			fprintf(stderr, "referee: serve --ladder: %s\n", err->message);
			return 1;
		}
	}
	if (https_proxy && !ladder_dir)
		return cli_usage_error("serve: --https-proxy goes with --ladder");
	g_autoptr(GError) aerr = NULL;
	ServeAccounts *accounts = ladder_dir ? serve_accounts_new(ladder_dir, https_proxy, &aerr) : NULL;
	if (ladder_dir && !accounts) {
		fprintf(stderr, "referee: serve --ladder: %s\n", aerr->message);
		return 1;
	}
	ServerConfig cfg = {
		.listen = listen ? listen : "127.0.0.1:8080",
		.public_ok = public_ok,
		.names = (const char *const *)names->pdata,
		.opponents = opponents,
		.dir = dir,
		.sandbox = sandbox,
		.spectators = {.cap = (gsize)queue_kib * 1024, .budget = (gsize)budget_mib * 1024 * 1024},
		.conns = {.max = (guint)max_conns, .per_client = (guint)per_client, .spectators = (guint)max_spect,
			  .spectators_per_client = (guint)spect_per_client, .idle_s = (guint)idle_s,
			  .header_s = (guint)header_s, .body_s = (guint)body_s, .stall_s = (guint)stall_s},
		.ladder = ladder_dir,
		.accounts = accounts,
	};
	g_autoptr(GError) err = NULL;
	Server *server = server_new(&cfg, &err);
	if (!server) {
		fprintf(stderr, "referee: serve: %s\n", err->message);
		serve_accounts_free(accounts);
		return g_error_matches(err, SERVER_ERROR, SERVER_ERROR_ADDRESS) ? EXIT_USAGE : 1;
	}
	if (!ladder_dir) {	/* the games of earlier runs in the same directory */
		games_set_seat_grace(server_games(server), (gint64)seat_grace * 1000);
		games_load(server_games(server));
	}
	g_autofree char *url = server_url(server);
	if (!server_loopback(server) && ladder_dir)
		fprintf(stderr, "referee: serve: listening on %s, not loopback: authors log in over %s\n", cfg.listen,
			https_proxy ? "your HTTPS proxy" : "plain HTTP (no TLS: put an HTTPS proxy in front, --https-proxy)");
	else if (!server_loopback(server))
		fprintf(stderr, "referee: serve: listening on %s, not loopback: anyone who reaches it can start games "
			"(our bots run on this machine, jailed or not as --sandbox says), take a seat's page if they "
			"learn its link, and watch every game; there is no login and no TLS\n", cfg.listen);
	printf("serving %s (games' logs in %s; Ctrl-C stops)\n", url, dir);
	fflush(stdout);
	GMainLoop *loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGINT, stop, loop);
	g_unix_signal_add(SIGTERM, stop, loop);
	g_main_loop_run(loop);
	g_main_loop_unref(loop);
	server_free(server);
	serve_accounts_free(accounts);
	return 0;
}
