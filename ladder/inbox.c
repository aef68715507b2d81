/*
 * inbox: request files queued while a run writes. See inbox.h.
 */
#include "inbox.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ladder/ladder.h"
#include "ladder/manifest.h"

G_DEFINE_QUARK(tetrarena-ladder-inbox-error-quark, ladder_inbox_error)

#define GROUP "request"
#define SUFFIX ".req"

static const char *const keys[] = {"kind", "name", "command", "workdir", "author", "description", NULL};

void ladder_request_free(LadderRequest *r)
{
	if (!r)
		return;
	g_free(r->name);
	g_free(r->command);
	g_free(r->workdir);
	g_free(r->author);
	g_free(r->description);
	g_free(r);
}

const char *ladder_request_kind_name(LadderRequestKind k)
{
	return k == LADDER_REQUEST_RETIRE ? "retire" : k == LADDER_REQUEST_RESUME ? "resume" : "add";
}

static LadderRequest *invalid(GError **error, const char *path, const char *why, const char *what)
{
	g_set_error(error, LADDER_INBOX_ERROR, LADDER_INBOX_ERROR_INVALID, "%s: %s%s", path, why, what);
	return NULL;
}

LadderRequest *ladder_request_read(const char *path, GError **error)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GKeyFile) kf = ladder_keyfile_load(path, LADDER_INBOX_MAX, GROUP, keys, &err);

	if (!kf) {
		g_set_error_literal(error, LADDER_INBOX_ERROR,
				    g_error_matches(err, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_READ)
					    ? LADDER_INBOX_ERROR_READ : LADDER_INBOX_ERROR_INVALID,
				    err->message);
		return NULL;
	}
	g_autoptr(LadderRequest) r = g_new0(LadderRequest, 1);
	g_autofree char *kind = ladder_keyfile_value(kf, GROUP, "kind");
	if (!g_strcmp0(kind, "add"))
		r->kind = LADDER_REQUEST_ADD;
	else if (!g_strcmp0(kind, "retire"))
		r->kind = LADDER_REQUEST_RETIRE;
	else if (!g_strcmp0(kind, "resume"))
		r->kind = LADDER_REQUEST_RESUME;
	else
		return invalid(error, path, "kind= wants add, retire or resume, not: ", kind ? kind : "(none)");
	r->name = ladder_keyfile_value(kf, GROUP, "name");
	if (!r->name || !ladder_name_valid(r->name))
		return invalid(error, path, "name= wants 1 to 32 letters, digits, '_' or '-', not: ",
			       r->name ? r->name : "(none)");
	r->command = ladder_keyfile_value(kf, GROUP, "command");
	r->workdir = ladder_keyfile_value(kf, GROUP, "workdir");
	r->author = ladder_keyfile_value(kf, GROUP, "author");
	r->description = ladder_keyfile_value(kf, GROUP, "description");
	if (r->kind == LADDER_REQUEST_ADD && !r->command)
		return invalid(error, path, "kind=add without command=", "");
	if (r->kind != LADDER_REQUEST_ADD && (r->command || r->workdir || r->author || r->description))
		return invalid(error, path, r->kind == LADDER_REQUEST_RETIRE ? "kind=retire takes only name="
					    : "kind=resume takes only name=", "");
	if (r->workdir && !g_path_is_absolute(r->workdir))
		return invalid(error, path, "workdir= is not an absolute path: ", r->workdir);
	return g_steal_pointer(&r);
}

static void set(GKeyFile *kf, const char *key, const char *value)
{
	if (value)
		g_key_file_set_string(kf, GROUP, key, value);
}

static gboolean write_error(GError **error, const char *path, int e)
{
	g_set_error(error, LADDER_INBOX_ERROR, LADDER_INBOX_ERROR_WRITE, "queuing %s: %s", path, g_strerror(e));
	return FALSE;
}

/* Write data to path and fsync it. */
static gboolean write_synced(const char *path, const char *data, gsize len, GError **error)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return write_error(error, path, errno);
	for (gsize done = 0; done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return write_error(error, path, e);
		}
		done += (gsize)n;
	}
	if (fsync(fd) != 0) {
		int e = errno;
		close(fd);
		return write_error(error, path, e);
	}
	return close(fd) == 0 || write_error(error, path, errno);
}

char *ladder_inbox_queue(const char *dir, const LadderRequest *r, GError **error)
{
	g_autofree char *inbox = g_build_filename(dir, LADDER_INBOX_DIR, NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();

	if (g_mkdir_with_parents(inbox, 0700) != 0)
		return write_error(error, inbox, errno), NULL;
	set(kf, "kind", ladder_request_kind_name(r->kind));
	set(kf, "name", r->name);
	set(kf, "command", r->command);
	set(kf, "workdir", r->workdir);
	set(kf, "author", r->author);
	set(kf, "description", r->description);
	gsize len = 0;
	g_autofree char *data = g_key_file_to_data(kf, &len, NULL);
	g_autofree char *leaf = g_strdup_printf("%016" G_GINT64_MODIFIER "x-%d" SUFFIX, g_get_real_time(),
						(int)getpid());
	g_autofree char *tmp_leaf = g_strdup_printf(".%s.tmp", leaf);
	g_autofree char *tmp = g_build_filename(inbox, tmp_leaf, NULL);
	g_autofree char *path = g_build_filename(inbox, leaf, NULL);
	if (!write_synced(tmp, data, len, error)) {
		g_unlink(tmp);
		return NULL;
	}
	if (rename(tmp, path) != 0) {
		int e = errno;
		g_unlink(tmp);
		return write_error(error, path, e), NULL;
	}
	/* the rename itself reaches the disk with the directory */
	int dfd = open(inbox, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return g_steal_pointer(&leaf);
}

static int by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *ladder_inbox_list(const char *dir)
{
	g_autofree char *inbox = g_build_filename(dir, LADDER_INBOX_DIR, NULL);
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) d = g_dir_open(inbox, 0, NULL);
	const char *leaf;

	while (d && (leaf = g_dir_read_name(d)))
		if (leaf[0] != '.' && g_str_has_suffix(leaf, SUFFIX))
			g_ptr_array_add(out, g_strdup(leaf));
	g_ptr_array_sort(out, by_name);
	return out;
}
