/*
 * html: self-contained HTML pages (docs/viewer.md). Each page is one file:
 * its style and script (the files in referee/viewer, built into the binary) and its
 * data (JSON from json.c and replay.c) inline, so it opens from disk, by
 * mail or as an attachment, with no network and no other file.
 */
#ifndef TETRARENA_REFEREE_HTML_H
#define TETRARENA_REFEREE_HTML_H

#include <glib.h>

/* The replay page of a game: `json` is replay_json()'s output. Newly
 * allocated. */
char *html_replay_page(const char *title, const char *json);

/*
 * A tournament's report page: `standings_json` is what standings.json
 * holds, `games_csv` what games.csv holds (one row per seat of a game),
 * `replayed` the games' log paths (as in games.csv) whose replay
 * LOG.html was written beside the log, `meta_json` a JSON object of what
 * the standings do not hold (written, referee, time, policy, hashes:
 * docs/viewer.md), or NULL. Newly allocated.
 */
char *html_report_page(const char *standings_json, const char *games_csv, const GPtrArray *replayed,
		       const char *meta_json);

/*
 * A page of the pages' style with `body` (HTML the caller built and
 * escaped) and no script: the ladder's pages. Newly allocated.
 */
char *html_static_page(const char *title, const char *body);
/* One of the pages' built-in files by name ("viewer.css", "common.js",
 * "boards.js", "replay.js", "report.js", the play pages' "play-kit.js",
 * "play-link.js", "play-tetroll.js", "play-rush.js", "play-matrix.js"; the
 * web server serves them), its
 * length in *len; NULL for any other name. */
const char *html_asset(const char *name, gsize *len);

#endif
