/*
 * hook: the organizer's event command. See hook.h.
 */
#include "hook.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>

/*
 * A hook's exit is learnt from a pipe, not from wait: the referee's
 * sandbox may reap children it does not know (referee/sandbox.h, its
 * adopted orphans), so `sh` runs the command and writes its status on
 * fd 3; EOF without a status means the shell was killed.
 */
#define WRAPPER "/bin/sh -c \"$1\" 3>&-; echo $? >&3"

typedef struct {
	GPid pid;		/* also its process group */
	int status_fd;		/* the read end of its fd 3, non-blocking */
	char status[16];	/* what came from it */
	gint64 event;		/* its id, for messages */
	gint64 deadline;	/* monotonic */
} Running;

struct LadderHook {
	char *command;
	int deadline_ms;
	GArray *running;	/* Running */
	GArray *ending;		/* GPid: ended (or killed), not reaped yet */
	GQueue queue;		/* char * JSON lines, with their ids before them */
	GQueue ids;		/* gint64 * */
};

LadderHook *ladder_hook_new(const char *command, int deadline_ms)
{
	LadderHook *h = g_new0(LadderHook, 1);

	h->deadline_ms = deadline_ms;
	h->command = g_strdup(command);
	h->running = g_array_new(FALSE, FALSE, sizeof(Running));
	h->ending = g_array_new(FALSE, FALSE, sizeof(GPid));
	g_queue_init(&h->queue);
	g_queue_init(&h->ids);
	return h;
}

static void child_setup(gpointer data)
{
	(void)data;
	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
}

static void start(LadderHook *h, const char *line, gint64 id)
{
	const char *argv[] = {"/bin/sh", "-c", WRAPPER, "tetrarena-hook", h->command, NULL};
	g_autoptr(GError) err = NULL;
	GPid pid;
	int in = -1, status[2];

	if (!g_unix_open_pipe(status, FD_CLOEXEC, &err)) {
		fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT ": %s\n", id, err->message);
		return;
	}
	int source[] = {status[1]}, target[] = {3};
	gboolean ok = g_spawn_async_with_pipes_and_fds(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
						       G_SPAWN_STDOUT_TO_DEV_NULL, child_setup, NULL, -1, -1, -1,
						       source, target, 1, &pid, &in, NULL, NULL, &err);
	close(status[1]);
	if (!ok) {
		close(status[0]);
		fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT ": %s\n", id, err->message);
		return;
	}
	fcntl(in, F_SETFL, fcntl(in, F_GETFL) | O_NONBLOCK);
	fcntl(status[0], F_SETFL, fcntl(status[0], F_GETFL) | O_NONBLOCK);
	size_t len = strlen(line), done = 0;
	while (done < len) {
		ssize_t n = write(in, line + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* it closed its input, or the pipe is full: it has what it read */
		done += (size_t)n;
	}
	close(in);
	Running r = {pid, status[0], "", id, g_get_monotonic_time() + (gint64)h->deadline_ms * 1000};
	g_array_append_val(h->running, r);
}

static void start_queued(LadderHook *h)
{
	while (h->running->len < LADDER_HOOK_RUNNING && !g_queue_is_empty(&h->queue)) {
		g_autofree char *line = g_queue_pop_head(&h->queue);
		g_autofree gint64 *id = g_queue_pop_head(&h->ids);
		start(h, line, *id);
	}
}

void ladder_hook_send(LadderHook *h, const LadderEvent *e)
{
	if (g_queue_get_length(&h->queue) >= LADDER_HOOK_QUEUE) {
		fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT " dropped: %d events already wait for "
			"the hook (it stays in the author's feed)\n", e->id, LADDER_HOOK_QUEUE);
		return;
	}
	g_queue_push_tail(&h->queue, ladder_event_json(e));
	g_queue_push_tail(&h->ids, g_memdup2(&e->id, sizeof(e->id)));
	ladder_hook_poll(h);
}

/* Read what came on r's status pipe: TRUE when it ended (a status, or
 * EOF). */
static gboolean ended(Running *r)
{
	for (;;) {
		size_t have = strlen(r->status);
		ssize_t n = read(r->status_fd, r->status + have, sizeof(r->status) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return FALSE;	/* (EAGAIN) nothing yet */
		r->status[have + (n > 0 ? (size_t)n : 0)] = '\0';
		if (n == 0 || strchr(r->status, '\n') || have + (size_t)n >= sizeof(r->status) - 1)
			return TRUE;
	}
}

void ladder_hook_poll(LadderHook *h)
{
	gint64 now = g_get_monotonic_time();

	for (guint i = 0; i < h->running->len;) {
		Running *r = &g_array_index(h->running, Running, i);
		gboolean done = ended(r);
		if (!done && now < r->deadline) {
			i++;
			continue;
		}
		if (!done) {
			kill(-r->pid, SIGKILL);
			fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT ": the hook ran over %d ms: killed\n",
				r->event, h->deadline_ms);
		} else if (!r->status[0]) {
			fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT ": the hook was killed\n", r->event);
		} else if (strcmp(r->status, "0\n") != 0) {
			g_strchomp(r->status);
			fprintf(stderr, "ladder: --on-event: event %" G_GINT64_FORMAT ": the hook exited with status %s\n",
				r->event, r->status);
		}
		g_array_append_val(h->ending, r->pid);
		close(r->status_fd);
		g_array_remove_index(h->running, i);
	}
	/* reaped here, unless the sandbox's reaper took them first */
	for (guint i = 0; i < h->ending->len;) {
		pid_t got = waitpid(g_array_index(h->ending, GPid, i), NULL, WNOHANG);
		if (got == 0)
			i++;
		else
			g_array_remove_index_fast(h->ending, i);
	}
	start_queued(h);
}

void ladder_hook_free(LadderHook *h)
{
	if (!h)
		return;
	gint64 end = g_get_monotonic_time() + 1000000;
	while (h->running->len || !g_queue_is_empty(&h->queue) || (h->ending->len && g_get_monotonic_time() < end)) {
		ladder_hook_poll(h);
		if (h->running->len || h->ending->len)
			g_usleep(20000);
	}
	g_array_unref(h->running);
	g_array_unref(h->ending);
	g_queue_clear_full(&h->queue, g_free);
	g_queue_clear_full(&h->ids, g_free);
	g_free(h->command);
	g_free(h);
}
