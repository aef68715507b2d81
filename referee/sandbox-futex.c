/*
 * sandbox-futex: the supervisor of jailed bots' shared futex waits. See
 * sandbox-int.h; why shared waits may never sleep in a jail is at the top
 * of sandbox-filter.c.
 *
 * Without it, a shared FUTEX_WAIT fails with EAGAIN at once, and every
 * process-shared wait (a POSIX semaphore, pthread_join) spins; worse, a
 * wait with a timeout never times out, since the kernel, which would see
 * the time pass, is never asked to wait. With it, each jail's child (the
 * bwrap to be, between vfork and exec) installs a second filter, made of
 * the JAILFILTER_POLL rows, that hands those calls to this process
 * (SECCOMP_RET_USER_NOTIF) and sends the listener here over a socket.
 * One thread answers every call it is handed, and never lets one run:
 *   - EAGAIN after a pause (a millisecond, more while the same bot has
 *     many such waits at once: half a millisecond each, so that a bot's
 *     waiters cost this process at most about 2000 answers a second),
 *     and the caller looks at its word and waits again: a poll, not a
 *     spin;
 *   - ETIMEDOUT once the caller's own timeout has passed (read from its
 *     memory: a relative FUTEX_WAIT or an absolute FUTEX_WAIT_BITSET on
 *     either clock; a timeout that cannot be read counts as none).
 * Since no call is let through (SECCOMP_USER_NOTIF_FLAG_CONTINUE is never
 * used), nothing the bot changes between the notice and the answer (its
 * mappings, the timeout) can make a shared wait sleep; at worst it gets
 * its own answers wrong. The listener is closed when the bot is reaped
 * or its last process is gone (POLLHUP), whichever comes first; a pending
 * answer to a process that died or took a signal is refused by the kernel
 * (ENOENT) and dropped. A new listener is looked at within 10 ms (LOOK_US),
 * so a bot's very first shared wait may be answered that late.
 */
#include "sandbox-int.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox-filter.h"

#define PAUSE_US 1000		/* the shortest pause before EAGAIN */
#define PAUSE_EACH_US 500	/* per wait of the same bot pending at once */
#define PAUSE_MAX_US 100000

/* ---- in the child ---------------------------------------------------------- */

gboolean sandbox_futex_install(const void *prog, gsize len, int sock)
{
	struct sock_fprog fp = {.len = (unsigned short)(len / sizeof(struct sock_filter)),
				.filter = (struct sock_filter *)prog};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return FALSE;
	int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fp);
	if (fd < 0)
		return FALSE;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char byte = 'l';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	gboolean sent = sendmsg(sock, &msg, MSG_NOSIGNAL) == 1;
	close(fd);
	return sent;
}

int sandbox_futex_receive(int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char byte;
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)};
	if (recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd = -1;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* ---- can it be had here ---------------------------------------------------- */

static gpointer probe(gpointer unused)
{
	(void)unused;
	gsize len = 0;
	const guint8 *prog = jailfilter_poll_program(&len, NULL);
	int sv[2];
	if (!prog || g_getenv("TETRARENA_NO_FUTEX_SUPERVISOR") ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0)
		return GINT_TO_POINTER(FALSE);
	pid_t pid = fork();
	if (pid == 0)
		_exit(sandbox_futex_install(prog, len, sv[1]) ? 0 : 1);
	close(sv[1]);
	int status = 1;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int fd = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? sandbox_futex_receive(sv[0]) : -1;
	close(sv[0]);
	if (fd < 0)
		return GINT_TO_POINTER(FALSE);
	close(fd);
	return GINT_TO_POINTER(TRUE);
}

gboolean sandbox_futex_supervised(void)
{
	static GOnce once = G_ONCE_INIT;

	return GPOINTER_TO_INT(g_once(&once, probe, NULL));
}

/* ---- the supervisor --------------------------------------------------------- */

/* A call waiting for its answer. */
typedef struct {
	int fd;			/* its listener */
	guint64 token;		/* and that listener's token */
	guint64 id;		/* the kernel's notification id */
	gint64 due;		/* monotonic us: answer then */
	gint64 deadline;	/* monotonic us: its own timeout, or 0 */
} Wait;

/* A listener handed over, closed by the supervisor when its bot is gone
 * or by sandbox_futex_forget(). */
typedef struct {
	int fd;
	guint64 token;		/* sandbox_futex_watch()'s answer */
} Listener;

/* `lock` guards the listeners and `running`, and is held by the thread
 * whenever it is not in ppoll() or waiting for a first listener: so a
 * listener closed by sandbox_futex_forget() is never used after (a
 * descriptor number is trusted only while its token is still listed).
 * The thread, started once, picks up new listeners at its next look,
 * within LOOK_US, and sleeps on `listed_cond` while there is none: no
 * descriptor of its own, none of a bot's kept past its reaping, no
 * waiting on the thread when a bot is reaped. */
#define LOOK_US 10000
static GMutex lock;
static GCond listed_cond;
static GArray *listeners;
static gboolean running;		/* the thread was started */
static guint64 serial;

/* The listener of `token` (under `lock`), or -1 when it was closed. */
static int listed(guint64 token)
{
	for (guint k = 0; k < listeners->len; k++)
		if (g_array_index(listeners, Listener, k).token == token)
			return g_array_index(listeners, Listener, k).fd;
	return -1;
}

/* Close and unlist the listener of `token` (under `lock`). */
static void unlist(guint64 token)
{
	for (guint k = 0; k < listeners->len; k++)
		if (g_array_index(listeners, Listener, k).token == token) {
			close(g_array_index(listeners, Listener, k).fd);
			g_array_remove_index_fast(listeners, k);
			return;
		}
}

static gint64 mono_us(void)
{
	return g_get_monotonic_time();
}

/* The caller's own deadline (monotonic us), or 0 when it has none or it
 * cannot be read. */
static gint64 deadline_of(const struct seccomp_notif *req, gint64 now)
{
	guint64 op = req->data.args[1], ptr = req->data.args[3];
	struct timespec ts;
	if (!ptr || req->data.arch != AUDIT_ARCH_X86_64)
		return 0;
	struct iovec local = {.iov_base = &ts, .iov_len = sizeof(ts)};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)ptr, .iov_len = sizeof(ts)};
	if (process_vm_readv((pid_t)req->pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(ts) || ts.tv_sec < 0 ||
	    ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000 || ts.tv_sec > G_MAXINT32)
		return 0;
	gint64 t = (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
	if ((op & FUTEX_CMD_MASK) == FUTEX_WAIT)
		return now + t;		/* relative */
	struct timespec c;
	clock_gettime(op & FUTEX_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC, &c);
	gint64 clock_now = (gint64)c.tv_sec * G_USEC_PER_SEC + c.tv_nsec / 1000;
	return now + MAX(t - clock_now, 0);
}

static void answer(int fd, guint64 id, int err, struct seccomp_notif_resp *resp, gsize resp_size)
{
	memset(resp, 0, resp_size);
	resp->id = id;
	resp->error = -err;
	/* (ENOENT: the caller died or took a signal meanwhile) */
	seccomp_notify_respond(fd, resp);
}

static gpointer supervise(gpointer unused)
{
	(void)unused;
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	if (seccomp_notify_alloc(&req, &resp) != 0)
		g_error("sandbox: cannot allocate seccomp notifications");
	struct seccomp_notif_sizes sizes = {0};
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	gsize req_size = MAX(sizes.seccomp_notif, sizeof(*req));
	gsize resp_size = MAX(sizes.seccomp_notif_resp, sizeof(*resp));
	GArray *waits = g_array_new(FALSE, FALSE, sizeof(Wait));
	GArray *pfd = g_array_new(FALSE, FALSE, sizeof(struct pollfd));
	GArray *tokens = g_array_new(FALSE, FALSE, sizeof(guint64));

	g_mutex_lock(&lock);
	for (;;) {
		if (listeners->len == 0)
			g_array_set_size(waits, 0);
		while (listeners->len == 0)
			g_cond_wait(&listed_cond, &lock);
		g_array_set_size(pfd, 0);
		g_array_set_size(tokens, 0);
		for (guint k = 0; k < listeners->len; k++) {
			Listener *l = &g_array_index(listeners, Listener, k);
			struct pollfd p = {.fd = l->fd, .events = POLLIN};
			g_array_append_val(pfd, p);
			g_array_append_val(tokens, l->token);
		}
		gint64 now = mono_us(), next = now + LOOK_US;
		for (guint i = 0; i < waits->len; i++)
			next = MIN(next, g_array_index(waits, Wait, i).due);
		gint64 d = MAX(next - now, 0);
		struct timespec ts = {d / G_USEC_PER_SEC, (d % G_USEC_PER_SEC) * 1000};
		g_mutex_unlock(&lock);
		if (ppoll((struct pollfd *)pfd->data, pfd->len, &ts, NULL) < 0 && errno != EINTR)
			g_error("sandbox: ppoll: %s", g_strerror(errno));
		g_mutex_lock(&lock);
		now = mono_us();
		for (guint i = 0; i < pfd->len; i++) {
			struct pollfd *p = &g_array_index(pfd, struct pollfd, i);
			guint64 token = g_array_index(tokens, guint64, i);
			if (!p->revents || listed(token) != p->fd)
				continue;	/* nothing, or closed meanwhile */
			if (p->revents & POLLIN) {
				memset(req, 0, req_size);
				if (seccomp_notify_receive(p->fd, req) == 0) {
					guint same = 0;
					for (guint k = 0; k < waits->len; k++)
						same += g_array_index(waits, Wait, k).token == token;
					gint64 pause = MIN(MAX(PAUSE_US, (gint64)(same + 1) * PAUSE_EACH_US), PAUSE_MAX_US);
					Wait w = {p->fd, token, req->id, now + pause, deadline_of(req, now)};
					if (w.deadline)
						w.due = MIN(w.due, w.deadline);
					g_array_append_val(waits, w);
				}
			} else {
				unlist(token);	/* the bot is gone */
			}
		}
		for (guint k = waits->len; k-- > 0;) {
			Wait *w = &g_array_index(waits, Wait, k);
			if (listed(w->token) != w->fd) {
				g_array_remove_index_fast(waits, k);
			} else if (w->due <= now) {
				answer(w->fd, w->id, w->deadline && now >= w->deadline ? ETIMEDOUT : EAGAIN, resp,
				       resp_size);
				g_array_remove_index_fast(waits, k);
			}
		}
	}
	return NULL;
}

guint64 sandbox_futex_watch(int listener)
{
	g_mutex_lock(&lock);
	if (!listeners)
		listeners = g_array_new(FALSE, FALSE, sizeof(Listener));
	Listener l = {listener, ++serial};
	g_array_append_val(listeners, l);
	if (!running) {
		running = TRUE;
		g_thread_unref(g_thread_new("futex-supervisor", supervise, NULL));
	}
	g_cond_signal(&listed_cond);
	g_mutex_unlock(&lock);
	return l.token;
}

void sandbox_futex_forget(guint64 token)
{
	if (!token)
		return;
	g_mutex_lock(&lock);
	unlist(token);
	g_mutex_unlock(&lock);
}
