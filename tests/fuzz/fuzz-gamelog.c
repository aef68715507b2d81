/* The game log reader and everything behind verify, view (and view
 * --html) and rerun; an input holding a form feed is two logs, a game and
 * its rerun, which rerun's explanation of a difference reads
 * (referee/differ.h). */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fuzz.h"
#include "referee/differ.h"
#include "referee/gamelog.h"
#include "referee/html.h"
#include "referee/replay.h"

/* Two logs split at the first form feed: what rerun says of them. */
static void two_logs(const uint8_t *data, size_t size)
{
	const uint8_t *ff = memchr(data, '\f', size);

	if (!ff)
		return;
	size_t na = (size_t)(ff - data), nb = size - na - 1;
	g_autofree char *a = g_memdup2(data, na), *b = g_memdup2(ff + 1, nb);
	g_autoptr(GameLog) game = gamelog_parse("game.log", a, na, NULL, NULL);
	g_autoptr(GameLog) rerun = game ? gamelog_parse("rerun.log", b, nb, NULL, NULL) : NULL;
	if (game && rerun) {
		g_autofree char *why = differ_explain(game, rerun);
		replay_aborted(game);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	two_logs(data, size);
	g_autofree char *copy = g_memdup2(data, size);
	g_autoptr(GameLog) log = gamelog_parse("fuzz.log", copy, size, NULL, NULL);

	if (!log)
		return 0;
	FILE *devnull = fopen("/dev/null", "w");
	replay_verify(log, NULL);
	replay_view(log, TRUE, FALSE, devnull, NULL, NULL);
	replay_compare(log, log, NULL);
	g_autofree char *json = replay_json(log, NULL);
	g_autofree char *page = json ? html_replay_page("fuzz", json) : NULL;
	fclose(devnull);
	return 0;
}
