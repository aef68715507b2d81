/*
 * report: a tournament's report.html. See report.h.
 */
#include "tournaments/report.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "referee/gamelog.h"
#include "referee/html.h"
#include "referee/json.h"
#include "referee/replay.h"
#include "engine/variant.h"

/* The empty stderr file of each seat of `log` that wrote nothing (the
 * referee makes one only at a bot's first byte): the report links every
 * seat's file. */
static void touch_stderr_files(const GameLog *log)
{
	for (int p = 0; p < log->config.nplayers; p++) {
		g_autofree char *path = g_strdup_printf("%s.seat%d.stderr", log->path, p);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
}

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
	if (log)
		touch_stderr_files(log);
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

/* The header lines of the log at outdir/rel: "referee V" and
 * "bot K NAME SHA256 COMMAND", into *version (when unset) and hashes
 * (name -> sha, first seen kept). Reads at most 16 KiB. */
static void scan_log_header(const char *outdir, const char *rel, char **version, GHashTable *hashes)
{
	g_autofree char *path = g_path_is_absolute(rel) ? g_strdup(rel) : g_build_filename(outdir, rel, NULL);
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;
	g_auto(GStrv) lines = NULL;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	lines = g_strsplit(buf, "\n", -1);
	for (int i = 0; lines[i] && strcmp(lines[i], "begin"); i++) {
		g_auto(GStrv) w = g_strsplit(lines[i], " ", 5);

		if (!*version && !strcmp(w[0], "referee") && w[1])
			*version = g_strdup(w[1]);
		else if (!strcmp(w[0], "bot") && w[1] && w[2] && w[3] &&
			 !g_hash_table_contains(hashes, w[2]))
			g_hash_table_insert(hashes, g_strdup(w[2]), g_strdup(w[3]));
	}
}

/*
 * What the report shows beyond standings.json, as a JSON object: when it
 * was written (UTC), the referee's version and each bot's program SHA-256
 * (from the games' log headers, scanned until 16 logs in a row name no
 * new bot), the time control and fault policy (OUTPUT/identity.txt).
 */
static char *report_meta(const char *outdir, const GPtrArray *logs)
{
	g_autoptr(GString) j = g_string_new("{\"written\": ");
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autofree char *date = g_date_time_format(now, "%Y-%m-%d %H:%M:%S UTC");
	g_autofree char *version = NULL, *identity = NULL;
	g_autofree char *id_path = g_build_filename(outdir, "identity.txt", NULL);
	g_autoptr(GHashTable) hashes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GList) names = NULL;
	guint quiet = 0;

	for (guint i = 0; i < logs->len && quiet < 16; i++) {
		guint before = g_hash_table_size(hashes);

		scan_log_header(outdir, g_ptr_array_index(logs, i), &version, hashes);
		quiet = g_hash_table_size(hashes) > before ? 0 : quiet + 1;
	}
	json_string(j, date);
	g_string_append(j, ", \"referee\": ");
	json_string(j, version ? version : "?");
	if (g_file_get_contents(id_path, &identity, NULL, NULL)) {
		g_auto(GStrv) lines = g_strsplit(identity, "\n", -1);

		for (int i = 0; lines[i]; i++)
			if (g_str_has_prefix(lines[i], "time=") || g_str_has_prefix(lines[i], "policy=")) {
				char *eq = strchr(lines[i], '=');

				*eq = '\0';
				g_string_append_printf(j, ", \"%s\": ", lines[i]);
				json_string(j, eq + 1);
			}
	}
	/* the variants where the lower score wins (rush: squares left
	 * uncovered), so the page can say so */
	g_string_append(j, ", \"lower_wins\": [");
	const Variant *const *all = variant_all();
	for (int i = 0, k = 0; all[i]; i++)
		if (all[i]->lower_score_wins) {
			g_string_append(j, k++ ? ", " : "");
			json_string(j, all[i]->name);
		}
	g_string_append(j, "]");
	g_string_append(j, ", \"hashes\": {");
	names = g_list_sort(g_hash_table_get_keys(hashes), (GCompareFunc)strcmp);
	for (GList *l = names; l; l = l->next) {
		g_string_append(j, l == names ? " " : ", ");
		json_string(j, l->data);
		g_string_append(j, ": ");
		json_string(j, g_hash_table_lookup(hashes, l->data));
	}
	g_string_append(j, names ? " } }" : "} }");
	return g_string_free(g_steal_pointer(&j), FALSE);
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
	g_autofree char *meta = report_meta(outdir, logs);
	g_autofree char *page = html_report_page(json, csv, replayed, meta);
	return g_file_set_contents(html_path, page, -1, error);
}
