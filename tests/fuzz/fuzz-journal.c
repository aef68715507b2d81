/* The tournament journal, whole and line by line. */
#include <glib.h>

#include "fuzz.h"
#include "tournaments/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	JournalHeader h = {0};
	GPtrArray *games = NULL;

	if (journal_read(fuzz_file(data, size), &h, &games, NULL, NULL)) {
		for (guint i = 0; i < games->len; i++)
			g_free(journal_game_format(g_ptr_array_index(games, i)));
		g_ptr_array_unref(games);
	}
	journal_header_clear(&h);
	return 0;
}
