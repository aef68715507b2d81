/*
 * bench-referee: how fast the referee runs games with instant bots.
 *
 *   bench-referee FAKEBOT [GAMES]
 *
 * Prints, in one run: the raw pipe round trip between two processes (the
 * floor any referee pays per move), the referee's wall time per move with
 * instant bots and its ratio to that floor (on any CPU, on one CPU, and on
 * one CPU writing a log of every game into $TMPDIR), the referee's own CPU
 * time per move, and games per second with bots kept alive (`multi`) at
 * concurrency 1 and 2, with each game's processes pinned to one CPU, and
 * with fresh bot processes per game. Every figure is the best of five
 * runs (the machine is shared, so the worst says little). FAKEBOT is
 * tests/prog-fakebot; it plays the first legal move it is offered.
 *
 * Time per move is a game's whole wall time over the moves bots were
 * asked for: starting the game, chance moves and the result are in it.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "link.h"
#include "referee/game.h"

/* ---- the floor: one line there and back between two processes ----------- */

static double pipe_round_trip_us(int n, int cpu)
{
	int to[2], from[2];
	char buf[256];

	if (pipe(to) < 0 || pipe(from) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		if (cpu >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		close(to[1]);
		close(from[0]);
		ssize_t r;
		while ((r = read(to[0], buf, sizeof(buf))) > 0)
			if (write(from[1], "move T0@3\n", 10) != 10)
				break;
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	cpu_set_t old;
	sched_getaffinity(0, sizeof(old), &old);
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	const char *go = "go 5000 players=2 width=10 height=20 stage=place current=0 roll=T\n";
	gint64 t0 = 0;
	for (int i = -100; i < n; i++) {
		if (i == 0)
			t0 = g_get_monotonic_time();
		if (write(to[1], go, strlen(go)) < 0 || read(from[0], buf, sizeof(buf)) <= 0)
			break;
	}
	double us = (double)(g_get_monotonic_time() - t0) / n;
	close(to[1]);
	close(from[0]);
	waitpid(pid, NULL, 0);
	sched_setaffinity(0, sizeof(old), &old);
	return us;
}

/* ---- games ---------------------------------------------------------------- */

typedef struct {
	const char *fakebot;
	int games;
	int cpu;		/* -1: anywhere */
	gboolean keep;		/* reuse multi bots across games */
	guint64 seed0;
	const char *logdir;	/* a log per game in this directory, or none */
	/* out */
	double seconds;
	long moves, plies;
	int done;		/* games completed */
	double cpu_s;		/* the game thread's own CPU time */
} Run;

static double thread_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static gpointer run_games(gpointer data)
{
	Run *r = data;
	g_autofree char *cmd = g_strdup_printf("%s %s", r->fakebot, r->keep ? "multi" : "legal");
	BotSpec *spec = bot_spec_new(cmd, "fast", NULL);
	Bot *kept[2] = {NULL, NULL};

	spec->sha256 = g_strdup("-");	/* hashing is per spec, not per move */
	cpu_set_t old;
	sched_getaffinity(0, sizeof(old), &old);
	if (r->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(r->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);	/* this thread */
	}
	gint64 t0 = g_get_monotonic_time();
	double c0 = thread_cpu_s();
	r->moves = r->plies = 0;
	r->done = 0;
	for (int i = 0; i < r->games; i++) {
		GameSpec gs;
		GameResult res;
		game_spec_init(&gs, &variant_link, 2, r->seed0 + (guint64)i);
		gs.cpu = r->cpu;
		gs.keep_bots = r->keep;
		g_autofree char *log = r->logdir ? g_strdup_printf("%s/%" G_GUINT64_FORMAT ".log", r->logdir,
								   gs.seed) : NULL;
		gs.log_path = log;
		for (int p = 0; p < 2; p++) {
			gs.seats[p].spec = spec;
			gs.seats[p].bot = kept[p];
			gs.seats[p].games = r->games - i;
			kept[p] = NULL;
		}
		g_autoptr(GError) err = NULL;
		if (!game_run(&gs, &res, &err)) {
			fprintf(stderr, "bench-referee: %s\n", err->message);
			break;
		}
		for (int p = 0; p < 2; p++) {
			r->moves += res.seat[p].moves;
			kept[p] = res.seat[p].bot;
			res.seat[p].bot = NULL;
		}
		r->plies += res.plies;
		r->done++;
		game_result_clear(&res);
	}
	r->seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
	r->cpu_s = thread_cpu_s() - c0;
	for (int p = 0; p < 2; p++)
		bot_quit(kept[p], 100);
	bot_spec_free(spec);
	sched_setaffinity(0, sizeof(old), &old);
	return NULL;
}

static void report_games(const char *label, Run *runs, int n)
{
	double secs = 0;
	long games = 0, moves = 0, plies = 0;

	for (int i = 0; i < n; i++) {
		secs = MAX(secs, runs[i].seconds);
		games += runs[i].done;
		moves += runs[i].moves;
		plies += runs[i].plies;
	}
	printf("%-44s %8.0f games/s  (%ld games, %.1f plies and %.1f bot moves per game)\n", label,
	       games / secs, games, (double)plies / games, (double)moves / games);
}

#define REPS 5	/* each figure is the best of REPS runs: the machine is shared */

/* Empty the log directory (each game writes a new file, as in a tournament). */
static void remove_logs(const char *dir)
{
	GDir *d = dir ? g_dir_open(dir, 0, NULL) : NULL;
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		remove(path);
	}
	g_dir_close(d);
}

/* Run `n` games threads at once (pinned to CPUs 0..n-1 with `pin`), REPS
 * times, with a log per game in `logdir` unless it is NULL; OUT: the best
 * repetition in runs[]. */
static void concurrent_best(Run *best, const char *fakebot, int games, int n, gboolean keep, gboolean pin,
			    const char *logdir)
{
	double best_secs = G_MAXDOUBLE;

	for (int rep = 0; rep < REPS; rep++) {
		Run runs[2];
		GThread *t[2];
		remove_logs(logdir);
		for (int i = 0; i < n; i++) {
			runs[i] = (Run){fakebot, games, pin ? i : -1, keep, 1 + 1000 * (guint64)i, logdir, 0, 0, 0, 0, 0};
			t[i] = g_thread_new("game", run_games, &runs[i]);
		}
		double secs = 0;
		for (int i = 0; i < n; i++) {
			g_thread_join(t[i]);
			secs = MAX(secs, runs[i].seconds);
		}
		if (secs < best_secs) {
			best_secs = secs;
			memcpy(best, runs, sizeof(Run) * (size_t)n);
		}
	}
}

static void concurrent(const char *label, const char *fakebot, int games, int n, gboolean keep, gboolean pin)
{
	Run runs[2];

	concurrent_best(runs, fakebot, games, n, keep, pin, NULL);
	report_games(label, runs, n);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench-referee FAKEBOT [GAMES]\n");
		return 2;
	}
	const char *fakebot = argv[1];
	int games = argc > 2 ? (int)g_ascii_strtoll(argv[2], NULL, 10) : 400;
	if (games < 1)
		games = 400;
	g_setenv("TETRARENA_NO_MEMLIMIT", "1", FALSE);

	double rt_any = G_MAXDOUBLE, rt_one = G_MAXDOUBLE;
	for (int rep = 0; rep < REPS; rep++) {
		rt_any = MIN(rt_any, pipe_round_trip_us(20000, -1));
		rt_one = MIN(rt_one, pipe_round_trip_us(20000, 0));
	}
	printf("raw pipe round trip, two processes, any CPU  %8.1f us\n", rt_any);
	printf("raw pipe round trip, two processes, one CPU  %8.1f us\n", rt_one);

	/* Time per move: one game thread, bots kept alive, any CPU and then
	 * everything on one CPU. Per move: wall time of the games over the
	 * moves asked of bots (chance moves and game set-up included). */
	Run r, r1, rl;
	concurrent_best(&r, fakebot, games, 1, TRUE, FALSE, NULL);
	double cpu = r.cpu_s;
	concurrent_best(&r1, fakebot, games, 1, TRUE, TRUE, NULL);
	g_autofree char *logdir = g_dir_make_tmp("tetrarena-bench-XXXXXX", NULL);
	concurrent_best(&rl, fakebot, games, 1, TRUE, TRUE, logdir);
	remove_logs(logdir);
	if (logdir)
		g_rmdir(logdir);
	double per_move = r.seconds * 1e6 / r.moves;
	double per_move1 = r1.seconds * 1e6 / r1.moves;
	double per_move_log = rl.seconds * 1e6 / rl.moves;
	printf("referee wall time per bot move, any CPU      %8.1f us  (%.2fx the raw round trip)\n", per_move,
	       per_move / rt_any);
	printf("referee wall time per bot move, one CPU      %8.1f us  (%.2fx the raw round trip)\n", per_move1,
	       per_move1 / rt_one);
	printf("  the same, writing a log of each game       %8.1f us  (%.2fx; logs in %s)\n", per_move_log,
	       per_move_log / rt_one, g_get_tmp_dir());
	printf("referee own CPU time per bot move            %8.1f us\n", cpu * 1e6 / r.moves);
	/* The target compares with chess tournament managers on 112-move
	 * games: the same throughput in bot moves, as games of that length
	 * (set-up and result amortised over fewer moves here, so this errs
	 * low). */
	printf("bot moves per second, concurrency 1          %8.0f any CPU, %.0f one CPU"
	       "  (as 112-move games: %.0f and %.0f games/s)\n",
	       1e6 / per_move, 1e6 / per_move1, 1e6 / per_move / 112, 1e6 / per_move1 / 112);
	report_games("games, bots kept alive, concurrency 1", &r, 1);
	concurrent("games, bots kept alive, concurrency 2", fakebot, games, 2, TRUE, FALSE);
	report_games("games, bots kept alive, one CPU per game", &r1, 1);
	concurrent("games, kept alive, 2 at once, one CPU each", fakebot, games, 2, TRUE, TRUE);
	concurrent("games, fresh processes, concurrency 1", fakebot, games / 4, 1, FALSE, FALSE);
	concurrent("games, fresh processes, concurrency 2", fakebot, games / 4, 2, FALSE, FALSE);
	return 0;
}
