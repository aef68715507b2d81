/* The game log reader and everything behind verify, view and rerun. */
#include <stdio.h>

#include <glib.h>

#include "fuzz.h"
#include "referee/gamelog.h"
#include "referee/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *copy = g_memdup2(data, size);
	g_autoptr(GameLog) log = gamelog_parse("fuzz.log", copy, size, NULL, NULL);

	if (!log)
		return 0;
	FILE *devnull = fopen("/dev/null", "w");
	replay_verify(log, NULL);
	replay_view(log, TRUE, FALSE, devnull, NULL, NULL);
	replay_compare(log, log, NULL);
	fclose(devnull);
	return 0;
}
