/*
 * archive: a bot uploaded as a .tar.gz or .zip, unpacked under the
 * ladder's caps. See archive.h.
 */
#include "archive.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "ladder/intake.h"
#include "ladder/ladder.h"

#define BLOCK 65536
#define NAME_BYTES 4096	/* of an entry's name */
#define WHY_LINK "(a bot's archive holds only files and directories)"

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

gboolean ladder_archive_named(const char *path)
{
	g_autofree char *lower = g_ascii_strdown(path, -1);

	return g_str_has_suffix(lower, ".tar.gz") || g_str_has_suffix(lower, ".tgz") ||
	       g_str_has_suffix(lower, ".tar") || g_str_has_suffix(lower, ".zip");
}

typedef struct {
	const LadderBotCaps *caps;
	const char *what;	/* the archive, for messages */
	gsize size;		/* its bytes */
	char *strip;		/* the one top directory unpacked one level up, or NULL */
	guint64 entries, bytes;
} Unpack;

static struct archive *reader(const void *data, gsize size)
{
	struct archive *a = archive_read_new();

	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	if (archive_read_open_memory(a, data, size) != ARCHIVE_OK) {
		/* (the error is read from `a` by the caller's first header) */
	}
	return a;
}

static gboolean broken(struct archive *a, const Unpack *u, GError **error)
{
	const char *why = archive_error_string(a);
	g_autofree char *w = g_strescape(why ? why : "unreadable", NULL);

	return refuse(error, "%s: not a .tar.gz, .tar or .zip archive this ladder can read (%s)", u->what, w);
}

/*
 * The entry's name as components (NULL-terminated, newly allocated; "."
 * and empty ones dropped), or NULL with error when it is refused. `shown`
 * is the name escaped, for messages.
 */
static char **split_name(const char *name, const char *shown, GError **error)
{
	if (!name || !name[0])
		return refuse(error, "an entry with no name %s", WHY_LINK), NULL;
	if (strlen(name) >= NAME_BYTES)
		return refuse(error, "%.60s...: a name longer than %d bytes", shown, NAME_BYTES - 1), NULL;
	if (name[0] == '/')
		return refuse(error, "%s: an absolute path (a bot's archive holds paths inside its directory)", shown),
		       NULL;
	g_auto(GStrv) parts = g_strsplit(name, "/", -1);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	for (int i = 0; parts[i]; i++) {
		const char *p = parts[i];
		if (!p[0] || !strcmp(p, "."))
			continue;
		if (!strcmp(p, ".."))
			return refuse(error, "%s: a path that leads out of the bot's directory ('..')", shown), NULL;
		if (strlen(p) > NAME_MAX)
			return refuse(error, "%.60s...: a name longer than %d bytes", shown, NAME_MAX), NULL;
		g_ptr_array_add(out, g_strdup(p));
	}
	if (out->len > LADDER_ARCHIVE_DEPTH)
		return refuse(error, "%s: directories more than %d deep", shown, LADDER_ARCHIVE_DEPTH), NULL;
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&out), FALSE);
}

/* The entry's name as the archive has it (in the locale's encoding, or as
 * UTF-8 when it does not convert), or NULL. */
static const char *entry_name(struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e);

	return name ? name : archive_entry_pathname_utf8(e);
}

/* What the entry is, refused unless a file or directory. */
static gboolean kind_ok(struct archive_entry *e, const char *shown, GError **error)
{
	const char *hard = archive_entry_hardlink(e);
	mode_t type = archive_entry_filetype(e);

	if (hard) {
		g_autofree char *t = g_strescape(hard, NULL);
		return refuse(error, "%s: a hard link (to %s) %s", shown, t, WHY_LINK);
	}
	if (type == AE_IFLNK) {
		const char *to = archive_entry_symlink(e);
		g_autofree char *t = g_strescape(to ? to : "?", NULL);
		return refuse(error, "%s: a symbolic link (to %s) %s", shown, t, WHY_LINK);
	}
	if (type != AE_IFREG && type != AE_IFDIR) {
		const char *what = type == AE_IFCHR ? "a character device" : type == AE_IFBLK ? "a block device"
				   : type == AE_IFIFO ? "a fifo" : type == AE_IFSOCK ? "a socket" : "a special file";
		return refuse(error, "%s: %s %s", shown, what, WHY_LINK);
	}
	if (archive_entry_is_encrypted(e))
		return refuse(error, "%s: encrypted (the ladder cannot read it)", shown);
	return TRUE;
}

static gboolean too_many(const Unpack *u, const char *shown, GError **error)
{
	return refuse(error, "%s: the archive holds more than %" G_GUINT64_FORMAT " files, the ladder's cap "
		      "(ladder init --bot-files)", shown, u->caps->files);
}

static gboolean too_big(const Unpack *u, const char *shown, GError **error)
{
	g_autofree char *cap = ladder_bot_size_text(u->caps->size);

	return refuse(error, "%s: the archive unpacks to more than %s of files, the ladder's cap "
		      "(ladder init --bot-size)", shown, cap);
}

/*
 * The first pass: every header checked, nothing written. Decides u->strip.
 */
static gboolean survey(Unpack *u, const void *data, gsize size, GError **error)
{
	struct archive *a = reader(data, size);
	struct archive_entry *e;
	gboolean ok = TRUE, root_manifest = FALSE, one_top = TRUE;
	g_autofree char *top = NULL;
	g_autoptr(GHashTable) top_manifest = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint64 declared = 0, entries = 0;
	int rc;

	while (ok && (rc = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
		if (rc < ARCHIVE_WARN) {
			ok = broken(a, u, error);
			break;
		}
		const char *name = entry_name(e);
		g_autofree char *shown = g_strescape(name ? name : "", NULL);
		g_auto(GStrv) parts = split_name(name, shown, error);
		if (!parts || !kind_ok(e, shown, error)) {
			ok = FALSE;
			break;
		}
		if (++entries > u->caps->files) {
			ok = too_many(u, shown, error);
			break;
		}
		if (archive_entry_size_is_set(e) && archive_entry_size(e) > 0)
			declared += (guint64)archive_entry_size(e);
		if (declared > u->caps->size) {
			ok = too_big(u, shown, error);
			break;
		}
		guint n = g_strv_length(parts);
		gboolean reg = archive_entry_filetype(e) == AE_IFREG;
		if (n == 0)
			continue;	/* the top itself, "./" */
		if (n == 1 && reg && !strcmp(parts[0], LADDER_MANIFEST_FILE))
			root_manifest = TRUE;
		if (n == 2 && reg && !strcmp(parts[1], LADDER_MANIFEST_FILE))
			g_hash_table_add(top_manifest, g_strdup(parts[0]));
		if (n == 1 && reg)
			one_top = FALSE;	/* a file at the top */
		if (!top)
			top = g_strdup(parts[0]);
		else if (strcmp(top, parts[0]) != 0)
			one_top = FALSE;
	}
	archive_read_free(a);
	if (ok && !root_manifest && one_top && top && g_hash_table_contains(top_manifest, top))
		u->strip = g_steal_pointer(&top);
	return ok;
}

/* Write the entry's data into fd, holding the caps. */
static gboolean write_data(Unpack *u, struct archive *a, int fd, const char *shown, GError **error)
{
	g_autofree char *block = g_malloc(BLOCK);

	for (;;) {
		la_ssize_t n = archive_read_data(a, block, BLOCK);
		if (n < 0)
			return broken(a, u, error);
		if (n == 0)
			return TRUE;
		u->bytes += (guint64)n;
		if (u->bytes > u->caps->size)
			return too_big(u, shown, error);
		if (u->bytes > LADDER_ARCHIVE_FLOOR && u->bytes / LADDER_ARCHIVE_RATIO > (guint64)u->size)
			return refuse(error, "%s: the archive unpacks to more than %d times its size (%" G_GSIZE_FORMAT
				      " bytes), the ladder's cap on the compression ratio (a zip bomb's)",
				      shown, LADDER_ARCHIVE_RATIO, u->size);
		for (la_ssize_t done = 0; done < n;) {
			ssize_t m = write(fd, block + done, (size_t)(n - done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m < 0)
				return ladder_db_file_error(errno, shown, error);
			done += m;
		}
	}
}

/* The directory `name` in `dirfd`, made when missing; an open fd or -1
 * with error. */
static int open_dir(int dirfd, const char *name, const char *shown, GError **error)
{
	if (mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST) {
		ladder_db_file_error(errno, shown, error);
		return -1;
	}
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		refuse(error, "%s: a path through a file (%s)", shown, g_strerror(errno));
		return -1;
	}
	fchmod(fd, 0755);	/* (whatever the umask) */
	return fd;
}

/* Write one entry (its components `parts`, the strip removed) under the
 * directory open as root. */
static gboolean write_entry(Unpack *u, struct archive *a, struct archive_entry *e, int root, char **parts,
			    const char *shown, GError **error)
{
	guint n = g_strv_length(parts);
	int cur = dup(root);
	gboolean ok = cur >= 0 || ladder_db_file_error(errno, shown, error);
	gboolean dir = archive_entry_filetype(e) == AE_IFDIR;

	for (guint i = 0; ok && i + 1 < n; i++) {
		int next = open_dir(cur, parts[i], shown, error);
		close(cur);
		cur = next;
		ok = cur >= 0;
	}
	if (!ok)
		return FALSE;
	if (dir) {
		int fd = open_dir(cur, parts[n - 1], shown, error);
		close(cur);
		if (fd < 0)
			return FALSE;
		close(fd);
		return TRUE;
	}
	mode_t mode = archive_entry_perm(e) & 0111 ? 0755 : 0644;
	int fd = openat(cur, parts[n - 1], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	int e_open = errno;
	close(cur);
	if (fd < 0 && (e_open == EEXIST || e_open == ELOOP || e_open == EISDIR))
		return refuse(error, "%s: named twice in the archive", shown);
	if (fd < 0)
		return ladder_db_file_error(e_open, shown, error);
	ok = fchmod(fd, mode) == 0 ? write_data(u, a, fd, shown, error) : ladder_db_file_error(errno, shown, error);
	if (close(fd) != 0 && ok)
		ok = ladder_db_file_error(errno, shown, error);
	return ok;
}

/* The second pass: every entry written under root. */
static gboolean extract(Unpack *u, const void *data, gsize size, int root, GError **error)
{
	struct archive *a = reader(data, size);
	struct archive_entry *e;
	gboolean ok = TRUE;
	int rc;

	while (ok && (rc = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
		if (rc < ARCHIVE_WARN) {
			ok = broken(a, u, error);
			break;
		}
		const char *name = entry_name(e);
		g_autofree char *shown = g_strescape(name ? name : "", NULL);
		g_auto(GStrv) parts = split_name(name, shown, error);
		/* (the same checks again: the reader need not give the same
		 * headers twice) */
		if (!parts || !kind_ok(e, shown, error)) {
			ok = FALSE;
			break;
		}
		if (++u->entries > u->caps->files) {
			ok = too_many(u, shown, error);
			break;
		}
		char **rest = parts;
		if (!parts[0])
			continue;	/* the top itself, "./" */
		if (u->strip) {
			if (!parts[0] || strcmp(parts[0], u->strip) != 0) {
				ok = refuse(error, "%s: outside the archive's top directory, which changed while it was read",
					    shown);
				break;
			}
			rest = parts + 1;
		}
		if (!rest[0])
			continue;	/* the top directory */
		ok = write_entry(u, a, e, root, rest, shown, error);
	}
	archive_read_free(a);
	return ok;
}

gboolean ladder_archive_unpack(const void *data, gsize size, const char *what, const char *dst,
			       const LadderBotCaps *caps, GError **error)
{
	g_autofree char *shown = g_strescape(what, NULL);
	Unpack u = {caps, shown, size, NULL, 0, 0};

	if ((guint64)size > caps->size) {
		g_autofree char *cap = ladder_bot_size_text(caps->size);
		return refuse(error, "%s: the archive is over %s, the ladder's cap (ladder init --bot-size)", shown, cap);
	}
	if (!survey(&u, data, size, error))
		return FALSE;
	int root = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	gboolean ok = root >= 0 ? extract(&u, data, size, root, error) : ladder_db_file_error(errno, dst, error);
	if (root >= 0)
		close(root);
	g_free(u.strip);
	return ok;
}

char *ladder_archive_bot(const char *ladder_dir, const char *name, const void *data, gsize size,
			 const char *what, const LadderBotCaps *caps, LadderManifest **manifest, GError **error)
{
	g_autofree char *dst = ladder_bot_dir_make(ladder_dir, name, error);

	*manifest = NULL;
	if (!dst)
		return NULL;
	g_autofree char *mpath = g_build_filename(dst, LADDER_MANIFEST_FILE, NULL);
	g_autoptr(LadderManifest) m = NULL;
	gboolean ok = ladder_archive_unpack(data, size, what, dst, caps, error);
	if (ok && !g_file_test(mpath, G_FILE_TEST_IS_REGULAR))
		ok = refuse(error, "no %s at the archive's top, nor in its one top directory", LADDER_MANIFEST_FILE);
	if (ok) {
		g_autoptr(GError) merr = NULL;
		m = ladder_manifest_read(mpath, &merr);
		if (!m) {
			/* (said without the ladder's directory, which the author never saw) */
			g_autoptr(GString) msg = g_string_new(merr->message);
			g_string_replace(msg, mpath, LADDER_MANIFEST_FILE, 0);
			ok = refuse(error, "%s", msg->str);
		}
	}
	ok = ok && ladder_command_check(m->command, dst, ladder_dir, error) && ladder_bot_dir_check(dst, caps, error);
	if (!ok) {
		ladder_bot_dir_remove(ladder_dir, dst);
		g_autofree char *shown = g_strescape(what, NULL);
		g_prefix_error(error, "%s: ", shown);
		return NULL;
	}
	*manifest = g_steal_pointer(&m);
	return g_steal_pointer(&dst);
}

char *ladder_archive_bot_file(const char *ladder_dir, const char *name, const char *path,
			      const LadderBotCaps *caps, LadderManifest **manifest, GError **error)
{
	g_autofree char *shown = g_strescape(path, NULL);
	g_autofree char *base = g_path_get_basename(path);
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*manifest = NULL;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		refuse(error, "%s: %s", shown, fd < 0 ? g_strerror(e) : "not a regular file");
		return NULL;
	}
	if ((guint64)st.st_size > caps->size) {
		close(fd);
		g_autofree char *cap = ladder_bot_size_text(caps->size);
		refuse(error, "%s: the archive is over %s, the ladder's cap (ladder init --bot-size)", shown, cap);
		return NULL;
	}
	gsize size = (gsize)st.st_size;
	g_autofree char *data = g_malloc(MAX(size, 1));
	gsize got = 0;
	while (got < size) {
		ssize_t n = read(fd, data + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;
			close(fd);
			refuse(error, "%s: %s", shown, n < 0 ? g_strerror(e) : "changed while it was read");
			return NULL;
		}
		got += (gsize)n;
	}
	close(fd);
	return ladder_archive_bot(ladder_dir, name, data, size, base, caps, manifest, error);
}
