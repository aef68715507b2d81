/*
 * referee-testutil: helpers shared by the referee's GTest programs
 * (header-only, static functions): the fake bot's path, scaled times,
 * temporary files, a scan of /proc for leftover processes, and the Fixture
 * both referee test programs build games on.
 */
#ifndef TETRARENA_TESTS_REFEREE_TESTUTIL_H
#define TETRARENA_TESTS_REFEREE_TESTUTIL_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "referee/bot.h"
#include "referee/game.h"
#include "referee/timectl.h"

/* TETRARENA_TIME_SCALE, default 1. */
static inline double test_time_scale(void)
{
	const char *s = g_getenv("TETRARENA_TIME_SCALE");
	double v = s ? g_ascii_strtod(s, NULL) : 1.0;

	return v > 0 ? v : 1.0;
}

/* The fake bot's command line for `mode` after `after` legal moves, with a
 * marker word it ignores so that leftovers can be found. */
static inline char *test_fakebot(const char *mode, int after, const char *marker)
{
	const char *build = g_getenv("TETRARENA_BUILD");

	return g_strdup_printf("%s/tests/prog-fakebot %s %d %s", build ? build : "build/opt", mode, after,
			       marker);
}

/* How many processes have `marker` as a word of their command line. */
static inline int test_count_processes(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		g_autofree char *path = g_strdup_printf("/proc/%s/cmdline", e->d_name);
		g_autofree char *data = NULL;
		gsize len;
		if (!g_file_get_contents(path, &data, &len, NULL))
			continue;
		for (gsize i = 0; i < len; i += strlen(data + i) + 1)
			if (strcmp(data + i, marker) == 0) {
				/* a zombie has an empty cmdline, so this one is alive */
				n++;
				break;
			}
	}
	closedir(d);
	return n;
}

/*
 * How many processes with `marker` are still there after up to 2 s
 * (scaled): a killed process that is not the referee's child (a bot's own
 * child) is reaped by init, and tearing down a sanitized process's huge
 * address space takes a moment.
 */
static inline int test_count_survivors(const char *marker)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)(2e6 * test_time_scale());
	int n;

	while ((n = test_count_processes(marker)) > 0 && g_get_monotonic_time() < deadline)
		g_usleep(10000);
	return n;
}

/* A fresh temporary directory for one test (removed by the caller's
 * test_rmdir). */
static inline char *test_tmpdir(void)
{
	g_autoptr(GError) err = NULL;
	char *dir = g_dir_make_tmp("tetrarena-test-XXXXXX", &err);

	g_assert_no_error(err);
	return dir;
}

static inline void test_rmdir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);
		remove(p);
	}
	g_dir_close(d);
	remove(dir);
}

/*
 * One game under test: a temporary directory with its log, a marker word
 * that every fake bot of this game carries (to find leftovers), the bot
 * specs it owns, the GameSpec and the result.
 */
typedef struct {
	char *dir, *log, *marker;
	GPtrArray *specs;
	GameSpec spec;
	GameResult res;
} Fixture;

/* Set up a 2-player game of `v` on `seed`, with time control `tc`
 * stretched by TETRARENA_TIME_SCALE and markers named `prefix-PID-N`. */
static inline void test_fixture_init(Fixture *f, const Variant *v, uint64_t seed, const TimeControl *tc,
				     const char *prefix)
{
	static int count;	/* each test program is single-threaded */

	f->dir = test_tmpdir();
	f->log = g_build_filename(f->dir, "game.log", NULL);
	f->marker = g_strdup_printf("%s-%d-%d", prefix, (int)getpid(), count++);
	f->specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	game_spec_init(&f->spec, v, 2, seed);
	f->spec.log_path = f->log;
	f->spec.time = *tc;
	timectl_scale(&f->spec.time, test_time_scale());
	memset(&f->res, 0, sizeof(f->res));
}

static inline void test_fixture_clear(Fixture *f)
{
	game_result_clear(&f->res);
	g_ptr_array_unref(f->specs);
	test_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->log);
	g_free(f->marker);
}

/* Seat p is the fake bot in `mode`, turning to it after `after` legal moves. */
static inline void test_seat(Fixture *f, int p, const char *mode, int after)
{
	g_autofree char *cmd = test_fakebot(mode, after, f->marker);
	g_autoptr(GError) err = NULL;
	BotSpec *bs = bot_spec_new(cmd, mode, &err);

	g_assert_no_error(err);
	g_ptr_array_add(f->specs, bs);
	f->spec.seats[p].spec = bs;
}

#endif
