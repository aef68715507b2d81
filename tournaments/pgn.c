/*
 * pgn: a tournament's journal as PGN (see pgn.h).
 */
#include "tournaments/pgn.h"

#include <sys/stat.h>

#include "tournaments/journal.h"

/* A PGN string value: backslash and quote escaped. */
static void pgn_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_c(out, '\\');
		g_string_append_c(out, *s);
	}
	g_string_append_c(out, '"');
}

static void tag(GString *out, const char *name, const char *value)
{
	g_string_append_printf(out, "[%s ", name);
	pgn_string(out, value);
	g_string_append(out, "]\n");
}

static gint cmp_id(gconstpointer a, gconstpointer b)
{
	const JournalGame *x = *(JournalGame *const *)a, *y = *(JournalGame *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

char *pgn_from_tournament(const char *dir, GError **error)
{
	g_autofree char *path = g_build_filename(dir, JOURNAL_FILE, NULL);
	g_autoptr(GPtrArray) games = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *event = NULL;
	JournalHeader h = { 0 };

	if (!journal_read(path, &h, &games, NULL, error))
		return NULL;
	if (h.nseats != 2) {
		g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
			    "%s: games of %d players: PGN holds two-player games only", path, h.nseats);
		journal_header_clear(&h);
		return NULL;
	}
	g_ptr_array_sort(games, cmp_id);
	event = g_strdup_printf("tetrarena %s tournament, seed %" G_GUINT64_FORMAT, h.variant, h.seed);
	for (guint i = 0; i < games->len; i++) {
		const JournalGame *g = g_ptr_array_index(games, i);
		const char *result = g->seat[0].rank < g->seat[1].rank ? "1-0" :
				     g->seat[0].rank > g->seat[1].rank ? "0-1" : "1/2-1/2";
		g_autofree char *round = g_strdup_printf("%d.%d", g->round + 1, g->id);
		char date[16] = "????.??.??";
		struct stat st;

		if (g->log[0] && g->log[0] != '-') {
			g_autofree char *log = g_path_is_absolute(g->log) ? g_strdup(g->log)
									   : g_build_filename(dir, g->log, NULL);

			if (stat(log, &st) == 0) {
				g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc(st.st_mtime);
				g_autofree char *d = t ? g_date_time_format(t, "%Y.%m.%d") : NULL;

				if (d)
					g_strlcpy(date, d, sizeof(date));
			}
		}
		tag(out, "Event", event);
		tag(out, "Site", "tetrarena");
		tag(out, "Date", date);
		tag(out, "Round", round);
		tag(out, "White", h.bots[g->bot[0]]);
		tag(out, "Black", h.bots[g->bot[1]]);
		tag(out, "Result", result);
		g_string_append_printf(out, "\n%s\n\n", result);
	}
	journal_header_clear(&h);
	return g_string_free(g_steal_pointer(&out), FALSE);
}
