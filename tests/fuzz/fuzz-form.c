/* The start page's form (`POST /games`, server/form.h): a new game's
 * variant, seats, seed, time control and options. */
#include <string.h>

#include <glib.h>

#include "fuzz.h"
#include "server/form.h"

static gboolean known(const char *name, void *data)
{
	(void)data;
	return strcmp(name, "bot-link") == 0 || strcmp(name, "bot-random") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FormGame g;
	GError *err = NULL;

	if (form_parse((const char *)data, size, known, NULL, &g, &err))
		form_game_clear(&g);
	else
		g_error_free(err);
	return 0;
}
