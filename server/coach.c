/*
 * coach: reviews and hints in worker children. See coach.h.
 *
 * A Job is one child: `/proc/self/exe review LOG --seat S --json
 * --progress`, its stdout kept (bounded), its stderr read line by line for
 * "decision K of N" (progress) and its last line (the error). Three
 * things end a job, in any order: stdout's end, stderr's end and the
 * child's exit; the last of them finishes it. A timer kills the child's
 * process group at the deadline. Jobs stay in the table by key (review:
 * "ID/S", hint: "hint/ID/S") to be polled; a finished hint is replaced by
 * the next one asked.
 */
#include "coach.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "referee/gamelog.h"
#include "referee/json.h"

#define COACH_ERR_MAX (64 * 1024)	/* a child's stderr kept (bytes) */
#define COACH_READ 16384		/* bytes a read asks for */

struct Coach {
	SandboxMode mode;
	gboolean hints_ok;
	GHashTable *jobs;	/* key -> Job* */
	int running;
};

typedef struct {
	gint refs;
	Coach *c;		/* NULL once the coach is gone */
	gboolean hint;
	int seat;
	char *cache;		/* a review's file, or NULL */
	GSubprocess *proc;
	GCancellable *cancel;
	GString *out, *err;
	gboolean out_over;	/* stdout past COACH_OUT_MAX */
	int pending;		/* of stdout's end, stderr's end, the exit */
	gboolean exited, exited_ok;	/* reaped: its pid is no longer ours */
	gboolean killed;	/* at the deadline */
	guint timer;
	gint64 started, ended;	/* monotonic us; ended 0 while it runs */
	int step, count;	/* progress */
	char *result;		/* done: the JSON served */
	char *error;		/* failed: why */
} Job;

static Job *job_ref(Job *j)
{
	j->refs++;
	return j;
}

static void job_unref(Job *j)
{
	if (--j->refs > 0)
		return;
	g_clear_handle_id(&j->timer, g_source_remove);
	g_clear_object(&j->proc);
	g_clear_object(&j->cancel);
	g_string_free(j->out, TRUE);
	g_string_free(j->err, TRUE);
	g_free(j->cache);
	g_free(j->result);
	g_free(j->error);
	g_free(j);
}

static void job_kill(Job *j)
{
	const char *id = j->proc && !j->exited ? g_subprocess_get_identifier(j->proc) : NULL;
	gint64 pid = 0;

	/* the child leads its own group: the AI it starts goes with it */
	if (id && g_ascii_string_to_signed(id, 10, 2, G_MAXINT, &pid, NULL))
		kill(-(pid_t)pid, SIGKILL);
}

Coach *coach_new(SandboxMode mode, gboolean hints_ok)
{
	Coach *c = g_new0(Coach, 1);

	c->mode = mode;
	c->hints_ok = hints_ok;
	c->jobs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)job_unref);
	return c;
}

void coach_free(Coach *c)
{
	GHashTableIter it;
	gpointer v;

	if (!c)
		return;
	g_hash_table_iter_init(&it, c->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Job *j = v;
		j->c = NULL;
		g_clear_handle_id(&j->timer, g_source_remove);
		job_kill(j);
		g_cancellable_cancel(j->cancel);
	}
	g_hash_table_unref(c->jobs);
	g_free(c);
}

/* ---- a job's end ------------------------------------------------------------ */

/* Keep `json` (a review's list) in the cache, never over a file. */
static void keep(Job *j, const char *json, gsize len)
{
	int fd = open(j->cache, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return;		/* there already, or not writable: served from memory */
	gsize done = 0;
	while (done < len) {
		ssize_t n = write(fd, json + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (gsize)n;
	}
	if (close(fd) != 0 || done < len)
		unlink(j->cache);	/* ours (O_EXCL): a short file would be served */
}

/* The hint: the latest decision's entry of the review list. */
static char *hint_json(const char *list)
{
	/* the list is ours (cli/review.c): one decision a line, "{...}" */
	g_auto(GStrv) lines = g_strsplit(list, "\n", -1);
	const char *last = NULL;

	for (int i = 0; lines[i]; i++)
		if (lines[i][0] == '{')
			last = lines[i];
	if (!last)
		return NULL;
	gsize n = strlen(last);
	if (n && last[n - 1] == ',')
		n--;
	return g_strdup_printf("{\"state\": \"done\", \"decision\": %.*s}", (int)n, last);
}

static void finish(Job *j)
{
	j->ended = g_get_monotonic_time();
	g_clear_handle_id(&j->timer, g_source_remove);
	if (j->c)
		j->c->running--;
	const char *text = j->out->str;
	while (*text == ' ' || *text == '\n')
		text++;
	if (!j->exited_ok || j->out_over || text[0] != '[') {
		/* the child's last line says why */
		g_autofree char *why = g_strstrip(g_strdup(j->err->str));
		char *nl = strrchr(why, '\n');
		j->error = j->killed ? g_strdup_printf("the AI took longer than %d s", j->hint ? COACH_HINT_S : COACH_REVIEW_S)
			   : j->out_over ? g_strdup("the review is too long")
			   : g_strdup(why[0] ? (nl ? nl + 1 : why) : "the review failed");
		return;
	}
	if (j->hint) {
		j->result = hint_json(text);
		if (!j->result)
			j->error = g_strdup("no decision to hint at");
		return;
	}
	keep(j, text, strlen(text));
	GString *r = g_string_new(NULL);
	g_string_append_printf(r, "{\"state\": \"done\", \"seat\": %d, \"steps\": %s}", j->seat, text);
	j->result = g_string_free(r, FALSE);
}

static void one_done(Job *j)
{
	if (--j->pending == 0)
		finish(j);
}

/* Progress from stderr's complete lines: "referee: review: decision K of N". */
static void read_progress(Job *j)
{
	const char *s = j->err->str;
	const char *p;

	while ((p = strstr(s, "decision ")) != NULL) {
		char *end;
		gint64 k = g_ascii_strtoll(p + 9, &end, 10);
		if (end != p + 9 && g_str_has_prefix(end, " of ")) {
			char *end2;
			gint64 n = g_ascii_strtoll(end + 4, &end2, 10);
			if (end2 != end + 4 && k >= 0 && n >= k && n <= G_MAXINT) {
				j->step = (int)k;
				j->count = (int)n;
			}
		}
		s = p + 9;
	}
	/* keep only the last lines */
	if (j->err->len > COACH_ERR_MAX)
		g_string_erase(j->err, 0, (gssize)(j->err->len - COACH_ERR_MAX / 2));
}

static void on_read(GObject *src, GAsyncResult *res, gpointer data);

static void read_more(Job *j, GInputStream *in)
{
	g_input_stream_read_bytes_async(in, COACH_READ, G_PRIORITY_DEFAULT, j->cancel, on_read, job_ref(j));
}

static void on_read(GObject *src, GAsyncResult *res, gpointer data)
{
	Job *j = data;
	GInputStream *in = G_INPUT_STREAM(src);
	g_autoptr(GBytes) b = g_input_stream_read_bytes_finish(in, res, NULL);
	gsize len = 0;
	const char *bytes = b ? g_bytes_get_data(b, &len) : NULL;

	if (!b || len == 0) {
		one_done(j);
	} else if (in == g_subprocess_get_stdout_pipe(j->proc)) {
		if (j->out->len + len > COACH_OUT_MAX)
			j->out_over = TRUE;
		else
			g_string_append_len(j->out, bytes, (gssize)len);
		read_more(j, in);
	} else {
		g_string_append_len(j->err, bytes, (gssize)len);
		read_progress(j);
		read_more(j, in);
	}
	job_unref(j);
}

static void on_exited(GObject *src, GAsyncResult *res, gpointer data)
{
	Job *j = data;

	j->exited = TRUE;
	j->exited_ok = g_subprocess_wait_check_finish(G_SUBPROCESS(src), res, NULL);
	one_done(j);
	job_unref(j);
}

static gboolean deadline(gpointer data)
{
	Job *j = data;

	j->timer = 0;
	j->killed = TRUE;
	job_kill(j);
	return G_SOURCE_REMOVE;
}

static void child_setup(gpointer data)
{
	(void)data;
	setpgid(0, 0);
}

/* Start `referee review` on the log for the seat. NULL with why set. */
static Job *job_start(Coach *c, const char *log, int seat, gboolean hint, char **why)
{
	g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
								      G_SUBPROCESS_FLAGS_STDERR_PIPE);
	char seatarg[16];
	g_autoptr(GError) err = NULL;

	g_snprintf(seatarg, sizeof(seatarg), "%d", seat);
	g_subprocess_launcher_set_child_setup(l, child_setup, NULL, NULL);
	const char *argv[] = {"/proc/self/exe", "review", log, "--seat", seatarg, "--json", "--progress",
			      "--sandbox", sandbox_mode_name(c->mode), NULL};
	GSubprocess *p = g_subprocess_launcher_spawnv(l, argv, &err);
	if (!p) {
		*why = g_strdup(err->message);
		return NULL;
	}
	Job *j = g_new0(Job, 1);
	j->refs = 1;
	j->c = c;
	j->hint = hint;
	j->seat = seat;
	j->proc = p;
	j->cancel = g_cancellable_new();
	j->out = g_string_new(NULL);
	j->err = g_string_new(NULL);
	j->started = g_get_monotonic_time();
	j->pending = 3;
	c->running++;
	read_more(j, g_subprocess_get_stdout_pipe(p));
	read_more(j, g_subprocess_get_stderr_pipe(p));
	g_subprocess_wait_check_async(p, j->cancel, on_exited, job_ref(j));
	const char *scale = g_getenv("TETRARENA_TIME_SCALE");
	double k = scale ? g_ascii_strtod(scale, NULL) : 1;
	if (!(k >= 1 && k <= 100))
		k = 1;
	j->timer = g_timeout_add((guint)((hint ? COACH_HINT_S : COACH_REVIEW_S) * 1000 * k), deadline, j);
	return j;
}

/* ---- answers ---------------------------------------------------------------- */

static void answer(SoupServerMessage *msg, guint status, const char *type, const char *body)
{
	SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);

	soup_message_headers_replace(h, "X-Content-Type-Options", "nosniff");
	soup_message_headers_replace(h, "Connection", "close");
	soup_message_headers_replace(h, "Cache-Control", "no-store");
	soup_server_message_set_status(msg, status, NULL);
	soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body, strlen(body));
}

static void refuse(SoupServerMessage *msg, guint status, const char *why)
{
	g_autofree char *line = g_strdup_printf("%s\n", why);
	answer(msg, status, "text/plain; charset=utf-8", line);
}

static void job_answer(SoupServerMessage *msg, const Job *j)
{
	g_autoptr(GString) s = g_string_new(NULL);

	if (j->result) {
		answer(msg, SOUP_STATUS_OK, "application/json", j->result);
		return;
	}
	if (j->error) {
		g_string_append(s, "{\"state\": \"failed\", \"error\": ");
		json_string(s, j->error);
		g_string_append_c(s, '}');
	} else {
		g_string_append_printf(s, "{\"state\": \"running\", \"step\": %d, \"count\": %d, \"seconds\": %.1f}",
				       j->step, j->count, (double)(g_get_monotonic_time() - j->started) / 1e6);
	}
	answer(msg, SOUP_STATUS_OK, "application/json", s->str);
}

/* The seat asked, checked against the log's header: FALSE, answered, when
 * it is not a seat of the log or a person did not play it. */
static gboolean person_seat(SoupServerMessage *msg, ServeGame *g, GHashTable *query, int *seat)
{
	const char *text = query ? g_hash_table_lookup(query, "seat") : NULL;
	guint64 v;
	g_autoptr(GError) err = NULL;

	if (!text || !g_ascii_string_to_unsigned(text, 10, 0, VARIANT_MAX_PLAYERS - 1, &v, NULL)) {
		refuse(msg, SOUP_STATUS_BAD_REQUEST, "want ?seat=S");
		return FALSE;
	}
	g_autoptr(GameLog) log = gamelog_read(game_log_path(g), &err);
	if (!log) {
		refuse(msg, SOUP_STATUS_CONFLICT, "the game's log cannot be read yet");
		return FALSE;
	}
	if ((int)v >= log->config.nplayers ||
	    (g_strcmp0(log->command[v], "web") != 0 && g_strcmp0(log->command[v], "human") != 0)) {
		refuse(msg, SOUP_STATUS_BAD_REQUEST, "no person played that seat: only a person's moves are reviewed");
		return FALSE;
	}
	*seat = (int)v;
	return TRUE;
}

void coach_review(Coach *c, SoupServerMessage *msg, ServeGame *g, GHashTable *query)
{
	int seat;

	if (!game_over(g)) {
		refuse(msg, SOUP_STATUS_CONFLICT, "the game is not over yet");
		return;
	}
	if (!person_seat(msg, g, query, &seat))
		return;
	g_autofree char *key = g_strdup_printf("%s/%d", game_id(g), seat);
	/* named by the log's digest too: a log written again under the same
	 * name (a server started afresh on the same directory) is not
	 * served another game's review */
	g_autofree char *text = NULL, *logtext = NULL;
	gsize len, loglen;
	if (!g_file_get_contents(game_log_path(g), &logtext, &loglen, NULL)) {
		refuse(msg, SOUP_STATUS_CONFLICT, "the game's log cannot be read");
		return;
	}
	g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)logtext, loglen);
	g_autofree char *cache = g_strdup_printf("%s.seat%d.%.16s.review.json", game_log_path(g), seat, sum);
	g_free(key);
	key = g_strdup_printf("%s/%d/%.16s", game_id(g), seat, sum);
	if (g_file_get_contents(cache, &text, &len, NULL) && len <= COACH_OUT_MAX) {
		Job *done = g_hash_table_lookup(c->jobs, key);
		if (done && done->ended)
			g_hash_table_remove(c->jobs, key);	/* the file has it: memory need not */
		g_autofree char *body = g_strdup_printf("{\"state\": \"done\", \"seat\": %d, \"steps\": %s}", seat, text);
		answer(msg, SOUP_STATUS_OK, "application/json", body);
		return;
	}
	Job *j = g_hash_table_lookup(c->jobs, key);
	if (!j) {
		if (c->running >= COACH_JOBS) {
			refuse(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "the coach is busy: try again in a minute");
			return;
		}
		g_autofree char *why = NULL;
		j = job_start(c, game_log_path(g), seat, FALSE, &why);
		if (!j) {
			refuse(msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, why);
			return;
		}
		j->cache = g_steal_pointer(&cache);
		g_hash_table_insert(c->jobs, g_steal_pointer(&key), j);
	}
	job_answer(msg, j);
}

void coach_hint(Coach *c, SoupServerMessage *msg, ServeGame *g, GHashTable *query)
{
	int seat;
	const char *token = query ? g_hash_table_lookup(query, "token") : NULL;
	gboolean given = c->hints_ok && game_person(g) >= 0;

	if (query && g_hash_table_lookup(query, "probe")) {
		answer(msg, SOUP_STATUS_OK, "application/json", given ? "{\"hints\": true}" : "{\"hints\": false}");
		return;
	}
	if (!given) {
		refuse(msg, SOUP_STATUS_FORBIDDEN, "no hints here: hints are only for a person's own game "
		       "started from this server's start page, never in a tournament's or a ladder's");
		return;
	}
	if (game_over(g)) {
		refuse(msg, SOUP_STATUS_CONFLICT, "the game is over: see its review on the replay page");
		return;
	}
	if (!person_seat(msg, g, query, &seat))
		return;
	if (!token || g_strcmp0(token, game_token(g, seat)) != 0) {
		refuse(msg, SOUP_STATUS_FORBIDDEN, "a hint is for the seat's own page (its token)");
		return;
	}
	g_autofree char *key = g_strdup_printf("hint/%s/%d", game_id(g), seat);
	Job *j = g_hash_table_lookup(c->jobs, key);
	gboolean again = query && g_hash_table_lookup(query, "new");
	if (j && j->ended && again) {
		if (g_get_monotonic_time() - j->started < COACH_HINT_GAP_S * G_USEC_PER_SEC) {
			refuse(msg, 429, "one hint every few seconds: wait a little");
			return;
		}
		g_hash_table_remove(c->jobs, key);
		j = NULL;
	}
	if (!j) {
		if (c->running >= COACH_JOBS) {
			refuse(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "the coach is busy: try again in a moment");
			return;
		}
		g_autofree char *why = NULL;
		j = job_start(c, game_log_path(g), seat, TRUE, &why);
		if (!j) {
			refuse(msg, SOUP_STATUS_INTERNAL_SERVER_ERROR, why);
			return;
		}
		g_hash_table_insert(c->jobs, g_steal_pointer(&key), j);
	}
	job_answer(msg, j);
}

char *coach_replay_page(char *page)
{
	const char *end = g_strrstr(page, "</body>");
	const char *tag = "<script src=\"/assets/coach.js\"></script>\n";

	if (!end)
		return page;
	char *out = g_strdup_printf("%.*s%s%s", (int)(end - page), page, tag, end);
	g_free(page);
	return out;
}
