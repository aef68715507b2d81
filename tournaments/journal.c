/*
 * journal: append-only game records, resume and reading (see journal.h).
 */
#include "tournaments/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>

#define MAGIC "tetrarena-journal"
#define VERSION 1

G_DEFINE_QUARK(tetrarena-journal-error-quark, journal_error)

struct Journal {
	int fd;
	char *path;
	GMutex lock;
	gint64 synced;		/* monotonic time of the last fdatasync */
	gboolean dirty;		/* written since */
};

void journal_header_clear(JournalHeader *h)
{
	g_clear_pointer(&h->fingerprint, g_free);
	g_clear_pointer(&h->variant, g_free);
	g_clear_pointer(&h->bots, g_strfreev);
	g_clear_pointer(&h->sprt, g_free);
	memset(h, 0, sizeof(*h));
}

void journal_header_copy(JournalHeader *dst, const JournalHeader *src)
{
	*dst = *src;
	dst->fingerprint = g_strdup(src->fingerprint);
	dst->variant = g_strdup(src->variant);
	dst->bots = g_strdupv(src->bots);
	dst->sprt = g_strdup(src->sprt);
}

static guint32 fnv1a(const char *s, gsize n)
{
	guint32 h = 2166136261u;

	for (gsize i = 0; i < n; i++) {
		h ^= (guchar)s[i];
		h *= 16777619u;
	}
	return h;
}

static void append_ms(GString *s, double ms)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(s, g_ascii_formatd(buf, sizeof(buf), "%.3f", ms));
}

typedef enum { F_RANK, F_SCORE, F_MOVES, F_MEAN, F_MAX, F_FAULTS, F_BOT } Field;

static void append_list(GString *s, const char *key, const JournalGame *g, Field f)
{
	g_string_append_printf(s, " %s=", key);
	for (int k = 0; k < g->nseats; k++) {
		const JournalSeat *seat = &g->seat[k];

		if (k)
			g_string_append_c(s, ',');
		switch (f) {
		case F_RANK: g_string_append_printf(s, "%d", seat->rank); break;
		case F_SCORE: g_string_append_printf(s, "%d", seat->score); break;
		case F_MOVES: g_string_append_printf(s, "%d", seat->moves); break;
		case F_MEAN: append_ms(s, seat->mean_ms); break;
		case F_MAX: append_ms(s, seat->max_ms); break;
		case F_FAULTS: g_string_append(s, seat->faults[0] ? seat->faults : "-"); break;
		case F_BOT: g_string_append_printf(s, "%d", g->bot[k]); break;
		}
	}
}

static const char *const sandbox_names[JOURNAL_SANDBOX_COUNT] = {
	"unknown", "on", "off", "unavailable",
};

const char *journal_sandbox_name(JournalSandbox s)
{
	g_return_val_if_fail(s >= 0 && s < JOURNAL_SANDBOX_COUNT, "unknown");
	return sandbox_names[s];
}

char *journal_game_format(const JournalGame *g)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "game id=%d round=%d seed=%" G_GUINT64_FORMAT,
			       g->id, g->round, g->seed);
	append_list(s, "bots", g, F_BOT);
	append_list(s, "ranks", g, F_RANK);
	append_list(s, "scores", g, F_SCORE);
	append_list(s, "faults", g, F_FAULTS);
	append_list(s, "moves", g, F_MOVES);
	append_list(s, "mean", g, F_MEAN);
	append_list(s, "max", g, F_MAX);
	g_string_append_printf(s, " end=%s plies=%d ms=%" G_GINT64_FORMAT " log=%s",
			       g->end[0] ? g->end : "-", g->plies, g->wall_ms,
			       g->log[0] ? g->log : "-");
	if (g->sandbox != JOURNAL_SANDBOX_UNKNOWN)
		g_string_append_printf(s, " sandbox=%s", journal_sandbox_name(g->sandbox));
	g_string_append_printf(s, " check=%08x\n", fnv1a(s->str, s->len));
	return g_string_free(s, FALSE);
}

static gboolean parse_int(const char *text, gint64 min, gint64 max, gint64 *out)
{
	return g_ascii_string_to_signed(text, 10, min, max, out, NULL);
}

/* A non-negative int. */
static gboolean parse_small(const char *text, int *out)
{
	gint64 v;

	if (!parse_int(text, 0, G_MAXINT, &v))
		return FALSE;
	*out = (int)v;
	return TRUE;
}

static gboolean parse_double(const char *text, double *out)
{
	char *end = NULL;

	if (!*text)
		return FALSE;
	*out = g_ascii_strtod(text, &end);
	return end && *end == '\0';
}

/* Parse one comma-separated value per seat into field f; *n is the seat
 * count (0: not known yet, set from this list). */
static gboolean parse_seats(const char *value, JournalGame *g, Field f, int *n)
{
	g_auto(GStrv) items = g_strsplit(value, ",", -1);
	int count = (int)g_strv_length(items);

	if (count < 1 || count > VARIANT_MAX_PLAYERS || (*n && count != *n))
		return FALSE;
	*n = count;
	for (int k = 0; k < count; k++) {
		JournalSeat *seat = &g->seat[k];
		gint64 v;

		switch (f) {
		case F_RANK:
		case F_SCORE:
		case F_MOVES:
		case F_BOT:
			if (!parse_int(items[k], f == F_SCORE ? -1000000000 : 0, 1000000000, &v))
				return FALSE;
			if (f == F_RANK)
				seat->rank = (int)v;
			else if (f == F_SCORE)
				seat->score = (int)v;
			else if (f == F_MOVES)
				seat->moves = (int)v;
			else
				g->bot[k] = (int)v;
			break;
		case F_MEAN:
			if (!parse_double(items[k], &seat->mean_ms))
				return FALSE;
			break;
		case F_MAX:
			if (!parse_double(items[k], &seat->max_ms))
				return FALSE;
			break;
		case F_FAULTS:
			if (strlen(items[k]) >= sizeof(seat->faults))
				return FALSE;
			g_strlcpy(seat->faults, strcmp(items[k], "-") ? items[k] : "",
				  sizeof(seat->faults));
			break;
		}
	}
	return TRUE;
}

gboolean journal_game_parse(const char *line, JournalGame *g, GError **error)
{
	const char *check = strstr(line, " check=");
	g_auto(GStrv) words = NULL;
	int n = 0;
	guint have = 0;

	memset(g, 0, sizeof(*g));
	if (!g_str_has_prefix(line, "game ") || !check ||
	    strlen(check + 7) != 8 || strchr(check + 7, ' ')) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT, "not a game line");
		return FALSE;
	}
	{
		g_autofree char *want = g_strdup_printf("%08x", fnv1a(line, (gsize)(check - line)));

		if (strcmp(want, check + 7) != 0) {
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT, "bad check");
			return FALSE;
		}
	}
	words = g_strsplit(line, " ", -1);
	for (int i = 1; words[i]; i++) {
		char *eq = strchr(words[i], '=');
		const char *key = words[i], *val;
		gboolean ok = TRUE;

		if (!eq)
			goto bad;
		*eq = '\0';
		val = eq + 1;
		if (!strcmp(key, "id")) {
			ok = parse_small(val, &g->id);
			have |= 1;
		} else if (!strcmp(key, "round")) {
			ok = parse_small(val, &g->round);
		} else if (!strcmp(key, "seed")) {
			ok = g_ascii_string_to_unsigned(val, 10, 0, G_MAXUINT64, &g->seed, NULL);
		} else if (!strcmp(key, "bots")) {
			ok = parse_seats(val, g, F_BOT, &n);
			have |= 2;
		} else if (!strcmp(key, "ranks")) {
			ok = parse_seats(val, g, F_RANK, &n);
			have |= 4;
		} else if (!strcmp(key, "scores")) {
			ok = parse_seats(val, g, F_SCORE, &n);
		} else if (!strcmp(key, "faults")) {
			ok = parse_seats(val, g, F_FAULTS, &n);
		} else if (!strcmp(key, "moves")) {
			ok = parse_seats(val, g, F_MOVES, &n);
		} else if (!strcmp(key, "mean")) {
			ok = parse_seats(val, g, F_MEAN, &n);
		} else if (!strcmp(key, "max")) {
			ok = parse_seats(val, g, F_MAX, &n);
		} else if (!strcmp(key, "end")) {
			ok = g_strlcpy(g->end, val, sizeof(g->end)) < sizeof(g->end);
		} else if (!strcmp(key, "plies")) {
			ok = parse_small(val, &g->plies);
		} else if (!strcmp(key, "ms")) {
			ok = parse_int(val, 0, G_MAXINT64, &g->wall_ms);
		} else if (!strcmp(key, "log")) {
			ok = g_strlcpy(g->log, strcmp(val, "-") ? val : "", sizeof(g->log)) < sizeof(g->log);
		} else if (!strcmp(key, "sandbox")) {
			ok = FALSE;
			for (int m = JOURNAL_SANDBOX_ON; m < JOURNAL_SANDBOX_COUNT; m++)
				if (!strcmp(val, sandbox_names[m])) {
					g->sandbox = (JournalSandbox)m;
					ok = TRUE;
				}
		}
		/* Unknown keys are skipped: later versions may add some. */
		if (!ok)
			goto bad;
	}
	if (have != 7)
		goto bad;
	g->nseats = n;
	return TRUE;
bad:
	g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT, "malformed game line");
	return FALSE;
}

static char *header_format(const JournalHeader *h)
{
	g_autofree char *bots = g_strjoinv(",", h->bots);
	g_autofree char *sprt = h->sprt ? g_strdup_printf(" sprt=%s", h->sprt) : g_strdup("");

	return g_strdup_printf(MAGIC " %d fingerprint=%s variant=%s players=%d games=%d "
			       "seed=%" G_GUINT64_FORMAT " per-seating=%d bootstrap=%d%s bots=%s\n",
			       VERSION, h->fingerprint, h->variant, h->nseats, h->total,
			       h->seed, h->per_seating, h->bootstrap, sprt, bots);
}

static gboolean header_parse(const char *line, JournalHeader *h)
{
	g_auto(GStrv) words = g_strsplit(line, " ", -1);
	gint64 v;
	guint have = 0;

	memset(h, 0, sizeof(*h));
	if (g_strv_length(words) < 2 || strcmp(words[0], MAGIC) ||
	    !parse_int(words[1], 1, VERSION, &v))
		return FALSE;
	for (int i = 2; words[i]; i++) {
		char *eq = strchr(words[i], '=');
		const char *val;

		if (!eq)
			goto bad;
		*eq = '\0';
		val = eq + 1;
		if (!strcmp(words[i], "fingerprint")) {
			g_free(h->fingerprint);
			h->fingerprint = g_strdup(val);
			have |= 1;
		} else if (!strcmp(words[i], "variant")) {
			g_free(h->variant);
			h->variant = g_strdup(val);
			have |= 2;
		} else if (!strcmp(words[i], "players")) {
			if (!parse_int(val, 1, VARIANT_MAX_PLAYERS, &v))
				goto bad;
			h->nseats = (int)v;
			have |= 4;
		} else if (!strcmp(words[i], "games")) {
			if (!parse_int(val, 0, G_MAXINT, &v))
				goto bad;
			h->total = (int)v;
			have |= 8;
		} else if (!strcmp(words[i], "seed")) {
			if (!g_ascii_string_to_unsigned(val, 10, 0, G_MAXUINT64, &h->seed, NULL))
				goto bad;
		} else if (!strcmp(words[i], "per-seating")) {
			if (!parse_int(val, 1, G_MAXINT, &v))
				goto bad;
			h->per_seating = (int)v;
		} else if (!strcmp(words[i], "bootstrap")) {
			if (!parse_int(val, 0, G_MAXINT, &v))
				goto bad;
			h->bootstrap = (int)v;
		} else if (!strcmp(words[i], "sprt")) {
			g_free(h->sprt);
			h->sprt = g_strdup(val);
		} else if (!strcmp(words[i], "bots")) {
			g_strfreev(h->bots);
			h->bots = g_strsplit(val, ",", -1);
			have |= 16;
		}
	}
	if (have == 31 && g_strv_length(h->bots) >= 1)
		return TRUE;
bad:
	journal_header_clear(h);
	return FALSE;
}

static gint cmp_game_id(gconstpointer a, gconstpointer b)
{
	const JournalGame *x = *(JournalGame *const *)a, *y = *(JournalGame *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Whether a game belongs under the header: its seat count, and distinct
 * bots that the header names. */
static gboolean game_fits(const JournalGame *g, const JournalHeader *h)
{
	int nbots = (int)g_strv_length(h->bots);

	if (g->nseats != h->nseats)
		return FALSE;
	for (int k = 0; k < g->nseats; k++) {
		if (g->bot[k] >= nbots || g->seat[k].rank < 1)
			return FALSE;
		for (int o = 0; o < k; o++)
			if (g->bot[o] == g->bot[k])
				return FALSE;
	}
	return TRUE;
}

static gboolean parse_contents(const char *path, const char *data, gsize len,
			       JournalHeader *header, GPtrArray **games_out,
			       goffset *valid_len, GError **error)
{
	g_autoptr(GPtrArray) games = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	gsize pos = 0, good = 0;
	int lineno = 0;
	JournalHeader h = { 0 };

	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		gsize end = nl ? (gsize)(nl - data) : len;
		g_autofree char *line = g_strndup(data + pos, end - pos);
		gboolean last = !nl || end + 1 >= len;

		lineno++;
		if (lineno == 1) {
			if (!nl || !header_parse(line, &h)) {
				g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT,
					    "%s: not a tetrarena journal (bad header)", path);
				return FALSE;
			}
		} else if (!nl) {
			break;	/* a torn last line */
		} else {
			JournalGame *g = g_new(JournalGame, 1);
			g_autoptr(GError) err = NULL;

			if (!journal_game_parse(line, g, &err) || !game_fits(g, &h)) {
				g_free(g);
				if (last)
					break;
				g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT,
					    "%s:%d: damaged line (%s)", path, lineno,
					    err ? err->message : "seats or bots do not match the header");
				journal_header_clear(&h);
				return FALSE;
			}
			if (g_hash_table_contains(seen, GINT_TO_POINTER(g->id + 1))) {
				g_free(g);
			} else {
				g_hash_table_add(seen, GINT_TO_POINTER(g->id + 1));
				g_ptr_array_add(games, g);
			}
		}
		pos = end + 1;
		good = pos;
	}
	if (lineno == 0) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT,
			    "%s: empty journal", path);
		return FALSE;
	}
	g_ptr_array_sort(games, cmp_game_id);
	*header = h;
	if (games_out)
		*games_out = g_steal_pointer(&games);
	if (valid_len)
		*valid_len = (goffset)good;
	return TRUE;
}

static void set_errno_error(GError **error, const char *what, const char *path);

gboolean journal_read_header(const char *path, JournalHeader *header, gboolean *found,
			     GError **error)
{
	char buf[JOURNAL_HEADER_MAX];
	FILE *f = fopen(path, "re");
	gsize n;
	char *nl;

	*found = FALSE;
	memset(header, 0, sizeof(*header));
	if (!f) {
		if (errno == ENOENT)
			return TRUE;
		set_errno_error(error, "cannot open", path);
		return FALSE;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	nl = memchr(buf, '\n', n);
	if (!nl) {
		if (n < sizeof(buf) - 1)
			return TRUE;	/* empty or torn: journal_open() starts afresh */
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT,
			    "%s: not a tetrarena journal (bad header)", path);
		return FALSE;
	}
	*nl = '\0';
	if (!header_parse(buf, header)) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT,
			    "%s: not a tetrarena journal (bad header)", path);
		return FALSE;
	}
	*found = TRUE;
	return TRUE;
}

gboolean journal_read(const char *path, JournalHeader *header, GPtrArray **games,
		      goffset *valid_len, GError **error)
{
	g_autofree char *data = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &data, &len, error))
		return FALSE;
	return parse_contents(path, data, len, header, games, valid_len, error);
}

static gboolean write_all(int fd, const char *buf, gsize len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return FALSE;
		buf += n;
		len -= (gsize)n;
	}
	return TRUE;
}

static void set_errno_error(GError **error, const char *what, const char *path)
{
	int e = errno;

	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s %s: %s",
		    what, path, g_strerror(e));
}

/* Flush a new file's directory entry to disk (best effort). */
static void sync_dir(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);
	int fd = g_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Whether the file holds a newline at all (a complete header). */
static gboolean has_newline(int fd)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		if (memchr(buf, '\n', (size_t)n))
			return TRUE;
		off += n;
	}
	return FALSE;
}

gboolean journal_rewrite_header(const char *path, const JournalHeader *header, GError **error)
{
	g_autofree char *text = NULL, *head = header_format(header);
	g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
	gsize len;
	const char *nl;
	int fd = g_open(path, O_RDONLY | O_CLOEXEC, 0);
	gboolean ok;
	GString *out;

	if (fd < 0) {
		set_errno_error(error, "cannot open", path);
		return FALSE;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_BUSY, "%s is in use by another referee", path);
		close(fd);
		return FALSE;
	}
	if (!g_file_get_contents(path, &text, &len, error)) {
		close(fd);
		return FALSE;
	}
	nl = memchr(text, '\n', len);
	if (!nl) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_CORRUPT, "%s: no header line", path);
		close(fd);
		return FALSE;
	}
	out = g_string_new(head);
	g_string_append_len(out, nl + 1, (gssize)(len - (gsize)(nl + 1 - text)));
	ok = g_file_set_contents(tmp, out->str, (gssize)out->len, error);
	g_string_free(out, TRUE);
	if (ok && g_rename(tmp, path) < 0) {
		set_errno_error(error, "cannot rename over", path);
		ok = FALSE;
	}
	close(fd);
	return ok;
}

Journal *journal_open(const char *path, const JournalHeader *header,
		      GPtrArray **games, GError **error)
{
	Journal *j;
	int fd = g_open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	struct stat st;

	if (fd < 0) {
		set_errno_error(error, "cannot open", path);
		return NULL;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_BUSY,
			    "%s is in use by another referee", path);
		close(fd);
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		set_errno_error(error, "cannot stat", path);
		close(fd);
		return NULL;
	}
	if (st.st_size > 0 && !has_newline(fd)) {
		/* Killed while writing the header: nothing was recorded yet. */
		if (ftruncate(fd, 0) < 0) {
			set_errno_error(error, "cannot truncate", path);
			close(fd);
			return NULL;
		}
		st.st_size = 0;
	}
	if (st.st_size == 0) {
		g_autofree char *line = header_format(header);

		if (!write_all(fd, line, strlen(line)) || fdatasync(fd) < 0) {
			set_errno_error(error, "cannot write", path);
			close(fd);
			return NULL;
		}
		sync_dir(path);
		if (games)
			*games = g_ptr_array_new_with_free_func(g_free);
	} else {
		JournalHeader old = { 0 };
		goffset valid = 0;
		g_autoptr(GPtrArray) got = NULL;

		if (!journal_read(path, &old, &got, &valid, error)) {
			close(fd);
			return NULL;
		}
		if (g_strcmp0(old.fingerprint, header->fingerprint) != 0) {
			g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
				    "%s belongs to another tournament (variant %s, %d players, "
				    "bots %s...): use another output directory",
				    path, old.variant, old.nseats, old.bots[0]);
			journal_header_clear(&old);
			close(fd);
			return NULL;
		}
		journal_header_clear(&old);
		if (valid < st.st_size && ftruncate(fd, valid) < 0) {
			set_errno_error(error, "cannot truncate", path);
			close(fd);
			return NULL;
		}
		if (games)
			*games = g_steal_pointer(&got);
	}
	j = g_new0(Journal, 1);
	j->fd = fd;
	j->path = g_strdup(path);
	j->synced = g_get_monotonic_time();	/* the header was just synced */
	g_mutex_init(&j->lock);
	return j;
}

gboolean journal_append_many(Journal *j, const JournalGame *const *games, guint n,
			     GError **error)
{
	g_autoptr(GString) lines = g_string_new(NULL);
	gboolean ok;

	for (guint i = 0; i < n; i++) {
		g_autofree char *line = journal_game_format(games[i]);

		g_string_append(lines, line);
	}
	g_mutex_lock(&j->lock);
	ok = write_all(j->fd, lines->str, lines->len);
	if (ok) {
		gint64 now = g_get_monotonic_time();
		j->dirty = TRUE;
		if (now - j->synced >= JOURNAL_SYNC_MS * 1000) {
			ok = fdatasync(j->fd) == 0;
			j->synced = now;
			j->dirty = FALSE;
		}
	}
	if (!ok)
		set_errno_error(error, "cannot append to", j->path);
	g_mutex_unlock(&j->lock);
	return ok;
}

gboolean journal_sync(Journal *j, GError **error)
{
	gboolean ok = TRUE;

	g_mutex_lock(&j->lock);
	if (j->dirty) {
		ok = fdatasync(j->fd) == 0;
		if (!ok)
			set_errno_error(error, "cannot sync", j->path);
		j->dirty = FALSE;
		j->synced = g_get_monotonic_time();
	}
	g_mutex_unlock(&j->lock);
	return ok;
}

gboolean journal_append(Journal *j, const JournalGame *g, GError **error)
{
	return journal_append_many(j, &g, 1, error);
}

void journal_free(Journal *j)
{
	if (!j)
		return;
	if (j->dirty && fdatasync(j->fd) < 0) {
		/* best effort: journal_sync reports failures */
	}
	close(j->fd);
	g_mutex_clear(&j->lock);
	g_free(j->path);
	g_free(j);
}
