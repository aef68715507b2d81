/* The bots file (`--bots FILE`, [bot NAME] groups). */
#include <glib.h>

#include "fuzz.h"
#include "referee/bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GHashTable *bots = bot_spec_file_load(fuzz_file(data, size), NULL);

	if (bots)
		g_hash_table_unref(bots);
	return 0;
}
