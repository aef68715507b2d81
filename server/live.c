/*
 * live: a game watched while it is played. See live.h.
 *
 * The tap appends bytes to `pending` under the lock and, once per batch,
 * schedules an idle callback on the owner's main context; that callback
 * cuts the complete lines and replays them. The header lines are kept as
 * text: each batch of event lines is parsed as that header followed by
 * the batch (gamelog_parse()), so a line is parsed once.
 */
#include "live.h"

#include <string.h>

#include "referee/gamelog.h"
#include "referee/replay.h"

typedef struct {
	guint id;
	LiveWatch fn;
	void *data;
} Watcher;

struct LiveGame {
	gint refs;
	GMainContext *ctx;
	GMutex lock;
	GString *pending;	/* under lock: bytes tapped, not yet taken */
	gboolean closed;	/* under lock: the log was closed */
	gboolean scheduled;	/* under lock: an idle callback is due */
	/* the main thread's */
	GString *partial;	/* the start of a line not yet complete */
	GString *head;		/* the header's lines, up to `begin` */
	GameLog *hlog;		/* the header, parsed */
	ReplayFeed *feed;
	char *header;
	GPtrArray *steps;	/* char*, NULL once dropped */
	gint64 dropped;		/* steps dropped from the front */
	gint64 bank[VARIANT_MAX_PLAYERS];	/* each seat's clock (ms), as the referee counts it */
	gint64 used[VARIANT_MAX_PLAYERS];	/* each seat's time thought (ms) */
	gboolean ended;
	char *result;
	char *error;
	GArray *watchers;
	guint next_watch;
};

LiveGame *live_game_new(void)
{
	g_autoptr(GMainContext) ctx = g_main_context_ref_thread_default();

	return live_game_new_for(ctx);
}

LiveGame *live_game_new_for(GMainContext *ctx)
{
	LiveGame *l = g_new0(LiveGame, 1);

	l->refs = 1;
	l->ctx = g_main_context_ref(ctx);
	g_mutex_init(&l->lock);
	l->pending = g_string_new(NULL);
	l->partial = g_string_new(NULL);
	l->head = g_string_new(NULL);
	l->steps = g_ptr_array_new_with_free_func(g_free);
	l->watchers = g_array_new(FALSE, FALSE, sizeof(Watcher));
	return l;
}

LiveGame *live_game_ref(LiveGame *l)
{
	g_atomic_int_inc(&l->refs);
	return l;
}

void live_game_unref(LiveGame *l)
{
	if (!l || !g_atomic_int_dec_and_test(&l->refs))
		return;
	g_main_context_unref(l->ctx);
	g_mutex_clear(&l->lock);
	g_string_free(l->pending, TRUE);
	g_string_free(l->partial, TRUE);
	g_string_free(l->head, TRUE);
	gamelog_free(l->hlog);
	replay_feed_free(l->feed);
	g_free(l->header);
	g_ptr_array_unref(l->steps);
	g_free(l->result);
	g_free(l->error);
	g_array_unref(l->watchers);
	g_free(l);
}

static void notify(LiveGame *l, gint64 step)
{
	/* a watcher may unwatch (itself or another) while told */
	g_autoptr(GArray) copy = g_array_copy(l->watchers);
	for (guint i = 0; i < copy->len; i++) {
		Watcher *w = &g_array_index(copy, Watcher, i);
		gboolean still = FALSE;
		for (guint j = 0; j < l->watchers->len; j++)
			still |= g_array_index(l->watchers, Watcher, j).id == w->id;
		if (still)
			w->fn(w->data, l, step);
	}
}

/* The step's JSON with every seat's clock after it: `clk`, the bank left
 * (ms, null for a person's seat: its clock is the seat's own, not the
 * log's), and `used`, the time it has thought so far (ms). */
static char *with_clocks(LiveGame *l, char *step)
{
	gsize len = strlen(step);

	if (!l->hlog || len < 2 || step[len - 1] != '}')
		return step;
	GString *j = g_string_new_len(step, (gssize)len - 1);
	int n = l->hlog->config.nplayers;
	g_string_append(j, ",\"clk\":[");
	for (int p = 0; p < n; p++) {
		gboolean human = !g_strcmp0(l->hlog->command[p], "human") || !g_strcmp0(l->hlog->command[p], "web");
		if (human)
			g_string_append_printf(j, "%snull", p ? "," : "");
		else
			g_string_append_printf(j, "%s%" G_GINT64_FORMAT, p ? "," : "", l->bank[p]);
	}
	g_string_append(j, "],\"used\":[");
	for (int p = 0; p < n; p++)
		g_string_append_printf(j, "%s%" G_GINT64_FORMAT, p ? "," : "", l->used[p]);
	g_string_append(j, "]}");
	g_free(step);
	return g_string_free(j, FALSE);
}

/* Count a timed reply as the referee does (referee/game-io.c): the bank
 * loses the move's time, never below 0, and gains the increment. */
static void clock_event(LiveGame *l, const GameLogEvent *e)
{
	if ((e->kind != GAMELOG_MOVE && e->kind != GAMELOG_SUBMIT) || e->seat < 0 ||
	    e->seat >= l->hlog->config.nplayers)
		return;
	gint64 ms = (gint64)(e->wall_ms + 0.5);
	l->used[e->seat] += ms;
	l->bank[e->seat] = MAX(l->bank[e->seat] - ms, 0) + l->hlog->time.inc;
}

static void add_step(LiveGame *l, char *step)
{
	step = with_clocks(l, step);
	g_ptr_array_add(l->steps, step);
	if (l->steps->len > LIVE_HELD) {
		gint64 drop = (gint64)l->steps->len - LIVE_HELD;
		g_ptr_array_remove_range(l->steps, 0, (guint)drop);
		l->dropped += drop;
	}
	notify(l, live_game_steps(l) - 1);
}

static void fail(LiveGame *l, const char *why)
{
	if (!l->error)
		l->error = g_strdup(why);
	g_clear_pointer(&l->feed, replay_feed_free);
}

/* The header is in (its `begin` line): parse it, start the feed. */
static void start_feed(LiveGame *l)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *copy = g_strdup(l->head->str);
	l->hlog = gamelog_parse("live", copy, l->head->len, NULL, &err);
	if (!l->hlog) {
		fail(l, err->message);
		return;
	}
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		l->bank[p] = l->hlog->time.bank;
	char *start = NULL;
	l->feed = replay_feed_new(l->hlog, FALSE, &l->header, &start);
	add_step(l, start);
}

/* Replay a batch of complete event lines. */
static void feed_lines(LiveGame *l, const char *lines, gsize len)
{
	g_autoptr(GError) err = NULL;
	GString *text = g_string_sized_new(l->head->len + len);
	g_string_append_len(text, l->head->str, (gssize)l->head->len);
	g_string_append_len(text, lines, (gssize)len);
	GameLog *batch = gamelog_parse("live", text->str, text->len, NULL, &err);
	g_string_free(text, TRUE);
	if (!batch) {
		fail(l, err->message);
		return;
	}
	for (guint i = 0; l->feed && i < batch->events->len; i++) {
		char *step = NULL;
		clock_event(l, g_ptr_array_index(batch->events, i));
		if (!replay_feed_event(l->feed, g_ptr_array_index(batch->events, i), &step, &err)) {
			fail(l, err->message);
			break;
		}
		if (step)
			add_step(l, step);
	}
	gamelog_free(batch);
}

static void take_lines(LiveGame *l, GString *bytes)
{
	g_string_append_len(l->partial, bytes->str, (gssize)bytes->len);
	const char *s = l->partial->str, *end = s + l->partial->len;
	const char *body = NULL;	/* event lines from here */
	while (s < end) {
		const char *nl = memchr(s, '\n', (gsize)(end - s));
		if (!nl)
			break;
		if (!l->hlog && !l->error) {
			g_string_append_len(l->head, s, nl + 1 - s);
			if (nl - s == 5 && memcmp(s, "begin", 5) == 0)
				start_feed(l);
		} else if (!body) {
			body = s;
		}
		s = nl + 1;
	}
	if (body && l->feed)
		feed_lines(l, body, (gsize)(s - body));
	g_string_erase(l->partial, 0, (gssize)(s - l->partial->str));
}

static gboolean deliver(gpointer data)
{
	LiveGame *l = data;
	g_autoptr(GString) bytes = g_string_new(NULL);

	g_mutex_lock(&l->lock);
	GString *t = l->pending;
	l->pending = bytes;
	bytes = t;
	gboolean closed = l->closed;
	l->scheduled = FALSE;
	g_mutex_unlock(&l->lock);
	take_lines(l, bytes);
	if (closed && !l->ended) {
		if (l->feed) {
			char *last = replay_feed_end(l->feed);
			if (last)
				add_step(l, last);
			if (replay_feed_result(l->feed))
				l->result = g_strdup(replay_feed_result(l->feed));
		}
		l->ended = TRUE;
		notify(l, -1);
	}
	return G_SOURCE_REMOVE;
}

void live_game_tap(void *data, const char *bytes, gsize len)
{
	LiveGame *l = data;
	gboolean schedule;

	g_mutex_lock(&l->lock);
	if (!bytes && l->closed) {
		g_mutex_unlock(&l->lock);
		return;		/* closed already: the reference is gone */
	}
	if (bytes)
		g_string_append_len(l->pending, bytes, (gssize)len);
	else
		l->closed = TRUE;
	schedule = !l->scheduled;
	l->scheduled = TRUE;
	g_mutex_unlock(&l->lock);
	if (schedule) {
		GSource *src = g_idle_source_new();
		/* not idle priority: busy spectators' sockets would starve it */
		g_source_set_priority(src, G_PRIORITY_DEFAULT);
		g_source_set_callback(src, deliver, live_game_ref(l), (GDestroyNotify)live_game_unref);
		g_source_attach(src, l->ctx);
		g_source_unref(src);
	}
	if (!bytes)
		live_game_unref(l);
}

void live_game_trim(LiveGame *l)
{
	if (l->steps->len <= 1)
		return;
	guint drop = l->steps->len - 1;
	g_ptr_array_remove_range(l->steps, 0, drop);
	l->dropped += drop;
}

const char *live_game_header(const LiveGame *l)
{
	return l->header;
}

gint64 live_game_steps(const LiveGame *l)
{
	return l->dropped + l->steps->len;
}

const char *live_game_step(const LiveGame *l, gint64 n)
{
	if (n < l->dropped || n >= live_game_steps(l))
		return NULL;
	return g_ptr_array_index(l->steps, (guint)(n - l->dropped));
}

gboolean live_game_ended(const LiveGame *l)
{
	return l->ended;
}

const char *live_game_result(const LiveGame *l)
{
	return l->result;
}

const char *live_game_error(const LiveGame *l)
{
	return l->error;
}

guint live_game_watch(LiveGame *l, LiveWatch fn, void *data)
{
	Watcher w = {++l->next_watch, fn, data};

	g_array_append_val(l->watchers, w);
	return w.id;
}

void live_game_unwatch(LiveGame *l, guint id)
{
	for (guint i = 0; i < l->watchers->len; i++)
		if (g_array_index(l->watchers, Watcher, i).id == id) {
			g_array_remove_index(l->watchers, i);
			return;
		}
}
