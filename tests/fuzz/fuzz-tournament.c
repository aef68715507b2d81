/* The tournament file ([tournament] and [bots]). */
#include <glib.h>

#include "fuzz.h"
#include "tournaments/tournament.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(TournamentConfig) cfg = tournament_config_new();

	tournament_config_load(cfg, fuzz_file(data, size), NULL);
	return 0;
}
