/*
 * ladder: `referee ladder SUBCOMMAND DIR ...`, an open competition that
 * lives in DIR (its SQLite database, ladder/, and the games' logs):
 *
 *   ladder init DIR --variant V [--players P|MIN-MAX] [--time SPEC]
 *                   [--options K=V,...] [--seed S] [--sandbox MODE]
 *                   [--bot-size SIZE] [--bot-files N] [--suspend-after K]
 *   ladder add DIR NAME COMMAND|BOTDIR|ARCHIVE [--wait [--timeout S]]
 *                                        admission, then the name's next version;
 *                                        queued in DIR/inbox/ while a run goes on
 *   ladder run DIR [-j N] [--games N | --total N | --until TIME] [-q]
 *                  [--serve HOST:PORT [--public]]   its pages and live games
 *                  [--on-event CMD]     each event a JSON line on CMD's stdin
 *   ladder standings DIR [--games N] [--json]
 *   ladder retire DIR NAME [--wait]      (queued likewise)
 *   ladder resume DIR NAME [--wait]      lift a suspension (queued likewise)
 *   ladder feed DIR AUTHOR               an author's events as an Atom feed
 *   ladder verify DIR
 *   ladder pages DIR [OUT]               the leaderboard and bots' pages as files
 *   ladder set DIR signup=open|invite    who may sign up on `serve --ladder`
 *   ladder invite DIR                    a one-time signup code
 *   ladder admin DIR NAME < PASSWORD     the organizer's web account
 *   ladder backup DIR FILE               SQLite's online backup, while it runs
 *
 * Each subcommand parses its flags and calls one module of ladder/:
 * admit (add), run (run), rate (standings), verify, pages. Writers (init,
 * add, run, retire) take the ladder's lock (ladder/db.h); the others read.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <sodium.h>

#include "cli.h"
#include "ladder/accounts.h"
#include "ladder/admit.h"
#include "ladder/archive.h"
#include "ladder/botdir.h"
#include "ladder/db.h"
#include "ladder/events.h"
#include "ladder/inbox.h"
#include "ladder/intake.h"
#include "ladder/ladder.h"
#include "ladder/manifest.h"
#include "ladder/pages.h"
#include "ladder/rate.h"
#include "ladder/run.h"
#include "ladder/standings.h"
#include "ladder/verify.h"
#include "referee/json.h"
#include "server/watch.h"

static int fail(GError *err)
{
	fprintf(stderr, "referee ladder: %s\n", err->message);
	return 1;
}

/* `referee ladder --help`: each subcommand prints its help (its options
 * from its own table) instead of parsing, then returns. */
static gboolean describe_only;

/* Parse flags; argv[0] is the subcommand. */
static gboolean parse(const char *args, const char *summary, GOptionEntry *entries, int *argc, char ***argv)
{
	g_autofree char *what = g_strdup_printf("%s - %s", args, summary);
	g_autoptr(GOptionContext) ctx = g_option_context_new(what);

	if (entries)
		g_option_context_add_main_entries(ctx, entries, NULL);
	if (describe_only) {
		g_option_context_set_help_enabled(ctx, FALSE);
		g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
		g_autoptr(GString) h = g_string_new(help);
		g_autofree char *self = g_strdup_printf("referee ladder %s", (*argv)[0]);
		g_string_replace(h, "(null)", self, 1);
		printf("\n%s", h->str);
		return FALSE;
	}
	return cli_parse_options(ctx, argc, argv);
}

/* What a subcommand that opens a ladder takes. */
typedef struct {
	const char *args;	/* "DIR NAME ..." for --help and usage errors */
	const char *summary;
	int min, max;		/* words after the subcommand, DIR first */
	gboolean write;		/* take the writer's lock */
	gboolean queue;		/* when `ladder run` holds it: return NULL with
				 * *rc RC_QUEUE, said nothing (the request goes
				 * to the inbox) */
} Usage;

#define RC_QUEUE (-1)

/* Whether a running `ladder run` holds DIR's writer's lock. */
static gboolean run_holds(const char *dir)
{
	g_autofree char *who = ladder_db_writer(dir);

	return who && g_str_has_suffix(who, " ladder run");
}

/* Parse the flags, check the words, open DIR. NULL with *rc set: EXIT_USAGE,
 * or 1 after saying why. */
static LadderDb *start(const Usage *u, GOptionEntry *entries, int *argc, char ***argv, int *rc)
{
	g_autoptr(GError) err = NULL;

	*rc = EXIT_USAGE;
	if (!parse(u->args, u->summary, entries, argc, argv))
		return NULL;
	if (*argc - 1 < u->min || *argc - 1 > u->max) {
		cli_usage_error("ladder %s: want %s", (*argv)[0], u->args);
		return NULL;
	}
	*rc = 1;
	LadderDb *d = ladder_db_open((*argv)[1], u->write, &err);
	if (!d && u->queue && g_error_matches(err, LADDER_DB_ERROR, LADDER_DB_ERROR_BUSY) && run_holds((*argv)[1]))
		*rc = RC_QUEUE;
	else if (!d)
		fail(err);
	return d;
}

/* ---- init ------------------------------------------------------------------ */

static int ladder_init(int argc, char **argv)
{
	g_autofree char *variant = NULL, *players = NULL, *time = NULL, *options = NULL, *seed = NULL;
	g_autofree char *sandbox = NULL, *bot_size = NULL, *bot_files = NULL, *suspend = NULL, *signup = NULL;
	GOptionEntry entries[] = {
		{"variant", 0, 0, G_OPTION_ARG_STRING, &variant, "the game (link, tetroll, rush, matrix)", "V"},
		{"players", 0, 0, G_OPTION_ARG_STRING, &players, "seats per game (default: the variant's range)",
		 "P|MIN-MAX"},
		{"time", 0, 0, G_OPTION_ARG_STRING, &time, "time control, as `play --time`", "SPEC"},
		{"options", 0, 0, G_OPTION_ARG_STRING, &options, "variant options", "K=V,..."},
		{"seed", 0, 0, G_OPTION_ARG_STRING, &seed, "master seed (default: drawn from the OS)", "S"},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox, "jail the bots: auto, on, off", "MODE"},
		{"bot-size", 0, 0, G_OPTION_ARG_STRING, &bot_size, "a submitted directory's files at most SIZE bytes "
		 "(K, M, G: KiB, MiB, GiB; default 64M)", "SIZE"},
		{"bot-files", 0, 0, G_OPTION_ARG_STRING, &bot_files, "a submitted directory's entries at most N "
		 "(default 2000)", "N"},
		{"suspend-after", 0, 0, G_OPTION_ARG_STRING, &suspend, "suspend an entry after K faulted games in a "
		 "row (default 5; 0: never)", "K"},
		{"signup", 0, 0, G_OPTION_ARG_STRING, &signup, "authors sign up on `serve --ladder`: open, or invite "
		 "(default: by `ladder invite` codes)", "MODE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	if (!parse("DIR", "make a new ladder in DIR", entries, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("ladder init: want DIR");
	if (!variant)
		return cli_usage_error("ladder init: --variant is required");
	LadderSettings s;
	g_autoptr(GError) err = NULL;
	if (signup && strcmp(signup, "open") != 0 && strcmp(signup, "invite") != 0)
		return cli_usage_error("ladder init: --signup %s: want open or invite", signup);
	if (!ladder_settings_parse(&s, variant, players, time, options, seed, sandbox, bot_size, bot_files, &err))
		return cli_usage_error("ladder init: %s", err->message);
	if (suspend && !ladder_settings_set_suspend_after(&s, suspend, &err)) {
		ladder_settings_clear(&s);
		return cli_usage_error("ladder init: %s", err->message);
	}
	g_autoptr(LadderDb) d = ladder_db_create(argv[1], &err);
	gboolean ok = d && ladder_db_begin(d, &err) && ladder_settings_save(d, &s, &err) &&
		      (!signup || ladder_set_signup(d, signup, &err)) && ladder_db_commit(d, &err);
	if (ok)
		printf("ladder %s: %s, %d-%d players, master seed %" G_GUINT64_FORMAT "\n", argv[1],
		       s.variant->name, s.min_players, s.max_players, s.seed);
	ladder_settings_clear(&s);
	return ok ? 0 : fail(err);
}

/* ---- add ------------------------------------------------------------------- */

/* The decision on the queued request `file`, read from the database
 * read-only: TRUE when there is one (*admitted, *version, *note set). */
static gboolean read_decision(const char *dir, const char *file, gboolean *admitted, int *version, char **note)
{
	g_autoptr(LadderDb) d = ladder_db_open(dir, FALSE, NULL);

	return d && ladder_request_decision(d, file, admitted, version, note);
}

/* Queue a request for the running ladder; with `wait`, wait up to `timeout`
 * seconds for its decision and print it. The exit code. */
static int queue_request(const char *dir, const LadderRequest *r, gboolean wait, int timeout)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *file = ladder_inbox_queue(dir, r, &err);

	if (!file)
		return fail(err);
	printf("%s: queued (%s/%s/%s): the running ladder %s it before its next game\n", r->name, dir,
	       LADDER_INBOX_DIR, file, r->kind == LADDER_REQUEST_ADD ? "admits" :
	       r->kind == LADDER_REQUEST_RETIRE ? "retires" : "resumes");
	if (!wait)
		return 0;
	fflush(stdout);
	gint64 end = g_get_monotonic_time() + (gint64)timeout * G_USEC_PER_SEC;
	g_autofree char *path = g_build_filename(dir, LADDER_INBOX_DIR, file, NULL);
	for (;;) {
		gboolean admitted = FALSE;
		int version = 0;
		g_autofree char *note = NULL;
		if (read_decision(dir, file, &admitted, &version, &note)) {
			if (r->kind != LADDER_REQUEST_ADD)
				printf("%s: %s\n", r->name, note ? note : "decided");
			else if (admitted)
				printf("%s: admitted as version %d\n", r->name, version);
			else
				printf("%s: rejected: %s\n", r->name, note ? note : "(no reason)");
			return admitted || !g_strcmp0(note, "retired") || !g_strcmp0(note, "resumed") ? 0 : 1;
		}
		if (!run_holds(dir) && g_file_test(path, G_FILE_TEST_EXISTS)) {
			fprintf(stderr, "referee ladder: the run stopped before deciding on %s: it stays queued, "
				"and the next `ladder run %s` decides it first\n", r->name, dir);
			return 1;
		}
		if (g_get_monotonic_time() >= end) {
			fprintf(stderr, "referee ladder: --wait: no decision on %s after %d s; it stays queued "
				"(%s), the run decides it before its next game\n", r->name, timeout, path);
			return 1;
		}
		g_usleep(200000);
	}
}

static int ladder_add(int argc, char **argv)
{
	gboolean wait = FALSE;
	int timeout = 600;
	GOptionEntry entries[] = {
		{"wait", 0, 0, G_OPTION_ARG_NONE, &wait, "when queued for a running ladder: wait for its decision "
		 "and print it", NULL},
		{"timeout", 0, 0, G_OPTION_ARG_INT, &timeout, "with --wait: give up after S seconds (default 600)",
		 "S"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR NAME COMMAND|BOTDIR|ARCHIVE (a directory, or a .tar.gz or .zip, with "
				LADDER_MANIFEST_FILE ")",
				"submit a bot: admitted after `referee check` and a validation game "
				"(queued while `ladder run` goes on)", 3, 3, TRUE, TRUE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d && rc != RC_QUEUE)
		return rc;
	if (timeout < 1 || timeout > 86400)
		return cli_usage_error("ladder add: --timeout %d: want 1 to 86400 seconds", timeout);
	const char *name = argv[2], *command = argv[3];
	g_autoptr(GError) err = NULL;
	if (!ladder_name_valid(name))
		return cli_usage_error("ladder add: bad name '%s': 1 to 32 letters, digits, '_' or '-'", name);
	LadderSettings s = {0};
	/* (while a run writes, its settings are read beside it) */
	g_autoptr(LadderDb) reader = d ? NULL : ladder_db_open(argv[1], FALSE, &err);
	if ((d || reader) ? !ladder_settings_load(d ? d : reader, &s, &err) : TRUE)
		return fail(err);
	g_clear_pointer(&reader, ladder_db_free);
	g_autofree char *workdir = NULL;
	g_autoptr(LadderManifest) m = NULL;
	if (ladder_archive_named(command) && g_file_test(command, G_FILE_TEST_IS_REGULAR)) {
		/* unpacked as the web's uploads are (ladder/archive.h) */
		if (!(workdir = ladder_archive_bot_file(argv[1], name, command, &s.caps, &m, &err))) {
			ladder_settings_clear(&s);
			fprintf(stderr, "referee ladder: add %s: %s\n", name, err->message);
			return 1;
		}
		command = m->command;
	} else if (g_file_test(command, G_FILE_TEST_IS_DIR)) {
		g_autofree char *mpath = g_build_filename(command, LADDER_MANIFEST_FILE, NULL);
		m = ladder_manifest_read(mpath, &err);
		if (!m) {
			ladder_settings_clear(&s);
			return cli_usage_error("ladder add: %s", err->message);
		}
		/* what it names and holds is refused before anything is copied */
		if (!ladder_command_check(m->command, command, argv[1], &err) ||
		    !(workdir = ladder_bot_dir_copy(argv[1], name, command, &s.caps, &err))) {
			ladder_settings_clear(&s);
			fprintf(stderr, "referee ladder: add %s: %s\n", name, err->message);
			return 1;
		}
		command = m->command;
	} else if (!ladder_command_check(command, NULL, argv[1], &err)) {
		ladder_settings_clear(&s);
		fprintf(stderr, "referee ladder: add %s: %s\n", name, err->message);
		return 1;
	}
	if (!d) {
		LadderRequest r = {LADDER_REQUEST_ADD, (char *)name, (char *)command, workdir,
				   m ? m->author : NULL, m ? m->description : NULL};
		ladder_settings_clear(&s);
		return queue_request(argv[1], &r, wait, timeout);
	}
	g_autofree char *referee = g_file_read_link("/proc/self/exe", NULL);
	LadderAdmission a;
	LadderSubmission sub = {name, command, workdir, m ? m->author : NULL, m ? m->description : NULL, NULL, 0, NULL};
	gboolean ok = ladder_admit(d, &s, referee ? referee : "referee", &sub, &a, &err);
	ladder_settings_clear(&s);
	if (!ok)
		return fail(err);
	if (!a.admitted) {
		printf("%s: rejected: %s\n", name, a.reason);
		if (workdir)
			ladder_bot_dir_remove(argv[1], workdir);
		ladder_admission_clear(&a);
		return 1;
	}
	printf("%s: admitted as version %d (entry %" G_GINT64_FORMAT ")\n", name, a.version, a.id);
	ladder_admission_clear(&a);
	return 0;
}

/* ---- run ------------------------------------------------------------------- */

static volatile sig_atomic_t stop_asked;
static struct sigaction before_int, before_term;

static void on_stop(int sig)
{
	if (stop_asked) {
		/* the second time: as the referee does (bots killed, then die) */
		sigaction(sig, sig == SIGINT ? &before_int : &before_term, NULL);
		raise(sig);
		return;
	}
	stop_asked = 1;
}

/* TIME: +DURATION (30s, 10m, 2h), HH:MM (today, local), or ISO 8601. */
static gboolean parse_until(const char *text, gint64 *out)
{
	gint64 n = 0;
	char *end = NULL;

	if (text[0] == '+') {
		n = g_ascii_strtoll(text + 1, &end, 10);
		gint64 unit = !strcmp(end, "s") || !*end ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 0;
		if (end == text + 1 || n < 0 || !unit)
			return FALSE;
		*out = g_get_real_time() + n * unit * G_USEC_PER_SEC;
		return TRUE;
	}
	int hh, mm;
	char extra;
	if (sscanf(text, "%d:%d%c", &hh, &mm, &extra) == 2 && hh >= 0 && hh < 24 && mm >= 0 && mm < 60) {
		g_autoptr(GDateTime) now = g_date_time_new_now_local();
		g_autoptr(GDateTime) at = g_date_time_new_local(g_date_time_get_year(now), g_date_time_get_month(now),
								g_date_time_get_day_of_month(now), hh, mm, 0);
		*out = g_date_time_to_unix(at) * G_USEC_PER_SEC;
		return TRUE;
	}
	g_autoptr(GTimeZone) local = g_time_zone_new_local();
	g_autoptr(GDateTime) at = g_date_time_new_from_iso8601(text, local);
	if (!at)
		return FALSE;
	*out = g_date_time_to_unix(at) * G_USEC_PER_SEC;
	return TRUE;
}

/* `--serve ADDR`: the ladder's pages and its games in progress, served
 * from a thread of its own while the run goes on (server/watch.h). NULL
 * (said on stderr, *rc set) when it cannot listen. */
static Watch *serve_run(LadderDb *d, const char *addr, gboolean public_ok, GPtrArray *none, int *rc)
{
	g_autoptr(GError) error = NULL;
	ServerConfig sc = {.listen = addr, .public_ok = public_ok, .opponents = none, .dir = d->dir,
			   .ladder = d->dir};
	Watch *w = watch_start(&sc, NULL, &error);

	if (!w) {
		fprintf(stderr, "referee ladder: --serve: %s\n", error->message);
		*rc = g_error_matches(error, SERVER_ERROR, SERVER_ERROR_ADDRESS) ? EXIT_USAGE : 1;
		return NULL;
	}
	if (!watch_loopback(w))
		fprintf(stderr, "referee ladder: --serve %s is not loopback: anyone who reaches it can read the "
			"ladder's pages, logs and replays and watch every game; there is no login and no TLS\n", addr);
	fprintf(stderr, "referee ladder: serving %sladder/ while it runs\n", watch_url(w));
	return w;
}

static int ladder_run_cmd(int argc, char **argv)
{
	int jobs = 1, slurm = 0;
	g_auto(GStrv) slurm_opts = NULL;
	gint64 games = 0, total = 0;
	g_autofree char *until = NULL;
	gboolean quiet = FALSE, serve_public = FALSE;
	g_autofree char *serve = NULL, *on_event = NULL;
	GOptionEntry entries[] = {
		{"on-event", 0, 0, G_OPTION_ARG_STRING, &on_event, "hand each event (admitted, rejected, suspended, "
		 "resumed, ranked) to this shell command as one JSON line on its standard input (docs/ladder.md)",
		 "CMD"},
		{"serve", 0, 0, G_OPTION_ARG_STRING, &serve, "serve the ladder's pages and its games live while it runs "
		 "(docs/ladder.md)", "HOST:PORT"},
		{"public", 0, 0, G_OPTION_ARG_NONE, &serve_public, "with --serve: allow an address other than loopback",
		 NULL},
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "games at once (default 1)", "N"},
		{"games", 0, 0, G_OPTION_ARG_INT64, &games, "play N games, then stop", "N"},
		{"total", 0, 0, G_OPTION_ARG_INT64, &total, "stop when the ladder holds N finished games", "N"},
		{"until", 0, 0, G_OPTION_ARG_STRING, &until, "schedule no game after TIME (+30m, 17:30, ISO 8601)",
		 "TIME"},
		{"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no line per game", NULL},
		{"slurm", 0, 0, G_OPTION_ARG_INT, &slurm, "play each game as a Slurm job, N at once, on nodes that see "
		 "DIR (docs/ladder.md)", "N"},
		{"slurm-opt", 0, 0, G_OPTION_ARG_STRING_ARRAY, &slurm_opts, "with --slurm: an extra sbatch argument "
		 "(repeatable), e.g. --slurm-opt=--partition=X", "ARG"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR", "play games until stopped (Ctrl-C finishes the games in flight) or done",
				1, 1, TRUE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d)
		return rc;
	if (jobs < 1 || jobs > 1024)
		return cli_usage_error("ladder run: -j %d: want an integer from 1 to 1024", jobs);
	if (games < 0 || total < 0)
		return cli_usage_error("ladder run: --games and --total want a positive count");
	if (slurm < 0 || slurm > 1024)
		return cli_usage_error("ladder run: --slurm %d: want an integer from 1 to 1024", slurm);
	if (slurm && serve)
		return cli_usage_error("ladder run: --slurm and --serve: the games play on other nodes, "
				       "not in this process; serve the pages with `referee serve --ladder DIR`");
	if (slurm)
		jobs = slurm;
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	LadderRunOptions o = {jobs, games, total, 0, &stop_asked, quiet, NULL, NULL, self ? self : "referee",
			      on_event && on_event[0] ? on_event : NULL, slurm, slurm_opts};
	if (until && !parse_until(until, &o.until))
		return cli_usage_error("ladder run: --until '%s': want +30s, +10m, +2h, HH:MM or an ISO 8601 time",
				       until);
	g_autoptr(GError) err = NULL;
	LadderSettings s;
	if (!ladder_db_lock_note(d, "ladder run", &err) || !ladder_settings_load(d, &s, &err))
		return fail(err);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &before_int);
	sigaction(SIGTERM, &sa, &before_term);
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	Watch *w = NULL;
	if (serve && !(w = serve_run(d, serve, serve_public, none, &rc))) {
		ladder_settings_clear(&s);
		return rc;
	}
	o.watch = w ? watch_tournament_game : NULL;
	o.watch_data = w;
	LadderRunStats st;
	gboolean ok = ladder_run(d, &s, &o, &st, &err);
	ladder_settings_clear(&s);
	watch_stop(w);
	fprintf(stderr, "ladder %s: %" G_GINT64_FORMAT " games finished (%" G_GINT64_FORMAT " replayed)%s\n",
		argv[1], st.finished, st.replayed, stop_asked ? ", stopped" : "");
	if (!ok) {
		if (g_error_matches(err, LADDER_DB_ERROR, LADDER_DB_ERROR_FULL))
			fprintf(stderr, "referee ladder: %s: stopped; every game finished before is kept, "
				"the rest is played again by the next `ladder run` once there is room\n", err->message);
		else
			fail(err);
		return 1;
	}
	return 0;
}

/* ---- standings --------------------------------------------------------------- */

static int ladder_standings(int argc, char **argv)
{
	gint64 below = 0;
	gboolean json = FALSE;
	GOptionEntry entries[] = {
		{"games", 0, 0, G_OPTION_ARG_INT64, &below, "only the games before game number N", "N"},
		{"json", 0, 0, G_OPTION_ARG_NONE, &json, "as one JSON object", NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR", "the ratings (batch fit, 95% intervals)", 1, 1, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d)
		return rc;
	g_autoptr(GError) err = NULL;
	g_autofree char *out = json ? ladder_standings_json(d, below > 0 ? below : G_MAXINT64, &err)
				    : ladder_standings_text(d, below > 0 ? below : G_MAXINT64, &err);
	if (!out)
		return fail(err);
	fputs(out, stdout);
	return 0;
}

/* ---- retire, verify, pages ----------------------------------------------------- */

static int ladder_retire(int argc, char **argv)
{
	gboolean wait = FALSE;
	GOptionEntry entries[] = {
		{"wait", 0, 0, G_OPTION_ARG_NONE, &wait, "when queued for a running ladder: wait (up to 600 s) "
		 "until it is applied", NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR NAME", "stop scheduling NAME's active version (its record stays; queued "
				"while `ladder run` goes on)", 2, 2, TRUE, TRUE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d && rc == RC_QUEUE) {
		if (!ladder_name_valid(argv[2]))
			return cli_usage_error("ladder retire: bad name '%s'", argv[2]);
		LadderRequest r = {LADDER_REQUEST_RETIRE, argv[2], NULL, NULL, NULL, NULL};
		return queue_request(argv[1], &r, wait, 600);
	}
	if (!d)
		return rc;
	g_autoptr(GError) err = NULL;
	gboolean done;
	if (!ladder_bot_retire(d, argv[2], &done, &err))
		return fail(err);
	if (!done) {
		fprintf(stderr, "referee ladder: retire: %s has no active entry\n", argv[2]);
		return 1;
	}
	printf("%s: retired (its games and record stay)\n", argv[2]);
	return 0;
}

static int ladder_resume_cmd(int argc, char **argv)
{
	gboolean wait = FALSE;
	GOptionEntry entries[] = {
		{"wait", 0, 0, G_OPTION_ARG_NONE, &wait, "when queued for a running ladder: wait (up to 600 s) "
		 "until it is applied", NULL},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR NAME", "schedule NAME's suspended entry again (queued while `ladder run` "
				"goes on)", 2, 2, TRUE, TRUE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d && rc != RC_QUEUE)
		return rc;
	if (!ladder_name_valid(argv[2]))
		return cli_usage_error("ladder resume: bad name '%s'", argv[2]);
	if (!d) {
		LadderRequest r = {LADDER_REQUEST_RESUME, argv[2], NULL, NULL, NULL, NULL};
		return queue_request(argv[1], &r, wait, 600);
	}
	g_autoptr(GError) err = NULL;
	gboolean done = FALSE;
	if (!ladder_resume(d, argv[2], NULL, 0, &done, &err))
		return fail(err);
	if (!done) {
		fprintf(stderr, "referee ladder: resume: %s has no suspended entry\n", argv[2]);
		return 1;
	}
	printf("%s: resumed (scheduled again)\n", argv[2]);
	return 0;
}

static int ladder_feed_cmd(int argc, char **argv)
{
	g_autofree char *base = NULL;
	GOptionEntry entries[] = {
		{"base", 0, 0, G_OPTION_ARG_STRING, &base, "the ladder pages' URL, for the entries' links", "URL"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	static const Usage u = {"DIR AUTHOR", "AUTHOR's events (an entry's author, or its name when it has none) "
				"as an Atom feed", 2, 2, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, entries, &argc, &argv, &rc);
	if (!d)
		return rc;
	g_autoptr(GError) err = NULL;
	g_autofree char *atom = ladder_events_atom(d, argv[2], base, &err);
	if (!atom)
		return fail(err);
	fputs(atom, stdout);
	return 0;
}

static int ladder_verify_cmd(int argc, char **argv)
{
	static const Usage u = {"DIR", "check every game's log against the rules and the database", 1, 1, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, NULL, &argc, &argv, &rc);
	if (!d)
		return rc;
	g_autoptr(GError) err = NULL;
	LadderVerify v;
	if (!ladder_verify(d, &v, &err))
		return fail(err);
	for (guint i = 0; i < v.problems->len; i++)
		printf("FAILED %s\n", (char *)g_ptr_array_index(v.problems, i));
	printf("%s: integrity_check %s; %" G_GINT64_FORMAT " games verified, %u failed, %" G_GINT64_FORMAT
	       " unfinished (the next run plays them)\n",
	       argv[1], v.integrity_ok ? "ok" : "FAILED", v.verified, v.problems->len, v.unfinished);
	rc = v.problems->len ? 1 : 0;
	ladder_verify_clear(&v);
	return rc;
}

static int ladder_pages_cmd(int argc, char **argv)
{
	static const Usage u = {"DIR [OUT]",
				"write the leaderboard, bots' and rejections' pages and the replays (OUT: DIR/pages)",
				1, 2, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = start(&u, NULL, &argc, &argv, &rc);
	if (!d)
		return rc;
	g_autoptr(GError) err = NULL;
	g_autofree char *out = argc == 3 ? g_strdup(argv[2]) : g_build_filename(argv[1], "pages", NULL);
	int pages = 0;
	if (!ladder_pages_write(d, out, &pages, &err))
		return fail(err);
	printf("%s: %d pages (open %s/index.html)\n", out, pages, out);
	return 0;
}

/* ---- accounts: set, invite, admin; backup --------------------------------------- */

/* The accounts' tables, written beside a run (ladder/accounts.h); a
 * database older than them is migrated first, when no run holds it. */
static LadderDb *accounts(const Usage *u, int *argc, char ***argv, int *rc)
{
	g_autoptr(GError) err = NULL;

	*rc = EXIT_USAGE;
	if (!parse(u->args, u->summary, NULL, argc, argv))
		return NULL;
	if (*argc - 1 < u->min || *argc - 1 > u->max) {
		cli_usage_error("ladder %s: want %s", (*argv)[0], u->args);
		return NULL;
	}
	*rc = 1;
	g_autoptr(LadderDb) w = ladder_db_open((*argv)[1], TRUE, NULL);	/* migrates, when free */
	g_clear_pointer(&w, ladder_db_free);
	LadderDb *d = ladder_accounts_open((*argv)[1], &err);
	if (!d)
		fail(err);
	return d;
}

static int ladder_set(int argc, char **argv)
{
	static const Usage u = {"DIR KEY=VALUE...", "change a setting: signup=open|invite (who may sign up on "
				"`serve --ladder`)", 2, 20, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = accounts(&u, &argc, &argv, &rc);
	if (!d)
		return rc;
	for (int i = 2; i < argc; i++) {
		g_autoptr(GError) err = NULL;
		const char *eq = strchr(argv[i], '=');
		if (!eq || strncmp(argv[i], "signup", eq - argv[i]) != 0 || eq - argv[i] != 6)
			return cli_usage_error("ladder set: %s: the settings are signup=open|invite", argv[i]);
		if (!ladder_set_signup(d, eq + 1, &err))
			return cli_usage_error("ladder set: %s", err->message);
		printf("%s: signup=%s\n", argv[1], eq + 1);
	}
	return 0;
}

static int ladder_invite(int argc, char **argv)
{
	static const Usage u = {"DIR", "print a one-time invite code for an author's signup", 1, 1, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = accounts(&u, &argc, &argv, &rc);
	g_autoptr(GError) err = NULL;
	if (!d)
		return rc;
	g_autofree char *code = ladder_invite_new(d, &err);
	if (!code)
		return fail(err);
	printf("%s\n", code);
	return 0;
}

/* A password from standard input: its first line, at most
 * LADDER_PASSWORD_MAX bytes. NULL when there is none. */
static char *read_password(void)
{
	char buf[LADDER_PASSWORD_MAX + 2];

	if (!fgets(buf, sizeof(buf), stdin))
		return NULL;
	buf[strcspn(buf, "\r\n")] = '\0';
	return g_strdup(buf);
}

static int ladder_admin(int argc, char **argv)
{
	static const Usage u = {"DIR NAME", "make the organizer's account on `serve --ladder`, its password read "
				"from standard input (one line)", 2, 2, FALSE, FALSE};
	int rc;
	g_autoptr(LadderDb) d = accounts(&u, &argc, &argv, &rc);
	g_autoptr(GError) err = NULL;
	if (!d)
		return rc;
	g_autofree char *password = read_password();
	if (!password)
		return cli_usage_error("ladder admin: no password on standard input");
	gint64 id = ladder_author_create(d, argv[2], password, NULL, TRUE, &err);
	sodium_memzero(password, strlen(password));
	if (!id)
		return fail(err);
	printf("%s: %s is the organizer's account (log in at /login)\n", argv[1], argv[2]);
	return 0;
}

static int ladder_backup(int argc, char **argv)
{
	static const Usage u = {"DIR FILE", "copy the database into FILE while the ladder runs (SQLite's online "
				"backup)", 2, 2, FALSE, FALSE};
	g_autoptr(GError) err = NULL;

	if (!parse(u.args, u.summary, NULL, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 3)
		return cli_usage_error("ladder backup: want %s", u.args);
	if (!ladder_db_backup(argv[1], argv[2], &err))
		return fail(err);
	printf("%s: a copy of %s/%s\n", argv[2], argv[1], LADDER_DB_FILE);
	return 0;
}

/* ---- the table ----------------------------------------------------------------- */

/* `ladder play-game DIR ID`, not listed: a job of `ladder run --slurm`. */
static int ladder_play_game_cmd(int argc, char **argv)
{
	static const Usage u = {"DIR ID", "play game ID (a job of `ladder run --slurm`)", 2, 2, FALSE, FALSE};
	int rc;
	gint64 id = 0;
	g_autoptr(LadderDb) d = start(&u, NULL, &argc, &argv, &rc);
	if (!d)
		return rc;
	if (!g_ascii_string_to_signed(argv[2], 10, 0, G_MAXINT64, &id, NULL))
		return cli_usage_error("ladder play-game: '%s' is not a game number", argv[2]);
	g_autoptr(GError) err = NULL;
	LadderSettings s;
	if (!ladder_settings_load(d, &s, &err))
		return fail(err);
	gboolean ok = ladder_play_game(d, &s, id, &err);
	ladder_settings_clear(&s);
	return ok ? 0 : fail(err);
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} subs[] = {
	{"init", ladder_init, "make a new ladder: ladder init DIR --variant V"},
	{"add", ladder_add, "submit a bot: ladder add DIR NAME COMMAND|BOTDIR|ARCHIVE"},
	{"run", ladder_run_cmd, "play games: ladder run DIR [-j N] [--games N | --until TIME] [--serve ADDR]"},
	{"standings", ladder_standings, "the ratings: ladder standings DIR"},
	{"retire", ladder_retire, "stop scheduling a bot: ladder retire DIR NAME"},
	{"resume", ladder_resume_cmd, "schedule a suspended bot again: ladder resume DIR NAME"},
	{"feed", ladder_feed_cmd, "an author's events as Atom: ladder feed DIR AUTHOR"},
	{"verify", ladder_verify_cmd, "check every game's log: ladder verify DIR"},
	{"pages", ladder_pages_cmd, "web pages: ladder pages DIR [OUT]"},
	{"set", ladder_set, "change a setting: ladder set DIR signup=open|invite"},
	{"invite", ladder_invite, "an author's one-time signup code: ladder invite DIR"},
	{"admin", ladder_admin, "the organizer's web account: ladder admin DIR NAME < password"},
	{"backup", ladder_backup, "a copy of the database while it runs: ladder backup DIR FILE"},
};

int cmd_ladder(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "play-game"))
		return ladder_play_game_cmd(argc - 1, argv + 1);
	if (argc >= 2)
		for (size_t i = 0; i < G_N_ELEMENTS(subs); i++)
			if (!strcmp(argv[1], subs[i].name))
				return subs[i].run(argc - 1, argv + 1);
	FILE *out = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? stdout : stderr;
	if (argc >= 2 && out == stderr)
		fprintf(stderr, "referee ladder: unknown subcommand '%s'\n", argv[1]);
	fprintf(out, "usage: referee ladder SUBCOMMAND DIR ... (docs/ladder.md)\n\n");
	for (size_t i = 0; i < G_N_ELEMENTS(subs); i++)
		fprintf(out, "  %-10s %s\n", subs[i].name, subs[i].summary);
	if (out == stderr)
		return EXIT_USAGE;
	printf("\nNumbers: run -j 1..1024, --slurm 1..1024; run --games and --total 1.. (0 or none: no limit);\n"
	       "standings --games N: the games numbered below N; init --players within the\n"
	       "variant's range (play --help lists them); --seed 0..18446744073709551615;\n"
	       "init --bot-size 1..1024G (bytes, or K, M, G), --bot-files 1..10000000,\n"
	       "--suspend-after 0..1000 (0: never).\n\n");
	describe_only = TRUE;
	for (size_t i = 0; i < G_N_ELEMENTS(subs); i++) {
		char *sub_argv[] = {(char *)subs[i].name, NULL};
		subs[i].run(1, sub_argv);
	}
	describe_only = FALSE;
	return 0;
}
