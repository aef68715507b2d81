/*
 * games: the games a server runs or shows. See games.h.
 *
 * A started game's GameSpec and specs live in its ServeGame; the thread
 * runs game_run() on them and, when done, hands the result back to the
 * main loop (finished()), which frees the seats' relays.
 */
#include "games.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdlib.h>

#include <glib/gstdio.h>

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
	gint64 created;		/* real time, us (an earlier game: its log's mtime) */
	char *clock;		/* the people's clock's name, or NULL */
	gboolean earlier;	/* read from DIR at the start, not played here */
	char *result_text;	/* an earlier game's result line's fields */
	char *unreadable;	/* a file in DIR that is no log: why */
	/* the seats' clocks as the log tells them (the game's thread) */
	GMutex clock_lock;
	gint64 bank[VARIANT_MAX_PLAYERS], inc[VARIANT_MAX_PLAYERS], go_us[VARIANT_MAX_PLAYERS];
	gboolean ticking[VARIANT_MAX_PLAYERS];
	char *clocks;		/* the `web clocks` line to send, or NULL */
	gboolean clocks_queued;
};

struct ServeGames {
	char *dir;
	GPtrArray *opponents;
	SandboxMode sandbox;
	GHashTable *by_id;
	GPtrArray *order;	/* ServeGame*, oldest first (owns them) */
	guint next;
	gint64 untimed_grace_ms, fixed_grace_ms;
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
	g_free(g->clock), g_free(g->result_text), g_free(g->unreadable), g_free(g->clocks);
	g_mutex_clear(&g->clock_lock);
	g_free(g);
}

ServeGames *games_new(const char *dir, GPtrArray *opponents, SandboxMode sandbox)
{
	ServeGames *gs = g_new0(ServeGames, 1);

	gs->dir = g_strdup(dir);
	gs->opponents = opponents;
	gs->sandbox = sandbox;
	gs->untimed_grace_ms = GAMES_UNTIMED_GRACE * 1000;
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

/* Send the latest `web clocks` line to every person's page (main loop). */
static gboolean send_clocks(gpointer data)
{
	ServeGame *g = data;

	g_mutex_lock(&g->clock_lock);
	g_autofree char *line = g_strdup(g->clocks);
	g->clocks_queued = FALSE;
	g_mutex_unlock(&g->clock_lock);
	for (int p = 0; line && p < g->n; p++)
		if (g->seat[p])
			seat_send_web(g->seat[p], line);
	return G_SOURCE_REMOVE;
}

/* One log line for the clocks (the game's thread): `> S +US go MS
 * bank=B ...` starts seat S's clock with bank B; its `< S +US move` (or
 * resign) stops it, the move's time taken out and the increment added;
 * the result stops them all. Each change makes the line `web clocks
 * B0 B1 ...`: each seat's bank in ms at that moment, `*` after a
 * running one. */
/* Whether a log line is a record of `kind` (its word, then a space). */
static gboolean log_record_is(const char *text, GameLogKind kind)
{
	const char *word = gamelog_kind_name(kind);
	gsize n = strlen(word);

	return strncmp(text, word, n) == 0 && text[n] == ' ';
}

static void clock_line(ServeGame *g, const char *line, gsize len)
{
	g_autofree char *text = g_strndup(line, len);
	int p = -1;
	gint64 us = 0;
	gboolean changed = FALSE;
	char *rest = NULL;

	if ((text[0] == '>' || text[0] == '<') && text[1] == ' ' && g_ascii_isdigit(text[2])) {
		p = (int)g_ascii_strtoll(text + 2, &rest, 10);
		if (p >= g->n || !rest || rest[0] != ' ' || rest[1] != '+')
			return;
		us = g_ascii_strtoll(rest + 2, &rest, 10);
		if (!rest || *rest != ' ')
			return;
		rest++;
	}
	g_mutex_lock(&g->clock_lock);
	ProtocolVerb verb = p >= 0 ? protocol_verb(rest) : PROTOCOL_OTHER;
	if (p >= 0 && text[0] == '>' && verb == PROTOCOL_GO) {
		const char *b = strstr(rest, " bank=");
		if (b)
			g->bank[p] = g_ascii_strtoll(b + 6, NULL, 10);
		g->go_us[p] = us;
		g->ticking[p] = TRUE;
		changed = TRUE;
	} else if (p >= 0 && text[0] == '<' && g->ticking[p] &&
		   (verb == PROTOCOL_MOVE || verb == PROTOCOL_RESIGN)) {
		g->bank[p] = MAX(0, g->bank[p] - (us - g->go_us[p]) / 1000) + g->inc[p];
		g->ticking[p] = FALSE;
		changed = TRUE;
	} else if (p < 0 && (log_record_is(text, GAMELOG_RESULT) || log_record_is(text, GAMELOG_RETIRE) ||
			     log_record_is(text, GAMELOG_FAULT))) {
		int q = log_record_is(text, GAMELOG_RESULT) ? -1 : (int)g_ascii_strtoll(strchr(text, ' ') + 1, NULL, 10);
		for (int i = 0; i < g->n; i++)
			if ((q < 0 || q == i) && g->ticking[i]) {
				g->ticking[i] = FALSE;
				changed = TRUE;
			}
		us = -1;
	}
	if (changed) {
		GString *l = g_string_new("web clocks");
		for (int i = 0; i < g->n; i++) {
			gint64 b = g->bank[i];
			if (g->ticking[i] && us >= 0)
				b = MAX(0, b - (us - g->go_us[i]) / 1000);
			g_string_append_printf(l, " %" G_GINT64_FORMAT "%s", b, g->ticking[i] ? "*" : "");
		}
		g_free(g->clocks);
		g->clocks = g_string_free(l, FALSE);
		if (!g->clocks_queued) {
			g->clocks_queued = TRUE;
			g_idle_add(send_clocks, g);
		}
	}
	g_mutex_unlock(&g->clock_lock);
}

/* The log's tap (the game's thread): relay times, the clocks, then the
 * live feed. A person's `< SEAT` line is timed against its page's last
 * message. */
static void tap(void *data, const char *bytes, gsize len)
{
	ServeGame *g = data;

	for (gsize i = 0; bytes && i < len;) {
		const char *nl = memchr(bytes + i, '\n', len - i);
		gsize end = nl ? (gsize)(nl - bytes) : len;
		if (game_person(g) >= 0)
			clock_line(g, bytes + i, end - i);
		i = end + 1;
	}

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
	/* the next id above every file present, its log made here and now
	 * (O_EXCL): no file is ever overwritten */
	for (int tries = 0;; tries++) {
		g_free(g->id), g_free(g->log_path);
		g->id = g_strdup_printf("g%u", ++gs->next);
		g->log_path = g_strdup_printf("%s/%s.log", gs->dir, g->id);
		int fd = open(g->log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			break;
		}
		if (errno != EEXIST || tries > 1000) {
			g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "%s: %s", g->log_path,
				    g_strerror(errno));
			g_free(g->id), g_free(g->log_path);
			g_free(g);
			return NULL;
		}
	}
	g->variant = g_strdup(v->name);
	g->n = req->config.nplayers;
	g->clock = req->clock ? g_strdup(req->clock->name) : NULL;
	g->live = live_game_new();
	g->created = g_get_real_time();
	guint64 seed = req->random_seed ? ((guint64)g_random_int() << 21 ^ g_random_int()) : req->seed;
	game_spec_init(&g->spec, v, g->n, seed);
	g->spec.config = req->config;
	g->spec.time = req->time;
	for (int p = 0; p < g->n; p++) {
		if (req->seat_timed & (1u << p)) {
			g->spec.seats[p].timed = TRUE;
			g->spec.seats[p].time = req->seat_time[p];
		}
		g->bank[p] = game_seat_time(&g->spec, p)->bank;
		g->inc[p] = game_seat_time(&g->spec, p)->inc;
	}
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
			if (gs->fixed_grace_ms > 0)
				seat_set_grace(g->seat[p], FALSE, gs->fixed_grace_ms);
			else
				seat_set_grace(g->seat[p], !(req->clock && req->clock->untimed), gs->untimed_grace_ms);
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

/* ---- the games of earlier runs ------------------------------------------ */

/* N of a name "gN.log" or "gN.log.REST", else 0 (new ids go above it);
 * whether it is the log, or a file that goes with it: a seat's stderr
 * (gN.log.seatP.stderr) or the coach's review of a seat
 * (gN.log.seatP.DIGEST.review.json, server/coach.c), never listed. */
static guint file_number(const char *name, gboolean *is_log, gboolean *is_stderr)
{
	guint64 n;
	const char *dot = strstr(name, ".log");

	*is_log = *is_stderr = FALSE;
	if (name[0] != 'g' || !dot || dot == name + 1 || (dot[4] && dot[4] != '.'))
		return 0;
	g_autofree char *digits = g_strndup(name + 1, (gsize)(dot - name - 1));
	if (strspn(digits, "0123456789") != strlen(digits) ||
	    !g_ascii_string_to_unsigned(digits, 10, 1, G_MAXUINT / 2, &n, NULL))
		return 0;
	*is_log = !dot[4];
	const char *seat = dot + 4;
	if (g_str_has_prefix(seat, ".seat") && g_str_has_suffix(seat, ".stderr")) {
		gsize k = strspn(seat + 5, "0123456789");
		*is_stderr = k > 0 && strcmp(seat + 5 + k, ".stderr") == 0;
	}
	if (g_str_has_prefix(seat, ".seat") && g_str_has_suffix(seat, ".review.json"))
		*is_stderr = TRUE;	/* (a companion, as a stderr file) */
	return (guint)n;
}

static gint by_number(gconstpointer a, gconstpointer b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	gboolean lx, ly, ex, ey;
	guint nx = file_number(x, &lx, &ex), ny = file_number(y, &ly, &ey);

	return nx != ny ? (nx < ny ? -1 : 1) : strcmp(x, y);
}

/* An earlier game from its log, or a file that is none (unreadable). */
static void load_one(ServeGames *gs, const char *name, gboolean is_log, guint *foreign)
{
	g_autofree char *path = g_build_filename(gs->dir, name, NULL);
	g_autoptr(GError) err = NULL;
	ServeGame *g = g_new0(ServeGame, 1);
	GStatBuf st = {0};

	g->gs = gs;
	g->ours = TRUE;
	g->over = TRUE;
	g->earlier = TRUE;
	g->live = live_game_new();
	live_game_ref(g->live);	/* the tap's, dropped at once: */
	live_game_tap(g->live, NULL, 0);	/* ended, its replay page has it */
	g->created = g_stat(path, &st) == 0 ? (gint64)st.st_mtime * G_USEC_PER_SEC : 0;
	g_autoptr(GameLog) log = NULL;
	if (is_log && g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		/* a log is at most a few megabytes (docs/gamelog.md): read whole */
		if (st.st_size > 256 * 1024 * 1024)
			g_set_error(&err, G_IO_ERROR, G_IO_ERROR_FAILED, "too large to be a game log");
		else
			log = gamelog_read(path, &err);
	}
	const GameLogEvent *res = NULL;
	for (guint i = 0; log && i < log->events->len; i++) {
		const GameLogEvent *e = g_ptr_array_index(log->events, i);
		if (e->kind == GAMELOG_RESULT)
			res = e;
	}
	if (log && res) {
		g->id = g_strndup(name, strlen(name) - 4);
		g->log_path = g_steal_pointer(&path);
		g->variant = g_strdup(log->variant->name);
		g->n = log->config.nplayers;
		GString *title = g_string_new(log->variant->title);
		for (int p = 0; p < g->n; p++) {
			g->names[p] = g_strdup(log->name[p]);
			g->person[p] = strcmp(log->command[p], "web") == 0;
			g_string_append_printf(title, "%s%s", p ? " v " : ": ", log->name[p]);
		}
		g->title = g_string_free(title, FALSE);
		g->result_text = g_strdup(res->text);
	} else {
		/* not a game this server can show: listed, never opened */
		g->id = g_strdup_printf("file%u", ++*foreign);
		g->title = g_strdup(name);
		g->unreadable = g_strdup(log ? "the log has no result (a game cut short)"
				     : err ? err->message : "not a game log");
	}
	add(gs, g);
}

void games_load(ServeGames *gs)
{
	g_autoptr(GDir) d = g_dir_open(gs->dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	guint foreign = 0;

	while (d && (name = g_dir_read_name(d))) {
		gboolean is_log, is_stderr;
		guint n = file_number(name, &is_log, &is_stderr);
		gs->next = MAX(gs->next, n);
		if (!is_stderr)
			g_ptr_array_add(names, g_strdup(name));
	}
	g_ptr_array_sort(names, by_number);
	for (guint i = 0; i < names->len; i++) {
		gboolean is_log, is_stderr;
		file_number(names->pdata[i], &is_log, &is_stderr);
		load_one(gs, names->pdata[i], is_log, &foreign);
	}
}

void games_set_seat_grace(ServeGames *gs, gint64 ms)
{
	gs->fixed_grace_ms = ms;
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

gboolean game_earlier(const ServeGame *g)
{
	return g->earlier;
}

gboolean game_readable(const ServeGame *g)
{
	return !g->unreadable;
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
		const char *state = g->unreadable ? "unreadable" : game_over(g) ? "over" : g->running ? "playing" : "waiting";
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
		json_string(s, g->result_text ? g->result_text : live_game_result(g->live));
		g_autoptr(GDateTime) when = g->created ? g_date_time_new_from_unix_utc(g->created / G_USEC_PER_SEC) : NULL;
		g_autofree char *date = when ? g_date_time_format_iso8601(when) : NULL;
		g_string_append(s, ",\"date\":");
		json_string(s, date);
		g_string_append(s, ",\"clock\":");
		json_string(s, g->clock);
		g_string_append_printf(s, ",\"earlier\":%s,\"why\":", g->earlier ? "true" : "false");
		json_string(s, g->unreadable);
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
