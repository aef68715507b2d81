/*
 * bot: bot processes. See bot.h for the contract.
 *
 * Invariants of Bot: buf[start..len) holds bytes read from stdout and not
 * yet handed out as lines; `overlong` once set stays set and every later
 * byte is discarded; err_fd is -1 once stderr reached EOF; the child is
 * reaped exactly once, in bot_free().
 */
#include "bot.h"
#include "asyncfile.h"
#include "keyfile.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct Bot {
	BotSpec *spec;
	pid_t pid;		/* our child (bwrap when jailed) */
	Sandbox *sandbox;	/* its cgroups */
	gboolean own_group;	/* the bot leads its own process group */
	int in_fd, out_fd, err_fd;
	FILE *err_out;		/* capped stderr copy, NULL when not open */
	char *err_path;		/* where it goes, opened at its first byte
				 * (a bot that writes none makes no file);
				 * NULL: dropped, or open */
	char *err_open;		/* the path of err_out */
	gboolean err_async;	/* err_out made, written and closed by helper
				 * threads (asyncfile.h) */
	guint64 err_kept, err_dropped;
	int err_mark;		/* the `go` whose marker goes before the next
				 * stderr bytes (0: none) */
	gboolean err_marked;	/* that marker is written */
	gboolean err_midline;	/* the last byte kept was not a newline */
	pid_t own_pid;		/* the bot's own process (jailed: inside), 0
				 * until found with its clock */
	clockid_t cpu_clock;	/* that process's CPU-time clock */
	gboolean has_cpu_clock;
	guint64 cpu_spent_at;	/* CPU s its cpu limit was last renewed at */
	gboolean eof, overlong, reported_overlong;
	gsize start, len;
	guint64 written;	/* bytes written to its stdin so far */
	int games;
	gboolean multi, moves;
	char *hello_name;
	gboolean relay;		/* bot_new_relay(): no process, a connection */
	char buf[BOT_LINE_MAX + 1];
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The stderr file goes to `path` from now on: not created until the bot
 * writes a byte. With `fresh`, a file there from an earlier run of the
 * same game is removed now, so that what is there is this game's. */
static void stderr_to(Bot *bot, const char *path, gboolean fresh)
{
	g_free(bot->err_path);
	bot->err_path = g_strdup(path);
	if (path && fresh)
		unlink(path);
}

/* The stderr file, opened at the first byte to keep; FALSE when there is
 * none (dropped, or it cannot be made: said once). */
static gboolean stderr_open(Bot *bot)
{
	static gint warned;

	if (bot->err_out)
		return TRUE;
	if (!bot->err_path)
		return FALSE;
	if (bot->err_async) {
		bot->err_out = asyncfile_open(bot->err_path, 0600, BOT_STDERR_BUFFER);
	} else {
		int fd = open(bot->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		bot->err_out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (bot->err_out)
			setvbuf(bot->err_out, NULL, _IONBF, 0);	/* as written, for tail -f */
		else if (g_atomic_int_compare_and_exchange(&warned, 0, 1))
			g_printerr("referee: warning: stderr file %s: %s: the bot's stderr is dropped\n",
				   bot->err_path, g_strerror(errno));
	}
	g_free(bot->err_open);
	bot->err_open = g_steal_pointer(&bot->err_path);
	return bot->err_out != NULL;
}

Bot *bot_spawn(const BotSpec *spec, const char *stderr_path, const SandboxLaunch *launch, GError **error)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};

	/* A write to a bot that exited must be an error, not our death. */
	signal(SIGPIPE, SIG_IGN);

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;
		close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
		close_fd(&err[0]), close_fd(&err[1]);
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "pipe: %s", g_strerror(e));
		return NULL;
	}
	const int fds[3] = {in[0], out[1], spec->human ? -1 : err[1]};
	pid_t pid = 0, bot_pid = 0;
	Sandbox *sb = sandbox_start(spec, launch, fds, &pid, &bot_pid, error);
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	if (!sb) {
		close_fd(&in[1]), close_fd(&out[0]), close_fd(&err[0]);
		return NULL;
	}

	Bot *bot = g_new(Bot, 1);
	bot->spec = bot_spec_copy(spec);
	bot->pid = pid;
	bot->sandbox = sb;
	bot->own_group = !spec->human;
	bot->in_fd = in[1];
	bot->out_fd = out[0];
	bot->err_fd = spec->human ? -1 : err[0];
	if (spec->human)
		close_fd(&err[0]);
	bot->err_out = NULL;
	bot->err_path = bot->err_open = NULL;
	bot->err_async = FALSE;
	if (stderr_path)
		stderr_to(bot, stderr_path, FALSE);
	bot->err_kept = bot->err_dropped = 0;
	bot->err_mark = 0;
	bot->err_marked = bot->err_midline = FALSE;
	bot->has_cpu_clock = bot_pid > 0 && clock_getcpuclockid(bot_pid, &bot->cpu_clock) == 0;
	bot->own_pid = bot->has_cpu_clock ? bot_pid : 0;
	bot->cpu_spent_at = 0;	/* its limit is cpu, from 0 s */
	bot->eof = bot->overlong = bot->reported_overlong = FALSE;
	bot->start = bot->len = 0;
	bot->written = 0;
	bot->games = 0;
	bot->multi = bot->moves = FALSE;
	bot->hello_name = NULL;
	bot->relay = FALSE;
	fcntl(bot->in_fd, F_SETFL, fcntl(bot->in_fd, F_GETFL) | O_NONBLOCK);
	fcntl(bot->out_fd, F_SETFL, fcntl(bot->out_fd, F_GETFL) | O_NONBLOCK);
	if (bot->err_fd >= 0)
		fcntl(bot->err_fd, F_SETFL, fcntl(bot->err_fd, F_GETFL) | O_NONBLOCK);
	return bot;
}

static void bot_kill_and_reap(Bot *bot)
{
	if (bot->pid <= 0 && !bot->sandbox)
		return;
	sandbox_reap(bot->sandbox, bot->pid, bot->own_group);
	bot->sandbox = NULL;
	bot->pid = 0;
}

/* Write the note about dropped stderr bytes and close the file. */
static void close_stderr_file(Bot *bot)
{
	if (bot->err_out && bot->err_dropped)
		fprintf(bot->err_out, "\n[referee: %" G_GUINT64_FORMAT " more bytes of stderr dropped]\n",
			bot->err_dropped);	/* (a courtesy: a failure is no matter) */
	if (bot->err_out && bot->err_async)
		asyncfile_close_later(bot->err_out, bot->err_open);
	else if (bot->err_out)
		fclose(bot->err_out);
	bot->err_out = NULL;
	g_clear_pointer(&bot->err_path, g_free);
	g_clear_pointer(&bot->err_open, g_free);
	bot->err_kept = bot->err_dropped = 0;
	bot->err_mark = 0;
	bot->err_marked = bot->err_midline = FALSE;
}

void bot_stderr_mark(Bot *bot, int go)
{
	if (bot->err_fd >= 0)
		bot_drain_stderr(bot);
	bot->err_mark = go;
	bot->err_marked = FALSE;
}

/* The marker of bot->err_mark before the bytes about to be kept, on a line
 * of its own, when it fits under the cap. */
static void write_mark(Bot *bot)
{
	char mark[64];
	int n = g_snprintf(mark, sizeof(mark), "%s" BOT_STDERR_MARK "\n", bot->err_midline ? "\n" : "",
			   bot->err_mark);

	bot->err_marked = TRUE;
	if (bot->err_kept + (guint64)n > BOT_STDERR_CAP || !stderr_open(bot))
		return;
	if (fwrite(mark, 1, (size_t)n, bot->err_out) == (size_t)n) {
		bot->err_kept += (guint64)n;
		bot->err_midline = FALSE;
	}
}

gboolean bot_set_stderr(Bot *bot, const char *path, GError **error)
{
	if (bot->err_fd >= 0)
		bot_drain_stderr(bot);
	close_stderr_file(bot);
	(void)error;
	if (path)
		stderr_to(bot, path, TRUE);
	return TRUE;
}

void bot_stderr_async(Bot *bot, gboolean on)
{
	bot->err_async = on;
}

gboolean bot_freeze(Bot *bot, gboolean frozen)
{
	return sandbox_freeze(bot->sandbox, frozen);
}

const char *bot_breach(const Bot *bot)
{
	return sandbox_breach(bot->sandbox);
}

char *bot_end_text(Bot *bot, gint64 deadline)
{
	if (bot->relay)
		return g_strdup("its connection closed");
	SandboxEnd end = sandbox_end(bot->sandbox, bot->pid, deadline);
	const char *who = end.jail ? "jail " : "";

	if (end.kind == SANDBOX_END_EXITED)
		return g_strdup_printf("%sexited with status %d", who, end.code);
	if (end.kind != SANDBOX_END_SIGNALED)
		return NULL;
	const char *abbrev = sigabbrev_np(end.code);
	return g_strdup_printf("%skilled by signal %d (SIG%s)%s", who, end.code, abbrev ? abbrev : "?",
			       end.code == SIGXCPU && bot->spec->limits.cpu && !end.jail ? "; CPU time limit" : "");
}

gboolean bot_ended(Bot *bot, gint64 deadline)
{
	SandboxEndKind kind = sandbox_end(bot->sandbox, bot->pid, deadline).kind;

	return kind == SANDBOX_END_EXITED || kind == SANDBOX_END_SIGNALED;
}

Bot *bot_new_reader(int out_fd)
{
	Bot *bot = g_new0(Bot, 1);

	bot->in_fd = bot->err_fd = -1;
	bot->out_fd = out_fd;
	return bot;
}

Bot *bot_new_relay(const BotSpec *spec, int in_fd, int out_fd)
{
	Bot *bot = g_new0(Bot, 1);

	bot->spec = bot_spec_copy(spec);
	bot->relay = TRUE;
	bot->err_fd = -1;
	bot->in_fd = in_fd;
	bot->out_fd = out_fd;
	fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK);
	fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK);
	return bot;
}

void bot_free(Bot *bot)
{
	if (!bot)
		return;
	bot_kill_and_reap(bot);
	close_fd(&bot->in_fd);
	close_fd(&bot->out_fd);
	/* Keep what is left in the stderr pipe (the bot's last words). */
	if (bot->err_fd >= 0)
		bot_drain_stderr(bot);
	close_fd(&bot->err_fd);
	close_stderr_file(bot);
	bot_spec_free(bot->spec);
	g_free(bot->hello_name);
	g_free(bot);
}

void bot_wait_exit(Bot *bot, gint64 deadline)
{
	if (!bot || bot->pid <= 0)
		return;
	close_fd(&bot->in_fd);
	int pfd = (int)syscall(SYS_pidfd_open, bot->pid, 0);
	if (pfd < 0)
		return;
	struct pollfd p = {.fd = pfd, .events = POLLIN};
	gint64 left;
	while ((left = deadline - g_get_monotonic_time()) > 0) {
		int r = poll(&p, 1, (int)((left + 999) / 1000));
		if (r > 0 || (r < 0 && errno != EINTR))
			break;
	}
	close(pfd);
}

void bot_quit(Bot *bot, gint64 grace_ms)
{
	if (!bot)
		return;
	gint64 deadline = g_get_monotonic_time() + grace_ms * 1000;
	g_autofree char *quit = g_strconcat(protocol_quit(), "\n", NULL);
	if (bot_write(bot, quit, strlen(quit), deadline) == BOT_WRITE_OK)
		bot_wait_exit(bot, deadline);
	bot_free(bot);
}

const BotSpec *bot_spec(const Bot *bot)
{
	return bot->spec;
}

pid_t bot_pid(const Bot *bot)
{
	return bot->pid;
}

int bot_stdout_fd(const Bot *bot)
{
	return bot->out_fd;
}

int bot_stderr_fd(const Bot *bot)
{
	return bot->err_fd;
}

BotWriteStatus bot_write(Bot *bot, const char *data, gsize len, gint64 deadline)
{
	if (bot->in_fd < 0)
		return BOT_WRITE_CLOSED;
	while (len > 0) {
		ssize_t n = write(bot->in_fd, data, len);
		if (n > 0) {
			data += n;
			len -= (gsize)n;
			bot->written += (guint64)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			gint64 left = deadline - g_get_monotonic_time();
			if (left <= 0)
				return BOT_WRITE_STUCK;
			struct pollfd p = {.fd = bot->in_fd, .events = POLLOUT};
			poll(&p, 1, (int)((left + 999) / 1000));
			continue;
		}
		close_fd(&bot->in_fd);
		return BOT_WRITE_CLOSED;
	}
	return BOT_WRITE_OK;
}

gssize bot_write_some(Bot *bot, const char *data, gsize len)
{
	gsize done = 0;

	if (bot->in_fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(bot->in_fd, data + done, len - done);
		if (n > 0) {
			done += (gsize)n;
			bot->written += (guint64)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		close_fd(&bot->in_fd);
		return -1;
	}
	return (gssize)done;
}

guint64 bot_written(const Bot *bot)
{
	return bot->written;
}

int bot_stdin_fd(const Bot *bot)
{
	return bot->in_fd;
}

guint64 bot_consumed(const Bot *bot)
{
	int unread = 0;

	if (bot->in_fd < 0 || ioctl(bot->in_fd, FIONREAD, &unread) < 0 || unread < 0)
		return bot->written;
	return bot->written - MIN((guint64)unread, bot->written);
}

BotReadStatus bot_read(Bot *bot)
{
	if (bot->eof || bot->out_fd < 0)
		return BOT_READ_EOF;
	if (bot->overlong) {
		char sink[65536];
		ssize_t n = read(bot->out_fd, sink, sizeof(sink));
		if (n == 0) {
			bot->eof = TRUE;
			return BOT_READ_EOF;
		}
		return n > 0 ? BOT_READ_OK : BOT_READ_NONE;
	}
	if (bot->start > 0 && bot->len == BOT_LINE_MAX) {
		memmove(bot->buf, bot->buf + bot->start, bot->len - bot->start);
		bot->len -= bot->start;
		bot->start = 0;
	}
	if (bot->len == BOT_LINE_MAX)
		return BOT_READ_OK;	/* full: bot_next_line() reports it */
	ssize_t n = read(bot->out_fd, bot->buf + bot->len, BOT_LINE_MAX - bot->len);
	if (n > 0) {
		bot->len += (gsize)n;
		return BOT_READ_OK;
	}
	if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		bot->eof = TRUE;
		return BOT_READ_EOF;
	}
	return BOT_READ_NONE;
}

void bot_drain_stderr(Bot *bot)
{
	char block[65536];

	while (bot->err_fd >= 0) {
		ssize_t n = read(bot->err_fd, block, sizeof(block));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close_fd(&bot->err_fd);
			return;
		}
		if (bot->err_mark > 0 && !bot->err_marked)
			write_mark(bot);
		guint64 room = bot->err_kept < BOT_STDERR_CAP ? BOT_STDERR_CAP - bot->err_kept : 0;
		guint64 keep = MIN(room, (guint64)n);
		if (keep && (!stderr_open(bot) || fwrite(block, 1, keep, bot->err_out) != keep))
			keep = 0;
		if (keep)
			bot->err_midline = block[keep - 1] != '\n';
		bot->err_kept += keep;
		bot->err_dropped += (guint64)n - keep;
		if ((gsize)n < sizeof(block))
			return;	/* drained for now; do not starve the others */
	}
}

BotLineStatus bot_next_line(Bot *bot, const char **line)
{
	if (bot->overlong) {
		if (!bot->reported_overlong) {
			bot->reported_overlong = TRUE;
			return BOT_LINE_TOO_LONG;
		}
		return BOT_LINE_NONE;
	}
	char *s = bot->buf + bot->start;
	gsize avail = bot->len - bot->start;
	char *nl = memchr(s, '\n', avail);
	if (!nl) {
		if (bot->start == 0 && bot->len == BOT_LINE_MAX) {
			bot->overlong = TRUE;
			bot->reported_overlong = TRUE;
			bot->start = bot->len = 0;
			return BOT_LINE_TOO_LONG;
		}
		if (bot->start == bot->len)
			bot->start = bot->len = 0;
		return BOT_LINE_NONE;
	}
	*nl = '\0';
	bot->start += (gsize)(nl - s) + 1;
	if (nl > s && nl[-1] == '\r')
		*--nl = '\0';
	*line = s;
	/* A NUL would cut the line short unseen: every control byte makes
	 * the line bad, and shows as '?'. */
	gboolean control = FALSE;
	for (char *c = s; c < nl; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*c = '?';
			control = TRUE;
		}
	return control ? BOT_LINE_CONTROL : BOT_LINE_OK;
}

gboolean bot_eof(const Bot *bot)
{
	return bot->eof;
}

/* Whether the bot's own process and its clock are known: a jailed bot's
 * once its jail has started it. */
static gboolean find_process(Bot *bot)
{
	if (!bot->has_cpu_clock) {
		pid_t pid = sandbox_bot_pid(bot->sandbox);
		bot->has_cpu_clock = pid > 0 && clock_getcpuclockid(pid, &bot->cpu_clock) == 0;
		bot->own_pid = bot->has_cpu_clock ? pid : 0;
	}
	return bot->has_cpu_clock;
}

pid_t bot_own_pid(Bot *bot)
{
	return find_process(bot) ? bot->own_pid : 0;
}

double bot_cpu_ms(Bot *bot)
{
	struct timespec ts;

	if (!find_process(bot) || clock_gettime(bot->cpu_clock, &ts) != 0)
		return -1;
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

gboolean bot_renew_cpu(Bot *bot)
{
	if (bot->spec->human || bot->spec->limits.cpu == 0 || !find_process(bot))
		return TRUE;
	return sandbox_renew_cpu(bot->own_pid, bot->spec->limits.cpu, &bot->cpu_spent_at);
}

guint64 bot_stderr_dropped(const Bot *bot)
{
	return bot->err_dropped;
}

int bot_games(const Bot *bot)
{
	return bot->games;
}

void bot_set_games(Bot *bot, int n)
{
	bot->games = n;
}

gboolean bot_multi(const Bot *bot)
{
	return bot->multi;
}

void bot_set_multi(Bot *bot, gboolean multi, gboolean moves)
{
	bot->multi = multi;
	bot->moves = moves;
}

gboolean bot_wants_moves(const Bot *bot)
{
	return bot->moves;
}

const char *bot_hello_name(const Bot *bot)
{
	return bot->hello_name;
}

void bot_set_hello_name(Bot *bot, const char *name)
{
	g_free(bot->hello_name);
	bot->hello_name = g_strdup(name);
}

void bot_set_sha256(Bot *bot, const char *sha256)
{
	g_free(bot->spec->sha256);
	bot->spec->sha256 = g_strdup(sha256);
}

const char *bot_wait_line(Bot *b, gint64 deadline, gboolean *eof, gboolean *control)
{
	const char *line;

	*eof = FALSE;
	for (;;) {
		BotLineStatus st = bot_next_line(b, &line);
		if (control)
			*control = st == BOT_LINE_CONTROL;
		if (st == BOT_LINE_OK || st == BOT_LINE_CONTROL)
			return line;
		if (st == BOT_LINE_TOO_LONG || bot_eof(b)) {
			*eof = TRUE;
			return NULL;
		}
		gint64 now = g_get_monotonic_time();
		if (now >= deadline)
			return NULL;
		struct pollfd pfd[2] = {{.fd = bot_stdout_fd(b), .events = POLLIN},
					{.fd = bot_stderr_fd(b), .events = POLLIN}};
		nfds_t n = bot_stderr_fd(b) >= 0 ? 2 : 1;
		if (poll(pfd, n, (int)MIN((deadline - now + 999) / 1000, G_MAXINT32)) < 0 && errno != EINTR)
			return NULL;
		if (n == 2 && pfd[1].revents)
			bot_drain_stderr(b);
		if (pfd[0].revents)
			bot_read(b);
	}
}
