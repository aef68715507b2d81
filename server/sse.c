/*
 * sse: a spectator of a live game. See sse.h.
 *
 * Bytes go into `queue`; one asynchronous write at a time takes them
 * (`busy`), moved to `sending` first: the write holds its buffer until it
 * ends, while new steps go on growing (reallocating) `queue`. A write
 * error or a queue over the cap ends the spectator; so does the game's
 * end once the queue has drained. `queued` counts the memory of every
 * queue and write in flight (allocated, not only used: a GString grows
 * by doubling), for the budget, each spectator's share as last counted
 * in `counted` (account()), taken out when it ends; a spectator dropped
 * with a write in flight has it cancelled, so that its buffer goes at
 * once.
 */
#include "sse.h"

#include <malloc.h>
#include <string.h>

typedef struct {
	LiveGame *live;
	GIOStream *conn;
	GOutputStream *out;
	GCancellable *cancel;
	GString *queue;
	GString *sending;	/* the write in flight's bytes, or NULL */
	gsize cap;
	gsize writing;		/* bytes the write in flight holds */
	gsize backlog;		/* of the queue, what was there when it came
				 * (the steps so far), not yet written: not
				 * counted against the cap */
	gsize counted;		/* its share of `queued` */
	gboolean busy, ending, gone;
	gboolean reading;	/* a read in flight: the client's end is seen
				 * at once, even when nothing is written */
	char in[256];		/* what a client sends: thrown away */
	gint64 next;		/* the next step to send */
	gint64 last;		/* the step it had (Last-Event-ID), or -1 */
	gboolean started;	/* the header is sent */
	guint watch;
} Spectator;

static guint count, dropped;
static gsize queued, budget = SSE_BUDGET, freed;
static GPtrArray *all;		/* Spectator*: those not gone */
static gboolean trim_due;

static void pump(Spectator *s);

/* Bytes not yet taken by the network, for the cap. */
static gsize unsent(const Spectator *s)
{
	return s->queue->len + s->writing;
}

/* Memory its queue and write in flight hold, for the budget. */
static gsize held(const Spectator *s)
{
	return s->queue->allocated_len + (s->sending ? s->sending->allocated_len : 0);
}

static void account(Spectator *s)
{
	queued += held(s);
	queued -= s->counted;
	s->counted = held(s);
}

static gboolean trim(gpointer data)
{
	(void)data;
	malloc_trim(0);
	trim_due = FALSE;
	return G_SOURCE_REMOVE;
}

/* Dropped spectators' memory back to the system, once the loop is idle. */
static void give_back(gsize n)
{
	freed += n;
	if (freed < SSE_TRIM_AFTER || trim_due)
		return;
	freed = 0;
	trim_due = TRUE;
	GSource *idle = g_idle_source_new();
	g_source_set_priority(idle, G_PRIORITY_LOW);
	g_source_set_callback(idle, trim, NULL, NULL);
	g_source_attach(idle, g_main_context_get_thread_default());
	g_source_unref(idle);
}

static void finish(Spectator *s)
{
	if (!s->gone) {
		if (s->watch)
			live_game_unwatch(s->live, s->watch);
		s->watch = 0;
		g_ptr_array_remove_fast(all, s);
		s->gone = TRUE;
		/* out of the budget now: a write in flight is cancelled and
		 * its buffer goes with it (else the budget's drops would go
		 * on to spectators that hold nothing) */
		queued -= s->counted;
		s->counted = 0;
	}
	if (s->busy || s->reading) {
		g_cancellable_cancel(s->cancel);
		return;		/* the write or read in flight ends it */
	}
	gsize n = held(s);
	g_io_stream_close(s->conn, NULL, NULL);
	g_object_unref(s->conn);
	g_object_unref(s->cancel);
	live_game_unref(s->live);
	g_string_free(s->queue, TRUE);
	if (s->sending)
		g_string_free(s->sending, TRUE);
	g_free(s);
	count--;
	give_back(n);
}

static void drop(Spectator *s)
{
	dropped++;
	g_string_free(s->queue, TRUE);
	s->queue = g_string_new(NULL);
	account(s);
	s->ending = FALSE;
	finish(s);
}

static void wrote(GObject *src, GAsyncResult *res, gpointer data)
{
	Spectator *s = data;
	gsize n = 0;
	gboolean ok = g_output_stream_write_all_finish(G_OUTPUT_STREAM(src), res, &n, NULL);

	s->busy = FALSE;
	if (!ok && !s->gone) {
		dropped++;	/* reset, or no progress for the stall timeout */
		finish(s);
		return;
	}
	if (!ok || s->gone) {
		finish(s);
		return;
	}
	g_string_free(s->sending, TRUE);
	s->sending = NULL;
	account(s);
	s->backlog -= MIN(s->backlog, s->writing);
	s->writing = 0;
	pump(s);
}

/* The client sent something (thrown away) or went: when it went, the
 * spectator ends now, not at its next write. */
static void got(GObject *src, GAsyncResult *res, gpointer data)
{
	Spectator *s = data;
	g_autoptr(GError) err = NULL;
	gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, &err);

	s->reading = FALSE;
	/* the socket's timeout (the stall timeout) is for writes: a
	 * spectator sends nothing */
	if (n < 0 && g_error_matches(err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) && !s->gone)
		n = 1;
	if (n <= 0 || s->gone) {
		finish(s);
		return;
	}
	s->reading = TRUE;
	g_input_stream_read_async(G_INPUT_STREAM(src), s->in, sizeof(s->in), G_PRIORITY_DEFAULT, s->cancel, got, s);
}

static void pump(Spectator *s)
{
	if (s->busy || s->gone)
		return;
	if (!s->queue->len) {
		if (s->ending)
			finish(s);
		return;
	}
	s->busy = TRUE;
	s->sending = s->queue;
	s->queue = g_string_new(NULL);
	s->writing = s->sending->len;
	account(s);
	g_output_stream_write_all_async(s->out, s->sending->str, s->writing, G_PRIORITY_DEFAULT, s->cancel, wrote, s);
}

static void event(Spectator *s, const char *name, gint64 id, const char *data)
{
	g_string_append_printf(s->queue, "event: %s\n", name);
	if (id >= 0)
		g_string_append_printf(s->queue, "id: %" G_GINT64_FORMAT "\n", id);
	/* JSON has no raw newline: one data line */
	g_string_append_printf(s->queue, "data: %s\n\n", data);
	account(s);
}

/* Queue what is new: steps from s->next, then the end. */
static void queue_new(Spectator *s)
{
	LiveGame *l = s->live;
	gint64 n = live_game_steps(l);

	for (; s->next < n; s->next++) {
		const char *st = live_game_step(l, s->next);
		if (st)
			event(s, "step", s->next, st);
	}
	if (live_game_ended(l) && !s->ending) {
		g_autoptr(GString) end = g_string_new("{\"result\":");
		if (live_game_result(l)) {
			g_string_append_c(end, '"');
			g_string_append(end, live_game_result(l));	/* fields: no quote, no backslash */
			g_string_append_c(end, '"');
		} else {
			g_string_append(end, "null");
		}
		g_string_append_printf(end, ",\"steps\":%" G_GINT64_FORMAT "}", n);
		event(s, "end", -1, end->str);
		s->ending = TRUE;
	}
}

static gint most_held_first(gconstpointer a, gconstpointer b)
{
	gsize x = held(*(Spectator *const *)a), y = held(*(Spectator *const *)b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/* All queues over the budget: drop those that hold the most, down to
 * three quarters of it (so that the sort is not made again at the next
 * step). */
static void keep_budget(void)
{
	if (queued <= budget)
		return;
	g_autoptr(GPtrArray) order = g_ptr_array_copy(all, NULL, NULL);
	g_ptr_array_sort(order, most_held_first);
	for (guint i = 0; i < order->len && queued > budget / 4 * 3; i++)
		drop(g_ptr_array_index(order, i));
}

/* Send what is queued, or drop a spectator whose queue is over the cap. */
static void send_or_drop(Spectator *s)
{
	if (unsent(s) > s->cap + s->backlog) {
		drop(s);
		return;
	}
	pump(s);
	keep_budget();
}


/* The header event, once the header is in. */
static gboolean sent_header(Spectator *s, gint64 last)
{
	const char *h = live_game_header(s->live);
	if (!h)
		return FALSE;
	event(s, "game", -1, h);
	gint64 n = live_game_steps(s->live);
	gboolean held = last >= 0 ? last < n && live_game_step(s->live, last) != NULL
				  : n == 0 || live_game_step(s->live, 0) != NULL;
	if (!held) {
		/* what it has (or the start) is gone: the latest step, to draw
		 * from scratch */
		if (n > 0)
			event(s, "full", n - 1, live_game_step(s->live, n - 1));
		s->next = n;
	} else {
		s->next = last + 1;
	}
	return TRUE;
}

static void on_live(void *data, LiveGame *live, gint64 step)
{
	Spectator *s = data;

	(void)live, (void)step;
	if (!s->started && (s->started = sent_header(s, s->last))) {
		queue_new(s);
		s->backlog = s->queue->len;
	} else if (s->started || live_game_ended(s->live)) {
		queue_new(s);
	}
	send_or_drop(s);	/* may end s */
}

void sse_serve(LiveGame *live, GIOStream *conn, gint64 last, const SseLimits *lim)
{
	Spectator *s = g_new0(Spectator, 1);

	if (!all)
		all = g_ptr_array_new();
	g_ptr_array_add(all, s);
	budget = lim->budget ? lim->budget : SSE_BUDGET;
	count++;
	s->cancel = g_cancellable_new();
	s->live = live_game_ref(live);
	s->conn = conn;
	s->out = g_io_stream_get_output_stream(conn);
	s->queue = g_string_new("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
				"Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
				"Connection: close\r\n\r\n");
	account(s);
	s->cap = lim->cap ? lim->cap : SSE_QUEUE_CAP;
	s->last = last;
	s->reading = TRUE;
	g_input_stream_read_async(g_io_stream_get_input_stream(conn), s->in, sizeof(s->in), G_PRIORITY_DEFAULT,
				  s->cancel, got, s);
	s->watch = live_game_watch(live, on_live, s);
	on_live(s, live, -1);
}

guint sse_count(void)
{
	return count;
}

guint sse_dropped(void)
{
	return dropped;
}

gsize sse_queued(void)
{
	return queued;
}
