/*
 * botdir: a submitted bot directory, checked and copied in; what its
 * command may name. See botdir.h.
 */
#include "botdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ladder/ladder.h"
#include "referee/botspec.h"

#define DEPTH_MAX 64	/* directories inside directories */
#define BLOCK 65536

typedef struct {
	const LadderBotCaps *caps;
	const char *src;	/* as given, for messages */
	char *src_real;		/* where links must lead */
	guint64 bytes, files;
} Walk;

static gboolean refuse(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean refuse(GError **error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, LADDER_ERROR, LADDER_ERROR_SUBMISSION, msg);
	return FALSE;
}

/* A path for a message: control bytes and odd ones escaped. */
static char *shown(const char *path)
{
	return g_strescape(path, NULL);
}

char *ladder_bot_size_text(guint64 n)
{
	static const char *const unit[] = {"GiB", "MiB", "KiB"};

	for (int i = 0; i < 3; i++) {
		guint64 u = G_GUINT64_CONSTANT(1) << (10 * (3 - i));
		if (n >= u && n % u == 0)
			return g_strdup_printf("%" G_GUINT64_FORMAT " %s", n / u, unit[i]);
	}
	return g_strdup_printf("%" G_GUINT64_FORMAT " bytes", n);
}

static gboolean too_big(const Walk *w, const char *path, GError **error)
{
	g_autofree char *cap = ladder_bot_size_text(w->caps->size);
	g_autofree char *p = shown(path);

	return refuse(error, "%s: the bot's directory holds more than %s of files, the ladder's cap "
		      "(ladder init --bot-size)", p, cap);
}

/* One entry more; FALSE past the cap. */
static gboolean count(Walk *w, const char *path, GError **error)
{
	if (++w->files <= w->caps->files)
		return TRUE;
	g_autofree char *p = shown(path);
	return refuse(error, "%s: the bot's directory holds more than %" G_GUINT64_FORMAT " files, the ladder's cap "
		      "(ladder init --bot-files)", p, w->caps->files);
}

/* A link at `path` (in the tree at w->src or a copy of it): relative, and
 * resolving inside the tree. */
static gboolean link_ok(Walk *w, const char *path, const char *target, GError **error)
{
	g_autofree char *p = shown(path);
	g_autofree char *t = shown(target);

	if (g_path_is_absolute(target))
		return refuse(error, "%s: a link to %s, outside the bot's directory (a bot directory holds only files, "
			      "directories and links inside it)", p, t);
	g_autofree char *real = realpath(path, NULL);
	size_t n = strlen(w->src_real);
	if (!real || strncmp(real, w->src_real, n) != 0 || (real[n] != '/' && real[n] != '\0'))
		return refuse(error, "%s: a link to %s, %s (a bot directory holds only files, directories and links "
			      "inside it)", p, t, real ? "outside the bot's directory" : "which leads nowhere");
	return TRUE;
}

static gboolean copy_file(Walk *w, int dirfd, const char *name, const char *path, int dstfd, mode_t mode,
			  GError **error)
{
	int in = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	g_autofree char *p = shown(path);

	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		if (in >= 0)
			close(in);
		return refuse(error, "%s: %s", p, in < 0 ? g_strerror(e) : "changed while it was copied");
	}
	int out = openat(dstfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		int e = errno;
		close(in);
		return refuse(error, "copying %s: %s", p, g_strerror(e));
	}
	char *block = g_malloc(BLOCK);
	gboolean ok = TRUE;
	for (;;) {
		ssize_t n = read(in, block, BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ok = refuse(error, "%s: %s", p, g_strerror(errno));
			break;
		}
		if (n == 0)
			break;
		w->bytes += (guint64)n;
		if (w->bytes > w->caps->size) {
			ok = too_big(w, path, error);
			break;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t m = write(out, block + done, (size_t)(n - done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m < 0) {
				ok = refuse(error, "copying %s: %s", p, g_strerror(errno));
				break;
			}
			done += m;
		}
		if (!ok)
			break;
	}
	g_free(block);
	close(in);
	if (close(out) != 0 && ok)
		ok = refuse(error, "copying %s: %s", p, g_strerror(errno));
	return ok;
}

/* Walk the directory open as `dirfd` (`path` for messages), copying into
 * `dstfd` unless it is -1. Takes dirfd. */
static gboolean walk(Walk *w, int dirfd, const char *path, int dstfd, int depth, GError **error)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	gboolean ok = TRUE;

	if (!d) {
		close(dirfd);
		g_autofree char *p = shown(path);
		return refuse(error, "%s: %s", p, g_strerror(errno));
	}
	if (depth > DEPTH_MAX) {
		closedir(d);
		g_autofree char *p = shown(path);
		return refuse(error, "%s: directories more than %d deep", p, DEPTH_MAX);
	}
	while (ok && (errno = 0, e = readdir(d))) {
		const char *name = e->d_name;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		g_autofree char *sub = g_build_filename(path, name, NULL);
		struct stat st;
		if (!count(w, sub, error))
			ok = FALSE;
		else if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			g_autofree char *p = shown(sub);
			ok = refuse(error, "%s: %s", p, g_strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int out = -1;
			if (fd >= 0 && dstfd >= 0 && (mkdirat(dstfd, name, 0755) != 0 ||
						      (out = openat(dstfd, name, O_RDONLY | O_DIRECTORY |
								    O_NOFOLLOW | O_CLOEXEC)) < 0)) {
				g_autofree char *p = shown(sub);
				ok = refuse(error, "copying %s: %s", p, g_strerror(errno));
				close(fd);
			} else if (fd < 0) {
				g_autofree char *p = shown(sub);
				ok = refuse(error, "%s: %s", p, g_strerror(errno));
			} else {
				ok = walk(w, fd, sub, out, depth + 1, error);
			}
			if (out >= 0)
				close(out);
		} else if (S_ISREG(st.st_mode)) {
			mode_t mode = st.st_mode & 0111 ? 0755 : 0644;
			if (dstfd >= 0) {
				ok = copy_file(w, dirfd, name, sub, dstfd, mode, error);
			} else {
				w->bytes += (guint64)st.st_size;
				if (w->bytes > w->caps->size)
					ok = too_big(w, sub, error);
			}
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);
			if (n < 0) {
				g_autofree char *p = shown(sub);
				ok = refuse(error, "%s: %s", p, g_strerror(errno));
			} else {
				target[n] = '\0';
				ok = link_ok(w, sub, target, error);
				if (ok && dstfd >= 0 && symlinkat(target, dstfd, name) != 0) {
					g_autofree char *p = shown(sub);
					ok = refuse(error, "copying %s: %s", p, g_strerror(errno));
				}
			}
		} else {
			g_autofree char *p = shown(sub);
			const char *what = S_ISFIFO(st.st_mode) ? "a fifo" : S_ISSOCK(st.st_mode) ? "a socket"
					   : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file";
			ok = refuse(error, "%s: %s (a bot directory holds only files, directories and links inside it)",
				    p, what);
		}
	}
	if (ok && errno != 0) {
		g_autofree char *p = shown(path);
		ok = refuse(error, "%s: %s", p, g_strerror(errno));
	}
	closedir(d);
	return ok;
}

/* Walk `src`, copying into `dst` (an open directory) unless it is -1. */
static gboolean walk_tree(const char *src, const LadderBotCaps *caps, int dst, GError **error)
{
	g_autofree char *abs = g_canonicalize_filename(src, NULL);
	Walk w = {caps, src, realpath(abs, NULL), 0, 0};
	int fd = open(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	gboolean ok;

	if (fd < 0 || !w.src_real) {
		g_autofree char *p = shown(src);
		ok = refuse(error, "%s: %s", p, g_strerror(errno));
		if (fd >= 0)
			close(fd);
	} else {
		ok = walk(&w, fd, src, dst, 0, error);
	}
	free(w.src_real);
	return ok;
}

gboolean ladder_bot_dir_check(const char *src, const LadderBotCaps *caps, GError **error)
{
	return walk_tree(src, caps, -1, error);
}

/* Remove a tree this module made (no link followed). */
static void remove_tree(const char *path)
{
	const char *rm[] = {"rm", "-rf", "--", path, NULL};

	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
		     G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

char *ladder_bot_dir_make(const char *ladder_dir, const char *name, GError **error)
{
	g_autofree char *parent = g_build_filename(ladder_dir, LADDER_BOTS_DIR, NULL);
	g_autofree char *abs_parent = g_canonicalize_filename(parent, NULL);
	if (g_mkdir_with_parents(abs_parent, 0700) != 0) {
		ladder_db_file_error(errno, abs_parent, error);
		return NULL;
	}
	g_autofree char *dst = NULL;
	for (int n = 1;; n++) {
		g_autofree char *leaf = g_strdup_printf("%s-%d", name, n);
		g_free(dst);
		dst = g_build_filename(abs_parent, leaf, NULL);
		if (mkdir(dst, 0755) == 0)
			break;
		if (errno != EEXIST) {
			ladder_db_file_error(errno, dst, error);
			return NULL;
		}
	}
	chmod(dst, 0755);	/* (whatever the umask) */
	return g_steal_pointer(&dst);
}

char *ladder_bot_dir_copy(const char *ladder_dir, const char *name, const char *src, const LadderBotCaps *caps,
			  GError **error)
{
	if (!ladder_bot_dir_check(src, caps, error))
		return NULL;
	g_autofree char *dst = ladder_bot_dir_make(ladder_dir, name, error);
	if (!dst)
		return NULL;
	int fd = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	gboolean ok = fd >= 0 ? walk_tree(src, caps, fd, error) : ladder_db_file_error(errno, dst, error);
	if (fd >= 0)
		close(fd);
	/* and the copy once more: its links resolve inside it, as they did */
	if (ok && !ladder_bot_dir_check(dst, caps, error))
		ok = FALSE;
	if (!ok) {
		g_prefix_error(error, "copying %s: ", src);
		remove_tree(dst);
		return NULL;
	}
	return g_steal_pointer(&dst);
}

gboolean ladder_bot_dir_valid(const char *ladder_dir, const char *workdir, GError **error)
{
	g_autofree char *bots = g_build_filename(ladder_dir, LADDER_BOTS_DIR, NULL);
	g_autofree char *abs_bots = g_canonicalize_filename(bots, NULL);
	g_autofree char *abs = g_canonicalize_filename(workdir, NULL);
	g_autofree char *abs_parent = g_path_get_dirname(abs);
	g_autofree char *real_bots = realpath(abs_bots, NULL);
	g_autofree char *real = realpath(abs, NULL);
	g_autofree char *parent = real ? g_path_get_dirname(real) : NULL;
	struct stat st;

	/* (one that is gone passes: the bot fails to start, and loses by
	 * fault until retired, as an entry whose program went) */
	if (!strcmp(abs_parent, abs_bots) && strcmp(abs, abs_bots) != 0 &&
	    (lstat(abs, &st) != 0 ||
	     (real_bots && parent && !strcmp(parent, real_bots) && stat(real, &st) == 0 && S_ISDIR(st.st_mode))))
		return TRUE;
	g_autofree char *p = shown(workdir);
	return refuse(error, "workdir %s is not a bot directory of this ladder (%s/NAME-N)", p, abs_bots);
}

gboolean ladder_command_check(const char *command, const char *workdir, const char *ladder_dir, GError **error)
{
	g_autoptr(BotSpec) bs = bot_spec_new(command, NULL, NULL);

	if (!bs)
		return TRUE;
	if (workdir) {
		bs->workdir = g_strdup(workdir);
		bs->confined = TRUE;
		const char *out = bot_spec_outside(bs);
		if (!out)
			return TRUE;
		g_autofree char *w = shown(out);
		return refuse(error, "%s '%s' names a path outside the bot's directory: a submitted bot sees only its own "
			      "directory (and the system), so its command may name files only inside it",
			      out == bs->argv[0] ? "its program" : "the argument", w);
	}
	for (int i = 0; bs->argv[i]; i++) {
		const char *arg = bs->argv[i];
		struct stat st;
		if (!arg[0] || arg[0] == '-' || (i == 0 && !strchr(arg, '/')))
			continue;
		g_autofree char *abs = g_canonicalize_filename(arg, NULL);
		if (lstat(abs, &st) == 0 && bot_spec_path_within(abs, ladder_dir)) {
			g_autofree char *w = shown(arg);
			return refuse(error, "%s '%s' names a path in the ladder's directory, which no bot sees",
				      i == 0 ? "its program" : "the argument", w);
		}
	}
	return TRUE;
}
