/*
 * events: authors' events, their feeds and their JSON lines. See events.h.
 */
#include "events.h"

#include <string.h>

#include "referee/json.h"

void ladder_event_free(LadderEvent *e)
{
	if (!e)
		return;
	g_free(e->at);
	g_free(e->kind);
	g_free(e->author);
	g_free(e->name);
	g_free(e->text);
	g_free(e);
}

const char *ladder_event_author(const char *author, const char *name)
{
	if (author)
		for (const char *p = author; *p; p++)
			if (!g_ascii_isspace(*p))
				return author;
	return name;
}

gboolean ladder_event_add(LadderDb *d, const char *kind, const char *author, const char *name, gint64 bot,
			  gint64 game, const char *text, GError **error)
{
	g_autofree char *now = ladder_db_now();
	sqlite3_stmt *st = ladder_db_prepare(d, "INSERT INTO events (at, kind, author, name, bot, game, text) "
					     "VALUES (?, ?, ?, ?, ?, ?, ?)", error);
	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ladder_event_author(author, name), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
	if (bot > 0)
		sqlite3_bind_int64(st, 5, bot);
	else
		sqlite3_bind_null(st, 5);
	if (game > 0)
		sqlite3_bind_int64(st, 6, game);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_text(st, 7, text, -1, SQLITE_STATIC);
	gboolean ok = ladder_db_step_done(d, st, error);
	sqlite3_finalize(st);
	return ok;
}

gint64 ladder_events_last(LadderDb *d)
{
	sqlite3_stmt *st = NULL;
	gint64 v = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT COALESCE(MAX(id), 0) FROM events", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return g_strdup(t ? (const char *)t : "");
}

GPtrArray *ladder_events_list(LadderDb *d, gint64 after, const char *author, guint max, gboolean newest,
			      GError **error)
{
	g_autofree char *sql = g_strdup_printf("SELECT id, at, kind, author, name, bot, game, text FROM events "
					       "WHERE id > ?%s ORDER BY id %s LIMIT ?", author ? " AND author = ?" : "",
					       newest ? "DESC" : "ASC");
	sqlite3_stmt *st = ladder_db_prepare(d, sql, error);
	int rc;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, after);
	if (author)
		sqlite3_bind_text(st, 2, author, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, author ? 3 : 2, max);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_event_free);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		LadderEvent *e = g_new0(LadderEvent, 1);
		e->id = sqlite3_column_int64(st, 0);
		e->at = col_text(st, 1);
		e->kind = col_text(st, 2);
		e->author = col_text(st, 3);
		e->name = col_text(st, 4);
		e->bot = sqlite3_column_int64(st, 5);
		e->game = sqlite3_column_int64(st, 6);
		e->text = col_text(st, 7);
		g_ptr_array_add(out, e);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ladder_db_fail(d, rc, "reading the events", error);
		return NULL;
	}
	return g_steal_pointer(&out);
}

static void json_id(GString *s, gint64 v)
{
	if (v > 0)
		g_string_append_printf(s, "%" G_GINT64_FORMAT, v);
	else
		g_string_append(s, "null");
}

char *ladder_event_json(const LadderEvent *e)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "{\"id\":%" G_GINT64_FORMAT ",\"at\":", e->id);
	json_string(s, e->at);
	g_string_append(s, ",\"kind\":");
	json_string(s, e->kind);
	g_string_append(s, ",\"author\":");
	json_string(s, e->author);
	g_string_append(s, ",\"name\":");
	json_string(s, e->name);
	g_string_append(s, ",\"bot\":");
	json_id(s, e->bot);
	g_string_append(s, ",\"game\":");
	json_id(s, e->game);
	g_string_append(s, ",\"text\":");
	json_string(s, e->text);
	g_string_append(s, "}\n");
	return g_string_free(s, FALSE);
}

/* Text escaped for XML, control bytes (which XML 1.0 forbids) as '?'. */
static void xml(GString *s, const char *text)
{
	for (const char *p = text; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '&')
			g_string_append(s, "&amp;");
		else if (c == '<')
			g_string_append(s, "&lt;");
		else if (c == '>')
			g_string_append(s, "&gt;");
		else if (c == '"')
			g_string_append(s, "&quot;");
		else if (c < 0x20 && c != '\n' && c != '\t')
			g_string_append_c(s, '?');
		else
			g_string_append_c(s, (char)c);
	}
}

static char *tag_id(const char *author)
{
	g_autofree char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, author, -1);

	return g_strdup_printf("tag:tetrarena,2026:ladder-author-%.16s", hash);
}

char *ladder_events_atom(LadderDb *d, const char *author, const char *base, GError **error)
{
	g_autoptr(GPtrArray) ev = ladder_events_list(d, 0, author, LADDER_EVENTS_FEED_MAX, TRUE, error);

	if (!ev)
		return NULL;
	g_autofree char *id = tag_id(author);
	g_autofree char *now = ladder_db_now();
	const char *updated = ev->len ? ((LadderEvent *)g_ptr_array_index(ev, 0))->at : now;
	GString *s = g_string_new("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
				  "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>");
	xml(s, author);
	g_string_append(s, "'s bots on the ladder</title>\n<id>");
	xml(s, id);
	g_string_append(s, "</id>\n<updated>");
	xml(s, updated);
	g_string_append(s, "</updated>\n<author><name>");
	xml(s, author);
	g_string_append(s, "</name></author>\n");
	for (guint i = 0; i < ev->len; i++) {
		const LadderEvent *e = g_ptr_array_index(ev, i);
		g_string_append(s, "<entry>\n<title>");
		xml(s, e->name);
		g_string_append(s, ": ");
		xml(s, e->kind);
		g_string_append_printf(s, "</title>\n<id>%s-event-%" G_GINT64_FORMAT "</id>\n<updated>", id, e->id);
		xml(s, e->at);
		g_string_append_printf(s, "</updated>\n<category term=\"%s\"/>\n", e->kind);
		if (e->bot > 0) {
			g_string_append(s, "<link href=\"");
			if (base)
				xml(s, base);
			g_string_append_printf(s, "bot-%" G_GINT64_FORMAT ".html\"/>\n", e->bot);
		}
		g_string_append(s, "<content type=\"text\">");
		xml(s, e->text);
		g_string_append(s, "</content>\n</entry>\n");
	}
	g_string_append(s, "</feed>\n");
	return g_string_free(s, FALSE);
}

char *ladder_events_feed_file(const char *author)
{
	g_autofree char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, author, -1);
	GString *s = g_string_new(NULL);

	for (const char *p = author; *p && s->len < 40; p++)
		if (g_ascii_isalnum(*p) || *p == '-' || *p == '_')
			g_string_append_c(s, *p);
	g_string_append_printf(s, "%s%.8s.atom", s->len ? "-" : "", hash);
	return g_string_free(s, FALSE);
}
