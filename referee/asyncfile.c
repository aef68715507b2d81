/*
 * asyncfile: stdio files created on a helper thread (see asyncfile.h).
 * The FILE is a fopencookie() stream over a Cookie: the write function
 * waits for the creation (done, with its fd or errno, under the lock),
 * then writes; close waits too, closes, and frees what the open made.
 */
#include "asyncfile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define ASYNCFILE_THREADS 4	/* creations (closes) waiting on the disk at once */

typedef struct {
	char *path;
	char *buf;		/* the FILE's buffer */
	int mode;
	GMutex lock;
	GCond cond;
	gboolean done;		/* the creation is over: fd, or err */
	int fd;
	int err;
} Cookie;

static void create(gpointer data, gpointer user)
{
	Cookie *c = data;
	int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, c->mode);
	int e = errno;

	(void)user;
	g_mutex_lock(&c->lock);
	c->fd = fd;
	c->err = fd < 0 ? e : 0;
	c->done = TRUE;
	g_cond_signal(&c->cond);
	g_mutex_unlock(&c->lock);
}

/* The closes later: in flight by sequence number, and the failures. */
static struct {
	GMutex lock;
	GCond done;
	guint64 next;		/* sequence of the next close */
	GHashTable *flying;	/* sequences in flight (as pointers, + 1) */
	GHashTable *failed;	/* path -> why */
} later;

typedef struct {
	FILE *f;
	char *path;
	guint64 seq;
} Later;

static void close_one(gpointer data, gpointer user)
{
	Later *l = data;
	int rc = fclose(l->f), e = errno;

	(void)user;
	g_mutex_lock(&later.lock);
	if (rc != 0)
		g_hash_table_replace(later.failed, g_strdup(l->path),
				     g_strdup_printf("cannot write %s: %s", l->path, g_strerror(e)));
	g_hash_table_remove(later.flying, GSIZE_TO_POINTER(l->seq + 1));
	g_cond_broadcast(&later.done);
	g_mutex_unlock(&later.lock);
	g_free(l->path);
	g_free(l);
}

static GThreadPool *pool(gboolean closing)
{
	static gsize once;
	static GThreadPool *creates, *closes;

	if (g_once_init_enter(&once)) {
		creates = g_thread_pool_new(create, NULL, ASYNCFILE_THREADS, FALSE, NULL);
		/* (a pool of its own: a close waits for its file's creation) */
		closes = g_thread_pool_new(close_one, NULL, ASYNCFILE_THREADS, FALSE, NULL);
		later.flying = g_hash_table_new(NULL, NULL);
		later.failed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
		g_once_init_leave(&once, 1);
	}
	return closing ? closes : creates;
}

/* The fd once created, or -1 with errno set. */
static int wait_fd(Cookie *c)
{
	g_mutex_lock(&c->lock);
	while (!c->done)
		g_cond_wait(&c->cond, &c->lock);
	g_mutex_unlock(&c->lock);
	if (c->fd < 0)
		errno = c->err;
	return c->fd;
}

static ssize_t cookie_write(void *cookie, const char *data, size_t size)
{
	int fd = wait_fd(cookie);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
	Cookie *c = cookie;
	int fd = wait_fd(c), rc = fd < 0 ? -1 : close(fd), e = errno;

	g_mutex_clear(&c->lock);
	g_cond_clear(&c->cond);
	g_free(c->path);
	g_free(c->buf);
	g_free(c);
	errno = e;
	return rc;
}

FILE *asyncfile_open(const char *path, int mode, size_t bufsize)
{
	Cookie *c = g_new0(Cookie, 1);
	cookie_io_functions_t io = {.write = cookie_write, .close = cookie_close};

	c->path = g_strdup(path);
	c->mode = mode;
	c->buf = g_malloc(bufsize);
	g_mutex_init(&c->lock);
	g_cond_init(&c->cond);
	c->fd = -1;
	FILE *f = fopencookie(c, "w", io);
	if (!f) {
		g_free(c->path);
		g_free(c->buf);
		g_mutex_clear(&c->lock);
		g_cond_clear(&c->cond);
		g_free(c);
		return NULL;
	}
	setvbuf(f, c->buf, _IOFBF, bufsize);
	g_thread_pool_push(pool(FALSE), c, NULL);
	return f;
}

void asyncfile_close_later(FILE *f, const char *path)
{
	Later *l = g_new(Later, 1);
	GThreadPool *p = pool(TRUE);

	l->f = f;
	l->path = g_strdup(path);
	g_mutex_lock(&later.lock);
	l->seq = later.next++;
	g_hash_table_add(later.flying, GSIZE_TO_POINTER(l->seq + 1));
	g_mutex_unlock(&later.lock);
	g_thread_pool_push(p, l, NULL);
}

/* Whether a close with a sequence below `upto` is in flight (locked). */
static gboolean flying_below(guint64 upto)
{
	GHashTableIter it;
	gpointer key;

	g_hash_table_iter_init(&it, later.flying);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (GPOINTER_TO_SIZE(key) - 1 < upto)
			return TRUE;
	return FALSE;
}

void asyncfile_settle(void)
{
	pool(TRUE);
	g_mutex_lock(&later.lock);
	guint64 upto = later.next;
	while (flying_below(upto))
		g_cond_wait(&later.done, &later.lock);
	g_mutex_unlock(&later.lock);
}

char *asyncfile_failure(const char *path)
{
	char *why = NULL;
	gpointer key;

	pool(TRUE);
	g_mutex_lock(&later.lock);
	if (g_hash_table_steal_extended(later.failed, path, &key, (gpointer *)&why))
		g_free(key);
	g_mutex_unlock(&later.lock);
	return why;
}
