/*
 * html: self-contained HTML pages. See html.h.
 *
 * The style and scripts come from build/viewer-assets.h, made by the
 * Makefile from referee/viewer/ with scripts/embed.py (as xxd -i).
 */
#include "html.h"

#include "build/viewer-assets.h"
#include "json.h"

/* Append the page's head (title, inline style) and open its body. */
static void head(GString *s, const char *title)
{
	g_autofree char *esc = g_markup_escape_text(title, -1);

	g_string_append_printf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			       "<title>%s</title>\n<style>\n", esc);
	g_string_append_len(s, (const char *)referee_viewer_viewer_css, referee_viewer_viewer_css_len);
	g_string_append(s, "</style>\n</head>\n<body>\n");
}

/* Append the page's head, then the data as JSON (in an element of its
 * own, which no `</script>` inside it can close). */
static void page_start(GString *s, const char *title, const char *id, const char *json)
{
	head(s, title);
	g_string_append_printf(s, "<script type=\"application/json\" id=\"%s\">", id);
	/* "</" can only be inside a JSON string, where "<\/" means the same */
	for (const char *p = json; *p; p++) {
		g_string_append_c(s, *p);
		if (p[0] == '<' && p[1] == '/')
			g_string_append_c(s, '\\');
	}
	g_string_append(s, "</script>\n");
}

/* The page's scripts: the shared one, then `extra` (or none), then `script`. */
static char *page_end(GString *s, const unsigned char *extra, unsigned extra_len,
		      const unsigned char *script, unsigned len)
{
	g_string_append(s, "<script>\n");
	g_string_append_len(s, (const char *)referee_viewer_common_js, referee_viewer_common_js_len);
	if (extra)
		g_string_append_len(s, (const char *)extra, extra_len);
	g_string_append_len(s, (const char *)script, len);
	g_string_append(s, "</script>\n</body>\n</html>\n");
	return g_string_free(s, FALSE);
}

char *html_replay_page(const char *title, const char *json)
{
	GString *s = g_string_new(NULL);

	page_start(s, title, "game", json);
	return page_end(s, referee_viewer_boards_js, referee_viewer_boards_js_len,
			referee_viewer_replay_js, referee_viewer_replay_js_len);
}

char *html_report_page(const char *standings_json, const char *games_csv, const GPtrArray *replayed,
		       const char *meta_json)
{
	g_autoptr(GString) data = g_string_new("{\"standings\":");
	GString *s = g_string_new(NULL);

	g_string_append(data, standings_json);
	g_string_append(data, ",\"games_csv\":");
	json_string(data, games_csv);
	g_string_append(data, ",\"replayed\":[");
	for (guint i = 0; i < replayed->len; i++) {
		if (i)
			g_string_append_c(data, ',');
		json_string(data, g_ptr_array_index(replayed, i));
	}
	g_string_append_printf(data, "],\"meta\":%s}", meta_json ? meta_json : "{}");
	page_start(s, "tetrarena tournament report", "report", data->str);
	return page_end(s, NULL, 0, referee_viewer_report_js, referee_viewer_report_js_len);
}

char *html_static_page(const char *title, const char *body)
{
	GString *s = g_string_new(NULL);

	head(s, title);
	g_string_append_printf(s, "%s</body>\n</html>\n", body);
	return g_string_free(s, FALSE);
}

const char *html_asset(const char *name, gsize *len)
{
	static const struct {
		const char *name;
		const unsigned char *data;
		const unsigned int *len;
	} files[] = {
		{"viewer.css", referee_viewer_viewer_css, &referee_viewer_viewer_css_len},
		{"common.js", referee_viewer_common_js, &referee_viewer_common_js_len},
		{"boards.js", referee_viewer_boards_js, &referee_viewer_boards_js_len},
		{"replay.js", referee_viewer_replay_js, &referee_viewer_replay_js_len},
		{"report.js", referee_viewer_report_js, &referee_viewer_report_js_len},
		{"play-kit.js", referee_viewer_play_kit_js, &referee_viewer_play_kit_js_len},
		{"play-link.js", referee_viewer_play_link_js, &referee_viewer_play_link_js_len},
		{"play-tetroll.js", referee_viewer_play_tetroll_js, &referee_viewer_play_tetroll_js_len},
		{"play-rush.js", referee_viewer_play_rush_js, &referee_viewer_play_rush_js_len},
		{"play-matrix.js", referee_viewer_play_matrix_js, &referee_viewer_play_matrix_js_len},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(files); i++)
		if (g_strcmp0(name, files[i].name) == 0) {
			*len = *files[i].len;
			return (const char *)files[i].data;
		}
	return NULL;
}
