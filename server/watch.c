/*
 * watch: a server on a thread of its own. See watch.h.
 *
 * The thread pushes its own main context, makes the Server there (libsoup
 * attaches to the thread-default context) and runs a loop until
 * watch_stop() quits it. A tournament's game is added to the registry on
 * that thread (g_main_context_invoke); its LiveGame delivers there too.
 */
#include "watch.h"

#include <string.h>

#include "tournaments/journal.h"
#include "tournaments/standings.h"

struct Watch {
	ServerConfig cfg;
	char *output;
	GMainContext *ctx;
	GMainLoop *loop;
	GThread *thread;
	Server *server;
	char *url;
	gboolean loopback;
	GError *error;
	GMutex lock;
	GCond ready;
	gboolean started;
};

static char *standings(void *data)
{
	Watch *w = data;
	g_autofree char *path = g_build_filename(w->output, "journal.txt", NULL);
	JournalHeader h = {0};
	g_autoptr(GPtrArray) games = NULL;

	if (!g_file_test(path, G_FILE_TEST_EXISTS) || !journal_read(path, &h, &games, NULL, NULL))
		return NULL;
	/* no bootstrap: the intervals are the Laplace ones, quick to fit */
	g_autoptr(Standings) st = standings_new(&h, games, 0);
	journal_header_clear(&h);
	st->partial = st->ngames < h.total;
	return standings_json(st);
}

static char *report_path(void *data)
{
	Watch *w = data;
	char *path = g_build_filename(w->output, "report.html", NULL);

	if (g_file_test(path, G_FILE_TEST_EXISTS))
		return path;
	g_free(path);
	return NULL;
}

static gpointer run(gpointer data)
{
	Watch *w = data;

	g_main_context_push_thread_default(w->ctx);
	w->server = server_new(&w->cfg, &w->error);
	if (w->server) {
		w->url = server_url(w->server);
		w->loopback = server_loopback(w->server);
		if (w->output)
			server_set_tournament(w->server, standings, report_path, w);
	}
	g_mutex_lock(&w->lock);
	w->started = TRUE;
	g_cond_signal(&w->ready);
	g_mutex_unlock(&w->lock);
	if (w->server)
		g_main_loop_run(w->loop);
	server_free(w->server);
	w->server = NULL;
	g_main_context_pop_thread_default(w->ctx);
	return NULL;
}

Watch *watch_start(const ServerConfig *cfg, const char *output, GError **error)
{
	Watch *w = g_new0(Watch, 1);

	w->cfg = *cfg;
	w->output = g_strdup(output);
	w->ctx = g_main_context_new();
	w->loop = g_main_loop_new(w->ctx, FALSE);
	g_mutex_init(&w->lock);
	g_cond_init(&w->ready);
	w->thread = g_thread_new("serve", run, w);
	g_mutex_lock(&w->lock);
	while (!w->started)
		g_cond_wait(&w->ready, &w->lock);
	g_mutex_unlock(&w->lock);
	if (!w->url) {
		g_propagate_error(error, g_steal_pointer(&w->error));
		watch_stop(w);
		return NULL;
	}
	return w;
}

const char *watch_url(const Watch *w)
{
	return w->url;
}

gboolean watch_loopback(const Watch *w)
{
	return w->loopback;
}

static gboolean quit(gpointer data)
{
	g_main_loop_quit(data);
	return G_SOURCE_REMOVE;
}

void watch_stop(Watch *w)
{
	if (!w)
		return;
	g_main_context_invoke(w->ctx, quit, w->loop);
	g_thread_join(w->thread);
	g_main_loop_unref(w->loop);
	g_main_context_unref(w->ctx);
	g_mutex_clear(&w->lock);
	g_cond_clear(&w->ready);
	g_clear_error(&w->error);
	g_free(w->output);
	g_free(w->url);
	g_free(w);
}

/* ---- a tournament's games ------------------------------------------------- */

typedef struct {
	Watch *w;
	char id[32];
	char *title;
	char *names[VARIANT_MAX_PLAYERS];
	int n;
	char *log_path;
	LiveGame *live;
} Added;

static gboolean add_game(gpointer data)
{
	Added *a = data;

	if (a->w->server)
		games_add(server_games(a->w->server), a->id, a->title, a->names, a->n, a->log_path, a->live);
	live_game_unref(a->live);
	for (int k = 0; k < a->n; k++)
		g_free(a->names[k]);
	g_free(a->title);
	g_free(a->log_path);
	g_free(a);
	return G_SOURCE_REMOVE;
}

GameLogTap watch_tournament_game(gpointer data, int id, const char *const *names, int n, const char *log_path,
				 void **tap_data)
{
	Watch *w = data;
	Added *a = g_new0(Added, 1);
	GString *title = g_string_new(NULL);

	a->w = w;
	g_snprintf(a->id, sizeof(a->id), "t%d", id);
	a->n = MIN(n, VARIANT_MAX_PLAYERS);
	g_string_printf(title, "game %d: ", id);
	for (int k = 0; k < a->n; k++) {
		a->names[k] = g_strdup(names[k]);
		g_string_append_printf(title, "%s%s", k ? " v " : "", names[k]);
	}
	a->title = g_string_free(title, FALSE);
	a->log_path = g_strdup(log_path);
	a->live = live_game_new_for(w->ctx);
	*tap_data = live_game_ref(a->live);	/* the tap's */
	g_main_context_invoke(w->ctx, add_game, a);
	return live_game_tap;
}
