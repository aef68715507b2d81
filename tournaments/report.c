/*
 * report: a tournament's report.html. See report.h.
 */
#include "tournaments/report.h"

#include <stdio.h>

#include "referee/gamelog.h"
#include "referee/html.h"
#include "referee/replay.h"

/* Write the replay of outdir/rel (rel itself when absolute, as `referee
 * merge` names the shards' logs) beside it, unless it is there already;
 * FALSE when the game has none (no log, or one that does not replay). */
static gboolean write_replay(const char *outdir, const char *rel)
{
	g_autofree char *log_path =
		g_path_is_absolute(rel) ? g_strdup(rel) : g_build_filename(outdir, rel, NULL);
	g_autofree char *html_path = g_strdup_printf("%s.html", log_path);
	g_autoptr(GError) error = NULL;

	if (g_file_test(html_path, G_FILE_TEST_EXISTS))
		return TRUE;
	if (!g_file_test(log_path, G_FILE_TEST_EXISTS))
		return FALSE;
	g_autoptr(GameLog) log = gamelog_read(log_path, &error);
	g_autofree char *json = log ? replay_json(log, &error) : NULL;
	if (!json) {
		fprintf(stderr, "referee: report: no replay for %s: %s\n", rel, error->message);
		return FALSE;
	}
	g_autofree char *base = g_path_get_basename(rel);
	g_autofree char *title = g_strdup_printf("%s: %s", log->variant->title, base);
	g_autofree char *page = html_replay_page(title, json);
	if (!g_file_set_contents(html_path, page, -1, &error)) {
		fprintf(stderr, "referee: report: %s\n", error->message);
		return FALSE;
	}
	return TRUE;
}

gboolean report_write(const char *outdir, const GPtrArray *logs, GError **error)
{
	g_autofree char *json_path = g_build_filename(outdir, "standings.json", NULL);
	g_autofree char *csv_path = g_build_filename(outdir, "games.csv", NULL);
	g_autofree char *html_path = g_build_filename(outdir, "report.html", NULL);
	g_autofree char *json = NULL, *csv = NULL;
	g_autoptr(GPtrArray) replayed = g_ptr_array_new();

	if (!g_file_get_contents(json_path, &json, NULL, error) ||
	    !g_file_get_contents(csv_path, &csv, NULL, error))
		return FALSE;
	for (guint i = 0; logs->len <= REPORT_REPLAYS_MAX && i < logs->len; i++)
		if (write_replay(outdir, g_ptr_array_index(logs, i)))
			g_ptr_array_add(replayed, g_ptr_array_index(logs, i));
	g_autofree char *page = html_report_page(json, csv, replayed);
	return g_file_set_contents(html_path, page, -1, error);
}
