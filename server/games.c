/*
 * games: the games a server runs or shows. See games.h.
 *
 * A started game's GameSpec and specs live in its ServeGame; the thread
 * runs game_run() on them and, when done, hands the result back to the
 * main loop (finished()), which frees the seats' relays.
 */
#include "games.h"

#include <string.h>

#include "referee/game.h"
#include "referee/json.h"
#include "seat.h"

struct ServeGame {
	ServeGames *gs;
	char *id, *title, *variant;
	int n;
	char *names[VARIANT_MAX_PLAYERS];
	gboolean person[VARIANT_MAX_PLAYERS];
	char *token[VARIANT_MAX_PLAYERS];
	WebSeat *seat[VARIANT_MAX_PLAYERS];
	char *log_path;
	LiveGame *live;
	gboolean ours;		/* started here (not a tournament's) */
	gboolean running, over;
	GameSpec spec;
	BotSpec *specs[VARIANT_MAX_PLAYERS];
	GameResult result;
	GThread *thread;
	guint wait;		/* the connect timeout */
	guint end_watch;	/* a shown game's: its end trims older games */
	gint64 created;
};

struct ServeGames {
	char *dir;
	GPtrArray *opponents;
	SandboxMode sandbox;
	GHashTable *by_id;
	GPtrArray *order;	/* ServeGame*, oldest first (owns them) */
	guint next;
	GMutex lock;		/* the relay times, counted by games' threads */
	guint relay_n;
	double relay_sum, relay_max;
};

static void game_free(gpointer p)
{
	ServeGame *g = p;

	/* a person's page gone: the game ends soon */
	for (int i = 0; i < VARIANT_MAX_PLAYERS; i++)
		if (g->seat[i])
			seat_close(g->seat[i]);
	if (g->thread)
		g_thread_join(g->thread);
	if (!g->running && !g->over)	/* never played: its relays' Bots are ours */
		for (int i = 0; i < VARIANT_MAX_PLAYERS; i++)
			bot_free(g->spec.seats[i].bot);
	if (g->wait)
		g_source_remove(g->wait);
	for (int i = 0; i < VARIANT_MAX_PLAYERS; i++) {
		g_free(g->names[i]);
		g_free(g->token[i]);
		seat_free(g->seat[i]);
		bot_spec_free(g->specs[i]);
	}
	game_result_clear(&g->result);
	live_game_unref(g->live);
	g_free(g->id), g_free(g->title), g_free(g->variant), g_free(g->log_path);
	g_free(g);
}

ServeGames *games_new(const char *dir, GPtrArray *opponents, SandboxMode sandbox)
{
	ServeGames *gs = g_new0(ServeGames, 1);

	gs->dir = g_strdup(dir);
	gs->opponents = opponents;
	gs->sandbox = sandbox;
	g_mutex_init(&gs->lock);
	gs->by_id = g_hash_table_new(g_str_hash, g_str_equal);
	gs->order = g_ptr_array_new_with_free_func(game_free);
	return gs;
}

void games_free(ServeGames *gs)
{
	if (!gs)
		return;
	g_hash_table_unref(gs->by_id);
	g_ptr_array_unref(gs->order);
	g_mutex_clear(&gs->lock);
	g_free(gs->dir);
	g_free(gs);
}

const BotSpec *games_opponent(ServeGames *gs, const char *name)
{
	for (guint i = 0; i < gs->opponents->len; i++) {
		const BotSpec *b = g_ptr_array_index(gs->opponents, i);
		if (strcmp(b->name, name) == 0)
			return b;
	}
	return NULL;
}

gboolean games_opponent_known(const char *name, void *gs)
{
	return games_opponent(gs, name) != NULL;
}

/* Keep every step of the newest finished games only (memory stays
 * bounded however many games a server or a tournament shows). */
static void trim(ServeGames *gs)
{
	guint over = 0;

	for (guint i = gs->order->len; i-- > 0;) {
		ServeGame *g = g_ptr_array_index(gs->order, i);
		if (game_over(g) && ++over > GAMES_KEEP_STEPS)
			live_game_trim(g->live);
	}
}

static void shown_ended(void *data, LiveGame *live, gint64 step)
{
	ServeGame *g = data;

	(void)live;
	if (step < 0)
		trim(g->gs);
}

static void add(ServeGames *gs, ServeGame *g)
{
	ServeGame *old = g_hash_table_lookup(gs->by_id, g->id);
	if (old)
		g_ptr_array_remove(gs->order, old);
	g_hash_table_insert(gs->by_id, g->id, g);
	g_ptr_array_add(gs->order, g);
}

ServeGame *games_add(ServeGames *gs, const char *id, const char *title, char **names, int n,
		     const char *log_path, LiveGame *live)
{
	ServeGame *g = g_new0(ServeGame, 1);

	g->gs = gs;
	g->id = g_strdup(id);
	g->title = g_strdup(title);
	g->n = MIN(n, VARIANT_MAX_PLAYERS);
	for (int i = 0; i < g->n; i++)
		g->names[i] = g_strdup(names[i]);
	g->log_path = g_strdup(log_path);
	g->live = live_game_ref(live);
	g->running = TRUE;
	g->created = g_get_real_time();
	g->end_watch = live_game_watch(g->live, shown_ended, g);
	add(gs, g);
	return g;
}

/* ---- running a game ---------------------------------------------------- */

static gboolean finished(gpointer data)
{
	ServeGame *g = data;

	g_thread_join(g->thread);
	g->thread = NULL;
	g->running = FALSE;
	g->over = TRUE;
	/* make sure the live feed ends, even for a game whose log never opened */
	live_game_tap(g->live, NULL, 0);
	trim(g->gs);
	return G_SOURCE_REMOVE;
}

static gpointer run(gpointer data)
{
	ServeGame *g = data;
	g_autoptr(GError) err = NULL;

	if (!game_run(&g->spec, &g->result, &err))
		g_warning("game %s: %s", g->id, err->message);
	g_idle_add(finished, g);
	return NULL;
}

static void begin(ServeGame *g)
{
	if (g->running || g->over)
		return;
	if (g->wait)
		g_source_remove(g->wait);
	g->wait = 0;
	g->running = TRUE;
	g->thread = g_thread_new(g->id, run, g);
}

static gboolean waited(gpointer data)
{
	ServeGame *g = data;

	g->wait = 0;
	begin(g);
	return G_SOURCE_REMOVE;
}

/* The log's tap (the game's thread): relay times, then the live feed.
 * A person's `< SEAT` line is timed against its page's last message. */
static void tap(void *data, const char *bytes, gsize len)
{
	ServeGame *g = data;

	for (gsize i = 0; bytes && i + 3 < len; i++) {
		if ((i == 0 || bytes[i - 1] == '\n') && bytes[i] == '<' && bytes[i + 1] == ' ') {
			int p = bytes[i + 2] - '0';
			if (p < 0 || p >= g->n || !g->seat[p] || bytes[i + 3] != ' ')
				continue;
			gint64 sent = seat_last_message(g->seat[p]);
			if (!sent)
				continue;
			double us = (double)(g_get_monotonic_time() - sent);
			ServeGames *gs = g->gs;
			g_mutex_lock(&gs->lock);
			gs->relay_n++;
			gs->relay_sum += us;
			gs->relay_max = MAX(gs->relay_max, us);
			g_mutex_unlock(&gs->lock);
		}
	}
	live_game_tap(g->live, bytes, len);
}

static char *token_new(void)
{
	return g_strdup_printf("%08x%08x%08x%08x", g_random_int(), g_random_int(), g_random_int(), g_random_int());
}

ServeGame *games_start(ServeGames *gs, const FormGame *req, GError **error)
{
	ServeGame *g = g_new0(ServeGame, 1);
	const Variant *v = req->variant;

	g->gs = gs;
	g->ours = TRUE;
	g->id = g_strdup_printf("g%u", ++gs->next);
	g->variant = g_strdup(v->name);
	g->n = req->config.nplayers;
	g->log_path = g_strdup_printf("%s/%s.log", gs->dir, g->id);
	g->live = live_game_new();
	g->created = g_get_real_time();
	guint64 seed = req->random_seed ? ((guint64)g_random_int() << 21 ^ g_random_int()) : req->seed;
	game_spec_init(&g->spec, v, g->n, seed);
	g->spec.config = req->config;
	g->spec.time = req->time;
	g->spec.log_path = g->log_path;
	g->spec.sandbox = gs->sandbox;
	g->spec.hide_dir = gs->dir;
	g->spec.log_tap = tap;
	g->spec.log_tap_data = g;
	live_game_ref(g->live);	/* the tap's, dropped when the log closes */
	GString *title = g_string_new(v->title);
	for (int p = 0; p < g->n; p++) {
		gboolean person = strcmp(req->seat[p], FORM_PERSON) == 0;
		const BotSpec *opp = person ? NULL : games_opponent(gs, req->seat[p]);
		g_string_append(title, p ? " v " : ": ");
		if (person) {
			g_autoptr(GError) e = NULL;
			g->names[p] = g_strdup_printf("person%d", p);
			g->specs[p] = bot_spec_new("web", g->names[p], NULL);
			g->person[p] = TRUE;
			g->token[p] = token_new();
			g->seat[p] = seat_new(g->specs[p], &g->spec.seats[p].bot, &e);
			if (!g->seat[p]) {
				g_propagate_error(error, g_steal_pointer(&e));
				g_string_free(title, TRUE);
				live_game_tap(g->live, NULL, 0);
				game_free(g);
				return NULL;
			}
		} else {
			g_assert(opp);
			g->names[p] = g_strdup(opp->name);
			g->specs[p] = bot_spec_copy(opp);
			g->spec.seats[p].spec = g->specs[p];
		}
		g_string_append(title, g->names[p]);
	}
	g->title = g_string_free(title, FALSE);
	add(gs, g);
	if (game_person(g) < 0)
		begin(g);
	else
		g->wait = g_timeout_add_seconds(GAMES_CONNECT_WAIT, waited, g);
	return g;
}

gboolean games_attach(ServeGames *gs, ServeGame *g, int seat, const char *token, SoupWebsocketConnection *ws)
{
	(void)gs;
	if (seat < 0 || seat >= g->n || !g->seat[seat] || !token || !g->token[seat] ||
	    strcmp(token, g->token[seat]) != 0 || g->over)
		return FALSE;
	if (!seat_attach(g->seat[seat], ws))
		return FALSE;
	gboolean all = TRUE;
	for (int p = 0; p < g->n; p++)
		if (g->seat[p] && !seat_attached(g->seat[p]))
			all = FALSE;
	if (all)
		begin(g);
	return TRUE;
}

/* ---- looking games up -------------------------------------------------- */

ServeGame *games_find(ServeGames *gs, const char *id)
{
	return id ? g_hash_table_lookup(gs->by_id, id) : NULL;
}

const char *game_id(const ServeGame *g)
{
	return g->id;
}

LiveGame *game_live(const ServeGame *g)
{
	return g->live;
}

const char *game_log_path(const ServeGame *g)
{
	return g->log_path;
}

gboolean game_over(const ServeGame *g)
{
	return g->ours ? g->over : live_game_ended(g->live);
}

int game_person(const ServeGame *g)
{
	for (int p = 0; p < g->n; p++)
		if (g->person[p])
			return p;
	return -1;
}

const char *game_token(const ServeGame *g, int seat)
{
	return seat >= 0 && seat < g->n ? g->token[seat] : NULL;
}

void games_foreach(ServeGames *gs, void (*f)(ServeGame *g, void *data), void *data)
{
	for (guint i = gs->order->len; i-- > 0;)
		f(g_ptr_array_index(gs->order, i), data);
}

const char *game_title(const ServeGame *g)
{
	return g->title;
}

char *games_json(ServeGames *gs)
{
	GString *s = g_string_new("[");

	for (guint i = gs->order->len; i-- > 0;) {
		const ServeGame *g = g_ptr_array_index(gs->order, i);
		const char *state = game_over(g) ? "over" : g->running ? "playing" : "waiting";
		if (s->len > 1)
			g_string_append_c(s, ',');
		g_string_append(s, "{\"id\":");
		json_string(s, g->id);
		g_string_append(s, ",\"title\":");
		json_string(s, g->title);
		g_string_append(s, ",\"seats\":[");
		for (int p = 0; p < g->n; p++) {
			if (p)
				g_string_append_c(s, ',');
			json_string(s, g->names[p]);
		}
		g_string_append(s, "],\"people\":[");
		gboolean first = TRUE;
		for (int p = 0; p < g->n; p++)
			if (g->person[p]) {
				g_string_append_printf(s, "%s%d", first ? "" : ",", p);
				first = FALSE;
			}
		g_string_append_printf(s, "],\"state\":\"%s\",\"steps\":%" G_GINT64_FORMAT ",\"result\":", state,
				       live_game_steps(g->live));
		json_string(s, live_game_result(g->live));
		g_string_append_c(s, '}');
	}
	g_string_append_c(s, ']');
	return g_string_free(s, FALSE);
}

void games_relay_stats(ServeGames *gs, guint *n, double *mean_us, double *max_us)
{
	g_mutex_lock(&gs->lock);
	*n = gs->relay_n;
	*mean_us = gs->relay_n ? gs->relay_sum / gs->relay_n : 0;
	*max_us = gs->relay_max;
	g_mutex_unlock(&gs->lock);
}
